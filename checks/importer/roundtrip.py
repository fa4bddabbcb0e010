"""An imported draft against a hand encoding of the same paper.

For each hand-encoded ALGEBRA or SCALAR row with an ``eq=`` number: is there an imported
step with that number whose relation is the same after mapping symbols by name?  Names
are compared without case and underscores (``sigma_DP`` is ``sigma_dp``, ``tau_0`` is
``tau0``); a hand symbol no imported name matches stays itself (a stand-in of the
encoder's, such as ``gap`` for l(θ) − l(θ*), cannot match).  Two relations are the same
when their directions agree (``a ≥ b`` is ``b ≤ a``) and the differences ``lhs − rhs``
agree: SymPy simplifies their difference to 0, or they agree at random positive points.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

import sympy as sp

from theory.model import StepKind, walk_steps


@dataclass
class Recall:
    rows: int = 0
    matched: int = 0
    missing_number: int = 0                 # no imported step carries the row's number
    unmatched: list = field(default_factory=list)   # (hand step id, eq)

    @property
    def recall(self) -> float:
        return self.matched / self.rows if self.rows else 0.0


def _norm(name: str) -> str:
    return name.replace("_", "").lower()


def _signed(lhs, rel: str, rhs):
    """(difference, kind): ``lhs - rhs`` in ≤-form (≥ flipped), kind "le" or "eq"."""
    if rel in ("<=", "<"):
        return lhs - rhs, "le"
    if rel in (">=", ">"):
        return rhs - lhs, "le"
    return lhs - rhs, "eq"


def _same(a, b, rng: random.Random) -> bool:
    try:
        if sp.simplify(a - b) == 0:
            return True
    except Exception:  # noqa: BLE001 - fall back to sampling
        pass
    syms = sorted(a.free_symbols | b.free_symbols, key=str)
    if not syms:
        try:
            return abs(complex(a) - complex(b)) < 1e-9 * (1 + abs(complex(a)))
        except Exception:  # noqa: BLE001
            return False
    fa = sp.lambdify(syms, a, "mpmath")
    fb = sp.lambdify(syms, b, "mpmath")
    agree = 0
    for _ in range(6):
        point = [rng.uniform(0.3, 3.0) for _ in syms]
        try:
            va, vb = complex(fa(*point)), complex(fb(*point))
        except Exception:  # noqa: BLE001 - a point outside a side's domain
            continue
        if abs(va - vb) > 1e-8 * (1 + abs(va)):
            return False
        agree += 1
    return agree >= 3


def compare(imported_results, hand_results, seed: int = 0) -> Recall:
    """The recall of ``hand_results``' numbered algebra rows in ``imported_results``
    (both lists of :class:`theory.model.Result`)."""
    rng = random.Random(seed)
    by_eq: dict = {}
    names: dict = {}
    exact: dict = {}
    for r in imported_results:
        for loc in walk_steps(r):
            st = loc.step
            if st.eq:
                by_eq.setdefault(st.eq.lower(), []).append(st)
            for s in st.free_symbols:
                names.setdefault(_norm(s.name), set()).add(s)
                exact.setdefault(s.name.rstrip("_"), set()).add(s)
    out = Recall()
    for r in hand_results:
        for loc in walk_steps(r):
            st = loc.step
            if st.kind not in (StepKind.ALGEBRA, StepKind.SCALAR) or not st.eq:
                continue
            out.rows += 1
            cands = by_eq.get(str(st.eq).lower(), [])
            if not cands:
                out.missing_number += 1
                out.unmatched.append((loc.id, st.eq))
                continue
            sub = {}
            for s in st.free_symbols:
                got = exact.get(s.name) or names.get(_norm(s.name))
                if got and len(got) == 1:
                    sub[s] = next(iter(got))
            plain = {s: sp.Symbol(s.name) for s in set().union(*(c.free_symbols for c in cands))}
            hd, hk = _signed(st.lhs.xreplace(sub), st.rel.value, st.rhs.xreplace(sub))
            hd = hd.xreplace({s: sp.Symbol(s.name) for s in hd.free_symbols})
            hit = False
            for c in cands:
                cd, ck = _signed(c.lhs, c.rel.value, c.rhs)
                cd = cd.xreplace(plain)
                if ck != hk:
                    continue
                if _same(hd, cd, rng) or (hk == "eq" and _same(hd, -cd, rng)):
                    hit = True
                    break
            if hit:
                out.matched += 1
            else:
                out.unmatched.append((loc.id, st.eq))
    return out

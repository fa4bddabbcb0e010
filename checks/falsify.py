"""Counterexample search (DESIGN.md, *Numeric search*).

``search(claim, budget=N, seed=S)`` looks for a point where every hypothesis holds and
the conclusion fails, in four phases:

1. **random** — ``N`` points drawn at once with numpy (seeded), each symbol within its
   domain: the symbol's assumptions (positive, integer …) intersected with the bounds
   the hypotheses give it (``alpha > 1``, ``beta < 1``, ``mu <= L``, ``b <= n/5`` —
   isolated when the hypothesis is linear in the symbol with a coefficient of known
   sign).  Scales are log-uniform over 16 decades, with extra mass near every boundary
   (``1 + 1e-9`` for ``alpha > 1``) and on small integers;
2. **targeted** — Hypothesis drives the same sampler (``target()`` on the negated
   slack, derandomised from the seed) and shrinks a failure to a small witness;
3. **polish** — scipy's Nelder–Mead minimises the slack from the best points found;
4. **confirm** — every candidate is rationalised (small denominators first) and
   re-evaluated with mpmath at 50 and 80 digits: the conclusion must fail and every
   hypothesis (and every symbol assumption, integrality included) must hold; then, as
   the final arbiter, SymPy's adaptive-precision ``evalf(strict=True)`` on the exact
   rationals decides every sign again (``simplify`` where a difference cannot be told
   from 0).  Only then is it a counterexample.

Differences are judged against the sum of the absolute values of the terms, so an
identity written as ``A - B = 0`` is not "violated" by rounding residue.

The *slack* of ``a <= b`` is ``(b - a) / max(|a|, |b|)`` (negative ⇔ violated); of an
equation ``-|a - b| / max(|a|, |b|)``; ``And`` takes the minimum, ``Or`` the maximum.
"""
from __future__ import annotations

import functools
import math
import warnings
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Sequence

import mpmath
import numpy as np
import sympy as sp

from checks.search import N_MODES, targeted

from checks.claim import (Claim, is_integer_symbol, lambdify, relations,
                          symbol_constraints)

#: relative slack below which a float evaluation is a *candidate* violation
CANDIDATE_TOL = 1e-9
#: relative slack an mpmath evaluation must be below (at 50 and 80 digits) to count
CONFIRM_TOL = mpmath.mpf(10) ** -30
#: digits for confirmation (DESIGN.md, *Verdicts*: ≥ 50)
DIGITS = (50, 80)
DECADES = 8          # log-uniform magnitudes 10**-8 .. 10**8
_CONFIRMED = "confirmed (mpmath at 50 and 80 digits, exact SymPy signs)"
#: Nelder–Mead evaluations per polishing start (at most)
POLISH_MAXFEV = 300
#: simple values tried by the 'nice' sampling mode (witnesses people can read)
NICE = np.array([1.0, 2.0, 0.5, 3.0, 10.0, 0.1, 5.0, 0.25, 100.0, 1000.0, 0.01])
NICE_FRAC = np.array([0.5, 0.25, 0.75, 0.1, 0.9])


@dataclass
class SearchOutcome:
    counterexample: dict[str, str] | None = None   # name -> exact string
    slack: float | None = None                     # smallest slack seen (feasible points)
    where: dict[str, str] | None = None            # where it was seen
    samples: int = 0                               # points evaluated
    feasible: int = 0                              # of which satisfied the hypotheses
    detail: str = ""


# --------------------------------------------------------------------------------------
# domains
@dataclass(frozen=True)
class _Bound:
    expr: sp.Expr          # bound in terms of earlier symbols (or a number)
    lower: bool
    strict: bool


@dataclass
class _Domain:
    sym: sp.Symbol
    integer: bool
    lo: float = -math.inf
    hi: float = math.inf
    lo_strict: bool = False
    hi_strict: bool = False
    dep: list[_Bound] = field(default_factory=list)   # bounds on earlier symbols
    dep_fns: list = field(default_factory=list)


#: per process: the proof steps of a result share its hypotheses, so the same relation is
#: isolated (expanded, simplified), its bound compiled and the relation itself compiled
#: for claim after claim
_DOMAIN_MEMO: dict = {}
_DOMAIN_MEMO_MAX = 1 << 14


def _remembered(key, make):
    got = _DOMAIN_MEMO.get(key, _DOMAIN_MEMO)
    if got is _DOMAIN_MEMO:
        if len(_DOMAIN_MEMO) > _DOMAIN_MEMO_MAX:
            _DOMAIN_MEMO.clear()
        got = _DOMAIN_MEMO[key] = make()
    return got


def _isolate(rel, sym, earlier: set) -> _Bound | None:
    """``rel`` as a bound on ``sym`` in terms of ``earlier`` symbols, if linear in sym
    with a coefficient of known sign (a pure function of the relation, the symbol and the
    earlier symbols it holds: remembered)."""
    key = ("isolate", rel, sym, frozenset(rel.free_symbols & set(earlier)))
    return _remembered(key, lambda: _isolate_now(rel, sym, earlier))


def _isolate_now(rel, sym, earlier: set) -> _Bound | None:
    if isinstance(rel, (sp.Equality, sp.Unequality)):
        return None
    if not isinstance(rel, (sp.GreaterThan, sp.StrictGreaterThan, sp.LessThan,
                            sp.StrictLessThan)):
        return None
    e = sp.expand(rel.lhs - rel.rhs)           # e REL 0
    if not e.free_symbols <= earlier | {sym}:
        return None
    poly = e.as_poly(sym)
    if poly is None or poly.degree() != 1:
        return None
    coef, rest = poly.all_coeffs()
    if coef.is_positive:
        sign = 1
    elif coef.is_negative:
        sign = -1
    else:
        return None
    bound = sp.simplify(-rest / coef)
    ge = isinstance(rel, (sp.GreaterThan, sp.StrictGreaterThan))
    strict = isinstance(rel, (sp.StrictGreaterThan, sp.StrictLessThan))
    # coef*sym + rest REL 0  <=>  sym REL' bound, REL' flipped when coef < 0
    lower = ge if sign > 0 else not ge
    return _Bound(bound, lower, strict)


def _domains(claim: Claim) -> list[_Domain]:
    return domains_for(claim.hypotheses, list(claim.symbols))


def domains_for(hypotheses, symbols) -> list[_Domain]:
    """Sampling domains of ``symbols`` (in that order) under relational ``hypotheses``:
    each symbol's own assumptions, constant bounds, and bounds in terms of earlier
    symbols where a hypothesis is linear in it (used by the statement checks too)."""
    syms = list(symbols)
    doms = []
    earlier: set = set()
    rels = [r for h in hypotheses for r in ([h] if not isinstance(h, sp.And) else h.args)]
    for s in syms:
        d = _Domain(s, is_integer_symbol(s))
        for c in symbol_constraints(s):
            b = _isolate(c, s, set())
            if b is not None:
                _apply_const(d, b)
        for r in rels:
            if s not in r.free_symbols:
                continue
            b = _isolate(r, s, earlier)
            if b is None:
                continue
            if b.expr.is_number:
                if b.expr.is_real and b.expr.is_finite:
                    _apply_const(d, b)
            else:
                d.dep.append(b)
        args = tuple(x for x in syms if x in earlier)
        d.dep_fns = [_remembered(("lambdify", args, bd.expr),
                                 lambda bd=bd: lambdify(args, bd.expr, modules="numpy"))
                     for bd in d.dep]
        doms.append(d)
        earlier.add(s)
    return doms


def _apply_const(d: _Domain, b: _Bound) -> None:
    v = float(b.expr)
    if b.lower:
        if v > d.lo or (v == d.lo and b.strict):
            d.lo, d.lo_strict = v, b.strict
    else:
        if v < d.hi or (v == d.hi and b.strict):
            d.hi, d.hi_strict = v, b.strict


# --------------------------------------------------------------------------------------
# the sampler: (mode, u) in {0..N_MODES-1} x [0, 1] -> a value in (lo, hi)
def _transform(mode, u, lo, hi, integer):
    """Vectorised quantile map.  Modes: 0 moderate log-scale, 1 wide log-scale,
    2 near the lower end, 3 near the upper end, 4 uniform, 5 small integers / unit
    fractions, 6 nice values (1, 2, 1/2, 10 …).

    Where every entry has one mode (a Hypothesis example: one point), only that mode's
    value is computed — the same operations on the same arrays as its share of the
    all-modes computation, so the same values, at a fifth of the calls."""
    mode = np.asarray(mode)
    u = np.asarray(u, dtype=float)
    lo = np.broadcast_to(np.asarray(lo, dtype=float), u.shape)
    hi = np.broadcast_to(np.asarray(hi, dtype=float), u.shape)
    with np.errstate(all="ignore"):
        finite_lo, finite_hi = np.isfinite(lo), np.isfinite(hi)
        width = np.where(finite_lo & finite_hi, hi - lo, np.nan)

        # magnitudes: each computed once per call, and only if a mode asks for it
        @functools.cache
        def wide():
            return 10.0 ** ((2 * u - 1) * DECADES)

        @functools.cache
        def moderate():
            return 10.0 ** ((2 * u - 1) * 3)

        @functools.cache
        def tiny():
            return 10.0 ** (-DECADES - 4 + (DECADES + 4) * u)       # 1e-12 .. 1

        def scaled(mag):
            # a value at "magnitude" mag within (lo, hi)
            both = lo + width * np.clip(mag / (1 + mag), 0, 1)
            only_lo = lo + mag
            only_hi = hi - mag
            sign = np.where(u < 0.5, -1.0, 1.0)
            none = sign * mag
            # for (lo, inf) with lo = 0 this is plain log-uniform
            return np.where(finite_lo & finite_hi, both,
                            np.where(finite_lo, only_lo,
                                     np.where(finite_hi, only_hi, none)))

        def near_lo():
            t = tiny()
            return np.where(finite_lo, lo + np.where(finite_hi, width * t, t *
                                                     np.maximum(1, np.abs(lo))), -wide())

        def near_hi():
            t = tiny()
            return np.where(finite_hi, hi - np.where(finite_lo, width * t, t *
                                                     np.maximum(1, np.abs(hi))), wide())

        def uniform():
            return np.where(finite_lo & finite_hi, lo + width * u, scaled(moderate()))

        def small():
            return np.where(finite_lo & finite_hi, lo + width * (np.floor(u * 4) + 1) / 5,
                            np.where(finite_lo, np.floor(lo) + 1 + np.floor(u * 10),
                                     np.where(finite_hi, np.ceil(hi) - 1 - np.floor(u * 10),
                                              np.floor(u * 10) - 5)))

        def nice():
            pick = NICE[np.minimum((u * len(NICE)).astype(int), len(NICE) - 1)]
            pick_f = NICE_FRAC[np.minimum((u * len(NICE_FRAC)).astype(int),
                                          len(NICE_FRAC) - 1)]
            return np.where(finite_lo & finite_hi, lo + width * pick_f,
                            np.where(finite_lo, lo + pick,
                                     np.where(finite_hi, hi - pick,
                                              np.where(u < 0.5, -pick, pick))))

        branches = (lambda: scaled(moderate()), lambda: scaled(wide()), near_lo, near_hi,
                    uniform, small, nice)
        flat = mode.reshape(-1)
        if flat.size and (flat == flat[0]).all():
            m = int(flat[0])
            out = np.asarray(branches[m if 0 <= m < N_MODES else 5](), dtype=float)
        else:
            picked = (0, 1, 2, 3, 4, 6)        # mode 5, and any other, is the default
            out = np.select([mode == m for m in picked], [branches[m]() for m in picked],
                            default=small())
        if integer:
            out = np.where((mode == 2) & finite_lo, np.ceil(lo), out)
            out = np.where((mode == 3) & finite_hi, np.floor(hi), out)
            out = np.round(out)
            out = np.where(np.isfinite(out) & (np.abs(out) <= 2.0**52), out, np.nan)
        return out


def _sample(doms: list[_Domain], modes: np.ndarray, us: np.ndarray) -> np.ndarray:
    """Values (k x n) for mode/u arrays of shape (k, n)."""
    n = modes.shape[1]
    vals = np.empty((len(doms), n))
    for i, d in enumerate(doms):
        lo = np.full(n, d.lo)
        hi = np.full(n, d.hi)
        lo_strict = np.full(n, d.lo_strict)
        hi_strict = np.full(n, d.hi_strict)
        if d.dep:
            args = vals[:i]
            for bd, fn in zip(d.dep, d.dep_fns):
                with np.errstate(all="ignore"):
                    v = np.broadcast_to(np.asarray(fn(*args), dtype=float), (n,))
                v = np.where(np.isfinite(v), v, np.nan)
                if bd.lower:
                    upd = ~(v <= lo) & ~np.isnan(v)
                    lo = np.where(upd, v, lo)
                    lo_strict = np.where(upd, bd.strict, lo_strict)
                else:
                    upd = ~(v >= hi) & ~np.isnan(v)
                    hi = np.where(upd, v, hi)
                    hi_strict = np.where(upd, bd.strict, hi_strict)
        x = _transform(modes[i], us[i], lo, hi, d.integer)
        if d.integer:
            x = np.where(lo_strict & (x == lo), x + 1, x)
            x = np.where(hi_strict & (x == hi), x - 1, x)
        else:
            x = np.where(lo_strict & (x <= lo), np.nextafter(lo, np.inf), x)
            x = np.where(hi_strict & (x >= hi), np.nextafter(hi, -np.inf), x)
        x = np.where((x < lo) | (x > hi), np.nan, x)
        vals[i] = x
    return vals


def _earlier_syms(doms, i):
    return {d.sym for d in doms[:i]}


# --------------------------------------------------------------------------------------
# slack of a boolean, vectorised over numpy arrays or on mpmath numbers
class _RelationFns:
    """One relation compiled for numeric evaluation: ``(lhs, rhs, term scale)`` as a
    numpy function and (on first use) an mpmath one, of the relation's own symbols in
    name order.  Remembered per process (:func:`_relation_fns`): the rows of a proof
    share their result's hypotheses, so most relations of a row's claim were already
    compiled for the row before it."""

    def __init__(self, r):
        self.syms = sorted(r.free_symbols, key=lambda s: s.name)
        exprs, np_funcs, mp_funcs = _numeric_ready([r.lhs, r.rhs, _term_scale(r)])
        self.np = lambdify(self.syms, _float_friendly(exprs), modules=[np_funcs, "numpy"])
        self._mp_src = (exprs, mp_funcs)
        self._mp = None

    def mp(self, *args):
        if self._mp is None:
            exprs, mp_funcs = self._mp_src
            self._mp = lambdify(self.syms, exprs, modules=[mp_funcs, "mpmath"])
        return self._mp(*args)


def _relation_fns(r) -> _RelationFns:
    return _remembered(("relation", r), lambda: _RelationFns(r))


class SlackEvaluator:
    """Compiles the claim's relations once: ``(hyp_ok, slack)`` for many points."""

    def __init__(self, claim: Claim):
        self.claim = claim
        self.syms = list(claim.symbols)
        self.rels = []
        for b in (claim.conclusion, *claim.hypotheses):
            for r in relations(b):
                if r not in self.rels:
                    self.rels.append(r)
        # per relation: lhs, rhs, and the sum of the absolute values of their top-level
        # terms — the scale against which a difference is judged (a - b = 0 with large
        # a, b is a cancellation, not a violation); each relation takes its own symbols,
        # picked from the claim's by position
        where = {s: i for i, s in enumerate(self.syms)}
        self.parts = []
        for r in self.rels:
            fns = _relation_fns(r)
            missing = [s for s in fns.syms if s not in where]
            if missing:
                raise ValueError(f"symbol {missing[0]} of {r} is not among the claim's")
            self.parts.append((fns, [where[s] for s in fns.syms]))
        self.strict = isinstance(claim.conclusion, (sp.StrictLessThan, sp.StrictGreaterThan))

    # ---- numpy
    def sides_np(self, vals: np.ndarray) -> list[np.ndarray]:
        n = vals.shape[1]
        out = []
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for fns, idx in self.parts:
                try:
                    res = fns.np(*vals[idx])
                    out += [_as_column(o, n) for o in res]
                except Exception:
                    out += self._pointwise(fns, idx, vals)
        return out

    def _pointwise(self, fns, idx, vals):
        n = vals.shape[1]
        cols = [np.full(n, np.nan) for _ in range(3)]
        syms = [self.syms[i] for i in idx]
        for j in range(n):
            args = [_pyval(v, s) for v, s in zip(vals[idx, j], syms)]
            try:
                res = fns.np(*args)
            except Exception:
                continue
            for k, r in enumerate(res):
                try:
                    cols[k][j] = float(r)
                except (TypeError, ValueError, OverflowError):
                    pass
        return cols

    def slacks_np(self, vals):
        """(feasible mask, conclusion slack) for a (k x n) array of points."""
        sides = self.sides_np(vals)
        if vals.shape[1] == 1:
            return self._slacks_one(vals, sides)
        rel_slack = {}
        for k, r in enumerate(self.rels):
            a, b, sc = sides[3 * k], sides[3 * k + 1], sides[3 * k + 2]
            rel_slack[r] = _rel_slack_np(r, a, b, sc)
        ok = np.ones(vals.shape[1], dtype=bool)
        ok &= np.all(np.isfinite(vals), axis=0)
        n = vals.shape[1]
        for h in self.claim.hypotheses:
            s, strict = _bool_np(h, rel_slack)
            ok &= (s > 0) if strict else (s >= 0)     # NaN compares False: not ok
        concl, self.strict = _bool_np(self.claim.conclusion, rel_slack)
        concl = np.array(np.broadcast_to(concl, (n,)), dtype=float)
        ok &= ~np.isnan(concl)
        return ok, concl

    def _slacks_one(self, vals, sides):
        """:meth:`slacks_np` at one point (the polish and the targeted phase ask one at a
        time), in Python floats: the same IEEE operations as the array path
        (:func:`_rel_slack_1`, then :func:`_bool_np` on floats) without numpy's per-call
        overhead."""
        rel_slack = {}
        for k, r in enumerate(self.rels):
            rel_slack[r] = _rel_slack_1(float(sides[3 * k][0]), float(sides[3 * k + 1][0]),
                                        float(sides[3 * k + 2][0]))
        ok = all(math.isfinite(x) for x in vals[:, 0].tolist())
        for h in self.claim.hypotheses:
            s, strict = _bool_np(h, rel_slack)
            ok = ok and ((s > 0) if strict else (s >= 0))   # NaN compares False: not ok
        concl, self.strict = _bool_np(self.claim.conclusion, rel_slack)
        concl = float(concl)
        ok = ok and not math.isnan(concl)
        return np.array([ok]), np.array([concl])

    def candidate(self, slack):
        """Is a float slack a candidate violation?  (Near 0 too, for strict claims:
        equality decides them, and only exact arithmetic can tell.)"""
        slack = np.asarray(slack)
        if self.strict:
            return slack <= CANDIDATE_TOL
        return slack < -CANDIDATE_TOL

    # ---- mpmath
    def _mp(self, *args):
        """Every relation's (lhs, rhs, term scale) at the claim's point ``args``."""
        out = []
        for fns, idx in self.parts:
            out += list(fns.mp(*[args[i] for i in idx]))
        return out

    def slack_mp(self, point: dict[sp.Symbol, Fraction], dps: int):
        """(hypotheses hold, conclusion slack) at ``dps`` digits; exact SymPy decides
        values within CONFIRM_TOL of a boundary."""
        with mpmath.workdps(dps):
            args = [_mpval(point[s], s) for s in self.syms]
            sides = self._mp(*args)
            rel_slack = {}
            for k, r in enumerate(self.rels):
                rel_slack[r] = self._rel_slack_mp(r, sides[3 * k], sides[3 * k + 1],
                                                  sides[3 * k + 2], point)
            hyps_ok = all(_bool_mp(h, rel_slack) for h in self.claim.hypotheses)
            concl = _bool_mp_slack(self.claim.conclusion, rel_slack)
            return hyps_ok, concl

    def slack_value(self, x: np.ndarray, dps: int = 30) -> float | None:
        """The conclusion's slack at a float point, evaluated with mpmath (for reports:
        float slacks suffer cancellation)."""
        try:
            with mpmath.workdps(dps):
                args = [(int(v) if s.is_integer else mpmath.mpf(float(v)))
                        for v, s in zip(x, self.syms)]
                sides = self._mp(*args)
                rel_slack = {}
                for k, r in enumerate(self.rels):
                    a, b = mpmath.mpmathify(sides[3 * k]), mpmath.mpmathify(sides[3 * k + 1])
                    sc = mpmath.mpmathify(sides[3 * k + 2])
                    if a.imag or b.imag or sc.imag:
                        return None
                    a, b = a.real, b.real
                    scale = max(abs(a), abs(b), abs(sc.real))
                    rel_slack[r] = np.array(float((b - a) / scale) if scale else 0.0)
            val, _ = _bool_np(self.claim.conclusion, rel_slack)
            val = float(val)
            return val if math.isfinite(val) else None
        except Exception:
            return None

    def _rel_slack_mp(self, r, a, b, sc, point):
        """(signed slack, exact_zero) for a relation at mpmath precision; a difference
        within CONFIRM_TOL of 0 (relative to the terms' scale) is decided exactly."""
        a, b, sc = mpmath.mpmathify(a), mpmath.mpmathify(b), mpmath.mpmathify(sc)
        if not (mpmath.isfinite(a) and mpmath.isfinite(b)) or a.imag or b.imag:
            return (None, False)
        a, b = a.real, b.real
        scale = max(abs(a), abs(b), abs(sc.real) if mpmath.isfinite(sc) else 0)
        diff = b - a
        rel = diff / scale if scale else mpmath.mpf(0)
        exact_zero = False
        if abs(rel) < CONFIRM_TOL:
            sub = {s: sp.Rational(v.numerator, v.denominator) for s, v in point.items()}
            sgn = _sign_exact(r.rhs - r.lhs, sub)
            if sgn is None:
                return (None, False)
            exact_zero = sgn == 0
            rel = mpmath.mpf(sgn) * CONFIRM_TOL   # tiny, with the exact sign
        return (rel, exact_zero)


#: a sum with more terms than this is not evaluated (the point is skipped)
MAX_SUM_TERMS = 20_000


def _harmonic_np(n, m=1):
    from scipy import special
    n = np.asarray(n, dtype=float)
    if np.all(np.asarray(m) == 1):
        return special.digamma(n + 1) + np.euler_gamma
    return special.zeta(m) - special.zeta(m, n + 1)


def _harmonic_mp(n, m=1):
    if m == 1:
        return mpmath.harmonic(n)
    return mpmath.zeta(m) - mpmath.zeta(m, n + 1)


def _numeric_ready(exprs):
    """Prepare expressions for numeric evaluation: ``Sum`` → its closed form when SymPy
    finds one, else a capped term-by-term evaluator; ``harmonic`` via digamma/zeta."""
    np_funcs = {"harmonic": _harmonic_np}
    mp_funcs = {"harmonic": _harmonic_mp}
    counter = [0]

    def replace_sum(e):
        closed = e.doit()
        if not closed.has(sp.Sum) and not closed.has(sp.Piecewise):
            return closed
        if len(e.limits) != 1:
            raise ValueError(f"nested sums are not supported: {e}")
        (idx, lo, hi), = e.limits
        others = sorted(e.free_symbols, key=lambda x: x.name)
        counter[0] += 1
        name = f"_dpsum{counter[0]}"
        f_np = lambdify([idx] + others, e.function, modules="numpy")
        f_mp = lambdify([idx] + others, e.function, modules="mpmath")
        bounds = lambdify(others, [lo, hi], modules="math")

        def one_np(*vals):
            a, b = bounds(*vals)
            if not (math.isfinite(a) and math.isfinite(b)) or b - a + 1 > MAX_SUM_TERMS:
                return math.nan
            ks = np.arange(int(round(a)), int(round(b)) + 1, dtype=float)
            if ks.size == 0:
                return 0.0
            return float(np.sum(np.broadcast_to(f_np(ks, *vals), ks.shape)))

        def np_impl(*arrays):
            arrays = np.broadcast_arrays(*[np.asarray(a, dtype=float) for a in arrays])
            flat = [a.ravel() for a in arrays]
            out = np.array([one_np(*[f[i] for f in flat]) for i in range(flat[0].size)])
            return out.reshape(arrays[0].shape) if arrays else out

        def mp_impl(*vals):
            a, b = (int(v) for v in bounds(*[float(v) for v in vals]))
            if b - a + 1 > MAX_SUM_TERMS:
                raise ValueError("sum too long")
            return mpmath.fsum(f_mp(k, *vals) for k in range(a, b + 1))

        np_funcs[name] = np_impl
        mp_funcs[name] = mp_impl
        return sp.Function(name)(*others)

    out = [e.replace(lambda x: isinstance(x, sp.Sum), replace_sum) for e in exprs]
    return out, np_funcs, mp_funcs


def _float_friendly(exprs):
    """log(1 + x) → log1p(x): fewer false float violations near 0 (cheap rewrite)."""
    from sympy.codegen.cfunctions import log1p

    def is_log1p(x):
        return (isinstance(x, sp.log) and len(x.args) == 1 and isinstance(x.args[0], sp.Add)
                and sp.S.One in x.args[0].args)

    return [e.replace(is_log1p, lambda x: log1p(x.args[0] - 1)) for e in exprs]


def _pyval(v, s):
    if s.is_integer and np.isfinite(v):
        return int(v)
    return float(v)


def _mpval(v: Fraction, s):
    if s.is_integer:
        return int(v)
    return mpmath.mpf(v.numerator) / v.denominator


def _term_scale(r) -> sp.Expr:
    """Σ|t| over the top-level terms of both sides (0 when each side is one term)."""
    terms = list(sp.Add.make_args(r.lhs)) + list(sp.Add.make_args(r.rhs))
    if len(terms) <= 2:
        return sp.Integer(0)
    return sp.Add(*[sp.Abs(t) for t in terms])


def _as_column(o, n: int) -> np.ndarray:
    o = np.asarray(o, dtype=float)
    if o.shape == (n,):
        return o
    if o.ndim == 0:                 # a constant side: np.full is a seventh of broadcast_to
        return np.full(n, o)
    return np.broadcast_to(o, (n,))


_DBL_MAX = float(np.finfo(float).max)


def _rel_slack_np(r, a, b, sc=0.0):
    # |sc| with NaN → 0 and ∞ → the largest double (np.nan_to_num, without its overhead)
    sc = np.abs(sc)
    sc = np.where(np.isnan(sc), 0.0, np.minimum(sc, _DBL_MAX))
    scale = np.maximum(np.maximum(np.abs(a), np.abs(b)), sc)
    with np.errstate(all="ignore"):
        rel = np.where(scale > 0, (b - a) / np.where(scale > 0, scale, 1), 0.0)
    rel = np.where(np.isfinite(a) & np.isfinite(b), rel, np.nan)
    return rel


def _rel_slack_1(a: float, b: float, sc: float) -> float:
    """:func:`_rel_slack_np` at one point, in Python floats (the same value: a non-finite
    side gives NaN, else (b − a)/max(|a|, |b|, |sc|) with a NaN sc read as 0 and ∞ as
    the largest double, 0 where that scale is 0)."""
    if not (math.isfinite(a) and math.isfinite(b)):
        return math.nan
    sc = abs(sc)
    sc = 0.0 if math.isnan(sc) else min(sc, _DBL_MAX)
    scale = max(abs(a), abs(b), sc)
    return (b - a) / scale if scale > 0 else 0.0


def _orient(r, rel):
    """slack oriented for r: >= 0 means r holds (for '=' see _bool)."""
    if isinstance(r, (sp.LessThan, sp.StrictLessThan)):
        return rel
    if isinstance(r, (sp.GreaterThan, sp.StrictGreaterThan)):
        return -rel
    raise TypeError


def _bool_np(b, rel_slack):
    """(slack array, strict) — strict means the boolean holds only for slack > 0.  The
    slacks may also be Python floats (one point, :func:`_rel_slack_1`): the same
    operations, the Equality's on floats without numpy."""
    if isinstance(b, sp.core.relational.Relational):
        rel = rel_slack[b]
        if isinstance(b, sp.Equality):
            if isinstance(rel, float):
                return -abs(0.0 if abs(rel) < 1e-12 else rel), False
            return -np.abs(np.where(np.abs(rel) < 1e-12, 0.0, rel)), False
        if isinstance(b, sp.Unequality):
            return abs(rel), True
        return _orient(b, rel), isinstance(b, (sp.StrictLessThan, sp.StrictGreaterThan))
    if isinstance(b, (sp.And, sp.Or)):
        parts = [_bool_np(a, rel_slack) for a in b.args]
        # strictness: treat mixed as non-strict with tiny margin for strict parts
        arrs = [p[0] - (1e-300 if p[1] else 0) for p in parts]
        f = np.minimum if isinstance(b, sp.And) else np.maximum
        out = arrs[0]
        for a in arrs[1:]:
            out = f(out, a)
        return out, False
    if isinstance(b, sp.Not):
        s, strict = _bool_np(b.args[0], rel_slack)
        return -s, not strict
    if b is sp.true:
        return np.array(1.0), False
    if b is sp.false:
        return np.array(-1.0), False
    raise TypeError(f"cannot evaluate {b}")


def _holds_mp(b, rel_slack) -> bool | None:
    """Truth of a boolean at the confirmation precision (None: undecidable here)."""
    if isinstance(b, sp.core.relational.Relational):
        rel, zero = rel_slack[b]
        if rel is None:
            return None
        if isinstance(b, sp.Equality):
            return zero
        if isinstance(b, sp.Unequality):
            return not zero
        if zero:
            return not isinstance(b, (sp.StrictLessThan, sp.StrictGreaterThan))
        return _orient(b, rel) > 0
    if isinstance(b, sp.And):
        vals = [_holds_mp(a, rel_slack) for a in b.args]
        if any(v is False for v in vals):
            return False
        return None if any(v is None for v in vals) else True
    if isinstance(b, sp.Or):
        vals = [_holds_mp(a, rel_slack) for a in b.args]
        if any(v is True for v in vals):
            return True
        return None if any(v is None for v in vals) else False
    if isinstance(b, sp.Not):
        v = _holds_mp(b.args[0], rel_slack)
        return None if v is None else not v
    if b is sp.true:
        return True
    if b is sp.false:
        return False
    return None


def _bool_mp(b, rel_slack) -> bool:
    return _holds_mp(b, rel_slack) is True


def _bool_mp_slack(b, rel_slack):
    """The conclusion's truth: False (violated, decided), True, or None."""
    return _holds_mp(b, rel_slack)


# --------------------------------------------------------------------------------------
# confirmation
def _rationalisations(x: float, integer: bool) -> list[Fraction]:
    if integer:
        return [Fraction(int(round(x)))]
    out: list[Fraction] = []
    f = Fraction(x)
    for den in (1, 10, 100, 1000, 10**4, 10**6, 10**9, 10**12):
        c = f.limit_denominator(den)
        if c not in out:
            out.append(c)
    # short decimals
    for digits in (1, 2, 3, 6, 12):
        try:
            c = Fraction(f"{x:.{digits}g}")
        except ValueError:
            continue
        if c not in out:
            out.append(c)
    if f not in out:
        out.append(f)
    return out


def simplify_point(ev: "SlackEvaluator", x: np.ndarray, rounds: int = 2) -> np.ndarray:
    """Greedily replace coordinates of a violating point by simpler numbers (1, 2, 1/2,
    10, one significant digit, powers of ten ...) while it stays feasible and violating
    (float check), then shrink each coordinate still long to the simplest rational of the
    interval around it where the point keeps violating (Hypothesis-style: t = 1/2, not
    t = 4·10⁻¹²); the result is then confirmed exactly as usual."""
    x = np.array(x, dtype=float)

    def violates(p):
        ok, concl = ev.slacks_np(p[:, None])
        return bool(ok[0]) and ev.candidate(concl[0])

    if not violates(x):
        return x
    for _ in range(rounds):
        changed = False
        for i, s in enumerate(ev.syms):
            v = x[i]
            cands = [0.0, 1.0, 2.0, 0.5, 10.0, 0.1, 3.0, 100.0, 0.01, -1.0]
            if v != 0 and math.isfinite(v):
                mag = 10.0 ** math.floor(math.log10(abs(v)))
                cands += [math.copysign(mag, v), math.copysign(10 * mag, v),
                          float(f"{v:.1g}"), float(f"{v:.2g}"), float(round(v))]
            for c in sorted(set(cands), key=lambda c: (complexity(c), abs(c - v))):
                if c == v or complexity(c) >= complexity(v):
                    continue
                if s.is_integer and c != round(c):
                    continue
                y = x.copy()
                y[i] = c
                if violates(y):
                    x, changed = y, True
                    break
        if not changed:
            break
    for i, s in enumerate(ev.syms):
        v = x[i]
        if not math.isfinite(v) or complexity(v) <= SIMPLE_ENOUGH:
            continue
        lo, hi = _violating_interval(x, i, violates)
        c = _simplest_between(lo, hi, integer=bool(s.is_integer))
        if c is not None and complexity(float(c)) < complexity(v):
            y = x.copy()
            y[i] = float(c)
            if violates(y):
                x = y
    return x


#: a coordinate this simple (digits of its shortest fraction) is left as it is
SIMPLE_ENOUGH = 4
#: probes on each side of a coordinate when its violating interval is measured
INTERVAL_PROBES = 40


def _violating_interval(x: np.ndarray, i: int, violates) -> tuple[float, float]:
    """The interval around x[i] (others fixed) over which the point keeps violating, as far
    as geometric probing finds it: steps doubling from 10⁻¹² of |x[i]| (or of 1) outward,
    each end the last step that still violates."""
    v = x[i]
    scale = abs(v) if v != 0 else 1.0
    ends = []
    for sign in (-1.0, 1.0):
        step, good = 1e-12 * scale, 0.0
        for _ in range(INTERVAL_PROBES):
            y = x.copy()
            y[i] = v + sign * step
            if not violates(y):
                break
            good = step
            step *= 2.0
        ends.append(v + sign * good)
    return ends[0], ends[1]


def _simplest_between(lo: float, hi: float, *, integer: bool = False) -> Fraction | None:
    """The rational with the smallest denominator (then the smallest |numerator|) in
    [lo, hi] (the Stern–Brocot descent on continued fractions); an integer when asked."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or lo > hi:
        return None
    if integer:
        c = math.ceil(lo) if lo > 0 else (math.floor(hi) if hi < 0 else 0)
        return Fraction(c) if lo <= c <= hi else None
    if lo <= 0 <= hi:
        return Fraction(0)
    if hi < 0:
        got = _simplest_between(-hi, -lo)
        return None if got is None else -got
    a, b = Fraction(lo), Fraction(hi)

    def rec(a, b):
        fl = math.floor(a)
        if fl + 1 <= b or a == fl:
            return Fraction(math.ceil(a))
        # a and b share the integer part: 1/(the simplest in [1/(b − fl), 1/(a − fl)])
        return fl + 1 / rec(1 / (b - fl), 1 / (a - fl))

    try:
        return rec(a, b)
    except (ZeroDivisionError, RecursionError):
        return None


def complexity(v: float) -> int:
    """Length of the shortest exact decimal-ish form (smaller is simpler)."""
    if not math.isfinite(v):
        return 10**6
    f = Fraction(v)
    for den in (1, 10, 100, 1000, 10**4, 10**6, 10**9, 10**12):
        c = f.limit_denominator(den)
        if float(c) == v:
            return len(str(c.numerator)) + len(str(c.denominator))
    return 60


def confirm(claim: Claim, point: dict, evaluator: SlackEvaluator | None = None
            ) -> dict[str, str] | None:
    """Re-check a candidate point at 50 and 80 digits (values rationalised first, small
    denominators tried first).  Returns the exact counterexample (name -> string, with
    defined symbols' values appended) or None."""
    ev = evaluator or SlackEvaluator(claim)
    syms = list(claim.symbols)
    floats = {}
    for s in syms:
        v = point.get(s, point.get(s.name))
        if v is None:
            return None
        try:
            fv = float(sp.Rational(v)) if isinstance(v, str) else float(v)
        except (TypeError, ValueError):
            return None
        if not math.isfinite(fv):
            return None
        floats[s] = (v, fv)
    # candidate exact points: per-symbol rationalisations, coarsest first (same level)
    levels = []
    per = {s: ([Fraction(str(sp.Rational(v[0])))] if isinstance(v[0], str) and "." not in v[0]
               else _rationalisations(v[1], is_integer_symbol(s))) for s, v in floats.items()}
    depth = max((len(c) for c in per.values()), default=1)
    for k in range(depth):
        levels.append({s: c[min(k, len(c) - 1)] for s, c in per.items()})
    tried = set()
    for cand in levels:
        key = tuple(sorted((s.name, v) for s, v in cand.items()))
        if key in tried:
            continue
        tried.add(key)
        if not _assumptions_hold(cand):
            continue
        ok = True
        for dps in DIGITS:
            try:
                hyps_ok, concl = ev.slack_mp(cand, dps)
            except (ZeroDivisionError, ValueError, TypeError, OverflowError):
                ok = False
                break
            if not hyps_ok or concl is not False:
                ok = False
                break
        if ok and not _exact_decide(claim, cand):
            ok = False
        if ok:
            out = {s.name: _exact_str(v) for s, v in sorted(cand.items(), key=lambda kv:
                                                              kv[0].name)}
            sub = {s: sp.Rational(v.numerator, v.denominator) for s, v in cand.items()}
            for dsym, dexpr in claim.definitions:
                val = dexpr.subs(sub)
                out[dsym.name] = str(val) if val.is_Rational else f"{str(val)} ≈ {sp.N(val, 20)}"
            return out
    return None


def _exact_decide(claim: Claim, point: dict[sp.Symbol, Fraction]) -> bool:
    """Final arbiter of a candidate: substitute the exact rationals and let SymPy's
    adaptive-precision ``evalf(strict=True)`` decide every sign (it raises rather than
    return digits it cannot guarantee; a difference it cannot separate from 0 is
    decided by ``simplify``).  True iff every hypothesis holds and the conclusion
    fails.  (mpmath at fixed precision is fooled by cancellation around 0.)"""
    sub = {s: sp.Rational(v.numerator, v.denominator) for s, v in point.items()}
    for h in claim.hypotheses:
        if decide_exact(h, sub) is not True:
            return False
    return decide_exact(claim.conclusion, sub) is False


#: expressions that bind symbols of their own (a sum's index, an integral's variable):
#: substituting into them is left to ``subs``, which never replaces a bound symbol
_BINDERS = (sp.concrete.expr_with_limits.ExprWithLimits, sp.Lambda, sp.Subs, sp.Derivative)
#: the largest exact power a substitution builds, in bits (|exponent| × the bits of the
#: rational base): beyond it the exact value is out of reach (a power of a 60-bit rational
#: to the 10⁶ has 6·10⁷ bits: minutes of integer arithmetic) and the sign is undecided
EXACT_POWER_BITS = 1 << 22
#: the largest integer argument of a factorial, binomial or gamma built exactly
EXACT_FACTORIAL_ARG = 1 << 14
_COMBINATORIAL = (sp.factorial, sp.binomial, sp.gamma, sp.RisingFactorial,
                  sp.FallingFactorial, sp.factorial2)


class ExactOutOfReach(ArithmeticError):
    """The exact value of an expression at a point needs more than the bounds above."""


def substitute_numbers(expr, sub: dict):
    """``expr.subs(sub)`` for ``sub`` mapping symbols to exact numbers, by one rebuild of
    the tree from its leaves (what ``xreplace`` does: nothing in ``expr`` binds a symbol,
    and every value is a number, so the value is the same) instead of ``subs``' rebuild
    per symbol — 60x less time when a witness with a dozen parameters is confirmed.  A
    power or factorial whose exact value would exceed :data:`EXACT_POWER_BITS` /
    :data:`EXACT_FACTORIAL_ARG` raises :class:`ExactOutOfReach` before it is built (an
    integer exponent a search drove up must not hang the run).  Expressions that bind a
    symbol keep ``subs``."""
    if not isinstance(expr, sp.Basic):
        return sp.sympify(expr).subs(sub)
    if expr.has(*_BINDERS):
        return expr.subs(sub)
    memo: dict = {}

    def build(e):
        got = sub.get(e)
        if got is not None:
            return got
        if not e.args:
            return e
        got = memo.get(e)
        if got is not None:
            return got
        args = tuple(build(a) for a in e.args)
        if all(a is b for a, b in zip(args, e.args)):
            out = e
        else:
            if isinstance(e, sp.Pow):
                _power_in_reach(*args)
            elif isinstance(e, _COMBINATORIAL):
                for a in args:
                    if a.is_Integer and abs(int(a)) > EXACT_FACTORIAL_ARG:
                        raise ExactOutOfReach(f"{e.func.__name__} of {a}")
            out = e.func(*args)
        memo[e] = out
        return out

    return build(expr)


def _power_in_reach(base, exp) -> None:
    if not exp.is_Rational or exp in (0, 1, -1):
        return
    if base.is_Rational:
        if base in (0, 1, -1):
            return
        bits = base.p.bit_length() + base.q.bit_length()
    elif base.is_number and not base.is_Atom:
        # a power of an expression (e.g. (1 + √2)^T) counts as one of a 64-bit rational
        bits = 64
    else:
        return
    if abs(int(exp.p)) * bits > EXACT_POWER_BITS:
        raise ExactOutOfReach(f"({base})^{exp}: about {abs(int(exp.p)) * bits} bits")


def _sign_exact(expr, sub) -> int | None:
    try:
        val = substitute_numbers(expr, sub)
    except ExactOutOfReach:
        return None       # undecided: the exact value is out of reach
    if val.has(sp.Sum):
        val = val.doit()
    try:
        v = val.evalf(DIGITS[0], strict=True, maxn=4000)
    except Exception:   # PrecisionExhausted: maybe exactly 0
        try:
            return 0 if sp.simplify(val) == 0 else None
        except Exception:
            return None
    if v.is_zero:
        return 0
    if not v.is_real or not v.is_finite:
        return None
    return 1 if v > 0 else -1


def holds_at(rel, sub: dict, dps: int = 50) -> bool | None:
    """Whether the relation (or And/Or of relations) ``rel`` holds at the exact values
    ``sub``, each side compared at ``dps`` digits (exactly where both sides are rational);
    None where it is neither a relation nor a truth value.

    The sides are substituted apart and never handed to SymPy's relational constructor
    with numbers in it: that decides ``a > b`` from ``(a − b).evalf(2)``, and at 2 digits
    log(10¹²/(10¹² − 1)) evaluates to 0 — ``10·√30·√log(10¹²/(10¹² − 1)) > 0`` came out
    False (a per-step property test's independent re-check caught it)."""
    if rel is sp.true or rel is True:
        return True
    if rel is sp.false or rel is False:
        return False
    if isinstance(rel, sp.And):
        got = [holds_at(a, sub, dps) for a in rel.args]
        return False if False in got else (None if None in got else True)
    if isinstance(rel, sp.Or):
        got = [holds_at(a, sub, dps) for a in rel.args]
        return True if True in got else (None if None in got else False)
    if not isinstance(rel, sp.core.relational.Relational):
        return None
    try:
        lhs, rhs = substitute_numbers(rel.lhs, sub), substitute_numbers(rel.rhs, sub)
    except ExactOutOfReach:
        return None
    if not (lhs.is_Rational and rhs.is_Rational):
        lhs, rhs = sp.N(lhs, dps), sp.N(rhs, dps)
        if not (lhs.is_comparable and rhs.is_comparable):
            return None
    try:
        return bool(rel.func(lhs, rhs))
    except TypeError:
        return None


def decide_exact(b, sub: dict) -> bool | None:
    """Whether ``b`` (a relation, or And/Or/Not of relations) holds at the exact values
    ``sub``: every sign decided by SymPy's adaptive-precision evaluation (``strict``), an
    exact 0 by ``simplify``; None where neither decides (what a witness is confirmed
    with, :func:`confirm`)."""
    if b is sp.true or b is True:
        return True
    if b is sp.false or b is False:
        return False
    if isinstance(b, sp.core.relational.Relational):
        sgn = _sign_exact(b.rhs - b.lhs, sub)
        if sgn is None:
            return None
        if isinstance(b, sp.Equality):
            return sgn == 0
        if isinstance(b, sp.Unequality):
            return sgn != 0
        if isinstance(b, (sp.LessThan, sp.StrictLessThan)):
            return sgn > 0 or (sgn == 0 and isinstance(b, sp.LessThan))
        return sgn < 0 or (sgn == 0 and isinstance(b, sp.GreaterThan))
    if isinstance(b, (sp.And, sp.Or)):
        vals = [decide_exact(a, sub) for a in b.args]
        if isinstance(b, sp.And):
            return False if False in vals else (None if None in vals else True)
        return True if True in vals else (None if None in vals else False)
    if isinstance(b, sp.Not):
        v = decide_exact(b.args[0], sub)
        return None if v is None else not v
    return None


def _assumptions_hold(point: dict[sp.Symbol, Fraction]) -> bool:
    for s, v in point.items():
        if s.is_integer and v.denominator != 1:
            return False
        if s.is_positive and not v > 0:
            return False
        if s.is_nonnegative and not v >= 0:
            return False
        if s.is_negative and not v < 0:
            return False
        if s.is_nonpositive and not v <= 0:
            return False
    return True


def _exact_str(v: Fraction) -> str:
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


# --------------------------------------------------------------------------------------
# the search
def search(claim: Claim, *, budget: int = 2000, seed: int = 0,
           hypothesis_examples: int | None = None, polish: int = 2,
           extra_points: Sequence[dict] = (), accurate_slack: bool = True) -> SearchOutcome:
    """Search for a counterexample to ``claim`` (see module docstring).

    ``budget`` is the number of random points (phase 1); the targeted phase gets
    ``hypothesis_examples`` (default ``max(10, budget // 100)``) examples and scipy
    ``polish`` local searches.  ``extra_points`` (e.g. a z3 model) are confirmed first.
    ``accurate_slack=False`` reports the smallest slack as evaluated in floats, without
    re-evaluating the five smallest with mpmath (for callers that want only a
    counterexample).
    """
    if not isinstance(budget, int) or budget < 1:
        raise ValueError(f"budget must be an integer >= 1, got {budget!r}")
    if polish < 0:
        raise ValueError(f"polish must be >= 0, got {polish}")
    ev = SlackEvaluator(claim)
    out = SearchOutcome()
    for p in extra_points:
        cx = None
        try:                         # a solver's model is as ugly as it comes: simplify it
            x = np.array([float(p[s]) for s in ev.syms], dtype=float)
        except (KeyError, TypeError, ValueError, OverflowError):
            x = None
        if x is not None and np.all(np.isfinite(x)):
            simple = simplify_point(ev, x)
            if not np.array_equal(simple, x):
                cx = confirm(claim, dict(zip(ev.syms, simple)), ev)
        if cx is None:
            cx = confirm(claim, p, ev)
        if cx is not None:
            out.counterexample = cx
            out.detail = "z3 model " + _CONFIRMED
            return out
    syms = ev.syms
    if not syms:
        cx = confirm(claim, {}, ev)
        out.samples = 1
        if cx is not None:
            out.counterexample = cx
            out.detail = "a closed statement, false: " + _CONFIRMED
            return out
        ok, concl = ev.slacks_np(np.zeros((0, 1)))
        out.feasible = int(ok.sum())
        out.slack = float(concl[0]) if ok.all() else None
        out.detail = "a closed statement (no symbols)"
        return out
    doms = _domains(claim)
    rng = np.random.default_rng(seed)
    k = len(doms)
    modes = rng.integers(0, N_MODES, size=(k, budget))
    us = rng.random((k, budget))
    vals = _sample(doms, modes, us)
    ok, concl = ev.slacks_np(vals)
    out.samples = budget
    best_idx = _best(ok, concl)
    cands: list[np.ndarray] = []
    if best_idx is not None:
        out.feasible = int(ok.sum())
        order = np.argsort(np.where(ok, concl, np.inf))[: max(1, polish)]
        for j in order:
            if ok[j]:
                cands.append(vals[:, j])
    detail = [f"random: {budget} points, {int(ok.sum())} feasible"]
    # candidates from phase 1
    bad = np.flatnonzero(ok & ev.candidate(concl))
    by_slack = list(bad[np.argsort(concl[bad])][:3])
    pool = bad if bad.size <= 300 else bad[np.linspace(0, bad.size - 1, 300).astype(int)]
    by_simplicity = sorted(pool, key=lambda j: (sum(len(f"{v:.12g}") for v in vals[:, j]),
                                                concl[j]))[:3]
    for j in dict.fromkeys(by_simplicity + by_slack):
        if True:
            cx = _confirm_simplified(claim, ev, vals[:, j])
            if cx is not None:
                out.counterexample = cx
                _record(out, ok, concl, vals, syms)
                out.detail = "; ".join(detail + [_CONFIRMED])
                return out
    # phase 2: hypothesis
    n_hyp = max(10, budget // 100) if hypothesis_examples is None else hypothesis_examples
    if n_hyp > 0:
        found, hvals, hslack, nh = _hypothesis_phase(ev, doms, n_hyp, seed)
        out.samples += nh
        detail.append(f"targeted: {nh} examples")
        if hvals is not None:
            cands.append(hvals)
        if found is not None:
            cx = _confirm_simplified(claim, ev, found)
            if cx is not None:
                out.counterexample = cx
                _record(out, ok, concl, vals, syms)
                out.detail = "; ".join(detail + ["shrunk by Hypothesis, " + _CONFIRMED])
                return out
    # phase 3: scipy polish from the best points
    if polish and cands:
        pol_best, nfev = _polish(ev, doms, cands[:polish], seed)
        out.samples += nfev
        detail.append(f"polish: {nfev} evaluations")
        if pol_best is not None:
            x, s = pol_best
            if ev.candidate(s):
                cx = _confirm_simplified(claim, ev, x)
                if cx is not None:
                    out.counterexample = cx
                    _record(out, ok, concl, vals, syms)
                    out.detail = "; ".join(detail + ["polished by scipy, " + _CONFIRMED])
                    return out
            vals = np.concatenate([vals, x[:, None]], axis=1)
            ok = np.append(ok, True)
            concl = np.append(concl, s)
    _record(out, ok, concl, vals, syms, ev if accurate_slack else None)
    if out.feasible == 0:
        detail.append("no point satisfied the hypotheses")
    elif ev.candidate(concl[ok]).any():
        detail.append("float violations were rounding: not confirmed at 50 digits")
    out.detail = "; ".join(detail)
    return out


def admissible_sample(claim: Claim, n: int, seed: int = 0
                      ) -> tuple[list[sp.Symbol], np.ndarray, np.ndarray]:
    """``n`` points drawn as the random phase of :func:`search` draws them: (the claim's
    symbols, their values as a (k x n) float array, the mask of the points that meet
    every hypothesis in floats).  Evidence only (nothing is confirmed): the repair search
    (:mod:`checks.repair`) tests candidate lines on these points before it judges one."""
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be an integer >= 1, got {n!r}")
    ev = SlackEvaluator(claim)
    if not ev.syms:
        return [], np.zeros((0, 1)), np.ones(1, dtype=bool)
    doms = _domains(claim)
    rng = np.random.default_rng(seed)
    k = len(doms)
    vals = _sample(doms, rng.integers(0, N_MODES, size=(k, n)), rng.random((k, n)))
    ok, _ = ev.slacks_np(vals)
    return list(ev.syms), vals, ok


def _confirm_simplified(claim, ev, x):
    """Confirm the simplified point, else the point as found."""
    simple = simplify_point(ev, x)
    cx = confirm(claim, dict(zip(ev.syms, simple)), ev)
    if cx is None and not np.array_equal(simple, x):
        cx = confirm(claim, dict(zip(ev.syms, x)), ev)
    return cx


def _best(ok, concl):
    if not ok.any():
        return None
    return int(np.argmin(np.where(ok, concl, np.inf)))


def _record(out: SearchOutcome, ok, concl, vals, syms, ev=None):
    j = _best(ok, concl)
    out.feasible = max(out.feasible, int(ok.sum()))
    if j is None:
        return
    out.slack = float(concl[j]) + 0.0   # no negative zero
    out.where = _located(syms, vals[:, j])
    if ev is not None:
        # re-evaluate the few smallest float slacks accurately; report the smallest
        best = None
        order = np.argsort(np.where(ok, concl, np.inf))
        for k in order[:5]:
            if not ok[k]:
                break
            v = ev.slack_value(vals[:, k])
            if v is not None and (best is None or v < best[0]):
                best = (v, k)
        if best is not None:
            out.slack = best[0] + 0.0
            out.where = _located(syms, vals[:, best[1]])


def _located(syms, column) -> dict:
    """A point as the report shows it: each symbol's value, formatted."""
    return {s.name: _fmt(v, s) for s, v in zip(syms, column)}


def _fmt(v, s):
    if s.is_integer:
        return str(int(v))
    return f"{v:.6g}"


def _hypothesis_phase(ev: "SlackEvaluator", doms, n_examples: int, seed: int):
    """Targeted search with Hypothesis (:func:`checks.search.targeted`, toward the smallest
    slack, shrinking a violating point); returns (violating point or None, best point, its
    slack, examples run)."""
    state = {"best": None, "best_slack": math.inf, "n": 0, "found": None}

    class _Found(Exception):
        def __init__(self, x):
            self.x = x

    def score(ms, u):
        vals = _sample(doms, ms, u)
        ok, concl = ev.slacks_np(vals)
        state["n"] += 1
        state["found"] = None
        if not ok[0]:
            return -10.0
        s = float(concl[0])
        if s < state["best_slack"]:
            state["best_slack"], state["best"] = s, vals[:, 0].copy()
        if ev.candidate(s):
            state["found"] = vals[:, 0].copy()
        return -s

    def after():
        if state["found"] is not None:
            raise _Found(state["found"])

    found = None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            targeted(len(doms), score, n=n_examples, seed=seed, label="slack",
                     phases=("generate", "target", "shrink"), after=after, quiet=True)
    except _Found as exc:
        found = exc.x
    return found, state["best"], state["best_slack"], state["n"]


def _polish(ev: SlackEvaluator, doms, starts, seed: int):
    """Nelder–Mead on the continuous symbols (in log-space of |x|), integers fixed;
    infeasible points are penalised.  Returns ((x, slack) best, evaluations)."""
    from scipy.optimize import minimize

    cont = [i for i, d in enumerate(doms) if not d.integer]
    if not cont:
        return None, 0
    nfev = 0
    best = None
    for x0 in starts:
        x0 = np.array(x0, dtype=float)
        signs = np.where(x0[cont] < 0, -1.0, 1.0)
        y0 = np.log(np.maximum(np.abs(x0[cont]), 1e-300))

        def f(y, x0=x0, signs=signs):
            x = x0.copy()
            x[cont] = signs * np.exp(np.clip(y, -700, 700))
            ok, concl = ev.slacks_np(x[:, None])
            if not ok[0]:
                return 10.0
            return float(concl[0])

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = minimize(f, y0, method="Nelder-Mead",
                           options={"maxfev": min(POLISH_MAXFEV, 30 * (len(cont) + 1)),
                                    "xatol": 1e-10, "fatol": 1e-14})
        nfev += int(res.nfev)
        x = x0.copy()
        x[cont] = signs * np.exp(np.clip(res.x, -700, 700))
        s = f(res.x)
        if s < 10.0 and (best is None or s < best[1]):
            best = (x, s)
    return best, nfev

"""An imported draft against a hand encoding of the same paper (issue 36, item 5).

For each hand-encoded ALGEBRA or SCALAR row with an ``eq=`` number: is there an imported
step with that number whose relation is the same after mapping symbols?

Mapping.  A hand symbol is mapped to the imported expression its *declared meaning*
denotes: the LaTeX its symbol table declares (``dist`` is ``\\|\\theta_t-\\theta^*\\|``,
``gap`` is ``l(\\theta_t)-l^*``, ``sigma_dp`` is ``\\sigma_{\\mathrm{DP}}``) is read by the
importer's own :class:`~checks.importer.formulas.Converter`, and every symbol and stand-in
in it must be one the import found, compared in the canonical form of
:func:`~checks.importer.latex.canonical` (bold, braces, ``||``/``\\|``, primes, the
brackets of ``\\mathbb{E}[…]``, ``f(\\theta^*)`` = ``f^*``); where the declared LaTeX
names something the import did not find, the hand symbol is mapped by name (without
case and underscores: ``sigma_dp`` is ``sigma_DP``), and otherwise stays itself (a
stand-in of the encoder's that nothing printed denotes cannot match).  A hand row is
then written as the import writes printed ones (``f(x) - f(x^*)`` as one excess
stand-in).

Sameness.  Two relations are the same when their directions agree (``a ≥ b`` is
``b ≤ a``) and their differences ``lhs − rhs`` agree: equal at random points (mpmath, 30
digits, symbols drawn in (0.3, 3)), or, where too few points can be evaluated, SymPy
simplifies the difference of the differences to 0.  Two rows whose differences are
both identically 0 (``x = x`` after SymPy's own evaluation, any two valid identities)
must also share a side: a vacuous agreement is no match.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

import mpmath
import sympy as sp

from checks.importer.formulas import Converter
from checks.importer.latex import canonical
from checks.importer.symbols import SymbolTable
from theory.model import StepKind, walk_steps


@dataclass
class Recall:
    rows: int = 0
    matched: int = 0
    missing_number: int = 0                 # no imported step carries the row's number
    unmatched: list = field(default_factory=list)   # (hand step id, eq, why)
    matches: list = field(default_factory=list)     # (hand step id, imported step id)
    mapped: dict = field(default_factory=dict)      # hand symbol -> imported expression

    @property
    def recall(self) -> float:
        return self.matched / self.rows if self.rows else 0.0


def _norm(name: str) -> str:
    return name.replace("_", "").lower()


class _Lookup(SymbolTable):
    """A symbol table that creates nothing: it resolves a LaTeX symbol or stand-in to
    the imported table's name with the same canonical LaTeX (or, for a symbol, the same
    name), and records what it cannot resolve."""

    def __init__(self, source: SymbolTable):
        super().__init__()
        self.source = source
        self.symbols = source.symbols       # read only: what the import's symbols are
        self.index: dict[str, set] = {}
        self.loose: dict[str, set] = {}
        for name, info in source.symbols.items():
            if info.latex:
                self.index.setdefault(canonical(info.latex), set()).add(name)
                self.loose.setdefault(_unfont(canonical(info.latex)), set()).add(name)
        self.missing: list[str] = []

    def _find(self, latex: str, name: str | None = None) -> str | None:
        hits = self.index.get(canonical(latex), set())
        if len(hits) == 1:
            return next(iter(hits))
        if name is not None and name in self.source.symbols:
            return name
        # a calligraphic or blackboard letter declared as a plain one (A(S) for
        # \mathcal{A}(S)): only where that reading is the one the import has
        hits = self.loose.get(_unfont(canonical(latex)), set())
        if len(hits) == 1:
            return next(iter(hits))
        return None

    def symbol(self, name: str, latex: str) -> sp.Symbol:
        got = self._find(latex, name)
        if got is None:
            self.missing.append(latex)
            got = name
        return sp.Symbol(got, real=True)

    def standin(self, latex, what, kind, stem, nonnegative=False, **extra) -> sp.Symbol:
        got = self._find(latex)
        if got is None:
            self.missing.append(latex)
            got = "unresolved_" + stem
        return sp.Symbol(got, real=True)

    def is_probabilistic(self, sym) -> bool:
        return self.source.is_probabilistic(sym)

    def is_opaque(self, sym) -> bool:
        return self.source.is_opaque(sym)


def _unfont(key: str) -> str:
    return re.sub(r"\\math(?:cal|bb|scr|frak) ", "", key)


def meanings(table: SymbolTable, declared: dict, conv: Converter | None = None) -> dict:
    """hand symbol name -> the imported expression its declared LaTeX denotes, for every
    declared symbol whose LaTeX resolves entirely in the imported ``table``
    (``declared``: name -> :class:`theory.quantities.QuantityInfo`)."""
    conv = conv or Converter(_Lookup(table))
    look = conv.table
    out = {}
    for name, info in declared.items():
        latex = getattr(info, "latex", None)
        if not latex:
            continue
        look.missing = []
        p = conv.side(latex)
        if p.ok and not look.missing:
            out[name] = p.expr.xreplace({s: sp.Symbol(s.name) for s in p.expr.free_symbols})
    return out


def _signed(lhs, rel: str, rhs):
    """(difference, kind): ``lhs - rhs`` in ≤-form (≥ flipped), kind "le" or "eq"."""
    if rel in ("<=", "<"):
        return lhs - rhs, "le"
    if rel in (">=", ">"):
        return rhs - lhs, "le"
    return lhs - rhs, "eq"


def _plain(expr):
    return sp.sympify(expr).xreplace({s: sp.Symbol(s.name)
                                      for s in sp.sympify(expr).free_symbols})


_POINTS = 8


def _values(expr, syms, points):
    f = sp.lambdify(syms, expr, "mpmath")
    out = []
    with mpmath.workdps(30):
        for p in points:
            try:
                v = complex(f(*[mpmath.mpf(x) for x in p]))
            except Exception:  # noqa: BLE001 - a point outside the expression's domain
                v = None
            out.append(v)
    return out


def _same(a, b, rng: random.Random) -> bool:
    """``a`` and ``b`` are the same function of their symbols."""
    a, b = sp.sympify(a), sp.sympify(b)
    if a == b:
        return True
    syms = sorted(a.free_symbols | b.free_symbols, key=str)
    points = [[rng.uniform(0.3, 3.0) for _ in syms] for _ in range(_POINTS)]
    try:
        va, vb = _values(a, syms, points), _values(b, syms, points)
    except Exception:  # noqa: BLE001 - an expression lambdify cannot print
        va = vb = [None] * _POINTS
    agree = 0
    for x, y in zip(va, vb):
        if x is None or y is None:
            continue
        if abs(x - y) > 1e-12 * (1 + abs(x) + abs(y)):
            return False
        agree += 1
    if agree >= 4:
        return True
    try:
        if sp.count_ops(a - b) < 80:
            return sp.simplify(a - b) == 0
    except Exception:  # noqa: BLE001 - no decision is no match
        pass
    return False


def _zero(expr, rng) -> bool:
    return _same(expr, sp.Integer(0), rng)


def compare(imported_results, hand_results, table: SymbolTable | None = None,
            declared: dict | None = None, seed: int = 0) -> Recall:
    """The recall of ``hand_results``' numbered ALGEBRA/SCALAR rows in
    ``imported_results`` (both lists of :class:`theory.model.Result`).  ``table`` is the
    import's :class:`SymbolTable` and ``declared`` the hand table's quantities (name ->
    QuantityInfo): with both, hand symbols are mapped by their declared LaTeX first."""
    rng = random.Random(seed)
    by_eq: dict = {}
    names: dict = {}
    exact: dict = {}
    for r in imported_results:
        for loc in walk_steps(r):
            st = loc.step
            if st.eq:
                by_eq.setdefault(str(st.eq).lower(), []).append((loc.id, st))
            for s in st.free_symbols:
                names.setdefault(_norm(s.name), set()).add(s.name)
                exact.setdefault(s.name.rstrip("_"), set()).add(s.name)
    conv = Converter(_Lookup(table)) if table is not None else None
    by_meaning = meanings(table, declared, conv) if conv is not None and declared else {}

    def excess(expr):
        # the import writes f(x) - f(x*) as one stand-in: so must a mapped hand row
        return conv._excess(expr) if conv is not None else expr

    out = Recall(mapped=dict(by_meaning))
    for r in hand_results:
        for loc in walk_steps(r):
            st = loc.step
            if st.kind not in (StepKind.ALGEBRA, StepKind.SCALAR) or not st.eq:
                continue
            out.rows += 1
            cands = by_eq.get(str(st.eq).lower(), [])
            if not cands:
                out.missing_number += 1
                out.unmatched.append((loc.id, st.eq, "no imported step with this number"))
                continue
            sub = {}
            for s in st.free_symbols:
                if s.name in by_meaning:
                    sub[s] = by_meaning[s.name]
                    continue
                got = exact.get(s.name) or names.get(_norm(s.name))
                if got and len(got) == 1:
                    sub[s] = sp.Symbol(next(iter(got)))
            hl, hr = (_plain(excess(_plain(x.xreplace(sub)))) for x in (st.lhs, st.rhs))
            hd, hk = _signed(hl, st.rel.value, hr)
            hand_zero = _zero(hd, rng)
            hit = False
            for cid, c in cands:
                cl, cr = _plain(c.lhs), _plain(c.rhs)
                cd, ck = _signed(cl, c.rel.value, cr)
                if ck != hk:
                    continue
                same = _same(hd, cd, rng) or (hk == "eq" and _same(hd, -cd, rng))
                if same and hand_zero:
                    # both rows are identities: only a shared side makes them one row
                    same = any(_same(x, y, rng) for x in (hl, hr) for y in (cl, cr))
                if same:
                    hit = cid
                    break
            if hit:
                out.matched += 1
                out.matches.append((loc.id, hit))
            else:
                out.unmatched.append((loc.id, st.eq, ("no imported step with this number "
                                                      "states the same relation")))
    return out

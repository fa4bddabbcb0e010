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
from checks.importer.latex import abbreviates, canonical, gist
from checks.importer.symbols import SymbolTable
from theory.model import Rel, StepKind, walk_steps


@dataclass
class Recall:
    rows: int = 0
    matched: int = 0
    missing_number: int = 0                 # no imported step carries the row's number
    unmatched: list = field(default_factory=list)   # (hand step id, eq, why)
    matches: list = field(default_factory=list)     # (hand step id, imported step id)
    mapped: dict = field(default_factory=dict)      # hand symbol -> imported expression
    #: how the matches were made: "printed" (the relation as printed), "definitions"
    #: (with the definitions in force substituted), "chain" (a composite of printed lines)
    ways: dict = field(default_factory=dict)

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
        self.gists: dict[str, set] = {}
        for name, info in source.symbols.items():
            if info.latex:
                self.index.setdefault(canonical(info.latex), set()).add(name)
                self.loose.setdefault(_unfont(canonical(info.latex)), set()).add(name)
                self.gists.setdefault(_unfont(gist(info.latex)), set()).add(name)
        self.missing: list[tuple[str, str]] = []     # (LaTeX, name) not resolved

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
        # a shorthand of the declared meaning (\sum_t for the printed range, g_\xi for
        # g_\xi(\theta_t)): only where one imported quantity has that gist
        hits = self.gists.get(_unfont(gist(latex)), set())
        if len(hits) == 1:
            return next(iter(hits))
        # a compound quantity declared with its indices left out (E_k‖Σ h g‖² for the
        # printed E_k‖Σ_{i∈S_k} h_k^{(i)} g_k^{(i)}‖²): only where one imported quantity
        # reads so
        if name is None:
            hits = {n for n, info in self.source.symbols.items()
                    if info.latex and abbreviates(latex, info.latex)}
            if len(hits) == 1:
                return next(iter(hits))
        return None

    def symbol(self, name: str, latex: str) -> sp.Symbol:
        got = self._find(latex, name)
        if got is None:
            self.missing.append((latex, name))
            got = name
        return sp.Symbol(got, real=True)

    def standin(self, latex, what, kind, stem, nonnegative=False, **extra) -> sp.Symbol:
        got = self._find(latex)
        if got is None:
            got = "unresolved_" + stem
            self.missing.append((latex, got))
        return sp.Symbol(got, real=True)

    def checkpoint(self):
        return len(self.missing)

    def rollback(self, mark, keep=frozenset()) -> None:
        """The lookup makes no symbols: what it could not resolve since ``mark`` no longer
        counts, but for the names kept."""
        self.missing = self.missing[:mark] + [
            (latex, name) for latex, name in self.missing[mark:] if name in keep]

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


def definitions(hypotheses) -> dict:
    """``symbol -> expression`` for the hypotheses ``Eq(x, expr)`` in force that define a
    symbol (what :func:`checks.claim.make_claim` substitutes: x not in expr, x not an
    integer), each resolved through the others (a cyclic one is dropped)."""
    out: dict = {}
    for a in hypotheses:
        e = getattr(a, "expr", a)
        if not isinstance(e, sp.Equality):
            continue
        for x, v in ((e.lhs, e.rhs), (e.rhs, e.lhs)):
            if isinstance(x, sp.Symbol) and x not in v.free_symbols and not x.is_integer \
                    and x not in out:
                out[x] = v
                break
    return _resolve({_plain(x): _plain(v) for x, v in out.items()})


def _resolve(defs: dict) -> dict:
    """Each definition's value with the others substituted (a cyclic one dropped)."""
    out = dict(defs)
    for _ in range(len(out)):
        new = {x: v.xreplace(out) for x, v in out.items()}
        if new == out:
            break
        out = new
    return {x: v for x, v in out.items() if x not in v.free_symbols}


def _applied(defs: dict, table: SymbolTable, conv: Converter) -> dict:
    """``defs`` with each defined function value applied at the other points the import
    found it at: ``g(β) := e(β)`` defines ``g(β^*)`` as ``e(β^*)`` (the argument a symbol,
    the other argument readable as a scalar expression)."""
    out = dict(defs)
    for x, v in defs.items():
        info = table.symbols.get(x.name)
        st = info.standin if info is not None else None
        if st is None or st.what != "function value" or not st.head:
            continue
        arg = conv.side(st.arg)
        if not arg.ok or not isinstance(arg.expr, sp.Symbol):
            continue
        point = sp.Symbol(arg.expr.name)
        if point not in v.free_symbols:
            continue
        for name, other in table.symbols.items():
            ot = other.standin
            if name == x.name or ot is None or ot.what != "function value" \
                    or ot.head != st.head or sp.Symbol(name) in out:
                continue
            at = conv.side(ot.arg)
            if at.ok and not at.standins and "," not in ot.arg:
                out[sp.Symbol(name)] = _plain(v.xreplace({point: _plain(at.expr)}))
    return _resolve(out) if len(out) > len(defs) else out


@dataclass
class _Row:
    """One relation ``lhs REL rhs`` as compared (symbols plain, ≥ kept as printed)."""

    lhs: sp.Expr
    rel: Rel
    rhs: sp.Expr

    def __post_init__(self):
        self.diff, self.kind = _signed(self.lhs, self.rel.value, self.rhs)

    def sides(self):
        """(smaller, larger) for ≤/<, (lhs, rhs) for =."""
        return (self.rhs, self.lhs) if self.rel.direction > 0 else (self.lhs, self.rhs)


def _rows(lhs, rel, rhs, defs: dict) -> list[_Row]:
    """The row as printed and, where definitions in force (plain symbol -> plain
    expression) name its symbols, with them substituted."""
    lhs, rhs = _plain(lhs), _plain(rhs)
    out = [_Row(lhs, Rel(rel), rhs)]
    if defs and (lhs.free_symbols | rhs.free_symbols) & set(defs):
        out.append(_Row(lhs.xreplace(defs), Rel(rel), rhs.xreplace(defs)))
    return out


def _same_row(h: _Row, c: _Row, rng) -> bool:
    """The two relations are one: the same direction and the same difference (an
    equality either way round); two identities only where they share a side."""
    if h.kind != c.kind:
        return False
    same = _same(h.diff, c.diff, rng) or (h.kind == "eq" and _same(h.diff, -c.diff, rng))
    if same and _zero(h.diff, rng):
        # both rows are identities: only a shared side makes them one row
        same = any(_same(x, y, rng) for x in (h.lhs, h.rhs) for y in (c.lhs, c.rhs))
    return same


def _composites(steps: list) -> list[tuple[_Row, list]]:
    """``a R1 b R2 c …`` of consecutive printed steps whose sides link (the right side of
    one is the left side of the next): every composite ``a R c`` of two or more links whose
    directions agree, with the ids of the steps it spans."""
    out = []
    for i in range(len(steps)):
        rel = Rel(steps[i][1].rel)
        for j in range(i + 1, len(steps)):
            prev, cur = steps[j - 1][1], steps[j][1]
            if _plain(prev.rhs) != _plain(cur.lhs):
                break
            rel = Rel.compose(rel, Rel(cur.rel))
            if rel is None:
                break
            out.append((_Row(_plain(steps[i][1].lhs), rel, _plain(cur.rhs)),
                        [s[0] for s in steps[i:j + 1]]))
    return out


def _chain_match(h: _Row, comp: _Row, rng) -> bool:
    """The hand row ``a REL c`` is the composite ``a R1 b … c`` of printed lines: its sides
    are the composite's ends in order and the composite relation implies the hand's."""
    if h.rel.direction * comp.rel.direction < 0 or (h.rel.direction == 0) != (
            comp.rel.direction == 0):
        return False
    # orient both as ≤ (or =) before asking whether one relation implies the other
    hr = Rel.LT if h.rel.strict else (Rel.LE if h.rel.direction else Rel.EQ)
    cr = Rel.LT if comp.rel.strict else (Rel.LE if comp.rel.direction else Rel.EQ)
    if not cr.implies(hr):
        return False
    (a, c), (x, y) = h.sides(), comp.sides()
    if _same(a, x, rng) and _same(c, y, rng):
        return True
    return h.rel == Rel.EQ and _same(a, y, rng) and _same(c, x, rng)


def compare(imported_results, hand_results, table: SymbolTable | None = None,
            declared: dict | None = None, seed: int = 0) -> Recall:
    """The recall of ``hand_results``' numbered ALGEBRA/SCALAR rows in
    ``imported_results`` (both lists of :class:`theory.model.Result`).  ``table`` is the
    import's :class:`SymbolTable` and ``declared`` the hand table's quantities (name ->
    QuantityInfo): with both, hand symbols are mapped by their declared LaTeX first.

    A hand row matches an imported step with its number that states the same relation
    (:func:`_same_row`) — as printed, or with the definitions in force on either side
    substituted (:func:`definitions`: the hand row's ``Eq(x, expr)`` hypotheses, the
    imported result's) — or the composite of consecutive printed steps of that number
    whose sides link (:func:`_composites`, :func:`_chain_match`)."""
    rng = random.Random(seed)
    by_eq: dict = {}
    names: dict = {}
    exact: dict = {}
    conv = Converter(_Lookup(table)) if table is not None else None
    for r in imported_results:
        for loc in walk_steps(r):
            st = loc.step
            if st.eq:
                defs = definitions(loc.hypotheses)
                if conv is not None:
                    defs = _applied(defs, table, conv)
                by_eq.setdefault(str(st.eq).lower(), []).append((loc.id, st, defs))
            for s in st.free_symbols:
                names.setdefault(_norm(s.name), set()).add(s.name)
                exact.setdefault(s.name.rstrip("_"), set()).add(s.name)
    by_meaning = meanings(table, declared, conv) if conv is not None and declared else {}

    def excess(expr):
        # the import writes f(x) - f(x*) as one stand-in: so must a mapped hand row
        return conv._excess(expr) if conv is not None else expr

    def mapped(expr):
        sub = {}
        for s in sp.sympify(expr).free_symbols:
            if s.name in by_meaning:
                sub[s] = by_meaning[s.name]
                continue
            got = exact.get(s.name) or names.get(_norm(s.name))
            if got and len(got) == 1:
                sub[s] = sp.Symbol(next(iter(got)))
        return _plain(excess(_plain(sp.sympify(expr).xreplace(sub))))

    composites: dict = {}
    out = Recall(mapped=dict(by_meaning))
    for r in hand_results:
        for loc in walk_steps(r):
            st = loc.step
            if st.kind not in (StepKind.ALGEBRA, StepKind.SCALAR) or not st.eq:
                continue
            out.rows += 1
            key = str(st.eq).lower()
            cands = by_eq.get(key, [])
            if not cands:
                out.missing_number += 1
                out.unmatched.append((loc.id, st.eq, "no imported step with this number"))
                continue
            hand = [_Row(mapped(h.lhs), h.rel, mapped(h.rhs))
                    for h in _rows(st.lhs, st.rel.value, st.rhs, definitions(loc.hypotheses))]
            hit, how = None, ""
            for cid, c, cdefs in cands:
                for k, crow in enumerate(_rows(c.lhs, c.rel.value, c.rhs, cdefs)):
                    for j, hrow in enumerate(hand):
                        if _same_row(hrow, crow, rng):
                            hit, how = cid, "printed" if j == k == 0 else "definitions"
                            break
                    if hit:
                        break
                if hit:
                    break
            if not hit:
                if key not in composites:
                    composites[key] = _composites([(cid, c) for cid, c, _ in cands])
                for comp, ids in composites[key]:
                    if any(_chain_match(h, comp, rng) for h in hand):
                        hit, how = f"{ids[0]} .. {ids[-1].rsplit('/', 1)[-1]}", "chain"
                        break
            if hit:
                out.matched += 1
                out.matches.append((loc.id, hit))
                out.ways[how] = out.ways.get(how, 0) + 1
            else:
                out.unmatched.append((loc.id, st.eq, ("no imported step with this number "
                                                      "states the same relation")))
    return out

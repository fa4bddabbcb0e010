"""Dimensional analysis of every encoded expression (DESIGN.md, *Units*).

Each symbol has a dimension, a monomial ``Θ^a F^b`` in the base dimensions parameter
(Θ) and loss (F), declared in its paper's symbol table (:mod:`theory.quantities`).
The exponents are SymPy expressions: a ν-Hölder constant has dimension F/Θ^(1+ν), with
ν a (dimensionless) symbol.  :func:`dimension` walks an expression:

* sums, ``Max``/``Min``, ``Abs``, ``Piecewise`` branches and both sides of a relation
  must agree (the number 0 agrees with everything; another number is dimensionless);
  exponents are compared after simplification (``1 + ν`` and ``ν + 1`` agree);
* products add exponents; ``x**k`` multiplies them by ``k``, which must be
  dimensionless (a number, or a dimensionless symbolic expression such as ``1 + ν``);
* ``exp``, ``log``, ``floor``… need a dimensionless argument and are dimensionless.

A declared normalisation (``Paper(normalise=(Delta,))`` or ``Result(normalise=...)``: Δ = 1
"without loss of generality") is a convention of units, not a mismatch: Δ's dimension
becomes the unit, so with Δ a length (Θ) every length is measured in units of Δ and Θ
drops out; with two independent normalisations (Δ = 1 and L = 1) every quantity is
dimensionless.  :func:`normalised` sets them for the expressions checked inside it.

A mismatch raises :class:`DimensionError`; :func:`check_relation` and
:func:`check_result` turn them into :class:`Finding` objects, which the engine reports
like any other finding.  Symbols are looked up in the table passed in (the result's
paper's table: :func:`theory.registry.symbols_of`).
"""
from __future__ import annotations

import contextvars
from dataclasses import dataclass

import sympy as sp

from theory.model import CaseSplit, Result, walk_steps
from theory.quantities import BASE, LOSS, THETA, SymbolTable

#: a dimension as exponents (of Θ, of F): SymPy expressions
Dim = tuple[sp.Expr, sp.Expr]
DIMLESS: Dim = (sp.Integer(0), sp.Integer(0))
ANY = None  # the number 0: compatible with every dimension

_TABLE: contextvars.ContextVar[SymbolTable] = contextvars.ContextVar("units_table",
                                                                     default=BASE)


class DimensionError(ValueError):
    """An expression whose dimensions do not combine."""


class UnknownDimension(KeyError):
    """A symbol with no declared dimension."""


@dataclass(frozen=True)
class Finding:
    where: str          # step id (or result id / bound label)
    message: str
    unknown: bool = False   # True: a symbol without dimension (not a mismatch)


def from_monomial(dim) -> Dim:
    """``Θ^a·F^b`` (exponents may be symbolic) as ``(a, b)``."""
    dim = sp.powsimp(sp.sympify(dim), force=True)
    if dim == 1:
        return DIMLESS
    theta, loss = sp.Integer(0), sp.Integer(0)
    for factor in sp.Mul.make_args(dim):
        base, ex = factor.as_base_exp()
        if base == THETA:
            theta += ex
        elif base == LOSS:
            loss += ex
        elif factor.is_number and factor == 1:
            continue
        else:
            raise ValueError(f"dimension must be a monomial in Θ and F, got {dim}")
    return (sp.simplify(theta), sp.simplify(loss))


def _eq(a: Dim, b: Dim) -> bool:
    return all(x == y or sp.simplify(x - y) == 0 for x, y in zip(a, b))


def render(dim: Dim | None) -> str:
    if dim is None:
        return "any (0)"
    if _eq(dim, DIMLESS):
        return "1"
    parts = []
    for name, e in (("Θ", dim[0]), ("F", dim[1])):
        if e == 1:
            parts.append(name)
        elif e != 0:
            txt = sp.sstr(e)
            parts.append(f"{name}^{txt}" if e.is_Atom else f"{name}^({txt})")
    return "·".join(parts)


#: the linear map that measures dimensions in the units a paper normalised (None: none)
_REDUCE: contextvars.ContextVar = contextvars.ContextVar("units_reduce", default=None)


def reduction(dims) -> "callable | None":
    """The linear map (Θ, F) exponents -> exponents that identifies every dimension in
    ``dims`` with 1 (a quotient of the dimension group); None when ``dims`` is empty or
    dimensionless.  One independent dimension v = (a, b): Θ^a·F^b = 1, so Θ = F^(-b/a)
    (a ≠ 0) and (x, y) ↦ (0, y − x·b/a), or F = 1 (a = 0) and (x, y) ↦ (x, 0); two:
    everything is dimensionless."""
    vs = [d for d in dims if not _eq(d, DIMLESS)]
    if not vs:
        return None
    if sp.Matrix([list(v) for v in vs]).rank(simplify=True) >= 2:
        return lambda d: DIMLESS
    a, b = vs[0]
    if sp.simplify(a) != 0:
        return lambda d: (sp.Integer(0), sp.simplify(d[1] - d[0] * b / a))
    return lambda d: (d[0], sp.Integer(0))


class normalised:
    """Context manager: measure dimensions in the units fixed by the normalised symbols
    (each set to 1 by convention; looked up in the table in force)."""

    def __init__(self, symbols):
        self.symbols = tuple(symbols or ())

    def __enter__(self):
        dims = []
        for sym in self.symbols:
            try:
                dims.append(_monomial_cached(_TABLE.get().dim(sym)))
            except KeyError:
                raise UnknownDimension(sym.name) from None
        self._tok = _REDUCE.set(reduction(dims))
        return self

    def __exit__(self, *exc):
        _REDUCE.reset(self._tok)
        return False


#: symbols fixed by the condition in force (``α = 0`` in a case or a Piecewise branch): a
#: symbolic exponent Θ^(1+α) is read at that value there
_FIXED: contextvars.ContextVar[tuple] = contextvars.ContextVar("units_fixed", default=())


def symbol_dimension(sym: sp.Symbol) -> Dim:
    try:
        dim = _TABLE.get().dim(sym)
    except KeyError:
        raise UnknownDimension(sym.name) from None
    d = _monomial_cached(dim)
    fixed = _FIXED.get()
    if fixed:
        d = tuple(sp.simplify(x.subs(dict(fixed))) for x in d)
    reduce = _REDUCE.get()
    if reduce is not None:
        d = reduce(d)
    return d


def fixed_by(conditions) -> tuple:
    """The (symbol, number) pairs that relations ``sym = number`` among ``conditions``
    (SymPy booleans; And is split) fix."""
    out = []
    for c in conditions:
        for part in (c.args if isinstance(c, sp.And) else (c,)):
            if isinstance(part, sp.Equality):
                a, b = part.lhs, part.rhs
                if isinstance(b, sp.Symbol) and a.is_number:
                    a, b = b, a
                if isinstance(a, sp.Symbol) and b.is_number:
                    out.append((a, b))
    return tuple(out)


def at_fixed(e, pairs):
    """``e`` with the fixed symbols substituted (unchanged where that leaves a pole)."""
    if not pairs:
        return e
    got = sp.sympify(e).subs(dict(pairs))
    return e if got.has(sp.zoo, sp.nan, sp.oo, -sp.oo) else got


class fixing:
    """Context manager: read symbolic exponents with the given (symbol, value) pairs."""

    def __init__(self, pairs):
        self.pairs = tuple(pairs)

    def __enter__(self):
        self._tok = _FIXED.set(_FIXED.get() + self.pairs)

    def __exit__(self, *exc):
        _FIXED.reset(self._tok)
        return False


_MONO: dict = {}


def _monomial_cached(dim) -> Dim:
    got = _MONO.get(dim)
    if got is None:
        got = _MONO[dim] = from_monomial(dim)
    return got


def _agree(dims: list[Dim | None], what, expr) -> Dim | None:
    known = [d for d in dims if d is not None]
    if not known:
        return None
    first = known[0]
    for d in known[1:]:
        if not _eq(d, first):
            raise DimensionError(
                f"{what} mixes dimensions {render(first)} and {render(d)} in {_short(expr)}")
    return first


def _short(e, n: int = 100) -> str:
    s = str(e)
    return s if len(s) <= n else s[: n - 3] + "..."


def _is_dimless(d) -> bool:
    return d is None or _eq(d, DIMLESS)


def dimension(expr, table: SymbolTable | None = None) -> Dim | None:
    """The dimension of ``expr`` (None for the number 0, which fits any dimension).

    Raises :class:`DimensionError` on a mismatch and :class:`UnknownDimension` for a
    symbol that is not declared in ``table`` (default: the table in force, see
    :func:`using`)."""
    if table is not None:
        tok = _TABLE.set(table)
        try:
            return _dimension(sp.sympify(expr))
        finally:
            _TABLE.reset(tok)
    return _dimension(sp.sympify(expr))


def _dimension(e) -> Dim | None:
    if isinstance(e, sp.Symbol):
        return symbol_dimension(e)
    if e.is_number:
        return None if e == 0 else DIMLESS
    if isinstance(e, sp.Add):
        return _agree([_dimension(a) for a in e.args], "a sum", e)
    if isinstance(e, sp.Mul):
        out = DIMLESS
        for a in e.args:
            d = _dimension(a)
            if d is None:
                return None
            out = (out[0] + d[0], out[1] + d[1])
        return out
    if isinstance(e, sp.Pow):
        base, ex = e.base, e.exp
        dex = _dimension(ex)
        if not _is_dimless(dex):
            raise DimensionError(f"exponent {ex} has dimension {render(dex)} in {_short(e)}")
        if base is sp.E:
            return DIMLESS
        db = _dimension(base)
        if db is None:
            return None
        if _eq(db, DIMLESS):
            return DIMLESS
        return (sp.expand(db[0] * ex), sp.expand(db[1] * ex))
    if isinstance(e, (sp.Max, sp.Min)):
        return _agree([_dimension(a) for a in e.args], type(e).__name__, e)
    if isinstance(e, sp.Abs):
        return _dimension(e.args[0])
    if isinstance(e, sp.Piecewise):
        for _, cond in e.args:
            check_boolean(cond)
        # a branch is read under its own condition (α = 0: Θ^(1+α) is Θ there), and must
        # agree with the other branches' dimensions read under the same condition
        dims = []
        for a, cond in e.args:
            pairs = fixed_by([cond])
            with fixing(pairs):
                da = _dimension(at_fixed(a, pairs))
            dims.append((da, pairs))
        general = next((d for d, pairs in reversed(dims) if not pairs), dims[-1][0])
        for d, pairs in dims:
            if d is None or general is None:
                continue
            ref = tuple(sp.simplify(x.subs(dict(pairs))) for x in general) if pairs else general
            if not _eq(d, ref):
                raise DimensionError(f"Piecewise mixes dimensions {render(ref)} and "
                                     f"{render(d)} in {_short(e)}")
        return general
    if isinstance(e, (sp.Sum, sp.Product)):
        for _, lo, hi in e.limits:
            for bound in (lo, hi):
                if not _is_dimless(_dimension(bound)):
                    raise DimensionError(f"summation limit {bound} is not dimensionless")
        inner = _dimension(e.function)
        if isinstance(e, sp.Product) and not _is_dimless(inner):
            raise DimensionError(f"product of dimensional terms in {_short(e)}")
        return inner
    if isinstance(e, sp.Function):
        # exp, log, floor, ceiling, erf, ... : dimensionless argument(s), result too
        for a in e.args:
            d = _dimension(a)
            if not _is_dimless(d):
                raise DimensionError(f"{type(e).__name__} of {_short(a)} which has dimension "
                                     f"{render(d)}")
        return DIMLESS
    raise DimensionError(f"cannot determine the dimension of {_short(e)}")


class using:
    """Context manager: look symbols up in ``table`` (``with units.using(table): …``)."""

    def __init__(self, table: SymbolTable | None):
        self.table = table or BASE

    def __enter__(self):
        self._tok = _TABLE.set(self.table)
        return self.table

    def __exit__(self, *exc):
        _TABLE.reset(self._tok)
        return False


def check_boolean(b) -> None:
    """Check a relation (or And/Or/Not of relations): both sides of each relation agree."""
    b = sp.sympify(b)
    if b in (sp.true, sp.false):
        return
    if isinstance(b, sp.core.relational.Relational):
        _agree([_dimension(b.lhs), _dimension(b.rhs)], "a relation", b)
        return
    if isinstance(b, (sp.And, sp.Or, sp.Not, sp.Implies)):
        for a in b.args:
            check_boolean(a)
        return
    raise DimensionError(f"not a relation: {_short(b)}")


def check_relation(b, where: str) -> list[Finding]:
    """Findings (empty when consistent) for one relation."""
    try:
        check_boolean(b)
    except DimensionError as exc:
        return [Finding(where, str(exc))]
    except UnknownDimension as exc:
        return [Finding(where, f"symbol {exc.args[0]!r} has no declared dimension",
                        unknown=True)]
    return []


def check_result(result: Result, table: SymbolTable | None = None, normalise=None
                 ) -> tuple[int, list[Finding]]:
    """Dimension-check every expression of a result: hypotheses, statement and proof
    steps with their ``given``, case conditions, bounds (a privacy loss must be
    dimensionless) and rates (both sides of ``metric ≤ expr`` are compared only through
    the steps that state them).  Symbols are looked up in ``table`` (default: the
    result's paper's table from the registry; for a result of no registered paper, the
    table in force through :class:`using`).  ``normalise``: the paper's normalised
    symbols (default: with no ``table``, ``Paper.normalise`` from the registry; with one,
    none); the result's own (``Result.normalise``) are added.  Returns (relations
    checked, findings)."""
    if table is None:
        from theory import registry
        try:        # one paper's package only (the whole registry costs ~5 s to load)
            paper = registry.paper(result.paper)
        except KeyError:
            table = _TABLE.get()
        else:
            table = registry.symbols_of(result.paper)
            if normalise is None:
                normalise = paper.normalise
    symbols = tuple(normalise or ()) + tuple(getattr(result, "normalise", ()))
    with using(table):
        if not symbols:
            return _check_result(result)
        try:
            with normalised(symbols):
                return _check_result(result)
        except UnknownDimension as exc:
            return 0, [Finding(f"{result.id} (normalise)",
                               f"symbol {exc.args[0]!r} has no declared dimension",
                               unknown=True)]


def _check_result(result: Result) -> tuple[int, list[Finding]]:
    count = 0
    findings: list[Finding] = []

    def rel(b, where):
        nonlocal count
        count += 1
        findings.extend(check_relation(b, where))

    for h in result.hypotheses:
        if h.is_relational:
            rel(h.expr, f"{result.id} (hypothesis {h.name})")
    seen_given: set = set()
    for loc in walk_steps(result):
        # a step in force under α = 0 (a case, a given) reads Θ^(1+α) as Θ
        pairs = fixed_by([h.expr for h in loc.hypotheses if h.is_relational])
        with fixing(pairs):
            rel(at_fixed(loc.step.relational, pairs), loc.id)
            for g in loc.step.given:
                if g.is_relational and (loc.id, g.name) not in seen_given:
                    seen_given.add((loc.id, g.name))
                    rel(at_fixed(g.expr, pairs), f"{loc.id} (given {g.name})")
    for cond, where in _case_conditions(result.id, result.proof, ()):
        rel(cond, where)
    for bd in result.bounds:
        where = f"{result.id} (bound {bd.label})"
        count += 1
        try:
            d = _dimension(bd.expr)
            if not _is_dimless(d):
                findings.append(Finding(where, f"privacy loss {_short(bd.expr)} has "
                                               f"dimension {render(d)}, must be dimensionless"))
        except DimensionError as exc:
            findings.append(Finding(where, str(exc)))
        except UnknownDimension as exc:
            findings.append(Finding(where, f"symbol {exc.args[0]!r} has no declared dimension",
                                    unknown=True))
        for h in bd.hypotheses:
            if h.is_relational:
                rel(h.expr, f"{where} (hypothesis {h.name})")
    return count, findings


def _case_conditions(prefix, items, path):
    for item in items:
        if isinstance(item, CaseSplit):
            for g in item.given:
                if g.is_relational:
                    yield g.expr, "/".join((prefix,) + path + (item.label,))
            for case in item.cases:
                p = path + (case.label,)
                for c in case.condition:
                    if c.is_relational:
                        yield c.expr, "/".join((prefix,) + p)
                yield from _case_conditions(prefix, case.proof, p)

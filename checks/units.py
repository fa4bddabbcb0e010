"""Dimensional analysis of every encoded expression (DESIGN.md, *Units*).

Each symbol has a dimension, a monomial ``Θ^a F^b`` in the base dimensions parameter
(Θ) and loss (F), declared in :mod:`theory.symbols`.  :func:`dimension` walks an
expression:

* sums, ``Max``/``Min``, ``Abs``, ``Piecewise`` branches and both sides of a relation
  must agree (the number 0 agrees with everything; another number is dimensionless);
* products multiply dimensions, ``x**k`` raises them (``k`` must be a dimensionless
  number when ``x`` has a dimension);
* ``exp``, ``log``, ``floor``… need a dimensionless argument and are dimensionless.

A mismatch raises :class:`DimensionError`; :func:`check_relation` and
:func:`check_result` turn them into :class:`Finding` objects, which the engine reports
like any other finding.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import sympy as sp

from theory import symbols as S
from theory.model import Result, walk_steps, Chain, CaseSplit, Step

#: a dimension as exponents (of Θ, of F)
Dim = tuple[Fraction, Fraction]
DIMLESS: Dim = (Fraction(0), Fraction(0))
ANY = None  # the number 0: compatible with every dimension


class DimensionError(ValueError):
    """An expression whose dimensions do not combine."""


class UnknownDimension(KeyError):
    """A symbol with no declared dimension."""


@dataclass(frozen=True)
class Finding:
    where: str          # step id (or result id / bound label)
    message: str
    unknown: bool = False   # True: a symbol without dimension (not a mismatch)


def _from_monomial(dim: sp.Expr) -> Dim:
    dim = sp.sympify(dim)
    if dim == 1:
        return DIMLESS
    powers = sp.powsimp(dim).as_powers_dict()
    theta = Fraction(str(powers.get(S.THETA, 0)))
    loss = Fraction(str(powers.get(S.LOSS, 0)))
    rest = {k: v for k, v in powers.items() if k not in (S.THETA, S.LOSS) and k != 1}
    if rest:
        raise ValueError(f"dimension must be a monomial in Θ and F, got {dim}")
    return (theta, loss)


def render(dim: Dim | None) -> str:
    if dim is None:
        return "any (0)"
    if dim == DIMLESS:
        return "1"
    parts = []
    for name, e in (("Θ", dim[0]), ("F", dim[1])):
        if e == 1:
            parts.append(name)
        elif e != 0:
            parts.append(f"{name}^{e}")
    return "·".join(parts)


def symbol_dimension(sym: sp.Symbol) -> Dim:
    try:
        dim = S.dimension_of_symbol(sym)
    except KeyError:
        raise UnknownDimension(sym.name) from None
    return _monomial_cached(dim)


@lru_cache(maxsize=None)
def _monomial_cached(dim: sp.Expr) -> Dim:
    return _from_monomial(dim)


def _agree(dims: list[Dim | None], what, expr) -> Dim | None:
    known = [d for d in dims if d is not None]
    if not known:
        return None
    first = known[0]
    for d in known[1:]:
        if d != first:
            raise DimensionError(
                f"{what} mixes dimensions {render(first)} and {render(d)} in {_short(expr)}")
    return first


def _short(e, n: int = 100) -> str:
    s = str(e)
    return s if len(s) <= n else s[: n - 3] + "..."


def dimension(expr) -> Dim | None:
    """The dimension of ``expr`` (None for the number 0, which fits any dimension).

    Raises :class:`DimensionError` on a mismatch and :class:`UnknownDimension` for a
    symbol that was not declared with :func:`theory.symbols.quantity`.
    """
    e = sp.sympify(expr)
    if isinstance(e, sp.Symbol):
        return symbol_dimension(e)
    if e.is_number:
        return None if e == 0 else DIMLESS
    if isinstance(e, sp.Add):
        return _agree([dimension(a) for a in e.args], "a sum", e)
    if isinstance(e, sp.Mul):
        out = DIMLESS
        for a in e.args:
            d = dimension(a)
            if d is None:
                return None
            out = (out[0] + d[0], out[1] + d[1])
        return out
    if isinstance(e, sp.Pow):
        base, ex = e.base, e.exp
        dex = dimension(ex)
        if dex not in (None, DIMLESS):
            raise DimensionError(f"exponent {ex} has dimension {render(dex)} in {_short(e)}")
        if base is sp.E:
            return DIMLESS
        db = dimension(base)
        if db is None:
            return None
        if db == DIMLESS:
            return DIMLESS
        if not ex.is_Rational:
            raise DimensionError(f"{base} (dimension {render(db)}) raised to the symbolic "
                                 f"power {ex} in {_short(e)}")
        k = Fraction(int(ex.p), int(ex.q))
        return (db[0] * k, db[1] * k)
    if isinstance(e, (sp.Max, sp.Min)):
        return _agree([dimension(a) for a in e.args], type(e).__name__, e)
    if isinstance(e, sp.Abs):
        return dimension(e.args[0])
    if isinstance(e, sp.Piecewise):
        for _, cond in e.args:
            check_boolean(cond)
        return _agree([dimension(a) for a, _ in e.args], "Piecewise", e)
    if isinstance(e, (sp.Sum, sp.Product)):
        for _, lo, hi in e.limits:
            for bound in (lo, hi):
                if dimension(bound) not in (None, DIMLESS):
                    raise DimensionError(f"summation limit {bound} is not dimensionless")
        inner = dimension(e.function)
        if isinstance(e, sp.Product) and inner not in (None, DIMLESS):
            raise DimensionError(f"product of dimensional terms in {_short(e)}")
        return inner
    if isinstance(e, sp.Function):
        # exp, log, floor, ceiling, erf, ... : dimensionless argument(s), result too
        for a in e.args:
            d = dimension(a)
            if d not in (None, DIMLESS):
                raise DimensionError(f"{type(e).__name__} of {_short(a)} which has dimension "
                                     f"{render(d)}")
        return DIMLESS
    raise DimensionError(f"cannot determine the dimension of {_short(e)}")


def check_boolean(b) -> None:
    """Check a relation (or And/Or/Not of relations): both sides of each relation agree."""
    b = sp.sympify(b)
    if b in (sp.true, sp.false):
        return
    if isinstance(b, sp.core.relational.Relational):
        _agree([dimension(b.lhs), dimension(b.rhs)], "a relation", b)
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


def check_result(result: Result) -> tuple[int, list[Finding]]:
    """Dimension-check every expression of a result: hypotheses, statement and proof
    steps with their ``given``, case conditions, and bounds (a privacy loss must be
    dimensionless).  Returns (number of relations checked, findings)."""
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
        rel(loc.step.relational, loc.id)
        for g in loc.step.given:
            if g.is_relational and (loc.id, g.name) not in seen_given:
                seen_given.add((loc.id, g.name))
                rel(g.expr, f"{loc.id} (given {g.name})")
    for cond, where in _case_conditions(result.id, result.proof, ()):
        rel(cond, where)
    for bd in result.bounds:
        where = f"{result.id} (bound {bd.label})"
        count += 1
        try:
            d = dimension(bd.epsilon)
            if d not in (None, DIMLESS):
                findings.append(Finding(where, f"privacy loss {_short(bd.epsilon)} has "
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

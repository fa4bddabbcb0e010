"""The small edits of a printed line that the repair search tries (issue 35, *edit
families*): the misprints papers make, run backwards.

An :class:`Edit` replaces one subtree of one *target* — the line's left side, its right
side, or the defining expression of a symbol the line itself defines in its ``given``
(``Eq(x, expr)``) — by another expression.  The families, in the order a reviewer would
suspect them (:data:`FAMILIES`, the rank of a repair among equally short ones):

====================  ==============================================================
``one-minus``         x ↔ 1 − x, for a quantity in (0, 1) (bounds in force)
``min-max``           min ↔ max
``log-argument``      log(A) → log(B), B another log argument of the same result
                      sharing a symbol with A (1/γ ↔ n/γ)
``index+1``           an integer symbol (an index, a count) or a sum's bound plus one
``exponent``          an integer exponent ±1 (η⁴ → η³, η⁵)
``square-root``       a square or a square root added or removed (the mutation
                      campaign's ``exp`` operator, :func:`checks.mutate.exponent_edits`,
                      and the same on every occurrence and parenthesis)
``exchange``          one symbol for another of the same dimension from the same result
                      (every occurrence in a side, or one), and the campaign's ``swap``
``factor-added``      a factor that appears elsewhere in the result multiplies a side
                      or one of its terms
``factor-dropped``    a factor of a product dropped
``constant``          ×2, ÷2, ×√2, ÷√2, ×4, ÷4, ×π, ÷π, ×e, ÷e on a side, a term, or a
                      printed constant (the campaign's ``const`` operator's places)
``index-1``           an integer symbol or a sum's bound minus one
====================  ==============================================================

Nothing here judges anything: :mod:`checks.repair.search` screens the edits on test
points, guards against trivial ones and hands the rest to the engine.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import sympy as sp

from checks import mutate

#: family -> (rank, what it is)
FAMILIES = {
    "one-minus": (0, "x ↔ 1 − x for a quantity in (0, 1)"),
    "min-max": (0, "min ↔ max"),
    "log-argument": (0, "another log argument of the result"),
    "index+1": (0, "an index or count plus one"),
    "exponent": (1, "an exponent ±1"),
    "square-root": (1, "a square or a root added or removed"),
    "exchange": (2, "a symbol for another of the same dimension"),
    "factor-added": (3, "a factor from elsewhere in the result added"),
    "factor-dropped": (4, "a factor dropped"),
    "constant": (5, "a constant factor"),
    "index-1": (6, "an index or count minus one"),
}
#: families tried on a definition the line makes in its own ``given`` (not the factor
#: and constant families: a definition is seldom misprinted by a factor, and those two
#: would multiply the candidates)
DEFINITION_FAMILIES = frozenset(("one-minus", "min-max", "log-argument", "index+1",
                                 "exponent", "square-root", "exchange", "index-1"))
#: the constant factors of the ``constant`` family
CONSTANT_FACTORS = (
    (sp.Integer(2), "×2"), (sp.Rational(1, 2), "÷2"), (sp.sqrt(2), "×√2"),
    (1 / sp.sqrt(2), "÷√2"), (sp.Integer(4), "×4"), (sp.Rational(1, 4), "÷4"),
    (sp.pi, "×π"), (1 / sp.pi, "÷π"), (sp.E, "×e"), (1 / sp.E, "÷e"))
#: factors of the pool (``factor-added``) are small: at most this many operations
POOL_OPS = 6
#: at most this many pool factors (the smallest first)
POOL_MAX = 40


@dataclass(frozen=True)
class Edit:
    """``target``'s subtree at ``path`` (indices into ``.args``; () is the whole target)
    replaced by ``new``.  ``old`` is what it replaces (for the description); ``factor``
    the factor added or dropped, or the constant factor (``constant``)."""

    target: str
    path: tuple
    new: sp.Expr
    family: str
    old: sp.Expr
    factor: sp.Expr | None = None
    note: str = ""
    #: how much the edit writes: the nodes of what it puts in (of the factor, for a
    #: factor added or a constant; of the replacement, for an every-occurrence edit)
    size: int = 0

    @property
    def rank(self) -> int:
        return FAMILIES[self.family][0]


@dataclass
class Context:
    """What the edit families need to know about the line's result: the symbols that
    may replace a symbol (by symbol, the same dimension and integrality), the quantities
    in (0, 1), the log arguments and the factor pool."""

    exchange: dict
    in_unit: frozenset
    log_args: tuple
    pool: tuple


def replace_at(root, path: tuple, new):
    """``root`` with its subtree at ``path`` replaced by ``new`` (SymPy re-evaluates each
    rebuilt node)."""
    if not path:
        return new
    i = path[0]
    args = list(root.args)
    args[i] = replace_at(args[i], path[1:], new)
    return root.func(*args)


def subtree(root, path: tuple):
    for i in path:
        root = root.args[i]
    return root


_OPAQUE = (sp.Sum, sp.Product, sp.Integral, sp.Derivative)


def walk(e, path: tuple = (), *, exponent: bool = False):
    """(path, node, inside an exponent) for every expression node of ``e``, pre-order; a
    sum, product or integral is one node (its bound variable is not a symbol to edit), a
    piecewise function's conditions are not entered."""
    yield path, e, exponent
    if not isinstance(e, sp.Expr) or not e.args or isinstance(e, _OPAQUE):
        return
    if isinstance(e, sp.Piecewise):
        for i, pair in enumerate(e.args):
            yield from walk(pair.args[0], path + (i, 0), exponent=exponent)
        return
    for i, a in enumerate(e.args):
        if isinstance(a, sp.Expr):
            yield from walk(a, path + (i,),
                            exponent=exponent or (isinstance(e, sp.Pow) and i == 1))


def occurrences(e, sym) -> int:
    return sum(1 for _, node, _ in walk(e) if node == sym)


def candidates(target: str, e, ctx: Context, families=None) -> list[Edit]:
    """Every edit of one target expression ``e`` (deterministic order)."""
    fam = set(FAMILIES) if families is None else set(families)
    out: list[Edit] = []

    def add(path, new, family, old, factor=None, note=""):
        """``new`` may be a function building the replacement: SymPy refuses some
        (Max of an infinite value), and those candidates are simply not made."""
        if family not in fam:
            return
        if callable(new):
            try:
                new = new()
            except (ValueError, TypeError, ZeroDivisionError, ArithmeticError):
                return
        if new != old and not new.has(sp.zoo, sp.nan):
            shown = factor if factor is not None else new
            out.append(Edit(target, path, new, family, old, factor, note,
                            size=_count_nodes(shown) + len(path)))

    syms = sorted(e.free_symbols, key=lambda s: s.name)
    many = {s for s in syms if occurrences(e, s) > 1}
    # every occurrence (and every node)
    for path, node, in_exp in walk(e):
        if isinstance(node, sp.Symbol):
            for y in ctx.exchange.get(node, ()):
                add(path, y, "exchange", node)
            if node in ctx.in_unit:
                add(path, 1 - node, "one-minus", node)
            if node.is_integer:
                add(path, node + 1, "index+1", node)
                add(path, node - 1, "index-1", node)
            if node in many:
                add(path, node ** 2, "square-root", node)
                add(path, sp.sqrt(node), "square-root", node)
            continue
        if node.is_Number:
            continue
        if isinstance(node, sp.Add):
            for x in sorted(ctx.in_unit, key=lambda v: v.name):
                if sp.expand(node - (1 - x)) == 0:
                    add(path, x, "one-minus", node)
            if not in_exp and path:     # a parenthesis, not a whole side
                add(path, node ** 2, "square-root", node)
                add(path, sp.sqrt(node), "square-root", node)
        if isinstance(node, (sp.Max, sp.Min)):
            other = sp.Min if isinstance(node, sp.Max) else sp.Max
            add(path, lambda: other(*node.args), "min-max", node)
        if isinstance(node, sp.log) and len(node.args) == 1:
            a = node.args[0]
            for b in ctx.log_args:
                if b != a and b.free_symbols & a.free_symbols:
                    add(path, sp.log(b), "log-argument", node)
        if isinstance(node, sp.Pow):
            b, k = node.base, node.exp
            if k.is_Integer and abs(k) >= 2 or k == -1:
                for k2 in (k + 1, k - 1):
                    if k2 != 0:
                        add(path, b ** k2, "exponent", node)
            if k in (2, -2, sp.S.Half, -sp.S.Half):
                k2 = {2: 1, -2: -1, sp.S.Half: 1, -sp.S.Half: -1}[k]
                add(path, b ** k2, "square-root", node)
        if isinstance(node, sp.Mul):
            for i, a in enumerate(node.args):
                if a.is_Number:
                    continue
                rest = node.args[:i] + node.args[i + 1:]
                add(path, lambda rest=rest: sp.Mul(*rest), "factor-dropped", node, factor=a)
        if isinstance(node, sp.Sum):
            fn, *limits = node.args
            for j, (v, lo, hi) in enumerate(limits):
                for family, shift in (("index+1", 1), ("index-1", -1)):
                    for which, (lo2, hi2) in (("upper", (lo, hi + shift)),
                                              ("lower", (lo + shift, hi))):
                        lims = list(limits)
                        lims[j] = (v, lo2, hi2)
                        add(path, lambda lims=lims: sp.Sum(fn, *lims), family, node,
                            note=which)
    # every occurrence of a symbol in the side at once (a symbol misprinted throughout)
    for x in sorted(many, key=lambda s: s.name):
        for family, y in ([("exchange", y) for y in ctx.exchange.get(x, ())]
                          + ([("one-minus", 1 - x)] if x in ctx.in_unit else [])
                          + ([("index+1", x + 1), ("index-1", x - 1)] if x.is_integer
                             else [])):
            add((), lambda y=y: e.xreplace({x: y}), family, x, factor=y, note="every")
    # the mutation campaign's operators, backwards: squares and roots over the whole side
    # (its ``exp``), two symbols of the same dimension swapped (its ``swap``)
    for _, old, repl, new in mutate.exponent_edits(e):
        add((), new, "square-root", old, factor=repl, note="every")
    seen_pairs = set()
    for x in syms:
        for y in ctx.exchange.get(x, ()):
            pair = tuple(sorted((x.name, y.name)))
            if y in e.free_symbols and pair not in seen_pairs:
                seen_pairs.add(pair)
                add((), lambda x=x, y=y: mutate.swap_edit(e, x, y), "exchange", x,
                    factor=y, note="swap")
    # factors from elsewhere in the result, on the side or on one of its terms
    terms = [((), e)] + ([((i,), t) for i, t in enumerate(e.args)]
                         if isinstance(e, sp.Add) else [])
    for f in ctx.pool:
        for path, t in terms:
            add(path, lambda t=t, f=f: t * f, "factor-added", t, factor=f)
    # constant factors on the side, a term, or a printed constant
    for f, tag in CONSTANT_FACTORS:
        for path, t in terms:
            add(path, lambda t=t, f=f: t * f, "constant", t, factor=f, note=tag)
        for c in sorted(mutate._constants(e), key=sp.srepr):
            add((), lambda c=c, f=f: mutate._replace_numbers(e, c, c * f), "constant", c,
                factor=f, note="constant")
    return out


def context(result_exprs, row_symbols, hypotheses, dim_of, own_exprs=()) -> Context:
    """The :class:`Context` of a line: ``result_exprs`` every other expression of its
    result (other lines, hypotheses, typed statements: the factor pool comes from these
    only), ``own_exprs`` the line's own (its sides and givens), ``row_symbols`` the line's
    symbols (a pool factor uses no others), ``hypotheses`` those in force (SymPy
    booleans: which quantities lie in (0, 1)), ``dim_of`` a symbol's dimension or None."""
    result_syms: set = set()
    log_args: list = []
    pool: dict = {}
    row_symbols = set(row_symbols)
    others = [sp.sympify(e) for e in result_exprs]
    for e in [sp.sympify(e) for e in own_exprs] + others:
        result_syms |= e.free_symbols
        for a in sorted(e.atoms(sp.log), key=sp.srepr):
            if len(a.args) == 1 and a.args[0] not in log_args:
                log_args.append(a.args[0])
    for e in others:
        for m in e.atoms(sp.Mul):
            for f in m.args:
                if f.is_Number or not f.free_symbols or not f.free_symbols <= row_symbols:
                    continue
                if sp.count_ops(f) <= POOL_OPS:
                    pool.setdefault(f, None)
    exchange: dict = {}
    for x in sorted(row_symbols | result_syms, key=lambda s: s.name):
        dx = dim_of(x)
        if dx is None:
            continue
        same = [y for y in sorted(result_syms, key=lambda s: s.name)
                if y != x and bool(y.is_integer) == bool(x.is_integer) and dim_of(y) is not None
                and _dims_equal(dim_of(y), dx)]
        if same:
            exchange[x] = tuple(same)
    return Context(exchange=exchange, in_unit=frozenset(in_unit_interval(row_symbols,
                                                                          hypotheses)),
                   log_args=tuple(log_args),
                   pool=tuple(sorted(pool, key=lambda f: (sp.count_ops(f), sp.srepr(f)))
                              [:POOL_MAX]))


def _count_nodes(e) -> int:
    return sum(1 for _ in sp.preorder_traversal(e))


@functools.lru_cache(maxsize=65536)
def dims_equal(a, b) -> bool:
    """Two declared dimensions (monomials in Θ and F) are the same."""
    if a == b:
        return True
    try:
        from checks.units import _eq, _monomial_cached
        return _eq(_monomial_cached(a), _monomial_cached(b))
    except Exception:               # noqa: BLE001 - incomparable: not the same
        return False


_dims_equal = dims_equal


def in_unit_interval(symbols, hypotheses) -> set:
    """The symbols known to lie in (0, 1) (either end included): bounded above by 1 by a
    hypothesis and below by 0 by a hypothesis or their own assumptions."""
    upper, lower = set(), set()
    for s in symbols:
        if s.is_nonnegative:
            lower.add(s)
    for h in hypotheses:
        for r in (h.args if isinstance(h, sp.And) else (h,)):
            if not isinstance(r, sp.core.relational.Relational) or isinstance(
                    r, (sp.Eq, sp.Ne)):
                continue
            small, big = ((r.lhs, r.rhs) if isinstance(r, (sp.LessThan, sp.StrictLessThan))
                          else (r.rhs, r.lhs))
            if isinstance(small, sp.Symbol) and big == 1:
                upper.add(small)
            if isinstance(big, sp.Symbol) and small == 0:
                lower.add(big)
    return {s for s in symbols if s in upper and s in lower}


def power_on_path(root, path: tuple, base) -> sp.Expr:
    """The exponent of ``base`` in the product that the node at ``path`` is a factor of:
    the powers of ``base`` among the factors of every product on the way down (η² · (a +
    3η²b): the inner η² sits in η⁴)."""
    total = sp.Integer(0)
    node = root
    for i in path:
        if isinstance(node, sp.Mul):
            for j, f in enumerate(node.args):
                if j == i:
                    continue
                b, k = f.as_base_exp()
                if b == base:
                    total += k
        node = node.args[i]
    if isinstance(node, sp.Mul):
        for f in node.args:
            b, k = f.as_base_exp()
            if b == base:
                total += k
    return total

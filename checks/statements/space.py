"""The admissible space of a typed statement: its symbols, the hypotheses in force,
definitions and implicit bounds; admissible points drawn inside it, and a provider's
targets realised on the paper's symbols (DESIGN.md, *Statement checks*)."""
from __future__ import annotations

import math
import zlib
from functools import lru_cache
from typing import Callable

import numpy as np
import sympy as sp
from scipy.optimize import brentq

from checks import falsify
from checks.claim import lambdify, make_claim
from checks.truth.base import Unavailable, _Message, evaluate, evaluator


class _Skip(Exception):
    r"""The point does not satisfy the hypotheses (or cannot be evaluated).  A search
    discards most skips: their messages are :class:`~checks.truth.base._Message`\ s,
    formatted only when read."""



#: a batch of draws without an admissible point is topped up, by at most TOP_UP further
#: batches, to 1/TOP_UP_SHARE of its size (:meth:`Space.draw`)
TOP_UP_SHARE = 16
TOP_UP = 15


# --------------------------------------------------------------------------------------
# the admissible space of a statement
class Space:
    """Symbols, hypotheses in force, definitions and implicit bounds of a statement; draws
    admissible points (dicts symbol name → float)."""

    def __init__(self, stmt):
        self.stmt = stmt
        rel = [h.expr for h in stmt.hypotheses if h.expr is not None]
        self.implicit = [h.implicit for h in stmt.hypotheses if h.implicit is not None]
        self.predicates = [h.name for h in stmt.hypotheses if h.is_predicate]
        claim = make_claim(sp.true, rel)
        self.definitions = list(claim.definitions)
        self.hyps = [h for h in claim.hypotheses if h is not sp.true]
        self.hyp_fns = [_holds_fn(h) for h in self.hyps]
        syms = set(stmt.free_symbols)
        for h in rel:
            syms |= h.free_symbols
        for imp in self.implicit:
            syms |= imp.free_symbols | {imp.var}
        defined = {s for s, _ in self.definitions}
        for _, e in self.definitions:
            syms |= e.free_symbols
        self.symbols = sorted(syms - defined, key=lambda s: s.name)
        self.defined = defined
        self.doms = falsify.domains_for(self.hyps, self.symbols)

    # ---- drawing
    def draw(self, rng: np.random.Generator, n: int) -> list[dict]:
        """Admissible points among ``n`` raw draws; where none is admissible (a narrow
        space: standing assumptions, a printed choice), further batches (:data:`TOP_UP` at
        most) from a generator derived from ``rng``'s state until ``n/``
        :data:`TOP_UP_SHARE` are — ``rng`` itself is not advanced further, so a space that
        admits a point in its first batch draws exactly as before."""
        k = len(self.doms)
        modes = rng.integers(0, falsify.N_MODES, size=(k, n))
        us = rng.random((k, n))
        out = self.from_modes(modes, us)
        want = max(1, n // TOP_UP_SHARE)
        if out or n <= 0:
            return out
        more = np.random.default_rng(zlib.crc32(repr(rng.bit_generator.state).encode()))
        for _ in range(TOP_UP):
            out += self.from_modes(more.integers(0, falsify.N_MODES, size=(k, n)),
                                   more.random((k, n)))
            if len(out) >= want:
                break
        return out[:max(want, n)]

    def from_modes(self, modes, us) -> list[dict]:
        vals = falsify._sample(self.doms, np.asarray(modes), np.asarray(us, dtype=float))
        out = []
        for j in range(vals.shape[1]):
            col = vals[:, j]
            if not np.all(np.isfinite(col)):
                continue
            v = {d.sym.name: (float(int(x)) if d.integer else float(x))
                 for d, x in zip(self.doms, col)}
            try:
                out.append(self.complete(v))
            except _Skip:
                continue
        return out

    # ---- definitions and hypotheses
    def complete(self, values: dict) -> dict:
        """Add the defined symbols' values; raise _Skip unless every relational and
        implicit hypothesis holds."""
        v = dict(values)
        for s, e in self.definitions:
            try:
                v[s.name] = evaluate(e, v)
            except Unavailable:
                raise _Skip(_Message("definition of {} not evaluable", s)) from None
        for d in self.doms:
            x = v.get(d.sym.name)
            if x is None or not math.isfinite(x):
                raise _Skip(_Message("no value for {}", d.sym))
            if d.integer and x != int(x):
                raise _Skip(_Message("{} must be an integer", d.sym))
        for h, holds in zip(self.hyps, self.hyp_fns):
            if not holds(v):
                raise _Skip(_Message("{} fails", h))
        for imp in self.implicit:
            bound = implicit_value(imp, v)
            if bound is None or v[imp.var.name] > bound:
                raise _Skip(_Message("{} fails", imp))
        return v

    def failing(self, values: dict):
        """The first hypothesis in force (an :class:`~theory.model.Assumption` of the
        statement) that fails at ``values`` (definitions computed), or None."""
        v = {k: x for k, x in values.items() if k not in {s.name for s in self.defined}}
        for s_, e in self.definitions:
            try:
                v[s_.name] = evaluate(e, v)
            except Unavailable:
                return None
        for h in self.stmt.hypotheses:
            if h.expr is not None and not holds(h.expr, v):
                return h
        return None

    def admissible(self, values: dict) -> dict | None:
        try:
            return self.complete({k: v for k, v in values.items()
                                  if k not in {s.name for s in self.defined}})
        except _Skip:
            return None

    def fallback(self) -> dict:
        """A point to realise targets on where no random draw is admissible: each symbol at
        the middle of a bounded domain, else just above its lower end (1 when unbounded),
        integers rounded."""
        out = {}
        for d in self.doms:
            lo, hi = d.lo, d.hi
            if math.isfinite(lo) and math.isfinite(hi):
                x = 0.5 * (lo + hi)
            elif math.isfinite(lo):
                x = max(1.0, 2 * lo) if lo >= 0 else 1.0
            else:
                x = 1.0
            out[d.sym.name] = float(max(1, round(x))) if d.integer else float(x)
        return out

    def domain_of(self, name: str):
        for d in self.doms:
            if d.sym.name == name:
                return d
        return None


@lru_cache(maxsize=4096)
def _holds_fn(h, rtol: float = 1e-12) -> Callable[[dict], bool]:
    """``lambda v: _holds(h, v, rtol)``, the tree walked and each side's evaluation plan
    looked up once (a statement's search tests its hypotheses at ~10⁵ points)."""
    if h is sp.true:
        return lambda v: True
    if h is sp.false:
        return lambda v: False
    if isinstance(h, (sp.And, sp.Or)):
        parts = [_holds_fn(a, rtol) for a in h.args]
        if isinstance(h, sp.And):
            return lambda v: all(f(v) for f in parts)
        return lambda v: any(f(v) for f in parts)
    if isinstance(h, sp.Not):
        inner = _holds_fn(h.args[0], rtol)
        return lambda v: not inner(v)
    if not isinstance(h, sp.core.relational.Relational):
        return lambda v: False
    lhs, rhs, cmp = evaluator(h.lhs), evaluator(h.rhs), _COMPARE.get(h.rel_op)
    if cmp is None:
        return lambda v: False

    def holds(v):
        try:
            a, b = lhs(v), rhs(v)
        except Unavailable:
            return False
        return cmp(a, b, rtol)
    return holds


_COMPARE = {
    "==": lambda a, b, rtol: abs(a - b) <= rtol * max(1.0, abs(a), abs(b)),
    "!=": lambda a, b, rtol: a != b,
    "<=": lambda a, b, rtol: a <= b,
    "<": lambda a, b, rtol: a < b,
    ">=": lambda a, b, rtol: a >= b,
    ">": lambda a, b, rtol: a > b,
}


def holds(h, v: dict, rtol: float = 1e-12) -> bool:
    """Whether the relation (or And/Or/Not of relations) ``h`` holds at ``v`` in double
    precision (== within ``rtol``); False where a side cannot be evaluated."""
    return _holds_fn(h, rtol)(v)


_IMPLICIT_CACHE: dict = {}


@lru_cache(maxsize=None)
def _implicit_fns(imp, others: tuple[str, ...]):
    """The conditions' slacks (≥ 0 ⇔ satisfied) as numpy functions of (var, *others)."""
    syms = [imp.var] + [next(s for s in imp.free_symbols if s.name == o) for o in others]
    out = []
    for c in imp.conditions:
        e = (c.rhs - c.lhs) if c.rel_op in ("<=", "<") else (c.lhs - c.rhs)
        out.append(lambdify(syms, e, "numpy"))
    return out


def implicit_value(imp, values: dict) -> float | None:
    """sup{v in (lower, upper] : every condition holds at var = v}, by a log-spaced scan
    of 4000 points (vectorised) and bisection of the last crossing (rel. tol 1e-12);
    None when no scanned value satisfies the conditions."""
    others = sorted(s.name for s in imp.free_symbols if s != imp.var)
    key = (imp, tuple(round(values[o], 14) for o in others if o in values))
    if key in _IMPLICIT_CACHE:
        return _IMPLICIT_CACHE[key]
    try:
        # numpy doubles: a huge value overflows to inf (a failed condition), where a Python
        # float raised OverflowError out of the search
        args = [np.float64(values[o]) for o in others]
    except KeyError:
        return None
    lo, hi = float(imp.lower), float(imp.upper)
    fns = [lambda x, f=f: f(x, *args) for f in _implicit_fns(imp, tuple(others))]

    def ok(x):
        with np.errstate(all="ignore"):
            vals = [np.asarray(f(np.asarray(x, dtype=float)), dtype=float) for f in fns]
        m = np.minimum.reduce([np.nan_to_num(v, nan=-np.inf, posinf=-np.inf, neginf=-np.inf)
                               for v in vals])
        return m >= 0

    grid = np.exp(np.linspace(math.log(lo + 1e-9 * max(1.0, lo)), math.log(hi), 4000))
    flags = ok(grid)
    if not np.any(flags):
        _IMPLICIT_CACHE[key] = None
        return None
    last = int(np.nonzero(flags)[0].max())
    if last == len(grid) - 1:
        out = hi
    else:
        def ok1(x):
            # ok() at one point: the same functions on the same one-entry array, the
            # minimum's test (every value finite and >= 0) read in Python
            return all(math.isfinite(y) and y >= 0 for y in
                       (float(np.asarray(f(np.array([x])), dtype=float).flat[0])
                        for f in fns))

        a, b = float(grid[last]), float(grid[last + 1])
        with np.errstate(all="ignore"):
            while b - a > 1e-12 * b:
                mid = 0.5 * (a + b)
                a, b = (mid, b) if ok1(mid) else (a, mid)
        out = a
    _IMPLICIT_CACHE[key] = out
    return out


# --------------------------------------------------------------------------------------
# realising a provider's targets on the paper's symbols
def realise(stmt, prov, targets: dict, base: dict, space: Space) -> dict | None:
    """Set the statement's symbols so that the provider's derived quantities take the
    target values (each solved for one free symbol, the others kept from ``base``).
    Returns an admissible point or None."""
    derived = prov.derived(stmt)
    values = {k: v for k, v in base.items() if k not in {s.name for s in space.defined}}
    fixed: set = set()
    for name, target in targets.items():
        expr = derived.get(name)
        if expr is None:
            continue
        expr = sp.sympify(expr)
        free = [s for s in expr.free_symbols if s not in fixed and s not in space.defined]
        if not free:
            continue
        if isinstance(expr, sp.Symbol):
            values[expr.name] = float(round(target)) if expr.is_integer else float(target)
            fixed.add(expr)
            continue
        # prefer continuous symbols; among integers the last by name (n before b)
        free.sort(key=lambda s: (bool(s.is_integer), s.name), reverse=False)
        done = False
        for sym in free:
            def g(u, sym=sym):
                vv = dict(values)
                vv[sym.name] = math.exp(u)
                try:
                    return math.log(abs(evaluate(expr, vv))) - math.log(abs(target))
                except (Unavailable, ValueError):
                    return math.nan
            us = np.linspace(-35.0, 35.0, 141)
            gs = np.array([g(u) for u in us])
            idx = [i for i in range(len(us) - 1)
                   if np.isfinite(gs[i]) and np.isfinite(gs[i + 1]) and gs[i] * gs[i + 1] <= 0]
            if not idx:
                continue
            i = idx[0]
            try:
                u = brentq(g, us[i], us[i + 1], xtol=1e-14) if gs[i] != 0 else us[i]
            except ValueError:
                continue
            x = math.exp(u)
            if sym.is_integer:
                x = float(max(1, round(x)))
            values[sym.name] = x
            done = True
            break
        if done:
            fixed |= expr.free_symbols
    return space.admissible(values)




def seeded(seed: int, *parts) -> int:
    """A seed derived from ``seed`` and ``parts`` (their text): every search of the driver
    draws from its own stream, the same whatever ran before it."""
    return (seed ^ zlib.crc32("|".join(map(str, parts)).encode())) & 0xFFFFFFFF

"""Statement checks: every typed statement of a result against the truth (DESIGN.md,
*Truth providers*).

Generic over papers and mechanisms.  For each :class:`~theory.model.Bound` (privacy) or
:class:`~theory.model.Rate` (utility), the registered truth providers are asked whether
they ``supports()`` it; none → NOT-TESTED with every provider's reason (said, never
guessed).  Otherwise the first supporting provider is used:

**The admissible space.**  Every free symbol of the statement is searched inside the
statement's hypotheses: relations (isolated bounds as in the counterexample search:
log-uniform scales over many decades, boundaries, integers where the paper has
integers), definitions ``x = expr`` (computed, never sampled), implicit bounds such as
α ≤ α*(q, σ) (evaluated numerically), and problem classes (the provider's scenario must
be a member of every class — else the point is skipped).  A hypothesis that is a bare
named predicate makes the statement NOT-TESTED: no provider may guess from its text.

**Explicit forms.**  Provider anchors (targets such as "sampling rate 10⁻³, noise
multiplier 1, order 64", realised by solving for the paper's symbols), random admissible
points and a Hypothesis phase targeting the ratio truth/bound.  Parameters of the bound
that the truth does not depend on (an analysis parameter such as a noise split β) are
then minimised over their admissible range: the claim is for every admissible value.
VIOLATED only when the certified lower value of the truth exceeds the bound, re-checked
at high precision (the provider's ``precise`` truth at 50 digits against the bound at 50
digits); the witness names both orders and which of them exceed the bound.  A scenario
counts for HOLDS only where truth + error ≤ bound, or where the provider's closed-form
truth (:meth:`~checks.truth.base.TruthProvider.closed_form`) is ≤ the bound exactly at the
scenario's exact values (SymPy decides the sign: a tight bound holds); one whose truth ±
error straddles the bound otherwise is *undecided* (counted in the detail); a statement with no decided scenario,
or whose largest certified ratio is not confirmed at high precision, is NOT-TESTED
("UNDECIDED"), never HOLDS-ON-SCENARIOS.

**O-forms** ("is there a constant?").  The ratio truth/expression is followed along
paths that move **every** parameter toward **both** ends of its admissible range (×10
per step toward ∞, ÷10 toward 0, toward the ends of intervals such as β ∈ (0, 1)),
and along the provider's joint paths.  VIOLATED when the ratio grows without bound
along an admissible path: each of the last three steps multiplies it by ≥ 2 (so growth
is confirmed at two further scales) and it ends above 1.  The ratio per path is
reported.

**Rates** are dispatched to rate providers (:mod:`checks.truth.rates`), which simulate.
"""
from __future__ import annotations

import copy
import math
import zlib
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Callable

import mpmath
import numpy as np
import sympy as sp

from checks.claim import lambdify
from checks.plugins import providers as _providers
from checks.truth.base import (NotMember, Truth, Unavailable, _Message, all_classes,
                               evaluate, evaluate_mp, evaluator, exact_value)
from checks.verdict import StatementReport, StatementVerdict

#: admissible points per bound in the default search (the engine's budget caps these)
SEARCH_CAP = 16
#: points per generic O-form path
PATH_STEPS = 4
#: factor per step of a generic path
PATH_FACTOR = 10.0
#: digits of the confirmation
CONFIRM_DPS = 50


class _Skip(Exception):
    """The point does not satisfy the hypotheses (or cannot be evaluated).  A search
    discards most skips: their messages are :class:`~checks.truth.base._Message`\ s,
    formatted only when read."""


@dataclass
class Outcome:
    label: str
    violated: bool = False
    ratio: float | None = None
    witness: dict | None = None
    detail: str = ""
    tested: bool = True
    samples: int = 0
    paths: dict = field(default_factory=dict)


# --------------------------------------------------------------------------------------
# the admissible space of a statement
class Space:
    """Symbols, hypotheses in force, definitions and implicit bounds of a statement; draws
    admissible points (dicts symbol name → float)."""

    def __init__(self, stmt):
        from checks.claim import make_claim

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
        from checks import falsify
        self.doms = falsify.domains_for(self.hyps, self.symbols)

    # ---- drawing
    def draw(self, rng: np.random.Generator, n: int) -> list[dict]:
        from checks import falsify
        k = len(self.doms)
        modes = rng.integers(0, falsify.N_MODES, size=(k, n))
        us = rng.random((k, n))
        return self.from_modes(modes, us)

    def from_modes(self, modes, us) -> list[dict]:
        from checks import falsify
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

    def admissible(self, values: dict) -> dict | None:
        try:
            return self.complete({k: v for k, v in values.items()
                                  if k not in {s.name for s in self.defined}})
        except _Skip:
            return None

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


def _holds(h, v: dict, rtol: float = 1e-12) -> bool:
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
        args = [values[o] for o in others]
    except KeyError:
        return None
    lo, hi = float(imp.lower), float(imp.upper)
    fns = [lambda x, f=f: f(x, *args) for f in _implicit_fns(imp, tuple(others))]

    def ok(x):
        with np.errstate(all="ignore"):
            vals = [np.asarray(f(np.asarray(x, dtype=float)), dtype=float) for f in fns]
        m = np.minimum.reduce([np.where(np.isfinite(v), v, -np.inf) for v in vals])
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
    from scipy.optimize import brentq

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


# --------------------------------------------------------------------------------------
# the truth at a point
def _bound_values(stmt, v):
    """(bound value to compare the truth with, its label) at v; raises _Skip."""
    try:
        if getattr(stmt, "profile", False):
            return evaluate(stmt.delta, v)
        return evaluate(stmt.expr, v)
    except Unavailable as exc:
        raise _Skip(*exc.args) from None


_TRUTH_CACHE: dict = {}
_TRUTH_CACHE_MAX = 20000
#: an explicit bound's search takes a coarse certified truth at a point once its upper
#: end is ≤ ENOUGH·bound: the point holds, and its ratio (lower/bound) is then a lower
#: bound below ENOUGH — far from the tightest scenario, where the truth is refined
ENOUGH = 0.5


def _remember(key, value) -> None:
    """Store in the per-process truth memo (emptied when it outgrows its bound)."""
    if len(_TRUTH_CACHE) > _TRUTH_CACHE_MAX:
        _TRUTH_CACHE.clear()
    _TRUTH_CACHE[key] = value


def _truth_key(stmt, prov) -> tuple:
    """What a provider's truth at a point depends on besides the point: the provider, the
    statement's mechanism, order and classes, and for a privacy profile the ε where it is
    evaluated and the claimed δ (a provider may spend effort by it) — two profile
    statements of one mechanism at different ε must not share truths."""
    from checks.cache import fingerprint
    profile = getattr(stmt, "profile", False)
    return (prov.name, fingerprint((stmt.mechanism, getattr(stmt, "order", None), profile,
                                    all_classes(stmt),
                                    (stmt.expr, getattr(stmt, "delta", None)) if profile
                                    else None)))


def _truth_symbols(stmt) -> list[str]:
    """Names of the symbols the truth depends on (mechanism, order, classes, and a
    profile's ε and claimed δ)."""
    syms = set(stmt.mechanism.free_symbols)
    if getattr(stmt, "order", None) is not None:
        syms |= stmt.order.free_symbols
    if getattr(stmt, "profile", False):
        syms |= stmt.expr.free_symbols
        if getattr(stmt, "delta", None) is not None:
            syms |= stmt.delta.free_symbols
    for c in all_classes(stmt):
        syms |= c.free_symbols
    return sorted(s.name for s in syms)


class _Evaluator:
    """Truth and ratio at admissible points.  Truth values are cached across statements
    (two bounds of one mechanism share them) by the provider, the statement's mechanism,
    order and classes, and the values of the symbols the truth depends on."""

    def __init__(self, stmt, prov, space: Space, *, decide: bool = False):
        self.stmt, self.prov, self.space = stmt, prov, space
        # decide: the truth is wanted only against the bound (an explicit bound's search),
        # so refining may stop once the certified bracket lies at or below ENOUGH·bound
        # (the point holds; its ratio is then a lower bound)
        self.decide = decide
        # precision hints reach only a provider that takes them
        self.hints = getattr(prov, "takes_hints", False)
        self.stats = {"evaluated": 0, "not_member": 0, "unavailable": 0, "rejected": 0,
                      "undecided": 0, "exact": 0}
        self.closed = prov.closed_form(stmt)
        self.not_member_reason = ""
        self.tsyms = _truth_symbols(stmt)
        self.tkey = _truth_key(stmt, prov)

    def at(self, v: dict, rel_tol: float | None = None):
        """(truth, bound, lower/bound) at ``v``, or None; ``rel_tol``: the relative error
        of the truth that will do (an O-form path needs one digit)."""
        return self._at(v, rel_tol)

    def truth(self, v: dict, enough: float | None = None,
              rel_tol: float | None = None) -> Truth:
        """The provider's truth at ``v``, remembered per process.  ``enough`` and
        ``rel_tol`` are the provider's precision hints (dropped for a provider that does
        not take them).  A remembered answer serves a later call only if it would have
        served that call: a coarse truth where its upper end is ≤ the new ``enough`` or
        its error within the new ``rel_tol``; a refusal where the new call is no more
        lenient than the refused one."""
        if not self.hints:
            enough = rel_tol = None
        key = (self.tkey, self._point(v))
        hit = _TRUTH_CACHE.get(key)
        got = None
        if hit is not None:
            got, (e0, r0) = hit
            if isinstance(got, Exception):
                if (enough or 0.0) > (e0 or 0.0) or (rel_tol or 0.0) > (r0 or 0.0):
                    got = None
            elif got.extra.get("coarse") and not (
                    (enough is not None and got.upper <= enough)
                    or (rel_tol is not None and got.error <= rel_tol * max(got.max, 1e-6))):
                got = None
        if got is None:
            hints = {k: x for k, x in (("enough", enough), ("rel_tol", rel_tol)) if x is not None}
            try:
                got = self.prov.truth(self.stmt, v, **hints)
            except (Unavailable, ValueError, ArithmeticError, OverflowError, MemoryError) as exc:
                got = exc
            _remember(key, (got, (enough, rel_tol)))
        if isinstance(got, Exception):
            raise got
        return got

    def _point(self, v: dict) -> tuple:
        """The values at ``v`` of the symbols the truth depends on (the memo's key)."""
        return tuple(v.get(n) for n in self.tsyms)

    def precise_truth(self, v: dict) -> Truth:
        """The provider's precise truth at ``v`` (``precise=True``: what a violation is
        confirmed with), remembered per process like :meth:`truth` — two statements of
        one mechanism that exceed their bounds at one scenario confirm it once."""
        key = (self.tkey, "precise", self._point(v))
        got = _TRUTH_CACHE.get(key)
        if got is None:
            try:
                got = self.prov.truth(self.stmt, v, precise=True)
            except (Unavailable, ValueError, ArithmeticError) as exc:
                got = exc
            _remember(key, got)
        if isinstance(got, Exception):
            raise got
        return got

    def _at(self, v, rel_tol=None):
        stmt = self.stmt
        try:
            self.prov.member(stmt, v)
        except NotMember as exc:
            self.stats["not_member"] += 1
            self.not_member_reason = str(exc)
            return None
        try:
            bval = _bound_values(stmt, v)
        except _Skip:
            self.stats["rejected"] += 1
            return None
        if not (bval > 0):
            self.stats["rejected"] += 1
            return None
        try:
            tr = self.truth(v, ENOUGH * bval if self.decide else None, rel_tol)
        except (Unavailable, ValueError, ArithmeticError, OverflowError, MemoryError) as exc:
            self.stats["unavailable"] += 1
            self.last_unavailable = str(exc)
            return None
        ratio = tr.lower / bval
        if not math.isfinite(ratio):
            self.stats["unavailable"] += 1
            self.last_unavailable = f"truth not finite ({tr.lower!r})"
            return None
        self.stats["evaluated"] += 1
        if tr.lower <= bval < tr.upper:
            if self._exact_holds(v):
                # the closed-form truth is at most the bound exactly (a tight bound)
                self.stats["exact"] += 1
                tr = Truth(tr.forward, tr.backward, 0.0, tr.method + ", decided exactly",
                           tr.scenario, dict(tr.extra))
                ratio = min(tr.max / bval, 1.0)
            else:
                # truth ± error straddles the bound: this scenario decides nothing
                self.stats["undecided"] += 1
        return tr, bval, ratio

    def lower_at(self, v: dict):
        """(lower truth, bound, lower/bound) where only the provider's certified lower bound
        of the truth is in reach (:meth:`TruthProvider.lower_truth`), else None."""
        try:
            self.prov.member(self.stmt, v)
            bval = _bound_values(self.stmt, v)
            lt = self.prov.lower_truth(self.stmt, v)
        except (NotMember, _Skip, Unavailable, ValueError, ArithmeticError, OverflowError):
            return None
        if lt is None or not (bval > 0) or not (lt.max > 0) or not math.isfinite(lt.max):
            return None
        self.stats["lower_only"] = self.stats.get("lower_only", 0) + 1
        return lt, bval, lt.max / bval

    def _exact_holds(self, v: dict) -> bool:
        """True when the provider's closed-form truth is ≤ the bound exactly at ``v`` (the
        values read as exact binary rationals; SymPy decides the sign of the difference)."""
        if self.closed is None:
            return False
        stmt = self.stmt
        expr = stmt.delta if getattr(stmt, "profile", False) else stmt.expr
        diff = expr - self.closed
        try:
            subs = {s: exact_value(v[s.name]) for s in diff.free_symbols}
        except (KeyError, TypeError):
            return False
        d = sp.nsimplify(sp.simplify(diff.xreplace(subs)))
        return bool(d.is_zero or d.is_nonnegative)


# --------------------------------------------------------------------------------------
# explicit bounds: search
def _seeded(seed: int, *parts) -> int:
    return (seed ^ zlib.crc32("|".join(map(str, parts)).encode())) & 0xFFFFFFFF


def _free_of_truth(stmt, space: Space) -> list[sp.Symbol]:
    """Symbols of the bound that the truth does not depend on (analysis parameters)."""
    used = set(stmt.mechanism.free_symbols)
    if getattr(stmt, "order", None) is not None:
        used |= stmt.order.free_symbols
    if getattr(stmt, "profile", False):
        used |= stmt.expr.free_symbols          # ε is where the profile is evaluated
    for c in all_classes(stmt):
        used |= c.free_symbols
    expr = stmt.delta if getattr(stmt, "profile", False) else stmt.expr
    return sorted((expr.free_symbols - used) & set(space.symbols), key=lambda s: s.name)


def _polish_analysis(ev: _Evaluator, v: dict, tr: Truth, syms) -> tuple[dict, float, float]:
    """Minimise the bound over parameters the truth does not depend on (scan of the
    admissible range of each, others fixed).  Returns (point, bound value, ratio)."""
    best_v, best_b = v, _bound_values(ev.stmt, v)
    for s in syms:
        d = ev.space.domain_of(s.name)
        lo = d.lo if d is not None and math.isfinite(d.lo) else None
        hi = d.hi if d is not None and math.isfinite(d.hi) else None
        x0 = best_v[s.name]
        if lo is not None and hi is not None:
            cands = list(np.linspace(lo, hi, 51)[1:-1]) + [lo + (hi - lo) * 10.0**-k for k in
                                                          range(2, 7)] + \
                [hi - (hi - lo) * 10.0**-k for k in range(2, 7)]
        else:
            cands = [x0 * 10.0**k for k in range(-6, 7)]
        for x in cands:
            w = ev.space.admissible(dict(best_v, **{s.name: float(x)}))
            if w is None:
                continue
            try:
                b = _bound_values(ev.stmt, w)
            except _Skip:
                continue
            if 0 < b < best_b:
                best_v, best_b = w, b
    return best_v, best_b, tr.lower / best_b


def search_bound(stmt, prov, *, budget: int, seed: int, confirm: bool = True) -> Outcome:
    space = Space(stmt)
    ev = _Evaluator(stmt, prov, space, decide=confirm)
    n_ex = max(1, min(int(budget), SEARCH_CAP))
    rng = np.random.default_rng(_seeded(seed, "base"))
    best = {"ratio": -math.inf, "v": None, "tr": None, "b": None}

    def consider(v):
        if v is None:
            return None
        got = ev.at(v)
        if got is None:
            return None
        tr, bval, ratio = got
        if ratio > best["ratio"]:
            best.update(ratio=ratio, v=dict(v), tr=tr, b=bval)
        return ratio

    base_pts = space.draw(rng, 64)
    base = base_pts[0] if base_pts else {}
    for targets in prov.anchors(stmt):
        for b0 in (base_pts[:2] or [{}]):
            consider(realise(stmt, prov, targets, b0, space))
    for v in base_pts[:n_ex]:
        consider(v)
    _hypothesis_phase(space, consider, n_ex, _seeded(seed, "hyp"))
    if best["v"] is None:
        return _no_point(stmt, prov, ev, space)
    # analysis parameters (β …): the bound must hold for every admissible value
    free = _free_of_truth(stmt, space)
    if free:
        v, b, r = _polish_analysis(ev, best["v"], best["tr"], free)
        if r > best["ratio"]:
            best.update(v=v, b=b, ratio=r)
    ratio = best["ratio"]
    budget_txt = (f"{ev.stats['evaluated']} admissible scenarios ({ev.stats['not_member']} not "
                  f"in every class, {ev.stats['unavailable']} out of the provider's reach, "
                  f"{ev.stats['undecided']} undecided (truth ± error straddles the bound), "
                  f"{ev.stats['exact']} decided exactly by the closed form; "
                  f"cap {n_ex} random + anchors + targeted)")
    head = f"bound {stmt.label} ({prov.name})"
    if ratio > 1 and confirm:
        ok, txt, tr = _confirm(stmt, ev, best["v"], best["tr"])
        if ok:
            orders = tr.orders_above(_bound_values(stmt, best["v"]))
            txt += f"; order(s) exceeding the bound: {', '.join(orders) or 'none alone'}"
            if orders == ["add"]:
                txt += (" only — the remove order holds; RDP under add/remove adjacency "
                        "needs both")
            elif orders == ["remove"]:
                txt += " only — the add order holds; RDP under add/remove adjacency needs both"
            return Outcome(stmt.label, violated=True, ratio=tr.lower / best["b"],
                           witness=_witness(best["v"], tr, best["b"], stmt),
                           detail=f"{head}: VIOLATED, truth/bound = {tr.lower / best['b']:.6g} "
                                  f"({txt}); {budget_txt}", samples=ev.stats["evaluated"])
        # the certified lower truth exceeds the bound but the precise re-check does not
        # confirm it: neither VIOLATED nor HOLDS — the statement is undecided here
        head += (f": UNDECIDED — the largest ratio {ratio:.6g} was not confirmed ({txt}); "
                 "reported as not tested")
        return Outcome(stmt.label, ratio=ratio, tested=False,
                       witness=_witness(best["v"], best["tr"], best["b"], stmt),
                       detail=f"{head}; {budget_txt}", samples=ev.stats["evaluated"])
    if ev.stats["undecided"] >= ev.stats["evaluated"]:
        # HOLDS needs truth + error <= bound somewhere: every scenario straddled the bound
        return Outcome(stmt.label, ratio=ratio, tested=False,
                       witness=_witness(best["v"], best["tr"], best["b"], stmt),
                       detail=f"{head}: UNDECIDED — at every evaluated scenario the truth's "
                              f"error interval contains the bound (not tested); {budget_txt}",
                       samples=ev.stats["evaluated"])
    return Outcome(stmt.label, ratio=ratio,
                   witness=_witness(best["v"], best["tr"], best["b"], stmt),
                   detail=f"{head}: holds on scenarios, tightest truth/bound = {ratio:.6g}; "
                          f"{budget_txt}", samples=ev.stats["evaluated"])


def _no_point(stmt, prov, ev, space) -> Outcome:
    why = []
    if ev.stats["not_member"]:
        why.append(f"{ev.stats['not_member']} not in every class ({ev.not_member_reason})")
    if ev.stats["unavailable"]:
        why.append(f"{ev.stats['unavailable']} out of reach "
                   f"({getattr(ev, 'last_unavailable', '')})")
    if ev.stats["rejected"]:
        why.append(f"{ev.stats['rejected']} with a bound not positive/evaluable")
    return Outcome(stmt.label, tested=False,
                   detail=f"bound {stmt.label} ({prov.name}): NOT-TESTED — no admissible "
                          f"scenario could be evaluated ({'; '.join(why) or 'none drawn'})")


def point_strategy(k: int):
    """Hypothesis strategy for one point of a :class:`Space` with ``k`` domains: a sampling
    mode and a uniform per domain, read by :meth:`Space.from_modes`."""
    import hypothesis.strategies as st

    from checks import falsify
    return st.tuples(st.lists(st.integers(0, falsify.N_MODES - 1), min_size=k, max_size=k),
                     st.lists(st.floats(0, 1, allow_nan=False), min_size=k, max_size=k))


def _hypothesis_phase(space: Space, consider, n: int, seed: int) -> None:
    from hypothesis import HealthCheck, Phase, given, settings, target
    from hypothesis import seed as hseed

    k = len(space.doms)
    if k == 0 or n <= 0:
        return
    point = point_strategy(k)

    @hseed(seed)
    @settings(max_examples=n, database=None, deadline=None, derandomize=False,
              phases=(Phase.generate, Phase.target), suppress_health_check=list(HealthCheck))
    @given(point)
    def run(mu):
        ms, us = mu
        pts = space.from_modes(np.array(ms)[:, None], np.array(us)[:, None])
        r = consider(pts[0]) if pts else None
        if r is not None:
            target(float(min(r, 1e6)), label="truth/bound")

    run()


def _confirm(stmt, ev: _Evaluator, v, tr):
    """Re-check a violation with the provider's precise truth and the bound at 50 digits.
    Returns (ok, text, truth)."""
    try:
        ptr = ev.precise_truth(v)
    except (Unavailable, ValueError, ArithmeticError) as exc:
        return False, f"precise truth unavailable: {exc}", tr
    bmp = evaluate_mp(stmt.delta if getattr(stmt, "profile", False) else stmt.expr, v,
                      CONFIRM_DPS)
    with mpmath.workdps(CONFIRM_DPS):
        lower = mpmath.mpf(ptr.extra.get("lower_mp", ptr.lower))
        if lower > bmp:
            return True, (f"confirmed: {ptr.method}: truth ≥ {mpmath.nstr(lower, 12)} > bound "
                          f"{mpmath.nstr(bmp, 12)} (bound at {CONFIRM_DPS} digits)"), ptr
    return False, (f"precise truth {ptr.lower:.12g} does not exceed the bound "
                   f"{mpmath.nstr(bmp, 12)}"), ptr


def _witness(v, tr: Truth, bval, stmt) -> dict:
    w = {k: (repr(x) if isinstance(x, float) and not float(x).is_integer() else
             str(int(x)) if isinstance(x, float) else str(x)) for k, x in sorted(v.items())}
    w.update({"truth_add": repr(tr.forward), "truth_remove": repr(tr.backward),
              "truth_max": repr(tr.max), "truth_error": repr(tr.error),
              "bound": repr(bval), "method": tr.method})
    if tr.scenario:
        w["scenario"] = tr.scenario
    return w


# --------------------------------------------------------------------------------------
# O-forms: paths in every direction
def _generic_paths(stmt, space: Space, base: dict) -> dict[str, list[dict]]:
    """Move each free parameter of the statement toward both ends of its admissible
    range from ``base`` (others fixed): ×10 / ÷10 per step, interval ends approached
    geometrically, integers rounded (down to 1)."""
    out = {}
    names = sorted({s.name for s in stmt.free_symbols} & {d.sym.name for d in space.doms})
    for nm in names:
        d = space.domain_of(nm)
        x0 = base.get(nm)
        if x0 is None or d is None:
            continue
        lo = d.lo if math.isfinite(d.lo) else None
        hi = d.hi if math.isfinite(d.hi) else None
        for direction in ("up", "down"):
            pts = []
            for k in range(1, PATH_STEPS + 1):
                if direction == "up":
                    x = (hi - (hi - x0) / PATH_FACTOR**k) if hi is not None else x0 * PATH_FACTOR**k
                else:
                    x = (lo + (x0 - lo) / PATH_FACTOR**k) if lo is not None else x0 / PATH_FACTOR**k
                if d.integer:
                    x = float(max(1, round(x)))
                w = space.admissible(dict(base, **{nm: float(x)}))
                if w is None:
                    break
                if pts and w[nm] == pts[-1][nm]:
                    break
                pts.append(w)
            if len(pts) >= 3:
                arrow = "→ ∞" if direction == "up" and hi is None else (
                    f"→ {hi:g}" if direction == "up" else (f"→ {lo:g}" if lo is not None else "→ 0"))
                out[f"{nm} {arrow}"] = [base] + pts
    return out


#: a truth whose error exceeds this share of its value is not used on an O-form path
UNRESOLVED = 0.25
#: the relative error an O-form path asks its truths for (a provider that takes
#: precision hints refines no further): one digit, well inside UNRESOLVED
PATH_REL_TOL = UNRESOLVED / 2


def _path_budget(budget: int) -> int:
    """Truth evaluations on O-form paths: 48 at the default budget (2000), scaling with it."""
    return max(12, int(48 * budget / 2000))


def o_form_check(stmt, prov, *, budget: int, seed: int) -> Outcome:
    space = Space(stmt)
    ev = _Evaluator(stmt, prov, space)
    rng = np.random.default_rng(_seeded(seed, "o-base"))
    bases = []
    for targets in prov.anchors(stmt)[:2]:
        for b0 in space.draw(rng, 8)[:1]:
            w = realise(stmt, prov, targets, b0, space)
            if w is not None and ev.at(w) is not None:
                bases.append(w)
    if not bases:
        for w in space.draw(rng, 64):
            if ev.at(w) is not None:
                bases.append(w)
                break
    # the random search first: the largest constant needed, and a base for the paths
    srch = search_bound(stmt, prov, budget=max(1, min(budget, SEARCH_CAP) // 2), seed=seed,
                        confirm=False)
    if srch.witness is not None and srch.tested:
        w = space.admissible({k: float(x) for k, x in srch.witness.items()
                              if k in {d.sym.name for d in space.doms}})
        if w is not None:
            bases.insert(0, w)
    paths: dict[str, list[dict]] = {}
    for name, seq in prov.paths(stmt).items():
        pts = [realise(stmt, prov, t, bases[-1] if bases else {}, space) for t in seq]
        pts = [p for p in pts if p is not None]
        if pts:
            paths[name] = pts
    if bases:
        paths.update(_generic_paths(stmt, space, bases[0]))
    left = _path_budget(budget)
    rows, per_path = [], {}
    worst = None
    for name, pts in paths.items():
        ratios = []          # (ratio, point, truth, bound) at certified-positive truths
        falling = 0
        lower_only = 0
        for v in pts:
            if left <= 0:
                break
            left -= 1
            got = ev.at(v, PATH_REL_TOL)    # the bases above: default precision
            if got is None:
                # out of the truth's reach: a certified lower bound still bounds the ratio
                # from below (it can show growth, never boundedness)
                got = ev.lower_at(v)
                lower_only += got is not None
            if got is None:
                continue
            tr, e, r = got
            if r <= 0:
                continue     # the truth is below its own error: no ratio to follow
            if tr.error > UNRESOLVED * tr.max:
                # not resolved to one digit: a ratio of such a truth says nothing about the
                # trend (a grid truth at 1e-9 with an estimated 4e-10 error read 937× the
                # O-expression where the 1/n² scaling of its neighbours gives ~1e-3)
                continue
            if ratios and r < ratios[-1][0]:
                falling += 1
                if falling >= 2:
                    ratios.append((r, v, tr, e))
                    break    # falling twice in a row: not the direction that breaks it
            else:
                falling = 0
            ratios.append((r, v, tr, e))
        if len(ratios) < 2:
            continue
        rs = [r for r, *_ in ratios]
        per_path[name] = (rs[0], rs[-1])
        factors = [rs[i + 1] / rs[i] for i in range(len(rs) - 1)][-3:]
        unbounded = len(factors) == 3 and min(factors) >= 2 and rs[-1] > 1
        rows.append(f"{name}: ratio {rs[0]:.3g} → {rs[-1]:.3g}"
                    + (f" ({lower_only} point(s) by a certified lower bound of the truth)"
                       if lower_only else ""))
        key = (unbounded, rs[-1] / rs[0])
        if worst is None or key > worst[0]:
            worst = (key, name, ratios[-1])
    if not per_path and not srch.tested:
        return srch
    if worst is not None and worst[0][0]:
        r, v, tr, e = worst[2]
        return Outcome(stmt.label, violated=True, ratio=r, witness=_witness(v, tr, e, stmt),
                       detail=f"O-bound {stmt.label} ({prov.name}): no constant works — "
                              f"truth/expr grows ×{worst[0][1]:.3g} and still increases along "
                              f"path '{worst[1]}' (×≥2 at each of its last three steps); "
                              + "; ".join(rows), samples=ev.stats["evaluated"], paths=per_path)
    path_max = max([hi for _, hi in per_path.values()] + [0.0])
    maxr = max(srch.ratio or 0.0, path_max)
    return Outcome(stmt.label, ratio=maxr, witness=srch.witness,
                   detail=f"O-bound {stmt.label} ({prov.name}): truth/expr stays bounded on "
                          f"{len(per_path)} paths (largest constant needed ≈ {maxr:.3g}); "
                          + "; ".join(rows) + f"; search: {srch.samples} scenarios",
                   samples=srch.samples, paths=per_path)


# --------------------------------------------------------------------------------------
# dispatch
def supporting(stmt) -> tuple[list, list[str]]:
    """(providers supporting the statement, reasons of those that do not)."""
    ok, why = [], []
    for p in _providers():
        s = p.supports(stmt)
        (ok if s else why).append(p if s else s.reason)
    return ok, why


#: outcomes by (content, budget, seed), per process: a statement restated elsewhere (the
#: other version of a paper, a theorem's appendix restatement, a proof row typed as the
#: theorem's own bound) is checked once.  Its content is the statement without its label,
#: note and the citations (``where``) of its hypotheses: what no provider reads.  Keyed
#: also by the registered providers; a test that patches a provider clears it first.
_MEMO: dict = {}
_MEMO_MAX = 1024
#: the label a statement is checked under (a valid label no paper uses); the outcome then
#: gets the caller's label back, in its text too
_AS = "0-label-of-the-statement-0"


def content_key(stmt) -> str:
    """The text a statement's check depends on (see :data:`_MEMO`); seeds derive from it,
    so equal statements get equal searches wherever they are checked."""
    from checks.cache import fingerprint
    return fingerprint(replace(stmt, label=_AS, note="", hypotheses=tuple(
        replace(h, where="") for h in stmt.hypotheses)))


def _relabel(out: Outcome, label: str) -> Outcome:
    def sub(v):
        return v.replace(_AS, label) if isinstance(v, str) else v
    witness = None if out.witness is None else {k: sub(v) for k, v in
                                                copy.deepcopy(out.witness).items()}
    return replace(out, label=label, detail=sub(out.detail), witness=witness,
                   paths=copy.deepcopy(out.paths))


def check_statement(stmt, *, budget: int, seed: int) -> Outcome:
    """One typed statement (Bound or Rate), remembered by content (:data:`_MEMO`)."""
    # the registered providers are part of the key: a provider registered later (a user's
    # plugin) may support, or answer, what the ones before could not
    key = (content_key(stmt), budget, seed, tuple(map(id, _providers())))
    out = _MEMO.get(key)
    if out is None:
        out = _check_statement(replace(stmt, label=_AS), budget=budget, seed=seed)
        if len(_MEMO) >= _MEMO_MAX:
            _MEMO.clear()
        _MEMO[key] = out
    return _relabel(out, stmt.label)


def _check_statement(stmt, *, budget: int, seed: int) -> Outcome:
    space_pred = [h.name for h in stmt.hypotheses if h.is_predicate]
    kind = "rate" if hasattr(stmt, "metric") else "bound"
    if space_pred:
        return Outcome(stmt.label, tested=False,
                       detail=f"{kind} {stmt.label}: NOT-TESTED — hypothesis "
                              f"{space_pred[0]!r} is a named predicate: no provider can decide "
                              "whether a scenario satisfies it (type it as a problem class "
                              "or a relation)")
    provs, why = supporting(stmt)
    if not provs:
        return Outcome(stmt.label, tested=False,
                       detail=f"{kind} {stmt.label}: NOT-TESTED — no truth provider supports "
                              f"it: " + "; ".join(why or ["no provider registered"]))
    prov = provs[0]
    if hasattr(prov, "check"):
        return prov.check(stmt, budget=budget, seed=seed)
    if stmt.form == "O":
        return o_form_check(stmt, prov, budget=budget, seed=seed)
    return search_bound(stmt, prov, budget=budget, seed=seed)


def check_result_statements(result, *, budget: int = 40, seed: int = 0
                            ) -> tuple[StatementReport, dict[str, Outcome]]:
    """The statement verdict of a result and the outcome per typed statement label."""
    stmts = list(result.bounds) + list(result.rates)
    if not stmts:
        return StatementReport(StatementVerdict.NOT_TESTED, "no typed statement encoded"), {}
    outs: dict[str, Outcome] = {}
    for st in stmts:
        s = _seeded(seed, result.id, st.label)
        try:
            outs[st.label] = check_statement(st, budget=budget, seed=s)
        except Exception as exc:  # noqa: BLE001 - a provider bug: say so, go on
            outs[st.label] = Outcome(st.label, tested=False,
                                     detail=f"{st.label}: NOT-TESTED — provider failed: "
                                            f"{type(exc).__name__}: {exc}")
    tested = [o for o in outs.values() if o.tested]
    details = " | ".join(o.detail for o in outs.values())
    if not tested:
        return StatementReport(StatementVerdict.NOT_TESTED, details), outs
    bad = [o for o in tested if o.violated]
    if bad:
        w = dict(bad[0].witness or {})
        w["statement_label"] = bad[0].label
        return StatementReport(StatementVerdict.VIOLATED, details, w, bad[0].ratio), outs
    top = max(tested, key=lambda o: o.ratio if o.ratio is not None else -math.inf)
    w = dict(top.witness or {})
    w["statement_label"] = top.label
    return StatementReport(StatementVerdict.HOLDS_ON_SCENARIOS, details, w, top.ratio), outs


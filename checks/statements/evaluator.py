"""The truth at admissible points of a statement: one evaluator for every search of the
driver, with the per-process truth memo (DESIGN.md, *Statement checks*)."""
from __future__ import annotations

import math

import sympy as sp

from checks import resources
from checks.cache import fingerprint
from checks.statements.space import Space, _Skip, seeded
from checks.truth.base import (NotMember, Truth, Unavailable, all_classes, evaluate,
                               exact_value)

#: what a provider's truth may raise at a point: the point is out of its reach
OUT_OF_REACH = (Unavailable, ValueError, ArithmeticError, OverflowError, MemoryError)


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
    statement's mechanism, order and classes, for a privacy profile the ε where it is
    evaluated and the claimed δ (a provider may spend effort by it) — two profile
    statements of one mechanism at different ε must not share truths — and for a rate
    its metric and confidence."""
    profile = getattr(stmt, "profile", False)
    rate = (stmt.metric, stmt.confidence) if getattr(stmt, "statement_type", "") == "rate" \
        else None
    key = (prov.name, fingerprint((stmt.mechanism, getattr(stmt, "order", None), profile,
                                   all_classes(stmt),
                                   (stmt.expr, getattr(stmt, "delta", None)) if profile
                                   else None)))
    return key if rate is None else key + (fingerprint(rate),)


def _truth_symbols(stmt) -> list[str]:
    """Names of the symbols the truth depends on (mechanism, order, classes, a profile's ε
    and claimed δ, a rate's confidence)."""
    syms = set(stmt.mechanism.free_symbols)
    if getattr(stmt, "order", None) is not None:
        syms |= stmt.order.free_symbols
    if getattr(stmt, "profile", False):
        syms |= stmt.expr.free_symbols
        if getattr(stmt, "delta", None) is not None:
            syms |= stmt.delta.free_symbols
    if getattr(stmt, "confidence", None) is not None:
        syms |= stmt.confidence.free_symbols
    for c in all_classes(stmt):
        syms |= c.free_symbols
    return sorted(s.name for s in syms)


class Evaluator:
    """Truth and ratio at admissible points, for every search of the driver.

    ``provs`` are the providers that answer (those of the highest priority that support the
    statement); the first declares the search (plan, anchors, paths, closed form), and where
    several answer, the truth with the tighter certified error is taken at each point.
    Truth values are remembered per process (two bounds of one mechanism share them) by the
    provider, the statement's mechanism, order and classes, the values of the symbols the
    truth depends on, and — for a measured (stochastic) truth — the seed of the point,
    derived from ``seed`` and the point itself (the same wherever the point is met)."""

    def __init__(self, stmt, provs, space: Space, *, decide: bool = False, seed: int = 0):
        provs = list(provs) if isinstance(provs, (list, tuple)) else [provs]
        self.stmt, self.provs, self.prov, self.space = stmt, provs, provs[0], space
        # decide: the truth is wanted only against the bound (an explicit bound's search),
        # so refining may stop once the certified bracket lies at or below ENOUGH·bound
        # (the point holds; its ratio is then a lower bound)
        self.decide = decide
        self.seed = seed
        self.stats = {"evaluated": 0, "not_member": 0, "unavailable": 0, "rejected": 0,
                      "undecided": 0, "exact": 0}
        self.closed = self.prov.closed_form(stmt)
        self.not_member_reason = ""
        self.last_unavailable = ""
        self.tsyms = sorted(set(_truth_symbols(stmt))
                            | {x.name for p in provs for x in p.reads(stmt)})
        self.tkeys = [_truth_key(stmt, p) for p in provs]

    # ---- points
    def admit(self, v: dict | None) -> dict | None:
        """``v`` completed by the provider (the quantities its scenario fixes,
        :meth:`~checks.truth.base.TruthProvider.complete`) and admissible, else None."""
        if v is None:
            return None
        try:
            w = self.prov.complete(self.stmt, v)
        except OUT_OF_REACH:
            return None
        return v if w is v else self.space.admissible(w)

    def _point(self, v: dict) -> tuple:
        """The values at ``v`` of the symbols the truth depends on (the memo's key)."""
        return tuple(v.get(n) for n in self.tsyms)

    def point_seed(self, v: dict) -> int:
        """The seed of a measured truth at ``v``: from the statement's seed and the point."""
        return seeded(self.seed, "point", *self._point(v))

    # ---- the truth
    def at(self, v: dict, rel_tol: float | None = None):
        """(truth, bound, lower/bound) at ``v``, or None; ``rel_tol``: the relative error
        of the truth that will do (an O-form path needs one digit)."""
        return self._at(v, rel_tol)

    def truth(self, v: dict, enough: float | None = None,
              rel_tol: float | None = None) -> Truth:
        """The providers' truth at ``v`` (the tightest where several answer), remembered
        per process."""
        got, last = None, None
        for prov, tkey in zip(self.provs, self.tkeys):
            try:
                t = self._truth_of(prov, tkey, v, enough, rel_tol)
            except OUT_OF_REACH as exc:
                last = exc
                continue
            if got is None or t.error < got.error:
                got = t
        if got is None:
            raise last
        return got

    def _truth_of(self, prov, tkey, v, enough, rel_tol) -> Truth:
        """One provider's truth at ``v``, remembered per process.  ``enough`` and
        ``rel_tol`` are the provider's precision hints (dropped for a provider that does
        not take them).  A remembered answer serves a later call only if it would have
        served that call: a coarse truth where its upper end is ≤ the new ``enough`` or
        its error within the new ``rel_tol``; a refusal where the new call is no more
        lenient than the refused one."""
        if not prov.takes_hints:
            enough = rel_tol = None
        key = (tkey, self._point(v)) + ((self.point_seed(v),) if prov.stochastic else ())
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
            if prov.stochastic:
                hints["seed"] = self.point_seed(v)
            try:
                prov.reach(self.stmt, v)
                got = prov.truth(self.stmt, v, **hints)
            except OUT_OF_REACH as exc:
                got = resources.detach(exc)     # remembered: without its frames' arrays
            _remember(key, (got, (enough, rel_tol)))
        if isinstance(got, Exception):
            raise got
        return got

    def prefetch(self, points: list[dict]) -> None:
        """Ask a measured (stochastic) provider for the truths at ``points`` in one batch
        (:meth:`~checks.truth.base.TruthProvider.truths`: a simulation of many scenarios
        runs faster together), so that the search's later questions are remembered."""
        for prov, tkey in zip(self.provs, self.tkeys):
            if not prov.stochastic:
                continue
            todo, keys, seen = [], [], set()
            for v in points:
                key = (tkey, self._point(v), self.point_seed(v))
                if key in _TRUTH_CACHE or key in seen:
                    continue
                seen.add(key)
                todo.append(v)
                keys.append(key)
            out_of_reach = {}
            for i, v in enumerate(todo):
                try:
                    prov.reach(self.stmt, v)
                except OUT_OF_REACH as exc:
                    out_of_reach[i] = exc
            ask = [i for i in range(len(todo)) if i not in out_of_reach]
            got = prov.truths(self.stmt, [todo[i] for i in ask], [keys[i][-1] for i in ask]) \
                if ask else []
            answers = dict(out_of_reach)
            answers.update(zip(ask, got))
            for i, key in enumerate(keys):
                _remember(key, (answers[i], (None, None)))

    def wanted(self, v: dict | None) -> bool:
        """Whether :meth:`at` would ask the providers for the truth at ``v``: the point is
        in the statement's classes, its bound is positive and it is within a provider's
        reach (nothing counted, nothing computed but the bound) — what a search
        prefetches, so that a batch simulates no scenario the search then rejects."""
        if v is None:
            return False
        try:
            return _bound_values(self.stmt, v) > 0 and self.askable(v)
        except (_Skip,) + OUT_OF_REACH:
            return False

    def askable(self, v: dict) -> bool:
        """Whether ``v`` is in the statement's classes and within a provider's reach (the
        truth a search would ask there; nothing computed)."""
        try:
            self.prov.member(self.stmt, v)
        except NotMember:
            return False
        return self.in_reach(v)

    def in_reach(self, v: dict) -> bool:
        """Whether the truth at ``v`` is within the providers' budget (decided from the
        scenario's size, nothing computed)."""
        for prov in self.provs:
            try:
                prov.reach(self.stmt, v)
                return True
            except OUT_OF_REACH:
                continue
        return False

    def precise_truth(self, v: dict) -> Truth:
        """The provider's precise truth at ``v`` (``precise=True``: what a violation is
        confirmed with), remembered per process like :meth:`truth` — two statements of
        one mechanism that exceed their bounds at one scenario confirm it once."""
        prov, tkey = self.provs[0], self.tkeys[0]
        key = (tkey, "precise", self._point(v)) + \
            ((self.point_seed(v),) if prov.stochastic else ())
        got = _TRUTH_CACHE.get(key)
        if got is None:
            kw = {"seed": self.point_seed(v)} if prov.stochastic else {}
            try:
                got = prov.truth(self.stmt, v, precise=True, **kw)
            except (Unavailable, ValueError, ArithmeticError, MemoryError) as exc:
                got = resources.detach(exc)
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
        except OUT_OF_REACH as exc:
            self.stats["unavailable"] += 1
            self.last_unavailable = (resources.why(exc) if isinstance(exc, MemoryError)
                                     else str(exc))
            return None
        ratio = tr.lower / bval
        if math.isnan(ratio) or ratio == math.inf or not math.isfinite(tr.upper) and \
                not math.isfinite(tr.lower):
            # (a measured truth may lack a certified lower end: ratio −∞, still decisive
            # where its upper end is below the bound)
            self.stats["unavailable"] += 1
            self.last_unavailable = f"truth not finite ({tr.lower!r})"
            return None
        self.stats["evaluated"] += 1
        equal = getattr(stmt, "rel", "<=") == "="
        if tr.lower <= bval < tr.upper or (equal and tr.lower <= bval <= tr.upper):
            if self._exact_holds(v, equal=equal):
                # the closed-form truth is at most the bound exactly (a tight bound)
                self.stats["exact"] += 1
                tr = Truth(tr.forward, tr.backward, 0.0, tr.method + ", decided exactly",
                           tr.scenario, dict(tr.extra))
                ratio = min(tr.max / bval, 1.0)
            else:
                # truth ± error straddles the bound: this scenario decides nothing
                self.stats["undecided"] += 1
        return tr, bval, ratio

    def lower_at(self, v: dict, *, precise: bool = False):
        """(lower truth, bound, lower/bound) from the provider's certified lower bound of
        the truth (:meth:`~checks.truth.base.TruthProvider.lower_truth`), else None."""
        try:
            self.prov.member(self.stmt, v)
            bval = _bound_values(self.stmt, v)
            lt = self.prov.lower_truth(self.stmt, v, precise=precise)
        except (NotMember, _Skip) + OUT_OF_REACH:
            return None
        if lt is None or not (bval > 0) or not (lt.max > 0) or not math.isfinite(lt.max):
            return None
        self.stats["lower_only"] = self.stats.get("lower_only", 0) + 1
        return lt, bval, lt.max / bval

    def _exact_holds(self, v: dict, *, equal: bool = False) -> bool:
        """True when the provider's closed-form truth is ≤ the bound exactly at ``v`` (the
        values read as exact binary rationals; SymPy decides the sign of the difference);
        ``equal``: when it is exactly the bound."""
        if self.closed is None:
            return False
        stmt = self.stmt
        expr = stmt.delta if getattr(stmt, "profile", False) else stmt.expr
        diff = expr - self.closed
        # a printed decimal constant (0.1, a provider's 1.0001) read as the exact decimal it
        # prints; no nsimplify of the difference: it rounds a tiny one to 0 (1e-34 at
        # a = 1e-30, any difference below ~1e-50), which called a closed form above the
        # bound "at most the bound exactly"
        diff = diff.xreplace({f: sp.Rational(str(f)) for f in diff.atoms(sp.Float)})
        try:
            subs = {s: exact_value(v[s.name]) for s in diff.free_symbols}
        except (KeyError, TypeError):
            return False
        d = sp.simplify(diff.xreplace(subs))
        # SymPy decides the sign at adaptive precision; None (undecided) where it cannot
        return bool(d.is_zero) if equal else bool(d.is_zero or d.is_nonnegative)

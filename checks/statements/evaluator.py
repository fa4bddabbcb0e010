"""The truth at admissible points of a statement: one evaluator for every search of the
driver, with the per-process truth memo (DESIGN.md, *Statement checks*)."""
from __future__ import annotations

import math

import sympy as sp

from checks.cache import fingerprint
from checks.statements.space import Space, _Skip
from checks.truth.base import (NotMember, Truth, Unavailable, all_classes, evaluate,
                               exact_value)


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


class Evaluator:
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



"""Existential constants (:mod:`checks.statements.existential`) on a toy provider whose truth
is known, registered for the test: the smallest constant that makes "metric ≤ C·a/T" hold
is found; VIOLATED only when the certified needed constant grows along the growth path
(×≥1.5 per step, ×≥4 in all) with what C may depend on held fixed — not when it grows too
slowly, not when C also enters the truth, not when C may depend on the growth parameter."""
from __future__ import annotations

from dataclasses import dataclass

import pytest
import sympy as sp

from checks import plugins
from checks.statements import check_statement
from checks.statements.evaluator import Evaluator
from checks.statements.existential import existential
from checks.statements.space import Space
from checks.truth.base import NotMember, SearchPlan, Truth, TruthProvider, Unavailable
from theory.mechanisms import Mechanism
from theory.metrics import EXPECTED_GAP_LAST
from theory.model import Rate, asm


@dataclass(frozen=True)
class Toy(Mechanism):
    a: sp.Expr
    T: sp.Expr


a, C = sp.symbols("a C", positive=True)
T = sp.Symbol("T", positive=True, integer=True)
T_MAX = 10 ** 6


class Known(TruthProvider):
    """The metric equals f(point) (relative error 1e-9); T-paths of 3 steps of ×10; the
    truth is out of reach beyond T = 10⁶."""

    mechanisms = (Toy,)
    metrics = (EXPECTED_GAP_LAST,)

    def __init__(self, name, f, member=True):
        self.name, self.f, self.is_member = name, f, member

    def plan(self, stmt, budget):
        return SearchPlan(growth="T", path_steps=3, path_factor=10.0)

    def reach(self, stmt, v):
        if v["T"] > T_MAX:
            raise Unavailable(f"T = {v['T']:g} beyond the toy's reach")

    def member(self, stmt, v):
        if not self.is_member:
            raise NotMember("no toy member")

    def truth(self, stmt, v, *, precise=False, **kw):
        t = self.f(v)
        return Truth(t, t, 1e-9 * t, "toy law", "toy scenario")


def _rate(expr=C * a / T, mech=None, dep=(a,)):
    return Rate("r", EXPECTED_GAP_LAST, expr, mech or Toy(a, T),
                hypotheses=[asm(a <= 4), asm(T <= 10 ** 7)], constants=(C,), depends_on=dep)


def _check(prov, stmt=None, seed=0, budget=40):
    stmt = stmt or _rate()
    ev = Evaluator(stmt, [prov], Space(stmt), seed=seed)
    return existential(stmt, ev, prov.plan(stmt, budget), budget=budget, seed=seed)


@pytest.fixture
def registered():
    """Register toy providers for the driver; unregister them after the test."""
    before = dict(plugins._PROVIDERS)
    yield lambda p: plugins.truth_provider(p)
    plugins._PROVIDERS.clear()
    plugins._PROVIDERS.update(before)


def test_the_smallest_constant_is_found_and_the_claim_holds(registered):
    registered(Known("toy-exists-2", lambda v: 2 * v["a"] / v["T"]))
    out = check_statement(_rate(), budget=40, seed=0)
    assert out.tested and not out.violated, out.detail
    assert float(out.witness["smallest_constant"]) == pytest.approx(2.0, rel=1e-6)
    assert "holds on scenarios with existential C" in out.detail
    assert "(toy-exists-2)" in out.detail
    # one needed constant per value of what C depends on, each ≈ 2
    groups = out.detail.count("needed (certified lower")
    assert groups >= 1 and out.detail.count("C ≥ 2 needed (certified lower 2)") == groups
    # the truth equals the bound at the smallest constant: ratio ≈ 1
    assert out.ratio == pytest.approx(1.0, rel=1e-6)


def test_a_needed_constant_growing_tenfold_per_step_is_violated():
    out = _check(Known("toy-exists-T", lambda v: v["a"]))      # needs C ≥ T
    assert out.tested and out.violated, out.detail
    assert "VIOLATED — no admissible C" in out.detail
    w = out.witness
    # the path ends at the largest T in the provider's reach
    assert w["T"] == str(T_MAX)
    assert float(w["needed_constant_lower"]) == pytest.approx(T_MAX, rel=1e-6)
    assert "T = 1000: certified C ≥ 1000 → T = 10000: certified C ≥ 1e+04 → T = 100000: " \
           "certified C ≥ 1e+05 → T = 1e+06: certified C ≥ 1e+06" in out.detail


def test_a_constant_growing_less_than_the_step_is_not_violated():
    # needs C ≥ T^0.1: ×1.26 per ×10 step, below ×1.5
    out = _check(Known("toy-exists-slow", lambda v: v["a"] * v["T"] ** 0.1 / v["T"]))
    assert out.tested and not out.violated, out.detail
    assert "(stopped: the certified C grew less than ×1.5)" in out.detail


def test_a_constant_that_enters_the_truth_is_never_decided_violated():
    stmt = _rate(mech=Toy(C * a, T))                          # the algorithm reads C
    out = _check(Known("toy-exists-in-truth", lambda v: v["a"]), stmt)
    assert not out.violated, out.detail
    assert "(grows, but C also enters the truth: not decided)" in out.detail


def test_a_constant_that_may_depend_on_the_growth_parameter_is_not_violated():
    """"Some C depending on a and T": C = T works, so growth along T refutes nothing."""
    out = _check(Known("toy-exists-dep-T", lambda v: v["a"]), _rate(dep=(a, T)))
    assert not out.violated, out.detail
    assert "the T-path is not followed: it moves T, on which the constants may depend" \
        in out.detail


def test_every_constant_works_where_the_constant_free_part_suffices():
    stmt = _rate(expr=a / T + C * a / T)
    out = _check(Known("toy-exists-free", lambda v: 0.5 * v["a"] / v["T"]), stmt)
    assert out.tested and not out.violated
    assert "every C > 0 works (truth + error ≤ the C-free part)" in out.detail
    assert float(out.witness["smallest_constant"]) == 0.0
    assert out.ratio == pytest.approx(0.5, rel=1e-6)


def test_no_member_is_not_tested_with_the_reason():
    out = _check(Known("toy-exists-none", lambda v: v["a"], member=False))
    assert not out.tested and not out.violated
    assert "NOT-TESTED — no admissible scenario within the provider's reach (no toy member)" \
        in out.detail


def test_a_growth_parameter_of_several_symbols_is_not_followed():
    stmt = _rate(mech=Toy(a, T * a))
    out = _check(Known("toy-exists-two-symbols", lambda v: v["a"]), stmt)
    assert not out.violated
    assert "the growth parameter T is not a function of one symbol" in out.detail



class Measured(Known):
    """A measured (stochastic) toy: records every batch it is asked for; its truth at a
    point depends on the point's seed, so a truth asked alone equals the batch's."""

    stochastic = True

    def __init__(self, name, f, max_points, member_if=None):
        super().__init__(name, f)
        self.max_points, self.member_if, self.batches = max_points, member_if, []

    def plan(self, stmt, budget):
        return SearchPlan(growth="T", path_steps=3, path_factor=10.0,
                          max_points=self.max_points)

    def member(self, stmt, v):
        if self.member_if is not None and not self.member_if(v):
            raise NotMember("outside the toy's class")

    def truth(self, stmt, v, *, precise=False, seed=0, **kw):
        t = self.f(v) * (1 + 1e-3 * (seed % 7))
        return Truth(t, t, 1e-9 * t, "toy law", "toy scenario")

    def truths(self, stmt, points, seeds):
        self.batches.append([dict(v) for v in points])
        return super().truths(stmt, points, seeds)


def test_the_batch_holds_only_the_points_the_search_evaluates(monkeypatch):
    """The existential search asks its stochastic provider in one batch for exactly the
    points it then evaluates: none outside the class, none beyond the provider's reach,
    no more than it evaluates (it asked for twice as many before) — and decides as the
    points asked one at a time do."""
    f = lambda v: v["a"] / v["T"]                                     # noqa: E731
    prov = Measured("toy-exists-batch", f, max_points=5, member_if=lambda v: v["a"] >= 1)
    out = _check(prov)
    assert out.tested
    batch = prov.batches[0]
    evaluated = int(out.detail.rsplit("; ", 1)[1].split()[0])
    assert evaluated >= 2 and len(batch) == evaluated, (len(batch), out.detail)
    assert all(v["a"] >= 1 and v["T"] <= T_MAX for v in batch)
    alone = Measured("toy-exists-alone", f, max_points=5, member_if=lambda v: v["a"] >= 1)
    monkeypatch.setattr(Evaluator, "prefetch", lambda self, points: None)   # no batch
    again = _check(alone)
    assert alone.batches == []
    assert (again.violated, again.ratio, again.witness, again.detail.split(": ", 1)[1]) == \
        (out.violated, out.ratio, out.witness, out.detail.split(": ", 1)[1])

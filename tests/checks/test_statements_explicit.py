"""Explicit forms (:mod:`checks.statements.explicit`) on toy providers whose truth is known:
a bound the truth exceeds is VIOLATED with its witness confirmed at 50 digits; a violation
the precise truth refutes is never reported (UNDECIDED, not tested); a bound inside the
truth's error is UNDECIDED; a tight bound is decided by the closed form; analysis
parameters the truth ignores are minimised over; a certified lower bound can show a
violation out of the truth's reach but never that a bound holds; a statement claiming
equality is refuted by a truth below it; no admissible scenario is NOT-TESTED with the
reasons counted."""
from __future__ import annotations

import math
from dataclasses import dataclass

import mpmath
import pytest
import sympy as sp

from checks.statements.evaluator import Evaluator
from checks.statements.explicit import CONFIRM_DPS, kind, search, truth_symbols
from checks.statements.space import Space
from checks.truth.base import NotMember, Truth, TruthProvider, Unavailable
from theory.classes import LSmooth
from theory.mechanisms import Mechanism
from theory.metrics import EXPECTED_GAP_LAST
from theory.model import Bound, Rate, asm


@dataclass(frozen=True)
class Toy(Mechanism):
    a: sp.Expr
    T: sp.Expr


a, beta, L = sp.symbols("a beta L", positive=True)
T = sp.Symbol("T", positive=True, integer=True)
BOX = (asm(a <= 4), asm(T <= 50))


class Linear(TruthProvider):
    """Truth k·a in the add order (0.9·k·a in the remove order), relative error ``rel``;
    the precise truth (what a violation is confirmed with) k_precise·a."""

    mechanisms = (Toy,)

    def __init__(self, name, k, *, k_precise=None, rel=1e-12, closed=None, member=True):
        self.name, self.k, self.k_precise, self.rel = name, k, k_precise, rel
        self.closed, self.is_member = closed, member
        self.calls = {"truth": 0, "precise": 0}

    def truth(self, stmt, v, *, precise=False, **kw):
        k = self.k_precise if precise and self.k_precise is not None else self.k
        self.calls["precise" if precise else "truth"] += 1
        t = Truth(k * v["a"], 0.9 * k * v["a"], self.rel * k * v["a"], "toy law",
                  "toy scenario")
        if precise:
            with mpmath.workdps(CONFIRM_DPS):
                t.extra["lower_mp"] = (mpmath.mpf(k) * mpmath.mpf(v["a"])
                                       * (1 - mpmath.mpf(self.rel)))
        return t

    def closed_form(self, stmt):
        return self.closed

    def member(self, stmt, v):
        if not self.is_member:
            raise NotMember("no toy scenario is a member")


def _check(prov, expr=a, *hyps, seed=0, budget=40, rel="<="):
    st = Bound("b", expr, Toy(a, T), order=2, hypotheses=[*BOX, *hyps], rel=rel)
    ev = Evaluator(st, [prov], Space(st), decide=True, seed=seed)
    return search(st, ev, prov.plan(st, budget), budget=budget, seed=seed), ev


def test_a_bound_the_truth_exceeds_is_violated_with_a_confirmed_witness():
    out, ev = _check(Linear("toy-x2", 2.0))
    assert out.tested and out.violated, out.detail
    assert out.ratio == pytest.approx(2.0, rel=1e-9)
    w = out.witness
    assert float(w["truth_max"]) == pytest.approx(2 * float(w["bound"]))
    assert float(w["bound"]) == pytest.approx(float(w["a"]))
    # confirmed with the precise truth against the bound at 50 digits
    assert mpmath.mpf(w["truth_lower_50_digits"]) > mpmath.mpf(w["bound_50_digits"])
    assert len(w["bound_50_digits"].replace(".", "").lstrip("0")) >= 25
    assert "VIOLATED, truth/bound = 2 (confirmed: toy law: truth ≥" in out.detail
    assert "order(s) exceeding the bound: add, remove" in out.detail
    # the witness moved to a value a reader can re-compute (one or two significant digits)
    x = float(w["a"])
    assert x == float(f"{x:.2g}")
    assert ev.stats["evaluated"] == out.samples > 0


def test_a_bound_only_the_add_order_exceeds_is_named_so():
    out, _ = _check(Linear("toy-x105", 1.05))           # remove order 0.945 a: holds
    assert out.violated
    assert "add only — the remove order holds" in out.detail


def test_a_bound_above_the_truth_holds_with_its_tightest_ratio():
    out, _ = _check(Linear("toy-half", 0.5))
    assert out.tested and not out.violated
    assert out.ratio == pytest.approx(0.5, rel=1e-9)
    assert "holds on scenarios, tightest truth/bound = 0.5" in out.detail
    assert "truth_lower_50_digits" not in out.witness


@pytest.mark.parametrize("k, k_precise", [(2.0, 0.5), (1.3, 0.999), (5.0, 1.0)])
def test_a_violation_the_precise_truth_refutes_is_never_reported(k, k_precise):
    prov = Linear(f"toy-refuted-{k}", k, k_precise=k_precise)
    out, _ = _check(prov)
    assert not out.violated and not out.tested
    assert "UNDECIDED — the largest ratio" in out.detail and "was not confirmed" in out.detail
    assert "does not exceed the bound" in out.detail
    assert prov.calls["precise"] >= 1


def test_a_bound_inside_the_truths_error_is_undecided():
    out, ev = _check(Linear("toy-straddle", 1.0, rel=1e-3))
    assert not out.violated and not out.tested
    assert "at every evaluated scenario the truth's error interval contains the bound" \
        in out.detail
    assert ev.stats["undecided"] == ev.stats["evaluated"] > 0


def test_a_tight_bound_is_decided_exactly_by_the_closed_form():
    out, ev = _check(Linear("toy-tight", 1.0, rel=1e-3, closed=a))
    assert out.tested and not out.violated, out.detail
    assert out.ratio == pytest.approx(1.0)
    assert ev.stats["exact"] == ev.stats["evaluated"] > 0
    assert "decided exactly" in out.witness["method"]


@pytest.mark.parametrize("scale", [None, 1e-30, 1e-300])
def test_a_closed_form_above_the_bound_is_not_decided_as_holding(scale):
    """1.0001·a > a everywhere: never "at most the bound exactly", however small a is (a
    rounding of the difference to 0 once called it holding at a = 4.45e-308)."""
    # (above the subnormals, where the toy's relative error would underflow to a claim of
    # exactness)
    hyps = () if scale is None else (asm(a <= scale), asm(a >= scale / 100))
    out, ev = _check(Linear(f"toy-tight-wrong-{scale}", 1.0, rel=1e-3, closed=a * 1.0001),
                     a, *hyps)
    assert not out.tested and not out.violated
    assert ev.stats["exact"] == 0 and ev.stats["undecided"] == ev.stats["evaluated"] > 0


# the bound (1/β + 2/(1 − β))·a/(3 + 2√2) is smallest, = a, at β = √2 − 1
ANALYSIS = (1 / beta + 2 / (1 - beta)) * a / (3 + 2 * sp.sqrt(2))


def test_an_analysis_parameter_is_minimised_over_before_holding():
    out, _ = _check(Linear("toy-beta-holds", 0.999), ANALYSIS, asm(beta < 1))
    assert out.tested and not out.violated
    # the ratio is read where the bound is smallest, not at a drawn β
    assert 0.995 < out.ratio < 0.999
    assert abs(float(out.witness["beta"]) - (math.sqrt(2) - 1)) < 0.05


def test_an_analysis_parameter_whose_best_value_is_exceeded_is_violated():
    out, _ = _check(Linear("toy-beta-broken", 1.001), ANALYSIS, asm(beta < 1))
    assert out.violated, out.detail
    b = float(out.witness["beta"])
    assert (1 / b + 2 / (1 - b)) / (3 + 2 * math.sqrt(2)) < 1.001


class OutOfReach(Linear):
    """The truth is computed only for T ≤ 10; beyond, a certified lower bound 2a (or none
    at 50 digits when ``precise_lower`` is False)."""

    def __init__(self, name, precise_lower=True):
        super().__init__(name, 0.5)
        self.precise_lower = precise_lower

    def truth(self, stmt, v, *, precise=False, **kw):
        if v["T"] > 10:
            raise Unavailable(f"T = {v['T']:g} beyond the toy's reach")
        return super().truth(stmt, v, precise=precise)

    def lower_truth(self, stmt, v, *, precise=False):
        if precise and not self.precise_lower:
            return None
        t = Truth(2 * v["a"], 2 * v["a"], 0.0, "toy lower bound")
        if precise:
            t.extra["lower_mp"] = 2 * mpmath.mpf(v["a"])
        return t


def test_a_certified_lower_bound_shows_a_violation_out_of_reach():
    out, ev = _check(OutOfReach("toy-lower"))
    assert out.violated, out.detail
    assert "certified lower bound ≥" in out.detail
    assert float(out.witness["T"]) > 10
    assert ev.stats["unavailable"] > 0


def test_an_unconfirmed_lower_bound_never_refutes_and_never_shows_holding_beyond_reach():
    out, _ = _check(OutOfReach("toy-lower-unconfirmed", precise_lower=False))
    assert not out.violated
    # what holds is judged on the truths in reach only
    assert out.ratio == pytest.approx(0.5, rel=1e-9)
    assert float(out.witness["T"]) <= 10


def test_a_claimed_equality_is_violated_by_a_truth_below_it():
    out, _ = _check(Linear("toy-below", 0.5), rel="=")
    assert out.violated, out.detail
    assert "claims equality and the truth is below the claimed value" in out.detail
    assert float(out.witness["truth_max"]) < float(out.witness["bound"])


def test_a_claimed_equality_holds_only_where_a_closed_form_decides_it():
    out, _ = _check(Linear("toy-eq-closed", 1.0, rel=1e-9, closed=a), rel="=")
    assert out.tested and not out.violated, out.detail
    out, _ = _check(Linear("toy-eq-open", 1.0, rel=1e-9), rel="=")
    assert not out.tested and not out.violated
    assert "claims equality" in out.detail


def test_no_member_is_not_tested_with_the_reason_counted():
    out, ev = _check(Linear("toy-nomember", 2.0, member=False))
    assert not out.tested and not out.violated
    assert out.detail.startswith("bound b (toy-nomember): NOT-TESTED — no admissible "
                                 "scenario could be evaluated (")
    assert f"{ev.stats['not_member']} not in every class (no toy scenario is a member)" \
        in out.detail


def test_the_same_seed_gives_the_same_outcome():
    one, _ = _check(Linear("toy-seed", 0.7), seed=11)
    two, _ = _check(Linear("toy-seed", 0.7), seed=11)
    assert (one.ratio, one.witness, one.detail) == (two.ratio, two.witness, two.detail)


def test_kind_and_the_symbols_the_truth_reads():
    st = Bound("b", a * beta, Toy(a, T), order=2, problem_class=[LSmooth(L)])
    assert kind(st) == "bound"
    assert kind(Bound("b", a, Toy(a, T), order=2, form="O")) == "O-bound"
    r = Rate("r", EXPECTED_GAP_LAST, a / T, Toy(a, T))
    assert kind(r) == "rate"
    assert truth_symbols(st, Linear("toy-syms", 1.0)) == {a, T, L}

    class Reads(Linear):
        def reads(self, stmt):
            return {beta}
    assert truth_symbols(st, Reads("toy-reads", 1.0)) == {a, T, L, beta}

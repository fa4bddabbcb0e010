"""O-forms (:mod:`checks.statements.oform`) on toy providers whose ratio truth/expr is known
along every path: a ratio growing ×10 per step along one parameter is VIOLATED on that
path ("no constant works"), a bounded one holds with its constant, growth below ×2 per step
or ending below 1 is not a violation, the plan's first parameter leads among unbounded
paths, a truth not resolved to one digit is replaced by the certified lower bound, whose
growth must be confirmed at 50 digits."""
from __future__ import annotations

import math
from dataclasses import dataclass

import mpmath
import pytest
import sympy as sp

from checks.statements.evaluator import Evaluator
from checks.statements.oform import UNRESOLVED, bases_for, o_form
from checks.statements.space import Space
from checks.truth.base import NotMember, SearchPlan, Truth, TruthProvider
from theory.mechanisms import Mechanism
from theory.model import Bound, asm


@dataclass(frozen=True)
class Toy(Mechanism):
    a: sp.Expr
    T: sp.Expr


a = sp.Symbol("a", positive=True)
T = sp.Symbol("T", positive=True, integer=True)


class Known(TruthProvider):
    """Truth f(point), both orders, relative error ``rel``."""

    mechanisms = (Toy,)

    def __init__(self, name, f, *, rel=1e-9, plan=None, member=True, anchors=()):
        self.name, self.f, self.rel, self._plan = name, f, rel, plan
        self.is_member, self._anchors = member, list(anchors)

    def truth(self, stmt, v, *, precise=False, **kw):
        t = self.f(v)
        return Truth(t, t, self.rel * t, "toy law", "toy scenario")

    def plan(self, stmt, budget):
        return self._plan or SearchPlan()

    def member(self, stmt, v):
        if not self.is_member:
            raise NotMember("never a member")

    def anchors(self, stmt):
        return self._anchors


def _check(prov, expr=a, *hyps, seed=0, budget=40):
    st = Bound("b", expr, Toy(a, T), order=2, form="O", hypotheses=list(hyps))
    ev = Evaluator(st, [prov], Space(st), seed=seed)
    return o_form(st, ev, prov.plan(st, budget), budget=budget, seed=seed)


A_BOX = asm(a <= 4)
#: the prefix of a path from the random search's tightest scenario (one-base plans start
#: paths there and from the first anchor's base, each path named by its base)
TIGHT = "the search's tightest scenario: "


def _from_tightest(out) -> dict:
    """The paths from the search's tightest scenario, by their bare names."""
    return {nm[len(TIGHT):]: v for nm, v in out.paths.items() if nm.startswith(TIGHT)}


def test_a_ratio_growing_tenfold_per_step_along_one_parameter_is_violated_there():
    out = _check(Known("toy-o-T", lambda v: v["a"] * v["T"]), a, A_BOX)
    assert out.tested and out.violated, out.detail
    assert out.witness["path"] == TIGHT + "T → ∞"
    assert "no constant works — truth/expr grows ×1e+04" in out.detail
    paths = _from_tightest(out)
    lo, hi = paths["T → ∞"]
    assert hi / lo == pytest.approx(1e4, rel=1e-6)           # ×10 per step, 4 steps
    # the witness is the path's last point: ratio T there
    assert out.ratio == pytest.approx(float(out.witness["T"]), rel=1e-6)
    # along a the ratio (= T) does not move (a base at a = 4 has no path toward 4)
    a_paths = [nm for nm in paths if nm.startswith("a → ")]
    assert a_paths and set(a_paths) <= {"a → 4", "a → 0"}
    for name in a_paths:
        assert paths[name][0] == pytest.approx(paths[name][1])


def test_a_bounded_ratio_holds_with_its_constant():
    out = _check(Known("toy-o-3", lambda v: 3 * v["a"]), a, A_BOX)
    assert out.tested and not out.violated, out.detail
    assert out.ratio == pytest.approx(3.0, rel=1e-6)
    # T → ∞ and a toward its ends (a base at a = 4 has no path toward 4)
    assert {"T → ∞"} < set(_from_tightest(out)) <= {"T → ∞", "a → 4", "a → 0"}
    assert f"stays bounded on {len(out.paths)} paths (largest constant needed ≈ 3)" \
        in out.detail
    assert all(lo == pytest.approx(3.0) and hi == pytest.approx(3.0)
               for lo, hi in out.paths.values())


@pytest.mark.parametrize("power, violated", [(0.25, False), (0.35, True), (0.5, True)])
def test_growth_must_be_at_least_twofold_per_step(power, violated):
    """T^p grows ×10^p per ×10 step: ×1.78 (p = 1/4) is not enough, ×2.24 and ×3.16 are."""
    out = _check(Known(f"toy-o-pow-{power}", lambda v: 10 * v["a"] * v["T"] ** power),
                 a, A_BOX)
    assert out.tested and out.violated is violated, out.detail


def test_growth_that_ends_below_one_is_not_a_violation():
    out = _check(Known("toy-o-small", lambda v: 1e-12 * v["a"] * v["T"]), a, A_BOX)
    assert not out.violated, out.detail
    lo, hi = _from_tightest(out)["T → ∞"]
    assert hi / lo == pytest.approx(1e4, rel=1e-6) and hi < 1


@pytest.mark.parametrize("variables, leader", [(("a", "T"), "a → ∞"), (("T", "a"), "T → ∞")])
def test_the_plans_first_parameter_leads_among_unbounded_paths(variables, leader):
    prov = Known(f"toy-o-order-{leader}", lambda v: v["a"] * v["T"],
                 plan=SearchPlan(variables=variables))
    out = _check(prov, sp.Integer(1))
    assert out.violated and out.witness["path"] == TIGHT + leader, out.detail
    assert {"a → ∞", "T → ∞"} <= set(_from_tightest(out))


class LowerOnly(Known):
    """A truth with error 1/2 of its value (not resolved to one digit) and a certified lower
    bound a·T/2 (at 50 digits only when ``precise_ok``)."""

    def __init__(self, name, precise_ok=True):
        super().__init__(name, lambda v: v["a"] * v["T"], rel=0.5)
        self.precise_ok = precise_ok
        self.precise_calls = 0

    def lower_truth(self, stmt, v, *, precise=False):
        if precise:
            self.precise_calls += 1
            if not self.precise_ok:
                return None
        t = Truth(v["a"] * v["T"] / 2, v["a"] * v["T"] / 2, 0.0, "toy lower bound")
        if precise:
            t.extra["lower_mp"] = mpmath.mpf(v["a"]) * mpmath.mpf(v["T"]) / 2
        return t


def test_unresolved_truths_give_way_to_the_lower_bound_confirmed_at_50_digits():
    assert 0.5 > UNRESOLVED
    prov = LowerOnly("toy-o-lower")
    out = _check(prov, a, A_BOX)
    assert out.violated, out.detail
    assert "by a certified lower bound of the truth" in out.detail
    assert "ratios at 50 digits" in out.detail
    ratios = [float(x) for x in out.witness["ratios_50_digits"].split(", ")]
    assert len(ratios) == 4 and all(r2 / r1 == pytest.approx(10) for r1, r2 in
                                    zip(ratios, ratios[1:]))
    assert out.witness["method"] == "toy lower bound"
    # four 50-digit lower bounds per growing path confirmed (one per base here)
    assert prov.precise_calls == 4 * out.detail.count("ratios at 50 digits") >= 4


def test_a_path_flat_from_the_tightest_scenario_but_growing_from_the_anchor_is_violated():
    """The search's tightest scenario sits where every path is flat (a > 2: truth 10⁹);
    from the anchor's base (a = 1/2) the ratio grows ×10 per step along T: one base
    alone (the tightest) missed it, as noisy-sgd's D → 0 path was missed once the
    accountant answered at a corner."""
    prov = Known("toy-o-two-bases", lambda v: 1e9 if v["a"] > 2 else 1e-3 * v["a"] * v["T"],
                 anchors=[{"a": 0.5}])
    out = _check(prov, sp.Integer(1), A_BOX)
    assert out.violated, out.detail
    assert out.witness["path"] == "a = 0.5: T → ∞"
    lo, hi = out.paths["a = 0.5: T → ∞"]
    assert hi / lo == pytest.approx(1e4, rel=1e-6)
    flat = _from_tightest(out)["T → ∞"]
    assert flat[0] == pytest.approx(flat[1]) == pytest.approx(1e9)


def test_growth_shown_only_by_an_unconfirmed_lower_bound_is_not_a_violation():
    out = _check(LowerOnly("toy-o-lower-unconfirmed", precise_ok=False), a, A_BOX)
    assert not out.violated
    assert "the lower bound is not available at 50 digits: growth not confirmed" in out.detail


def test_no_member_anywhere_is_not_tested():
    out = _check(Known("toy-o-none", lambda v: v["a"], member=False), a, A_BOX)
    assert not out.tested and not out.violated
    assert "NOT-TESTED" in out.detail and "never a member" in out.detail


def test_bases_are_the_anchors_realised_and_named_by_their_targets():
    st = Bound("b", a, Toy(a, T), order=2, form="O", hypotheses=[A_BOX])
    prov = Known("toy-o-anchor", lambda v: v["a"], anchors=[{"T": 1000.0}, {"a": 0.5}])
    ev = Evaluator(st, [prov], Space(st))
    bases = bases_for(ev, SearchPlan(bases=2), seed=0)
    assert [lbl for lbl, _ in bases] == ["T = 1000", "a = 0.5"]
    assert bases[0][1]["T"] == 1000.0 and bases[1][1]["a"] == 0.5
    assert bases_for(ev, SearchPlan(bases=2), seed=0) == bases          # seeded
    # without anchors: a drawn point
    plain = Known("toy-o-plain", lambda v: v["a"])
    got = bases_for(Evaluator(st, [plain], Space(st)), SearchPlan(), seed=0)
    assert [lbl for lbl, _ in got] == ["a drawn point"]
    assert 0 < got[0][1]["a"] <= 4 and math.isfinite(got[0][1]["T"])

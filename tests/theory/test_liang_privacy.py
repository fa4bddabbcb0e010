"""Structure and verification tests of the privacy encodings of liang-icml / liang-aaai."""
from __future__ import annotations

import re

import mpmath as mp
import pytest
import sympy as sp

import theory
from theory.model import Bound, StepKind, walk_steps
from theory.papers.liang import common as lc
from theory.papers.liang_aaai import privacy as aaai_privacy
from theory.papers.liang_icml import privacy as icml_privacy
from theory.papers.liang.symbols import alpha, info, q, sigma

PRIVACY = {"liang-icml": icml_privacy.RESULTS, "liang-aaai": aaai_privacy.RESULTS}

COMMON_IDS = ["def-2.1", "def-2.2", "def-2.3", "lem-2.4", "def-2.5", "lem-2.6", "lem-3.2",
              "thm-3.3", "thm-3.4", "tab-1"]
VERSION_IDS = {
    "liang-icml": ["lem-2.7", "lem-a.1", "lem-a.2", "lem-a.3", "lem-a.4", "lem-a.5", "def-a.6",
                   "lem-a.7", "lem-a.8", "lem-a.9", "lem-a.10", "def-a.11", "lem-a.12"],
    "liang-aaai": ["lem-a.1", "lem-a.2", "lem-a.3", "lem-a.4", "lem-a.5", "lem-a.6", "def-a.7",
                   "lem-a.8", "lem-a.9", "lem-a.10", "lem-a.11", "def-a.12", "lem-a.13",
                   "rem-e.1", "rem-e.1+fix"],
}
from theory.classes import ProblemClass
from theory.mechanisms import Composition, GaussianMechanism, NoisySGD, SampledGaussian

MECHANISMS = (NoisySGD, SampledGaussian, Composition, GaussianMechanism)


def _all_privacy():
    return [r for rs in PRIVACY.values() for r in rs]


@pytest.mark.parametrize("paper", sorted(PRIVACY))
def test_listed_ids_exist(paper):
    ids = {r.id for r in PRIVACY[paper]}
    for local in COMMON_IDS + VERSION_IDS[paper]:
        assert f"{paper}:{local}" in ids
    # and they are registered (merged with the utility half) under the paper key
    registered = {r.id for r in theory.results_of(paper)}
    assert ids <= registered


def test_ids_lower_case_and_unique():
    ids = [r.id for r in _all_privacy()]
    assert len(ids) == len(set(ids))
    for i in ids:
        assert i == i.lower()
    step_ids = [loc.id for r in _all_privacy() for loc in walk_steps(r)]
    assert len(step_ids) == len(set(step_ids))


def test_every_symbol_has_a_dimension():
    for r in _all_privacy():
        exprs = []
        for loc in walk_steps(r):
            exprs += [loc.step.lhs, loc.step.rhs]
            exprs += [h.expr for h in loc.hypotheses if h.expr is not None]
        for bd in r.bounds:
            exprs.append(bd.expr)
            exprs += [h.expr for h in bd.hypotheses if h.expr is not None]
        for e in exprs:
            for s in e.free_symbols:
                info(s)  # raises KeyError for an undeclared symbol


def test_printed_equation_labels():
    """Step labels follow the printed numbers of each version (e.g. ICML (38) is AAAI (37))."""
    icml = theory.get("liang-icml:lem-3.2")
    aaai = theory.get("liang-aaai:lem-3.2")
    icml_eqs = {loc.step.eq for loc in walk_steps(icml)}
    aaai_eqs = {loc.step.eq for loc in walk_steps(aaai)}
    assert {"37", "38", "39", "40", "41"} <= icml_eqs
    assert {"36", "37", "38", "39", "40"} <= aaai_eqs and "41" not in aaai_eqs
    for r in _all_privacy():
        for loc in walk_steps(r):
            m = re.match(r"eq-(\d+)", loc.step.label)
            if m:
                assert loc.step.eq == m.group(1), loc.id


def test_bounds_use_the_vocabulary():
    n_bounds = 0
    for r in _all_privacy():
        for bd in r.bounds:
            n_bounds += 1
            assert isinstance(bd, Bound)
            assert isinstance(bd.mechanism, MECHANISMS), (r.id, bd.mechanism)
            assert all(isinstance(c, ProblemClass) for c in bd.problem_class), r.id
            assert bd.form in ("explicit", "O")
            assert bd.order == alpha
            assert lc.c_O not in bd.expr.free_symbols
    assert n_bounds >= 20
    # every privacy result with a bound in the brief has them
    for rid in ["lem-3.2", "thm-3.3", "thm-3.4", "tab-1"]:
        for paper in PRIVACY:
            labels = {bd.label for bd in theory.get(f"{paper}:{rid}").bounds}
            assert labels, rid
    assert {bd.form for bd in theory.get("liang-icml:thm-3.4").bounds} == {"explicit"}
    assert "O" in {bd.form for bd in theory.get("liang-aaai:thm-3.3").bounds}


def test_results_are_in_paper_order():
    for paper in PRIVACY:
        rs = theory.results_of(paper)
        keys = [lc.order_key(r, {"tab-1": "1"}) for r in rs]
        assert keys == sorted(keys)
        ids = [r.id.split(":")[1] for r in rs]
        assert ids.index("def-2.1") < ids.index("lem-2.4") < ids.index("def-2.5")
        assert ids.index("thm-3.4") < ids.index("lem-a.1") < ids.index("lem-a.2")
        # appendix numbers compare numerically: A.9 before A.10
        assert ids.index("lem-a.9") < ids.index("lem-a.10")


def test_order_key_sections_then_appendices():
    class R:
        def __init__(self, i):
            self.id = i
    ids = ["p:lem-b.1", "p:lem-a.10", "p:thm-3.10", "p:lem-a.2", "p:thm-3.9", "p:rem-e.1+fix",
           "p:rem-e.1", "p:tab-1"]
    out = [r.id for r in lc.sort_results([R(i) for i in ids], {"tab-1": "1"})]
    assert out == ["p:tab-1", "p:thm-3.9", "p:thm-3.10", "p:lem-a.2", "p:lem-a.10", "p:lem-b.1",
                   "p:rem-e.1", "p:rem-e.1+fix"]


def test_alpha_star_conditions_as_printed():
    c1, c2 = lc.alpha_star_conditions()
    K = sp.log(1 + 1 / (q * (alpha - 1)))
    assert isinstance(c1, sp.Le) and isinstance(c2, sp.Le)
    assert c1.lhs == alpha and c2.lhs == alpha
    assert sp.simplify(c1.rhs - (K * sigma**2 / 2 - 2 * sp.log(sigma))) == 0
    assert sp.simplify(c2.rhs - (K**2 * sigma**2 / 2 - sp.log(5) - 2 * sp.log(sigma))
                       / (K + sp.log(q * alpha) + 1 / (2 * sigma**2))) == 0
    # a point inside (small alpha, big sigma) and one outside (huge alpha)
    inside = {alpha: 2, q: sp.Rational(1, 100), sigma: 10}
    assert bool(c1.subs(inside)) and bool(c2.subs(inside))
    outside = {alpha: 10**6, q: sp.Rational(1, 100), sigma: 10}
    assert not (bool(c1.subs(outside)) and bool(c2.subs(outside)))


def test_part2_hypotheses_name_alpha_star_with_the_printed_arguments():
    r = theory.get("liang-aaai:lem-3.2")
    p2 = r.statement_part("part-2")
    names = [h.name for h in p2.given if not h.is_relational]
    assert names == ["alpha <= alpha_star(b/n, b*sqrt(beta)*sigma_dp/(2*C))"]


# --------------------------------------------------------------------------------------
# with the engine
engine = pytest.importorskip("checks.engine")



@pytest.fixture(scope="module")
def reports():
    """Step/link/units rows of every privacy result.  The statement checks (scenario
    searches of checks.statements, tested in tests/checks) are switched off here: these
    tests are about the encoded steps, and must stay fast."""
    from checks.verdict import StatementReport

    mp_ = pytest.MonkeyPatch()
    mp_.setattr(engine, "_statements", lambda result, opts: (StatementReport(), {}))
    try:
        return {r.id: engine.check_result(r, budget=50) for r in _all_privacy()}
    finally:
        mp_.undo()


def _scalar_steps():
    return [loc.id for r in _all_privacy() for loc in walk_steps(r)
            if loc.step.kind in (StepKind.ALGEBRA, StepKind.SCALAR)]


def test_every_algebra_and_scalar_step_gets_a_verdict(reports):
    by_id = {s.id: s for rep in reports.values() for s in rep.steps}
    missing, unchecked = [], []
    for sid in _scalar_steps():
        if sid not in by_id:
            missing.append(sid)
            continue
        v = by_id[sid].verdict.value
        if v not in ("PROVED", "REFUTED", "SUPPORTED"):
            unchecked.append((sid, v, by_id[sid].detail))
    assert not missing
    assert not unchecked


def _holds(rel, lhs, rhs, hyps, point):
    mp.mp.dps = 50
    subs = {sp.Symbol(k, **theory.papers.liang.symbols.info(k).symbol.assumptions0): sp.Rational(v)
            for k, v in point.items()}
    for h in hyps:
        val = h.subs(subs)
        if not bool(val.evalf(50) if not isinstance(val, (bool, sp.logic.boolalg.BooleanAtom))
                    else val):
            return None  # witness outside the hypotheses
    l_ = sp.N(lhs.subs(subs), 50)
    r_ = sp.N(rhs.subs(subs), 50)
    return bool(rel.holds(l_, r_))


def test_refuted_steps_have_witnesses_that_satisfy_the_hypotheses(reports):
    """Every REFUTED step among the privacy results is re-checked here, independently."""
    locs = {loc.id: loc for r in _all_privacy() for loc in walk_steps(r)}
    refuted = [s for rep in reports.values() for s in rep.steps
               if s.verdict.value == "REFUTED" and s.id in locs]
    assert refuted, "the encodings contain known false steps (e.g. (55)); none was refuted"
    for s in refuted:
        loc = locs[s.id]
        hyps = [h.expr for h in loc.hypotheses if h.expr is not None]
        assert s.counterexample, s.id
        cx = s.counterexample
        if s.method == "oracle:divergence-row":
            # the witness is a 1-D instance (laws, order), not a point of the row's symbols:
            # its two sides, recomputed at 50 digits by the oracle, are in the witness
            assert float(cx["lhs"]) > float(cx["rhs"]), s.id
            continue
        if s.method == "oracle:typed-bound":
            # a scenario of the typed statement: the certified truth exceeds the bound
            assert float(cx["truth_max"]) - float(cx["truth_error"]) > float(cx["bound"]), s.id
            continue
        assert _holds(loc.step.rel, loc.step.lhs, loc.step.rhs, hyps, s.counterexample) is False


def test_units_finding_on_the_trivial_bound(reports):
    rows = {s.id: s for s in reports["liang-aaai:rem-e.1"].steps}
    fixed = {s.id: s for s in reports["liang-aaai:rem-e.1+fix"].steps}
    assert rows["liang-aaai:rem-e.1/units"].verdict.value != "PROVED"
    assert fixed["liang-aaai:rem-e.1+fix/units"].verdict.value == "PROVED"


@pytest.mark.parametrize("a_, q_, s2", [(14, sp.Rational(1, 8), sp.Rational(1, 2)),
                                        (3, sp.Rational(1, 2), 2), (50, sp.Rational(1, 8), 1)])
def test_other_order_lower_bound_is_a_lower_bound(a_, q_, s2):
    """The left side of the ``other-order`` steps never exceeds the exact divergence
    D_α((1−q)N(0,s²) + qN(u,s²) ‖ N(0,s²)) (1-D, u = ηC/b = 1), by quadrature."""
    from theory.papers.liang import privacy as lp
    from theory.papers.liang.symbols import C, b, beta, q as q_sym, sigma_dp

    mp.mp.dps = 30
    a, qq, s = mp.mpf(a_), mp.mpf(q_), mp.sqrt(mp.mpf(s2))

    def integrand(x):
        p = (1 - qq) * mp.npdf(x, 0, s) + qq * mp.npdf(x, 1, s)
        return p**a * mp.npdf(x, 0, s)**(1 - a)

    # the integrand peaks near x = α (the shifted component dominates): split there
    pts = [-mp.inf, 0, 1] + [a * k / 4 for k in range(2, 9)] + [mp.inf]
    exact = mp.log(mp.quad(integrand, pts)) / (a - 1)
    # noise variance s² = f·η²σ_DP² with η = σ_DP = C = b = 1, so f = s²
    lower = lp.other_order_lower(beta).subs({beta: s2, alpha: a_, q_sym: q_, C: 1, b: 1,
                                              sigma_dp: 1})
    assert sp.N(lower, 30) <= exact * (1 + mp.mpf(10)**-15)

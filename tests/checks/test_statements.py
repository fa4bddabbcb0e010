"""checks.statements: typed Bound statements against exact truth, both orders.

Bounds are built here (independent of the paper encodings); two tests also run registered
Liang results."""
import math

import pytest
import sympy as sp

from checks.truth.divergences import sgm_rdp
from checks.truth.providers import gaussian_delta
from checks.statements import check_result_statements, check_statement, supporting
from checks.statements.driver import check_with
from checks.verdict import StatementVerdict
from theory.classes import Convex, LSmooth, StronglyConvex
from theory.mechanisms import GaussianMechanism, NoisySGD, SampledGaussian
from theory.model import Bound, Result, asm

alpha, q, sigma, C, T, b, n, beta, eta, L, mu, eps = sp.symbols(
    "alpha q sigma C T b n beta eta L mu epsilon", positive=True)


def _result(*bounds, rid="test:thm-1"):
    return Result(rid, "test", "here", bounds=bounds)


def _f(w, key):
    return float(w[key])


def _sgm(expr, *hyps):
    return Bound("sgm", expr, mechanism=SampledGaussian(q, sigma), order=alpha,
                 hypotheses=(asm(alpha > 1), asm(q <= 1), *hyps))


def test_false_sgm_bound_is_violated_with_checkable_witness():
    bd = _sgm(alpha * q**2 / (100 * sigma**2), asm(q <= sp.Rational(1, 5)))
    rep, _ = check_result_statements(_result(bd), budget=20, seed=1)
    assert rep.verdict is StatementVerdict.VIOLATED
    w = rep.witness
    qv, sv, av = _f(w, "q"), _f(w, "sigma"), _f(w, "alpha")
    assert qv <= 0.2 and av > 1
    # independent re-check of the witness, both orders
    exact = max(sgm_rdp(qv, sv, av, "add", precise=True), sgm_rdp(qv, sv, av, "remove",
                                                                 precise=True))
    assert exact > av * qv**2 / (100 * sv**2)
    assert rep.ratio > 1


def test_true_sgm_bound_holds_with_ratio_below_one():
    # the unsampled Gaussian mechanism dominates the SGM in both orders
    rep, _ = check_result_statements(_result(_sgm(alpha / (2 * sigma**2))), budget=20, seed=0)
    assert rep.verdict is StatementVerdict.HOLDS_ON_SCENARIOS
    assert 0 < rep.ratio <= 1


def test_gaussian_profile_exact_and_planted_error_refuted():
    # (ε, δ) claim: the Gaussian mechanism with σ = Δ·sqrt(2 log(1.25/δ))/ε is (ε, δ)-DP
    # (Dwork & Roth, ε ≤ 1) — true; with a factor 1/4 in σ it is false.
    delta = sp.Symbol("delta", positive=True)
    good = Bound("dr", eps, mechanism=GaussianMechanism(1, sp.sqrt(2 * sp.log(sp.Rational(5, 4)
                                                                                / delta)) / eps),
                 profile=True, delta=delta,
                 hypotheses=(asm(eps <= 1), asm(delta < 1)))
    out = check_statement(good, budget=20, seed=0)
    assert out.tested and not out.violated, out.detail
    bad = Bound("dr-quarter", eps,
                mechanism=GaussianMechanism(1, sp.sqrt(2 * sp.log(sp.Rational(5, 4) / delta))
                                            / (4 * eps)),
                profile=True, delta=delta, hypotheses=(asm(eps <= 1), asm(delta < 1)))
    out = check_statement(bad, budget=20, seed=0)
    assert out.violated
    w = out.witness
    e, d = _f(w, "epsilon"), _f(w, "delta")
    s = math.sqrt(2 * math.log(1.25 / d)) / (4 * e)
    assert gaussian_delta(e, 1.0, s) > d


def test_paper_form_of_theorem_3_3_part_1_is_violated_in_the_add_order():
    # ICML Thm 3.3 eq. (12) transcribed here: eps = 2 alpha C^2 T / (beta n b sigma^2)
    sigma_dp = sp.Symbol("sigma_dp", positive=True)
    bd = Bound("part-1", 2 * alpha * C**2 * T / (beta * n * b * sigma_dp**2),
               mechanism=NoisySGD(n=n, b=b, eta=eta, C=C, sigma=sigma_dp, T=T),
               problem_class=(LSmooth(L),), order=alpha,
               hypotheses=(asm(alpha > 1), asm(beta < 1), asm(b <= n)))
    prov, _ = supporting(bd)
    out = check_with(bd, prov[0], budget=20, seed=0)
    assert out.violated and "50 digits" in out.detail
    w = out.witness
    assert float(w["truth_add"]) > float(w["bound"]) >= float(w["truth_remove"])


def test_composition_bound_holds_for_last_iterate():
    # T-fold Gaussian composition with sensitivity C/b upper-bounds the linear canary
    sigma_dp = sp.Symbol("sigma_dp", positive=True)
    bd = Bound("composition", T * alpha * C**2 / (2 * b**2 * sigma_dp**2),
               mechanism=NoisySGD(n=n, b=b, eta=eta, C=C, sigma=sigma_dp, T=T), order=alpha,
               hypotheses=(asm(alpha > 1), asm(b <= n)))
    out = check_statement(bd, budget=15, seed=3)
    assert not out.violated and out.tested
    assert 0 < out.ratio <= 1 + 1e-9


def test_o_forms_bounded_and_unbounded():
    sigma_dp = sp.Symbol("sigma_dp", positive=True)
    m = NoisySGD(n=n, b=b, eta=eta, C=C, sigma=sigma_dp, T=T)
    unb = Bound("ours", alpha * C**2 * T / (n * b * sigma_dp**2), mechanism=m,
                problem_class=(LSmooth(L),), order=alpha, form="O",
                hypotheses=(asm(alpha > 1), asm(b <= n)))
    prov, _ = supporting(unb)
    out = check_with(unb, prov[0], budget=5, seed=0)
    assert out.violated and "grows" in out.detail
    fel = Bound("feldman", alpha * C**2 * T / (b**2 * sigma_dp**2), mechanism=m,
                problem_class=(Convex(),), order=alpha, form="O",
                hypotheses=(asm(alpha > 1), asm(b <= n)))
    out2 = check_with(fel, prov[0], budget=5, seed=0)
    assert not out2.violated and out2.tested and 0 < out2.ratio <= 0.5 + 1e-9


def test_named_predicate_is_not_tested():
    bd = _sgm(alpha / sigma**2, asm("the moon is full"))
    rep, _ = check_result_statements(_result(bd), budget=5, seed=0)
    assert rep.verdict is StatementVerdict.NOT_TESTED and "moon" in rep.detail


def test_class_no_provider_supports_is_not_tested_with_reason():
    # the linear canary is not strongly convex: no provider may admit it
    sigma_dp = sp.Symbol("sigma_dp", positive=True)
    bd = Bound("sc", alpha * C**2 / (b**2 * sigma_dp**2),
               mechanism=NoisySGD(n=n, b=b, eta=eta, C=C, sigma=sigma_dp, T=T),
               problem_class=(StronglyConvex(mu),), order=alpha, hypotheses=(asm(alpha > 1),))
    out = check_statement(bd, budget=5, seed=0)
    assert not out.tested and "strongly" in out.detail.lower()


def test_no_statements_not_tested():
    rep, outs = check_result_statements(Result("test:lem-9", "no bound", "here"), budget=5)
    assert rep.verdict is StatementVerdict.NOT_TESTED and outs == {}


def test_deterministic():
    bd = _sgm(alpha / (2 * sigma**2))
    a, _ = check_result_statements(_result(bd), budget=10, seed=7)
    c, _ = check_result_statements(_result(bd), budget=10, seed=7)
    assert a.ratio == c.ratio and a.witness == c.witness


def test_registered_liang_results():
    from theory import registry
    r, sgm = registry.get("liang-icml:thm-3.3"), registry.get("liang-icml:lem-a.12")
    rep, _ = check_result_statements(r, budget=10, seed=0)
    assert rep.verdict is StatementVerdict.VIOLATED
    assert rep.witness["statement_label"] == "part-1"
    rep2, _ = check_result_statements(sgm, budget=10, seed=0)
    assert rep2.verdict is StatementVerdict.HOLDS_ON_SCENARIOS and rep2.ratio <= 1


def test_trivial_bound_of_e1_missing_eta_squared_is_violated_and_fix_holds():
    from theory import registry
    r, fix = registry.get("liang-aaai:rem-e.1"), registry.get("liang-aaai:rem-e.1+fix")
    rep, _ = check_result_statements(r, budget=4, seed=0)
    assert rep.verdict is StatementVerdict.VIOLATED
    w = rep.witness
    # the witness: the certified lower end of the truth exceeds the printed bound
    assert _f(w, "truth_max") - _f(w, "truth_error") > _f(w, "bound")
    rep2, _ = check_result_statements(fix, budget=4, seed=0)
    assert rep2.verdict is StatementVerdict.HOLDS_ON_SCENARIOS and rep2.ratio < 1


@pytest.mark.slow
def test_slow_larger_search_keeps_part_2_bounds_holding():
    from theory import registry
    r = registry.get("liang-icml:thm-3.3")
    part2 = [bd for bd in r.bounds if bd.label == "part-2"][0]
    out = check_statement(part2, budget=200, seed=11)
    assert out.tested and not out.violated and out.ratio < 1


def test_a_restated_statement_is_checked_once_and_keeps_its_own_label():
    """check_statement remembers outcomes by content (label, note and citations set aside):
    the second copy is the first's outcome under its own label, and no caller can change
    what the next one gets."""
    from dataclasses import replace
    from checks.statements import driver as ts
    bd = _sgm(alpha * q**2 / (100 * sigma**2), asm(q <= sp.Rational(1, 5)))
    again = replace(bd, label="restated", note="the appendix's copy", hypotheses=tuple(
        replace(h, where="App. Z") for h in bd.hypotheses))
    assert ts.content_key(again) == ts.content_key(bd)
    ts._MEMO.clear()
    first = check_statement(bd, budget=20, seed=5)
    assert len(ts._MEMO) == 1
    first.witness["q"] = "spoiled"                      # a caller's edit stays its own
    second = check_statement(again, budget=20, seed=5)
    assert len(ts._MEMO) == 1                           # answered from memory
    assert first.violated and second.violated and second.ratio == first.ratio
    assert second.label == "restated" and "restated" in second.detail
    assert "sgm" in first.detail and ts._AS not in first.detail + second.detail
    assert second.witness["q"] != "spoiled"
    fresh = ts._check_statement(again, budget=20, seed=5)   # what it would get anew
    assert (fresh.violated, fresh.ratio, fresh.detail, fresh.witness) == \
        (second.violated, second.ratio, second.detail, second.witness)
    other = replace(bd, expr=alpha * q**2 / (99 * sigma**2))
    assert ts.content_key(other) != ts.content_key(bd)

"""Tests of checks.truth.statements: privacy bounds against exact divergences on scenarios.

Bounds are built here (independent of the paper encodings); one test also runs the
registered liang-icml results when they are encoded."""
import math

import pytest
import sympy as sp

from checks.truth.divergences import sgm_rdp
from checks.plugins import get_statement_check
from checks.truth.statements import check_result_bounds, o_form_check, search_bound
from checks.verdict import StatementVerdict
from theory.model import Bound, Result, asm
from theory.symbols import C, T, alpha, b, beta, n, q, sigma, sigma_dp


def _result(*bounds, rid="test:thm-1"):
    return Result(rid, "test", "here", bounds=bounds)


def _f(w, key):
    return float(w[key])


def test_false_sgm_bound_is_violated_with_checkable_witness():
    bd = Bound("too-small", alpha * q**2 / (100 * sigma**2), algorithm="SGM", loss_class="any",
               hypotheses=(asm(alpha > 1), asm(q <= sp.Rational(1, 5))), mechanism="one-step")
    rep = check_result_bounds(_result(bd), budget=20, seed=1)
    assert rep.verdict is StatementVerdict.VIOLATED
    w = rep.witness
    qv, sv, av = _f(w, "q"), _f(w, "sigma"), _f(w, "alpha")
    assert qv <= 0.2
    # independent re-check of the witness
    exact = sgm_rdp(qv, sv, av, "max", precise=True)
    assert exact > av * qv**2 / (100 * sv**2)
    assert _f(w, "exact_max") == pytest.approx(exact, rel=1e-9)
    assert rep.ratio > 1


def test_true_sgm_bound_holds_with_ratio_below_one():
    # the unsampled Gaussian mechanism dominates the SGM in both orders
    bd = Bound("gaussian", alpha / (2 * sigma**2), algorithm="SGM", loss_class="any",
               hypotheses=(asm(alpha > 1),), mechanism="one-step")
    rep = check_result_bounds(_result(bd), budget=20, seed=0)
    assert rep.verdict is StatementVerdict.HOLDS_ON_SCENARIOS
    assert 0 < rep.ratio <= 1


def test_paper_form_of_theorem_3_3_part_1_is_violated_in_the_add_order():
    # ICML Thm 3.3 eq. (12) transcribed here: eps = 2 alpha C^2 T / (beta n b sigma_DP^2)
    eps = 2 * alpha * C**2 * T / (beta * n * b * sigma_dp**2)
    bd = Bound("part-1", eps, algorithm="DPSGD-GC", loss_class="L-smooth",
               hypotheses=(asm(alpha > 1), asm(beta < 1), asm(b <= n),
                           asm("the loss l_ξ is L-smooth (Assumption 3.1)")))
    out = search_bound(bd, budget=20, seed=0)
    assert out.violated and "add" in out.detail and "mpmath" in out.detail
    w = out.witness
    qv = _f(w, "b") / _f(w, "n")
    s = _f(w, "b") * _f(w, "sigma_dp") / _f(w, "C")
    av = _f(w, "alpha")
    bound_val = 2 * av * _f(w, "C") ** 2 * _f(w, "T") / (
        _f(w, "beta") * _f(w, "n") * _f(w, "b") * _f(w, "sigma_dp") ** 2)
    assert _f(w, "T") == 1
    add, rem = sgm_rdp(qv, s, av, "add"), sgm_rdp(qv, s, av, "remove")
    assert add > bound_val            # RDP (both orders) fails ...
    assert rem <= bound_val           # ... while the paper's own order D(θ_T(D)‖θ_T(D')) holds


def test_composition_bound_holds_for_last_iterate():
    # T-fold Gaussian composition with sensitivity C/b upper-bounds the linear canary
    eps = T * alpha * C**2 / (2 * b**2 * sigma_dp**2)
    bd = Bound("composition", eps, algorithm="DPSGD-GC", loss_class="any",
               hypotheses=(asm(alpha > 1),))
    out = search_bound(bd, budget=15, seed=3)
    assert not out.violated and out.tested
    assert 0 < out.ratio <= 1 + 1e-9


def test_o_forms_bounded_and_unbounded():
    unb = Bound("ours", alpha * C**2 * T / (n * b * sigma_dp**2), algorithm="DPSGD-GC",
                loss_class="L-smooth", form="O", hypotheses=(asm(alpha > 1),))
    out = o_form_check(unb, budget=5, seed=0)
    assert out.violated and "grows" in out.detail
    fel = Bound("feldman", alpha * C**2 * T / (b**2 * sigma_dp**2), algorithm="DPSGD-GC",
                loss_class="convex", form="O", hypotheses=(asm(alpha > 1), asm("the loss is convex")))
    out2 = o_form_check(fel, budget=5, seed=0)
    assert not out2.violated and out2.tested and 0 < out2.ratio <= 0.5 + 1e-9


def test_unknown_predicate_is_not_tested():
    bd = Bound("x", alpha / sigma**2, algorithm="SGM", loss_class="any",
               hypotheses=(asm("the moon is full"),), mechanism="one-step")
    rep = check_result_bounds(_result(bd), budget=5, seed=0)
    assert rep.verdict is StatementVerdict.NOT_TESTED and "moon" in rep.detail


def test_no_bounds_not_tested_and_registration():
    r = Result("test:lem-9", "no bound", "here")
    fn = get_statement_check(r.id)
    assert fn is not None
    assert fn(r, budget=5, seed=0).verdict is StatementVerdict.NOT_TESTED


def test_deterministic():
    bd = Bound("gaussian", alpha / (2 * sigma**2), algorithm="SGM", loss_class="any",
               hypotheses=(asm(alpha > 1),), mechanism="one-step")
    a = check_result_bounds(_result(bd), budget=10, seed=7)
    c = check_result_bounds(_result(bd), budget=10, seed=7)
    assert a.ratio == c.ratio and a.witness == c.witness


def test_registered_liang_results_if_encoded():
    theory = pytest.importorskip("theory.registry")
    try:
        r = theory.get("liang-icml:thm-3.3")
        sgm = theory.get("liang-icml:lem-a.12")
    except KeyError:
        pytest.skip("liang-icml not encoded")
    rep = get_statement_check(r.id)(r, budget=10, seed=0)
    assert rep.verdict is StatementVerdict.VIOLATED
    assert rep.witness["bound_label"] == "part-1"
    rep2 = get_statement_check(sgm.id)(sgm, budget=10, seed=0)
    assert rep2.verdict is StatementVerdict.HOLDS_ON_SCENARIOS and rep2.ratio <= 1


def test_trivial_bound_of_e1_missing_eta_squared_is_violated_and_fix_holds():
    theory = pytest.importorskip("theory.registry")
    try:
        r, fix = theory.get("liang-aaai:rem-e.1"), theory.get("liang-aaai:rem-e.1+fix")
    except KeyError:
        pytest.skip("liang-aaai E.1 not encoded")
    rep = get_statement_check(r.id)(r, budget=4, seed=0)
    assert rep.verdict is StatementVerdict.VIOLATED
    w = rep.witness
    # the witness: exact (grid lower estimate) exceeds 2α(D + ηC/b)²/σ_DP² as printed
    printed = 2 * _f(w, "alpha") * (_f(w, "D") + _f(w, "eta") * _f(w, "C") / _f(w, "b")) ** 2 \
        / _f(w, "sigma_dp") ** 2
    assert _f(w, "exact_max") - _f(w, "exact_error") > printed
    rep2 = get_statement_check(fix.id)(fix, budget=4, seed=0)
    assert rep2.verdict is StatementVerdict.HOLDS_ON_SCENARIOS and rep2.ratio < 1


@pytest.mark.slow
def test_slow_larger_search_keeps_part_2_bounds_holding():
    theory = pytest.importorskip("theory.registry")
    import checks.truth.statements as S
    try:
        r = theory.get("liang-icml:thm-3.3")
    except KeyError:
        pytest.skip("liang-icml not encoded")
    old = dict(S.CAPS)
    try:
        S.CAPS.update({k: 200 for k in S.CAPS})
        out = S.search_bound(r.bounds[1], budget=200, seed=11)
    finally:
        S.CAPS.clear()
        S.CAPS.update(old)
    assert out.tested and not out.violated and out.ratio < 1

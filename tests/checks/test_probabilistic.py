"""The probabilistic step oracles of the Liang evidence package (checks.papers.liang.instance) on claims with known answers."""
from __future__ import annotations

import re
from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from checks.papers.liang import instance as P
from checks.plugins import get_step_oracle
from checks.verdict import Verdict
from theory.model import Located, Step, StepKind, asm
from theory.papers.liang.utility import (E_dev_sq, E_gbar_sq, E_preproj, Pr_dev_half, dist,
                                         gamma_xi, ip_batch, gbar_norm, step_sq)
from theory.papers.liang.symbols import C, L, d, eta, grad_norm, mu, sigma_dp, sigma_sgd

CASE_22 = [asm(mu <= L), asm(E_dev_sq <= sigma_sgd ** 2), asm(C >= 10 * sigma_sgd * sp.sqrt(L / mu)),
           asm(grad_norm <= C / 2)]


def _loc(lhs, rel, rhs, hyps=CASE_22, oracle="dpsgd-dc-instance", **args):
    st = Step("probe", lhs, rel, rhs, kind=StepKind.PROBABILISTIC, oracle=oracle, oracle_args=args)
    return Located("test:lem-0/probe", st, tuple(hyps), ())


def _fracs(text: str) -> list[Fraction]:
    return [Fraction(x) for x in re.findall(r"-?\d+(?:/\d+)?", text)]


def test_registered():
    assert get_step_oracle("dpsgd-dc-instance") is P.dpsgd_dc_instance
    assert get_step_oracle("gaussian-perturbation") is P.gaussian_perturbation


def test_true_markov_bound_is_supported():
    # Markov with Assumption 3.6: Pr(‖∇l_ξ − ∇l‖² > C²/4) ≤ 4σ²/C²
    rep = P.dpsgd_dc_instance(_loc(Pr_dev_half, "<=", 4 * sigma_sgd ** 2 / C ** 2,
                                   families="discrete,gaussian"), budget=60, seed=1)
    assert rep.verdict is Verdict.SUPPORTED
    assert rep.samples > 0 and rep.slack is not None and rep.slack >= 0
    assert "gaussian" in rep.detail and "discrete" in rep.detail


def test_planted_false_markov_constant_is_refuted_with_exact_witness():
    # 1·σ²/C² instead of 4σ²/C²: a spike at radius just above C/2 breaks it
    rep = P.dpsgd_dc_instance(_loc(Pr_dev_half, "<=", sigma_sgd ** 2 / C ** 2), budget=80, seed=0)
    assert rep.verdict is Verdict.REFUTED
    cx = rep.counterexample
    assert cx["noise"] == "discrete"
    Cv, sig = Fraction(cx["C"]), Fraction(cx["sigma_sgd"])
    atoms = _fracs(cx["atoms"])
    atoms = list(zip(atoms[::2], atoms[1::2]))
    ws = _fracs(cx["weights"])
    # the distribution is exact: weights sum to 1, mean zero, E‖a‖² ≤ σ² (Assumption 3.6)
    assert sum(ws) == 1
    assert sum(w * a for w, (a, _) in zip(ws, atoms)) == 0
    assert sum(w * b for w, (_, b) in zip(ws, atoms)) == 0
    assert sum(w * (a * a + b * b) for w, (a, b) in zip(ws, atoms)) <= sig * sig
    # the hypotheses of case (2.2) at the witness, at 50 digits
    with mpmath.workdps(50):
        mp = lambda k: mpmath.mpf(Fraction(cx[k]).numerator) / Fraction(cx[k]).denominator  # noqa: E731
        assert mp("mu") <= mp("L")
        assert mp("C") >= 10 * mp("sigma_sgd") * mpmath.sqrt(mp("L") / mp("mu")) * (1 - mpmath.mpf(10) ** -40)
        assert mp("grad_norm") <= mp("C") / 2 * (1 + mpmath.mpf(10) ** -40)
    # the violation, in exact rational arithmetic
    prob = sum(w for w, (a, b) in zip(ws, atoms) if a * a + b * b > Cv * Cv / 4)
    assert prob > sig * sig / (Cv * Cv)


def test_per_sample_claim_refuted():
    # γ_ξ = min(1, C/‖∇l_ξ‖) ≥ 1 is false as soon as some ‖∇l_ξ‖ > C
    hyps = [asm(mu <= L), asm(E_dev_sq <= sigma_sgd ** 2)]
    rep = P.dpsgd_dc_instance(_loc(gamma_xi, ">=", 1, hyps, per_sample=True, where="sgrad >= 0"),
                              budget=60, seed=0)
    assert rep.verdict is Verdict.REFUTED
    assert "atoms" in rep.counterexample


def test_batch_second_moment_matches_enumeration():
    # E‖mean of b iid clipped gradients‖² by the closed form = brute force over all batches
    kn = {k: Fraction(v) for k, v in dict(mu=1, L=2, sigma_sgd=3, C=1, grad_norm=Fraction(1, 2), eta=Fraction(1, 10),
                                          b=2, d=2, sigma_dp=1, D=10, T=1).items()}
    inst = P.Instance(kn, P._unit(Fraction(1, 3)), [(Fraction(1), Fraction(0)), (Fraction(-1, 2), Fraction(0))],
                      [Fraction(1, 3), Fraction(2, 3)])
    with mpmath.workdps(40):
        ev = P.Evaluation(inst)
        closed = ev.expectation("E_gbar_sq")
        brute = mpmath.mpf(0)
        for w1, q1 in ev.samples:
            for w2, q2 in ev.samples:
                g = [(q1["gc"][i] + q2["gc"][i]) / 2 for i in (0, 1)]
                brute += w1 * w2 * (g[0] ** 2 + g[1] ** 2)
        assert abs(closed - brute) < mpmath.mpf(10) ** -35


def test_gaussian_perturbation_identity_and_planted_error():
    hyps = [asm(mu <= L), asm(E_dev_sq <= sigma_sgd ** 2)]
    ok = P.gaussian_perturbation(
        _loc(E_preproj, "<=", dist ** 2 - 2 * eta * ip_batch + eta ** 2 * gbar_norm ** 2
             + d * eta ** 2 * sigma_dp ** 2, hyps, oracle="gaussian-perturbation"), budget=30, seed=0)
    assert ok.verdict is Verdict.SUPPORTED
    bad = P.gaussian_perturbation(_loc(E_preproj, "<=", step_sq, hyps, oracle="gaussian-perturbation"),
                                  budget=30, seed=0)
    assert bad.verdict is Verdict.REFUTED


def test_budget_validated():
    with pytest.raises(ValueError, match="budget"):
        P.dpsgd_dc_instance(_loc(Pr_dev_half, "<=", 1), budget=0, seed=0)


def test_deterministic():
    loc = _loc(Pr_dev_half, "<=", 4 * sigma_sgd ** 2 / C ** 2)
    P._MEMO.clear()
    a = P.dpsgd_dc_instance(loc, budget=30, seed=3)
    P._MEMO.clear()                     # a second search, not the remembered report
    b = P.dpsgd_dc_instance(loc, budget=30, seed=3)
    assert (a.verdict, a.slack, a.samples, a.where) == (b.verdict, b.slack, b.samples, b.where)


def test_a_line_restated_under_another_id_gets_the_same_search_once():
    """The seed derives from the line's content, not its id, so the other version's copy
    of a line is the same search: answered from memory, as a copy of the same report."""
    hyps = [asm(mu <= L, where="Thm 3.9"), *CASE_22[1:]]
    a_loc = _loc(Pr_dev_half, "<=", sigma_sgd ** 2 / C ** 2, hyps)
    b_st = Step("other-label", Pr_dev_half, "<=", sigma_sgd ** 2 / C ** 2, eq="99",
                kind=StepKind.PROBABILISTIC, oracle="dpsgd-dc-instance")
    b_loc = Located("test:thm-9/case-2/other-label", b_st,
                    (asm(mu <= L, where="Thm 3.10"), *CASE_22[1:]), ())
    assert P._seed(0, a_loc, "discrete") == P._seed(0, b_loc, "discrete")
    P._MEMO.clear()
    a = P.dpsgd_dc_instance(a_loc, budget=40, seed=0)
    assert len(P._MEMO) == 1
    a.counterexample["spoiled"] = "1"                  # a caller's edit stays its own
    b = P.dpsgd_dc_instance(b_loc, budget=40, seed=0)
    assert len(P._MEMO) == 1 and b.seconds == 0.0
    assert a.verdict is b.verdict is Verdict.REFUTED
    assert (a.slack, a.samples, a.detail) == (b.slack, b.samples, b.detail)
    assert "spoiled" not in b.counterexample
    P._MEMO.clear()
    fresh = P.dpsgd_dc_instance(b_loc, budget=40, seed=0)
    assert (fresh.verdict, fresh.slack, fresh.samples, fresh.counterexample) == \
        (b.verdict, b.slack, b.samples, b.counterexample)
    c_loc = _loc(Pr_dev_half, "<=", 2 * sigma_sgd ** 2 / C ** 2, hyps)
    assert P._seed(0, c_loc, "discrete") != P._seed(0, a_loc, "discrete")

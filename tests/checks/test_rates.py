"""checks.truth.rates_quadratic: Rate statements checked by simulation on quadratic families."""
from __future__ import annotations

import math

import pytest
import sympy as sp

from checks.truth import rates_quadratic as R
from checks.statements import check_result_statements, check_statement
from checks.verdict import StatementVerdict
from theory import registry
from theory.classes import Holder, LSmooth, StronglyConvex
from theory.mechanisms import NoisySGD
from theory.metrics import MIN_EXPECTED_SQRT_GAP
from theory.model import Rate, asm

L, mu, C, eta, b, s, T = sp.symbols("L mu C eta b sigma_dp T", positive=True)


def _q(**kw):
    base = dict(mu=0.5, L=1.0, sigma_sgd=0.5, C=1.0, eta=0.4, b=2, sigma_dp=0.1, D=2.0, T=50)
    base.update(kw)
    return R.Quadratic(**base)


def test_validation_names_the_parameter():
    with pytest.raises(ValueError, match="mu must be <= L"):
        _q(mu=2.0).validate()
    with pytest.raises(ValueError, match="runs must be >= 2"):
        R.simulate(_q(), runs=1, seed=0)


def test_deterministic_and_converging():
    a = R.simulate(_q(), runs=64, seed=3)
    c = R.simulate(_q(), runs=64, seed=3)
    assert a == c
    # no noise at all: clipped GD on a quadratic converges to the minimiser
    exact, _ = R.simulate(_q(sigma_sgd=1e-12, sigma_dp=0.0, T=400), runs=8,
                          seed=0)[MIN_EXPECTED_SQRT_GAP.key]
    assert exact < 1e-6


def _rate(expr, classes=(LSmooth(L), StronglyConvex(mu))):
    alg = NoisySGD(n=100, b=b, eta=eta, C=C, sigma=s, T=T)
    return Rate("r", MIN_EXPECTED_SQRT_GAP, expr, alg, classes,
                hypotheses=[asm(eta <= sp.Rational(9, 20) / L), asm(mu <= L),
                            asm(T <= 200), asm(b <= 8)])


def test_planted_false_rate_is_violated_and_true_rate_holds():
    # min_t E sqrt(gap) ≤ gap_0-ish: a bound that vanishes (1e-9·C) is false, one that is huge
    # is true
    bad = check_statement(_rate(C / 10**9), budget=4, seed=0)
    assert bad.violated and float(bad.witness["truth_max"]) > float(bad.witness["bound"])
    good = check_statement(_rate(10**6 * (1 + C)), budget=4, seed=0)
    assert good.tested and not good.violated and good.ratio < 1


def test_class_outside_the_family_is_not_tested():
    out = check_statement(_rate(C, classes=(Holder(sp.Symbol("nu"), L),)), budget=4, seed=0)
    assert not out.tested and "Holder" in out.detail


def test_liang_utility_theorem_is_a_rate_and_holds():
    thm = registry.get("liang-icml:thm-3.9")
    assert thm.rates and thm.rates[0].metric is MIN_EXPECTED_SQRT_GAP
    rep, _ = check_result_statements(thm, budget=4, seed=0)
    assert rep.verdict is StatementVerdict.HOLDS_ON_SCENARIOS
    assert rep.ratio is not None and 0 < rep.ratio <= 1

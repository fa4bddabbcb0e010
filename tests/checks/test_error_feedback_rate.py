"""The ``error-feedback-rate`` provider (:mod:`checks.truth.rates_error_feedback`): the
simulated dynamics (gradient descent when nothing is clipped, the weights A_t), the exact
two-step value, what it supports, and a true and a false planted rate."""
from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
import sympy as sp

from checks.truth.rates_error_feedback import (ErrorFeedbackRateProvider, Scenario,
                                               exact_weighted_at_two_steps, simulate)
from checks.statements import check_statement
from checks.verdict import StatementVerdict  # noqa: F401
from theory.classes import BoundedGradient, GradNoise, InitialGap, LowerBounded, LSmooth
from theory.mechanisms import ErrorFeedbackSGD, NoisySGD
from theory.metrics import (AVERAGE_EXPECTED_GRAD_SQ, EXPECTED_GAP_LAST,
                            WEIGHTED_EXPECTED_GRAD_SQ)
from theory.model import Rate, asm

PROV = ErrorFeedbackRateProvider()
N, B, eta, C1, C2, s1, T, L, G, sg, D0 = sp.symbols("N B eta C1 C2 sigma1 T L G sigma Delta0",
                                                    positive=True)
ALG = ErrorFeedbackSGD(n=N, b=B, eta=eta, C1=C1, C2=C2, sigma=s1, T=T)
CLASSES = (LSmooth(L), BoundedGradient(G, of="objective"), GradNoise(sg), InitialGap(D0),
           LowerBounded(of="objective"))

SC = Scenario(family="pseudo-huber", d=2, N=8, B=8, T=30, eta=0.5, C1=1e6, C2=1e6,
              sigma_dp=0.0, L=1.0, G=1.0, noise=0.0, gap0=0.7)


def test_without_clipping_or_noise_it_is_gradient_descent():
    got = simulate(SC, runs=4, seed=0)
    th = np.full(2, SC.theta0())
    sq = []
    for _ in range(SC.T):
        g = SC.grad(th)
        sq.append(float(g @ g))
        th = th - SC.eta * g
    assert got[AVERAGE_EXPECTED_GRAD_SQ.key][0] == pytest.approx(np.mean(sq), rel=1e-12)
    # the buffer stays 0, every α = 1: A_t = 1 for t < T − 1, A_{T−1} = 0
    assert got[WEIGHTED_EXPECTED_GRAD_SQ.key][0] == pytest.approx(np.mean(sq[:-1]), rel=1e-12)


def test_initial_gap_is_attained():
    for fam in ("pseudo-huber", "cosine"):
        sc = dataclasses.replace(SC, family=fam)
        x = sc.theta0()
        w, c = sc.constants()
        f = (w * c * (math.sqrt(1 + (x / c) ** 2) - 1) if fam == "pseudo-huber"
             else w * (1 - math.cos(x)))
        assert sc.d * f == pytest.approx(sc.gap0, rel=1e-12)
        # L-smooth and ‖∇f‖ ≤ G: the largest constants the classes allow
        assert (w / c if fam == "pseudo-huber" else w) <= sc.L * (1 + 1e-12)
        assert w * math.sqrt(sc.d) <= sc.G * (1 + 1e-12)


def test_two_steps_exact():
    sc = dataclasses.replace(SC, T=2, C1=1e-3, C2=4e-3, eta=50.0, sigma_dp=0.1, noise=0.01,
                             B=2)
    m, se = simulate(sc, runs=64, seed=1)[WEIGHTED_EXPECTED_GRAD_SQ.key]
    assert m == pytest.approx(float(exact_weighted_at_two_steps(sc)), rel=1e-12)
    assert se < 1e-12


def test_supports():
    assert PROV.supports(Rate("r", WEIGHTED_EXPECTED_GRAD_SQ, 1 / T, ALG, CLASSES))
    assert not PROV.supports(Rate("r", EXPECTED_GAP_LAST, 1 / T, ALG, CLASSES))
    nsgd = NoisySGD(n=N, b=B, eta=eta, C=C1, sigma=s1, T=T)
    assert not PROV.supports(Rate("r", WEIGHTED_EXPECTED_GRAD_SQ, 1 / T, nsgd, CLASSES))
    per_loss = (LSmooth(L), BoundedGradient(G), InitialGap(D0))
    assert not PROV.supports(Rate("r", WEIGHTED_EXPECTED_GRAD_SQ, 1 / T, ALG, per_loss))


def _rate(expr, extra=()):
    hyps = [asm(sp.Eq(N, 16)), asm(sp.Eq(B, 4)), asm(sp.Eq(L, 1)), asm(sp.Eq(G, 1)),
            asm(sp.Eq(D0, sp.Rational(1, 2))), asm(sp.Le(T, 256)), asm(sp.Eq(eta, 1 / (2 * L))),
            *extra]
    return Rate("statement", WEIGHTED_EXPECTED_GRAD_SQ, expr, ALG, CLASSES, hypotheses=hyps)


def test_a_true_rate_holds_and_a_false_one_is_violated():
    ok = check_statement(_rate(G**2 + 1), budget=4, seed=0)      # ‖∇f‖ ≤ G always
    assert ok.tested and not ok.violated, ok.detail
    bad = check_statement(_rate(G**2 / 100, [asm(sp.Eq(T, 2))]), budget=4, seed=0)
    assert bad.violated, bad.detail
    assert "50 digits" in bad.detail and "truth_lower_50_digits" in bad.witness

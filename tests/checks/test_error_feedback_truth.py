"""The ``error-feedback-sgd`` truth provider (:mod:`checks.truth.error_feedback`): the law
of the released sum on the linear canary (by hand, and against the batched simulator),
the exact profile against the Gaussian and sampled-Gaussian truths where they coincide,
both orders, what it supports, and a planted statement it must refute."""
from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
import sympy as sp

from checks.truth.base import NotMember
from checks.truth.error_feedback import (ErrorFeedbackSGDProvider, _pld, halfline_profile,
                                         halfline_profile_mp, released_sum_law)
from checks.truth.providers import gaussian_delta
from checks.statements import check_statement
from theory.classes import BoundedGradient, GradNoise, LowerBounded
from theory.mechanisms import ErrorFeedbackSGD
from theory.metrics import WEIGHTED_EXPECTED_GRAD_SQ
from theory.model import Bound, Rate, asm

PROV = ErrorFeedbackSGDProvider()
n, b, eta, C1, C2, sig, T, eps, dl, alpha = sp.symbols("n b eta C1 C2 sigma T epsilon delta alpha",
                                                       positive=True)


def _mech(**kw):
    f = dict(n=n, b=b, eta=eta, C1=C1, C2=C2, sigma=sig, T=T)
    f.update(kw)
    return ErrorFeedbackSGD(**f)


def test_released_sum_by_hand():
    """u = (s − C1)/b = C2: a sampling releases C1/b now and C2 at the next step."""
    m, w = released_sum_law(2, 0.25, 1.0 + 2 * 0.5, 2, 1.0, 0.5)
    # patterns (0,0): 0; (0,1): C1/b = 0.5; (1,0): C1/b + C2 = 1.0; (1,1): 2C1/b + C2 = 1.5
    assert m == pytest.approx([0.0, 0.5, 1.0, 1.5])
    assert w == pytest.approx([0.75**2, 0.25 * 0.75, 0.25 * 0.75, 0.25**2])


def test_released_sum_without_feedback_is_binomial():
    m, w = released_sum_law(5, 0.3, 0.7, 1, 1.0, 2.0)
    assert m == pytest.approx([0.7 * k for k in range(6)])
    assert w == pytest.approx([math.comb(5, k) * 0.3**k * 0.7 ** (5 - k) for k in range(6)])


def test_released_sum_against_the_simulator():
    """The law of θ_T from the batched ef-clip-sgd simulator (20 000 runs, fixed seed)
    matches the exact mixture: mean and two tail probabilities within 5 standard errors."""
    torch = pytest.importorskip("torch")  # noqa: F841
    from checks.simulate.algorithms import Hyper, make_algorithm
    from checks.simulate.problems import Canary, gradient_canary
    from checks.simulate.runner import simulate
    prob = gradient_canary(d=1, n=4, canary="gradient")
    s = 1.0 + 2 * 0.5                                 # j = 2: the buffer released in 2 steps
    prob = dataclasses.replace(prob, canary=Canary("gradient", 1, gradient_norm=s))
    q, Tn, sd = 1 / prob.n, 6, 0.4
    hp = Hyper(eta=1.0, C=1.0, sigma_dp=sd, b=1, C2=0.5)
    res = simulate(prob, make_algorithm("ef-clip-sgd"), hp, runs=20_000, T=Tn, seed=3,
                   device="cpu", dtype="float64")
    x = res.final[:, 0].numpy()                       # θ_T − θ_0 = η·M + noise (canary: −s u)
    m, w = map(np.asarray, released_sum_law(Tn, q, s, 1, 1.0, 0.5))
    tau = sd * math.sqrt(Tn)
    assert abs(x.mean() - (w * m).sum()) < 5 * x.std() / math.sqrt(x.size)
    from scipy.stats import norm
    for thr in (0.5, 2.0):
        p_exact = float((w * norm.sf((thr - m) / tau)).sum())
        p_hat = float((x > thr).mean())
        assert abs(p_hat - p_exact) < 5 * math.sqrt(p_exact * (1 - p_exact) / x.size)


def test_profile_single_step_equals_the_sampled_gaussian():
    """T = 1 (no feedback): the exact half-line values lie in dp-accounting's enclosure of
    the sampled Gaussian's δ(ε), both orders (its "remove" pair is our add order)."""
    m, w = released_sum_law(1, 0.2, 1.0, 1, 1.0, 3.0)
    f, r, err, roots = halfline_profile(m, w, 2.0, 0.2)
    lo_rem, lo_add = _pld(0.2, 2.0, 1, 0.2, pessimistic=False)
    hi_rem, hi_add = _pld(0.2, 2.0, 1, 0.2, pessimistic=True)
    assert lo_rem - 1e-12 <= f <= hi_rem + 1e-12
    assert lo_add - 1e-12 <= r <= hi_add + 1e-12 and r > 0
    mp = halfline_profile_mp(m, w, 2.0, 0.2, roots)
    assert abs(float(mp[0]) - f) < 1e-12 and abs(float(mp[1]) - r) < 1e-12


def test_profile_full_batch_is_the_gaussian_mechanism_both_orders():
    f, r, err, _ = halfline_profile([1.3], [1.0], 0.9, 0.7)
    g = gaussian_delta(0.7, 1.3, 0.9)
    assert f == pytest.approx(g, rel=1e-10) and r == pytest.approx(g, rel=1e-10)
    assert err < 1e-10


def test_supports():
    ok = Bound("s", eps, _mech(), delta=dl, profile=True,
               hypotheses=[asm(GradNoise(sig)), asm(BoundedGradient(C2, of="objective"))])
    assert PROV.supports(ok)
    assert PROV.supports(Bound("s", alpha, _mech(), order=alpha))
    lb = Bound("s", eps, _mech(), delta=dl, profile=True, hypotheses=[asm(LowerBounded())])
    assert not PROV.supports(lb)
    assert not PROV.supports(Bound("s", eps, _mech(sampling="fixed"), delta=dl, profile=True))
    assert not PROV.supports(Rate("s", WEIGHTED_EXPECTED_GRAD_SQ, 1 / T, _mech()))


def test_slope_cap_follows_the_classes():
    st = Bound("s", eps, _mech(), delta=dl, profile=True,
               hypotheses=[asm(BoundedGradient(C2, of="objective")), asm(GradNoise(sig))])
    v = {"n": 10.0, "C2": 0.1, "sigma": 1.0}
    # ∇f = s/n ≤ G = 0.1 → s ≤ 1; variance s²(n−1)/n² ≤ σ² → s ≤ 10/3
    assert PROV.slope_cap(st, v) == pytest.approx(1.0)
    st2 = dataclasses.replace(st, hypotheses=[asm(BoundedGradient(C2))])
    assert PROV.slope_cap(st2, v) == pytest.approx(0.1)
    with pytest.raises(NotMember):
        PROV.member(st2, {"n": 10.0, "C2": 0.0})


def _point(**kw):
    v = {"n": 50.0, "b": 10.0, "eta": 0.1, "C1": 1.0, "C2": 1.0, "sigma": 0.3, "T": 6.0,
         "epsilon": 1.0, "delta": 1e-5}
    v.update(kw)
    return v


def test_feedback_leaks_more_than_the_clipped_part():
    """With a large canary (no class bounds it) the buffer releases C2 per step: the last
    iterate alone is far less private than the trajectory without feedback."""
    st = Bound("s", eps, _mech(), delta=dl, profile=True)
    big = PROV.truth(st, _point())
    st_small = Bound("s", eps, _mech(), delta=dl, profile=True,
                     hypotheses=[asm(BoundedGradient(C1))])
    small = PROV.truth(st_small, _point())
    assert "no feedback" in small.scenario and "no feedback" not in big.scenario
    assert big.lower > 10 * small.upper
    assert big.forward > 0.5 and big.backward > 0


def test_rdp_last_iterate_full_batch_is_gaussian():
    st = Bound("s", alpha, _mech(release="last"), order=alpha,
               hypotheses=[asm(BoundedGradient(C1))])
    v = _point(b=50.0, alpha=4.0)
    t = PROV.truth(st, v)
    # q = 1, s = C1 = 1: θ_T − θ_0 = −ηT·s/b − η Σζ: D_α = α (T s/b)²/(2 T σ²)
    exact = 4.0 * (6 * 1.0 / 50) ** 2 / (2 * 6 * 0.3**2)
    assert t.forward == pytest.approx(exact, rel=1e-6) and t.backward == pytest.approx(exact, rel=1e-6)


def test_planted_statement_is_violated_with_a_50_digit_witness():
    """A statement claiming the trajectory is (1, 1e-5)-DP at a noise that only covers the
    clipped part (no class bounds the canary) is VIOLATED; the witness is confirmed at
    50 digits."""
    hyps = [asm(sp.Eq(T, 8)), asm(sp.Eq(n, 50)), asm(sp.Eq(b, 10)), asm(sp.Eq(C2, C1)),
            asm(sp.Eq(dl, sp.Rational(1, 10**5))), asm(sp.Eq(eps, 1)),
            asm(sp.Eq(sig, 2 * C1 / b))]
    st = Bound("statement", eps, _mech(), delta=dl, profile=True, hypotheses=hyps)
    out = check_statement(st, budget=4, seed=0)
    assert out.violated, out.detail
    assert "50 digits" in out.detail and out.ratio > 1e3


def test_audit_never_exceeds_the_exact_truth():
    """Where the exact law is reachable (T = 16), the audit's 95 % lower bounds stay below
    it in both orders (fixed seed: deterministic)."""
    from checks.simulate.audit_truth import audit_delta_lower
    n_, b_, T_, s_, c1, c2, sd, e = 50, 10, 16, 11.0, 1.0, 0.5, 0.6, 1.0
    f, r, a = audit_delta_lower(n_, b_, T_, s_, c1, c2, sd, e, 1e-5, runs=4000, seed=0)
    m, w = released_sum_law(T_, b_ / n_, s_, b_, c1, c2)
    fx, rx, err, _ = halfline_profile(m, w, sd * math.sqrt(T_), e)
    assert 0 < f <= fx + err and r <= rx + err
    assert a.n_in_eval == 2000 and a.confidence == 0.95


def test_out_of_reach_is_audited():
    """T = 100 > T_MAX: the trajectory without feedback holds (noise multiplier 20), the
    buffer's release does not — found by the audit, with its confidence and counts."""
    hyps = [asm(sp.Eq(T, 100)), asm(sp.Eq(n, 50)), asm(sp.Eq(b, 10)), asm(sp.Eq(C2, C1)),
            asm(sp.Eq(dl, sp.Rational(1, 10**5))), asm(sp.Eq(eps, 1)),
            asm(sp.Eq(sig, 20 * C1 / b))]
    st = Bound("statement", eps, _mech(), delta=dl, profile=True, hypotheses=hyps)
    out = check_statement(st, budget=2, seed=0)
    assert out.violated, out.detail
    assert "membership-inference audit" in out.detail and "0.95" in out.detail
    assert "FNR = " in out.detail and float(out.witness["truth_max"]) > 0.1


def test_one_record_is_not_audited_and_keeps_the_exact_candidates():
    """n = 1: the audit's D (the n − 1 other records) would be empty and its simulator
    refuses it; the provider skips the audit and answers with its exact candidates (the
    trajectory without feedback) instead of losing the point to the simulator's error."""
    hyps = [asm(sp.Eq(T, 100)), asm(sp.Eq(n, 1)), asm(sp.Eq(b, 1)), asm(sp.Eq(C2, C1))]
    st = Bound("statement", eps, _mech(), delta=dl, profile=True, hypotheses=hyps)
    # the claimed δ above the exact candidates' (0.006): the provider would audit
    v = {"T": 100.0, "n": 1.0, "b": 1.0, "C1": 1.0, "C2": 1.0, "sigma": 20.0, "eta": 1.0,
         "epsilon": 1.0, "delta": 0.5}
    t = PROV.truth(st, v)
    assert "whole trajectory" in t.method and "audit" not in t.method
    assert t.max > 0

"""The membership-inference audit: ε̂ (eq. (24)/(20)), Clopper–Pearson bounds, soundness."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, stats

from checks.simulate.audit import (clopper_pearson, epsilon_hat, gaussian_delta, gaussian_epsilon,
                          threshold_audit)


def test_epsilon_hat_formula():
    # eq. (24): max{log((1-δ-FPR)/FNR), log((1-δ-FNR)/FPR)}
    fpr, fnr, delta = 0.1, 0.3, 0.01
    want = max(math.log((1 - delta - fpr) / fnr), math.log((1 - delta - fnr) / fpr))
    assert epsilon_hat(fpr, fnr, delta) == pytest.approx(want, rel=1e-12)
    assert epsilon_hat(0.5, 0.5, 0.0) == 0.0                 # a coin flip proves nothing
    assert epsilon_hat(0.9, 0.9, 0.0) == 0.0                 # never negative
    assert epsilon_hat(0.0, 0.5, 0.0) == math.inf            # perfect test on the sample
    vec = epsilon_hat(np.array([0.1, 0.5]), np.array([0.3, 0.5]), delta)
    assert vec.shape == (2,) and vec[0] == pytest.approx(want) and vec[1] == 0.0


@pytest.mark.parametrize("bad", [-0.1, 1.0, 2.0])
def test_epsilon_hat_rejects_bad_delta(bad):
    with pytest.raises(ValueError, match="delta must be in"):
        epsilon_hat(0.1, 0.1, bad)


@pytest.mark.parametrize("k,n", [(0, 10), (3, 10), (10, 10), (17, 250)])
def test_clopper_pearson_matches_scipy_exact_interval(k, n):
    lo, hi = clopper_pearson(k, n, 0.95)
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="exact")
    assert lo == pytest.approx(ci.low, abs=1e-12)
    assert hi == pytest.approx(ci.high, abs=1e-12)
    # the two-sided 95% interval's ends are the one-sided 97.5% bounds
    assert clopper_pearson(k, n, 0.975, side="upper") == pytest.approx(hi, abs=1e-12)
    assert clopper_pearson(k, n, 0.975, side="lower") == pytest.approx(lo, abs=1e-12)
    assert clopper_pearson(k, n, 0.95, side="upper") <= clopper_pearson(k, n, 0.99, side="upper")


def test_clopper_pearson_rejects_bad_counts():
    with pytest.raises(ValueError, match="k <= n"):
        clopper_pearson(11, 10)
    with pytest.raises(ValueError, match="confidence must be in"):
        clopper_pearson(1, 10, 1.5)


@pytest.mark.parametrize("p,n", [(0.02, 60), (0.3, 25), (0.5, 200)])
def test_clopper_pearson_upper_bound_coverage(p, n):
    """The one-sided 95% upper bound covers the true rate in >= 95% of samples (up to MC error)."""
    k = np.random.default_rng(7).binomial(n, p, size=4000)
    cover = np.mean(clopper_pearson(k, np.full_like(k, n), 0.95, side="upper") >= p)
    assert cover >= 0.95 - 3 * math.sqrt(0.05 * 0.95 / 4000)


@pytest.mark.parametrize("mu,eps", [(0.5, 0.0), (1.0, 0.5), (2.0, 1.0), (3.0, 4.0)])
def test_gaussian_delta_matches_numerical_hockey_stick(mu, eps):
    f = lambda x: max(0.0, stats.norm.pdf(x, mu) - math.exp(eps) * stats.norm.pdf(x))  # noqa
    num, _ = integrate.quad(f, -20, 20 + mu, points=[eps / mu + mu / 2], limit=200)
    assert gaussian_delta(mu, eps) == pytest.approx(num, rel=1e-6, abs=1e-12)
    e = gaussian_epsilon(mu, max(num, 1e-12))
    assert gaussian_delta(mu, e) == pytest.approx(max(num, 1e-12), rel=1e-6)


def test_known_answer_gaussian_mechanism():
    """Scores N(μ,1) with canary vs N(0,1) without: the measured rates at the chosen threshold
    agree with the exact Gaussian tails, and the lower bound lies below the exact ε(δ)."""
    mu, delta, n = 2.0, 0.05, 100_000
    rng = np.random.default_rng(3)
    r = threshold_audit(rng.normal(mu, 1, n), rng.normal(0, 1, n), delta=delta, seed=1)
    assert r.side == 1
    true_fpr = stats.norm.sf(r.threshold)
    true_fnr = stats.norm.cdf(r.threshold - mu)
    for k_over_n, m, p in ((r.fpr, r.n_out_eval, true_fpr), (r.fnr, r.n_in_eval, true_fnr)):
        lo, hi = clopper_pearson(round(k_over_n * m), m, 0.999)
        assert lo <= p <= hi
    exact = gaussian_epsilon(mu, delta)
    assert r.eps_lower <= exact
    assert r.eps_lower <= r.eps_hat
    assert r.eps_lower > 0.8 * exact      # the attack is (near) optimal: NP threshold test


def test_audit_lower_bound_is_sound_over_repeats():
    """Over many small audits of the same Gaussian mechanism the 95% lower bound exceeds the
    true ε(δ) in at most ~5% of them (here: never more than 10%)."""
    mu, delta = 1.0, 0.01
    exact = gaussian_epsilon(mu, delta)
    rng = np.random.default_rng(11)
    bad = 0
    reps = 150
    for s in range(reps):
        r = threshold_audit(rng.normal(mu, 1, 600), rng.normal(0, 1, 600), delta=delta, seed=s)
        bad += r.eps_lower > exact
    assert bad / reps <= 0.10


def test_no_leak_gives_small_bound():
    rng = np.random.default_rng(5)
    r = threshold_audit(rng.normal(0, 1, 20000), rng.normal(0, 1, 20000), delta=1e-5)
    assert r.eps_lower == 0.0 or r.eps_lower < 0.1


def test_threshold_audit_validates():
    with pytest.raises(ValueError, match="at least 4 runs"):
        threshold_audit([1.0, 2.0], [0.0, 1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="finite"):
        threshold_audit([1.0, 2.0, np.nan, 1.0], [0.0, 1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="calibration_fraction"):
        threshold_audit(np.ones(10), np.zeros(10), calibration_fraction=1.0)

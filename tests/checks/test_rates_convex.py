"""The power-loss family and the ``power-loss-sgd`` rate provider: the family is a member of
the classes it claims (Hölder constant, convexity, minimiser, suprema at the origin), the
quantile interval and the certified floor are sound against simulation, and the provider
decides planted claims (a true O-rate holds, a rate that SGD cannot reach and an explicit
bound below the truth are VIOLATED with 50-digit witnesses)."""
from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import sympy as sp

from checks.truth.power_loss import PowerLoss, family_for
from checks.truth.rates_convex import (PowerLossSGDProvider, excess_floor, quantile_interval,
                                       simulate)
from checks.statements import check_statement
from theory.classes import BoundedDomain, Convex, Holder, MinimiserNorm, NonNegative
from theory.mechanisms import AveragedSGD
from theory.metrics import EXCESS_RISK
from theory.model import Rate, asm


@pytest.mark.parametrize("nu", [0.0, 0.3, 0.5, 0.9, 1.0])
def test_gradient_is_holder_with_the_claimed_constant(nu):
    fam = family_for(nu, L=2.0, r=1.0, d=3)
    rng = np.random.default_rng(1)
    x, y = rng.normal(size=(4000, 3)), rng.normal(size=(4000, 3)) * 10.0 ** rng.integers(-3, 3, (4000, 1))
    gx, gy = fam.grad(x), fam.grad(y)
    dist = np.linalg.norm(x - y, axis=1)
    ratio = np.linalg.norm(gx - gy, axis=1) / np.maximum(dist, 1e-300) ** nu
    assert ratio.max() <= fam.holder_constant * (1 + 1e-9)
    assert fam.holder_constant == pytest.approx(2.0)          # c = L / 2^(1−ν)
    # sharp at y = −x (the constant cannot be lowered)
    x1 = np.array([[0.7, 0.0, 0.0]])
    r = np.linalg.norm(fam.grad(x1) - fam.grad(-x1)) / np.linalg.norm(2 * x1) ** nu
    assert r == pytest.approx(fam.holder_constant, rel=1e-12)


def test_risks_minimiser_and_origin_constants():
    fam = PowerLoss(nu=0.4, c=1.3, r=1.5, s=0.7, d=4, k=0.2)
    Z = fam.points()
    loss = lambda w: fam.c * np.linalg.norm(w - Z, axis=1) ** (1 + fam.nu) / (1 + fam.nu) + fam.k  # noqa: E731
    rng = np.random.default_rng(0)
    for w in rng.normal(size=(20, 4)):
        assert fam.risk(w[None])[0] == pytest.approx(loss(w).mean(), rel=1e-12)
        cnt = rng.integers(0, 5, size=(1, 8)).astype(float)
        cnt[0, 0] += 1
        assert fam.empirical_risk(w[None], cnt)[0] == pytest.approx(
            (loss(w) * cnt[0]).sum() / cnt.sum(), rel=1e-12)
    wstar = np.array([[1.5, 0, 0, 0]])
    assert fam.risk(wstar)[0] == pytest.approx(fam.f_star, rel=1e-12)
    assert np.all(fam.risk(wstar + 1e-3 * rng.normal(size=(200, 4))) >= fam.f_star)
    assert fam.M == pytest.approx(np.max(fam.c * np.linalg.norm(Z, axis=1) ** fam.nu))
    assert fam.M0 == pytest.approx(loss(np.zeros(4)).max())
    assert float(fam.risk_mp([0.3, -0.2, 0.1, 0.0])) == pytest.approx(
        fam.risk(np.array([[0.3, -0.2, 0.1, 0.0]]))[0], rel=1e-12)


def test_risk_floor_is_the_minimum_over_the_ball():
    fam = family_for(0.5, L=1.0, r=2.0, d=3)
    rng = np.random.default_rng(2)
    for rho in (0.1, 0.8, 1.9):
        w = rng.normal(size=(20000, 3))
        w *= (rho * rng.random((20000, 1)) ** (1 / 3)) / np.linalg.norm(w, axis=1, keepdims=True)
        floor = float(fam.risk_floor(rho))
        assert floor > 0
        assert np.min(fam.risk(w)) - fam.f_star >= floor * (1 - 1e-12)
    assert fam.risk_floor(2.5) == 0


def test_quantile_interval_order_statistics():
    from scipy.stats import binom
    x = np.arange(200.0)
    for p in (0.1, 0.5, 0.9):
        est, lo, hi = quantile_interval(x, p, conf=0.99)
        ks = np.arange(1, 201)
        assert lo == x[ks[binom.sf(ks - 1, 200, p) >= 0.99].max() - 1]
        assert hi == x[ks[binom.cdf(ks - 1, 200, p) >= 0.99].min() - 1]
        assert lo <= est <= hi
    with pytest.raises(ValueError, match="p must be in"):
        quantile_interval(x, 1.0)


def test_certified_floor_is_below_the_simulated_quantile():
    """Little movement (Tη small) and noise on both sides: the floor is positive and the
    simulated (1 − γ)-quantile, even its lower end, sits above it."""
    fam = family_for(0.5, L=1.0, r=1.0, d=4)
    for sg, so in ((0.0, 0.0), (0.5, 0.0), (0.0, 0.05), (0.3, 0.02)):
        kw = dict(T=50, eta=0.002, sigma_grad=sg, sigma_out=so, radius=2.0)
        out = simulate(fam, n=20, runs=400, seed=3, **kw)
        for g in (0.1, 0.5, 0.9):
            est, lo, _ = quantile_interval(out["excess-risk"], 1 - g)
            f = float(excess_floor(fam, gamma=g, **kw))
            assert 0 < f <= lo <= est
    # far enough to reach w*: no floor
    assert excess_floor(fam, T=500, eta=0.5, sigma_grad=0.0, sigma_out=0.0, radius=None,
                        gamma=0.5) == 0


def test_simulate_validates_its_inputs():
    fam = family_for(0.0, L=1.0, r=1.0, d=2)
    with pytest.raises(ValueError, match="eta must be"):
        simulate(fam, n=4, T=3, eta=-1.0, runs=2, seed=0)
    with pytest.raises(ValueError, match="n must be an integer"):
        simulate(fam, n=0, T=3, eta=0.1, runs=2, seed=0)
    with pytest.raises(ValueError, match="nu must be in"):
        PowerLoss(nu=1.5, c=1.0, r=1.0, s=1.0, d=1)


# ------------------------------------------------------------------------- the provider
a, L, r, R, eta, g = sp.symbols("a L r R eta g", positive=True)
n = sp.Symbol("n", positive=True, integer=True)
CLS = (Holder(a, L), Convex(), NonNegative(), MinimiserNorm(r), BoundedDomain(R, measure="radius"))
HYP = [asm(sp.Le(a, 1)), asm(sp.Le(r, R)), asm(sp.Lt(g, 1)), asm(sp.Ge(n, 2))]


def _rate(expr, eta_expr, form="O", confidence=g):
    return Rate("r", EXCESS_RISK, expr, AveragedSGD(n=n, eta=eta_expr, T=n, radius=R),
                problem_class=CLS, form=form, confidence=confidence, hypotheses=HYP)


def test_provider_supports_only_what_it_simulates():
    prov = PowerLossSGDProvider()
    assert prov.supports(_rate(1 / sp.sqrt(n), 1 / sp.sqrt(n)))
    no_holder = Rate("r", EXCESS_RISK, 1 / n, AveragedSGD(n=n, eta=eta, T=n),
                     problem_class=(Convex(),))
    assert "Holder" in prov.supports(no_holder).reason
    no_ball = Rate("r", EXCESS_RISK, 1 / n, AveragedSGD(n=n, eta=eta, T=n), problem_class=CLS)
    assert "bounded domain" in prov.supports(no_ball).reason


def test_a_true_rate_holds_and_an_unreachable_one_is_violated():
    n_ = n
    good = Rate("r", EXCESS_RISK, r ** 2 / sp.sqrt(n_) + 1 / sp.sqrt(n_),
                AveragedSGD(n=n_, eta=1 / sp.sqrt(n_), T=n_, radius=R), problem_class=CLS,
                form="O", confidence=g, hypotheses=HYP)
    out = check_statement(good, budget=2000, seed=0)
    assert out.tested and not out.violated, out.detail
    assert "stays bounded" in out.detail
    # Tη = 1/√n → 0: SGD from 0 cannot reach ||w*|| = r ≥ ... while the claim → 0
    bad = Rate("r", EXCESS_RISK, 1 / sp.sqrt(n_), AveragedSGD(n=n_, eta=1 / (n_ * sp.sqrt(n_)),
                                                          T=n_, radius=R),
               problem_class=CLS, form="O", confidence=g, hypotheses=HYP)
    out = check_statement(bad, budget=2000, seed=0)
    assert out.violated, out.detail
    w = out.witness
    assert float(w["truth_max"]) > float(w["bound"]) > 0   # the certified floor
    rs = [float(x) for x in w["ratios_50_digits"].split(",")]
    assert all(b >= 2 * a_ for a_, b in zip(rs, rs[1:])) and rs[-1] > 1
    assert "50 digits" in w["method"]


def test_an_explicit_bound_below_the_truth_is_violated():
    n_ = n
    st = Rate("r", EXCESS_RISK, sp.Rational(1, 10) ** 6, AveragedSGD(n=n_, eta=1 / sp.sqrt(n_),
                                                                     T=n_, radius=R),
              problem_class=CLS, form="explicit", confidence=g, hypotheses=HYP)
    out = check_statement(st, budget=2000, seed=0)
    assert out.violated, out.detail
    assert "VIOLATED, truth/bound" in out.detail
    assert mpmath.mpf(out.witness["truth_lower_50_digits"]) > mpmath.mpf(
        out.witness["bound_50_digits"])

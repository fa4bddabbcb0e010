"""The output-perturbed averaged-SGD profile (:mod:`checks.truth.profiles_sgd`) on instances
small enough to compute by hand: the best half-line of two Gaussians is the Gaussian δ(ε)
from below, the truth of n = 2, T = 2 is enclosed by its half-line value and the index
coupling ½·δ_Gauss(ε; 2m, σ), T = 1 releases w_1 = 0 whatever the data (δ = 0); the member
of the class attains M and M0; what is out of reach or not a member says why in one
line."""
from __future__ import annotations

import math
import re

import numpy as np
import pytest
import sympy as sp
from scipy.stats import norm

from checks.truth.base import NotMember, Unavailable
from checks.truth.profiles_sgd import (OutputPerturbedSGDProvider, halfline_delta,
                                       halfline_delta_mp)
from theory.classes import Convex, Holder, OriginBounds
from theory.mechanisms import AveragedSGD
from theory.model import Bound

n, eta, T, so, sg, ep, dl, nu, L, M, M0 = sp.symbols(
    "n eta T sigma_out sigma_grad epsilon delta nu L M M0", positive=True)
PROV = OutputPerturbedSGDProvider()


def gauss_delta(eps, shift, sigma):
    """δ(ε) of N(0, σ²) against N(shift, σ²) (Balle & Wang 2018)."""
    a = shift / (2 * sigma)
    b = eps * sigma / shift
    return norm.cdf(a - b) - math.exp(eps) * norm.cdf(-a - b)


def _stmt(classes=None, mech=None, profile=True):
    mech = mech or AveragedSGD(n=n, eta=eta, T=T, sigma_out=so)
    classes = [Holder(nu, L)] if classes is None else classes
    if profile:
        return Bound("p", ep, mech, problem_class=classes, profile=True, delta=dl)
    return Bound("p", ep, mech, problem_class=classes, order=2)


def _point(**kw):
    v = {"n": 2.0, "T": 2.0, "eta": 1.0, "sigma_out": 0.5, "epsilon": 0.5, "nu": 0.0,
         "L": 2.0, "delta": 0.1}
    v.update(kw)
    return v


# ---------------------------------------------------------------------------- half-lines
@pytest.mark.parametrize("shift, sigma, eps", [(1.0, 1.0, 0.5), (0.3, 0.5, 1.0),
                                                (2.0, 0.7, 2.0), (1.0, 0.25, 0.1)])
def test_the_best_half_line_of_two_gaussians_is_their_delta_from_below(shift, sigma, eps):
    """For two Gaussians the optimal event is a half-line: the grid search finds δ(ε) to
    within 10⁻⁶ and never above it (a valid event)."""
    exact = gauss_delta(eps, shift, sigma)
    got, x, side = halfline_delta(np.array([0.0]), np.array([shift]), sigma, eps)
    assert side == "<"                          # the event where N(0) has more mass
    assert exact - 1e-6 < got <= exact + 1e-15
    # the event's value at 50 digits is the same number
    assert float(halfline_delta_mp([0.0], [shift], sigma, eps, x, side)) == \
        pytest.approx(got, rel=1e-10)


def test_the_half_line_sees_both_sides():
    got, _, side = halfline_delta(np.array([1.0]), np.array([0.0]), 1.0, 0.5)
    assert side == ">" and got == pytest.approx(gauss_delta(0.5, 1.0, 1.0), abs=1e-6)


def test_equal_mixtures_have_no_positive_half_line():
    got, _, _ = halfline_delta(np.array([-1.0, 1.0]), np.array([1.0, -1.0]), 0.5, 0.1)
    assert got == 0.0


def test_a_mixture_against_a_gaussian_matches_a_dense_scan():
    P, Q, s, eps = np.array([-0.5, 0.5]), np.array([0.5, 0.5]), 0.5, 0.5
    xs = np.linspace(-6, 6, 240001)
    left_p = 0.5 * norm.cdf((xs + 0.5) / s) + 0.5 * norm.cdf((xs - 0.5) / s)
    left_q = norm.cdf((xs - 0.5) / s)
    dense = max((left_p - math.exp(eps) * left_q).max(),
                ((1 - left_p) - math.exp(eps) * (1 - left_q)).max())
    got, _, _ = halfline_delta(P, Q, s, eps)
    assert got == pytest.approx(dense, abs=1e-7)


# ---------------------------------------------------------------------------- the truth
def test_two_points_two_steps_by_hand():
    """ν = 0, L = 2: c = 1, data z = (−1, 1), η = 1: w̄ = (w_1 + w_2)/2 = ±1/2 by the first
    index.  Replacing z_1 = −1 by 1 moves w̄ by 1 on the sequences that start with it
    (half of them): the coupling bound is ½·δ_Gauss(ε; 1, σ); the mixtures
    ½N(−½, σ²) + ½N(½, σ²) against N(½, σ²) give the half-line value below."""
    t = PROV.truth(_stmt(), _point(), precise=True)
    upper = 0.5 * gauss_delta(0.5, 1.0, 0.5)
    assert t.upper == pytest.approx(upper, abs=1e-11)
    assert t.forward == t.backward                       # the larger δ fills both slots
    xs = np.linspace(-6, 6, 240001)
    s, e = 0.5, math.exp(0.5)
    pmix = 0.5 * norm.cdf((xs + 0.5) / s) + 0.5 * norm.cdf((xs - 0.5) / s)
    qg = norm.cdf((xs - 0.5) / s)
    dense = max((pmix - e * qg).max(), ((1 - pmix) - e * (1 - qg)).max(),
                (qg - e * pmix).max(), ((1 - qg) - e * (1 - pmix)).max())
    assert t.lower == pytest.approx(dense, abs=1e-7)
    assert t.lower < t.upper
    assert float(t.extra["lower_mp"]) == pytest.approx(t.lower, abs=1e-11)
    assert "n = 2, T = 2" in t.scenario and "c = 1" in t.scenario


def test_one_step_releases_the_start_whatever_the_data():
    """T = 1: the average is w_1 = 0 on every dataset, so δ(ε) = 0."""
    t = PROV.truth(_stmt(), _point(T=1.0, n=3.0))
    assert t.forward == t.backward == 0.0 and t.error <= 1e-12


def test_more_noise_less_delta():
    lo = PROV.truth(_stmt(), _point(sigma_out=2.0))
    hi = PROV.truth(_stmt(), _point(sigma_out=0.5))
    assert lo.upper < hi.lower


# ---------------------------------------------------------------------------- the member
def test_the_member_attains_the_origin_bounds():
    """ν = 1/2, L = 1: c = L/2^{1/2}, a = (M/c)², k = M0 − c·a^{3/2}/(3/2)."""
    st = _stmt([Holder(nu, L), OriginBounds(M, M0)])
    got = PROV._instance(st, {"nu": 0.5, "L": 1.0, "M": 0.5, "M0": 2.0})
    c = 1 / math.sqrt(2)
    a = (0.5 / c) ** 2
    assert got == pytest.approx((0.5, c, a, 2.0 - c * a ** 1.5 / 1.5))
    # ν = 0: c = M ≤ L/2, data on [−1, 1]
    assert PROV._instance(st, {"nu": 0.0, "L": 1.0, "M": 0.25, "M0": 1.0}) == \
        pytest.approx((0.0, 0.25, 1.0, 0.75))
    # without OriginBounds: c = L/2^{1−ν}, a = 1, no shift
    assert PROV._instance(_stmt(), {"nu": 0.0, "L": 2.0}) == (0.0, 1.0, 1.0, 0.0)


@pytest.mark.parametrize("v, why", [
    ({"nu": 1.5, "L": 1.0, "M": 0.5, "M0": 2.0}, "outside [0, 1]"),
    ({"nu": 0.5, "L": -1.0, "M": 0.5, "M0": 2.0}, "not positive"),
    ({"nu": 0.0, "L": 1.0, "M": 0.75, "M0": 1.0}, "must be ≤ L/2"),
    ({"nu": 0.5, "L": 1.0, "M": 0.5, "M0": 0.0}, "M0 below"),
    ({"nu": 0.01, "L": 1.0, "M": 100.0, "M0": 1e300}, "out of reach"),
])
def test_not_a_member_says_why(v, why):
    st = _stmt([Holder(nu, L), OriginBounds(M, M0)])
    with pytest.raises(NotMember, match=re.escape(why)):
        PROV.member(st, v)


@pytest.mark.parametrize("kw, why", [
    ({"n": 2.0, "T": 11.0}, r"n\^T = 2\^11 index sequences: beyond enumeration"),
    ({"n": 1.0, "T": 13.0}, "beyond enumeration"),                       # T > 12
    ({"n": 2.5}, "n and T must be positive integers"),
    ({"T": 0.0}, "n and T must be positive integers"),
    ({"eta": 0.0}, "eta and sigma_out must be > 0"),
    ({"sigma_out": -1.0}, "eta and sigma_out must be > 0"),
])
def test_out_of_reach_says_why(kw, why):
    with pytest.raises(Unavailable, match=why):
        PROV.truth(_stmt(), _point(**kw))


# ---------------------------------------------------------------------------- support
def test_supports_output_perturbed_profiles_on_holder_members_only():
    assert PROV.supports(_stmt())
    assert "(epsilon, delta) profiles only" in PROV.supports(_stmt(profile=False)).reason
    grad = AveragedSGD(n=n, eta=eta, T=T, sigma_grad=sg, sigma_out=so)
    assert "output perturbation only" in PROV.supports(_stmt(mech=grad)).reason
    none = AveragedSGD(n=n, eta=eta, T=T)
    assert "output perturbation only" in PROV.supports(_stmt(mech=none)).reason
    assert "needs Holder(nu, L)" in PROV.supports(_stmt([Convex()])).reason


def test_anchors_name_the_derived_quantities():
    st = _stmt([Holder(nu, L), OriginBounds(M, M0)])
    derived = PROV.derived(st)
    assert {"n", "T", "eta", "epsilon", "Holder.nu", "Holder.L", "OriginBounds.M",
            "OriginBounds.M0"} <= set(derived)
    anchors = PROV.anchors(st)
    assert len(anchors) == 15 and all(set(a) <= set(derived) for a in anchors)
    assert all(a["n"] ** a["T"] <= 1024 for a in anchors)      # every anchor in reach

"""The noisy-SGD provider's certified lower bound (the sign of θ_T, data processing) where
its grid accountant is out of reach, and its use on O-form paths: it never exceeds the
certified truth, in both orders, and it shows an O-form whose expression vanishes as the
domain shrinks (while the last step's noise keeps the truth bounded away from 0) to be
unbounded."""
from __future__ import annotations

import pytest
import sympy as sp

from checks.statements.driver import check_with
from checks.truth.base import Unavailable
from checks.truth.providers import NoisySGDProvider, _binary_rdp_lower
from theory.classes import LSmooth
from theory.mechanisms import NoisySGD
from theory.model import Bound

C, D, L, T, a, b, eta, n, sig, c = sp.symbols("C D L T alpha b eta n sigma_dp c_O", positive=True)


def _stmt(expr, form="explicit"):
    mech = NoisySGD(n=n, b=b, eta=eta, C=C, sigma=sig, T=T, domain=D, sampling="poisson",
                    release="last")
    return Bound("t", expr, mech, (LSmooth(L),), order=a, form=form)


@pytest.mark.parametrize("vals", [
    dict(C=1.0, D=0.5, L=1.0, T=1.0, alpha=8.0, b=2.0, eta=0.1, n=10.0, sigma_dp=1.0),
    dict(C=1.0, D=0.3, L=1.0, T=3.0, alpha=2.0, b=1.0, eta=0.2, n=5.0, sigma_dp=0.7),
    dict(C=2.0, D=1.0, L=1.0, T=2.0, alpha=32.0, b=4.0, eta=0.05, n=20.0, sigma_dp=1.5),
])
def test_sign_lower_bound_never_exceeds_the_certified_truth_in_both_orders(vals):
    prov = NoisySGDProvider()
    stmt = _stmt(a * C ** 2 / sig ** 2)
    lo = prov.lower_truth(stmt, vals)
    try:
        tr = prov.truth(stmt, vals)
    except Unavailable:
        pytest.skip("grid out of reach here")
    assert lo is not None and lo.extra["lower_only"] and lo.error == 0.0
    assert lo.forward <= tr.forward + tr.error
    assert lo.backward <= tr.backward + tr.error
    assert lo.max > 0 or vals["T"] > 1


def test_binary_lower_is_zero_when_brackets_meet_and_monotone_otherwise():
    assert _binary_rdp_lower((0.4, 0.6), (0.5, 0.7), 4) == 0
    x = _binary_rdp_lower((0.7, 0.8), (0.4, 0.5), 4)
    y = _binary_rdp_lower((0.7, 0.8), (0.4, 0.45), 4)
    assert 0 < x < y


def test_o_form_vanishing_with_the_domain_is_violated_along_d_to_zero():
    """min(T, D²·…) → 0 as D → 0 while the truth stays ≥ the sign bound > 0."""
    expr = c * C ** 2 * a * sp.Min(T, D ** 2 * b * n * (L * eta + 1) ** 2 / (C ** 2 * eta ** 2)) / (
        b * n * sig ** 2)
    stmt = _stmt(expr, form="O")
    prov = NoisySGDProvider()
    out = check_with(stmt, prov, budget=2000, seed=0)
    assert out.violated, out.detail
    assert "D → 0" in out.detail and "certified lower bound" in out.detail
    # the witness is a lower bound of the truth above the expression
    w = out.witness
    assert float(w["truth_max"]) > float(w["bound"])

"""The DPSGD-DC utility simulation (checks.utility_sim) and its statement check."""
from __future__ import annotations

import math

import pytest

from checks import utility_sim as U
from checks.plugins import get_statement_check
from checks.verdict import StatementVerdict
from theory import registry


def _s(**kw):
    base = dict(mu=0.5, L=1.0, sigma_sgd=0.5, C=1.0, eta=0.4, b=2, sigma_dp=0.1, D=2.0, T=50)
    base.update(kw)
    return U.Scenario(**base)


def test_validation():
    with pytest.raises(ValueError, match="eta must be <= 9/\\(20L\\)"):
        _s(eta=1.0).validate()
    with pytest.raises(ValueError, match="mu must be <= L"):
        _s(mu=2.0).validate()
    with pytest.raises(ValueError, match="runs"):
        U.simulate(_s(), runs=1, seed=0)


def test_deterministic_and_converging():
    a = U.simulate(_s(), runs=64, seed=3)
    b = U.simulate(_s(), runs=64, seed=3)
    assert a == b
    # no noise at all: DPSGD-DC converges to θ* (min_t √gap tiny)
    exact, _ = U.simulate(_s(sigma_sgd=1e-12, sigma_dp=0.0, T=400), runs=8, seed=0)
    assert exact < 1e-6
    assert math.isfinite(U.bound(_s())) and U.bound(_s()) > 0


def test_statement_check_registered_and_holds():
    thm = registry.get("liang-icml:thm-3.9")
    fn = get_statement_check(thm.id)
    assert fn is not None
    rep = fn(thm, budget=10, seed=0)
    assert rep.verdict in (StatementVerdict.HOLDS_ON_SCENARIOS, StatementVerdict.VIOLATED)
    assert rep.ratio is not None and rep.ratio > 0
    if rep.verdict is StatementVerdict.HOLDS_ON_SCENARIOS:
        assert rep.ratio <= 1

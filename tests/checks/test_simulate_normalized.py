"""The normalising simulator algorithm (checks/simulate/normalized.py): one step equals the
update printed by hand, the noise is the runner's, the regulariser is required, and a large
r makes it plain noisy SGD scaled by 1/r."""
from __future__ import annotations

import os
import pytest
import torch

from checks.simulate.algorithms import Hyper, make_algorithm
from checks.simulate.normalized import normalise
from checks.simulate.problems import make_problem
from checks.simulate.runner import simulate

# The simulator's device: cpu, or what DPCHECK_TEST_DEVICE names (cuda on a GPU machine).
DEVICE = os.environ.get("DPCHECK_TEST_DEVICE", "cpu")


def test_registered_and_needs_r():
    alg = make_algorithm("normalized-sgd")
    with pytest.raises(ValueError, match="regulariser"):
        alg.check(Hyper(eta=0.1, C=1.0, sigma_dp=0.0, b=4))
    with pytest.raises(ValueError, match="r must be"):
        Hyper(eta=0.1, C=1.0, sigma_dp=0.0, b=4, r=-1.0)


def test_one_noiseless_full_batch_step_is_the_printed_update():
    prob = make_problem("quadratic", d=2, n=8, canary=None)
    hp = Hyper(eta=0.5, C=1.0, sigma_dp=0.0, b=8, sampling="fixed", r=0.3)
    res = simulate(prob, make_algorithm("normalized-sgd"), hp, runs=3, T=1, with_canary=False,
                   device=DEVICE, dtype="float64")
    X, y = prob.tensors("cpu", torch.float64)
    theta0 = torch.zeros(1, 2, dtype=torch.float64)
    g = prob.example_grads(theta0, X, y)            # per-example gradients at θ_0 = 0
    want = -0.5 * normalise(g, 0.3).reshape(-1, 2).mean(0)
    assert torch.allclose(res.final, want.expand(3, 2), atol=1e-12)


def test_large_r_is_noisy_sgd_over_r():
    x = torch.tensor([[3.0, 4.0]], dtype=torch.float64)
    assert torch.allclose(normalise(x, 1e9) * 1e9, x, rtol=1e-8)
    assert torch.linalg.vector_norm(normalise(x, 0.0)).item() == pytest.approx(1.0)

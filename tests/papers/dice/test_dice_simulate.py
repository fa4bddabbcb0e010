"""The clipped error-feedback algorithm (``ef-clip-sgd``, DiceSGD's Algorithm 2) in the
batched simulator: without noise and with a full batch it removes the clipping bias that
DPSGD-GC keeps (the fixed-point argument of Sec. 3.1, C2 ≥ C1), on a quadratic problem
with an outlier."""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from checks.simulate.algorithms import Hyper, make_algorithm  # noqa: E402
from checks.simulate.problems import quadratic  # noqa: E402
from checks.simulate.runner import simulate  # noqa: E402


def _final(name, **kw):
    prob = quadratic(d=1, n=20, canary="outlier", outlier_radius=10.0, data_seed=1)
    hp = Hyper(eta=0.2, C=0.5, sigma_dp=0.0, b=prob.n, sampling="fixed", **kw)
    res = simulate(prob, make_algorithm(name), hp, runs=2, T=600, with_canary=True,
                   device="cpu", dtype="float64")
    target = float((prob.X.sum() + 10.0) / prob.n)     # minimiser of the average loss
    return float(res.final[0, 0]), target


def test_error_feedback_removes_clipping_bias():
    ef, target = _final("ef-clip-sgd", C2=0.5)
    gc, _ = _final("dpsgd-gc")
    assert abs(ef - target) < 1e-3
    assert abs(gc - target) > 0.1          # DPSGD-GC: a constant clipping bias


def test_needs_c2():
    with pytest.raises(ValueError):
        make_algorithm("ef-clip-sgd").check(Hyper(eta=0.1, C=1.0, sigma_dp=1.0, b=1))

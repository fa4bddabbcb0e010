"""The batched error-feedback algorithm ``ef-clip-sgd`` (:mod:`checks.simulate.error_feedback`):
its validation of the hyper-parameters (one line naming what is missing), and its update
rule against steps computed by hand — the clipped part released now, the rest kept in the
buffer and released later through the second clip — one step alone and inside the
simulator."""
from __future__ import annotations

import dataclasses

import pytest

torch = pytest.importorskip("torch")

from checks.simulate.algorithms import ALGORITHMS, Batch, Hyper, make_algorithm  # noqa: E402
from checks.simulate.error_feedback import ErrorFeedbackClipSGD  # noqa: E402


class FixedBatch(Batch):
    """Every run's batch holds the same per-example gradients ``grads`` (N, m, d)."""

    def __init__(self, grads):
        self.grads = grads

    def sum(self, transform):
        return transform(self.grads).sum(dim=1)

    def size(self):
        return torch.full((self.grads.shape[0], 1), float(self.grads.shape[1]),
                          dtype=self.grads.dtype)


def _noise_of(value):
    """noise(std) giving std·value in every coordinate (a fixed draw)."""
    def noise(std=1.0):
        return torch.full((1, 1), std * value, dtype=torch.float64)
    return noise


def _hp(**kw):
    base = dict(eta=0.1, C=1.0, sigma_dp=0.0, b=2, C2=0.5)
    base.update(kw)
    return Hyper(**base)


def test_registered_under_its_name():
    assert ALGORITHMS["ef-clip-sgd"] is ErrorFeedbackClipSGD
    assert isinstance(make_algorithm("ef-clip-sgd"), ErrorFeedbackClipSGD)


def test_needs_the_buffer_threshold_and_no_domain():
    alg = ErrorFeedbackClipSGD()
    with pytest.raises(ValueError, match=r"^ef-clip-sgd needs the error-buffer threshold C2 "
                                         r"\(Hyper\.C2\)$"):
        alg.check(_hp(C2=None))
    with pytest.raises(ValueError, match="^ef-clip-sgd has no domain$"):
        alg.check(_hp(radius=1.0))
    with pytest.raises(ValueError, match="^ef-clip-sgd has no domain$"):
        alg.check(_hp(diameter=2.0))
    alg.check(_hp())                               # valid: no exception


def test_the_buffer_starts_at_zero_beside_theta():
    theta0 = torch.tensor([[1.0, -2.0], [0.5, 0.0]], dtype=torch.float64)
    st = ErrorFeedbackClipSGD().init_state(theta0, _hp())
    assert st["theta"] is theta0
    assert torch.equal(st["e"], torch.zeros_like(theta0))


def test_two_steps_by_hand():
    """Gradients 3 and −1 (b = 2, C = 1, C2 = 1/2, η = 0.1, no noise):
    step 1: v = (1 − 1)/2 + 0 = 0, e = (3 − 1)/2 − 0 = 1, θ unchanged;
    step 2: v = 0 + clip_{1/2}(1) = 1/2, e = 1 + 1 − 1/2 = 3/2, θ = θ₀ − 0.05."""
    alg, hp = ErrorFeedbackClipSGD(), _hp()
    batch = FixedBatch(torch.tensor([[[3.0], [-1.0]]], dtype=torch.float64))
    st = alg.init_state(torch.tensor([[2.0]], dtype=torch.float64), hp)
    st = alg.step(st, batch, _noise_of(0.0), hp)
    assert st["theta"].item() == pytest.approx(2.0) and st["e"].item() == pytest.approx(1.0)
    st = alg.step(st, batch, _noise_of(0.0), hp)
    assert st["theta"].item() == pytest.approx(1.95) and st["e"].item() == pytest.approx(1.5)


def test_the_noise_is_added_to_the_update_with_its_std():
    """θ − η(v + ζ), ζ = σ·z: with σ = 2 and a draw z = 0.25, ζ = 1/2."""
    alg, hp = ErrorFeedbackClipSGD(), _hp(sigma_dp=2.0)
    batch = FixedBatch(torch.tensor([[[0.4], [0.2]]], dtype=torch.float64))
    st = alg.init_state(torch.tensor([[0.0]], dtype=torch.float64), hp)
    st = alg.step(st, batch, _noise_of(0.25), hp)
    # v = (0.4 + 0.2)/2 = 0.3 (nothing clipped), θ = −0.1·(0.3 + 0.5); e = 0.3 − 0.3 = 0
    assert st["theta"].item() == pytest.approx(-0.08)
    assert st["e"].item() == pytest.approx(0.0, abs=1e-15)


def test_clipping_is_by_the_euclidean_norm_in_several_dimensions():
    alg, hp = ErrorFeedbackClipSGD(), _hp(eta=1.0, b=1, C=1.0, C2=10.0)
    batch = FixedBatch(torch.tensor([[[3.0, 4.0]]], dtype=torch.float64))
    st = alg.init_state(torch.zeros(1, 2, dtype=torch.float64), hp)
    st = alg.step(st, batch, lambda std=1.0: torch.zeros(1, 2, dtype=torch.float64), hp)
    assert st["theta"][0].tolist() == pytest.approx([-0.6, -0.8])     # clip_1((3, 4))
    assert st["e"][0].tolist() == pytest.approx([2.4, 3.2])            # (3, 4) − (0.6, 0.8)


def test_in_the_simulator_the_buffer_releases_what_clipping_held_back(one_torch_thread):
    """The gradient canary (gradient −3, clipped to −1; the other example inert), full
    batch (b = n = 2), no noise, η = 1: θ_t = t − 1/2 (θ_1 = 1/2, then 1 per step: the
    clipped −1/2 and the buffer's clip_{1/2} of −1/2 each), where plain clipped SGD moves
    1/2 per step."""
    from checks.simulate.problems import Canary, gradient_canary
    from checks.simulate.runner import simulate
    prob = dataclasses.replace(gradient_canary(d=1, n=2),
                               canary=Canary("gradient", 1, gradient_norm=3.0))
    hp = Hyper(eta=1.0, C=1.0, sigma_dp=0.0, b=2, C2=0.5, sampling="fixed")
    res = simulate(prob, make_algorithm("ef-clip-sgd"), hp, runs=3, T=3, seed=0,
                   device="cpu", dtype="float64", record_at=[1, 2, 3])
    assert res.theta.shape == (3, 3, 1)
    for k, want in enumerate((0.5, 1.5, 2.5)):
        assert res.theta[k, :, 0].tolist() == pytest.approx([want] * 3)
    plain = simulate(prob, make_algorithm("dpsgd-gc"), dataclasses.replace(hp, C2=None),
                     runs=3, T=3, seed=0, device="cpu", dtype="float64")
    assert plain.final[:, 0].tolist() == pytest.approx([1.5] * 3)
    with pytest.raises(ValueError, match="C2"):
        simulate(prob, make_algorithm("ef-clip-sgd"), dataclasses.replace(hp, C2=None),
                 runs=3, T=3, seed=0, device="cpu", dtype="float64")

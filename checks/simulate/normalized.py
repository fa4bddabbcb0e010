"""Noisy SGD with per-example *normalisation* (regularised), batched over runs::

    θ_{t+1} = θ_t − η ( (1/b) Σ_{ξ∈B_t} ∇l_ξ(θ_t) / (r + ‖∇l_ξ(θ_t)‖) + ζ_t ),
    ζ_t ~ N(0, σ_DP² I_d),  θ_0 = 0,

with the sampling of :mod:`checks.simulate.algorithms` (the sum divided by the nominal b).
``Hyper.r`` is the regulariser r > 0 (required); the clipping threshold C is unused.  Each
normalised gradient has norm < 1, so σ_DP is the noise multiplier of the sum's sensitivity 1
(up to the factor b).  The clipping counterpart with noise c·σ is ``dpsgd-gc`` with
``sigma_dp = C·σ``.
"""
from __future__ import annotations

import torch

from checks.simulate.algorithms import Algorithm, _noisy_step, register_algorithm


def normalise(x: torch.Tensor, r: float) -> torch.Tensor:
    """``x / (r + ‖x‖)`` over the last dimension."""
    return x / (r + torch.linalg.vector_norm(x, dim=-1, keepdim=True))


@register_algorithm
class NormalizedSGD(Algorithm):
    """Noisy SGD on regularised per-example normalised gradients g/(r + ‖g‖)."""

    name = "normalized-sgd"
    summary = "g/(r + ||g||) per example, average over b, add N(0, sigma_dp^2 I), step (K = R^d)"
    clips = False

    def check(self, hp):
        if getattr(hp, "r", None) is None:
            raise ValueError("normalized-sgd needs the regulariser r (Hyper.r)")
        if hp.ball_radius is not None:
            raise ValueError("normalized-sgd has no domain")

    def step(self, state, batch, noise, hp):
        return {"theta": _noisy_step(state["theta"], batch, lambda x: normalise(x, hp.r),
                                     noise, hp)}

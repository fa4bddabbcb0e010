"""Clipped error-feedback noisy SGD, batched over runs (:class:`theory.mechanisms.ErrorFeedbackSGD`)::

    v_t     = (1/b) Σ_{ξ∈B_t} clip_{C}(∇l_ξ(θ_t)) + clip_{C2}(e_t),
    θ_{t+1} = θ_t − η (v_t + ζ_t),                  ζ_t ~ N(0, σ_DP² I_d),
    e_{t+1} = e_t + (1/b) Σ_{ξ∈B_t} ∇l_ξ(θ_t) − v_t,  e_0 = 0,

with the sampling of :mod:`checks.simulate.algorithms` (sums divided by the nominal b).
``Hyper.C`` is the per-example threshold, ``Hyper.C2`` the threshold of the error buffer
(required).  The buffer e_t is the algorithm's hidden state, kept beside θ in ``state``;
only θ is recorded.
"""
from __future__ import annotations

import torch

from checks.simulate.algorithms import Algorithm, clip, register_algorithm


@register_algorithm
class ErrorFeedbackClipSGD(Algorithm):
    """Noisy SGD with clipped gradients and a clipped error-feedback buffer (two thresholds)."""

    name = "ef-clip-sgd"
    summary = ("v = mean clip_C(grad) + clip_C2(e); theta -= eta (v + N(0, sigma_dp^2 I)); "
               "e += mean grad - v")

    def check(self, hp):
        if getattr(hp, "C2", None) is None:
            raise ValueError("ef-clip-sgd needs the error-buffer threshold C2 (Hyper.C2)")
        if hp.ball_radius is not None:
            raise ValueError("ef-clip-sgd has no domain")

    def init_state(self, theta0, hp):
        return {"theta": theta0, "e": torch.zeros_like(theta0)}

    def step(self, state, batch, noise, hp):
        theta, e = state["theta"], state["e"]
        inv_b = 1.0 / hp.b
        v = batch.sum(lambda x: clip(x, hp.C)).mul_(inv_b)      # (1/b) Σ clip_C(∇l)
        v.add_(clip(e, hp.C2))                                  # + clip_C2(e_t)
        raw = batch.sum(lambda x: x).mul_(inv_b)                # (1/b) Σ ∇l
        e = e + raw - v                                         # e_{t+1}
        z = noise(hp.sigma_dp)
        theta = theta.sub_(v.add_(z), alpha=hp.eta)             # θ − η(v + ζ)
        return {"theta": theta, "e": e}

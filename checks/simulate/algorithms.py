"""Batched DP-SGD variants: N independent runs advance together as one tensor program.

Conventions follow :class:`theory.mechanisms.NoisySGD` (projected, clipped noisy SGD as
most papers print it) for DPSGD-DC:

    θ_{t+1} = Π_K( θ_t − η ( (1/b) Σ_{ξ∈B_t} clip_C(∇l_ξ(θ_t)) + ζ_t ) ),
    ζ_t ~ N(0, σ_DP² I_d),  θ_0 = 0,  clip_C(x) = x·min(1, C/‖x‖),

with K the ball of *diameter* D centred at 0 (radius D/2) — papers usually speak of "a
bounded domain K with diameter D".  The radius can be given instead (``radius=``); exactly
one of them is used.  DPSGD-GC is the same with K = R^d.  The sum is divided by the
nominal batch size ``b`` even under Poisson sampling, as such pseudo-code is printed.

Sampling: "a random mini-batch B_t with sampling probability q = b/n", with the differing
example present independently with probability q — Poisson sampling, what sampled-Gaussian
privacy proofs assume.  ``sampling="poisson"`` (default) does that; ``"fixed"`` draws
exactly b examples without replacement (offered for comparison).

To add an algorithm write one file with a subclass of :class:`Algorithm`
implementing :meth:`Algorithm.step`, decorate it with :func:`register_algorithm`, and list
the module in :data:`ALGORITHM_MODULES` (imported lazily by :func:`make_algorithm`).
"""
from __future__ import annotations

import importlib
import math
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass
from typing import Callable, ClassVar

import torch

Tensor = torch.Tensor

SAMPLING = ("poisson", "fixed")


@dataclass(frozen=True)
class Hyper:
    """Hyper-parameters of Algorithm 1.

    ``eta`` step size, ``C`` clipping threshold, ``sigma_dp`` noise std (per coordinate, added
    to the averaged clipped gradient), ``b`` batch size, ``sampling`` "poisson" | "fixed",
    ``diameter`` D of the ball K (radius D/2) or ``radius`` (exactly one, or neither for an
    unconstrained algorithm); ``C2`` the second threshold of an error-feedback method
    (the clip of its error buffer), None for the others; ``r`` the regulariser of a
    normalising method (g/(r + ‖g‖)), None for the others.
    """

    eta: float
    C: float
    sigma_dp: float
    b: int
    sampling: str = "poisson"
    diameter: float | None = None
    radius: float | None = None
    C2: float | None = None
    r: float | None = None

    def __post_init__(self):
        for name in ("eta", "C"):
            v = getattr(self, name)
            if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
                raise ValueError(f"{name} must be a finite number > 0, got {v!r}")
        if not (isinstance(self.sigma_dp, (int, float)) and math.isfinite(self.sigma_dp)
                and self.sigma_dp >= 0):
            raise ValueError(f"sigma_dp must be a finite number >= 0, got {self.sigma_dp!r}")
        if not isinstance(self.b, int) or isinstance(self.b, bool) or self.b < 1:
            raise ValueError(f"b must be an integer >= 1, got {self.b!r}")
        if self.sampling not in SAMPLING:
            raise ValueError(f"sampling must be one of {SAMPLING}, got {self.sampling!r}")
        if self.diameter is not None and self.radius is not None:
            raise ValueError("give diameter or radius, not both "
                             f"(diameter={self.diameter!r}, radius={self.radius!r})")
        for name in ("diameter", "radius", "C2", "r"):
            v = getattr(self, name)
            if v is not None and not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
                raise ValueError(f"{name} must be a finite number > 0, got {v!r}")

    @property
    def ball_radius(self) -> float | None:
        """Radius of K: ``diameter/2`` (paper convention) or ``radius`` as given."""
        if self.radius is not None:
            return float(self.radius)
        if self.diameter is not None:
            return float(self.diameter) / 2.0
        return None

    def as_dict(self) -> dict:
        d = asdict(self)
        d["ball_radius"] = self.ball_radius
        return d


def clip(x: Tensor, C: float) -> Tensor:
    """``clip_C(x) = x·min(1, C/‖x‖)`` over the last dimension (= ``x·C/max(‖x‖, C)``)."""
    norm = torch.linalg.vector_norm(x, dim=-1, keepdim=True)
    return x * (C / norm.clamp_min(C))


def project_ball(theta: Tensor, radius: float) -> Tensor:
    """Euclidean projection onto the centred ball of the given radius, in place."""
    if theta.shape[-1] == 1:
        return theta.clamp_(-radius, radius)
    norm = torch.linalg.vector_norm(theta, dim=-1, keepdim=True)
    return theta.mul_(radius / norm.clamp_min(radius))


def _noisy_step(theta: Tensor, batch: "Batch", transform, noise, hp: "Hyper") -> Tensor:
    """``θ − η((1/b) Σ_{ξ∈B} transform(∇l_ξ(θ)) + ζ)``, ζ ~ N(0, σ_DP² I), in place."""
    z = noise(hp.sigma_dp)                       # ζ_t
    batch.accumulate(z, transform, 1.0 / hp.b)   # + (1/b) Σ transform(∇l_ξ)
    return theta.sub_(z, alpha=hp.eta)


class Batch(ABC):
    """The sampled mini-batches of all N runs at one step (built by the runner).

    ``sum(transform)`` returns ``Σ_{ξ∈B_t} transform(∇l_ξ(θ_t))`` per run, shape ``(N, d)``,
    where ``transform`` maps per-example gradients ``(..., d) -> (..., d)`` (e.g. clipping
    or normalisation).  ``size()`` is ``|B_t|`` per run, shape ``(N, 1)``.
    """

    @abstractmethod
    def sum(self, transform: Callable[[Tensor], Tensor]) -> Tensor: ...

    @abstractmethod
    def size(self) -> Tensor: ...

    def accumulate(self, out: Tensor, transform: Callable[[Tensor], Tensor],
                   alpha: float = 1.0) -> Tensor:
        """``out += alpha · sum(transform)`` in place (runners may fuse this); returns out."""
        return out.add_(self.sum(transform), alpha=alpha)


class Algorithm(ABC):
    """One step of a batched private optimiser.

    ``state`` is a dict of tensors whose leading dimension is the run index (``theta`` of
    shape ``(N, d)`` always present; an error-feedback method keeps its memory beside it).
    ``noise(std=1.0)`` returns an N(0, std²) tensor shaped like θ, drawn from the chunk's
    ``torch.Generator`` — the only source of randomness an algorithm may use.  It lives in a
    small ring of pre-allocated buffers: the algorithm may modify it in place, and it is
    valid until the end of the current step (at most 4 calls per step).  ``step`` may update
    the tensors of ``state`` in place and must return the new state.
    """

    name: ClassVar[str]
    summary: ClassVar[str]
    clips: ClassVar[bool] = True
    projects: ClassVar[bool] = False

    def init_state(self, theta0: Tensor, hp: Hyper) -> dict[str, Tensor]:
        return {"theta": theta0}

    @abstractmethod
    def step(self, state: dict[str, Tensor], batch: Batch, noise: Callable[[], Tensor],
             hp: Hyper) -> dict[str, Tensor]: ...

    def check(self, hp: Hyper) -> None:
        """Validate that ``hp`` fits this algorithm (raise ValueError otherwise)."""


class DPSGD_DC(Algorithm):
    """DPSGD with double clipping: gradient clipping and projection onto K (Algorithm 1)."""

    name = "dpsgd-dc"
    summary = "clip_C per example, average over b, add N(0, sigma_dp^2 I), step, project onto K"
    projects = True

    def check(self, hp):
        if hp.ball_radius is None:
            raise ValueError("dpsgd-dc needs a domain: give diameter (radius D/2) or radius")

    def step(self, state, batch, noise, hp):
        theta = _noisy_step(state["theta"], batch, lambda x: clip(x, hp.C), noise, hp)
        return {"theta": project_ball(theta, hp.ball_radius)}


class DPSGD_GC(Algorithm):
    """DPSGD with gradient clipping only (Algorithm 1 with K = R^d)."""

    name = "dpsgd-gc"
    summary = "clip_C per example, average over b, add N(0, sigma_dp^2 I), step (K = R^d)"

    def check(self, hp):
        if hp.ball_radius is not None:
            raise ValueError("dpsgd-gc has no domain; use dpsgd-dc for a diameter/radius")

    def step(self, state, batch, noise, hp):
        return {"theta": _noisy_step(state["theta"], batch, lambda x: clip(x, hp.C), noise,
                                     hp)}


class NoisySGD(Algorithm):
    """Plain noisy SGD: no clipping (C unused), optional projection when a domain is given."""

    name = "noisy-sgd"
    summary = "average raw gradients over b, add N(0, sigma_dp^2 I), step (project if domain)"
    clips = False

    def step(self, state, batch, noise, hp):
        theta = _noisy_step(state["theta"], batch, lambda x: x, noise, hp)
        if hp.ball_radius is not None:
            theta = project_ball(theta, hp.ball_radius)
        return {"theta": theta}


ALGORITHMS: dict[str, type[Algorithm]] = {
    cls.name: cls for cls in (DPSGD_GC, DPSGD_DC, NoisySGD)
}

#: modules that define further algorithms (one file each), e.g. "checks.simulate.dicesgd"
ALGORITHM_MODULES: tuple[str, ...] = ("checks.simulate.error_feedback",
                                       "checks.simulate.normalized")


def register_algorithm(cls: type[Algorithm]) -> type[Algorithm]:
    """Class decorator: make ``cls`` available under ``cls.name``."""
    if not (isinstance(cls, type) and issubclass(cls, Algorithm)):
        raise ValueError(f"algorithm must be an Algorithm subclass, got {cls!r}")
    if cls.name in ALGORITHMS and ALGORITHMS[cls.name] is not cls:
        raise ValueError(f"algorithm name {cls.name!r} is already registered")
    ALGORITHMS[cls.name] = cls
    return cls


def make_algorithm(name: str) -> Algorithm:
    for mod in ALGORITHM_MODULES:
        importlib.import_module(mod)
    if name not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of {sorted(ALGORITHMS)}, got {name!r}")
    return ALGORITHMS[name]()

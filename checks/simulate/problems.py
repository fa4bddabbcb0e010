"""Toy problems for the simulator: datasets, per-example gradients and canaries.

Every problem is a finite dataset ``D`` of ``n_base`` examples plus (optionally) one canary
``c``; the neighbouring pair of add/remove adjacency ("adding or removing only one data
point") is ``D`` (without the canary) versus
``D' = D ∪ {c}``.  The dataset size ``n`` used in the sampling rate ``q = b/n`` of
the algorithm is the size of ``D'``: ``n = n_base + 1``.

Each problem states its smoothness ``L``, strong convexity ``mu`` (``None``
when the loss is not strongly convex) and when gradient clipping is active.

All gradient functions are batched over runs: ``theta`` has shape ``(N, d)`` (N independent
runs) and per-example gradients come back with shape ``(N, k, d)``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import torch

Tensor = torch.Tensor


def _check_pos_int(name: str, value: int) -> None:
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {value!r}")


def _check_pos(name: str, value: float) -> None:
    if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")


# --------------------------------------------------------------------------- canaries
@dataclass(frozen=True)
class Canary:
    """One extra example whose membership the audit tries to infer.

    ``kind`` is ``"gradient"`` (the worst-case gradient canary: a linear loss
    ``l_c(θ) = -G⟨u, θ⟩`` with constant gradient ``-G u``, ``G = gradient_norm``; after
    clipping it contributes exactly ``-min(G, C) u`` at every θ — the sensitivity-``C``
    direction the privacy analysis allows) or ``"outlier"`` (an input-space outlier
    ``x_c = R u`` under the base problem's own loss; its gradient is clipped whenever
    ``‖∇l_{x_c}(θ)‖ > C``).  ``u = e_1`` in both cases.  The gradient canary and the
    outlier of the quadratic and logistic problems push θ towards ``+u``; for the periodic
    non-convex loss the outlier's pull is along ``±u`` depending on ``R mod 2π`` (−u for the
    default R = 10).  The audit scores ``⟨θ_T, u⟩`` and picks the side of the test on its
    calibration runs, so either sign works.
    """

    kind: str
    d: int
    gradient_norm: float = 1e6
    radius: float = 10.0

    def __post_init__(self):
        if self.kind not in ("gradient", "outlier"):
            raise ValueError(f"canary kind must be 'gradient' or 'outlier', got {self.kind!r}")
        _check_pos_int("d", self.d)
        _check_pos("gradient_norm", self.gradient_norm)
        _check_pos("radius", self.radius)

    def direction(self, device=None, dtype=torch.float64) -> Tensor:
        u = torch.zeros(self.d, device=device, dtype=dtype)
        u[0] = 1.0
        return u


# --------------------------------------------------------------------------- problems
@dataclass(frozen=True)
class Problem:
    """A toy problem: a base dataset, a per-example loss, and an optional canary.

    Subclasses implement :meth:`example_grads` (the per-example gradient of the loss at a
    batch of parameters).  ``inert=True`` marks a base dataset whose examples have zero
    loss (and zero gradient) everywhere: then only the canary moves θ, and the simulator
    never materialises the base examples (the fast path used by the audits).
    """

    name: str
    d: int
    n_base: int
    canary: Canary | None
    L: float
    mu: float | None
    clipping: str
    description: str
    X: np.ndarray | None = field(default=None, repr=False)
    y: np.ndarray | None = field(default=None, repr=False)
    inert: bool = False

    @property
    def n(self) -> int:
        """Size of ``D' = D ∪ {canary}`` (``n_base`` when there is no canary)."""
        return self.n_base + (1 if self.canary is not None else 0)

    def tensors(self, device, dtype) -> tuple[Tensor | None, Tensor | None]:
        if self.inert or self.X is None:
            return None, None
        X = torch.as_tensor(self.X, device=device, dtype=dtype)
        y = None if self.y is None else torch.as_tensor(self.y, device=device, dtype=dtype)
        return X, y

    # per-example gradient of the loss; theta (N, d), X (k, d), y (k,) -> (N, k, d)
    def example_grads(self, theta: Tensor, X: Tensor, y: Tensor | None) -> Tensor:
        raise NotImplementedError

    def canary_grad(self, theta: Tensor) -> Tensor:
        """Gradient of the canary's loss at every run's θ, shape ``(N, d)`` (unclipped)."""
        if self.canary is None:
            raise ValueError("problem has no canary")
        c = self.canary
        if c.kind == "gradient":
            u = c.direction(theta.device, theta.dtype)
            return (-c.gradient_norm * u).expand_as(theta)
        xc = (c.radius * c.direction(theta.device, theta.dtype)).unsqueeze(0)
        yc = torch.ones(1, device=theta.device, dtype=theta.dtype)
        return self.example_grads(theta, xc, yc)[:, 0, :]

    def canary_constant(self) -> bool:
        """True when the canary's gradient does not depend on θ (gradient canary)."""
        return self.canary is not None and self.canary.kind == "gradient"

    def summary(self) -> dict:
        return {"name": self.name, "d": self.d, "n_base": self.n_base, "n": self.n,
                "canary": None if self.canary is None else self.canary.kind,
                "L": self.L, "mu": self.mu, "clipping": self.clipping,
                "description": self.description}


class GradientCanaryProblem(Problem):
    """``n_base`` inert examples (``l_ξ ≡ 0``) and the worst-case gradient canary."""

    def example_grads(self, theta, X, y):
        return torch.zeros(theta.shape[0], 0 if X is None else X.shape[0], self.d,
                           device=theta.device, dtype=theta.dtype)


class QuadraticProblem(Problem):
    """``l_ξ(θ) = (L/2)‖θ − x_ξ‖²``: ``∇l_ξ = L(θ − x_ξ)``."""

    def example_grads(self, theta, X, y):
        return self.L * (theta.unsqueeze(1) - X.unsqueeze(0))


class LogisticProblem(Problem):
    """``l_ξ(θ) = log(1 + exp(−y_ξ⟨θ, x_ξ⟩))``: ``∇l_ξ = −y_ξ σ(−y_ξ⟨θ, x_ξ⟩) x_ξ``."""

    def example_grads(self, theta, X, y):
        margin = (theta @ X.T) * y.unsqueeze(0)          # (N, k)
        w = -y.unsqueeze(0) * torch.sigmoid(-margin)     # (N, k)
        return w.unsqueeze(-1) * X.unsqueeze(0)


class NonconvexProblem(Problem):
    """``l_ξ(θ) = Σ_j (1 − cos(θ_j − x_ξj))``: ``∇l_ξ = sin(θ − x_ξ)``, Hessian ``diag cos``."""

    def example_grads(self, theta, X, y):
        return torch.sin(theta.unsqueeze(1) - X.unsqueeze(0))


@dataclass(frozen=True)
class CosineAffineNoiseProblem(Problem):
    """``l_ξ(θ) = A(1 − cos((θ_1 + s)/w)) + ζ_ξ θ_1`` (``X[:, 0]`` = ζ_ξ, ``y`` unused):
    ``∇l_ξ = (G sin((θ_1 + s)/w) + ζ_ξ) e_1`` with G = A/w; f = the average is L-smooth with
    L = A/w² (so (L, L1)-smooth for every L1 ≥ 0) when Σ ζ_ξ = 0.  ``params`` = (A, w, s)."""

    params: tuple = (1.0, 1.0, 0.0)

    def example_grads(self, theta, X, y):
        A, w, s = self.params
        g = (A / w) * torch.sin((theta[:, :1] + s) / w)                    # (N, 1)
        out = torch.zeros(theta.shape[0], X.shape[0], self.d, device=theta.device,
                          dtype=theta.dtype)
        out[:, :, 0] = g + X[:, 0].unsqueeze(0)
        return out


# --------------------------------------------------------------------------- factories
def _rng(data_seed: int) -> np.random.Generator:
    if not isinstance(data_seed, (int, np.integer)) or data_seed < 0:
        raise ValueError(f"data_seed must be an integer >= 0, got {data_seed!r}")
    return np.random.default_rng(data_seed)


def _canary(kind: str | None, d: int, radius: float) -> Canary | None:
    if kind is None or kind == "none":
        return None
    return Canary(kind=kind, d=d, radius=radius)


def gradient_canary(*, d: int = 1, n: int = 100, canary: str = "gradient", data_seed: int = 0,
                    outlier_radius: float = 10.0) -> Problem:
    """Inert base data and the worst-case gradient canary (the tight audit scenario)."""
    _check_pos_int("d", d)
    _check_pos_int("n", n)
    if n < 2:
        raise ValueError(f"n must be >= 2 (n_base = n - 1 inert examples + canary), got {n}")
    if canary != "gradient":
        raise ValueError(f"canary must be 'gradient' for problem gradient-canary, got {canary!r}")
    return GradientCanaryProblem(
        name="gradient-canary", d=d, n_base=n - 1, canary=Canary("gradient", d), L=0.0,
        mu=None, inert=True,
        clipping="canary gradient has norm 1e6 >> C: always clipped to exactly C; "
                 "base examples have zero gradient (never clipped)",
        description="n-1 examples with zero loss and one linear canary l_c = -G<e1, theta>: "
                    "the worst-case sensitivity-C gradient at every step (L = 0, convex)")


def quadratic(*, d: int = 2, n: int = 100, canary: str = "outlier", data_seed: int = 0,
              L: float = 1.0, scale: float = 1.0, outlier_radius: float = 10.0) -> Problem:
    """Quadratic losses on Gaussian data: ``x_ξ ~ N(0, scale² I_d)``, L-smooth, μ = L."""
    _check_pos_int("d", d)
    _check_pos_int("n", n)
    _check_pos("L", L)
    _check_pos("scale", scale)
    c = _canary(canary, d, outlier_radius)
    n_base = n - (1 if c is not None else 0)
    X = _rng(data_seed).normal(0.0, scale, size=(n_base, d))
    return QuadraticProblem(
        name="quadratic", d=d, n_base=n_base, canary=c, L=L, mu=L, X=X,
        clipping="clipped where ||theta - x|| > C/L (far from the data, e.g. the outlier)",
        description="l(theta) = (L/2)||theta - x||^2, x ~ N(0, scale^2 I_d)")


def logistic(*, d: int = 2, n: int = 100, canary: str = "outlier", data_seed: int = 0,
             separation: float = 1.0, outlier_radius: float = 10.0) -> Problem:
    """Logistic regression on a two-Gaussian mixture: ``y = ±1``, ``x ~ N(y·separation·e_1, I)``.

    Per-example smoothness ``‖x_ξ‖²/4``; the stated ``L`` is its maximum over the dataset
    (outlier included); convex, not strongly convex (μ = None).
    """
    _check_pos_int("d", d)
    _check_pos_int("n", n)
    _check_pos("separation", separation)
    c = _canary(canary, d, outlier_radius)
    n_base = n - (1 if c is not None else 0)
    g = _rng(data_seed)
    y = g.choice([-1.0, 1.0], size=n_base)
    X = g.normal(0.0, 1.0, size=(n_base, d))
    X[:, 0] += separation * y
    sq = float(np.max(np.sum(X**2, axis=1)))
    if c is not None and c.kind == "outlier":
        sq = max(sq, outlier_radius**2)
    return LogisticProblem(
        name="logistic", d=d, n_base=n_base, canary=c, L=sq / 4.0, mu=None, X=X, y=y,
        clipping="||grad|| = sigmoid(-margin)||x|| <= ||x||: clipped when that exceeds C "
                 "(mis-classified points with large ||x||, the outlier)",
        description="logistic loss, y = +-1, x ~ N(y*separation*e1, I_d)")


def nonconvex(*, d: int = 2, n: int = 100, canary: str = "outlier", data_seed: int = 0,
              outlier_radius: float = 10.0) -> Problem:
    """A smooth non-convex loss ``Σ_j (1 − cos(θ_j − x_ξj))``, ``x ~ N(0, I_d)``: L = 1, μ = None."""
    _check_pos_int("d", d)
    _check_pos_int("n", n)
    c = _canary(canary, d, outlier_radius)
    n_base = n - (1 if c is not None else 0)
    X = _rng(data_seed).normal(0.0, 1.0, size=(n_base, d))
    return NonconvexProblem(
        name="nonconvex", d=d, n_base=n_base, canary=c, L=1.0, mu=None, X=X,
        clipping="||grad|| <= sqrt(d): never clipped when C >= sqrt(d)",
        description="l(theta) = sum_j (1 - cos(theta_j - x_j)), x ~ N(0, I_d); "
                    "Hessian diag(cos) so 1-smooth and non-convex")


def cosine_affine_noise(*, d: int = 1, n: int = 300, tau0: float = 1.0, L0: float = 0.01,
                        gap: float = 1.0, law: str = "skewed", canary: str | None = "outlier",
                        outlier_radius: float = 10.0) -> Problem:
    """The non-convex family of the ``min-grad-norm-rate`` provider
    (:mod:`checks.truth.rates_nonconvex`) in the runner's coordinates (θ_0 = 0 is the
    provider's θ_0): f(θ) = A(1 − cos((θ_1 + s)/w)), A = L0w², w = max(τ0/(2L0), √(gap/L0)),
    s = w·arccos(1 − gap/A) (so f(0) − f* = gap), records ζ of the ``law`` ("skewed":
    +τ0 ×⌊n/3⌋, −τ0/2 ×2⌊n/3⌋; "symmetric": ±τ0 ×⌊n/2⌋; the rest 0) on the n base records
    (n − 1 when there is a canary, whose record is ζ = the canary point's first
    coordinate)."""
    _check_pos_int("d", d)
    _check_pos_int("n", n)
    for nm, v in (("tau0", tau0), ("L0", L0), ("gap", gap)):
        _check_pos(nm, v)
    c = _canary(canary, d, outlier_radius)
    n = n - (1 if c is not None else 0)
    w = max(tau0 / (2 * L0), math.sqrt(gap / L0))
    A = L0 * w * w
    if law == "skewed":
        m = n // 3
        z = [tau0] * m + [-tau0 / 2] * (2 * m) + [0.0] * (n - 3 * m)
    elif law == "symmetric":
        m = n // 2
        z = [tau0] * m + [-tau0] * m + [0.0] * (n - 2 * m)
    else:
        raise ValueError(f"law must be 'skewed' or 'symmetric', got {law!r}")
    X = np.zeros((n, d))
    X[:, 0] = z
    return CosineAffineNoiseProblem(
        name="cosine-affine-noise", d=d, n_base=n, canary=c, L=L0, mu=None, X=X,
        params=(A, w, 2 * w * math.asin(math.sqrt(gap / (2 * A)))),
        clipping=f"|grad| <= {A / w + tau0:g}",
        description=f"l = A(1 - cos((theta_1 + s)/w)) + zeta theta_1, |zeta| <= {tau0:g} "
                    f"({law}), sum zeta = 0; f is {L0:g}-smooth, non-convex, f* = 0")


PROBLEMS = {
    "gradient-canary": gradient_canary,
    "quadratic": quadratic,
    "logistic": logistic,
    "nonconvex": nonconvex,
    "cosine-affine-noise": cosine_affine_noise,
}


def make_problem(name: str, **kwargs) -> Problem:
    """Build a problem by name (see :data:`PROBLEMS`)."""
    if name not in PROBLEMS:
        raise ValueError(f"problem must be one of {sorted(PROBLEMS)}, got {name!r}")
    d, n = kwargs.get("d", 1), kwargs.get("n", 100)
    if isinstance(d, int) and isinstance(n, int) and d > 0 and n > 0 and d * n > MAX_DATA:
        raise ValueError(f"d*n must be <= {MAX_DATA:g} (the dataset is held in memory), "
                         f"got d={d}, n={n}")
    if name != "gradient-canary" and isinstance(n, int) and not isinstance(n, bool) and n < 2:
        raise ValueError(f"n must be an integer >= 2 for {name!r} (D' = D plus the canary, "
                         f"D non-empty), got {n!r}")
    return PROBLEMS[name](**kwargs)


#: largest dataset (d*n numbers) make_problem builds
MAX_DATA = 10**8

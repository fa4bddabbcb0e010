"""Toy problems where the truth is computable: one-dimensional losses and the runs of
clipped noisy SGD on a pair of neighbouring datasets built from them (the scenarios that
the last-iterate accountants, :mod:`checks.truth.accountant` and
:mod:`checks.truth.accountant_fft`, evaluate).

The algorithm is :class:`theory.mechanisms.NoisySGD` (clipped noisy SGD, optionally
projected):

    θ_{t+1} = Π_K(θ_t − η((1/b) Σ_{ξ∈B_t} clip_C(∇l_ξ(θ_t)) + ζ_t)),  ζ_t ~ N(0, σ_DP²),

with Poisson sampling (each example independently with probability q = b/n), θ_0 = 0 and
the sum divided by the *nominal* batch size b.  Without a domain K = R (DPSGD-GC); with
one, K is an interval of diameter D (DPSGD-DC).  We release θ_T after T updates.

Neighbouring datasets: D' = D ∪ {canary}.  Both orders are computed by the accountants:
``forward = D_α(θ_T(D') ‖ θ_T(D))`` ("add"), ``backward = D_α(θ_T(D) ‖ θ_T(D'))``
("remove").
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Callable

import numpy as np
from scipy.special import ndtri

ALGORITHMS = ("DPSGD-GC", "DPSGD-DC")
DOMAIN_CONVENTIONS = ("centered", "radius")

# --------------------------------------------------------------------------------------
# losses

@dataclass(frozen=True)
class Loss:
    """A 1-D per-example loss with its declared constants.

    ``grad`` is vectorised (numpy array in, array out).  ``L`` is the declared smoothness
    constant (sup |l''|), ``convex``/``mu`` the declared convexity and strong convexity;
    :meth:`check` verifies them numerically.  ``constant_grad`` is set for linear losses
    (the gradient does not depend on θ), which the accountant handles exactly."""

    name: str
    grad: Callable[[np.ndarray], np.ndarray]
    value: Callable[[np.ndarray], np.ndarray]
    L: float
    convex: bool
    mu: float = 0.0
    constant_grad: float | None = None

    def check(self, lo: float = -10.0, hi: float = 10.0, npts: int = 20001,
              tol: float = 1e-6) -> dict[str, object]:
        """Numerical check of the declared constants on [lo, hi]: finite differences of
        the gradient (second derivative) and of the value (first derivative)."""
        x = np.linspace(lo, hi, npts)
        g = np.asarray(self.grad(x), dtype=float) * np.ones_like(x)
        v = np.asarray(self.value(x), dtype=float) * np.ones_like(x)
        h = x[1] - x[0]
        hess = np.diff(g) / h
        dv = np.gradient(v, h)
        grad_ok = float(np.max(np.abs(dv[2:-2] - g[2:-2])) if npts > 4 else 0.0)
        out = {
            "L_numeric": float(np.max(np.abs(hess))),
            "min_curvature": float(np.min(hess)),
            "grad_matches_value": grad_ok < 1e-3 * (1 + float(np.max(np.abs(g)))),
        }
        out["L_ok"] = out["L_numeric"] <= self.L * (1 + tol) + tol
        out["convex_ok"] = (not self.convex) or out["min_curvature"] >= -tol
        out["mu_ok"] = self.mu <= 0 or out["min_curvature"] >= self.mu * (1 - tol) - tol
        out["nonconvex_witnessed"] = out["min_curvature"] < -tol
        return out


def linear_loss(slope: float, name: str | None = None) -> Loss:
    """``l(θ) = slope·θ``: gradient ``slope`` everywhere; L-smooth for every L > 0
    (declared L = 0 here: the smallest constant), convex, not strongly convex."""
    s = float(slope)
    return Loss(name or f"linear({s:g})", lambda x: np.full_like(np.asarray(x, float), s),
                lambda x: s * np.asarray(x, float), L=0.0, convex=True, mu=0.0,
                constant_grad=s)


def zero_loss() -> Loss:
    return replace(linear_loss(0.0, "zero"), name="zero")


def quadratic_loss(a: float, center: float) -> Loss:
    """``l(θ) = (a/2)(θ − center)²``: L = μ = a, convex."""
    a, c = float(a), float(center)
    return Loss(f"quadratic(a={a:g}, c={c:g})", lambda x: a * (np.asarray(x, float) - c),
                lambda x: 0.5 * a * (np.asarray(x, float) - c) ** 2, L=a, convex=True, mu=a)


def cosine_loss(a: float, omega: float = 1.0, center: float = 0.0) -> Loss:
    """``l(θ) = (a/ω²)(1 − cos(ω(θ − center)))``: smooth (L = a), non-convex."""
    a, w, c = float(a), float(omega), float(center)
    return Loss(f"cosine(a={a:g}, w={w:g}, c={c:g})",
                lambda x: (a / w) * np.sin(w * (np.asarray(x, float) - c)),
                lambda x: (a / w**2) * (1 - np.cos(w * (np.asarray(x, float) - c))),
                L=a, convex=False, mu=0.0)


# --------------------------------------------------------------------------------------
# scenarios

def domain_interval(D: float, convention: str = "centered") -> tuple[float, float]:
    """The 1-D domain K for DPSGD-DC.  ``"centered"``: K = [−D/2, D/2] (diameter D, as the
    paper's D); ``"radius"``: K = [−D, D] (D read as a radius R, diameter 2D)."""
    D = float(D)
    if not (D > 0) or math.isinf(D):
        raise ValueError(f"D must be > 0 and finite, got {D!r}")
    if convention == "centered":
        return (-D / 2, D / 2)
    if convention == "radius":
        return (-D, D)
    raise ValueError(f"convention must be one of {DOMAIN_CONVENTIONS}, got {convention!r}")


@dataclass(frozen=True)
class Scenario:
    """A run of Algorithm 1 on a pair of neighbouring 1-D datasets.

    ``groups``: the examples of D as (count, loss) groups of identical examples;
    D' = D ∪ {canary}.  ``q`` = b/n is the Poisson sampling rate; the gradient sum is
    divided by the nominal ``b``.  ``domain`` is None for DPSGD-GC and an interval for
    DPSGD-DC."""

    name: str
    description: str
    algorithm: str
    canary: Loss
    groups: tuple[tuple[int, Loss], ...]
    n: int
    b: int
    eta: float
    C: float
    sigma_dp: float
    T: int
    domain: tuple[float, float] | None = None
    theta0: float = 0.0
    assumptions: tuple[str, ...] = ()

    def __post_init__(self):
        if self.algorithm not in ALGORITHMS:
            raise ValueError(f"algorithm must be one of {ALGORITHMS}, got {self.algorithm!r}")
        for nm in ("n", "b", "T"):
            v = getattr(self, nm)
            if not isinstance(v, (int, np.integer)) or v < 1:
                raise ValueError(f"{nm} must be an integer >= 1, got {v!r}")
        if self.b > self.n:
            raise ValueError(f"b must be <= n, got b={self.b}, n={self.n}")
        for nm in ("eta", "C", "sigma_dp"):
            v = getattr(self, nm)
            if not (float(v) > 0) or math.isinf(float(v)):
                raise ValueError(f"{nm} must be > 0 and finite, got {v!r}")
        if (self.algorithm == "DPSGD-DC") != (self.domain is not None):
            raise ValueError("DPSGD-DC needs a domain interval and DPSGD-GC none, got "
                             f"algorithm={self.algorithm!r}, domain={self.domain!r}")
        if self.domain is not None:
            lo, hi = self.domain
            if not (lo < hi) or not (lo <= self.theta0 <= hi):
                raise ValueError(f"domain must be an interval containing theta0, got "
                                 f"{self.domain!r} and theta0={self.theta0!r}")
        if sum(c for c, _ in self.groups) > self.n:
            raise ValueError("the groups hold more examples than n")

    @property
    def q(self) -> float:
        return self.b / self.n

    @property
    def L(self) -> float:
        """The smallest declared smoothness constant over all losses."""
        return max([self.canary.L] + [l.L for _, l in self.groups])

    @property
    def D(self) -> float | None:
        return None if self.domain is None else self.domain[1] - self.domain[0]

    def losses(self) -> list[Loss]:
        return [self.canary] + [l for _, l in self.groups]

    def check_assumptions(self) -> dict[str, object]:
        """Declared vs numerically checked assumptions (L-smooth, convexity,
        μ-strong convexity) over the domain (or [−10, 10])."""
        lo, hi = self.domain if self.domain else (-10.0, 10.0)
        checks = [l.check(lo, hi) for l in self.losses()]
        return {
            "L": self.L,
            "L_ok": all(c["L_ok"] for c in checks),
            "L_numeric": max(c["L_numeric"] for c in checks),
            "convex": all(l.convex for l in self.losses()),
            "convex_ok": all(c["convex_ok"] for c in checks),
            "mu": min(l.mu for l in self.losses()),
            "mu_ok": all(c["mu_ok"] for c in checks),
            "grad_ok": all(c["grad_matches_value"] for c in checks),
            "nonconvex_witnessed": any(c["nonconvex_witnessed"] for c in checks),
        }

    def with_(self, **kw) -> "Scenario":
        return replace(self, **kw)


# --------------------------------------------------------------------------------------
# the named library

def _common(kw, defaults):
    out = dict(defaults)
    out.update({k: v for k, v in kw.items() if v is not None})
    return out


def linear_canary(*, n=100, b=10, eta=0.1, C=1.0, sigma_dp=1.0, T=10, D=None,
                  convention="centered", theta0=0.0) -> Scenario:
    """The classical worst case: a linear canary ``l(θ) = −Cθ`` (gradient of norm C,
    never clipped below C) against zero-loss data.  It is L-smooth for every L > 0,
    convex, not strongly convex.  With ``D`` set: DPSGD-DC on ``domain_interval(D)``."""
    algo = "DPSGD-GC" if D is None else "DPSGD-DC"
    dom = None if D is None else domain_interval(D, convention)
    return Scenario("linear-canary" if D is None else "linear-canary-dc",
                    "linear canary l(θ)=−Cθ against zero-loss data", algo,
                    linear_loss(-float(C), "canary: −Cθ"), ((n - 1, zero_loss()),), n, b,
                    float(eta), float(C), float(sigma_dp), int(T), dom, float(theta0),
                    ("L-smooth for every L>0", "convex", "not strongly convex"))


def quadratic_gaussian(*, n=100, b=10, eta=0.1, C=1.0, sigma_dp=1.0, T=10, D=None,
                       a=1.0, canary_center=10.0, groups=2, convention="centered",
                       theta0=0.0) -> Scenario:
    """Quadratic losses ``(a/2)(θ − ξ)²`` with ξ at ``groups`` equal-mass quantiles of
    N(0, 1) (the Gaussian data, quantised so that exchangeability keeps the cost
    polynomial); the canary is a far-away quadratic (centre ``canary_center``) whose
    gradient is clipped.  L = μ = a, convex."""
    k = int(groups)
    if k < 1:
        raise ValueError(f"groups must be >= 1, got {groups!r}")
    centers = ndtri((np.arange(k) + 0.5) / k)
    counts = [(n - 1) // k + (1 if i < (n - 1) % k else 0) for i in range(k)]
    grp = tuple((c, quadratic_loss(a, float(x))) for c, x in zip(counts, centers) if c > 0)
    algo = "DPSGD-GC" if D is None else "DPSGD-DC"
    dom = None if D is None else domain_interval(D, convention)
    return Scenario("quadratic-gaussian", "quadratic losses on quantised N(0,1) data, "
                    "far quadratic canary", algo, quadratic_loss(a, canary_center), grp, n, b,
                    float(eta), float(C), float(sigma_dp), int(T), dom, float(theta0),
                    (f"L-smooth with L={a:g}", "convex", f"strongly convex with mu={a:g}"))


def nonconvex_cosine(*, n=100, b=10, eta=0.1, C=1.0, sigma_dp=1.0, T=10, D=4.0, a=1.0,
                     convention="centered", theta0=0.0) -> Scenario:
    """A smooth non-convex problem on a bounded domain: data ``(a)(1 − cos θ)`` (L = a,
    non-convex), linear canary of slope −C.  DPSGD-DC by default (set D=None for GC)."""
    algo = "DPSGD-GC" if D is None else "DPSGD-DC"
    dom = None if D is None else domain_interval(D, convention)
    return Scenario("nonconvex-cosine", "cosine (non-convex, smooth) data, linear canary",
                    algo, linear_loss(-float(C), "canary: −Cθ"), ((n - 1, cosine_loss(a)),),
                    n, b, float(eta), float(C), float(sigma_dp), int(T), dom, float(theta0),
                    (f"L-smooth with L={a:g}", "non-convex"))


SCENARIOS: dict[str, Callable[..., Scenario]] = {
    "linear-canary": linear_canary,
    "linear-canary-dc": lambda **kw: linear_canary(**_common(kw, {"D": 2.0})),
    "quadratic-gaussian": quadratic_gaussian,
    "bounded-quadratic": lambda **kw: quadratic_gaussian(**_common(kw, {"D": 4.0})),
    "nonconvex-cosine": nonconvex_cosine,
}


def make(name: str, **params) -> Scenario:
    """A named scenario with parameters (n, b, eta, C, sigma_dp, T, D, ...)."""
    try:
        fn = SCENARIOS[name]
    except KeyError:
        raise ValueError(f"scenario must be one of {sorted(SCENARIOS)}, got {name!r}") from None
    return fn(**params)

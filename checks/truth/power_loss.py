"""The power-loss family: convex, non-negative, Hölder-smooth losses whose population risk is
known exactly — the problems on which the generic rate provider
(:mod:`checks.truth.rates_convex`) and the argument-stability oracle
(:mod:`checks.oracles.stability`) run SGD.

    l(w, z) = c ‖w − z‖^{1+ν}/(1+ν) + k,   w, z ∈ R^d,  ν ∈ [0, 1],  c > 0,  k ≥ 0.

**Membership.**  l is convex (a norm to a power ≥ 1), non-negative, and ν-Hölder smooth
with constant c·2^{1−ν}: its (sub)gradient c‖x‖^{ν−1}x (0 at x = 0 when ν = 0) satisfies
‖∇(x) − ∇(y)‖ ≤ c 2^{1−ν} ‖x − y‖^ν (the power of a Euclidean norm; ν = 1 is c-smooth,
ν = 0 has subgradients in the ball of radius c, differences ≤ 2c).  The bound is
measured in tests/truth/test_power_loss.py, sharp at y = −x.  So the family is a member
of ``Holder(ν, L)`` whenever c ≤ L/2^{1−ν}; the provider uses c = L/2^{1−ν}.

**Data.**  Z = {μ ± s e_j : j = 1, …, d} (2d points), D uniform on Z, μ = r e_1.  With
x = w − μ the population risk is F(w) = c/(1+ν) · (1/2d) Σ_j Σ_± ‖x ∓ s e_j‖^{1+ν} + k;
it is convex and even in x (the set {±s e_j} is symmetric), so w* = μ is a minimiser:
‖w*‖ = r, F* = c s^{1+ν}/(1+ν) + k, and F_S(w*) = F* for every sample S (every point is
at distance s from μ).  The constants of analyses on unbounded domains are
M = sup_z ‖∂l(0, z)‖ = c (r + s)^ν and M0 = sup_z l(0, z) = c (r + s)^{1+ν}/(1+ν) + k.

**A lower bound on the risk near the origin.**  F is invariant under the sign flips of
coordinates 2, …, d (they permute Z), so by convexity min_{‖w‖≤ρ} F(w) is attained on
the e_1 axis, where F is convex with minimum at r: for ρ ≤ r it is F(ρ e_1)
(:meth:`PowerLoss.risk_floor`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import mpmath
import numpy as np


@dataclass(frozen=True)
class PowerLoss:
    """One member of the family (floats)."""

    nu: float
    c: float
    r: float
    s: float
    d: int
    k: float = 0.0

    def __post_init__(self):
        if not (0.0 <= self.nu <= 1.0):
            raise ValueError(f"nu must be in [0, 1], got {self.nu!r}")
        for name in ("c", "s"):
            v = getattr(self, name)
            if not (v > 0 and math.isfinite(v)):
                raise ValueError(f"{name} must be a positive finite number, got {v!r}")
        if not (self.r >= 0 and math.isfinite(self.r)):
            raise ValueError(f"r must be a finite number >= 0, got {self.r!r}")
        if not (isinstance(self.d, int) and self.d >= 1):
            raise ValueError(f"d must be an integer >= 1, got {self.d!r}")
        if not (self.k >= 0 and math.isfinite(self.k)):
            raise ValueError(f"k must be a finite number >= 0, got {self.k!r}")

    # ---- constants of the class
    @property
    def holder_constant(self) -> float:
        """The ν-Hölder constant c·2^{1−ν} of the gradient."""
        return self.c * 2.0 ** (1.0 - self.nu)

    @property
    def M(self) -> float:
        """sup_z ‖∂l(0, z)‖."""
        return self.c * (self.r + self.s) ** self.nu

    @property
    def M0(self) -> float:
        """sup_z l(0, z)."""
        return self.c * (self.r + self.s) ** (1 + self.nu) / (1 + self.nu) + self.k

    @property
    def f_star(self) -> float:
        return self.c * self.s ** (1 + self.nu) / (1 + self.nu) + self.k

    def grad_bound(self, rho: float) -> float:
        """sup {‖∂l(w, z)‖ : ‖w‖ ≤ rho, z ∈ Z} ≤ c (rho + r + s)^ν."""
        return self.c * (rho + self.r + self.s) ** self.nu

    # ---- data and gradients (numpy, vectorised over rows)
    def points(self) -> np.ndarray:
        """Z as a (2d, d) array: row 2j is μ + s e_j, row 2j+1 is μ − s e_j."""
        z = np.zeros((2 * self.d, self.d))
        z[:, 0] = self.r
        for j in range(self.d):
            z[2 * j, j] += self.s
            z[2 * j + 1, j] -= self.s
        return z

    def grad(self, x: np.ndarray) -> np.ndarray:
        """∂l at w with x = w − z (rows): c‖x‖^{ν−1}x, 0 where x = 0."""
        nrm = np.linalg.norm(x, axis=-1, keepdims=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            scale = np.where(nrm > 0, self.c * nrm ** (self.nu - 1.0), 0.0)
        return scale * x

    def _pair_terms(self, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(‖x − s e_j‖^{1+ν}, ‖x + s e_j‖^{1+ν}) for every row and j, x = w − μ."""
        x = np.array(w, dtype=float, copy=True)
        x[..., 0] -= self.r
        sq = np.sum(x * x, axis=-1, keepdims=True) + self.s ** 2
        p = 0.5 * (1 + self.nu)
        minus = np.maximum(sq - 2 * self.s * x, 0.0) ** p     # z = μ + s e_j
        plus = np.maximum(sq + 2 * self.s * x, 0.0) ** p      # z = μ − s e_j
        return minus, plus

    def risk(self, w: np.ndarray) -> np.ndarray:
        """F(w) for every row of w."""
        minus, plus = self._pair_terms(w)
        return (self.c / (1 + self.nu) * (minus + plus).sum(axis=-1) / (2 * self.d)
                + self.k)

    def empirical_risk(self, w: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """F_S(w) for every row, ``counts[row, i]`` = multiplicity of point i of Z in S."""
        minus, plus = self._pair_terms(w)
        n = counts.sum(axis=-1)
        terms = minus * counts[..., 0::2] + plus * counts[..., 1::2]
        return self.c / (1 + self.nu) * terms.sum(axis=-1) / n + self.k

    def risk_mp(self, w, dps: int = 50) -> mpmath.mpf:
        """F(w) at ``dps`` digits for one point (a sequence of d numbers)."""
        with mpmath.workdps(dps):
            c, nu, s, r = (mpmath.mpf(self.c), mpmath.mpf(self.nu), mpmath.mpf(self.s),
                           mpmath.mpf(self.r))
            x = [mpmath.mpf(float(v)) for v in w]
            x[0] -= r
            sq = sum(v * v for v in x) + s * s
            p = (1 + nu) / 2
            tot = mpmath.mpf(0)
            for j in range(self.d):
                tot += max(sq - 2 * s * x[j], 0) ** p + max(sq + 2 * s * x[j], 0) ** p
            return c / (1 + nu) * tot / (2 * self.d) + mpmath.mpf(self.k)

    def risk_floor(self, rho, dps: int = 50) -> mpmath.mpf:
        """min_{‖w‖ ≤ rho} F(w) − F* at ``dps`` digits: F(rho e_1) − F* for rho < r, else 0."""
        with mpmath.workdps(dps):
            rho = mpmath.mpf(rho)
            if rho >= self.r:
                return mpmath.mpf(0)
            w = [rho] + [mpmath.mpf(0)] * (self.d - 1)
            fs = (mpmath.mpf(self.c) * mpmath.mpf(self.s) ** (1 + mpmath.mpf(self.nu))
                  / (1 + mpmath.mpf(self.nu)) + mpmath.mpf(self.k))
            return self.risk_mp(w, dps) - fs


def family_for(nu: float, L: float, r: float, d: int, s: float | None = None) -> PowerLoss:
    """The member used by the checks: c = L/2^{1−ν} (the largest Hölder-admissible
    constant), data spread s = r (or ``s``), ‖w*‖ = r, k = 0."""
    if not (L > 0 and math.isfinite(L)):
        raise ValueError(f"L must be a positive finite number, got {L!r}")
    if not (r > 0 and math.isfinite(r)):
        raise ValueError(f"r must be a positive finite number, got {r!r}")
    return PowerLoss(nu=float(nu), c=L / 2.0 ** (1.0 - float(nu)), r=float(r),
                     s=float(r if s is None else s), d=int(d))

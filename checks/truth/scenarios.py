"""Toy problems where the truth is computable, and the exact last-iterate accountant.

The algorithm is :class:`theory.mechanisms.NoisySGD` (clipped noisy SGD, optionally
projected):

    θ_{t+1} = Π_K(θ_t − η((1/b) Σ_{ξ∈B_t} clip_C(∇l_ξ(θ_t)) + ζ_t)),  ζ_t ~ N(0, σ_DP²),

with Poisson sampling (each example independently with probability q = b/n), θ_0 = 0 and
the sum divided by the *nominal* batch size b.  DPSGD-GC: K = R; DPSGD-DC: K an interval
of diameter D.  We release θ_T after T updates.

Neighbouring datasets: D' = D ∪ {canary}.  Both
orders are computed: ``forward = D_α(θ_T(D') ‖ θ_T(D))`` ("add"), ``backward =
D_α(θ_T(D) ‖ θ_T(D'))`` ("remove").

The accountant (:func:`last_iterate_rdp` = :func:`certified_rdp`, and
:func:`last_iterate_curve` = :func:`certified_curve`) returns a value only with an error
it can stand behind: the exact Gaussian mixture for the unprojected linear canary
(:func:`linear_canary_exact`); for DPSGD-DC a certified bracket [lower, upper] of D_α on
K (G cells + the two end atoms; lower and upper mass vectors propagated by dense
log-sum-exps, round-off included; :func:`certified_bracket`), returned as its midpoint ±
half-width (see :func:`certified_rdp` for the proof and what is assumed); an
:class:`AccountantError` otherwise — also where the bracket is too wide at the
affordable G.  The
batch is a mixture over the *number* of examples drawn from each group of identical
examples (exchangeability; binomial weights truncated at tail mass 1e-12).

:func:`fft_rdp` / :func:`fft_curve` (the FFT grid: push-forward on a window, FFT
convolution, cells below 1e-13 of the largest mass dropped) are fast but UNCERTIFIED —
they under-report at large orders (issue 16) — and are kept for benchmarks and for
exploring scenarios the certified path refuses.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from itertools import product
from typing import Callable

import numpy as np
from scipy.fft import irfft, next_fast_len, rfft
from scipy.special import gammaln, log_ndtr, logsumexp, ndtr, ndtri

from checks.truth.divergences import BothOrders, Mixture1D, _check_alpha, mixture_rdp_1d
from checks.truth.divergences import lse as _lse

ALGORITHMS = ("DPSGD-GC", "DPSGD-DC")
DOMAIN_CONVENTIONS = ("centered", "radius")
_BINOM_TAIL = 1e-12
#: threads for the FFTs of the accountant
_WORKERS = 2


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


# --------------------------------------------------------------------------------------
# closed form: linear canary without projection

#: largest T accepted by the closed form (Binomial(T, q) support) and the grid accountant
MAX_T_CLOSED_FORM = 10**7
MAX_T_GRID = 10**5
MAX_G = 2**22


def _check_T(T, cap: int) -> int:
    """``T`` as an int in [1, cap] (a clear error instead of a huge allocation or hang)."""
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or not 1 <= T <= cap:
        raise ValueError(f"T must be an integer in [1, {cap}], got {T!r}")
    return int(T)


def linear_canary_mixtures(s: Scenario, T: int | None = None) -> tuple[Mixture1D, Mixture1D]:
    """Exact laws of θ_T for DPSGD-GC when every loss is linear: θ_T = θ_0 − Tηḡ_data −
    (η/b)·g_c·K − η Σζ with K ~ Binomial(T, q) on D' (a Gaussian mixture), K = 0 on D.
    Zero-loss data only (the data gradients are then 0)."""
    if s.algorithm != "DPSGD-GC" or s.canary.constant_grad is None or any(
            l.constant_grad != 0.0 for _, l in s.groups):
        raise ValueError("closed form needs DPSGD-GC with a linear canary and zero-loss data")
    T = s.T if T is None else _check_T(T, MAX_T_CLOSED_FORM)
    g = float(np.clip(s.canary.constant_grad, -s.C, s.C))
    step = -s.eta * g / s.b
    sd = s.eta * s.sigma_dp * math.sqrt(T)
    k = np.arange(T + 1)
    w = _binom_pmf(k, T, s.q)
    keep = w > 0
    with_ = Mixture1D(tuple(w[keep] / w[keep].sum()), tuple(s.theta0 + step * k[keep]), (sd,))
    return with_, Mixture1D.gaussian(s.theta0, sd)


def linear_canary_exact(s: Scenario, alpha, T: int | None = None, *,
                        max_cost: float = 2e8) -> BothOrders:
    """``(D_α(θ_T(D')‖θ_T(D)), D_α(θ_T(D)‖θ_T(D')))`` in closed form (quadrature of the
    Gaussian mixtures); see :func:`linear_canary_mixtures`."""
    P, Q = linear_canary_mixtures(s, T)
    return mixture_rdp_1d(P, Q, alpha, max_cost=max_cost)


# --------------------------------------------------------------------------------------
# the grid accountant

def _binom_pmf(k: np.ndarray, n: int, q: float) -> np.ndarray:
    k = np.asarray(k, dtype=float)
    if q >= 1.0:
        return (k == n).astype(float)
    logp = (gammaln(n + 1) - gammaln(k + 1) - gammaln(n - k + 1) + k * math.log(q)
            + (n - k) * math.log1p(-q))
    return np.exp(logp)


def _binom_support(count: int, q: float) -> tuple[np.ndarray, np.ndarray]:
    """Counts k of Binomial(count, q) with their pmf, tails below 1e-12 dropped."""
    if count == 0:
        return np.array([0]), np.array([1.0])
    k = np.arange(count + 1)
    w = _binom_pmf(k, count, q)
    keep = w >= _BINOM_TAIL * w.max()
    # keep the central block (the pmf is unimodal)
    idx = np.nonzero(keep)[0]
    k = np.arange(idx.min(), idx.max() + 1)
    return k, w[k]


def _components(s: Scenario, with_canary: bool):
    """(weights, counts-tuples) of the batch-composition mixture."""
    supports = [_binom_support(c, s.q) for c, _ in s.groups]
    canary = [(0, 1 - s.q), (1, s.q)] if with_canary else [(0, 1.0)]
    comps = []
    for combo in product(*[list(zip(k, w)) for k, w in supports]):
        wg = float(np.prod([w for _, w in combo])) if combo else 1.0
        for c, wc in canary:
            if wg * wc > 0:
                comps.append((wg * wc, tuple(int(k) for k, _ in combo), c))
    return comps


def _merged(s: Scenario, with_canary: bool, x: np.ndarray):
    """Components merged by identical drift on ``x`` (e.g. every count of a zero-loss
    group gives the same step): list of (weight, drift array on x, counts, c)."""
    acc: dict[bytes, list] = {}
    for w, k, c in _components(s, with_canary):
        dr = _drift(s, k, c, x)
        key = np.round(dr, 13).tobytes()
        if key in acc:
            acc[key][0] += w
        else:
            acc[key] = [w, dr, k, c]
    return [tuple(v) for v in acc.values()]


def _drift(s: Scenario, counts, c, x):
    """−(η/b)(Σ_g k_g clip_C(∇l_g(x)) + c·clip_C(∇l_canary(x)))."""
    tot = np.zeros_like(x)
    for k, (_, loss) in zip(counts, s.groups):
        if k:
            tot = tot + k * np.clip(loss.grad(x), -s.C, s.C)
    if c:
        tot = tot + np.clip(s.canary.grad(x), -s.C, s.C)
    return -(s.eta / s.b) * tot


def _gauss_cells(edges_lo: float, h: float, ncell: int, mean: float, sd: float) -> np.ndarray:
    """Exact masses of N(mean, sd²) on cells [edges_lo + i h, edges_lo + (i+1) h)."""
    e = (edges_lo + h * np.arange(ncell + 1) - mean) / sd
    lower = ndtr(e)
    upper = ndtr(-e)
    return np.where(e[1:] <= 0, lower[1:] - lower[:-1], upper[:-1] - upper[1:])


@dataclass
class Law:
    """A discrete 1-D law: cell masses on a uniform grid plus point masses (atoms)."""

    lo: float
    h: float
    cells: np.ndarray
    atoms: list[tuple[float, float]] = field(default_factory=list)
    lost: float = 0.0

    @property
    def centers(self) -> np.ndarray:
        return self.lo + self.h * (np.arange(len(self.cells)) + 0.5)

    def total(self) -> float:
        return float(self.cells.sum() + sum(m for _, m in self.atoms))

    def mean(self) -> float:
        return float((self.cells * self.centers).sum() + sum(p * m for p, m in self.atoms))


def _grid_for(s: Scenario, G: int):
    """(lo, h, G_total, margin): the working grid.  DC: the domain split into G cells plus
    a margin each side for the pre-projection mass.  GC: a range covering the support."""
    tau = s.eta * s.sigma_dp
    xs = (np.linspace(*s.domain, 257) if s.domain is not None
          else s.theta0 + np.linspace(-50.0, 50.0, 1001))
    max_shift = max(float(np.max(np.abs(dr))) for _, dr, _, _ in _merged(s, True, xs))
    if s.domain is not None:
        lo, hi = s.domain
        h = (hi - lo) / G
        margin = int(math.ceil((max_shift + 12 * tau) / h)) + 1
        return lo - margin * h, h, G + 2 * margin, margin
    half = s.T * max_shift + 12 * tau * math.sqrt(s.T) + 1e-12
    lo = s.theta0 - half
    h = 2 * half / G
    return lo, h, G, 0


def evolve(s: Scenario, with_canary: bool, G: int = 2048, T: int | None = None) -> Law:
    """The law of θ_T (on D' if ``with_canary`` else on D) on a grid of ``G`` cells."""
    law = None
    for _, law in evolve_iter(s, with_canary, G, T):
        pass
    return law


def evolve_iter(s: Scenario, with_canary: bool, G: int = 2048, T: int | None = None):
    """Yield ``(t, law of θ_t)`` for t = 1..T (one pass)."""
    T = s.T if T is None else int(T)
    if G < 16:
        raise ValueError(f"G must be >= 16, got {G!r}")
    lo, h, Gt, margin = _grid_for(s, G)
    tau = s.eta * s.sigma_dp
    linear = all(l.constant_grad is not None for l in s.losses())
    J = int(math.ceil(13 * tau / h))
    law = Law(lo, h, np.zeros(Gt), [(s.theta0, 1.0)])
    x = law.centers
    if linear:
        comps = _merged(s, with_canary, np.zeros(1))
        shifts = np.array([float(dr[0]) for _, dr, _, _ in comps])
        weights = np.array([w for w, _, _, _ in comps])
        Js = J + int(math.ceil(np.max(np.abs(shifts)) / h)) + 1
        kern = np.zeros(2 * Js + 1)
        for w, sh in zip(weights, shifts):
            kern += w * _gauss_cells(-(Js + 0.5) * h, h, 2 * Js + 1, sh, tau)
        nfft = next_fast_len(Gt + 2 * Js)
        khat = rfft(kern, nfft)
    else:
        Js = J
        kern = _gauss_cells(-(J + 0.5) * h, h, 2 * J + 1, 0.0, tau)
        nfft = next_fast_len(Gt + 2 * J)
        khat = rfft(kern, nfft)
        comps = _merged(s, with_canary, x)
        drifts = [(w, dr) for w, dr, _, _ in comps]
    for t in range(1, T + 1):
        if linear:
            conv = irfft(rfft(law.cells, nfft, workers=_WORKERS) * khat, nfft, workers=_WORKERS)[: Gt + 2 * Js]
            new = conv[Js: Js + Gt]
            lost_lo, lost_hi = float(conv[:Js].sum()), float(conv[Js + Gt:].sum())
            for p, m in law.atoms:
                if m <= 0:
                    continue
                for w, sh in zip(weights, shifts):
                    new = new + w * m * _gauss_cells(lo, h, Gt, p + sh, tau)
        else:
            pushed = np.zeros(Gt)
            lost_lo = lost_hi = 0.0
            for w, dr in drifts:
                y = (x + dr - lo) / h - 0.5
                i0 = np.floor(y).astype(np.int64)
                fr = y - i0
                for idx, ww in ((i0, (1 - fr)), (i0 + 1, fr)):
                    ok = (idx >= 0) & (idx < Gt)
                    pushed += w * np.bincount(idx[ok], (law.cells * ww)[ok], minlength=Gt)
                    lost_lo += w * float((law.cells * ww)[idx < 0].sum())
                    lost_hi += w * float((law.cells * ww)[idx >= Gt].sum())
            conv = irfft(rfft(pushed, nfft, workers=_WORKERS) * khat, nfft, workers=_WORKERS)[: Gt + 2 * J]
            new = conv[J: J + Gt]
            lost_lo += float(conv[:J].sum())
            lost_hi += float(conv[J + Gt:].sum())
            for p, m in law.atoms:
                if m <= 0:
                    continue
                for w, _, k, c in comps:
                    dp = float(_drift(s, k, c, np.array([p]))[0])
                    new = new + w * m * _gauss_cells(lo, h, Gt, p + dp, tau)
        new = np.maximum(new, 0.0)
        atoms: list[tuple[float, float]] = []
        if s.domain is not None:
            # everything below/above K (inside the margin or beyond it) projects to its ends
            a_lo = float(new[:margin].sum()) + max(lost_lo, 0.0)
            a_hi = float(new[Gt - margin:].sum()) + max(lost_hi, 0.0)
            new[:margin] = 0.0
            new[Gt - margin:] = 0.0
            atoms = [(s.domain[0], a_lo), (s.domain[1], a_hi)]
            lost_lo = lost_hi = 0.0
        law = Law(lo, h, new, atoms, law.lost + max(lost_lo, 0.0) + max(lost_hi, 0.0))
        yield t, law


def discrete_rdp(P: Law, Q: Law, alpha: float, floor: float = 1e-13) -> tuple[BothOrders, float]:
    """D_α between two laws on the same grid (cells and atoms), both orders.  Cells where
    either mass is below ``floor``·max (FFT round-off level) are left out; returns the
    divergences and the largest left-out mass."""
    if P.cells.shape != Q.cells.shape or P.lo != Q.lo:
        raise ValueError("laws must live on the same grid")
    thr = floor * max(P.cells.max(initial=0), Q.cells.max(initial=0))
    keep = (P.cells > thr) & (Q.cells > thr)
    p = list(P.cells[keep]) + [m for _, m in P.atoms]
    q = list(Q.cells[keep]) + [m for _, m in Q.atoms]
    p, q = np.asarray(p), np.asarray(q)
    ok = (p > 0) & (q > 0)
    left = max(float(P.cells[~keep].sum()), float(Q.cells[~keep].sum()))
    if np.any((p > 0) & (q <= 0)) or np.any((q > 0) & (p <= 0)):
        pass  # point masses present on one side only are accounted as left out
    left = max(left, float(p[~ok].sum()), float(q[~ok].sum()))
    lp, lq = np.log(p[ok]), np.log(q[ok])
    fwd = float(logsumexp(alpha * lp + (1 - alpha) * lq)) / (alpha - 1)
    bwd = float(logsumexp(alpha * lq + (1 - alpha) * lp)) / (alpha - 1)
    return BothOrders(fwd, bwd), left


@dataclass
class GridResult:
    """Last-iterate divergence, both orders: certified_rdp/curve (or the uncertified fft_*)."""

    scenario: str
    alpha: float
    T: int
    forward: float          # D_α(θ_T(D') ‖ θ_T(D))  ("add")
    backward: float         # D_α(θ_T(D) ‖ θ_T(D'))  ("remove")
    error: float            # certified_*: bound on |value − truth|; fft_*: refinement or NaN
    grid: int
    lost_mass: float
    left_out_mass: float
    seconds: float
    refused: str = ""       # certified_curve(strict=False): why this row has no value

    @property
    def max(self) -> float:
        return max(self.forward, self.backward)

    def to_json(self) -> dict:
        d = dict(self.__dict__)
        d["max"] = self.max
        return d


def fft_rdp(s: Scenario, alpha, *, G: int = 2048, T: int | None = None,
            refine: bool = True) -> GridResult:
    """UNCERTIFIED FFT-grid estimate of the last-iterate Rényi divergence, both orders —
    kept for speed comparisons (``benchmarks/bench_divergences.py``) and for exploring
    non-linear unprojected scenarios, never for a value compared with a bound.  FFT
    round-off and the 1e-13 floor of :func:`discrete_rdp` erase the far tail, so at large
    orders the value can be far below the truth while ``error`` (a G vs G/2 refinement)
    stays tiny (issue 16: D_64 = 0.00116 reported for a true 3.32).  Use
    :func:`last_iterate_rdp` / :func:`certified_rdp`."""
    a = _check_alpha(alpha)
    t0 = time.perf_counter()
    T = _check_T(s.T if T is None else T, MAX_T_GRID)
    if isinstance(G, bool) or not isinstance(G, (int, np.integer)) or not 16 <= G <= MAX_G:
        raise ValueError(f"G must be an integer in [16, {MAX_G}], got {G!r}")
    P = evolve(s, True, G, T)
    Q = evolve(s, False, G, T)
    div, left = discrete_rdp(P, Q, a)
    err = math.nan
    if refine:
        P2 = evolve(s, True, G // 2, T)
        Q2 = evolve(s, False, G // 2, T)
        div2, _ = discrete_rdp(P2, Q2, a)
        err = abs(div.max - div2.max)
    return GridResult(s.name, a, T, div.forward, div.backward, err, G,
                      max(P.lost, Q.lost), left, time.perf_counter() - t0)


def fft_curve(s: Scenario, alpha, Ts, *, G: int = 1024) -> list[GridResult]:
    """UNCERTIFIED FFT-grid estimates at several T from one pass (no refinement; the
    error column is NaN); see :func:`fft_rdp`.  Use :func:`last_iterate_curve`."""
    a = _check_alpha(alpha)
    Ts = sorted({int(t) for t in Ts})
    if not Ts or Ts[0] < 1:
        raise ValueError(f"Ts must be integers >= 1, got {Ts!r}")
    sT = s.with_(T=Ts[-1])
    t0 = time.perf_counter()
    want = set(Ts)
    out = []
    for (t, P), (_, Q) in zip(evolve_iter(sT, True, G), evolve_iter(sT, False, G)):
        if t in want:
            div, left = discrete_rdp(P, Q, a)
            out.append(GridResult(s.name, a, t, div.forward, div.backward, math.nan, G,
                                  max(P.lost, Q.lost), left, time.perf_counter() - t0))
    return out


def last_iterate_rdp(s: Scenario, alpha, *, G: int = 512, T: int | None = None,
                     refine: bool = True) -> GridResult:
    """The Rényi divergence of the last iterate θ_T between D' = D ∪ {canary} and D, in
    both orders, with an error it can stand behind — or :class:`AccountantError`.

    This is :func:`certified_rdp` (issue 16; the FFT grid that used to answer here
    under-reported the far tail at large orders and is now :func:`fft_rdp`, uncertified):
    the exact Gaussian mixture for the unprojected linear canary, the log-domain dense
    bracket on K for DPSGD-DC (``G`` in [16, 4096] cells of K, doubled up to 1024 if
    needed; ``error`` is the bracket's half-width plus round-off), and AccountantError for unprojected non-linear scenarios (no
    bound on the escaped tail).  ``refine`` is accepted for compatibility and ignored:
    the error is always computed."""
    del refine
    return certified_rdp(s, alpha, G=G, T=T)


def last_iterate_curve(s: Scenario, alpha, Ts, *, G: int = 512,
                       strict: bool = True) -> list[GridResult]:
    """:func:`last_iterate_rdp` at several T from one pass (:func:`certified_curve`):
    every row carries its certified ``error``; a row that cannot raises AccountantError
    (``strict``) or comes back refused (NaN value, infinite error, ``refused`` says why)."""
    return certified_curve(s, alpha, Ts, G=G, strict=strict)


# --------------------------------------------------------------------------------------
# the certified accountant (log-domain, dense, no flooring)

class AccountantError(ValueError):
    """The grid accountant cannot stand behind a value here (its certified error bound is
    large relative to the value, or the scenario is outside what it can certify).  Truth
    providers turn it into ``Unavailable`` (the scenario is reported as out of reach)."""


_U = 2.0 ** -52     # unit round-off of float64 (double of the textbook u: conservative)


def _log_cell(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """log(Φ(b) − Φ(a)) for a < b, accurate in both tails (log_ndtr, no cancellation)."""
    a, b = np.broadcast_arrays(np.asarray(a, float), np.asarray(b, float))
    out = np.empty(a.shape)
    lo = b <= 0
    hi = a >= 0
    mid = ~(lo | hi)
    la, lb = log_ndtr(a[lo]), log_ndtr(b[lo])
    out[lo] = lb + np.log1p(-np.exp(la - lb))
    ua, ub = log_ndtr(-a[hi]), log_ndtr(-b[hi])
    out[hi] = ua + np.log1p(-np.exp(ub - ua))
    out[mid] = np.log1p(-(ndtr(a[mid]) + ndtr(-b[mid])))
    return out


def _log_cells_on_edges(E: np.ndarray) -> np.ndarray:
    """``_log_cell(E[:, :-1], E[:, 1:])`` for rows of increasing edges, bit for bit, with
    one log_ndtr per edge instead of two per cell: a cell left of 0 (b ≤ 0) needs
    log Φ at both its edges, one right of 0 (a ≥ 0) log Φ(−·) at both, and neighbouring
    cells share an edge, so each edge needs only the one on its side of 0."""
    a, b = E[:, :-1], E[:, 1:]
    Lv = log_ndtr(np.where(E <= 0, E, -E))
    X, Y = Lv[:, 1:], Lv[:, :-1]
    hi = a >= 0
    lo = (b <= 0) & ~hi            # as _log_cell: the a ≥ 0 form wins where both hold
    big, small = np.where(lo, X, Y), np.where(lo, Y, X)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):   # mid cells: unused
        out = big + np.log1p(-np.exp(small - big))
    mid = ~(lo | hi)
    if mid.any():
        out[mid] = np.log1p(-(ndtr(a[mid]) + ndtr(-b[mid])))
    return out


def _log_S(x: np.ndarray) -> np.ndarray:
    """log(sinh(x)/x) (even, ≥ 0), accurate for small and large |x|."""
    ax = np.abs(np.asarray(x, float))
    small = ax < 1e-3
    with np.errstate(divide="ignore", invalid="ignore"):
        # ax + log1p(−exp(−2·ax)) − log(2·ax), each step in place (a quarter faster on the
        # accountant's (G + 2)² arrays; the same operations, so the same numbers)
        t = np.multiply(ax, -2.0)
        np.exp(t, out=t)
        np.negative(t, out=t)
        np.log1p(t, out=t)
        out = ax + t
        np.multiply(ax, 2.0, out=t)
        np.log(t, out=t)
        out -= t
    if small.any():     # the same two formulas as per-branch indexing, without the copies
        xs = ax[small]
        out[small] = xs * xs / 6 - xs ** 4 / 180
    return out


def _log_mgf_ratio(s: np.ndarray, pick: np.ndarray, lam_a: np.ndarray, lam_b: np.ndarray,
                   h: float) -> np.ndarray:
    """log E[e^{sU}] for U on [−h/2, h/2] with density ∝ e^{λu}:
    log(M(s+λ)/M(λ)), M(k) = ∫ e^{ku} du = h·sinh(kh/2)/(kh/2), where entry (i, j) has
    λ = lam_a[i] if pick[i, j] else lam_b[i].  log M(λ) takes one of two values per row:
    evaluated on the two vectors and selected (the same numbers as on the λ matrix)."""
    lam = np.where(pick, lam_a[:, None], lam_b[:, None])
    ref = np.where(pick, _log_S(lam_a * (h / 2))[:, None], _log_S(lam_b * (h / 2))[:, None])
    return _log_S((s + lam) * (h / 2)) - ref


def _log_phi(z: np.ndarray) -> np.ndarray:
    return -0.5 * z * z - 0.5 * math.log(2 * math.pi)


def _log_target_mass(m: np.ndarray, edges: np.ndarray, tau: float) -> np.ndarray:
    """log P(Π_K(m + τZ) ∈ target) for the G cells of K (from ``edges``) and the two end
    atoms (last two columns); ``m`` has shape (S,), the result (S, G + 2)."""
    m = np.asarray(m, float)[:, None]
    lo, hi = edges[0], edges[-1]
    out = np.empty((m.shape[0], len(edges) + 1))
    out[:, :-2] = _log_cells_on_edges((edges[None, :] - m) / tau)
    out[:, -2] = log_ndtr((lo - m[:, 0]) / tau)
    out[:, -1] = log_ndtr((m[:, 0] - hi) / tau)
    return out


def _log_target_slope(m: np.ndarray, lf: np.ndarray, edges: np.ndarray,
                      tau: float) -> np.ndarray:
    """d/dm of the log target masses of :func:`_log_target_mass` (``lf``) at ``m``."""
    m = np.asarray(m, float)[:, None]
    lo, hi = edges[0], edges[-1]
    out = np.empty(lf.shape)
    za = (edges[None, :-1] - m) / tau
    zb = (edges[None, 1:] - m) / tau
    la, lb = _log_phi(za), _log_phi(zb)
    big, small = np.maximum(la, lb), np.minimum(la, lb)
    with np.errstate(divide="ignore"):
        mag = np.exp(big + np.log1p(-np.exp(small - big)) - math.log(tau) - lf[:, :-2])
    out[:, :-2] = np.where(la >= lb, mag, -mag)
    z = (lo - m[:, 0]) / tau
    out[:, -2] = -np.exp(_log_phi(z) - math.log(tau) - lf[:, -2])
    z = (m[:, 0] - hi) / tau
    out[:, -1] = np.exp(_log_phi(z) - math.log(tau) - lf[:, -1])
    return out


#: relative slack on every log kernel entry (log_ndtr / log1p / exp: a few ulps each)
_EPS_K = 64 * _U


def _widen(lo: np.ndarray, hi: np.ndarray, eps: float = _EPS_K):
    """Move a bracket of log values outwards by eps·(1 + |value|) (round-off)."""
    with np.errstate(invalid="ignore"):
        lo = lo - eps * (1 + np.abs(np.where(np.isfinite(lo), lo, 0.0)))
        hi = hi + eps * (1 + np.abs(np.where(np.isfinite(hi), hi, 0.0)))
    return lo, hi


@dataclass
class _BComp:
    """One batch composition of the bracket: weight in [w_lo, w_hi], drift on the source
    points (``dr``; constant for linear losses), Lipschitz constant ``Ld`` of the drift in
    θ (0 if constant), or — ``free`` — any drift in [−Dmax, Dmax] (the binomial tails)."""

    w_lo: float
    w_hi: float
    dr: np.ndarray
    constant: bool
    Ld: float
    free: bool = False


def _bracket_components(s: Scenario, with_canary: bool, x: np.ndarray) -> list[_BComp]:
    """The batch-composition mixture with bracketed weights, drifts evaluated on ``x``.

    Groups of zero-gradient losses move nothing whatever their count, so their count law
    sums to exactly 1 and they are left out (no truncation).  Other groups use the
    binomial support of :func:`_binom_support` (tails below 1e-12 dropped); the weights
    carry a relative round-off slack and the dropped tail mass ρ becomes one ``free``
    component of weight in [0, ρ] whose drift can be anything a batch can produce."""
    live = [(c, l) for c, l in s.groups if c > 0 and l.constant_grad != 0.0]
    sup, rho = [], 0.0
    for c, _ in live:
        k, w = _binom_support(c, s.q)
        eps = 16 * _U * (gammaln(c + 1) + c * (abs(math.log(s.q)) + abs(math.log1p(-s.q))
                                               if s.q < 1 else 0.0) + 10)
        sup.append((k, w, eps))
        rho += max(0.0, 1.0 - float(w.sum()) * (1 - eps)) + 1e-15
    canary = [(0, 1 - s.q), (1, s.q)] if with_canary else [(0, 1.0)]
    acc: dict[bytes, _BComp] = {}
    for combo in product(*[list(zip(k, w, [e] * len(k))) for k, w, e in sup]):
        wg = float(np.prod([w for _, w, _ in combo])) if combo else 1.0
        eg = sum(e for _, _, e in combo)
        for c, wc in canary:
            if wg * wc <= 0:
                continue
            tot = np.zeros_like(x)
            Ld = 0.0
            const = True
            for kk, (_, loss) in zip([int(k) for k, _, _ in combo], live):
                if kk:
                    tot = tot + kk * np.clip(loss.grad(x), -s.C, s.C)
                    Ld += kk * loss.L
                    const = const and loss.constant_grad is not None
            if c:
                tot = tot + np.clip(s.canary.grad(x), -s.C, s.C)
                Ld += s.canary.L
                const = const and s.canary.constant_grad is not None
            dr = -(s.eta / s.b) * tot
            w = wg * wc
            e = eg + 8 * _U * (len(live) + 2)
            key = dr.tobytes()
            if key in acc:
                acc[key].w_lo += w * (1 - e)
                acc[key].w_hi += w * (1 + e)
            else:
                acc[key] = _BComp(w * (1 - e), w * (1 + e), dr, const,
                                  0.0 if const else (s.eta / s.b) * Ld)
    out = list(acc.values())
    if rho > 0 and live:
        Dmax = (s.eta / s.b) * s.C * (sum(c for c, _ in live) + 1)
        out.append(_BComp(0.0, min(1.0, rho), np.zeros_like(x), False, 0.0, True))
        out[-1].Ld = Dmax            # for a free component Ld holds the drift bound
    return out


def _kernel_pieces(s: Scenario, with_canary: bool, G: int):
    """The λ-independent parts of :func:`_assemble` (per component: weights, first-order
    bounds, and for constant drifts the tangent/chord data), plus the drift range."""
    lo, hi = s.domain
    h = (hi - lo) / G
    tau = s.eta * s.sigma_dp
    edges = lo + h * np.arange(G + 1)
    edges[-1] = hi
    c = lo + h * (np.arange(G) + 0.5)
    src = np.concatenate([c, [lo, hi]])
    comps = _bracket_components(s, with_canary, src)
    peak = float(_log_cell(np.array([-h / (2 * tau)]), np.array([h / (2 * tau)]))[0])
    pieces = []
    for cp in comps:
        nlo, nhi, so = _component_piece(cp, src, edges, G, h, tau, peak)
        pieces.append((cp.w_lo, cp.w_hi, nlo, nhi, so))
    return pieces, _drift_range(comps, h)


#: the last few components' kernel pieces (:func:`_component_piece`): the laws with and
#: without the canary share the batches that leave the canary out — same drift, other
#: weight — and a pass steps both laws together
_PIECES: "dict[tuple, tuple]" = {}
_PIECES_KEEP = 4


def _component_piece(cp: "_BComp", src: np.ndarray, edges: np.ndarray, G: int, h: float,
                     tau: float, peak: float):
    """(nlo, nhi, so) of one batch component for :func:`_kernel_pieces` (its weights
    aside), remembered: they depend on the component only through its drifts, Lipschitz
    constant and kind.  Read-only arrays (:func:`_assemble` copies before it writes)."""
    key = (src.tobytes(), edges.tobytes(), G, h, tau, peak, cp.dr.tobytes(), cp.constant,
           cp.Ld, cp.free)
    hit = _PIECES.pop(key, None)
    if hit is None:
        hit = _compute_piece(cp, src, edges, G, h, tau, peak)
        for x in (hit[0], hit[1], *(hit[2] or ())):
            x.flags.writeable = False
        while len(_PIECES) >= _PIECES_KEEP:
            _PIECES.pop(next(iter(_PIECES)))
    _PIECES[key] = hit                                 # most recently used: last
    return hit


def _compute_piece(cp: "_BComp", src: np.ndarray, edges: np.ndarray, G: int, h: float,
                   tau: float, peak: float):
    ml, mh = _mean_range(cp, src, G, h)
    fl = _log_target_mass(ml, edges, tau)
    fh = _log_target_mass(mh, edges, tau)
    nlo = np.minimum(fl, fh)
    nhi = np.maximum(fl, fh)
    mids = (edges[:-1] + edges[1:]) / 2
    inside = (ml[:, None] <= mids[None, :]) & (mids[None, :] <= mh[:, None])
    nhi[:, :G] = np.where(inside, np.maximum(nhi[:, :G], peak), nhi[:, :G])
    so = None
    if cp.constant and not cp.free:
        mc = src[:G] + cp.dr[:G]
        fc = _log_target_mass(mc, edges, tau)
        sl = _log_target_slope(mc, fc, edges, tau)
        chord = (fl[:G] + fh[:G]) / 2
        s2 = (fh[:G] - fl[:G]) / (mh[:G, None] - ml[:G, None])
        so = (fc + 1e-10 * (1 + np.abs(sl) * h), sl, chord, s2)
    return nlo, nhi, so


def _mean_range(cp: "_BComp", src: np.ndarray, G: int, h: float):
    """[ml, mh]: the range of the step's mean x + dr for x in each source (cells, atoms)."""
    if cp.free:
        ml, mh = src - cp.Ld, src + cp.Ld
        ml[:G] -= h / 2
        mh[:G] += h / 2
        return ml, mh
    half = np.where(np.arange(len(src)) < G, (1 + cp.Ld) * h / 2, 0.0)
    slack = 4 * _U * (np.abs(src) + np.abs(cp.dr) + h)
    return src + cp.dr - half - slack, src + cp.dr + half + slack


def _drift_range(comps, h: float) -> tuple[float, float]:
    dmin = min((-cp.Ld if cp.free else float(np.min(cp.dr)) - cp.Ld * h / 2) for cp in comps)
    dmax = max((cp.Ld if cp.free else float(np.max(cp.dr)) + cp.Ld * h / 2) for cp in comps)
    return dmin, dmax


def _assemble(pieces, lam_lo: np.ndarray, lam_hi: np.ndarray, h: float):
    """(log K_lo, log K_hi) for source cells whose law has log-slope in [λ⁻_i, λ⁺_i]; see
    :func:`_kernel_bracket`."""
    Klo = Khi = None
    for w_lo, w_hi, nlo, nhi, so in pieces:
        if so is not None:
            G = so[0].shape[0]
            fc, sl, chord, s2 = so
            up = fc + _log_mgf_ratio(sl, sl >= 0, lam_hi, lam_lo, h)
            with np.errstate(invalid="ignore"):
                low = chord + _log_mgf_ratio(s2, s2 >= 0, lam_lo, lam_hi, h)
            low = np.where(np.isfinite(chord), low, -np.inf)
            nhi = nhi.copy()
            nlo = nlo.copy()
            nhi[:G] = np.minimum(nhi[:G], up)
            nlo[:G] = np.maximum(nlo[:G], low)
        nlo, nhi = _widen(nlo, nhi)
        if w_lo > 0:
            add = math.log(w_lo) + nlo
            Klo = add if Klo is None else np.logaddexp(Klo, add)
        add = math.log(w_hi) + nhi
        Khi = add if Khi is None else np.logaddexp(Khi, add)
    if Klo is None:
        Klo = np.full(Khi.shape, -np.inf)
    return Klo, Khi


def _kernel_bracket(s: Scenario, with_canary: bool, G: int, second_order: bool = True):
    """(log K_lo, log K_hi): for every source (G cells of K, then the atoms at lo and hi)
    and target (the G cells, then the atoms), bounds on the mass that one step sends from
    the source to the target, *whatever the law of θ inside the source cell* among the
    laws with a density whose log-slope on cell i lies in [λ⁻_i, λ⁺_i] (here the crude
    :func:`_slope_bounds`, valid for every θ_t, t ≥ 1; :func:`_bracket_iter` uses the
    tighter posterior bounds of :func:`_posterior_mean_bounds`).

    The step is y = Π_K(x + dr + τZ) with dr the batch drift.  For a cell source the mean
    m = x + dr ranges over [c − h/2 + dr, c + h/2 + dr] (± Ld·h/2 for a non-constant
    drift); the target mass as a function of m is unimodal (a cell: peak at the cell's
    midpoint) or monotone (an atom), so its min and max over the range are at the ends or
    at the peak (the first-order bracket).  For a constant drift the log target mass is
    concave in x (Prékopa: an interval convolved with a Gaussian is log-concave), so
      upper: log f(x) ≤ log f(c) + f'/f(c)·(x − c)   (tangent),
      lower: log f(x) ≥ chord through the cell's two ends,
    and E[e^{s(x−c)}] under any density with log-slope in [λ⁻, λ⁺] lies between the
    values under e^{λ⁻u} and e^{λ⁺u} (monotone likelihood ratio ⇒ stochastic order):
    a second-order bracket.  The tighter of the two is kept.  Atom sources are points:
    exact up to round-off.  Weights enter as [w_lo, w_hi]; a ``free`` component adds
    its weight bound times the largest mass over its whole drift range to K_hi only."""
    lo, hi = s.domain
    h = (hi - lo) / G
    pieces, _ = _kernel_pieces(s, with_canary, G)
    if not second_order:
        pieces = [(a, b, c, d, None) for a, b, c, d, _ in pieces]
    edges = lo + h * np.arange(G + 1)
    comps = _bracket_components(s, with_canary, np.concatenate(
        [lo + h * (np.arange(G) + 0.5), [lo, hi]]))
    lam_lo, lam_hi = _slope_bounds(s, comps, edges)[:2]
    return _assemble(pieces, lam_lo, lam_hi, h)


def _dens_kernel(s: Scenario, with_canary: bool, G: int):
    """(log k_lo, log k_hi), shape (G + 2, G): bounds on the transition *density*
    Σ w φ_τ(y − x − dr) over x in source i (cells, atoms) and y in target cell j."""
    lo, hi = s.domain
    h = (hi - lo) / G
    tau = s.eta * s.sigma_dp
    edges = lo + h * np.arange(G + 1)
    edges[-1] = hi
    src = np.concatenate([lo + h * (np.arange(G) + 0.5), [lo, hi]])
    klo = khi = None
    c0 = -math.log(tau * math.sqrt(2 * math.pi))
    for cp in _bracket_components(s, with_canary, src):
        ml, mh = _mean_range(cp, src, G, h)
        ulo = edges[None, :-1] - mh[:, None]
        uhi = edges[None, 1:] - ml[:, None]
        near = np.where((ulo <= 0) & (uhi >= 0), 0.0, np.minimum(np.abs(ulo), np.abs(uhi)))
        far = np.maximum(np.abs(ulo), np.abs(uhi))
        dlo, dhi = _widen(c0 - far * far / (2 * tau * tau), c0 - near * near / (2 * tau * tau))
        if cp.w_lo > 0:
            add = math.log(cp.w_lo) + dlo
            klo = add if klo is None else np.logaddexp(klo, add)
        add = math.log(cp.w_hi) + dhi
        khi = add if khi is None else np.logaddexp(khi, add)
    if klo is None:
        klo = np.full(khi.shape, -np.inf)
    return klo, khi


def _running_sums(w: np.ndarray) -> np.ndarray:
    """[0, w_0, w_0 + w_1, ...] along axis 0 of a 2-D array: ``np.cumsum(w, axis=0)``
    after a row of zeros, the same numbers.  Row by row: numpy's cumsum along axis 0 walks
    each column with a stride of a whole row (3-10x slower on these arrays); a row at a
    time makes the same additions in the same order (the first row copied, as cumsum
    does)."""
    n, G = w.shape
    out = np.empty((n + 1, G))
    out[0] = 0.0
    if n:
        out[1] = w[0]
    for i in range(1, n):
        np.add(out[i], w[i], out=out[i + 1])
    return out


def _running_sums_from_end(w: np.ndarray) -> np.ndarray:
    """[Σ_{i≥0} w_i, Σ_{i≥1} w_i, ..., 0] along axis 0, summed from the end (the numbers
    of ``np.cumsum(w[::-1], axis=0)`` reversed, then a row of zeros)."""
    n, G = w.shape
    out = np.empty((n + 1, G))
    out[n] = 0.0
    if n:
        out[n - 1] = w[n - 1]
    for i in range(n - 2, -1, -1):
        np.add(out[i + 1], w[i], out=out[i])
    return out


def _posterior_mean_bounds(llo, lhi, klo, khi, pos_lo, pos_hi):
    """[E_min(j), E_max(j)]: bounds on the posterior mean of the source position x given
    y in target cell j, for any law whose source masses lie in [e^llo, e^lhi] and any
    kernel in [e^klo, e^khi] (source order: ``pos_lo``/``pos_hi`` are each source's
    position range, ascending).  The extreme of a ratio Σ W v / Σ W over boxes of W is at
    a threshold: upper weights above it, lower below (scanned with prefix sums)."""
    Llo = llo[:, None] + klo
    Lhi = lhi[:, None] + khi
    M = np.max(Lhi, axis=0, keepdims=True)
    M = np.where(np.isfinite(M), M, 0.0)
    with np.errstate(over="ignore", invalid="ignore"):
        l = np.exp(Llo - M)
        u = np.exp(Lhi - M)
    def scan(first, second, v):
        # threshold k: sources i < k weigh `first`, i >= k weigh `second`
        vv = v[:, None]
        num = _running_sums(first * vv)
        num += _running_sums_from_end(second * vv)
        den = _running_sums(first)
        den += _running_sums_from_end(second)
        with np.errstate(invalid="ignore", divide="ignore"):
            num /= den
        return num

    r = scan(l, u, pos_hi)
    emax = np.max(np.where(np.isfinite(r), r, -np.inf), axis=0)
    r = scan(u, l, pos_lo)
    emin = np.min(np.where(np.isfinite(r), r, np.inf), axis=0)
    span = float(pos_hi[-1] - pos_lo[0])
    slack = 8 * _U * len(pos_lo) * (abs(pos_lo[0]) + abs(pos_hi[-1]) + span) + 1e-250 * span
    emax = np.where(np.isfinite(emax), np.minimum(emax + slack, pos_hi[-1]), pos_hi[-1])
    emin = np.where(np.isfinite(emin), np.maximum(emin - slack, pos_lo[0]), pos_lo[0])
    return emin, emax


def _log_chi_cells(x: np.ndarray, a: float, n: int = 32) -> np.ndarray:
    """Upper bounds on log E[r^α] over laws of r > 0 with E r = 1 and max log r − min
    log r ≤ x, for an array of x.  The chord value E(x1, x2) = ((B−1)A^α + (1−A)B^α)/(B−A),
    A = e^{−x1} ≤ 1 ≤ B = e^{x2}, x1 + x2 = x, is the sup for a given split and grows with
    x1 and x2, so on a grid x1_k = kx/n the sup over x1 ∈ [x1_k, x1_{k+1}] is at most
    E(x1_{k+1}, x − x1_k); each x takes the smaller of this grid bound and the Taylor bound log E[r^α] ≤ α(α−1)/2·B^{max(α−2,0)}·Var(r),
    Var(r) ≤ (B−1)(1−A) ≤ x1·x2·e^{x2} ≤ e^x·x²/4 (Bhatia–Davis)."""
    x = np.maximum(np.asarray(x, float), 0.0)
    k = np.arange(n)[None, :]
    x1 = x[:, None] * (k + 1) / n
    x2 = x[:, None] - x[:, None] * k / n
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        t1 = np.log(np.expm1(x2)) - a * x1
        t2 = np.log(-np.expm1(-x1)) + a * x2
        v = np.logaddexp(t1, t2) - x2 - np.log(-np.expm1(-(x1 + x2)))
    v = np.where((x1 > 0) & (x2 > 0), v, 0.0)
    grid = np.max(v, axis=1) * (1 + 1e-9) + 1e-14 * (1 + a * x)
    with np.errstate(over="ignore"):
        taylor = a * (a - 1) / 8 * x * x * np.exp((max(a, 2.0) - 1) * x) * (1 + 1e-12)
    out = np.minimum(np.where(np.isfinite(grid), grid, np.inf), taylor)
    return np.where(x > 0, out, 0.0)


def _slope_bounds(s: Scenario, comps: list[_BComp], edges: np.ndarray):
    """[λ⁻_i, λ⁺_i]: bounds on d/dy log p_t(y) for y in cell i, any t ≥ 1.  The density
    of θ_t on the interior is Σ w ∫ μ_{t−1}(dx) φ_τ(y − x − dr), so its log-slope is the
    posterior mean of (x + dr − y)/τ², with x ∈ K and dr in the drifts' range."""
    lo, hi = edges[0], edges[-1]
    tau = s.eta * s.sigma_dp
    h = edges[1] - edges[0]
    dmin = min((-cp.Ld if cp.free else float(np.min(cp.dr)) - cp.Ld * h / 2) for cp in comps)
    dmax = max((cp.Ld if cp.free else float(np.max(cp.dr)) + cp.Ld * h / 2) for cp in comps)
    tau2 = tau * tau
    lam_lo = (lo + dmin - edges[1:]) / tau2
    lam_hi = (hi + dmax - edges[:-1]) / tau2
    pad = 1e-12 * (np.abs(lam_lo) + np.abs(lam_hi) + 1)
    return lam_lo - pad, lam_hi + pad, (dmin, dmax)


def _first_step(s: Scenario, with_canary: bool, G: int):
    """Bracket of the log masses of θ_1 (θ_0 is a point: exact up to round-off and the
    free component's contribution)."""
    lo, hi = s.domain
    h = (hi - lo) / G
    tau = s.eta * s.sigma_dp
    edges = lo + h * np.arange(G + 1)
    edges[-1] = hi
    x0 = np.array([s.theta0])
    lo_, hi_ = np.full(G + 2, -np.inf), np.full(G + 2, -np.inf)
    for cp in _bracket_components(s, with_canary, x0):
        if cp.free:
            fl = _log_target_mass(x0 - cp.Ld, edges, tau)[0]
            fh = _log_target_mass(x0 + cp.Ld, edges, tau)[0]
            mids = (edges[:-1] + edges[1:]) / 2
            f = np.maximum(fl, fh)
            inside = (x0[0] - cp.Ld <= mids) & (mids <= x0[0] + cp.Ld)
            f[:G] = np.where(inside, float(_log_cell(np.array([-h / (2 * tau)]),
                                                     np.array([h / (2 * tau)]))[0]), f[:G])
            hi_ = np.logaddexp(hi_, math.log(cp.w_hi) + f + _EPS_K * (1 + np.abs(f)))
            continue
        f = _log_target_mass(x0 + cp.dr, edges, tau)[0]
        flo, fhi = _widen(f, f)
        if cp.w_lo > 0:
            lo_ = np.logaddexp(lo_, math.log(cp.w_lo) + flo)
        hi_ = np.logaddexp(hi_, math.log(cp.w_hi) + fhi)
    return lo_, hi_


def _lse_step(lp: np.ndarray, K: np.ndarray) -> tuple[np.ndarray, float]:
    """log Σ_i exp(lp_i + K_ij) and a bound on its absolute round-off."""
    x = lp[:, None] + K
    big = float(np.max(np.abs(x), where=np.isfinite(x), initial=0.0))
    return _lse(x, axis=0), 4 * _U * big + 2 * _U * (len(lp) + 2)


def _clamp_total(llo: np.ndarray, lhi: np.ndarray):
    """Tighten with the total mass 1: m_hi(j) ≤ 1 − Σ_{k≠j} m_lo(k) and
    m_lo(j) ≥ 1 − Σ_{k≠j} m_hi(k) (computed in float with a round-off slack)."""
    n = len(llo)
    lhi = np.minimum(lhi, 0.0)
    mlo, mhi = np.exp(llo), np.exp(lhi)
    slo, shi = float(mlo.sum()), float(mhi.sum())
    slack = 4 * _U * (n + 2) * max(1.0, shi) + 1e-300
    cap = 1.0 - (slo - mlo) + slack
    with np.errstate(divide="ignore", invalid="ignore"):
        lhi = np.where(cap < mhi, np.log(np.maximum(cap, 1e-300)), lhi)
        flo = 1.0 - (shi - mhi) - slack
        llo = np.where(flo > mlo, np.log(np.where(flo > 0, flo, 1.0)), llo)
    llo = np.minimum(llo, lhi)
    return llo, lhi


def _bracket_iter(s: Scenario, with_canary: bool, G: int, T: int):
    """Yield ``(t, log m_lo, log m_hi, post)`` for t = 1..T: certified brackets of the
    masses of θ_t on the G cells of K and the two end atoms (last two entries), round-off
    included, and ``post = (E_min, E_max, dr_min, dr_max)``: for y in cell j the density
    of θ_t has log-slope E[x + dr − y | y]/τ² with E[x | y] in [E_min(j), E_max(j)] and dr
    in [dr_min, dr_max] (:func:`_posterior_mean_bounds` from the masses of θ_{t−1}; θ_0 is
    a point).  The true mass sent from source cell i to target j is m_t(i)·E[f_j(x) | x ∈
    cell i] ∈ [m_lo(i)·K_lo(i, j), m_hi(i)·K_hi(i, j)] (:func:`_kernel_bracket`, with the
    within-cell log-slope bounds of ``post``)."""
    lo, hi = s.domain
    h = (hi - lo) / G
    tau2 = (s.eta * s.sigma_dp) ** 2
    edges = lo + h * np.arange(G + 1)
    edges[-1] = hi
    d0 = _drift_range(_bracket_components(s, with_canary, np.array([s.theta0])), h)
    th = np.full(G, float(s.theta0))
    post = (th, th, d0[0], d0[1])
    lo_, hi_ = _clamp_total(*_first_step(s, with_canary, G))
    yield 1, lo_, hi_, post
    if T < 2:
        return
    pieces, dr = _kernel_pieces(s, with_canary, G)
    klo, khi = _dens_kernel(s, with_canary, G)
    order = np.concatenate([[G], np.arange(G), [G + 1]])
    klo, khi = klo[order], khi[order]
    pos_lo = np.concatenate([[lo], edges[:-1], [hi]])
    pos_hi = np.concatenate([[lo], edges[1:], [hi]])
    for t in range(2, T + 1):
        emin, emax, d_lo, d_hi = post
        lam_lo = (emin + d_lo - edges[1:]) / tau2
        lam_hi = (emax + d_hi - edges[:-1]) / tau2
        pad = 1e-12 * (np.abs(lam_lo) + np.abs(lam_hi) + 1)
        Klo, Khi = _assemble(pieces, lam_lo - pad, lam_hi + pad, h)
        emin, emax = _posterior_mean_bounds(lo_[order], hi_[order], klo, khi, pos_lo, pos_hi)
        post = (emin, emax, dr[0], dr[1])
        nlo, dlo = _lse_step(lo_, Klo)
        nhi, dhi = _lse_step(hi_, Khi)
        lo_, hi_ = _clamp_total(nlo - dlo, nhi + dhi)
        yield t, lo_, hi_, post


#: laws kept by :func:`_bracket_laws`, least recently used first: their steps up to
#: _LAW_MEMO_CELLS cells in all (4 float arrays a cell: ~64 MB), and the paused passes of
#: the _LAW_MEMO_LIVE most recent ones (a pass holds O(G²) kernel arrays: ~100 MB at G = 1024)
_LAW_MEMO: "dict[tuple, _LawMemo]" = {}
_LAW_MEMO_CELLS = 2 ** 21
_LAW_MEMO_LIVE = 2


@dataclass
class _LawMemo:
    items: list
    gen: object


def _memo_cells(key, memo: _LawMemo) -> int:
    """Cells a remembered law holds: G + 2 per step kept (G is the key's last entry)."""
    return len(memo.items) * (key[-1] + 2)


def _law_key(s: Scenario, with_canary: bool, G: int):
    """What the mass brackets of :func:`_bracket_iter` depend on (everything but T), or
    None when a loss is not linear (its gradient is a function: no exact key)."""
    losses = [s.canary] + [l for _, l in s.groups]
    if any(l.constant_grad is None for l in losses):
        return None
    lk = lambda l: (float(l.constant_grad), float(l.L), l.convex, float(l.mu))  # noqa: E731
    return (s.algorithm, lk(s.canary), tuple((int(c), lk(l)) for c, l in s.groups), int(s.n),
            int(s.b), float(s.eta), float(s.C), float(s.sigma_dp), tuple(map(float, s.domain)),
            float(s.theta0), bool(with_canary), int(G))


def _bracket_laws(s: Scenario, with_canary: bool, G: int, T: int):
    """:func:`_bracket_iter`, remembered: the statement checks ask for the same law (an
    anchor scenario, the same scenario at another order α — the masses do not depend on
    α) many times in one process; a remembered law replays its steps and goes on from
    where it stopped (from its paused pass, or a new one that recomputes the steps
    kept).  Only laws with linear losses (an exact key) are kept; replayed arrays are
    read-only."""
    key = _law_key(s, with_canary, G)
    # a law longer than a quarter of the memo would push the others out: not kept
    if key is None or T * (G + 2) > _LAW_MEMO_CELLS // 4:
        yield from _bracket_iter(s, with_canary, G, T)
        return
    memo = _LAW_MEMO.pop(key, None) or _LawMemo([], None)
    _LAW_MEMO[key] = memo                              # most recently used: last
    for t in range(1, T + 1):
        if t > len(memo.items):
            if memo.gen is None:
                # a pass runs as far as any caller asks (T only bounds its loop)
                memo.gen = _bracket_iter(s, with_canary, G, _LAW_MEMO_CELLS // (G + 2))
                for _ in memo.items:
                    next(memo.gen)
            item = next(memo.gen)
            for x in (item[1], item[2], *item[3][:2]):
                if isinstance(x, np.ndarray):
                    x.flags.writeable = False
            memo.items.append(item)
            _trim_law_memo(keep=key)
        yield memo.items[t - 1]


def _trim_law_memo(keep) -> None:
    total = sum(_memo_cells(k, m) for k, m in _LAW_MEMO.items())
    for k in list(_LAW_MEMO):
        if total <= _LAW_MEMO_CELLS or k == keep:
            break
        total -= _memo_cells(k, _LAW_MEMO.pop(k))
    for k in list(_LAW_MEMO)[:-_LAW_MEMO_LIVE]:
        _LAW_MEMO[k].gen = None


def _dc_bracket(s: Scenario, a: float, G: int, t: int, P, Q, postP, postQ):
    """(lower, upper) of D_α for both orders at step t from the mass brackets P = (lo, hi)
    and Q, plus the round-off of the final sums.  Lower: data processing on the partition
    (G cells + atoms), Σ p_lo^α q_hi^{1−α}.  Upper: on each cell ∫ p^α q^{1−α} =
    P^α Q^{1−α}·E_ρq[(ρp/ρq)^α] where ρ are the within-cell normalised densities; the
    slope of log(p/q) is (E_P[x + dr | y] − E_Q[x + dr | y])/τ², bounded from ``post``
    of both laws, so log(ρp/ρq) varies by at most x_j = h·max|slope| over cell j, with
    mean-1 ratio under ρq, and the chord bound χ of r^α applies
    (:func:`_log_chi_cells`); the atoms are exact point masses."""
    (plo, phi), (qlo, qhi) = P, Q
    lo, hi = s.domain
    h = (hi - lo) / G
    tau2 = (s.eta * s.sigma_dp) ** 2
    A = (postP[0] + postP[2]) - (postQ[1] + postQ[3])
    B = (postP[1] + postP[3]) - (postQ[0] + postQ[2])
    xw = h * np.maximum(np.abs(A), np.abs(B)) / tau2 * (1 + 1e-12) + 1e-300
    lchi = _log_chi_cells(xw, a)
    out, rnd = [], 0.0
    for (alo, ahi), (blo, bhi) in (((plo, phi), (qlo, qhi)), ((qlo, qhi), (plo, phi))):
        with np.errstate(invalid="ignore"):
            low_t = a * alo + (1 - a) * bhi
            up_t = a * ahi + (1 - a) * blo
        up_t = np.where(np.isfinite(ahi), up_t, -np.inf)
        low_t = np.where(np.isnan(low_t), -np.inf, low_t)
        if np.any(np.isposinf(up_t)) or np.any(np.isnan(up_t)):
            out.append((float(_lse(low_t)) / (a - 1), math.inf))
            continue
        up_t[:G] = up_t[:G] + lchi
        lo_v = float(_lse(low_t)) / (a - 1)
        up_v = float(_lse(up_t)) / (a - 1)
        fin = np.concatenate([low_t[np.isfinite(low_t)], up_t[np.isfinite(up_t)]])
        tmax = float(np.max(np.abs(fin))) if fin.size else 0.0
        rnd = max(rnd, (4 * _U * tmax + 2 * _U * (G + 4)) / (a - 1))
        out.append((lo_v, up_v))
    return out[0], out[1], rnd


#: cost cap of one certified call (dense log-sum-exp entries: 4 brackets × T × (G+2)²)
CERT_COST_MAX = 5e7
#: largest grid the certified accountant raises G to on its own
CERT_G_AUTO = 1024
#: relative error (of max(value, 1e-6)) the certified accountant refines to by default
CERT_REL_TOL = 0.05


def _check_cert_G(G) -> int:
    if isinstance(G, bool) or not isinstance(G, (int, np.integer)) or not 16 <= G <= 4096:
        raise ValueError(f"G must be an integer in [16, 4096], got {G!r}")
    return int(G)


def _exact_gc(s: Scenario, a: float, T: int, t0: float) -> "GridResult":
    try:
        d = linear_canary_exact(s, a, T)
    except ValueError as e:
        raise AccountantError(f"no certified accountant for {s.name} without a domain "
                              f"(non-linear losses: the escaped tail has an unbounded "
                              f"likelihood ratio): {e}") from None
    return GridResult(s.name, a, T, d.forward, d.backward, 1e-9 * max(1.0, d.max), 0,
                      0.0, 0.0, time.perf_counter() - t0)


def certified_bracket(s: Scenario, alpha, Ts, *, G: int = 512):
    """``{t: ((fw_lo, fw_hi), (bw_lo, bw_hi), roundoff)}``: certified lower and upper
    bounds on D_α of θ_t, both orders, for DPSGD-DC on G cells of K (see
    :func:`certified_rdp`); the final sums' round-off is reported apart (every earlier
    rounding is inside the bounds).  Costs 4·T·(G+2)² dense log-sum-exp entries."""
    a = _check_alpha(alpha)
    if s.domain is None:
        raise ValueError("certified_bracket needs a DPSGD-DC scenario (a domain)")
    G = _check_cert_G(G)
    Ts = sorted({_check_T(int(t), MAX_T_GRID) for t in Ts})
    return dict(_bracket_rows(s, a, G, Ts))


def _bracket_rows(s: Scenario, a: float, G: int, Ts, stop=None):
    """Yield ``(t, (fw, bw, rnd))`` at the wanted t; ``stop(t, br)``, asked at the wanted t
    and at ~16 checkpoints, ends the pass early when it returns True (the bracket is
    already hopeless: refusing is always sound)."""
    want = set(Ts)
    every = max(1, Ts[-1] // 16)
    for (t, plo, phi, pp), (_, qlo, qhi, pq) in zip(_bracket_laws(s, True, G, Ts[-1]),
                                                  _bracket_laws(s, False, G, Ts[-1])):
        if t in want or (stop is not None and t % every == 0):
            br = _dc_bracket(s, a, G, t, (plo, phi), (qlo, qhi), pp, pq)
            if t in want:
                yield t, br
            if stop is not None and stop(t, br):
                return


def _judge(s: Scenario, a: float, t: int, G: int, br, rel_tol: float, t0: float,
           enough: float | None = None):
    """A GridResult from a bracket (midpoint ± half-width + round-off), or the reason
    for refusing it.  ``enough``: a bracket wider than ``rel_tol`` is still returned when
    its upper end (larger value + error) is ≤ ``enough`` — it decides D_α ≤ enough."""
    (flo, fhi), (blo, bhi), rnd = br
    if not all(math.isfinite(x) for x in (flo, fhi, blo, bhi, rnd)):
        return (f"certified error unbounded (forward in [{flo:.3g}, {fhi:.3g}], backward in "
                f"[{blo:.3g}, {bhi:.3g}], α = {a:g}, T = {t}, G = {G}): no value returned")
    if flo > fhi + 2 * rnd or blo > bhi + 2 * rnd:
        raise AssertionError(f"certified bracket inverted: {br!r}")   # a bug, not a refusal
    fw, bw = (flo + fhi) / 2, (blo + bhi) / 2
    err = max(fhi - flo, bhi - blo) / 2 + rnd
    if err > rel_tol * max(fw, bw, 1e-6) and not (enough is not None
                                                  and max(fw, bw) + err <= enough):
        return (f"certified error {err:.3g} exceeds {rel_tol:g}·value (D_α in "
                f"[{min(flo, blo):.6g}, {max(fhi, bhi):.6g}], α = {a:g}, T = {t}, G = {G}): "
                "no value returned")
    return GridResult(s.name, a, t, fw, bw, err, int(G), 0.0, 0.0, time.perf_counter() - t0)


def certified_curve(s: Scenario, alpha, Ts, *, G: int = 512, rel_tol: float = CERT_REL_TOL,
                    strict: bool = True, G_max: int | None = None,
                    enough: float | None = None) -> list["GridResult"]:
    """:func:`certified_rdp` at several T from one pass per grid.  Rows the bracket on
    ``G`` cells cannot certify to ``rel_tol`` are retried on 2G, 4G, ... up to ``G_max``
    (default max(G, CERT_G_AUTO)) while the cost 4·T·(G+2)² stays within CERT_COST_MAX.
    ``strict``: raise :class:`AccountantError` if a T stays refused; else that row has
    NaN values, an infinite error and the reason in ``refused``.
    ``enough``: the caller only asks whether D_α ≤ ``enough`` (a bound it compares with);
    a row is also returned, with its wider error, once its whole bracket lies at or below
    ``enough``.  Its value then may be far from ``rel_tol``; its bracket is as certified."""
    a = _check_alpha(alpha)
    Ts = sorted({_check_T(int(t), MAX_T_GRID) for t in Ts})
    if not Ts:
        raise ValueError("Ts must be a non-empty list of integers >= 1")
    G = _check_cert_G(G)
    G_max = _check_cert_G(max(G, CERT_G_AUTO) if G_max is None else max(G, G_max))
    t0 = time.perf_counter()
    if s.domain is None:
        return [_exact_gc(s, a, t, t0) for t in Ts]
    done: dict[int, GridResult] = {}
    why: dict[int, str] = {}
    spent, Gx = 0.0, G
    # a looser rel_tol accepts a wider bracket; it does not keep a hopeless pass going
    stop_tol = min(rel_tol, CERT_REL_TOL)
    todo = list(Ts)
    while todo:
        cost = 4.0 * todo[-1] * (Gx + 2) ** 2
        if Gx > G and spent + cost > CERT_COST_MAX:
            break
        spent += cost
        # doublings still possible after this pass; the bracket shrinks at best like 1/G²
        k, g2, c2 = 0, Gx * 2, spent
        while g2 <= G_max and c2 + 4.0 * todo[-1] * (g2 + 2) ** 2 <= CERT_COST_MAX:
            c2 += 4.0 * todo[-1] * (g2 + 2) ** 2
            k, g2 = k + 1, g2 * 2
        reach = 4.0 ** k
        last = todo[-1]
        stopped = []

        def hopeless(t, br, reach=reach, last=last, stopped=stopped):
            (flo, fhi), (blo, bhi), rnd = br
            if not math.isfinite(fhi + bhi):
                return False
            half = max(fhi - flo, bhi - blo) / 2 + rnd
            # D_α(θ_T) grows at most ~linearly in T here: a generous allowance
            scale = max(fhi, bhi) * max(1.0, last / t)
            if enough is not None and (max(fhi, bhi) + half) * max(1.0, last / t) <= enough:
                return False    # may still end at or below ``enough``: go on
            if half > reach * stop_tol * max(scale, 1e-6):
                stopped.append(t)
                return True
            return False

        for t in todo:
            why.pop(t, None)            # the reasons of this pass replace the last pass's
        for t, br in _bracket_rows(s, a, Gx, todo, hopeless):
            got = _judge(s, a, t, Gx, br, rel_tol, t0, enough)
            if isinstance(got, GridResult):
                done[t] = got
                why.pop(t, None)
            else:
                why[t] = got
        todo = [t for t in todo if t not in done]
        for t in todo:
            why.setdefault(t, f"certified error: the bracket on G = {Gx} cells was already "
                              f"far too wide before T = {t}: no value returned")
        if stopped:
            # the pass ended at step stopped[0] because even the k doublings left, at the
            # best shrink 1/G², could not bring the bracket there to rel_tol·value (with
            # the value allowed to grow ∝ T): every T from there on is as hopeless, and a
            # finer pass would only refuse it later at 4× the cost.  Earlier T go on.
            todo = [t for t in todo if t < stopped[0]]
        if k == 0 or not todo:
            break
        Gx *= 2
    out = []
    for t in Ts:
        if t in done:
            out.append(done[t])
            continue
        msg = why[t]
        if strict:
            raise AccountantError(msg)
        out.append(GridResult(s.name, a, t, math.nan, math.nan, math.inf, Gx, 0.0, 0.0,
                              time.perf_counter() - t0, msg))
    return out


def certified_rdp(s: Scenario, alpha, *, G: int = 512, T: int | None = None,
                  rel_tol: float = CERT_REL_TOL, G_max: int | None = None,
                  enough: float | None = None) -> "GridResult":
    """D_α of the last iterate, both orders, with an error bound the value can stand on.

    * DPSGD-GC with a linear canary and zero-loss data: the exact Gaussian mixture
      (:func:`linear_canary_exact`, log-space quadrature); error 1e-9·max(1, value).
    * DPSGD-DC: a certified bracket [lower, upper] of D_α in each order
      (:func:`certified_bracket`); ``value`` is its midpoint and ``error`` its half-width
      plus the round-off of the final sums, so [value − error, value + error] contains
      the true D_α.  How:
        - masses: K = [lo, hi] is split into G cells plus the two end atoms; lower and
          upper vectors of the log masses of θ_t are propagated (:func:`_bracket_iter`)
          through kernel brackets (:func:`_kernel_bracket`) that bound the mass one step
          sends from a source cell to a target whatever the law inside the source cell
          (first order: the unimodal Φ-difference at the ends/peak of the cell's range
          of means; second order, constant drift: tangent/chord of the log-concave target
          mass and the stochastic order of the within-cell laws, whose log-slope
          (log p_t)'(y) = E[x + dr − y | y]/τ² is bounded through bounds on the posterior
          mean of the source x given y in the cell, from the previous step's mass
          brackets and a density-kernel bracket (:func:`_posterior_mean_bounds`: the
          extreme of a ratio of box-constrained sums is at a threshold)); then clamped
          with Σ masses = 1.  Every log-sum-exp and log_ndtr is widened by its
          round-off bound, so the brackets hold in floating point.
        - lower bound: data processing on the partition (cells + atoms): D_α of the cell
          masses ≤ D_α of the laws, and Σ p^α q^{1−α} is increasing in p and decreasing
          in q (α > 1), so Σ p_lo^α q_hi^{1−α} bounds it from below.
        - upper bound: on each cell ∫ p^α q^{1−α} = P^α Q^{1−α}·E_ρq[(ρp/ρq)^α] (ρ the
          within-cell normalised densities); log(p/q) varies by at most W·h over a cell
          (its slope is a difference of posterior means over τ², bounded as above), so the
          ratio, of mean 1, has a log-range ≤ Wh and the chord bound χ of r^α applies
          (:func:`_log_chi_cells`); atoms are exact point
          masses: Σ P_hi^α Q_lo^{1−α}·χ (cells) + Σ P_hi^α Q_lo^{1−α} (atoms).
      If the error exceeds ``rel_tol``·max(value, 1e-6) on G cells, G is doubled (up to
      ``G_max``, default max(G, CERT_G_AUTO), within CERT_COST_MAX); if it still does,
      :class:`AccountantError` is raised and no number is returned (with ``enough``, a
      wider bracket lying at or below it is returned instead: :func:`certified_curve`).
      The bracket is second order in h for linear losses, first order for non-linear
      drifts (which are then mostly refused); its width grows with T, so long runs on
      fine noise are refused rather than estimated.  Assumed: log_ndtr and exp/log1p
      accurate to a few ulps (a 64u relative slack is added to every kernel entry) and
      the declared smoothness constants L of non-linear losses (the drift's Lipschitz
      constant).
    * anything else (DPSGD-GC with non-linear losses): the window's escaped tail has an
      unbounded likelihood ratio, so no bound can be given: :class:`AccountantError`."""
    a = _check_alpha(alpha)
    T = _check_T(s.T if T is None else T, MAX_T_GRID)
    G = _check_cert_G(G)
    return certified_curve(s, a, [T], G=G, rel_tol=rel_tol, G_max=G_max, enough=enough)[0]

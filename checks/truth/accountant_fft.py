"""The uncertified last-iterate accountant of noisy SGD on 1-D scenarios
(:mod:`checks.truth.losses`), and the closed form of the unprojected linear canary.

:func:`linear_canary_exact`: the exact Gaussian mixture of θ_T when every loss is linear
(the canary against zero-loss data, no projection), both orders, by quadrature.

:func:`fft_rdp` / :func:`fft_curve` (the FFT grid: push-forward on a window, FFT
convolution, cells below 1e-13 of the largest mass dropped) are fast but UNCERTIFIED —
they under-report at large orders — and are kept for benchmarks and for exploring
scenarios the certified accountant (:mod:`checks.truth.accountant`) refuses.  The batch
is a mixture over the *number* of examples drawn from each group of identical examples
(exchangeability; binomial weights truncated at tail mass 1e-12).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from itertools import product

import numpy as np
from scipy.fft import irfft, next_fast_len, rfft
from scipy.special import gammaln, logsumexp, ndtr

from checks.truth.divergences import BothOrders, Mixture1D, _check_alpha, mixture_rdp_1d
from checks.truth.losses import Scenario

_BINOM_TAIL = 1e-12
#: threads for the FFTs of the accountant
_WORKERS = 2


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
    """Last-iterate divergence, both orders: certified_rdp/curve (or the uncertified fft_*).

    ``forward_error`` / ``backward_error``: each order's own bound on |value − truth|
    (certified_*); left out (None) they are ``error``, and given they make ``error`` their
    larger — so ``error`` always bounds both orders."""

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
    forward_error: float | None = None
    backward_error: float | None = None
    method: str = ""        # certified_*: how the value was certified, in words

    def __post_init__(self):
        given = self.forward_error is not None or self.backward_error is not None
        if self.forward_error is None:
            self.forward_error = self.error
        if self.backward_error is None:
            self.backward_error = self.error
        if given:
            self.error = max(self.forward_error, self.backward_error)

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

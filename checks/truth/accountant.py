"""The certified last-iterate accountant of noisy SGD on 1-D scenarios
(:mod:`checks.truth.losses`): Rényi divergences of θ_T between D' = D ∪ {canary} and D,
both orders, returned only with an error it can stand behind.

:func:`last_iterate_rdp` = :func:`certified_rdp` and :func:`last_iterate_curve` =
:func:`certified_curve`: the exact Gaussian mixture for the unprojected linear canary
(:func:`~checks.truth.accountant_fft.linear_canary_exact`); for DPSGD-DC a certified
bracket [lower, upper] of D_α on K in each order — from the unprojected closed form with
the projection's effect bounded where the canary is linear against zero-loss data
(:mod:`checks.truth.accountant_walk`), and from G cells + the two end atoms (lower and
upper mass vectors propagated by dense log-sum-exps, round-off included;
:func:`certified_bracket`), intersected — returned as its midpoint ± half-width, each
order with its own error (see :func:`certified_rdp` for the proof and what is assumed);
an :class:`AccountantError` otherwise — also where the bracket is too wide at the
affordable G.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from itertools import product

import numpy as np
from scipy.special import gammaln, log_ndtr, ndtr

from checks.truth.accountant_fft import (
    MAX_T_GRID,
    GridResult,
    _binom_pmf,
    _binom_support,
    _check_T,
    linear_canary_exact,
)
from checks.truth.accountant_walk import applies as applies_walk
from checks.truth.accountant_walk import walk_bracket
from checks.truth.divergences import _check_alpha
from checks.truth.divergences import lse as _lse
from checks.truth.losses import Scenario

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


#: most batch compositions (product of the groups' support sizes) the first step takes
#: whole — every count, no tail dropped, so no ``free`` component (:func:`_first_step`)
FULL_SUPPORT_MAX = 20_000


def _bracket_components(s: Scenario, with_canary: bool, x: np.ndarray,
                        full: bool = False) -> list[_BComp]:
    """The batch-composition mixture with bracketed weights, drifts evaluated on ``x``.

    Groups of zero-gradient losses move nothing whatever their count, so their count law
    sums to exactly 1 and they are left out (no truncation).  Other groups use the
    binomial support of :func:`_binom_support` (tails below 1e-12 dropped); the weights
    carry a relative round-off slack and the dropped tail mass ρ becomes one ``free``
    component of weight in [0, ρ] whose drift can be anything a batch can produce.
    ``full``: where the product of the groups' counts + 1 is at most FULL_SUPPORT_MAX,
    every count is kept instead (the pmf's values bracketed by their relative round-off,
    an underflowed one by [0, 2e-290]): the weights bracket the exact law, no ``free``
    component."""
    live = [(c, l) for c, l in s.groups if c > 0 and l.constant_grad != 0.0]
    full = full and math.prod(c + 1 for c, _ in live) <= FULL_SUPPORT_MAX
    sup, rho = [], 0.0
    for c, _ in live:
        eps = 16 * _U * (gammaln(c + 1) + c * (abs(math.log(s.q)) + abs(math.log1p(-s.q))
                                               if s.q < 1 else 0.0) + 10)
        if full:
            k = np.arange(c + 1)
            w = _binom_pmf(k, c, s.q)
            sup.append((k, w, eps))
            continue
        k, w = _binom_support(c, s.q)
        sup.append((k, w, eps))
        rho += max(0.0, 1.0 - float(w.sum()) * (1 - eps)) + 1e-15
    canary = [(0, 1 - s.q), (1, s.q)] if with_canary else [(0, 1.0)]
    # every loss's clipped gradient on x, once (the same numbers the loop used to recompute)
    gclip = [np.clip(loss.grad(x), -s.C, s.C) for _, loss in live]
    gcan = np.clip(s.canary.grad(x), -s.C, s.C) if with_canary else None
    acc: dict[bytes, _BComp] = {}
    for combo in product(*[list(zip(k, w, [e] * len(k))) for k, w, e in sup]):
        wg = float(np.prod([w for _, w, _ in combo])) if combo else 1.0
        eg = sum(e for _, _, e in combo)
        for c, wc in canary:
            if wc <= 0 or (wg * wc <= 0 and not full):
                continue
            tot = np.zeros_like(x)
            Ld = 0.0
            const = True
            for kk, (_, loss), gc in zip([int(k) for k, _, _ in combo], live, gclip):
                if kk:
                    tot = tot + kk * gc
                    Ld += kk * loss.L
                    const = const and loss.constant_grad is not None
            if c:
                tot = tot + gcan
                Ld += s.canary.L
                const = const and s.canary.constant_grad is not None
            dr = -(s.eta / s.b) * tot
            w = wg * wc
            e = eg + 8 * _U * (len(live) + 2)
            wl, wh = w * (1 - e), w * (1 + e)
            if full and w < 1e-290:          # below the normal range: round-off unbounded
                wl, wh = 0.0, 2e-290
            key = dr.tobytes()
            if key in acc:
                acc[key].w_lo += wl
                acc[key].w_hi += wh
            else:
                acc[key] = _BComp(wl, wh, dr, const, 0.0 if const else (s.eta / s.b) * Ld)
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


def _first_components(s: Scenario, with_canary: bool):
    """The batch components of the first step as ``(w_lo, w_hi, m_lo, m_hi)``: weight
    bracket and range of θ_0 + drift (a point, or θ_0 ± the drift bound for the ``free``
    component).  Whole supports (:func:`_bracket_components` with ``full``); components
    whose drifts lie within 1e-9·τ of each other (the same count difference of groups
    whose gradients differ in the last bits) are merged into one with their weights summed
    and the range of their means — a looser but valid bracket, and far fewer sources."""
    x0 = float(s.theta0)
    tau = s.eta * s.sigma_dp
    comps = _bracket_components(s, with_canary, np.array([x0]), full=True)
    pts = []
    for cp in comps:
        if cp.free:
            pts.append((cp.w_lo, cp.w_hi, x0 - cp.Ld, x0 + cp.Ld, True))
        else:
            m = x0 + float(cp.dr[0])
            pts.append((cp.w_lo, cp.w_hi, m, m, False))
    pts_sorted = sorted(range(len(pts)), key=lambda i: pts[i][2])
    group = {}
    tol = 1e-9 * tau
    head, top = None, -math.inf
    for i in pts_sorted:
        if pts[i][4]:
            group[i] = i
            continue
        if head is None or pts[i][2] > top + tol:
            head = i
        group[i] = head
        top = pts[i][3]
    out: dict[int, list] = {}
    for i in range(len(pts)):           # groups in the order of their first member
        g = group[i]
        wl, wh, ml, mh, _ = pts[i]
        if g not in out:
            out[g] = [wl, wh, ml, mh]
        else:
            o = out[g]
            o[0] += wl
            o[1] += wh
            o[2] = min(o[2], ml)
            o[3] = max(o[3], mh)
    return [tuple(v) for v in out.values()]


def _first_step(s: Scenario, with_canary: bool, G: int, comps=None):
    """Bracket of the log masses of θ_1 (θ_0 is a point: exact up to round-off, the
    ``free`` component's contribution and the merged components' tiny mean ranges —
    :func:`_first_components`; over a range of means a cell's mass is unimodal, largest
    at the cell's midpoint, an atom's monotone: the extremes are at the ends or the
    peak)."""
    lo, hi = s.domain
    h = (hi - lo) / G
    tau = s.eta * s.sigma_dp
    edges = lo + h * np.arange(G + 1)
    edges[-1] = hi
    lo_, hi_ = np.full(G + 2, -np.inf), np.full(G + 2, -np.inf)
    mids = (edges[:-1] + edges[1:]) / 2
    peak = None
    for w_lo, w_hi, m1, m2 in (comps or _first_components(s, with_canary)):
        if m1 == m2:
            f = _log_target_mass(np.array([m1]), edges, tau)[0]
            flo, fhi = _widen(f, f)
        else:
            fl = _log_target_mass(np.array([m1]), edges, tau)[0]
            fh = _log_target_mass(np.array([m2]), edges, tau)[0]
            if peak is None:
                peak = float(_log_cell(np.array([-h / (2 * tau)]), np.array([h / (2 * tau)]))[0])
            fhi = np.maximum(fl, fh)
            fhi[:G] = np.where((m1 <= mids) & (mids <= m2), np.maximum(fhi[:G], peak), fhi[:G])
            flo, fhi = _widen(np.minimum(fl, fh), fhi)
        if w_lo > 0:
            lo_ = np.logaddexp(lo_, math.log(w_lo) + flo)
        hi_ = np.logaddexp(hi_, math.log(w_hi) + fhi)
    return lo_, hi_


def _first_post(s: Scenario, with_canary: bool, G: int, comps=None):
    """``post`` of θ_1 for :func:`_bracket_iter`: ``(E_min, E_max, 0, 0)`` with E[m | y] in
    [E_min(j), E_max(j)] for y in cell j, m = θ_0 + dr the mean of the batch component.
    θ_1's interior density is the Gaussian location mixture Σ w φ_τ(y − m), so E[m | y] is
    nondecreasing in y (its derivative is Var(m | y)/τ²): on cell j it lies between its
    values at the cell's edges, bounded by :func:`_posterior_mean_bounds` with the
    components as sources (weights [w_lo, w_hi]; the free component's m anywhere in
    θ_0 ± its drift bound) and point kernels φ_τ(e − m) (widened by their round-off)."""
    lo, hi = s.domain
    h = (hi - lo) / G
    tau = s.eta * s.sigma_dp
    edges = lo + h * np.arange(G + 1)
    edges[-1] = hi
    comps = comps or _first_components(s, with_canary)
    plo = np.array([c[2] for c in comps])
    phi = np.array([c[3] for c in comps])
    with np.errstate(divide="ignore"):
        llo = np.log(np.array([c[0] for c in comps]))
        lhi = np.log(np.array([c[1] for c in comps]))
    c0 = -math.log(tau * math.sqrt(2 * math.pi))
    emin_e, emax_e = np.empty(G + 1), np.empty(G + 1)
    step = max(1, _POST_CHUNK // len(comps))
    for j0 in range(0, G + 1, step):        # targets in chunks: memory O(S·chunk)
        e = edges[j0:j0 + step]
        # log φ_τ(e − m) over m in [plo, phi]: nearest and farthest distances
        ulo = e[None, :] - phi[:, None]
        uhi = e[None, :] - plo[:, None]
        near = np.where((ulo <= 0) & (uhi >= 0), 0.0, np.minimum(np.abs(ulo), np.abs(uhi)))
        far = np.maximum(np.abs(ulo), np.abs(uhi))
        klo, khi = _widen(c0 - far * far / (2 * tau * tau), c0 - near * near / (2 * tau * tau))
        for pos, pick, dest in ((phi, 1, emax_e), (plo, 0, emin_e)):
            o = np.argsort(pos, kind="stable")
            dest[j0:j0 + step] = _posterior_mean_bounds(llo[o], lhi[o], klo[o], khi[o],
                                                        plo[o], phi[o])[pick]
    return emin_e[:-1], emax_e[1:], 0.0, 0.0


#: targets × sources per chunk of :func:`_first_post`
_POST_CHUNK = 1 << 20


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
    first = _first_components(s, with_canary)
    post = _first_post(s, with_canary, G, first)
    lo_, hi_ = _clamp_total(*_first_step(s, with_canary, G, first))
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
CERT_COST_MAX = 6e7
#: largest grid the certified accountant raises G to on its own
CERT_G_AUTO = 1024
#: most kernel-piece entries (batch components × (G + 2)²) a pass may hold: the pieces of
#: every component are kept at once (each several float arrays of that size)
CERT_PIECES_MAX = 1e7


def _n_kernel_components(s: Scenario) -> int:
    """How many batch components the later steps' kernel has (with the canary; drifts on a
    few points of K, as :func:`_kernel_pieces` merges them on the grid)."""
    lo, hi = s.domain
    return len(_bracket_components(s, True, np.linspace(lo, hi, 9)))


#: largest grid it raises G to on its own where only T = 1 is left (the first step alone
#: costs O(G), not O(G²))
CERT_G_T1 = 1 << 16
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
                      0.0, 0.0, time.perf_counter() - t0, method=METHOD_EXACT)


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


#: how a value was certified (GridResult.method)
METHOD_EXACT = "exact Gaussian mixture (no domain), log-space quadrature"
METHOD_WALK = ("unprojected closed form with the projection's effect bounded (exit and "
               "tilted-tail bounds)")
METHOD_GRID = "certified log-domain grid accountant G={G}"


def _judge(s: Scenario, a: float, t: int, G: int, br, rel_tol: float, t0: float,
           enough: float | None = None, prior=None):
    """A GridResult from a bracket (midpoint ± half-width + round-off, each order its own),
    or the reason for refusing it.  ``enough``: a bracket wider than ``rel_tol`` is still
    returned when its upper end (the larger of value + error) is ≤ ``enough`` — it decides
    D_α ≤ enough.  ``prior``: ``((fw_lo, fw_hi), (bw_lo, bw_hi))``, another certified
    bracket of the same numbers (:func:`~checks.truth.accountant_walk.walk_bracket`),
    intersected with the grid's; ``br`` None: ``prior`` alone (``G`` is then 0)."""
    if br is None:
        (flo, fhi), (blo, bhi) = prior
        rnd = 0.0
    else:
        (flo, fhi), (blo, bhi), rnd = br
    if not all(math.isfinite(x) for x in (flo, fhi, blo, bhi, rnd)) and prior is None:
        return (f"certified error unbounded (forward in [{flo:.3g}, {fhi:.3g}], backward in "
                f"[{blo:.3g}, {bhi:.3g}], α = {a:g}, T = {t}, G = {G}): no value returned")
    if flo > fhi + 2 * rnd or blo > bhi + 2 * rnd:
        raise AssertionError(f"certified bracket inverted: {br!r}")   # a bug, not a refusal
    if prior is None:
        fw, bw = (flo + fhi) / 2, (blo + bhi) / 2
        fe, be = (fhi - flo) / 2 + rnd, (bhi - blo) / 2 + rnd
        method = METHOD_GRID.format(G=G)
        span = (min(flo, blo), max(fhi, bhi))
    else:
        ends = []
        for (lo_, hi_), (plo, phi) in (((flo, fhi), prior[0]), ((blo, bhi), prior[1])):
            L, U = max(lo_ - rnd, plo), min(hi_ + rnd, phi)
            if L > U:
                if L - U > 1e-9 * (1 + abs(L)):
                    raise AssertionError(f"certified brackets disjoint: {br!r} and "
                                         f"{prior!r}")          # a bug, not a refusal
                L = U = (L + U) / 2
            ends.append((L, U))
        (fl2, fh2), (bl2, bh2) = ends
        if not all(math.isfinite(x) for x in (fl2, fh2, bl2, bh2)):
            return (f"certified error unbounded (forward in [{fl2:.3g}, {fh2:.3g}], backward "
                    f"in [{bl2:.3g}, {bh2:.3g}], α = {a:g}, T = {t}, G = {G}): no value "
                    "returned")
        fw, bw = (fl2 + fh2) / 2, (bl2 + bh2) / 2
        fe, be = (fh2 - fl2) / 2, (bh2 - bl2) / 2
        method = METHOD_WALK if br is None else (METHOD_GRID.format(G=G) + " and " +
                                                 METHOD_WALK + ", intersected")
        span = (min(fl2, bl2), max(fh2, bh2))
    err = max(fe, be)
    if err > rel_tol * max(fw, bw, 1e-6) and not (enough is not None
                                                  and max(fw + fe, bw + be) <= enough):
        return (f"certified error {err:.3g} exceeds {rel_tol:g}·value (D_α in "
                f"[{span[0]:.6g}, {span[1]:.6g}], α = {a:g}, T = {t}, G = {G}): "
                "no value returned")
    return GridResult(s.name, a, t, fw, bw, err, int(G), 0.0, 0.0, time.perf_counter() - t0,
                      forward_error=fe, backward_error=be, method=method)


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
    G_max1 = None if G_max is not None else max(G, CERT_G_T1)
    G_max = _check_cert_G(max(G, CERT_G_AUTO) if G_max is None else max(G, G_max))
    G_max1 = G_max if G_max1 is None else G_max1
    t0 = time.perf_counter()
    if s.domain is None:
        return [_exact_gc(s, a, t, t0) for t in Ts]
    done: dict[int, GridResult] = {}
    why: dict[int, str] = {}
    # the unprojected closed form with the projection's effect bounded: no grid, and
    # certified where the projection is seldom active (accountant_walk)
    walk = {}
    if applies_walk(s):
        for t in Ts:
            br = walk_bracket(s, a, t)
            if br is None:
                continue
            walk[t] = br
            got = _judge(s, a, t, 0, None, rel_tol, t0, enough, prior=br)
            if isinstance(got, GridResult):
                done[t] = got
    spent, Gx = 0.0, G
    # a looser rel_tol accepts a wider bracket; it does not keep a hopeless pass going
    stop_tol = min(rel_tol, CERT_REL_TOL)
    todo = [t for t in Ts if t not in done]
    n1 = nk = None

    def pass_cost(T_last, g):
        # T = 1 alone: the first step only, O(S·G) for S batch components (both laws);
        # else the dense steps, 4·T·(G + 2)² log-sum-exp entries, and the kernel pieces,
        # (G + 2)² entries for each of the n_k batch components of the later steps beyond
        # the linear canary's two (whose pieces the 4·T·(G + 2)² always covered)
        nonlocal n1, nk
        if T_last > 1:
            if nk is None:
                nk = _n_kernel_components(s)
            return 4.0 * T_last * (g + 2) ** 2 + 8.0 * max(0, nk - 2) * (g + 2) ** 2
        if n1 is None:
            n1 = len(_first_components(s, True))
        return 4.0 * n1 * (g + 2)

    while todo:
        g_top = G_max1 if todo[-1] == 1 else G_max
        if todo[-1] > 1:
            pass_cost(2, Gx)
            if nk * (Gx + 2) ** 2 > CERT_PIECES_MAX:
                for t in todo:
                    if t > 1:
                        why[t] = (f"the batch mixture has {nk} components whose drift depends "
                                  f"on θ: their kernels on G = {Gx} cells would hold "
                                  f"{nk * (Gx + 2) ** 2:.3g} entries (> {CERT_PIECES_MAX:g}): "
                                  "no value returned")
                todo = [t for t in todo if t == 1]
                if not todo:
                    break
        cost = pass_cost(todo[-1], Gx)
        if Gx > G and spent + cost > CERT_COST_MAX:
            break
        spent += cost
        # doublings still possible after this pass; the bracket shrinks by a factor 4 to 6
        # a doubling at T ≥ 2 (measured on benchmarks/bench_accountant.py's regimes: the
        # mass brackets' widening compounds over the steps), so 8 a doubling is allowed
        k, g2, c2 = 0, Gx * 2, spent
        while (g2 <= g_top and c2 + pass_cost(todo[-1], g2) <= CERT_COST_MAX
               and (todo[-1] == 1 or nk * (g2 + 2) ** 2 <= CERT_PIECES_MAX)):
            c2 += pass_cost(todo[-1], g2)
            k, g2 = k + 1, g2 * 2
        reach = 8.0 ** k
        last = todo[-1]
        stopped = []

        def hopeless(t, br, reach=reach, last=last, stopped=stopped):
            (flo, fhi), (blo, bhi), rnd = br
            if t in walk:               # what the judge will see: the intersection
                (pfl, pfh), (pbl, pbh) = walk[t]
                flo, fhi = max(flo, pfl), min(fhi, pfh)
                blo, bhi = max(blo, pbl), min(bhi, pbh)
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
        last_br = {}
        for t, br in _bracket_rows(s, a, Gx, todo, hopeless):
            got = _judge(s, a, t, Gx, br, rel_tol, t0, enough, prior=walk.get(t))
            last_br[t] = br
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
            # best shrink 1/8 a doubling, could not bring the bracket there to
            # rel_tol·value (with the value allowed to grow ∝ T): every T from there on is
            # as hopeless, and a finer pass would only refuse it later at 4× the cost.
            # Earlier T go on.
            todo = [t for t in todo if t < stopped[0]]
        if k == 0 or not todo:
            break
        jump = 1
        if todo == [1] and 1 in last_br:
            # the first step alone: its bracket (exact masses, the within-cell term of the
            # upper end) shrinks like 1/G², so go at once to the G it needs, not G·2
            (flo, fhi), (blo, bhi), rnd = last_br[1]
            half = max(fhi - flo, bhi - blo) / 2 + rnd
            need = half / (rel_tol * max(fhi, bhi, 1e-6))
            if math.isfinite(need) and need > 4:
                jump = min(k, int(math.ceil(math.log2(math.sqrt(need) * 1.2))))
        Gx *= 2 ** max(1, jump)
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
    * DPSGD-DC: a certified bracket [lower, upper] of D_α in each order; ``value`` is its
      midpoint and ``forward_error`` / ``backward_error`` each order's half-width (plus
      the round-off of the final sums), so [value − error, value + error] contains the
      true D_α in each order; ``error`` is the larger of the two.  Two brackets, the
      second only for the orders and T the first leaves too wide, intersected:
        - a linear canary against zero-loss data: the unprojected closed form with the
          projection's effect bounded (exit probabilities, densities of paths that
          touched an end, α-tilted tails; :func:`~checks.truth.accountant_walk.
          walk_bracket`; the closed form charged 1e-9·max(1, value) as without a
          domain) — no grid; tight where the walk and its tilted versions stay far from
          the ends of K within T steps, wide (never wrong) elsewhere;
        - the grid bracket (:func:`certified_bracket`).  How:
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
        - at T = 1 the masses are exact (θ_0 is a point: the whole binomial support of
          every group, components within 1e-9·τ merged into a range of means) and the
          slope of log(p/q) comes from E[m | y], nondecreasing in y, at the cell's edges
          (:func:`_first_post`); the first step alone costs O(G), so G may go to CERT_G_T1.
      If the error exceeds ``rel_tol``·max(value, 1e-6) on G cells, G is doubled (up to
      ``G_max``, default max(G, CERT_G_AUTO) — CERT_G_T1 where only T = 1 is left —
      within CERT_COST_MAX; a batch mixture whose state-dependent components' kernels
      would exceed CERT_PIECES_MAX entries is refused at once); if it still does,
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

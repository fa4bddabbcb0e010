"""The exact privacy profile of output-perturbed averaged SGD on members of the Hölder class:
provider ``output-perturbed-sgd`` for (ε, δ) statements (``Bound(profile=True)``) on
:class:`~theory.mechanisms.AveragedSGD` with ``sigma_out`` > 0 and no gradient noise.

**Instance.**  d = 1, data S = n points evenly spread over [−a, a], l(w, z) =
c|w − z|^{1+ν}/(1+ν) + k (:mod:`checks.truth.power_loss` in one dimension): convex,
non-negative, ν-Hölder with constant c·2^{1−ν} ≤ L.  When the statement assumes
``OriginBounds(M, M0)`` the instance attains them: c = L/2^{1−ν} and a = (M/c)^{1/ν} for
ν > 0, c = M ≤ L/2 and a = 1 for ν = 0, and the shift k = M0 − c a^{1+ν}/(1+ν) ≥ 0 (else
the point is not a member).  Neighbours S' replace one z_i by −a, 0 or a.

**Truth.**  The released point is w̄_I(S) + b with I the hidden index sequence (uniform
over [n]^T, enumerated: at most :data:`ENUMERATE_MAX` sequences) and b ~ N(0, σ²): the
output laws are the equal-weight Gaussian mixtures P = avg_I N(w̄_I(S), σ²) and Q =
avg_I N(w̄_I(S'), σ²).  Their δ(ε) = sup_E P(E) − e^ε Q(E) is enclosed, in both orders:

* below by the best half-line E = (x, ∞) or (−∞, x) (a valid event; exact Gaussian tails,
  log-space), re-evaluated at 50 digits for a confirmation;
* above by the index coupling: δ(P‖Q) ≤ avg_I δ_Gauss(ε; |w̄_I(S) − w̄_I(S')|, σ) (the
  hockey-stick divergence is jointly convex).

The largest enclosure over the neighbouring pairs tried is the truth (a lower bound of the
mechanism's δ(ε), whose supremum runs over every pair of datasets): a VIOLATED is a
member and a pair that break the claim; a HOLDS is on the pairs tried.
"""
from __future__ import annotations

import itertools
import math

import mpmath
import numpy as np
from scipy.special import log_ndtr

from checks.plugins import truth_provider
from checks.truth.base import (
    NotMember,
    Support,
    Truth,
    TruthProvider,
    Unavailable,
    all_classes,
    evaluate,
)
from checks.truth.divergences import lse
from checks.truth.providers import gaussian_delta
from checks.truth.sgd_paths import run_sgd
from theory.classes import (
    BoundedDomain,
    Convex,
    Holder,
    LowerBounded,
    NonNegative,
    OriginBounds,
)
from theory.mechanisms import AveragedSGD

ENUMERATE_MAX = 1024
#: iterations simulated per sequence at most
T_MAX = 12
#: thresholds of the half-line search (twice: coarse, then around the best)
GRID = 128
A_RANGE = (1e-6, 1e6)


def _log_tail(means, weights, grid, sigma, sgn):
    """log Σ_i w_i Φ(±(μ_i − x)/σ) for every x of the grid."""
    return lse(np.log(weights)[:, None]
               + log_ndtr(sgn * (means[:, None] - grid[None, :]) / sigma), axis=0)


def halfline_delta(a_means: np.ndarray, b_means: np.ndarray, sigma: float, eps: float,
                   points: int = GRID) -> tuple[float, float, str]:
    """max over half-lines E of P(E) − e^ε Q(E) for the equal-weight mixtures of N(a_i, σ²)
    (P) and N(b_i, σ²) (Q): (value, threshold, side) — a grid over the means' range ± 8σ,
    refined once around the best threshold."""
    am, aw = np.unique(a_means, return_counts=True)
    bm, bw = np.unique(b_means, return_counts=True)
    aw, bw = aw / aw.sum(), bw / bw.sum()
    lo = min(am[0], bm[0]) - 8 * sigma
    hi = max(am[-1], bm[-1]) + 8 * sigma
    best = (0.0, float(lo), ">")
    for side in (">", "<"):
        sgn = 1.0 if side == ">" else -1.0
        grid = np.linspace(lo, hi, points)
        for _ in range(2):
            lp = _log_tail(am, aw, grid, sigma, sgn)
            lq = _log_tail(bm, bw, grid, sigma, sgn)
            with np.errstate(over="ignore", invalid="ignore"):
                val = np.where(lq + eps < lp, np.exp(lp) * -np.expm1(lq + eps - lp), 0.0)
            i = int(np.argmax(val))
            if val[i] > best[0]:
                best = (float(val[i]), float(grid[i]), side)
            step = grid[1] - grid[0]
            grid = np.linspace(grid[i] - step, grid[i] + step, points)
    return best


def halfline_delta_mp(a_means, b_means, sigma, eps, x, side, dps: int = 50) -> mpmath.mpf:
    """P(E) − e^ε Q(E) for the half-line E at ``dps`` digits."""
    with mpmath.workdps(dps):
        s, xx, e = mpmath.mpf(sigma), mpmath.mpf(x), mpmath.mpf(eps)
        sgn = 1 if side == ">" else -1
        P = sum(mpmath.ncdf(sgn * (mpmath.mpf(float(m)) - xx) / s) for m in a_means) / len(a_means)
        Q = sum(mpmath.ncdf(sgn * (mpmath.mpf(float(m)) - xx) / s) for m in b_means) / len(b_means)
        return P - mpmath.exp(e) * Q


class OutputPerturbedSGDProvider(TruthProvider):
    name = "output-perturbed-sgd"
    mechanisms = (AveragedSGD,)
    classes = (Holder, Convex, NonNegative, LowerBounded, OriginBounds, BoundedDomain)
    profiles = True

    def supports(self, stmt):
        got = super().supports(stmt)
        if not got:
            return got
        if not getattr(stmt, "profile", False):
            return Support(False, f"{self.name}: (epsilon, delta) profiles only")
        m = stmt.mechanism
        if m.sigma_grad != 0 or m.sigma_out == 0:
            return Support(False, f"{self.name}: output perturbation only (sigma_grad = 0, "
                                  "sigma_out > 0)")
        if not any(isinstance(c, Holder) for c in all_classes(stmt)):
            return Support(False, f"{self.name}: needs Holder(nu, L) to pick a member")
        return Support(True)

    def derived(self, stmt):
        m = stmt.mechanism
        out = {"n": m.n, "T": m.T, "eta": m.eta, "epsilon": stmt.expr}
        for c in all_classes(stmt):
            for k, e in c.params().items():
                out.setdefault(f"{c.name}.{k}", e)
        return out

    def anchors(self, stmt):
        out = []
        for (n, T, eps), nu in itertools.product(
                ((2, 6, 1.0), (2, 8, 1e2), (3, 5, 1e4), (2, 10, 1e6), (4, 4, 1e7)),
                (0.0, 0.5, 0.9)):
            h, o = (c.__name__ for c in (Holder, OriginBounds))
            out.append({"n": n, "T": T, "epsilon": eps, f"{h}.nu": nu, f"{h}.L": 1.0,
                        f"{o}.M": 0.5, f"{o}.M0": 2.0})
        return out

    def _instance(self, stmt, v):
        nu = L = M = M0 = None
        for c in all_classes(stmt):
            if isinstance(c, Holder):
                nu, L = evaluate(c.nu, v), evaluate(c.L, v)
            elif isinstance(c, OriginBounds):
                M, M0 = evaluate(c.M, v), evaluate(c.M0, v)
        if not (0 <= nu <= 1) or not L > 0:
            raise NotMember(f"nu = {nu} outside [0, 1] or L = {L} not positive")
        if M is None:
            c, a, k = L / 2 ** (1 - nu), 1.0, 0.0
        else:
            if nu == 0:
                if M > L / 2:
                    raise NotMember("ν = 0: sup |∂l(0, z)| = c must be ≤ L/2 for the family")
                c, a = M, 1.0
            else:
                c = L / 2 ** (1 - nu)
                la = math.log(M / c) / nu
                a = math.exp(la) if abs(la) < 700 else math.inf
            if not (A_RANGE[0] <= a <= A_RANGE[1]):
                raise NotMember(f"the data range a = {a:.3g} needed for M is out of reach")
            k = M0 - c * a ** (1 + nu) / (1 + nu)
            if k < 0:
                raise NotMember("M0 below sup_z l(0, z) of the member attaining M")
        return nu, c, a, k

    def member(self, stmt, v):
        self._instance(stmt, v)

    def truth(self, stmt, v, *, precise=False):
        m = stmt.mechanism
        n, T = evaluate(m.n, v), evaluate(m.T, v)
        if n != int(n) or T != int(T) or n < 1 or T < 1:
            raise Unavailable("n and T must be positive integers")
        n, T = int(n), int(T)
        if n ** T > ENUMERATE_MAX or T > T_MAX:
            raise Unavailable(f"n^T = {n}^{T} index sequences: beyond enumeration "
                              f"(at most {ENUMERATE_MAX} sequences of at most {T_MAX} steps)")
        eta, sigma = evaluate(m.eta, v), evaluate(m.sigma_out, v)
        radius = None if m.radius is None else evaluate(m.radius, v)
        eps = evaluate(stmt.expr, v)
        if not (eta > 0 and sigma > 0):
            raise Unavailable("eta and sigma_out must be > 0")
        nu, c, a, _ = self._instance(stmt, v)
        seqs = np.array(list(itertools.product(range(n), repeat=T)), dtype=int)
        z = np.linspace(-a, a, n) if n > 1 else np.array([a])
        wbar, _ = run_sgd(z, seqs, nu=nu, c=c, eta=eta, radius=radius)
        best = {"fwd": (0.0, 0.0, None), "bwd": (0.0, 0.0, None)}
        for i in range(n):
            for zi in (-a, 0.0, a):
                if zi == z[i]:
                    continue
                z2 = z.copy()
                z2[i] = zi
                w2, _ = run_sgd(z2, seqs, nu=nu, c=c, eta=eta, radius=radius)
                shifts = np.abs(wbar - w2)
                hi = float(np.mean([gaussian_delta(eps, float(s), sigma) for s in shifts]))
                for key, (P, Q) in (("fwd", (wbar, w2)), ("bwd", (w2, wbar))):
                    lo, x, side = halfline_delta(P, Q, sigma, eps)
                    if lo > best[key][0] or (lo == best[key][0] and hi > best[key][1]):
                        best[key] = (lo, max(hi, lo), (P, Q, x, side, i, zi))
        (lo_f, hi_f, wf), (lo_b, hi_b, wb) = best["fwd"], best["bwd"]
        # replace-one adjacency: the mechanism's δ(ε) is the larger over the ordered pairs;
        # it fills both slots (the add/remove orders of other providers)
        lo, hi = max(lo_f, lo_b), max(hi_f, hi_b)
        err = (hi - lo) / 2 + 1e-12
        t = Truth((lo + hi) / 2, (lo + hi) / 2, err,
                  "output mixtures over all index sequences: best half-line event (below), "
                  "index coupling of Gaussian profiles (above)",
                  f"1-D member c|w − z|^(1+ν)/(1+ν), ν = {nu:g}, c = {c:.4g}, data on "
                  f"[−{a:.4g}, {a:.4g}], n = {n}, T = {T}, one datum replaced (both "
                  "orders of each pair; the larger δ in both slots)")
        if precise:
            cands = []
            for lo_, wit in ((lo_f, wf), (lo_b, wb)):
                if wit is not None and lo_ > 0:
                    P, Q, x, side, _, _ = wit
                    cands.append(halfline_delta_mp(P, Q, sigma, eps, x, side))
            if cands:
                t.extra["lower_mp"] = max(cands)
                t.method += ", the event's δ re-evaluated at 50 digits"
        return t


truth_provider(OutputPerturbedSGDProvider())

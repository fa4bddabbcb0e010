"""A certified bracket of the projected last iterate from the unprojected closed form,
for the linear canary against zero-loss data on a domain K = [lo, hi] (issue 37).

Where the projection is seldom active — the walk and its α-tilted versions stay far from
the ends of K within T steps — D_α of the projected θ_T is within a few Gaussian tails of
the unprojected one, which :func:`~checks.truth.accountant_fft.linear_canary_exact`
computes in closed form (a Binomial(T, q) Gaussian mixture against a Gaussian; charged
1e-9·max(1, value), as the accountant charges it without a domain).  This module bounds
the difference; :func:`walk_bracket` returns certified [lower, upper] of D_α in both orders
at no grid cost, or None where the scenario is not of this kind.

The model (linear losses: the drift does not depend on θ).  Increments Z_t are i.i.d.
with law μ_P = (1 − q)N(0, τ²) + qN(u, τ²) on D' (u = −(η/b)·clip_C(canary gradient),
taken ≥ 0 by a reflection) and μ_Q = N(0, τ²) on D (τ = ησ_DP); the unprojected walk is
S_t = θ_0 + Z_1 + … + Z_t and the projected one θ_t = Π_K(θ_{t−1} + Z_t).  On the event
E = {S_t ∈ K for every t ≤ T} the two coincide, θ_T = S_T.  With B = [lo + δ, hi − δ]:

1. Interior densities (y ∈ B).  Writing p = a + b with a the density of θ_T on E and b on
   Eᶜ, and p' = a + b' for the unprojected S_T: p' − b' ≤ p ≤ p' + b.  On Eᶜ with θ_T
   interior, let s ≤ T − 1 be the last step with θ_s at an end of K; after it the walk
   moves freely, so b(y) ≤ Σ_s P(θ_s ∈ ∂K)·max_end f_{T−s}(y − end), with
   P(θ_s ∈ ∂K) ≤ β(s) = Σ_{t≤s} P(S_t ∉ K) (the projected walk first leaves where S does)
   and f_k the density of k increments, at most φ_{τ√k}(distance to [0, k·u]).  The same
   bound holds for b' (decompose by the first exit; the sup over the outside of K is at
   its end).  Relative to p' ≥ (1 − q)^T φ_{τ√T}(y − θ_0) (q' = φ_{τ√T}(y − θ_0) for D),
   the sup over B of each term is the max of a piecewise quadratic in y (closed form):
   ε_P, ε_Q with p ∈ [(1 − ε_P)p', (1 + ε_P)p'] on B, q likewise.
2. Tilted tails.  For a set N of values of θ_T, ∫_N p^α q^{1−α} ≤ E_Q[L^α; θ_T ∈ N]
   (L = Π ℓ(Z_t), ℓ = dμ_P/dμ_Q: p/q(y) = E_Q[L | θ_T = y], then Jensen).  Per step,
   ℓ^α φ_τ is at most a finite Gaussian mixture (exactly, Σ_k C(α,k)(1−q)^{α−k}q^k
   e^{k(k−1)u²/2τ²} φ_τ(z − ku) for integer α; for fractional α, ℓ^α ≤ the convex
   combination of ℓ^⌊α⌋ and ℓ^⌈α⌉), so t steps are at most a mixture over j·u with the
   coefficients of that polynomial's t-th power; for the backward order (base P,
   ℓ^{−α}μ_P = ℓ^{1−α}φ) ℓ^{1−α} ≤ min((1−q)^{1−α}, q^{1−α}e^{−(α−1)(uz − u²/2)/τ²}),
   one shifted Gaussian each.  θ_T ∈ K∖B (atoms included) needs S_T ∉ B or some S_t ∉ K
   (t < T), and the later steps factor out (their mass c per step), so
   I_N ≤ F_T(S_T ∉ B) + Σ_{t<T} c^{T−t}·F_t(S_t ∉ K), F_t the tilted t-step measure.
   The unprojected integral outside B is ≤ F_T(S_T ∉ B) likewise.
3. D_α of the projected laws, I = ∫ p^α q^{1−α} (+ atoms), α > 1, is increasing in p and
   decreasing in q:  (1 − ε_P)^α(1 + ε_Q)^{1−α}(I' − F_T(S_T ∉ B)) ≤ I ≤
   (1 + ε_P)^α(1 − ε_Q)^{1−α} I' + I_N, I' = e^{(α−1)D'} the unprojected integral; the
   backward order swaps P and Q.  Several δ are tried; the brackets are intersected.

Every quantity is a log-domain float (log_ndtr, log-sum-exp), each end moved outwards by
a relative 1e-9 for round-off.  The bracket is tight only where the projection is far
(ε, tails ≪ the value's precision); elsewhere it is wide and the grid bracket decides.
"""
from __future__ import annotations

import math

import numpy as np
from scipy.special import gammaln, log_ndtr

from checks.truth.accountant_fft import linear_canary_exact
from checks.truth.divergences import lse as _lse
from checks.truth.losses import Scenario

#: relative slack on every log-domain end (round-off of log_ndtr, log-sum-exps, D')
_SLACK = 1e-9
#: error charged to the unprojected closed form (as the accountant's DPSGD-GC path)
_EXACT_REL = 1e-9
#: largest T, and largest (⌈α⌉ + 1)·T (the tilted polynomial's degree), tried here
WALK_T_MAX = 1000
WALK_COST_MAX = 100_000
#: the margins δ of B = [lo + δ, hi − δ] tried, as fractions of the half-width of K
_DELTAS = (0.05, 0.1, 0.2, 0.3, 0.45)


def applies(s: Scenario) -> bool:
    """A projected scenario with a linear canary against zero-loss data."""
    return (s.domain is not None and s.canary.constant_grad is not None
            and all(c == 0 or l.constant_grad == 0.0 for c, l in s.groups))


def _log_add(a: float, b: float) -> float:
    return float(np.logaddexp(a, b))


def _log_sub(a: float, b: float) -> float:
    """log(e^a − e^b), −inf when b ≥ a."""
    if not b < a:
        return -math.inf
    return a + math.log1p(-math.exp(b - a))


def _ln_phi(x, sd):
    return -0.5 * (np.asarray(x, float) / sd) ** 2 - math.log(sd * math.sqrt(2 * math.pi))


def _log_out_of(mean, sd, lo, hi) -> np.ndarray:
    """log P(N(mean, sd²) ∉ [lo, hi]) (vectorised over mean)."""
    mean = np.asarray(mean, float)
    return np.logaddexp(log_ndtr((mean - hi) / sd), log_ndtr((lo - mean) / sd))


def _log_binom(t: int, q: float) -> np.ndarray:
    j = np.arange(t + 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        lq = math.log(q)
        l1q = math.log1p(-q) if q < 1 else -math.inf
        return (gammaln(t + 1) - gammaln(j + 1) - gammaln(t - j + 1) + j * lq
                + np.where(j < t, (t - j) * l1q, 0.0))


def _tilt_coeffs(a: float, q: float, r2: float) -> np.ndarray:
    """log A_k: ℓ^α φ_τ(z) ≤ Σ_k A_k φ_τ(z − k·u) (r2 = u²/τ²); exact for integer α,
    the convex combination of the two neighbouring integers otherwise."""
    def one(m: int) -> np.ndarray:
        k = np.arange(m + 1)
        return _log_binom(m, q) + k * (k - 1) * r2 / 2
    lo_ = math.floor(a)
    if a == lo_:
        return one(lo_)
    th = a - lo_
    A, B = one(lo_), one(lo_ + 1)
    out = np.full(lo_ + 2, -math.inf)
    out[:lo_ + 1] = math.log1p(-th) + A
    return np.logaddexp(out, math.log(th) + B)


def _log_conv(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Coefficients (log) of the product of two polynomials given by log coefficients."""
    out = np.full(len(x) + len(y) - 1, -math.inf)
    for k, v in enumerate(y):
        if v > -math.inf:
            out[k:k + len(x)] = np.logaddexp(out[k:k + len(x)], x + v)
    return out


class _Walk:
    """The quantities of the module docstring for one scenario (reflected so that u ≥ 0),
    one order α and horizon T."""

    def __init__(self, s: Scenario, a: float, T: int):
        g = float(np.clip(s.canary.constant_grad, -s.C, s.C))
        u = -(s.eta / s.b) * g
        lo, hi = map(float, s.domain)
        th0 = float(s.theta0)
        if u < 0:
            lo, hi, th0, u = -hi, -lo, -th0, -u
        self.lo, self.hi, self.th0, self.u = lo, hi, th0, u
        self.q, self.tau, self.a, self.T = s.q, s.eta * s.sigma_dp, a, T
        tau, q = self.tau, self.q
        r2 = (u / tau) ** 2
        # forward tilt: polynomial powers of Σ_k A_k X^k (t-step coefficients), its mass c
        self.fw_A = _tilt_coeffs(a, q, r2)
        self.fw_W = [np.zeros(1)]
        for _ in range(T):
            self.fw_W.append(_log_conv(self.fw_W[-1], self.fw_A))
        self.fw_logc = float(_lse(self.fw_A))
        # backward tilt: ℓ^{1−α}φ ≤ min(A0·φ(z), B0·φ(z + (α−1)u))
        self.bw_lA0 = (1 - a) * math.log1p(-q) if q < 1 else math.inf
        self.bw_lB0 = (1 - a) * math.log(q) + a * (a - 1) * r2 / 2
        self.bw_shift = -(a - 1) * u
        if q < 1 and u > 0:
            zs = tau * tau * math.log((1 - q) / q) / u + u / 2
            lc = _log_add(self.bw_lA0 + float(log_ndtr(zs / tau)),
                          self.bw_lB0 + float(log_ndtr(-(zs - self.bw_shift) / tau)))
        else:
            lc = self.bw_lB0
        self.bw_logc = min(lc, self.bw_lA0, self.bw_lB0)
        # exits of the unprojected walks: log P(S_t ∉ K), t = 1..T, and their partial sums
        self.log_beta = {}
        for law in ("P", "Q"):
            ex = []
            for t in range(1, T + 1):
                sd = tau * math.sqrt(t)
                if law == "P":
                    lw = _log_binom(t, q)
                    v = float(_lse(lw + _log_out_of(th0 + u * np.arange(t + 1), sd, lo, hi)))
                else:
                    v = float(_log_out_of(th0, sd, lo, hi))
                ex.append(v)
            beta = np.logaddexp.accumulate(np.array(ex))
            self.log_beta[law] = np.minimum(beta, 0.0)

    # -- tilted t-step measures of the complement of an interval --------------------
    def log_F(self, order: str, t: int, lo: float, hi: float) -> float:
        """log of the tilted t-step measure of {S_t ∉ [lo, hi]} (upper bound)."""
        sd = self.tau * math.sqrt(t)
        if order == "fw":
            W = self.fw_W[t]
            means = self.th0 + self.u * np.arange(len(W))
            return float(_lse(W + _log_out_of(means, sd, lo, hi)))
        a0 = t * self.bw_lA0 + float(_log_out_of(self.th0, sd, lo, hi))
        b0 = t * self.bw_lB0 + float(_log_out_of(self.th0 + t * self.bw_shift, sd, lo, hi))
        return min(a0, b0)

    def log_IN(self, order: str, delta: float) -> float:
        """log of the bound on ∫ over K∖B (atoms included) of the projected integrand."""
        lo, hi, T = self.lo, self.hi, self.T
        lc = self.fw_logc if order == "fw" else self.bw_logc
        out = self.log_F(order, T, lo + delta, hi - delta)
        for t in range(1, T):
            out = _log_add(out, (T - t) * lc + self.log_F(order, t, lo, hi))
        return out

    # -- the interior densities ---------------------------------------------------------
    def _sup_ratio(self, law: str, k: int, edge: float, B: tuple[float, float]) -> float:
        """log sup_{y∈B} φ_{τ√k}(dist(y − edge, [0, k·u_law])) / p'_low(y)."""
        tau, T, u = self.tau, self.T, (self.u if law == "P" else 0.0)
        sk, sT = tau * math.sqrt(k), tau * math.sqrt(T)
        if law == "P":
            if self.q < 1:
                lw, m = T * math.log1p(-self.q), self.th0
            else:
                lw, m = 0.0, self.th0 + T * self.u
        else:
            lw, m = 0.0, self.th0
        A, Bd = edge, edge + k * u           # dist(y − edge, [0, ku]) = dist(y, [A, Bd])

        def h(y):
            d = A - y if y < A else (y - Bd if y > Bd else 0.0)
            return float(_ln_phi(d, sk) - _ln_phi(y - m, sT)) - lw

        u0, v0 = B
        cand = [u0, v0, min(max(A, u0), v0), min(max(Bd, u0), v0)]
        den = 1 / (k * tau * tau) - 1 / (T * tau * tau)
        for c in (A, Bd):                    # vertices of the two outer (concave) pieces
            y = (c / (k * tau * tau) - m / (T * tau * tau)) / den
            cand.append(min(max(y, u0), v0))
        return max(h(y) for y in cand)

    def log_eps(self, law: str, delta: float) -> float:
        """log ε_law on B = [lo + δ, hi − δ] (−inf at T = 1: nothing can come back)."""
        B = (self.lo + delta, self.hi - delta)
        out = -math.inf
        for s_ in range(1, self.T):
            lb = float(self.log_beta[law][s_ - 1])
            k = self.T - s_
            for edge in (self.lo, self.hi):
                out = _log_add(out, lb + self._sup_ratio(law, k, edge, B))
        return out


def _up(x: float) -> float:
    return x + _SLACK * (1 + abs(x)) if math.isfinite(x) else x


def _down(x: float) -> float:
    return x - _SLACK * (1 + abs(x)) if math.isfinite(x) else x


def walk_bracket(s: Scenario, alpha: float, T: int):
    """``((fw_lo, fw_hi), (bw_lo, bw_hi))``: certified bounds on D_α of the projected θ_T
    in both orders (module docstring), or None where the scenario is not a linear canary
    against zero-loss data on a domain (or the closed form cannot be evaluated).  The
    bounds may be loose (even [0, ∞]) where the projection is active."""
    if not applies(s):
        return None
    a, T = float(alpha), int(T)
    if T > WALK_T_MAX or (math.ceil(a) + 1) * T > WALK_COST_MAX:
        return None
    g = float(np.clip(s.canary.constant_grad, -s.C, s.C))
    if g == 0.0:
        return (0.0, 0.0), (0.0, 0.0)
    try:
        d = linear_canary_exact(s.with_(algorithm="DPSGD-GC", domain=None, T=T), a)
    except ValueError:
        return None
    if not (math.isfinite(d.forward) and math.isfinite(d.backward)):
        return None
    err = _EXACT_REL * max(1.0, d.forward, d.backward)
    w = _Walk(s, a, T)
    half = (w.hi - w.lo) / 2
    deltas = [0.0] if T == 1 else [f * half for f in _DELTAS]
    out = []
    for order, val in (("fw", d.forward), ("bw", d.backward)):
        num, den = ("P", "Q") if order == "fw" else ("Q", "P")
        lo_b, hi_b = 0.0, math.inf
        for delta in deltas:
            le_n, le_d = w.log_eps(num, delta), w.log_eps(den, delta)
            lI_lo = (a - 1) * (val - err)
            lI_hi = (a - 1) * (val + err)
            tail = w.log_F(order, T, w.lo + delta, w.hi - delta)
            lIN = w.log_IN(order, delta)
            # upper: (1 + ε_num)^α (1 − ε_den)^{1−α} I' + I_N
            if le_d < 0:
                up = (lI_hi + a * math.log1p(math.exp(le_n))
                      + (1 - a) * math.log1p(-math.exp(le_d)))
                up = _log_add(_up(up), _up(lIN))
                hi_b = min(hi_b, _up(up) / (a - 1))
            # lower: (1 − ε_num)^α (1 + ε_den)^{1−α} (I' − tail)
            if le_n < 0:
                base = _log_sub(_down(lI_lo), _up(tail))
                low = base + a * math.log1p(-math.exp(le_n)) \
                    + (1 - a) * math.log1p(math.exp(le_d))
                if math.isfinite(low):
                    lo_b = max(lo_b, _down(low) / (a - 1))
        out.append((lo_b, hi_b))
    return out[0], out[1]

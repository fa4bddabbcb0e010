"""Empirical Rényi divergences of the last iterate, from the simulator's samples.

``P`` is the law of θ_T on ``D' = D ∪ {canary}`` (the runs *with* the canary), ``Q`` the law
on ``D``.  Both orders are estimated: ``forward = D_α(P‖Q)`` ("add") and
``backward = D_α(Q‖P)`` ("remove").  Everything is batched over runs (chunks of runs, never a
Python loop over runs) and deterministic: no random numbers are drawn here.

Two estimators, chosen by what is known.

**Exact per-sample ratio** (:class:`MixtureRatio`, method ``"exact-ratio"``).  When the
canary's gradient is a constant vector ``g`` (after clipping) and the data have zero gradient
and nothing is projected, θ_T given the number ``K`` of steps that sampled the canary is
Gaussian: ``θ_T | K ~ N(θ_0 + KΔu, s² I_d)`` with ``Δu = −ηg/b``, ``s = ησ_DP√T`` and
``K ~ Binomial(T, q)`` on ``D'`` (``K = 0`` on ``D``).  The ratio

    r(x) = p(x)/q(x) = Σ_k w_k exp((kΔ⟨x − θ_0, u⟩ − k²Δ²/2)/s²),   w_k = Binom(k; T, q)

is computed exactly in log space (log-sum-exp over the binomial support) in any dimension
``d`` (it depends on x only through ⟨x, u⟩).  ``E_Q[r^α] = e^{(α−1)D_α(P‖Q)}`` is then a
mean.  By the change of measure ``E_Q[r^α] = E_P[r^{α−1}]`` (and ``E_P[r^{−α}] =
E_Q[r^{1−α}]`` for the backward order) the mean is taken, by default (``form="alpha-1"``),
over the samples of the *other* law with exponent α − 1: its second moment
``E_Q[r^{2α−1}]`` is smaller than that of the direct form, ``E_Q[r^{2α}]`` (``form="alpha"``
uses the direct form).  The interval at ``confidence = 1 − δ`` is two one-sided bounds at
δ/2 each (per α and per order, not simultaneous):

* **lower bound — valid under any tails.**  For ``X ≥ 0`` and any constant ``c > 0``,
  ``E[X] ≥ E[min(X, c)]`` and ``min(X, c)/c ∈ [0, 1]``, so the empirical-Bernstein bound of
  Maurer & Pontil (2009, Thm 4) — ``E Y ≥ Ȳ − √(2V_n ln(2/δ)/n) − 7 ln(2/δ)/(3(n−1))`` for
  i.i.d. ``Y ∈ [0, 1]``, ``V_n`` the unbiased sample variance — is a valid lower confidence
  bound for ``E[X]`` whatever its tail (even infinite variance).  ``c`` must not depend on
  the samples the bound uses: it is chosen on a pilot split (the first eighth of the runs,
  i.i.d. with the rest) among pilot quantiles of ``X``, and the bound is computed on the
  remaining runs.  Truncation only lowers the bound, so this is conservative, never
  anti-conservative.  It is the only side that may ever be used to declare a measured
  divergence *above* a claimed bound (:meth:`DivergenceEstimate.exceeds`).
* **upper bound — valid only with a bounded ratio.**  An upper confidence bound for a mean
  with an unbounded heavy tail does not exist without further assumptions (a mass ε at a
  value 1/ε² is invisible to n ≪ 1/ε samples).  Where ``X ≤ B`` is known — the backward
  order of the mixture, since ``r ≥ w_0 = (1−q)^T`` gives ``q/p ≤ (1−q)^{−T}`` — the same
  empirical-Bernstein bound on ``X/B`` is a valid upper bound (``upper_kind =
  "bounded-ratio"``; it can be loose when B is large).  Otherwise (the forward order) the
  upper end is the normal approximation ``X̄ + z σ̂/√n`` with Hall's skewness correction
  (``upper_kind = "asymptotic"``,
  needs a finite variance and a large sample; not a guarantee), and it is given only when
  the effective sample size — the smaller of ``(ΣX)²/ΣX²`` and ``(ΣX²)²/ΣX⁴`` (the second
  says whether σ̂ can be trusted: in heavy tails the sample variance is itself dominated by
  a few runs) — is at least ``min_ess``; below, the status
  is ``"insufficient effective sample size"`` and the upper end is ``None`` (the lower bound
  stays valid).

**Binned projection** (method ``"binned-projection"``), for everything else (projection,
non-linear losses, clipping that depends on θ): the scores ``⟨θ_T, u⟩`` of both sides are
binned on pooled quantiles and ``D_α`` of the two histograms (add-½ smoothing) is reported.
It is an *estimate without guarantee* (binning and projection lose divergence, smoothing and
sampling noise can add some), has no interval, and :meth:`DivergenceEstimate.exceeds` is
always False for it: it never declares a violation.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from statistics import NormalDist
from typing import Sequence

import numpy as np
import torch
from scipy.special import gammaln

from checks.truth import accountant, accountant_fft, losses

Tensor = torch.Tensor

FORMS = ("alpha-1", "alpha")
#: pilot share of the runs used to choose the truncation level of the lower bound
PILOT_SHARE = 8
#: runs per chunk times mixture components, for the log-ratio evaluation
_CHUNK_ELEMS = 1 << 22
#: binomial components below this log weight (relative to the largest) are dropped from r
#: only when the support is large; their total share is < 1e-26 of r, far below round-off
_LOG_W_CUT = -60.0
#: a term of the log-ratio sum this far (nats) below another one over a whole block is left out
_DOMINATED = 40.0


def _check_alphas(alphas) -> list[float]:
    out = []
    for a in np.atleast_1d(np.asarray(alphas, dtype=float)).tolist():
        if not (math.isfinite(a) and a > 1):
            raise ValueError(f"alpha must be a finite number > 1, got {a!r}")
        out.append(float(a))
    if not out:
        raise ValueError("give at least one alpha")
    return out


def parse_alphas(text: str) -> list[float]:
    """``"2,4,8"`` → ``[2.0, 4.0, 8.0]`` (orders > 1)."""
    try:
        vals = [float(x) for x in str(text).replace(" ", "").split(",") if x]
    except ValueError:
        raise ValueError(f"alphas must be comma-separated numbers > 1, got {text!r}") from None
    return _check_alphas(vals)


# --------------------------------------------------------------------------- exact ratio
@dataclass(frozen=True)
class MixtureRatio:
    """``P = Σ_k w_k N(θ_0 + kΔu, s² I)`` (``w = Binomial(T, q)``) versus ``Q = N(θ_0, s² I)``.

    ``u`` is a unit vector (``direction``), ``shift = Δ`` the displacement of one canary
    step along it, ``sd = s`` the per-coordinate standard deviation of θ_T.
    """

    direction: tuple[float, ...]
    shift: float
    sd: float
    T: int
    q: float
    theta0: tuple[float, ...] | None = None

    def __post_init__(self):
        if not (math.isfinite(self.shift) and math.isfinite(self.sd) and self.sd > 0):
            raise ValueError(f"shift must be finite and sd > 0, got {self.shift}, {self.sd}")
        if not 0.0 <= self.q <= 1.0 or int(self.T) < 0:
            raise ValueError(f"need 0 <= q <= 1 and T >= 0, got q={self.q}, T={self.T}")
        u = np.asarray(self.direction, dtype=float)
        if not abs(np.linalg.norm(u) - 1.0) < 1e-9:
            raise ValueError("direction must be a unit vector")

    @property
    def d(self) -> int:
        return len(self.direction)

    def log_weights(self) -> tuple[np.ndarray, np.ndarray]:
        """Counts k and log Binomial(k; T, q) (components negligible in every ratio dropped
        when the support is large)."""
        T, q = int(self.T), float(self.q)
        k = np.arange(T + 1, dtype=float)
        if q == 0.0:
            return np.array([0.0]), np.array([0.0])
        if q == 1.0:
            return np.array([float(T)]), np.array([0.0])
        lw = (gammaln(T + 1) - gammaln(k + 1) - gammaln(T - k + 1) + k * math.log(q)
              + (T - k) * math.log1p(-q))
        if T > 200:
            keep = lw >= lw.max() + _LOG_W_CUT
            keep[0] = True             # w_0 carries the bound r >= w_0 used by the estimators
            return k[keep], lw[keep]
        return k, lw

    @property
    def log_w0(self) -> float:
        """``log w_0 = T log(1 − q)``: ``r ≥ w_0`` everywhere, so ``q/p ≤ 1/w_0``."""
        if self.q >= 1.0:
            return -math.inf
        return int(self.T) * math.log1p(-self.q)

    def scores(self, theta: Tensor) -> Tensor:
        """``⟨θ − θ_0, u⟩`` per run, float64, shape ``(N,)``."""
        th = torch.as_tensor(theta)
        if th.dim() != 2 or th.shape[1] != self.d:
            raise ValueError(f"theta must have shape (N, {self.d}), got {tuple(th.shape)}")
        u = torch.tensor(self.direction, dtype=torch.float64)
        x = th.to(torch.float64) @ u
        if self.theta0 is not None:
            x = x - float(np.dot(self.theta0, self.direction))
        return x

    def log_ratio(self, theta: Tensor) -> Tensor:
        """``log p(θ)/q(θ)`` per run, exactly (log-sum-exp over the counts), shape ``(N,)``.

        Batched over blocks of runs sorted by score: in a block only the counts whose term
        can come within e^-40 of the largest one anywhere in the block's score range are
        summed (a term dominated at both ends of the range by one other term, which is
        linear in the score too, is dominated in between); the rest change ``log r`` by
        less than ``K·e^-40`` ≈ 1e-15 relative, below round-off."""
        x = self.scores(theta)
        k, lw = self.log_weights()
        kt = torch.tensor(k, dtype=torch.float64)
        a = torch.tensor(lw, dtype=torch.float64) - (kt * self.shift) ** 2 / (2 * self.sd**2)
        b = kt * self.shift / self.sd**2
        xs, order = torch.sort(x)
        out_sorted = torch.empty_like(xs)
        n = xs.shape[0]
        block = max(256, min(1 << 14, _CHUNK_ELEMS // len(k)))
        for s in range(0, n, block):                  # blocks of runs, batched inside
            xb = xs[s:s + block]
            lo_l = a + b * xb[0]
            hi_l = a + b * xb[-1]
            j1, j2 = int(torch.argmax(lo_l)), int(torch.argmax(hi_l))
            dom1 = (lo_l < lo_l[j1] - _DOMINATED) & (hi_l < hi_l[j1] - _DOMINATED)
            dom2 = (lo_l < lo_l[j2] - _DOMINATED) & (hi_l < hi_l[j2] - _DOMINATED)
            keep = torch.nonzero(~(dom1 | dom2)).squeeze(1)
            i0, i1 = int(keep.min()), int(keep.max()) + 1
            out_sorted[s:s + block] = torch.logsumexp(a[i0:i1] + xb[:, None] * b[i0:i1], dim=1)
        out = torch.empty_like(x)
        out[order] = out_sorted
        return out


def mixture_ratio_for(problem, algorithm, hp, T: int) -> tuple[MixtureRatio | None, str]:
    """The exact ratio for a simulator configuration, or ``(None, reason)``.

    Exact when the data are inert (zero loss), the canary's gradient is constant, the step
    is plain (``dpsgd-gc``: clip then average; ``noisy-sgd``: average) and nothing is
    projected.  Either sampling mode gives the canary an independent Bernoulli(b/n) at every
    step on inert data (see :mod:`checks.simulate.runner`)."""
    name = getattr(algorithm, "name", str(algorithm))
    if problem.canary is None:
        return None, "the problem has no canary"
    if not (problem.inert and problem.canary_constant()):
        return None, "the per-sample ratio needs inert data and a constant canary gradient"
    if name not in ("dpsgd-gc", "noisy-sgd"):
        return None, f"no exact ratio for algorithm {name!r}"
    if hp.ball_radius is not None:
        return None, "projection onto K: the last iterate is not a Gaussian mixture"
    g = problem.canary_grad(torch.zeros(1, problem.d, dtype=torch.float64))[0].numpy()
    if name == "dpsgd-gc":
        nrm = float(np.linalg.norm(g))
        g = g * (hp.C / max(nrm, hp.C))
    step = -hp.eta * g / hp.b
    shift = float(np.linalg.norm(step))
    if shift == 0.0:
        return None, "the canary does not move theta"
    if hp.sigma_dp == 0.0 or T < 1:
        return None, "no noise (sigma_dp = 0 or T = 0): the laws are singular"
    u = tuple((step / shift).tolist())
    return MixtureRatio(u, shift, hp.eta * hp.sigma_dp * math.sqrt(T), int(T),
                        hp.b / problem.n), "exact Gaussian-mixture ratio"


# --------------------------------------------------------------------------- bounds
def _eb_terms(y: Tensor, delta: float) -> tuple[float, float, float]:
    """Mean, and the two Maurer–Pontil empirical-Bernstein terms, for y ∈ [0, 1]."""
    n = y.shape[0]
    m = float(y.mean())
    v = float(y.var(unbiased=True)) if n > 1 else 0.0
    l2 = math.log(2.0 / delta)
    return m, math.sqrt(2.0 * v * l2 / n), 7.0 * l2 / (3.0 * max(n - 1, 1))


def _log_lower_truncated(logx: Tensor, delta: float) -> tuple[float, float]:
    """A (1 − δ) lower confidence bound on ``log E[X]`` valid for any nonnegative X
    (truncation + empirical Bernstein, truncation level chosen on a pilot split).
    Returns (log lower bound, log truncation level)."""
    n = logx.shape[0]
    npil = n // PILOT_SHARE
    if n < 16 or npil < 8:
        return -math.inf, math.nan
    pilot, main = logx[:npil], logx[npil:]
    nm = main.shape[0]
    levels = [1 - 2.0**-j for j in range(1, 40) if 2.0**-j * npil >= 1]
    cands = torch.quantile(pilot, torch.tensor(levels, dtype=pilot.dtype)).tolist()
    cands.append(float(pilot.max()))
    best, best_c = -math.inf, math.nan
    l2 = math.log(2.0 / delta)
    for lc in sorted(set(cands)):            # a few dozen candidates, each batched over runs
        y = torch.exp((pilot - lc).clamp_max(0.0))
        m = float(y.mean())
        v = float(y.var(unbiased=True))
        lb = m - math.sqrt(2 * v * l2 / nm) - 7 * l2 / (3 * (nm - 1))
        if lb > 0 and lc + math.log(lb) > best:
            best, best_c = lc + math.log(lb), lc
    if not math.isfinite(best_c):
        return -math.inf, math.nan
    y = torch.exp((main - best_c).clamp_max(0.0))
    m, a, b = _eb_terms(y, delta)
    lb = m - a - b
    return (best_c + math.log(lb) if lb > 0 else -math.inf), best_c


def _log_upper_bounded(logx: Tensor, log_sup: float, delta: float) -> float:
    """(1 − δ) upper confidence bound on ``log E[X]`` when ``X ≤ e^{log_sup}`` surely."""
    y = torch.exp((logx - log_sup).clamp_max(0.0))
    m, a, b = _eb_terms(y, delta)
    return log_sup + math.log(min(1.0, m + a + b))


def _log_upper_asymptotic(logx: Tensor, delta: float) -> float:
    """Normal-approximation upper end with Hall's (1992) skewness correction,
    ``X̄ + z σ̂/√n + max(γ̂, 0) σ̂ (2z² + 1)/(6n)`` (z = z_{1−δ}, γ̂ the sample skewness:
    right-skewed sums of likelihood ratios make the plain CLT end too low), in log space.
    Not a guarantee."""
    mx = float(logx.max())
    y = torch.exp(logx - mx)
    n = y.shape[0]
    if n < 3:
        return math.inf
    z = NormalDist().inv_cdf(1 - delta)
    m = float(y.mean())
    s = float(y.std(unbiased=True))
    g = float(((y - m) ** 3).mean()) / s**3 if s > 0 else 0.0
    return mx + math.log(m + z * s / math.sqrt(n) + max(g, 0.0) * s * (2 * z * z + 1) / (6 * n))


def _log_mean(logx: Tensor) -> float:
    return float(torch.logsumexp(logx, 0)) - math.log(logx.shape[0])


def _ess(logx: Tensor) -> float:
    """Effective sample size of the summands, ``(ΣX)²/ΣX²``, and of their squares
    (``(ΣX²)²/ΣX⁴``, which says whether the sample variance itself can be trusted); the
    smaller of the two."""
    e1 = 2 * torch.logsumexp(logx, 0) - torch.logsumexp(2 * logx, 0)
    e2 = 2 * torch.logsumexp(2 * logx, 0) - torch.logsumexp(4 * logx, 0)
    return float(torch.exp(torch.minimum(e1, e2)))


# --------------------------------------------------------------------------- results
@dataclass
class DivergenceEstimate:
    """One measured ``D_α`` (one order).  ``lower``/``upper`` are the ends of the interval
    at ``confidence`` (two one-sided bounds at (1 − confidence)/2 each); ``guaranteed``
    says whether ``lower`` is a valid bound (exact-ratio method) and ``upper_kind`` how the
    upper end was obtained (``"bounded-ratio"`` valid, ``"asymptotic"`` not a guarantee,
    ``None`` none)."""

    alpha: float
    order: str
    method: str
    estimate: float
    lower: float | None
    upper: float | None
    upper_kind: str | None
    confidence: float
    n: int
    ess: float | None
    status: str
    guaranteed: bool
    note: str = ""
    #: the normal-approximation upper end (not a guarantee), beside a valid but loose
    #: bounded-ratio ``upper``; None when the ESS is too small
    upper_asymptotic: float | None = None

    def as_dict(self) -> dict:
        return asdict(self)

    def covers(self, value: float) -> bool:
        """True when ``value`` lies in [lower, upper] (an absent end is open)."""
        lo = -math.inf if self.lower is None else self.lower
        hi = math.inf if self.upper is None else self.upper
        return lo <= value <= hi

    def exceeds(self, bound: float) -> bool:
        """True only when the *guaranteed* lower bound is above ``bound``: the one use of a
        measured divergence that may declare a claimed bound violated."""
        return bool(self.guaranteed and self.lower is not None and self.lower > bound)


def _from_log_samples(logx: Tensor, alpha: float, expo: float, order: str, conf: float,
                      log_sup: float | None, min_ess: float, form: str) -> DivergenceEstimate:
    """``D = log E[X]/(α − 1)`` from ``log X`` samples, with its interval."""
    delta = (1.0 - conf) / 2.0
    n = logx.shape[0]
    lm = _log_mean(logx)
    ess = _ess(logx)
    llo, _ = _log_lower_truncated(logx, delta)
    if log_sup is not None and math.isfinite(log_sup):
        lup, kind = _log_upper_bounded(logx, log_sup, delta), "bounded-ratio"
    elif ess >= min_ess:
        lup, kind = _log_upper_asymptotic(logx, delta), "asymptotic"
    else:
        lup, kind = None, None
    lasym = _log_upper_asymptotic(logx, delta) if ess >= min_ess else None
    status = "ok" if ess >= min_ess else "insufficient effective sample size"
    k = alpha - 1.0
    est = max(0.0, lm / k)
    lower = max(0.0, llo / k) if math.isfinite(llo) else 0.0
    upper = None if lup is None else max(0.0, lup / k)
    if upper is not None:
        upper = max(upper, est)
    uasym = None if lasym is None else max(0.0, lasym / k, est)
    note = (f"mean of r^{expo:g} over the samples of the "
            f"{'other' if form == 'alpha-1' else 'reference'} law; lower: truncated "
            f"empirical Bernstein (any tails)")
    return DivergenceEstimate(alpha, order, "exact-ratio", est, lower, upper, kind, conf, n,
                              ess, status, True, note, uasym)


def estimate_rdp(theta_P: Tensor, theta_Q: Tensor, alphas, ratio: MixtureRatio, *,
                 confidence: float = 0.95, min_ess: float = 100.0,
                 form: str = "alpha-1") -> list[DivergenceEstimate]:
    """``D_α(P‖Q)`` and ``D_α(Q‖P)`` for every α from the exact per-sample ratio.

    ``theta_P``: θ_T of the runs on D' (with the canary), ``theta_Q``: on D, shapes (N, d).
    Returns forward then backward for each α (see the module docstring for the method)."""
    al = _check_alphas(alphas)
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    if form not in FORMS:
        raise ValueError(f"form must be one of {FORMS}, got {form!r}")
    lr_P = ratio.log_ratio(theta_P)       # log p/q at the samples of P
    lr_Q = ratio.log_ratio(theta_Q)       # ... of Q
    sup_back = -ratio.log_w0              # sup log(q/p)
    out = []
    for a in al:
        if form == "alpha-1":
            # forward: E_Q[r^α] = E_P[r^(α−1)];  backward: E_P[r^−α] = E_Q[r^(1−α)]
            fwd = _from_log_samples((a - 1) * lr_P, a, a - 1, "forward", confidence, None,
                                    min_ess, form)
            bwd = _from_log_samples((1 - a) * lr_Q, a, 1 - a, "backward", confidence,
                                    (a - 1) * sup_back, min_ess, form)
        else:
            fwd = _from_log_samples(a * lr_Q, a, a, "forward", confidence, None, min_ess,
                                    form)
            bwd = _from_log_samples(-a * lr_P, a, -a, "backward", confidence, a * sup_back,
                                    min_ess, form)
        out += [fwd, bwd]
    return out


# --------------------------------------------------------------------------- binned
def _binned_rdp(lp: np.ndarray, lq: np.ndarray, a: float) -> float:
    return float(np.log(np.sum(np.exp(a * lp + (1 - a) * lq))) / (a - 1))


def binned_projection_rdp(theta_P: Tensor, theta_Q: Tensor, alphas, u, *,
                          bins: int | None = None) -> list[DivergenceEstimate]:
    """``D_α`` of the histograms of ``⟨θ_T, u⟩`` (pooled-quantile bins, add-½ smoothing),
    both orders: an estimate without guarantee (see the module docstring)."""
    al = _check_alphas(alphas)
    uu = torch.as_tensor(u, dtype=torch.float64)
    sP = (torch.as_tensor(theta_P).to(torch.float64) @ uu).numpy()
    sQ = (torch.as_tensor(theta_Q).to(torch.float64) @ uu).numpy()
    nP, nQ = len(sP), len(sQ)
    nb = bins or int(min(100, max(4, round(min(nP, nQ) ** (1 / 3)))))   # bias ~ bins/n
    edges = np.unique(np.quantile(np.concatenate([sP, sQ]), np.linspace(0, 1, nb + 1)))
    inner = edges[1:-1]
    cP = np.bincount(np.searchsorted(inner, sP, side="right"), minlength=len(inner) + 1)
    cQ = np.bincount(np.searchsorted(inner, sQ, side="right"), minlength=len(inner) + 1)
    lp = np.log(cP + 0.5) - math.log(nP + 0.5 * len(cP))
    lq = np.log(cQ + 0.5) - math.log(nQ + 0.5 * len(cQ))
    out = []
    note = (f"histograms of <theta_T, u> on {len(cP)} pooled-quantile bins, add-1/2 "
            f"smoothing: an estimate without guarantee, never used to declare a violation")
    for a in al:
        for order, x, y in (("forward", lp, lq), ("backward", lq, lp)):
            out.append(DivergenceEstimate(a, order, "binned-projection",
                                          max(0.0, _binned_rdp(x, y, a)), None, None, None,
                                          math.nan, min(nP, nQ), None,
                                          "estimate without guarantee", False, note))
    return out


# --------------------------------------------------------------------------- dispatch
def measure_divergence(problem, algorithm, hp, T: int, theta_P: Tensor, theta_Q: Tensor,
                       alphas, *, confidence: float = 0.95, min_ess: float = 100.0
                       ) -> tuple[list[DivergenceEstimate], str]:
    """The best estimator available for the configuration: exact ratio where the last
    iterate is a known Gaussian mixture, else the binned projection on the canary's
    direction.  Returns (estimates, why this method)."""
    ratio, why = mixture_ratio_for(problem, algorithm, hp, T)
    if ratio is not None:
        return estimate_rdp(theta_P, theta_Q, alphas, ratio, confidence=confidence,
                            min_ess=min_ess), why
    u = problem.canary.direction() if problem.canary is not None else None
    if u is None:
        raise ValueError("divergence needs a problem with a canary")
    return binned_projection_rdp(theta_P, theta_Q, alphas, u), f"binned projection: {why}"


def exact_rdp_for(problem, algorithm, hp, T: int, alphas) -> dict[float, tuple] | None:
    """The exact ``(forward, backward)`` where the truth reaches it, else None:
    the closed form (any d, the ratio being one-dimensional) for the exact-ratio
    configurations with clipping; the certified grid accountant for the projected 1-D
    gradient canary (either sampling: the canary is Bernoulli(b/n) at every step on inert
    data).  Values the accountant refuses are left out."""
    name = getattr(algorithm, "name", "")
    if problem.name != "gradient-canary" or not problem.canary_constant():
        return None
    if name == "dpsgd-gc" and hp.ball_radius is None:
        s = losses.linear_canary(n=problem.n, b=hp.b, eta=hp.eta, C=hp.C, sigma_dp=hp.sigma_dp,
                             T=max(int(T), 1))

        def fn(a):
            return tuple(accountant_fft.linear_canary_exact(s, a))
    elif name == "dpsgd-dc" and problem.d == 1 and 1 <= T <= accountant_fft.MAX_T_GRID:
        s = losses.linear_canary(n=problem.n, b=hp.b, eta=hp.eta, C=hp.C, sigma_dp=hp.sigma_dp,
                             T=int(T), D=2 * hp.ball_radius)

        def fn(a):
            g = accountant.certified_rdp(s, a)
            return (g.forward, g.backward)
    else:
        return None
    out = {}
    for a in _check_alphas(alphas):
        try:
            out[a] = fn(a)
        except (ValueError, ArithmeticError):
            continue
    return out or None


def estimates_rows(estimates: Sequence[DivergenceEstimate], exact=None) -> list[dict]:
    """Flat rows (CSV/JSON) with the exact value beside each estimate where known."""
    rows = []
    for e in estimates:
        row = e.as_dict()
        ex = None if not exact or e.alpha not in exact else \
            exact[e.alpha][0 if e.order == "forward" else 1]
        row["exact"] = ex
        row["covers_exact"] = None if ex is None or e.lower is None else e.covers(ex)
        rows.append(row)
    return rows

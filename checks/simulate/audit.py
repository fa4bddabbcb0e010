"""Membership-inference audit of the last iterate: a threshold attack and a lower bound on ε.

Empirical privacy is estimated from the false positive and false negative rates of an
attack (Kairouz, Oh and Viswanath 2015):

    ε̂ = max{ log((1 − δ − FPR)/FNR),  log((1 − δ − FNR)/FPR) }.

If a mechanism is (ε, δ)-DP then *every* test satisfies FPR + e^ε FNR ≥ 1 − δ and
FNR + e^ε FPR ≥ 1 − δ, so ε ≥ ε̂ computed from the *true* rates.  Here the rates are
estimated on finite samples, so the point estimate is not a bound; :func:`threshold_audit`
reports, beside it, ``eps_lower``: ε̂ evaluated at one-sided Clopper–Pearson *upper*
confidence bounds of FPR and FNR (each at level (1 − confidence)/2, Bonferroni), which is
a lower bound on the true ε with probability ≥ ``confidence``.  ε̂ is decreasing in both
rates, so that substitution is conservative.  The threshold (and the side of the test) is
chosen on a calibration split of the runs, disjoint from the evaluation split, so that the
evaluation counts are honest binomial samples.

Scores: ``⟨θ_T, u⟩`` with ``u`` the canary direction (the canary pushes θ along +u), or any
score function, e.g. the log-likelihood ratio where both densities are known.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np
from scipy import optimize, stats


def _check_delta(delta: float) -> None:
    if not (isinstance(delta, (int, float)) and 0.0 <= delta < 1.0):
        raise ValueError(f"delta must be in [0, 1), got {delta!r}")


def _check_confidence(confidence: float) -> None:
    if not (isinstance(confidence, (int, float)) and 0.0 < confidence < 1.0):
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")


def clopper_pearson(k, n, confidence: float = 0.95, *, side: str = "two-sided"):
    """Clopper–Pearson (exact binomial) bounds for a rate with ``k`` events in ``n`` trials.

    ``side="upper"``: the one-sided upper bound at level ``confidence`` (the
    ``confidence`` quantile of Beta(k+1, n−k); 1 when k = n); ``"lower"``: the one-sided lower bound
    (0 when k = 0); ``"two-sided"``: the pair ``(lower, upper)`` with ``(1−confidence)/2`` in
    each tail.  Vectorised over arrays ``k``, ``n``.
    """
    _check_confidence(confidence)
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    if not np.all(np.isfinite(n) & np.isfinite(k)) or np.any(n < 1) or np.any(k < 0) \
            or np.any(k > n) or np.any(k != np.floor(k)):
        raise ValueError(f"need integers 0 <= k <= n and n >= 1, got k={k}, n={n}")
    a = 1.0 - confidence
    if side == "two-sided":
        a = a / 2.0
    with np.errstate(invalid="ignore"):
        lo = np.where(k == 0, 0.0, stats.beta.ppf(a, np.maximum(k, 1), n - k + 1))
        hi = np.where(k == n, 1.0, stats.beta.ppf(1.0 - a, k + 1, np.maximum(n - k, 1)))
    if side == "upper":
        return hi[()] if hi.ndim == 0 else hi
    if side == "lower":
        return lo[()] if lo.ndim == 0 else lo
    if side == "two-sided":
        return (lo[()], hi[()]) if lo.ndim == 0 else (lo, hi)
    raise ValueError(f"side must be 'upper', 'lower' or 'two-sided', got {side!r}")


def epsilon_hat(fpr, fnr, delta: float):
    """Kairouz, Oh & Viswanath (2015): ``max{log((1−δ−FPR)/FNR), log((1−δ−FNR)/FPR)}``.

    A term whose numerator is ≤ 0 carries no evidence and counts as 0 (so is the result
    never negative); a zero denominator with a positive numerator gives ``inf`` (explicitly:
    a perfect test on the sample).  Vectorised.
    """
    _check_delta(delta)
    fpr = np.asarray(fpr, dtype=float)
    fnr = np.asarray(fnr, dtype=float)
    if not np.all((fpr >= 0) & (fpr <= 1) & (fnr >= 0) & (fnr <= 1)):   # NaN too
        raise ValueError(f"rates must be in [0, 1], got FPR={fpr}, FNR={fnr}")

    def term(num, den):
        with np.errstate(divide="ignore", invalid="ignore"):
            v = np.where(num <= 0, 0.0,
                         np.where(den <= 0, np.inf, np.log(np.maximum(num, 1e-300) /
                                                          np.maximum(den, 1e-300))))
        return np.maximum(v, 0.0)

    out = np.maximum(term(1.0 - delta - fpr, fnr), term(1.0 - delta - fnr, fpr))
    return out[()] if out.ndim == 0 else out


@dataclass(frozen=True)
class AuditResult:
    """One threshold attack: test "member" iff ``side·score > threshold``."""

    threshold: float
    side: int
    fpr: float
    fnr: float
    fpr_upper: float
    fnr_upper: float
    eps_hat: float
    eps_lower: float
    delta: float
    confidence: float
    n_in_eval: int
    n_out_eval: int
    n_in_calib: int
    n_out_calib: int

    def as_dict(self) -> dict:
        return asdict(self)


def _rates(scores_in, scores_out, thresholds, side):
    """FN and FP counts of the test ``side·s > τ`` for each τ (sorted-search, vectorised)."""
    si = np.sort(side * scores_in)
    so = np.sort(side * scores_out)
    fn = np.searchsorted(si, thresholds, side="right")              # in-runs with s <= τ
    fp = so.size - np.searchsorted(so, thresholds, side="right")    # out-runs with s > τ
    return fn, fp


def threshold_audit(scores_in, scores_out, *, delta: float = 1e-5, confidence: float = 0.95,
                    calibration_fraction: float = 0.5, seed: int = 0,
                    max_thresholds: int = 2000) -> AuditResult:
    """Threshold attack on scores of runs with (``scores_in``) and without the canary.

    The runs are split at random (``seed``) into a calibration part (``calibration_fraction``)
    where the side and threshold maximising the Clopper–Pearson lower bound are chosen, and
    an evaluation part where FPR, FNR, ε̂ and ``eps_lower`` are measured.
    """
    _check_delta(delta)
    _check_confidence(confidence)
    if not 0.0 < calibration_fraction < 1.0:
        raise ValueError(f"calibration_fraction must be in (0, 1), got {calibration_fraction!r}")
    si = np.asarray(scores_in, dtype=float).ravel()
    so = np.asarray(scores_out, dtype=float).ravel()
    if si.size < 4 or so.size < 4:
        raise ValueError(f"need at least 4 runs on each side, got {si.size} and {so.size}")
    if not (np.all(np.isfinite(si)) and np.all(np.isfinite(so))):
        raise ValueError("scores must be finite")
    rng = np.random.default_rng(seed)
    si = si[rng.permutation(si.size)]
    so = so[rng.permutation(so.size)]
    ki = max(1, min(si.size - 1, int(round(calibration_fraction * si.size))))
    ko = max(1, min(so.size - 1, int(round(calibration_fraction * so.size))))
    ci, ei = si[:ki], si[ki:]
    co, eo = so[:ko], so[ko:]
    a1 = (1.0 - confidence) / 2.0
    best = None  # (lower bound, point estimate, threshold, side)
    pooled = np.concatenate([ci, co])
    for side in (1, -1):
        cand = np.unique(side * pooled)
        if cand.size > max_thresholds:
            cand = np.quantile(cand, np.linspace(0.0, 1.0, max_thresholds))
        fn, fp = _rates(ci, co, cand, side)
        fnr_u = clopper_pearson(fn, ci.size, 1.0 - a1, side="upper")
        fpr_u = clopper_pearson(fp, co.size, 1.0 - a1, side="upper")
        lb = epsilon_hat(fpr_u, fnr_u, delta)
        # tie-break on the point estimate (with a half-count correction), then threshold
        pt = epsilon_hat((fp + 0.5) / (co.size + 1), (fn + 0.5) / (ci.size + 1), delta)
        j = int(np.lexsort((pt, lb))[-1])
        cur = (float(lb[j]), float(pt[j]), float(cand[j]), side)
        if best is None or cur[:2] > best[:2]:
            best = cur
    _, _, tau, side = best
    fn, fp = _rates(ei, eo, np.array([tau]), side)
    fn, fp = int(fn[0]), int(fp[0])
    fnr, fpr = fn / ei.size, fp / eo.size
    fnr_u = float(clopper_pearson(fn, ei.size, 1.0 - a1, side="upper"))
    fpr_u = float(clopper_pearson(fp, eo.size, 1.0 - a1, side="upper"))
    return AuditResult(
        threshold=tau, side=side, fpr=fpr, fnr=fnr, fpr_upper=fpr_u, fnr_upper=fnr_u,
        eps_hat=float(epsilon_hat(fpr, fnr, delta)),
        eps_lower=float(epsilon_hat(fpr_u, fnr_u, delta)),
        delta=float(delta), confidence=float(confidence),
        n_in_eval=int(ei.size), n_out_eval=int(eo.size), n_in_calib=int(ci.size),
        n_out_calib=int(co.size))


def direction_scores(theta, direction) -> np.ndarray:
    """``⟨θ, u⟩`` for every run; ``theta`` of shape ``(N, d)`` (numpy or torch), ``u`` ``(d,)``."""
    th = theta.detach().cpu().numpy() if hasattr(theta, "detach") else np.asarray(theta)
    u = direction.detach().cpu().numpy() if hasattr(direction, "detach") else np.asarray(direction)
    th = th.reshape(th.shape[0], -1).astype(float)
    u = u.reshape(-1).astype(float)
    if th.shape[1] != u.size:
        raise ValueError(f"direction must have length d = {th.shape[1]}, got {u.size}")
    return th @ u


def audit_final_iterate(theta_in, theta_out, direction, **kwargs) -> AuditResult:
    """Threshold attack on the final iterates along the canary direction."""
    return threshold_audit(direction_scores(theta_in, direction),
                           direction_scores(theta_out, direction), **kwargs)


# ----------------------------------------------------------------- Gaussian mechanism (exact)
def gaussian_delta(mu: float, eps: float) -> float:
    """Exact δ(ε) of the Gaussian mechanism with sensitivity/σ ratio ``mu`` (μ-GDP):
    ``δ = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2)`` (Balle & Wang 2018, Thm. 8)."""
    if not (mu > 0 and math.isfinite(mu)):
        raise ValueError(f"mu must be a finite number > 0, got {mu!r}")
    if not eps >= 0:
        raise ValueError(f"eps must be >= 0, got {eps!r}")
    a = stats.norm.logcdf(-eps / mu + mu / 2)
    b = eps + stats.norm.logcdf(-eps / mu - mu / 2)
    return float(np.exp(a) * -np.expm1(b - a)) if b < a else 0.0


def gaussian_epsilon(mu: float, delta: float) -> float:
    """The smallest ε with ``gaussian_delta(mu, ε) <= delta`` (the exact (ε, δ) curve)."""
    _check_delta(delta)
    if delta <= 0:
        return math.inf
    if gaussian_delta(mu, 0.0) <= delta:
        return 0.0
    hi = 1.0
    while gaussian_delta(mu, hi) > delta:
        hi *= 2.0
    return float(optimize.brentq(lambda e: gaussian_delta(mu, e) - delta, 0.0, hi,
                                 xtol=1e-12, rtol=1e-12))

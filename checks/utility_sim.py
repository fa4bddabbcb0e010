"""Whole-theorem check of the DPSGD-DC utility bound (``liang-icml`` Theorem 3.9,
``liang-aaai`` Theorem 3.10) on strongly convex quadratics.

Scenario: l(θ) = ½(θ − θ*)ᵀH(θ − θ*) on R^k, H = diag(μ, …, L) (so l is L-smooth and
μ-strongly convex), per-sample gradients ∇l_ξ(θ) = ∇l(θ) + ξ with ξ ~ N(0, σ_SGD²/k I_k)
(Assumption 3.6 with equality), domain K = the ball of radius D/2 around 0 (diameter D),
θ* inside K, θ_0 on the boundary.  DPSGD-DC (C.1, eq. (49)):

    θ_{t+1} = Π_K(θ_t − η · (1/b) Σ_ξ clip_C(∇l_ξ(θ_t)) + ζ_t),  ζ_t ~ N(0, η²σ_DP² I_k),

run for ``runs`` independent chains at once (numpy, vectorised over runs, seeded).  The
truth min_t E[√(l(θ_t) − l*)] (Monte Carlo mean over runs) is compared with the
explicit form of the bound: the O(·) of (19)/(17) with the constant ``K_SUM`` = 50 that
the proof's case analysis produces (see ``theory.papers.liang_utility``), with d = k.
A ratio truth/bound above 1 beyond the Monte Carlo error is VIOLATED with the witness
parameters; otherwise HOLDS-ON-SCENARIOS with the tightest ratio.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from checks.plugins import statement_check
from checks.verdict import StatementReport, StatementVerdict

K_SUM = 50


@dataclass(frozen=True)
class Scenario:
    mu: float
    L: float
    sigma_sgd: float
    C: float
    eta: float
    b: int
    sigma_dp: float
    D: float
    T: int
    k: int = 2

    def validate(self) -> None:
        for name in ("mu", "L", "sigma_sgd", "C", "eta", "D"):
            v = getattr(self, name)
            if not (v > 0 and math.isfinite(v)):
                raise ValueError(f"{name} must be a positive finite number, got {v!r}")
        if self.mu > self.L:
            raise ValueError(f"mu must be <= L, got mu={self.mu}, L={self.L}")
        if self.eta > 9 / (20 * self.L) * (1 + 1e-12):
            raise ValueError(f"eta must be <= 9/(20L) = {9 / (20 * self.L)}, got {self.eta}")
        if self.b < 1 or self.T < 1 or self.k < 1:
            raise ValueError(f"b, T, k must be >= 1, got b={self.b}, T={self.T}, k={self.k}")
        if self.sigma_dp < 0:
            raise ValueError(f"sigma_dp must be >= 0, got {self.sigma_dp}")


def bound(s: Scenario, c: float = K_SUM) -> float:
    """The theorem's O(·) with constant ``c`` (d = k)."""
    A = s.L ** 0.75 / s.mu ** 1.25 * s.sigma_sgd
    B = math.sqrt(s.sigma_sgd ** 3 / (s.mu * s.C))
    return c * (math.sqrt(s.L) * s.D ** 2 / (s.eta * s.C * s.T) + s.D / math.sqrt(s.eta * s.T) + min(A, B)
                + math.sqrt(s.eta) * s.sigma_sgd / math.sqrt(s.b)
                + s.k * s.eta * s.sigma_dp ** 2 * math.sqrt(s.L) / s.C + math.sqrt(s.k * s.eta) * s.sigma_dp)


def simulate(s: Scenario, *, runs: int, seed: int) -> tuple[float, float]:
    """(min_t mean_runs √gap_t, its Monte Carlo standard error) for DPSGD-DC on ``s``."""
    s.validate()
    if runs < 2:
        raise ValueError(f"runs must be >= 2, got {runs}")
    rng = np.random.default_rng(seed)
    h = np.linspace(s.mu, s.L, s.k)
    R = s.D / 2
    theta_star = np.zeros(s.k)
    theta_star[0] = R / 2                       # inside K
    th = np.zeros((runs, s.k))
    th[:, -1] = R                               # on the boundary
    best, best_se = math.inf, 0.0
    for t in range(s.T + 1):
        gapv = 0.5 * ((th - theta_star) ** 2 * h).sum(axis=1)
        sq = np.sqrt(np.maximum(gapv, 0.0))
        m = sq.mean()
        if m < best:
            best, best_se = m, sq.std(ddof=1) / math.sqrt(runs)
        if t == s.T:
            break
        grad = (th - theta_star) * h                                        # (runs, k)
        g = grad[:, None, :] + rng.normal(0.0, s.sigma_sgd / math.sqrt(s.k), (runs, s.b, s.k))
        nrm = np.linalg.norm(g, axis=2, keepdims=True)
        g = g * np.minimum(1.0, s.C / np.maximum(nrm, 1e-300))
        step = th - s.eta * g.mean(axis=1) + rng.normal(0.0, s.eta * s.sigma_dp, (runs, s.k))
        nr = np.linalg.norm(step, axis=1, keepdims=True)
        th = step * np.minimum(1.0, R / np.maximum(nr, 1e-300))
    return best, best_se


def scenarios() -> list[Scenario]:
    """A small grid across the proof's cases (C below/above 10σ√(L/μ), L/μ = 1 … 100)."""
    out = []
    for mu, L in ((1.0, 1.0), (0.1, 10.0), (0.01, 1.0)):
        for sigma in (0.1, 2.0):
            for C in (0.05, 5.0):
                for sdp in (0.0, 0.5):
                    out.append(Scenario(mu=mu, L=L, sigma_sgd=sigma, C=C, eta=9 / (20 * L), b=4,
                                        sigma_dp=sdp, D=2.0, T=200))
    return out


@dataclass
class SimReport:
    holds: bool
    ratio: float
    runs: int
    detail: str
    witness: dict | None = None
    ratios: list = field(default_factory=list)


@lru_cache(maxsize=8)
def run_scenarios(result_id: str, *, seed: int = 0, runs: int = 256) -> SimReport:
    """Run every scenario; the tightest ratio truth/bound and any violation."""
    worst, wit, total, rows = -math.inf, None, 0, []
    violated = None
    for i, s in enumerate(scenarios()):
        truth, se = simulate(s, runs=runs, seed=seed * 1000 + i)
        bd = bound(s)
        ratio = truth / bd
        rows.append((s, truth, bd, ratio))
        total += runs
        if ratio > worst:
            worst, wit = ratio, s
        if (truth - 4 * se) > bd and violated is None:
            violated = (s, truth, se, bd)
    w = {k: repr(v) for k, v in (wit.__dict__.items() if wit else {})}
    r1 = max(t / bound(s, 1.0) for s, t, _, _ in rows)
    if violated:
        s, truth, se, bd = violated
        return SimReport(False, worst, total, f"{result_id}: min_t E√gap = {truth:.4g} ± {se:.2g} exceeds "
                         f"the explicit bound {bd:.4g} (constant {K_SUM}) at {s}", 
                         {k: repr(v) for k, v in s.__dict__.items()}, rows)
    return SimReport(True, worst, total,
                     f"{len(rows)} quadratic scenarios × {runs} runs: tightest ratio truth/bound "
                     f"{worst:.3g} with constant {K_SUM} ({r1:.3g} with constant 1)", w, rows)


def _statement(result, *, budget: int, seed: int) -> StatementReport:
    rep = run_scenarios(result.id, seed=seed)
    if not rep.holds:
        return StatementReport(StatementVerdict.VIOLATED, rep.detail, rep.witness, rep.ratio)
    return StatementReport(StatementVerdict.HOLDS_ON_SCENARIOS, rep.detail, rep.witness, rep.ratio)


statement_check("liang-icml:thm-3.9")(_statement)
statement_check("liang-aaai:thm-3.10")(_statement)

"""Rate checks: utility / convergence claims (:class:`~theory.model.Rate`) against simulation.

Provider ``quadratic-sgd``: the algorithm (:class:`~theory.mechanisms.NoisySGD`, with or
without a domain) run on the problem family

    f(θ) = ½ (θ − θ*)ᵀ H (θ − θ*),  H = diag(μ, …, L) in R^k (k = the statement's d, else 2),
    ∇l_ξ(θ) = ∇f(θ) + ξ,  ξ ~ N(0, σ²/k I_k)   (E‖ξ‖² = σ²: the noise bound with equality),

which is L-smooth, μ-strongly convex (convex with μ = L/100 when the statement does not
assume strong convexity), with gradient noise of variance σ²; with a domain K = the ball
of diameter D around 0 (θ* inside at radius D/4, θ_0 on the boundary), else θ_0 at
distance 1 from θ*.  ``runs`` independent chains are simulated at once (numpy,
vectorised over runs, seeded).  Metrics measured: min_t E√(f(θ_t) − f*), E f(θ_T) − f*,
min_t E‖∇f(θ_t)‖, (1/T)Σ E‖∇f(θ_t)‖².

The truth at a point is the Monte Carlo mean ± 4 standard errors (one-sided, z = 4), so the
statement driver calls a scenario VIOLATED only when ``mean − 4·(standard error) > bound``.
Its plan: the anchors across the regimes of the classes' constants and a few random
admissible points (each truth is a simulation: no targeted phase).  The minimum over t of
Monte Carlo means is biased low, so a VIOLATED is conservative.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from checks.plugins import truth_provider
from checks.truth.base import (
    SIMULATION_PLAN,
    Support,
    Truth,
    TruthProvider,
    Unavailable,
    all_classes,
    dimension_symbols,
    evaluate,
)
from theory.classes import BoundedDomain, Convex, GradNoise, LSmooth, StronglyConvex
from theory.mechanisms import NoisySGD
from theory.metrics import (
    AVERAGE_EXPECTED_GRAD_SQ,
    EXPECTED_GAP_LAST,
    MIN_EXPECTED_GRAD_NORM,
    MIN_EXPECTED_SQRT_GAP,
)

RUNS = 256
Z = 4.0
T_MAX = 2000
K_MAX = 10
COST_MAX = 2e8          # runs × T × b × k


@dataclass(frozen=True)
class Quadratic:
    """One scenario of the family (floats)."""

    mu: float
    L: float
    sigma_sgd: float
    C: float
    eta: float
    b: int
    sigma_dp: float
    D: float | None
    T: int
    k: int = 2

    def validate(self) -> None:
        for name in ("mu", "L", "sigma_sgd", "C", "eta"):
            v = getattr(self, name)
            if not (v > 0 and math.isfinite(v)):
                raise ValueError(f"{name} must be a positive finite number, got {v!r}")
        if self.mu > self.L:
            raise ValueError(f"mu must be <= L, got mu={self.mu}, L={self.L}")
        if self.b < 1 or self.T < 1 or self.k < 1:
            raise ValueError(f"b, T, k must be >= 1, got b={self.b}, T={self.T}, k={self.k}")
        if self.sigma_dp < 0:
            raise ValueError(f"sigma_dp must be >= 0, got {self.sigma_dp}")
        if self.D is not None and not (self.D > 0 and math.isfinite(self.D)):
            raise ValueError(f"D must be > 0 and finite, got {self.D}")


def _norm(x: np.ndarray, *, axis: int, keepdims: bool = False) -> np.ndarray:
    """``np.linalg.norm(x, axis=axis, keepdims=keepdims)`` of a real array, by the same
    operations (numpy's own special case for one axis), without its argument handling —
    a third of the time of the small per-step arrays of :func:`simulate`."""
    return np.sqrt(np.add.reduce(x * x, axis=axis, keepdims=keepdims))


def simulate(s: Quadratic, *, runs: int, seed: int) -> dict[str, tuple[float, float]]:
    """Every metric of the family as (Monte Carlo mean, standard error), for ``s``."""
    s.validate()
    if runs < 2:
        raise ValueError(f"runs must be >= 2, got {runs}")
    rng = np.random.default_rng(seed)
    h = np.linspace(s.mu, s.L, s.k)
    th_star = np.zeros(s.k)
    th = np.zeros((runs, s.k))
    if s.D is not None:
        R = s.D / 2
        th_star[0] = R / 2
        th[:, -1] = R
    else:
        R = None
        th[:, -1] = 1.0 + (th_star[-1] if s.k == 1 else 0.0)
    sqrt_gap, grad_norm, grad_sq = [], [], []
    root_runs = math.sqrt(runs)
    for t in range(s.T + 1):
        diff = th - th_star
        gap = 0.5 * (diff ** 2 * h).sum(axis=1)
        g = diff * h
        gn = _norm(g, axis=1)
        sg = np.sqrt(np.maximum(gap, 0.0))
        sqrt_gap.append((sg.mean(), sg.std(ddof=1) / root_runs))
        if t < s.T:
            grad_norm.append((gn.mean(), gn.std(ddof=1) / root_runs))
            grad_sq.append(gn ** 2)
        if t == s.T:
            last_gap = (gap.mean(), gap.std(ddof=1) / root_runs)
            break
        per = g[:, None, :] + rng.normal(0.0, s.sigma_sgd / math.sqrt(s.k), (runs, s.b, s.k))
        nrm = _norm(per, axis=2, keepdims=True)
        per = per * np.minimum(1.0, s.C / np.maximum(nrm, 1e-300))
        step = th - s.eta * (per.mean(axis=1) + rng.normal(0.0, s.sigma_dp, (runs, s.k)))
        if R is not None:
            nr = _norm(step, axis=1, keepdims=True)
            step = step * np.minimum(1.0, R / np.maximum(nr, 1e-300))
        th = step
    i = int(np.argmin([m for m, _ in sqrt_gap]))
    j = int(np.argmin([m for m, _ in grad_norm]))
    avg = np.mean(grad_sq, axis=0)
    return {MIN_EXPECTED_SQRT_GAP.key: sqrt_gap[i], EXPECTED_GAP_LAST.key: last_gap,
            MIN_EXPECTED_GRAD_NORM.key: grad_norm[j],
            AVERAGE_EXPECTED_GRAD_SQ.key: (float(avg.mean()), float(avg.std(ddof=1) / math.sqrt(runs)))}


class QuadraticSGDProvider(TruthProvider):
    name = "quadratic-sgd"
    mechanisms = (NoisySGD,)
    classes = (LSmooth, StronglyConvex, Convex, GradNoise, BoundedDomain)
    metrics = (MIN_EXPECTED_SQRT_GAP, EXPECTED_GAP_LAST, MIN_EXPECTED_GRAD_NORM,
               AVERAGE_EXPECTED_GRAD_SQ)

    stochastic = True

    def supports(self, stmt):
        got = super().supports(stmt)
        if not got:
            return got
        for c in all_classes(stmt):
            if not isinstance(c, self.classes):
                return Support(False, f"{self.name}: quadratics are not known members of "
                                      f"{c.name}")
        return Support(True)

    def plan(self, stmt, budget):
        return SIMULATION_PLAN

    def reads(self, stmt):
        return dimension_symbols(stmt)

    def describe(self, stmt):
        return (f"quadratic family H = diag(μ … L), Gaussian gradient noise, {RUNS} simulated "
                f"runs a scenario (mean ± {Z:g} s.e.), metric {stmt.metric.definition}")

    def reach(self, stmt, v):
        self.scenario(stmt, v)

    def derived(self, stmt):
        a = stmt.mechanism
        out = {"C": a.C, "eta*L": None, "b": a.b, "sigma": a.sigma, "T": a.T}
        for c in all_classes(stmt):
            for k, e in c.params().items():
                out.setdefault(f"{c.name}.{k}", e)
        if "LSmooth.L" in out:
            out["eta*L"] = a.eta * out["LSmooth.L"]
        else:
            out.pop("eta*L")
            out["eta"] = a.eta
        if a.domain is not None:
            out["domain"] = a.domain
        d = [s for s in stmt.expr.free_symbols if s.name == "d"]
        if d:
            out["d"] = d[0]
        return out

    def anchors(self, stmt):
        """Across the regimes of the constants: L/μ = 1 … 100, noise below/above the clip
        threshold, with and without DP noise, the step size at the largest value the
        usual conditions allow (η·L = 9/20)."""
        out = []
        for mu, L in ((1.0, 1.0), (0.1, 10.0), (0.01, 1.0)):
            for sig in (0.1, 2.0):
                for C in (0.05, 5.0):
                    for sdp in (1e-3, 0.5):
                        out.append({"LSmooth.L": L, "StronglyConvex.mu": mu,
                                    "GradNoise.sigma": sig, "C": C, "eta*L": 0.45, "b": 4,
                                    "sigma": sdp, "domain": 2.0, "T": 200, "d": 2})
        return out

    def scenario(self, stmt, v) -> Quadratic:
        a = stmt.mechanism
        val = {}
        for c in all_classes(stmt):
            if isinstance(c, LSmooth):
                val["L"] = evaluate(c.L, v)
            elif isinstance(c, StronglyConvex):
                val["mu"] = evaluate(c.mu, v)
            elif isinstance(c, GradNoise):
                val["sigma_sgd"] = evaluate(c.sigma, v)
            elif isinstance(c, BoundedDomain):
                if a.domain is None or abs(evaluate(c.diameter, v) - evaluate(a.domain, v)) > \
                        1e-12 * max(1.0, evaluate(a.domain, v)):
                    raise Unavailable("the class's domain is not the algorithm's")
        L = val.get("L", 1.0)
        mu = val.get("mu", L / 100)
        d = [s for s in stmt.expr.free_symbols if s.name == "d"]
        k = int(evaluate(d[0], v)) if d else 2
        T, b = evaluate(a.T, v), evaluate(a.b, v)
        if T != int(T) or b != int(b) or k < 1:
            raise Unavailable("T, b must be integers")
        s = Quadratic(mu=mu, L=L, sigma_sgd=val.get("sigma_sgd", 0.0) or 1e-300,
                      C=evaluate(a.C, v), eta=evaluate(a.eta, v), b=int(b),
                      sigma_dp=evaluate(a.sigma, v),
                      D=evaluate(a.domain, v) if a.domain is not None else None, T=int(T), k=k)
        if s.T > T_MAX or s.k > K_MAX or RUNS * s.T * s.b * s.k > COST_MAX:
            raise Unavailable(f"T = {s.T}, b = {s.b}, k = {s.k}: beyond the simulation budget")
        return s

    def truth(self, stmt, v, *, precise=False, seed: int = 0):
        s = self.scenario(stmt, v)
        m, se = simulate(s, runs=RUNS, seed=seed)[stmt.metric.key]
        return Truth(m, m, Z * se, f"{RUNS} simulated runs (mean ± {Z:g}·s.e.)",
                     f"quadratic H = diag({s.mu:g} … {s.L:g}) in R^{s.k}, Gaussian gradient noise")


truth_provider(QuadraticSGDProvider())

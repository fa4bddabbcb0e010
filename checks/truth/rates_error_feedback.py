"""Convergence of clipped error-feedback SGD (:class:`~theory.mechanisms.ErrorFeedbackSGD`)
against simulation: provider ``error-feedback-rate`` for :class:`~theory.model.Rate`
statements on the weighted gradient metric
(:data:`~theory.metrics.WEIGHTED_EXPECTED_GRAD_SQ`) and the plain average
(:data:`~theory.metrics.AVERAGE_EXPECTED_GRAD_SQ`).

**Weights.**  The weighted metric's A_t are computed from the run's own buffer, by the
rule A_t = Σ_{τ=t+1}^{T−1} α^τ Π_{t<τ'<τ}(1 − α^{τ'}) = 1 − Π_{τ=t+1}^{T−1}(1 − α^τ),
α^τ = min{1, C2/‖e_τ‖} (the clipping factor of the buffer; A_{T−1} = 0, an empty sum), and
the metric is E[Σ_t A_t‖∇f(θ_t)‖² / Σ_t A_t] over runs (a run whose weights are all 0 is
not counted; T = 1 is out of reach).

**Problem families** (d = the statement's d, else 1; every class parameter met):

* ``pseudo-huber`` (convex): f(θ) = Σ_k w c (√(1 + (θ_k/c)²) − 1), ‖∇f‖ ≤ w√d,
  L-smooth with L = w/c, lower bounded (f* = 0);
* ``cosine`` (non-convex): f(θ) = Σ_k a (1 − cos θ_k), ‖∇f‖ ≤ a√d, L-smooth with L = a,
  f* = 0;

the per-example losses of a dataset of N examples are f(θ) + ⟨ξ_i, θ⟩ with fixed
ξ_i = (σ_ξ/√d)·r_i, r_i ∈ {±1}^d balanced over i (Σ ξ_i = 0, so f is the average, and
‖ξ_i‖ = σ_ξ exactly (one ξ_i = 0 when N is odd): E‖∇l_ξ − ∇f‖² ≤ σ_ξ², σ_ξ the noise
class's bound).  w (or a) and c are the largest the smoothness
and gradient bounds allow; θ_0 is put where f(θ_0) − f* equals the statement's initial gap
(``InitialGap``; every coordinate alike; a family that cannot reach it is skipped).
``LowerBounded`` of the objective holds for both; of every loss l_i = f + ⟨ξ_i, θ⟩ only for
the pseudo-Huber family with σ_ξ < G (the linear term is dominated) and the cosine family
without noise — other scenarios are skipped.  Poisson sampling
with rate B/N, sums divided by B, as the mechanism.

The truth at a point is the Monte Carlo mean over :data:`RUNS` runs ± Z standard errors
of the worse family (one-sided, Z = 4: a false alarm has probability below 4·10⁻⁵ under a
normal approximation), so the statement driver calls a scenario VIOLATED only when
``mean − Z·(standard error) > bound``, the bound re-evaluated at 50 digits.  At T = 2 the
weighted metric is a number, ‖∇f(θ_0)‖² (A_1 = 0, an empty sum, and A_0 > 0): the precise
truth a violation is confirmed with is then that number at 50 digits.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import mpmath
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
from theory.classes import BoundedGradient, GradNoise, InitialGap, LowerBounded, LSmooth
from theory.mechanisms import ErrorFeedbackSGD
from theory.metrics import AVERAGE_EXPECTED_GRAD_SQ, WEIGHTED_EXPECTED_GRAD_SQ

RUNS = 256
Z = 4.0
T_MAX = 4000
D_MAX = 10
N_MAX = 2000
COST_MAX = 3e8            # runs × T × N × d
FAMILIES = ("pseudo-huber", "cosine")


@dataclass(frozen=True)
class Scenario:
    family: str
    d: int
    N: int
    B: int
    T: int
    eta: float
    C1: float
    C2: float
    sigma_dp: float
    L: float
    G: float
    noise: float          # ‖ξ_i‖
    gap0: float           # f(θ_0) − f*

    def constants(self) -> tuple[float, float]:
        """(scale, width): w, c of the pseudo-Huber family; a, 0 of the cosine one."""
        if self.family == "pseudo-huber":
            w = self.G / math.sqrt(self.d)
            return w, w / self.L
        return min(self.L, self.G / math.sqrt(self.d)), 0.0

    def theta0(self) -> float:
        s, c = self.constants()
        per = self.gap0 / self.d
        if self.family == "pseudo-huber":
            # w c (√(1 + (x/c)²) − 1) = per
            return c * math.sqrt((per / (s * c) + 1) ** 2 - 1)
        if per >= 2 * s:
            raise Unavailable(f"the cosine family reaches gaps below 2a·d = {2 * s * self.d:g}")
        return math.acos(1 - per / s)

    def grad(self, th: np.ndarray) -> np.ndarray:
        s, c = self.constants()
        if self.family == "pseudo-huber":
            return s * (th / c) / np.sqrt(1 + (th / c) ** 2)
        return s * np.sin(th)


def exact_weighted_at_two_steps(sc: Scenario, dps: int = 50):
    """The weighted metric at T = 2, exactly (mpmath, ``dps`` digits): A_1 = 0 (an empty
    sum) and A_0 = α^1 = min{1, C2/‖e_1‖} > 0 in every run, so the metric is ‖∇f(θ_0)‖²,
    a number (θ_0 is fixed): d·w²·u²/(1 + u²), u = θ_0/c (pseudo-Huber), d·a² sin²θ_0
    (cosine)."""
    if sc.T != 2:
        raise ValueError(f"T must be 2, got {sc.T}")
    with mpmath.workdps(dps):
        d, L, G = mpmath.mpf(sc.d), mpmath.mpf(sc.L), mpmath.mpf(sc.G)
        per = mpmath.mpf(sc.gap0) / d
        if sc.family == "pseudo-huber":
            w = G / mpmath.sqrt(d)
            c = w / L
            u2 = (per / (w * c) + 1) ** 2 - 1                 # (θ_0/c)²
            return d * w**2 * u2 / (1 + u2)
        a = min(L, G / mpmath.sqrt(d))
        x = mpmath.acos(1 - per / a)
        return d * a**2 * mpmath.sin(x) ** 2


def simulate(sc: Scenario, *, runs: int, seed: int) -> dict[str, tuple[float, float]]:
    """(mean, standard error) of the weighted and of the plain average gradient metric, and
    under ``"min-t-lower"`` min_t of E‖∇f(θ_t)‖² − Z·(standard error)."""
    if sc.family not in FAMILIES:
        raise ValueError(f"family must be one of {FAMILIES}, got {sc.family!r}")
    if runs < 2 or sc.T < 2:
        raise ValueError(f"runs >= 2 and T >= 2 needed, got runs={runs}, T={sc.T}")
    rng = np.random.default_rng(seed)
    d, N = sc.d, sc.N
    r = np.ones((N, d))
    for k in range(d):                                   # balanced signs per coordinate
        col = np.array([1.0, -1.0] * (N // 2) + ([0.0] if N % 2 else []))
        r[:, k] = rng.permutation(col)
    xi = sc.noise / math.sqrt(d) * r                     # Σ_i ξ_i = 0, ‖ξ_i‖ = noise
    th = np.full((runs, d), sc.theta0())
    e = np.zeros((runs, d))
    q = sc.B / N
    gsq = np.empty((sc.T, runs))
    enorm = np.empty((sc.T, runs))
    for t in range(sc.T):
        g = sc.grad(th)                                   # (runs, d)
        gsq[t] = (g * g).sum(axis=1)
        en = np.linalg.norm(e, axis=1)
        enorm[t] = en
        mask = rng.random((runs, N)) < q                  # Poisson sampling
        per = g[:, None, :] + xi[None, :, :]              # (runs, N, d)
        nrm = np.linalg.norm(per, axis=2, keepdims=True)
        clipped = per * np.minimum(1.0, sc.C1 / np.maximum(nrm, 1e-300))
        m = mask[:, :, None]
        raw = (per * m).sum(axis=1) / sc.B
        v = (clipped * m).sum(axis=1) / sc.B
        v = v + e * np.minimum(1.0, sc.C2 / np.maximum(en, 1e-300))[:, None]
        e = e + raw - v
        th = th - sc.eta * (v + rng.normal(0.0, sc.sigma_dp, (runs, d)))
    alpha = np.minimum(1.0, sc.C2 / np.maximum(enorm, 1e-300))      # α^τ, τ = 0..T−1
    # A_t = 1 − Π_{τ=t+1}^{T−1} (1 − α^τ): suffix products, A_{T−1} = 0
    one_minus = 1.0 - alpha
    suffix = np.ones((sc.T + 1, runs))
    for t in range(sc.T - 1, -1, -1):
        suffix[t] = suffix[t + 1] * one_minus[t]
    A = 1.0 - suffix[1:]                                  # A[t] = 1 − Π_{τ>t}
    SA = A.sum(axis=0)
    ok = SA > 0
    if ok.sum() < 2:
        raise Unavailable("the weights A_t vanish in (almost) every run")
    wavg = (A * gsq).sum(axis=0)[ok] / SA[ok]
    avg = gsq.mean(axis=0)
    # min over t of a lower confidence end of E‖∇f(θ_t)‖² (any weights: a weighted average
    # is at least the smallest term)
    lows = gsq.mean(axis=1) - Z * gsq.std(axis=1, ddof=1) / math.sqrt(runs)
    return {"min-t-lower": (float(lows.min()), 0.0),
            WEIGHTED_EXPECTED_GRAD_SQ.key: (float(wavg.mean()),
                                            float(wavg.std(ddof=1) / math.sqrt(wavg.size))),
            AVERAGE_EXPECTED_GRAD_SQ.key: (float(avg.mean()),
                                           float(avg.std(ddof=1) / math.sqrt(runs)))}


class ErrorFeedbackRateProvider(TruthProvider):
    name = "error-feedback-rate"
    mechanisms = (ErrorFeedbackSGD,)
    classes = (LSmooth, LowerBounded, BoundedGradient, GradNoise, InitialGap)
    metrics = (WEIGHTED_EXPECTED_GRAD_SQ, AVERAGE_EXPECTED_GRAD_SQ)

    stochastic = True

    def supports(self, stmt):
        got = super().supports(stmt)
        if not got:
            return got
        if stmt.mechanism.sampling != "poisson":
            return Support(False, f"{self.name}: only Poisson sampling")
        for c in all_classes(stmt):
            if isinstance(c, BoundedGradient) and c.of != "objective":
                return Support(False, f"{self.name}: per-example gradient bounds are not met "
                                      "by the noisy families")
        return Support(True)

    def plan(self, stmt, budget):
        return SIMULATION_PLAN

    def reads(self, stmt):
        return dimension_symbols(stmt)

    def describe(self, stmt):
        return (f"pseudo-Huber (convex) and cosine (non-convex) families, {RUNS} simulated "
                f"runs a scenario (mean ± {Z:g} s.e. of the worse family), metric "
                f"{stmt.metric.definition}")

    def reach(self, stmt, v):
        self.scenarios(stmt, v)

    @staticmethod
    def _gap_symbol(stmt):
        """The statement's initial gap f(θ_0) − f* (its ``InitialGap`` class), or None."""
        for c in all_classes(stmt):
            if isinstance(c, InitialGap):
                return c.gap
        return None

    def derived(self, stmt):
        a = stmt.mechanism
        out = {"T": a.T, "n": a.n, "b": a.b, "C1": a.C1, "C2/C1": a.C2 / a.C1,
               "sigma": a.sigma}
        for c in all_classes(stmt):
            for k, e in c.params().items():
                out.setdefault(f"{c.name}.{k}", e)
        return out

    def anchors(self, stmt):
        """Thresholds small and large relative to the gradient bound (G = 1), few and many
        steps, gradient noise absent (10⁻⁹) or a quarter of C1, DP noise small or of the
        order of C1, the buffer threshold four times C1."""
        out = []
        for T in (2, 16, 256):
            for C1 in (1e-3, 1e-2, 0.3):
                for noise, sdp in ((1e-9, 1e-3 * C1), (C1 / 4, C1)):
                    out.append({"T": T, "n": 16, "b": 4, "C1": C1, "C2/C1": 4.0,
                                "sigma": sdp, "LSmooth.L": 1.0, "BoundedGradient.G": 1.0,
                                "GradNoise.sigma": noise, "InitialGap.gap": 0.5})
        return out

    def scenarios(self, stmt, v) -> list[Scenario]:
        a = stmt.mechanism
        val = {"L": None, "G": None, "noise": 0.0}
        for c in all_classes(stmt):
            if isinstance(c, LSmooth):
                val["L"] = evaluate(c.L, v)
            elif isinstance(c, BoundedGradient):
                val["G"] = evaluate(c.G, v)
            elif isinstance(c, GradNoise):
                val["noise"] = evaluate(c.sigma, v)
        if val["L"] is None or val["G"] is None:
            raise Unavailable("the families need LSmooth(L) and BoundedGradient(G) to be sized")
        N, B, T = evaluate(a.n, v), evaluate(a.b, v), evaluate(a.T, v)
        for nm, x in (("n", N), ("b", B), ("T", T)):
            if x != int(x) or x < 1:
                raise Unavailable(f"{nm} = {x:g} is not a positive integer")
        N, B, T = int(N), int(B), int(T)
        dsym = [s for s in stmt.expr.free_symbols if s.name == "d"]
        d = int(evaluate(dsym[0], v)) if dsym else 1
        g0 = self._gap_symbol(stmt)
        if g0 is None:
            raise Unavailable("the statement names no initial gap f(θ_0) − f* "
                              "(an InitialGap class)")
        if B > N or T < 2 or d < 1:
            raise Unavailable("b > n, T < 2 or d < 1")
        if T > T_MAX or d > D_MAX or N > N_MAX or RUNS * T * N * d > COST_MAX:
            raise Unavailable(f"T = {T}, n = {N}, d = {d}: beyond the simulation budget")
        base = dict(d=d, N=N, B=B, T=T, eta=evaluate(a.eta, v), C1=evaluate(a.C1, v),
                    C2=evaluate(a.C2, v), sigma_dp=evaluate(a.sigma, v), L=val["L"],
                    G=val["G"], noise=val["noise"], gap0=evaluate(g0, v))
        per_loss_lb = any(isinstance(c, LowerBounded) and c.of == "loss"
                          for c in all_classes(stmt))
        out = []
        for fam in FAMILIES:
            if per_loss_lb and not (fam == "cosine" and val["noise"] == 0
                                    or fam == "pseudo-huber" and val["noise"] < val["G"]):
                continue                 # l_i = f + ⟨ξ_i, θ⟩ would not be bounded below
            sc = Scenario(family=fam, **base)
            try:
                sc.theta0()
            except Unavailable:
                continue
            out.append(sc)
        if not out:
            raise Unavailable("no family reaches the initial gap")
        return out

    def truth(self, stmt, v, *, precise=False, seed: int = 0):
        out, why = [], None
        for sc in self.scenarios(stmt, v):
            try:
                m, se = simulate(sc, runs=RUNS, seed=seed)[stmt.metric.key]
            except Unavailable as exc:
                why = exc
                continue
            t = Truth(m, m, Z * se, f"{RUNS} simulated runs (mean ± {Z:g}·s.e.)", repr(sc))
            if precise and sc.T == 2 and stmt.metric is WEIGHTED_EXPECTED_GRAD_SQ:
                # T = 2: the weighted metric is ‖∇f(θ_0)‖², a number, at 50 digits
                val = exact_weighted_at_two_steps(sc)
                t = Truth(float(val), float(val), 0.0,
                          "at T = 2 the weighted metric is ‖∇f(θ_0)‖² (A_1 = 0, an empty "
                          f"sum, and A_0 > 0), 50 digits; the simulation measured {m:.6g} on "
                          f"{RUNS} runs", repr(sc), {"lower_mp": val})
            out.append(t)
        if not out:
            raise why
        return Truth.worst(out)


truth_provider(ErrorFeedbackRateProvider())

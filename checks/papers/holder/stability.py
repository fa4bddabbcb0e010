"""The ``holder-uas`` step oracle: Theorem 7 (high-probability uniform argument stability of
SGD for α-Hölder smooth losses) measured exactly on members of the class.

Instance: d = 1, data z ∈ Z = [−a, a], l(w, z) = c|w − z|^{1+α}/(1+α) with c = L/2^{1−α}:
convex, nonnegative, and α-Hölder smooth with parameter L (the derivative
c·sign(x)|x|^α is α-Hölder with constant c·2^{1−α} = L); M = sup_z |∂l(0, z)| = c a^α,
M0 = sup_z l(0, z) = c a^{1+α}/(1+α).  SGD from w_1 = 0 with a constant η (projected on
[−R, R] for part (b)), output w̄ = (1/T)Σ_{t=1}^T w_t.

For every index sequence (i_1, …, i_T) ∈ [n]^T (all enumerated: the law of the sequence is
uniform, so probabilities are exact fractions) the oracle computes max over neighbours
S' (z_i replaced by each of −a, 0, a) of |w̄(S) − w̄(S')| — a lower bound of
sup_{S≃S'} δ_A(S, S') — and the fraction of sequences on which it reaches the printed
Δ_SGD(γ) (Δ̃_SGD(γ)).  REFUTED when that fraction exceeds γ (a member of the class, every
hypothesis in force, an exact probability); otherwise SUPPORTED with the largest ratio
measured/bound seen.
"""
from __future__ import annotations

import itertools
import math
import time

import numpy as np
import sympy as sp

from checks.plugins import step_oracle
from checks.verdict import StepReport, Verdict
from theory.model import Located
from theory.papers.holder import common as hc
from theory.papers.holder import symbols as hs
from theory.quantities import T as T_, n as n_

#: (alpha, L, n, T, a, gamma, R) scenarios; η is taken inside (1/T, min{1, 1/L})
SCENARIOS = [
    (0.0, 1.0, 2, 8, 1.0, 0.5, 2.0), (0.5, 1.0, 2, 8, 1.0, 0.5, 2.0),
    (0.9, 0.5, 3, 6, 2.0, 0.3, 1.0), (0.25, 2.0, 3, 6, 1.0, 0.9, 0.5),
    (0.0, 0.5, 4, 5, 3.0, 0.1, 1.0), (0.75, 1.5, 2, 10, 1.0, 0.2, 1.0),
]
ETA_FRACTIONS = (0.05, 0.5, 0.95)


def _bound(rhs: sp.Expr, alpha, L, n, T, a, gamma, R, eta) -> float:
    c = L / 2 ** (1 - alpha)
    M, M0 = c * a ** alpha, c * a ** (1 + alpha) / (1 + alpha)
    al = sp.nsimplify(alpha)
    c_a1 = (hc.C_A1_ZERO if alpha == 0 else hc.C_A1_POS).subs({hs.alpha: al, hs.L: L, hs.M: M})
    vals = {hs.alpha: al, hs.L: L, hs.M: M, hs.M0: M0, n_: n, T_: T, hs.gamma: gamma,
            hs.R: R, hs.eta: eta}
    vals[hs.c_a1] = c_a1
    vals[hs.C_a] = hc.C_ALPHA.subs(vals)
    vals[hs.c_a2] = hc.C_A2.subs(vals)
    vals[hs.c_gT] = hc.c_gamma(hs.gamma).subs(vals)
    return float(sp.N(rhs.subs(vals), 30))


def _run(z: np.ndarray, seqs: np.ndarray, alpha, L, eta, R) -> np.ndarray:
    c = L / 2 ** (1 - alpha)
    w = np.zeros(seqs.shape[0])
    acc = np.zeros_like(w)
    for t in range(seqs.shape[1]):
        acc += w                                   # w_1 … w_T enter the average
        x = w - z[seqs[:, t]]
        g = c * np.sign(x) * np.abs(x) ** alpha if alpha > 0 else c * np.sign(x)
        w = w - eta * g
        if R is not None:
            w = np.clip(w, -R, R)
    return acc / seqs.shape[1]


@step_oracle("holder-uas", arguments={"part": "'a' (W = R^d, Δ_SGD) or 'b' (W ⊆ B(0, R), Δ̃_SGD)"},
             supports="the statement parts of holder:thm-7 (sup_delta <= Delta_SGD(gamma) w.p. ≥ 1 − γ)")
def holder_uas(loc: Located, *, budget: int, seed: int) -> StepReport:
    """Exact stability on 1-D members of the class, every index sequence enumerated."""
    t0 = time.perf_counter()
    part = str(dict(loc.step.oracle_args).get("part", "a"))
    if part not in ("a", "b"):
        raise ValueError(f"part must be 'a' or 'b', got {part!r}")
    worst, tried = None, 0
    for (alpha, L, n, T, a, gamma, R) in SCENARIOS[: max(2, min(len(SCENARIOS), budget))]:
        seqs = np.array(list(itertools.product(range(n), repeat=T)), dtype=int)
        base = np.linspace(-a, a, n)
        lo, hi = 1.0 / T, min(1.0, 1.0 / L)
        for f in ETA_FRACTIONS:
            eta = lo + f * (hi - lo)
            bound = _bound(loc.step.rhs, alpha, L, n, T, a, gamma, R, eta)
            Rw = R if part == "b" else None
            wbar = _run(base, seqs, alpha, L, eta, Rw)
            sup = np.zeros(len(seqs))
            for i in range(n):
                for zi in (-a, 0.0, a):
                    if zi == base[i]:
                        continue
                    z2 = base.copy()
                    z2[i] = zi
                    sup = np.maximum(sup, np.abs(wbar - _run(z2, seqs, alpha, L, eta, Rw)))
            frac = float(np.mean(sup >= bound * (1 - 1e-9)))
            ratio = float(sup.max() / bound)
            tried += 1
            where = {"alpha": str(alpha), "L": str(L), "n": str(n), "T": str(T), "a": str(a),
                     "gamma": str(gamma), "R": str(R), "eta": f"{eta:.6g}"}
            if frac > gamma:
                return StepReport(loc.id, loc.step.eq, loc.step.kind.value, Verdict.REFUTED,
                                  "oracle:holder-uas", counterexample=dict(where, P=str(frac)),
                                  slack=bound - float(sup.max()), samples=tried,
                                  seconds=time.perf_counter() - t0, where=where,
                                  detail=f"P(sup δ ≥ bound) = {frac} > γ = {gamma} over all "
                                         f"{len(seqs)} index sequences")
            if worst is None or ratio > worst[0]:
                worst = (ratio, where, bound)
    ratio, where, bound = worst
    return StepReport(loc.id, loc.step.eq, loc.step.kind.value, Verdict.SUPPORTED,
                      "oracle:holder-uas", slack=1 - ratio, samples=tried,
                      seconds=time.perf_counter() - t0, where=where,
                      detail=f"{tried} scenarios (1-D members of the class, every index sequence "
                             f"enumerated, neighbours z_i → −a, 0, a): the largest "
                             f"max_seq sup|w̄ − w̄'| / bound = {ratio:.3g} (the bound is never "
                             f"reached)")


@step_oracle("holder-iterates", arguments={},
             supports="the statement of holder:lem-20 (||w_{t+1}||² <= C_alpha t eta on W = R^d)")
def holder_iterates(loc: Located, *, budget: int, seed: int) -> StepReport:
    """Lemma 20 on the 1-D members of the class: max over every index sequence and t of
    ||w_{t+1}||² / (C_α tη), data at ±a and in between."""
    t0 = time.perf_counter()
    worst, tried = None, 0
    for (alpha, L, n, T, a, gamma, R) in SCENARIOS[: max(2, min(len(SCENARIOS), budget))]:
        seqs = np.array(list(itertools.product(range(n), repeat=T)), dtype=int)
        z = np.linspace(-a, a, n)
        c = L / 2 ** (1 - alpha)
        for f in ETA_FRACTIONS:
            eta = 1.0 / T + f * (min(1.0, 1.0 / L) - 1.0 / T)
            al = sp.nsimplify(alpha)
            M, M0 = c * a ** alpha, c * a ** (1 + alpha) / (1 + alpha)
            c_a1 = (hc.C_A1_ZERO if alpha == 0 else hc.C_A1_POS).subs({hs.alpha: al, hs.L: L, hs.M: M})
            C = float(sp.N(hc.C_ALPHA.subs({hs.alpha: al, hs.c_a1: c_a1, hs.M0: M0}), 30))
            w = np.zeros(len(seqs))
            for t in range(1, T + 1):
                x = w - z[seqs[:, t - 1]]
                g = c * np.sign(x) * np.abs(x) ** alpha if alpha > 0 else c * np.sign(x)
                w = w - eta * g
                ratio = float(np.max(w ** 2) / (C * t * eta))
                where = {"alpha": str(alpha), "L": str(L), "n": str(n), "t": str(t), "a": str(a),
                         "eta": f"{eta:.6g}", "C_alpha": f"{C:.6g}"}
                if ratio > 1 + 1e-9:
                    return StepReport(loc.id, loc.step.eq, loc.step.kind.value, Verdict.REFUTED,
                                      "oracle:holder-iterates", counterexample=dict(where, ratio=f"{ratio:.6g}"),
                                      slack=1 - ratio, samples=tried, where=where,
                                      seconds=time.perf_counter() - t0,
                                      detail=f"||w_(t+1)||² = {ratio:.6g} × C_α tη on a member of the class")
                if worst is None or ratio > worst[0]:
                    worst = (ratio, where)
            tried += 1
    ratio, where = worst
    return StepReport(loc.id, loc.step.eq, loc.step.kind.value, Verdict.SUPPORTED,
                      "oracle:holder-iterates", slack=1 - ratio, samples=tried, where=where,
                      seconds=time.perf_counter() - t0,
                      detail=f"{tried} scenarios (1-D members, every index sequence): the largest "
                             f"||w_(t+1)||²/(C_α tη) = {ratio:.3g}")

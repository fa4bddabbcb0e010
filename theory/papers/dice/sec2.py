"""Sec. 2 of DiceSGD: preliminaries (Def. 2.1, Def. 2.2, Algorithm 1, Theorem 2.3).

Readings of the text rendering (002_42ff4ce8f5a48016.txt, lines 206-534):

* Def. 2.2 prints "σ = Δ_f √(2 ln(1.25/δ)) / ϵ" with the square root dropped by the
  renderer ("σ = Δ 𝑓 2 ln(1.25/δ) 𝜖"); we read the classical calibration
  σ = Δ_f √(2 ln(1.25/δ))/ϵ (Dwork & Roth, Thm A.1).  The paper states it "for any
  ϵ > 0, δ ≤ 1" — without the ϵ < 1 of the classical theorem; the typed statement
  checks the printed range against the exact privacy profile of the Gaussian mechanism.
* Theorem 2.3 prints "ϵ < u B²T/N²" and "σ₁² ≥ v C²T ln(1/δ)/(N²ϵ²)" (fraction bars
  dropped); existential constants u, v — CITED (Abadi et al. 2016, Thm 1).
"""
from __future__ import annotations

import sympy as sp

from theory.mechanisms import GaussianMechanism
from theory.model import Bound, Result, Step, StepKind, asm
from theory.papers.dice.symbols import Delta_f, eps_dp, epsilon, delta

ALG, SCA, PRO, CIT = StepKind.ALGEBRA, StepKind.SCALAR, StepKind.PROBABILISTIC, StepKind.CITED

#: Def. 2.2: the noise the paper prescribes
SIGMA_DEF22 = Delta_f * sp.sqrt(2 * sp.log(sp.Rational(5, 4) / delta)) / epsilon

DEF_2_1 = Result(
    "dice:def-2.1", "(ϵ, δ)-DP (Dwork 2006)", "Sec. 2.1, Definition 2.1",
    note="M is (ϵ, δ)-DP if for any neighbouring D, D' (differing by one sample instance) "
         "and any measurable S: Pr[M(D) ∈ S] ≤ e^ϵ Pr[M(D') ∈ S] + δ.")

DEF_2_2 = Result(
    "dice:def-2.2", "Gaussian mechanism (Dwork 2006)", "Sec. 2.1, Definition 2.2",
    hypotheses=[asm(sp.Gt(epsilon, 0), "Def. 2.2: for any ϵ > 0"),
                asm(sp.Le(delta, 1), "Def. 2.2: δ ≤ 1")],
    statement=[Step("statement", eps_dp, "<=", epsilon, PRO,
                    note="M(x) = f(x) + w, w ~ N(0, σ² I_d), σ = Δ_f √(2 ln(1.25/δ))/ϵ, "
                         "is (ϵ, δ)-DP; eps_dp is the smallest ϵ' of (ϵ', δ)-DP")],
    bounds=[Bound("statement", epsilon, GaussianMechanism(sensitivity=Delta_f,
                                                          sigma=SIGMA_DEF22),
                  delta=delta, profile=True,
                  hypotheses=[asm(sp.Gt(epsilon, 0), "Def. 2.2"),
                              asm(sp.Le(delta, 1), "Def. 2.2")],
                  note="the exact privacy profile of the Gaussian mechanism at the printed "
                       "calibration, over the printed range ϵ > 0, δ ≤ 1")],
    note="Printed as a definition but it states a theorem (the classical calibration); "
         "the classical result (Dwork & Roth 2014, Thm A.1) needs ϵ < 1.")

ALG_1 = Result(
    "dice:alg-1", "DPSGD-GC (Abadi et al. 2016)", "Sec. 2.2, Algorithm 1",
    note="Input x_0, D, C, η. For t = 0..T−1: draw B_t uniformly; g̃_i^t = clip(∇f(x_t; ξ_i), "
         "C); x_{t+1} = x_t − (η_t/B)(Σ_{i∈B_t} g̃_i^t + w_t), w_t ~ N(0, σ₁² I). "
         "(Here the noise is added to the SUM, then divided by B.)")

THM_2_3 = Result(
    "dice:thm-2.3", "Privacy of DPSGD-GC (Abadi et al. 2016, Thm 1)", "Sec. 2.2, Theorem 2.3",
    hypotheses=[asm("there exist u, v > 0 with ϵ < u B²T/N² and σ₁² ≥ v C²T ln(1/δ)/(N²ϵ²)",
                    "Theorem 2.3"), asm(sp.Gt(delta, 0), "Theorem 2.3")],
    statement=[Step("statement", eps_dp, "<=", epsilon, CIT,
                    because="Abadi et al. 2016, Theorem 1 (existential constants u, v: no "
                            "explicit statement to check)")])

RESULTS = [DEF_2_1, DEF_2_2, ALG_1, THM_2_3]

"""App. B and C of DiceSGD: Example B.1 (constant clipping bias), Algorithm 3 (Adam
variant, C.3) and Algorithm 4 (automatic DiceSGD, C.4).

Example B.1 (lines 14375-14616): f(x, ξ) is the Huber-type loss with threshold
C' = ⌈C⌉ + 1, N = C' + 1 samples ξ_i = −1 (i ≤ C') and ξ_{C'+1} = C'.  The paper claims
the SGD stationary point x⋆ = 0 and the clipped-SGD stationary point x̃⋆ = C'/(C' + C) ≥ 1/2.
We check both with the mean (clipped) gradient written out in the regions the points lie
in: at x⋆ = 0 every sample is in its quadratic region; at x̃⋆ = C'/(C'+C) ∈ [2/3, 1) for
0 < C ≤ 1 (so C' = 2), the samples ξ = −1 have gradient x + 1 ∈ (1, 2] > C and the sample
ξ = C' has gradient x − C' ∈ (−2, −1] with |·| ≥ 1 ≥ C, so both are clipped to ±C.

Algorithm 4 prints clip(x, C) = C/‖x‖ (automatic clipping is Cx/‖x‖, Bu et al. 2024) and
σ₁ = √(32T·3C² log(1/δ)/(N²ϵ²)) = √(96T log(1/δ)) C/(Nϵ).
"""
from __future__ import annotations

import sympy as sp

from theory.model import Result, Step, StepKind, asm
from theory.papers.dice.symbols import C, Cb, Cp, Lg, N, T, epsilon, x_tilde

ALG, SCA, PRO, CIT = StepKind.ALGEBRA, StepKind.SCALAR, StepKind.PROBABILISTIC, StepKind.CITED

X_TILDE = Cp / (Cp + Cb)

EX_B_1 = Result(
    "dice:ex-b.1", "Example of constant clipping bias", "App. B.1",
    hypotheses=[asm(sp.Gt(Cb, 0), "B.1: any fixed positive C"),
                asm(sp.Eq(N, Cp + 1), "B.1: N = C' + 1")],
    statement=[Step("statement", x_tilde, ">=", sp.Rational(1, 2), ALG,
                    given=[asm(sp.Eq(x_tilde, X_TILDE), "the printed x̃⋆ = C'/(C'+C)"),
                           asm(sp.Ge(Cp, Cb + 1), "C' = ⌈C⌉ + 1 ≥ C + 1")],
                    note="x̃⋆ = C'/(C' + C) ≥ 1/2 (the toy is dimensionless: C' is also the "
                         "count N − 1)")],
    proof=[
        Step("sgd-stationary", Cp * (0 + 1) + (0 - Cp), "=", 0, ALG,
             because="Σ_i ∇f(x⋆; ξ_i) at x⋆ = 0: C' samples with gradient x + 1 and one "
                     "with x − C' (all in the quadratic region)"),
        Step("clipped-stationary", Cp * Cb - Cb, "=", 0, ALG,
             given=[asm(sp.Le(Cb, 1), "the case 0 < C ≤ 1"), asm(sp.Eq(Cp, 2), "C' = ⌈C⌉ + 1 = 2")],
             because="N × the mean clipped gradient at the printed x̃⋆ = C'/(C'+C): "
                     "C'·clip(x̃ + 1, C) + clip(x̃ − C', C) = C'C − C; stationarity needs 0"),
        Step("clipped-stationary-root", Cp * ((Cb / Cp - 1) + 1) - Cb, "=", 0, ALG,
             given=[asm(sp.Le(Cb, 1), "the case 0 < C ≤ 1"), asm(sp.Eq(Cp, 2), "C' = 2")],
             because="the mean clipped gradient vanishes at x = C/C' − 1 ∈ (−1, −1/2], where "
                     "x + 1 = C/C' ≤ C (unclipped) and x − C' < −C' (gradient −C', clipped "
                     "to −C): the stationary point of clipped SGD, bias 1 − C/C' ≥ 1/2"),
    ])

ALG_3 = Result(
    "dice:alg-3", "Adam variant of DiceSGD", "App. C.3, Algorithm 3",
    note="DiceSGD's direction v_t + w_t fed to Adam's moment estimates (the update line is "
         "the only part the text rendering keeps legible); no claim is attached.")

ALG_4 = Result(
    "dice:alg-4", "Automatic DiceSGD (without C1, C2)", "App. C.4, Algorithm 4",
    statement=[Step("noise", 32 * T * 3 * C**2 * Lg / (N**2 * epsilon**2), "=",
                    (sp.sqrt(96 * T * Lg) * C / (N * epsilon))**2, ALG,
                    note="σ₁ = √(32T·3C² log(1/δ)/(N²ϵ²)) = √(96T log(1/δ)) C/(Nϵ): Theorem "
                         "3.7 with C1 = C2 = C, G̃ ≤ 3C²")],
    note="v_t = (1/B)Σ clip(∇f(x_t; ξ_i), 1) + clip(e_t, 1), clip(x, C) printed as C/‖x‖ "
         "(automatic clipping Cx/‖x‖); w_t ~ √(96T log(1/δ))/(Nϵ)·N(0, I).")

RESULTS = [EX_B_1, ALG_3, ALG_4]

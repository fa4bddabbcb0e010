"""App. A of DiceSGD: (5), (6), Lemma A.1, Theorems A.2 and A.3 (restatements of 3.6 and
3.7), the error recursion (8)-(9), the proofs A.1 (convergence) and A.2 (privacy),
Definition A.4, Lemmas A.5-A.8, Corollary A.9, Lemma A.10.

Readings of the text rendering (lines 3156-14375):

* (9): "‖e_t‖ ≤ … ≤ t G' − (t−1) C2" and α_e^t ≥ C2/(t G' − (t−1)C2) = C2/(C2 + t(G' − C2)).
* A.2, before (24): "By choosing σ > 8 C1/B, and p ≤ 1/5" (fraction bar dropped): σ₁ > 8C1/B.
* A.2, Step I: ϵ(σ) ≤ 8C1²α/(N²σ₁²); (24): 8p²C1²α/(B²σ₁²) (= the same with p = B/N).
* A.2, last display: the sum of ϵ_τ; in the case G' ≤ C2 every max{·, 0} vanishes and
  ϵ_τ = 16α(C1² + 2 min{C2, G'}²)/(σ₁²N²) for every τ.
* Lemma A.10 prints C3 = 1 + 1/(p(α−1)) (no logarithm; Mironov et al. 2019, Thm 11 has
  ln(1 + 1/(p(α−1)))), σ > 4C and the two conditions on α written in σ (not σ/C): all
  encoded as printed.
"""
from __future__ import annotations

import sympy as sp

from theory.mechanisms import GaussianMechanism, SampledGaussian
from theory.model import (Bound, Case, CaseSplit, Chain, ImplicitBound, Result, Step,
                          StepKind, asm)
from theory.papers.dice import sec3
from theory.papers.dice.symbols import (G, sigma, D_mix, Et_v, Var_X, Var_cX, B, C, C1, C2, D_gauss, D_rdp, D_sgm, Gp, Lg, N,
                                        T, a_, ae1, ae2, ae3, alpha, b_, beta, c_, c_rdp,
                                        delta, e1, e1p, e_norm, e_prev, eps_dp, epsilon,
                                        gsum, mG, p, s_, sigma1, sigma_g, t, x_, y_)

LOG = sp.log(1 / delta)
ALG, SCA, PRO, CIT = StepKind.ALGEBRA, StepKind.SCALAR, StepKind.PROBABILISTIC, StepKind.CITED

# --------------------------------------------------------------------------------------
EQ_5 = Result(
    "dice:eq-5", "Young-type inequality", "App. A, eq. (5)",
    hypotheses=[asm(sp.Gt(beta, 0), "(5): ∀β > 0")],
    statement=[Step("statement", (a_ + b_)**2, "<=", (1 + beta) * a_**2 + (1 + 1 / beta) * b_**2,
                    SCA, eq="5", note="‖a + b‖² ≤ (1+β)‖a‖² + (1+1/β)‖b‖², checked on the "
                                      "real line (the vector case follows coordinate-free "
                                      "from 2⟨a, b⟩ ≤ β‖a‖² + ‖b‖²/β)")])

EQ_6 = Result(
    "dice:eq-6", "Polarisation identity", "App. A, eq. (6)",
    statement=[Step("statement", a_ * b_, "=", (a_**2 + b_**2 - (a_ - b_)**2) / 2, ALG, eq="6",
                    note="⟨a, b⟩ = (‖a‖² + ‖b‖² − ‖a − b‖²)/2, on the real line")])

LEM_A_1 = Result(
    "dice:lem-a.1", "Non-expansive maps shrink the variance; x − clip(x, C) is non-expansive",
    "App. A, Lemma A.1 (proof in A.4)",
    hypotheses=[asm(sp.Gt(C, 0), "Lemma A.1: C > 0")],
    statement=[
        Step("part-1", Var_cX, "<=",
             Var_X, CIT,
             because="Var(c(X)) ≤ E‖c(X) − c(EX)‖² ≤ E‖X − EX‖² for a 1-Lipschitz c",
             note="Var(c(X)) ≤ Var(X) for non-expansive c"),
        Step("part-2", sp.Abs((x_ - sp.Min(sp.Max(x_, -C), C))
                              - (y_ - sp.Min(sp.Max(y_, -C), C))), "<=", sp.Abs(x_ - y_), SCA,
             note="‖c(x) − c(y)‖ ≤ ‖x − y‖ for c(x) = x − clip(x, C), checked in 1-D where "
                  "clip(x, C) = min(max(x, −C), C)"),
    ])

THM_A_2 = Result(
    "dice:thm-a.2", "Convergence of DiceSGD (restatement of Theorem 3.6)",
    "App. A, Theorem A.2, eq. (7); proof in A.1",
    hypotheses=sec3.THM36_HYPS,
    statement=[Step("statement", sec3.Et_grad, "<=", sec3.RATE36, PRO, eq="7",
                    note="E_t with probability A_t/Σ A_t, {A_t} ∈ (0, 1] 'a positive "
                         "sequence defined in (12)'")],
    proof=[
        Step("eq-10-b", sec3.L * sec3.eta**2 / 2 * Et_v,
             "<=", sec3.L * sec3.eta**2 / 2 * (C1 + C2)**2, ALG, eq="10",
             given=[asm(sp.Le(Et_v, (C1 + C2)**2),
                        "(b): ‖v_t‖ ≤ C1 + C2 by clipping")]),
        Step("eq-11-c", (C1 + C2)**2 + sec3.d * sigma1**2 + C2**2, "<=", sec3.K36, ALG,
             eq="11", because="the constant of (c) is bounded by 2C1² + 3C2² + dσ₁² in (11)"),
        Step("eq-14-telescope", ae1 + ae2 * (1 - ae1) + ae3 * (1 - ae1) * (1 - ae2), "=",
             1 - (1 - ae1) * (1 - ae2) * (1 - ae3), ALG, eq="14",
             because="A_t = Σ_{τ>t} α_e^τ Π_{t<τ1<τ}(1 − α_e^{τ1}) = 1 − Π_{τ>t}(1 − α_e^τ), "
                     "three terms"),
        *sec3.proof_36(),
    ],
    rates=[sec3._rate36("statement")])

THM_A_3 = Result(
    "dice:thm-a.3", "Privacy of DiceSGD (restatement of Theorem 3.7)",
    "App. A, Theorem A.3; proof in A.2",
    hypotheses=[h for h in sec3.THM37_HYPS if h is not sec3.THM37_B_OVER_N],
    statement=[Step("statement", eps_dp, "<=", epsilon, PRO)],
    bounds=[sec3._bound37([h for h in sec3.THM37_HYPS if h is not sec3.THM37_B_OVER_N])],
    proof=[
        Step("step-1", 2 * p**2 * (2 * C1 / B)**2 * alpha / sigma1**2, "=",
             8 * C1**2 * alpha / (N**2 * sigma1**2), ALG,
             given=[asm(sp.Eq(p, B / N), "A.2: p = B/N")],
             because="Step I: Lemma A.10 with sensitivity 2C1/B gives ϵ(σ) ≤ 8C1²α/(N²σ₁²)"),
        Step("eq-20-a", alpha * a_**2 / (2 * s_**2), "<=",
             2 * alpha * (a_ - c_)**2 / (2 * s_**2) + 2 * alpha * c_**2 / (2 * s_**2), ALG,
             eq="20", because="(a): Lemma A.8 with β = 1, b = 0 (Lemma A.7 for each term)"),
        Step("eq-20-first-term",
             alpha * (C2 - e1p)**2 / (2 * sigma1**2), "<=",
             (C2 / e1)**2 * alpha * (e1 - e1p)**2 / (2 * sigma1**2), SCA, eq="20",
             given=[asm(sp.Gt(e1, C2), "1-D instance: e_t > C2, so α_e^t = C2/e_t"),
                    asm(sp.Le(e1p, C2), "1-D instance: |e'_t| ≤ C2, clip(e'_t) = e'_t"),
                    asm(sp.Ge(e1p, -C2), "1-D instance")],
             because="'clipping operation is non-expansive with factor α_e^t': "
                     "D_α(N_σ(clip(e_t) − clip(e'_t))‖μ0) ≤ (α_e^t)² D_α(N_σ(Δe_t)‖μ0), "
                     "both sides by Lemma A.7 in 1-D"),
        Step("noise-condition", sigma1, ">", 8 * C1 / B, ALG,
             given=[asm(sp.Eq(sigma1**2, sec3.SIGMA1_SQ_37), "σ₁² at the printed minimum")],
             because="the proof applies Lemma A.10 'by choosing σ > 8C1/B, and p ≤ 1/5'; "
                     "does the theorem's σ₁ give it?"),
        Step("sum-eps", (t + 1) * 16 * alpha * (C1**2 + 2 * mG**2) / (sigma1**2 * N**2), "<=",
             16 * alpha * t * C1**2 / (sigma1**2 * N**2)
             + 32 * t * alpha * mG**2 / (sigma1**2 * N**2), ALG,
             given=[asm(sp.Le(Gp, C2), "the case G' ≤ C2: every max{G' − C2, 0} = 0"),
                    asm(sp.Eq(mG, Gp), "min{C2, G'} = G' in that case"),
                    asm(sp.Gt(alpha, 1), "Def. A.4: α > 1")],
             because="last display of A.2: Σ_{τ=0}^{t} ϵ_τ with ϵ_τ = 16α(C1² + 2min{C2,G'}²)"
                     "/(σ₁²N²) for each of the t + 1 terms, bounded by 16αtC1²/(σ₁²N²) + "
                     "32tα min{C2,G'}²/(σ₁²N²) ('(a) bounds … by 2t')", origin="printed"),
        Step("rdp-to-dp-optimal", c_rdp * alpha + LOG / (alpha - 1), ">=",
             c_rdp + 2 * sp.sqrt(c_rdp * LOG), SCA,
             given=[asm(sp.Gt(alpha, 1), "Def. A.4")],
             because="AM-GM: over α > 1, Lemma A.5's ϵ = cα + log(1/δ)/(α−1) is at least "
                     "c + 2√(c log(1/δ)) (attained at α = 1 + √(log(1/δ)/c))"),
        Step("rdp-to-dp", c_rdp + 2 * sp.sqrt(c_rdp * LOG), "<=", epsilon, SCA,
             given=[asm(sp.Eq(c_rdp, 16 * T * sec3.GT / (sigma1**2 * N**2)),
                        "A.2: H_T is (α, cα)-RDP with c = 16T(C1² + 2min{C2, G'}²)/(σ₁²N²)"),
                    asm(sp.Eq(sigma1**2, sec3.SIGMA1_SQ_37),
                        "σ₁² at the printed minimum 32TG̃ log(1/δ)/(N²ϵ²)")],
             because="'Therefore, by choosing σ₁² ≥ 32T(C1² + 2min{C2, G'}²)log(1/δ)/(N²ϵ²), "
                     "DiceSGD guarantees (ϵ, δ)-DP': H_T is (α, 16αTG̃/(σ₁²N²))-RDP and "
                     "Lemma A.5 converts", origin="printed"),
    ])

EQ_8 = Result(
    "dice:eq-8", "The error recursion", "App. A, eq. (8)",
    statement=[Step("statement", e_norm, "=", e_norm, CIT,
                    because="definition: e_{t+1} = (1 − α_e^t)e_t + (1/B)Σ_{i∈B_t}(1 − α_i^t)g_i^t "
                            "with α_i^t = min{1, C1/‖g_i^t‖}, α_e^t = min{1, C2/‖e_t‖} "
                            "(lines 5 and 7 of Algorithm 2)")])

EQ_9 = Result(
    "dice:eq-9", "Lower bound on the clipping factor α_e^t", "App. A, eq. (9)",
    hypotheses=[asm(sp.Ge(Gp, 0), "G' := max{0, G + σ − C1}"), asm(sp.Ge(t, 1), "t ≥ 1"),
                asm(sp.Gt(C2, 0), "C2 > 0")],
    statement=[Step("statement", C2 / (t * Gp - (t - 1) * C2), "=",
                    C2 / (C2 + t * (Gp - C2)), ALG, eq="9",
                    note="α_e^t = C2/‖e_t‖ ≥ C2/(tG' − (t−1)C2) = C2/(C2 + t(G' − C2))")],
    proof=[
        CaseSplit("step-c", [
            Case("e-below", [asm(sp.Le(e_prev, C2), "case 1): ‖e_{t−1}‖ ≤ C2, α_e^{t−1} = 1")],
                 [Step("c", (1 - 1) * e_prev + gsum, "<=", e_prev - C2 + gsum, ALG,
                       because="(c): (1 − α_e^{t−1})‖e_{t−1}‖ ≤ ‖e_{t−1}‖ − C2 (plus the "
                               "gradient part bounded by max{0, ‖∇f‖ + σ − C1})", origin="printed")]),
            Case("e-above", [asm(sp.Gt(e_prev, C2), "case 2): α_e^{t−1} = C2/‖e_{t−1}‖")],
                 [Step("c", (1 - C2 / e_prev) * e_prev + gsum, "<=", e_prev - C2 + gsum, ALG, origin="printed")]),
        ], given=[asm(sp.Ge(e_prev, 0))],
            note="(c) is printed for every t; the recursion applies it at t − 1, where "
                 "case 1) is possible"),
        Step("e", Gp + (t - 1) * (Gp - C2), "=", t * Gp - (t - 1) * C2, ALG,
             because="(d)-(e): ‖e_1‖ ≤ G' and t − 1 terms each ≤ G' − C2", origin="printed"),
    ])

DEF_A_4 = Result(
    "dice:def-a.4", "Rényi-DP (Mironov 2017)", "App. A.2, Definition A.4",
    note="M is (α, ϵ)-RDP, α > 1, if D_α(M(D)‖M(D')) = 1/(α−1) log E_{θ∼M(D')}"
         "[(M(D)(θ)/M(D')(θ))^α] ≤ ϵ for neighbouring D, D'.")

LEM_A_5 = Result(
    "dice:lem-a.5", "RDP to (ϵ, δ)-DP (Mironov 2017, Prop. 3)", "App. A.2, Lemma A.5",
    hypotheses=[asm(sp.Gt(alpha, 1), "Def. A.4"), asm(sp.Gt(delta, 0), "Lemma A.5"),
                asm(sp.Lt(delta, 1), "Lemma A.5"),
                asm(sp.Le(D_rdp, epsilon), "M is (α, ϵ)-RDP")],
    statement=[Step("statement", eps_dp, "<=", epsilon + sp.log(1 / delta) / (alpha - 1), CIT,
                    because="Mironov 2017, Proposition 3")])

LEM_A_6 = Result(
    "dice:lem-a.6", "Rényi divergence of the error-state difference", "App. A.2, Lemma A.6, eq. (21)",
    hypotheses=[asm(sp.Eq(p, B / N), "p = B/N"),
                asm("G' = max{0, G + σ − C1}; α_e^t as in (9)", "Lemma A.6")],
    statement=[Step("statement", D_rdp, "<=", D_mix, PRO, eq="21",
                    oracle="error-buffer-shift",
                    note="D_α(N_σ(Δe_{t+1})‖μ0) ≤ D_α((1−p)N_σ((1−α_e^t)Δe_t | H_t) + "
                         "p N_σ((1−α_e^t)Δe_t + 2G'/B) ‖ μ0 | H_t); judged on 1-D "
                         "linear-loss instances (checks.papers.dice.oracles)")],
    proof=[
        Step("b-quasi-convexity", D_rdp, "<=", D_mix, CIT,
             because="(a)-(b): D_α(E_θ P(θ) ‖ E_θ Q(θ)) ≤ sup_θ D_α(P(θ) ‖ Q(θ)) with θ = B_t "
                     "(joint quasi-convexity of the Rényi divergence, van Erven & Harremoës "
                     "2014, Thm 13); the (26) mixture over whether ξ' is sampled"),
        Step("c-shift", (e1 - C2) - e1p, "=", (1 - C2 / e1) * (e1 - e1p), SCA,
             given=[asm(sp.Gt(e1, C2), "1-D instance: e_t > C2, α_e^t = C2/e_t"),
                    asm(sp.Le(e1p, C2), "1-D instance: |e'_t| ≤ C2, clip(e'_t) = e'_t"),
                    asm(sp.Ge(e1p, -C2), "1-D instance")],
             because="(c) writes the common part of the two means as (1 − α_e^t)Δe_t: "
                     "(e_t − clip(e_t, C2)) − (e'_t − clip(e'_t, C2)) = (1 − α_e^t)(e_t − e'_t) "
                     "— but e'_t is clipped with its own factor", origin="printed"),
        Step("e-sensitivity", sp.Max(0, x_ - C1), "<=", 2 * Gp, SCA,
             given=[asm(sp.Le(x_, G + sigma), "‖∇f(x_t; ξ')‖ ≤ ‖∇f(x_t)‖ + σ ≤ G + σ "
                                             "(Assumptions 3.4-3.5, per-sample form)"),
                    asm(sp.Eq(Gp, sp.Max(0, G + sigma - C1)), "G' := max{0, G + σ − C1}")],
             because="(e): ‖∇f(x_t; ξ') − clip(∇f(x_t; ξ'), C1)‖ = max{0, ‖∇f(x_t; ξ')‖ − C1} "
                     "is bounded by 'its sensitivity 2G''; in 1-D with x = ‖∇f(x_t; ξ')‖"),
    ],
    note="Proof in A.3.1: the mixture and quasi-convexity lines (a)-(b) CITED, the mean "
         "shift (c) and the bound (e) checked in 1-D.")

LEM_A_7 = Result(
    "dice:lem-a.7", "Rényi divergence of two Gaussians (Gil 2011, Prop. B.4.10)",
    "App. A.3, Lemma A.7",
    hypotheses=[asm(sp.Gt(alpha, 1), "Def. A.4"), asm(sp.Ne(a_, b_), "distinct means")],
    statement=[Step("statement", D_gauss, "=", alpha * (a_ - b_)**2 / (2 * s_**2), CIT,
                    because="Gil 2011; the printed proof completes the square")],
    proof=[
        Step("complete-square", alpha * (x_ - a_)**2 + (1 - alpha) * (x_ - b_)**2, "=",
             (x_ - (alpha * a_ + (1 - alpha) * b_))**2 + alpha * (1 - alpha) * (a_ - b_)**2,
             ALG, because="the exponent of the third line of the proof, completed to a square"),
        Step("line-last", (-alpha * (1 - alpha) * (a_ - b_)**2 / (2 * s_**2) + sp.log(1))
             / (alpha - 1), "=", alpha * (a_ - b_)**2 / (2 * s_**2),
             ALG, given=[asm(sp.Gt(alpha, 1))],
             because="(a): the remaining integral is that of the N(αa + (1−α)b, σ²) density, "
                     "1"),
    ],
    bounds=[Bound("statement", alpha * (a_ - b_)**2 / (2 * s_**2),
                  GaussianMechanism(sensitivity=sp.Abs(a_ - b_), sigma=s_), order=alpha,
                  hypotheses=[asm(sp.Gt(alpha, 1), "Def. A.4"), asm(sp.Ne(a_, b_))],
                  note="the Gaussian mechanism whose two outputs are N(a, σ²), N(b, σ²)")])

LEM_A_8 = Result(
    "dice:lem-a.8", "Weak triangle inequality for Gaussian Rényi divergences",
    "App. A.3, Lemma A.8",
    hypotheses=[asm(sp.Gt(beta, 0), "Lemma A.8: β > 0"), asm(sp.Gt(alpha, 1), "Def. A.4")],
    statement=[Step("statement", alpha * (a_ - b_)**2 / (2 * s_**2), "<=",
                    (1 + beta) * alpha * (a_ - c_)**2 / (2 * s_**2)
                    + (1 + 1 / beta) * alpha * (c_ - b_)**2 / (2 * s_**2), SCA,
                    note="D_α(N(a)‖N(b)) ≤ (1+β)D_α(N(a)‖N(c)) + (1+1/β)D_α(N(c)‖N(b)), "
                         "each divergence written by Lemma A.7")],
    proof=[Chain("proof", [
        Step("eq-5", alpha * (a_ - b_)**2 / (2 * s_**2), "<=",
             alpha * ((1 + beta) * (a_ - c_)**2 + (1 + 1 / beta) * (c_ - b_)**2) / (2 * s_**2),
             SCA, eq="5", because="(5) with a − c and c − b"),
        Step("line-2",
             alpha * ((1 + beta) * (a_ - c_)**2 + (1 + 1 / beta) * (c_ - b_)**2) / (2 * s_**2),
             "=", (1 + beta) * alpha * (a_ - c_)**2 / (2 * s_**2)
             + (1 + 1 / beta) * alpha * (c_ - b_)**2 / (2 * s_**2), ALG),
    ], concludes="statement")])

COR_A_9 = Result(
    "dice:cor-a.9", "Scaling of the Gaussian Rényi divergence", "App. A.3, Corollary A.9",
    hypotheses=[asm(sp.Gt(alpha, 1), "Def. A.4")],
    statement=[Step("statement", alpha * a_**2 / (2 * s_**2), "=",
                    a_**2 * (alpha * 1**2 / (2 * s_**2)), ALG,
                    note="D_α(N(a, σ²)‖N(0, σ²)) = a² D_α(N(1, σ²)‖N(0, σ²)) by Lemma A.7 "
                         "(the unit mean 1 carries the dimension of a)")])

#: Lemma A.10 as printed: C3 = 1 + 1/(p(α−1)), conditions written in σ (not σ/C)
C3 = 1 + 1 / (p * (alpha - 1))
A10_CONDS = (sp.Le(alpha, sigma_g**2 * C3 / 2 - 2 * sp.log(sigma_g), evaluate=False),
             sp.Le(alpha, (sigma_g**2 * C3**2 / 2 - sp.log(5) - 2 * sp.log(sigma_g))
                   / (C3 + sp.log(p * alpha) + 1 / (2 * sigma_g**2)), evaluate=False))
A10_HYPS = [asm(sp.Gt(alpha, 1), "Def. A.4: α > 1 (the lemma prints 1 ≤ α)"),
            asm(sp.Le(p, sp.Rational(1, 5)), "Lemma A.10: p ≤ 1/5"),
            asm(sp.Gt(sigma_g, 4 * C), "Lemma A.10: σ > 4C"),
            asm(ImplicitBound(alpha, A10_CONDS, "alpha_A10(p, sigma)", lower=1),
                "Lemma A.10: both conditions on α, as printed")]

LEM_A_10 = Result(
    "dice:lem-a.10", "RDP of the sub-sampled Gaussian mechanism (Mironov et al. 2019, Thm 11)",
    "App. A.3, Lemma A.10, eq. (25)",
    hypotheses=A10_HYPS,
    statement=[Step("statement", D_sgm, "<=", 2 * p**2 * C**2 * alpha / sigma_g**2, CIT,
                    eq="25", because="Mironov, Talwar, Zhang 2019, Theorem 11 (as printed: "
                                     "C3 without the logarithm)")],
    bounds=[Bound("statement", 2 * p**2 * C**2 * alpha / sigma_g**2,
                  SampledGaussian(q=p, sigma=sigma_g / C), order=alpha, hypotheses=A10_HYPS,
                  note="ℓ2-sensitivity C, noise std σ: noise multiplier σ/C")],
    note="The dimension of σ inside log σ and σ²C3 is that of a gradient: the printed "
         "conditions only make sense for C = 1 (then σ is the noise multiplier).")

RESULTS = [EQ_5, EQ_6, LEM_A_1, THM_A_2, THM_A_3, EQ_8, EQ_9, DEF_A_4, LEM_A_5, LEM_A_6,
           LEM_A_7, LEM_A_8, COR_A_9, LEM_A_10]

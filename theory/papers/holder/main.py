"""holder, Sec. 2.2 (Main results): Theorem 7, Remark 1, Algorithm 1, Theorems 8–10,
Remark 2, Algorithm 2, Theorems 11–12, Remark 3, Lemma 13, Remarks 4–5 — each with its
proof from Sec. 3 (Theorem 7: Sec. 3.1; Theorem 8: Sec. 3.2; Theorem 11: Sec. 3.3; Lemma 13:
Sec. 3.3, eqs. (39)–(46)).

Hypotheses common to the SGD results: α ∈ [0, 1], η_t = η < min{1, 1/L}, and "without loss of
generality η > 1/T" (printed before Theorem 7).  ``η < 1`` and ``η < 1/L`` compare a step size
(Θ²/F) with a pure number and with 1/L (Θ^(1+α)/F): the dimension check reports both — the
paper's step-size conditions are not invariant under rescaling the loss or the parameter.
"""
import sympy as sp

from theory.classes import BoundedDomain, Convex, Holder, NonNegative
from theory.mechanisms import Composition, SampledGaussian
from theory.model import Bound, Case, CaseSplit, Chain, Result, Step, StepKind, asm
from theory.papers.holder.common import (B39, BETA1, BETA3, C39, C_A2, C_A2_SQ, COND_32,
                                         COND_33, DISC39, DISC44, DSGD, DSGD_B, EPS_13,
                                         EPS_DISC44, EPS_SECOND, F39, G44, GRAD_B, LAM_13,
                                         LAM_ALG2, LOG_D, N3, S_13, SIGMA_G_SQ, c_gamma)
from theory.papers.holder.symbols import (C_a, D_lam, Delta, Delta_g, L, M, P_B, P_E, P_EBc,
                                          P_Ep, P_EpB, R, a_B, a_Bp, a_el, alpha, b_el, beta,
                                          c_a2, c_at, c_gT, diff2, diff2_next, eps_dp, eta,
                                          gamma, gdiff, gnorm, growth, gt_, kap, lam, p, p_s,
                                          rho, sigma, sigma_g, sup_delta, wn, wnorm2, X_cnt)
from theory.quantities import T, delta, epsilon, n, t

ALG, SCA, PRO, CIT = (StepKind.ALGEBRA, StepKind.SCALAR, StepKind.PROBABILISTIC,
                      StepKind.CITED)
K = "holder"

HOLDER = asm(Holder(alpha, L), "α-Hölder smooth with parameter L")
CONVEX = asm(Convex(), "l convex in w (Sec. 2.1)")
NONNEG = asm(NonNegative(), "l nonnegative")
ALPHA_RANGE = [asm(sp.Ge(alpha, 0), "α ∈ [0, 1]"), asm(sp.Le(alpha, 1), "α ∈ [0, 1]")]
STEP = [asm(sp.Lt(eta, 1), "η < min{1, 1/L}"), asm(sp.Lt(eta, 1 / L), "η < min{1, 1/L}"),
        asm(sp.Gt(eta, 1 / T), "w.l.o.g. η > 1/T (before Theorem 7)")]
GAMMA = [asm(sp.Gt(gamma, 0), "γ ∈ (0, 1)"), asm(sp.Lt(gamma, 1), "γ ∈ (0, 1)")]
C_GT = asm(sp.Eq(c_gT, c_gamma(gamma)), "c_{γ,T} (Theorem 7)")
C_A2_DEF = asm(sp.Eq(c_a2, C_A2), "c_{α,2} (Sec. 2.2.1)")

# ======================================================================================
# Theorem 7 and its proof (Sec. 3.1)
THEOREM_7 = Result(
    f"{K}:thm-7", "High-probability UAS of SGD for α-Hölder smooth losses",
    "Sec. 2.2.1, Theorem 7 (proof: Sec. 3.1, eqs. (9)–(11))",
    hypotheses=[CONVEX, HOLDER, *ALPHA_RANGE, *STEP, *GAMMA, C_GT, C_A2_DEF],
    statement=[
        Step("part-a", sup_delta, "<=", DSGD, PRO,
             given=[NONNEG, asm("W = R^d", "Theorem 7(a)")],
             because="P_A(sup_{S≃S'} δ_A(S, S') ≥ Δ_SGD(γ)) ≤ γ: stand-in for 'with probability "
                     "≥ 1 − γ'"),
        Step("part-b", sup_delta, "<=", DSGD_B, PRO,
             given=[asm(BoundedDomain(R, measure="radius"), "W ⊆ B(0, R)")],
             because="P_A(sup δ_A ≥ Δ̃_SGD(γ)) ≤ γ"),
    ],
    proof=[
        Step("c-a2-squared", c_a2 ** 2, "=", C_A2_SQ, ALG,
             because="c_{α,2}² = (1−α)/(1+α)(2^{−α}L)^{2/(1−α)} as restated in the proof",
             given=[asm(sp.Lt(alpha, 1), "the exponent 1/(1 − α) needs α < 1")]),
        Step("case-1", diff2_next, "<=", diff2 + c_a2 ** 2 * eta ** (2 / (1 - alpha)), CIT,
             given=[asm("i_t != i")], because="Lemma 21 (approximate non-expansiveness)"),
        Chain("case-2", [
            Step("triangle", diff2_next, "<=", (sp.sqrt(diff2) + eta * gdiff) ** 2, CIT,
                 given=[asm("i_t = i")], because="triangle inequality for w_t − w'_t − η(∂l − ∂l')"),
            Step("elementary", (sp.sqrt(diff2) + eta * gdiff) ** 2, "<=",
                 (1 + p) * diff2 + (1 + 1 / p) * eta ** 2 * gdiff ** 2, SCA,
                 because="(a + b)² ≤ (1 + p)a² + (1 + 1/p)b²"),
        ]),
        Step("elementary-inequality", (a_el + b_el) ** 2, "<=",
             (1 + p) * a_el ** 2 + (1 + 1 / p) * b_el ** 2, SCA,
             because="the elementary inequality as printed, p > 0"),
        Chain("eq-9", [
            Step("holder-at-0", gnorm, "<=", M + L * wnorm2 ** (alpha / 2), CIT,
                 because="||∂l(w, z)|| ≤ ||∂l(0, z)|| + L||w||^α (Hölder smoothness, M = sup ||∂l(0, z)||)"),
            Step("lemma-20", M + L * wnorm2 ** (alpha / 2), "<=",
                 M + L * (C_a * (t - 1) * eta) ** (alpha / 2), SCA, eq="9",
                 given=[asm(sp.Le(wnorm2, C_a * (t - 1) * eta), "Lemma 20 (η_j = η, j < t)"),
                        asm(sp.Ge(t, 1))]),
        ]),
        Step("combined", (1 + p) * diff2 + (1 + 1 / p) * eta ** 2 * gdiff ** 2, "<=",
             (1 + p) * diff2 + c_a2 ** 2 * eta ** (2 / (1 - alpha))
             + 4 * (1 + 1 / p) * c_at ** 2 * eta ** 2, ALG,
             given=[asm(sp.Le(gdiff, 2 * c_at), "(9) for both gradients"),
                    asm(sp.Lt(alpha, 1), "the exponent 1/(1 − α) needs α < 1")],
             because="the case i_t = i of the combined recursion above (10)"),
        Step("chernoff-a-probability", sp.exp(-(t / n) * gt_ ** 2 / 3), "<=", gamma / n, ALG,
             given=[asm(sp.Eq(gt_, sp.sqrt(3 * sp.log(1 / gamma)) / sp.sqrt(t / n)),
                        "the printed γ̃ of the first Chernoff display"),
                    asm(sp.Ge(gamma, sp.exp(-t / (3 * n))), "exp(−t/3n) ≤ γ ≤ 1"),
                    asm(sp.Ge(t, 1))],
             because="Lemma 14(a) with μ = t/n and the printed deviation "
                     "√(3 log(1/γ))/√(t/n) fails with probability exp(−μγ̃²/3); the display "
                     "claims probability at least 1 − γ/n"),
        Step("chernoff-merge", sp.sqrt(3 * sp.log(n / gamma)) / sp.sqrt(t / n), "<=",
             c_gamma(gamma, t), ALG, given=[asm(sp.Ge(t, 1))],
             because="both Chernoff displays (with log(n/γ)) are ≤ (t/n)(1 + c_{γ,t})"),
        Step("p-choice", (1 + 1 / kap) ** kap, "<=", sp.E, SCA,
             because="p = 1/((t/n)(1 + c_{γ,t})) gives (1 + p)^{(t/n)(1 + c_{γ,t})} ≤ e"),
        Step("eq-11", growth * (c_a2 ** 2 * t * eta ** (2 / (1 - alpha))
                                 + 4 * c_at ** 2 * eta ** 2 * (1 + 1 / p) * X_cnt), "<=",
             sp.E * (c_a2 ** 2 * t * eta ** (2 / (1 - alpha))
                     + 4 * c_at ** 2 * eta ** 2 * (1 + kap) * kap), SCA, eq="11",
             given=[asm(sp.Le(growth, sp.E), "(1 + p)^{Σ I} ≤ e"),
                    asm(sp.Le(X_cnt, kap), "Chernoff: Σ_j I[i_j = i] ≤ (t/n)(1 + c_{γ,t})"),
                    asm(sp.Eq(p, 1 / kap), "p = 1/((t/n)(1 + c_{γ,t}))"),
                    asm(sp.Lt(alpha, 1), "the exponent 1/(1 − α) needs α < 1")],
             because="(10) with the Chernoff bound and the choice of p"),
        Step("c-at-monotone", c_at ** 2, "<=", (M + L * (C_a * t * eta) ** (alpha / 2)) ** 2, SCA,
             given=[asm(sp.Eq(c_at, M + L * (C_a * (t - 1) * eta) ** (alpha / 2)), "(9)"),
                    asm(sp.Ge(t, 1))],
             because="c_{α,t}² ≤ (M + L(C_α tη)^{α/2})² due to Lemma 20"),
        Step("union-and-average", sup_delta, "<=", DSGD, PRO,
             given=[NONNEG, asm("W = R^d", "Theorem 7(a)")],
             because="union bound over i = 1..n, then convexity of the norm over t = 1..T; the "
                     "printed argument applies the per-t event for every t at once (no union over "
                     "t): it is carried by the monotonicity of Σ_{j≤t} I[i_j = i] in t"),
    ],
    note="Part (b) replaces c_{α,t} by M + LR^α (no Lemma 20).",
)

REMARK_1 = Result(
    f"{K}:rem-1", "Orders of the UAS bounds", "Sec. 2.2.1, Remark 1",
    hypotheses=[asm(sp.Ge(T, n), "Remark 1: T ≥ n"), *GAMMA],
    statement=[
        Step("c-gamma-order", c_gamma(gamma), "<=",
             sp.Max(sp.sqrt(3 * sp.log(n / gamma)), 3 * sp.log(n / gamma)), ALG,
             because="c_{γ,T} = O(log(n/γ)) under T ≥ n (the max of √(3 log(n/γ)) and "
                     "3 log(n/γ))"),
    ],
    note="Δ_SGD(γ) = O(√T η^{1/(1−α)} + (Tη)^{1+α/2} log(n/γ)/n), Δ̃_SGD(γ) = O(√T η^{1/(1−α)} "
         "+ Tη log(n/γ)/n); for α = 1 the first term 'tends to 0'.  O-forms with unstated "
         "constants: the c_{γ,T} row is the checkable part.",
)

ALGORITHM_1 = Result(
    f"{K}:alg-1", "DP-SGD-Output (output perturbation)", "Sec. 2.2.2, Algorithm 1",
    note="w_1 = 0; for t = 1..T: i_t ~ Unif([n]), w_{t+1} = Proj_W(w_t − η∂l(w_t; z_{i_t})); "
         "Δ = Δ_SGD(δ/2) if W = R^d, Δ̃_SGD(δ/2) if W ⊆ B(0, R); σ² = 2 log(2.5/δ)Δ²/ε²; "
         "return w_priv = (1/T)Σ_{t=1}^T w_t + b, b ~ N(0, σ² I_d).")

SIGMA_ALG1 = sp.sqrt(2 * sp.log(sp.Rational(5, 2) / delta)) * Delta / epsilon

THEOREM_8 = Result(
    f"{K}:thm-8", "Privacy of DP-SGD-Output", "Sec. 2.2.2, Theorem 8 (proof: Sec. 3.2)",
    hypotheses=[CONVEX, NONNEG, HOLDER, *ALPHA_RANGE, asm(sp.Lt(delta, 1), "δ ∈ (0, 1)"),
                asm(sp.Eq(sigma, SIGMA_ALG1), "Algorithm 1, line 12")],
    statement=[Step("statement", eps_dp, "<=", epsilon, PRO,
                    because="Algorithm 1 satisfies (ε, δ)-DP")],
    proof=[
        Step("event", P_B, ">=", 1 - delta / 2, CIT,
             because="Theorem 7(a)/(b) with γ = δ/2: P(I ∈ B) ≥ 1 − δ/2"),
        Step("lemma-2-calibration", sigma, ">=",
             sp.sqrt(2 * sp.log(sp.Rational(5, 4) / (delta / 2))) * Delta / epsilon, ALG,
             because="Lemma 2 with δ' = δ/2 applies on I ∈ B: σ ≥ √(2 log(1.25/δ'))Δ/ε"),
        Step("lemma-2-conditional", a_B, "<=", sp.exp(epsilon) * a_Bp + delta / 2, CIT,
             because="Lemma 2 with δ' = δ/2 (see holder:lem-2, whose printed form is checked "
                     "against the exact Gaussian profile)"),
        Chain("display", [
            Step("line-1", P_E, "=", a_B * P_B + P_EBc, CIT,
                 because="P(w ∈ E) = P(w ∈ E ∩ I ∈ B) + P(w ∈ E ∩ I ∈ B^c)"),
            Step("line-2", a_B * P_B + P_EBc, "<=", a_B * P_B + delta / 2, ALG,
                 given=[asm(sp.Le(P_EBc, 1 - P_B)), asm(sp.Ge(P_B, 1 - delta / 2))]),
            Step("line-3", a_B * P_B + delta / 2, "<=",
                 (sp.exp(epsilon) * a_Bp + delta / 2) * P_B + delta / 2, ALG,
                 given=[asm(sp.Le(a_B, sp.exp(epsilon) * a_Bp + delta / 2), "definition of DP")]),
            Step("line-4", (sp.exp(epsilon) * a_Bp + delta / 2) * P_B + delta / 2, "<=",
                 sp.exp(epsilon) * a_Bp * P_B + delta, ALG, given=[asm(sp.Le(P_B, 1))]),
            Step("line-5", sp.exp(epsilon) * a_Bp * P_B + delta, "<=", sp.exp(epsilon) * P_Ep + delta,
                 ALG, given=[asm(sp.Eq(P_EpB, a_Bp * P_B)), asm(sp.Le(P_EpB, P_Ep))]),
        ]),
    ],
    note="The (ε, δ) conclusion rests on Lemma 2 with δ' = δ/2 for the conditional mechanism; "
         "Lemma 2 as printed has no ε < 1, and Remark 4 uses ε ≥ 1.",
)

RESULTS = [THEOREM_7, REMARK_1, ALGORITHM_1, THEOREM_8]

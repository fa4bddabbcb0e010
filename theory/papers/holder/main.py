"""holder, Sec. 2.2 (Main results): Theorem 7, Remark 1, Algorithm 1, Theorems 8–10,
Remark 2, Algorithm 2, Theorems 11–12, Remark 3, Lemma 13, Remarks 4–5 — each with its
proof from Sec. 3 (Theorem 7: Sec. 3.1; Theorem 8: Sec. 3.2; Theorem 11: Sec. 3.3; Lemma 13:
Sec. 3.3, eqs. (39)–(46)).

Hypotheses common to the SGD results: α ∈ [0, 1], η_t = η < min{1, 1/L}, and "without loss of
generality η > 1/T" (printed before Theorem 7).  ``η < 1`` and ``η < 1/L`` compare a step size
(Θ²/F) with a pure number and with 1/L (Θ^(1+α)/F): the dimension check reports both — the
paper's step-size conditions are not invariant under rescaling the loss or the parameter.
"""
from dataclasses import replace

import sympy as sp

from theory.classes import BoundedDomain, Convex, Holder, NonNegative, OriginBounds
from theory.mechanisms import Composition, SampledGaussian
from theory.model import Bound, Case, CaseSplit, Chain, Result, Step, StepKind, asm
from theory.papers.holder.common import (B39, BETA1, BETA3, C39, GRAD_B, LOG_D, C_A1, C_A2, C_A2_SQ,
                                         C_ALPHA_FULL, COND_32,
                                         COND_33, DISC39, DISC44, DSGD, DSGD_B, EPS_13,
                                         EPS_DISC44, EPS_SECOND, F39, G44, GRAD_B, LAM_13,
                                         LAM_ALG2, LOG_D, N3, S_13, SIGMA_G_SQ, c_gamma)
from theory.papers.holder.symbols import (C_a, D_lam, Delta, Delta_g, L, M, M0, P_B, P_E, P_EBc,
                                          P_Ep, P_EpB, R, a_B, a_Bp, a_el, alpha, b_el, beta,
                                          c_a1, c_a2, c_at, c_gT, diff2, diff2_next, eps_dp, eta,
                                          gamma, gdiff, gnorm, growth, gt_, kap, lam, p, p_s,
                                          rho, sigma, sigma_g, sup_delta, wn, wnorm2, X_cnt)
from theory.papers.holder.symbols import (R_bar, R_priv, R_star, RS_bar, RS_priv, RS_star,
                                          excess, wstar)
from theory.quantities import T, c_O, d, delta, epsilon, n, t
from theory.papers.holder import rates as hr

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
#: the constants of Sec. 2.2.1 the bounds are written with: M, M0 the suprema at the origin,
#: c_{α,1} of (2) and C_α (the stability oracle computes them on its instances)
CONSTANTS = [asm(OriginBounds(M, M0), "M = sup_z ||∂l(0, z)||, M_0 = sup_z l(0, z)"),
             asm(sp.Eq(c_a1, C_A1), "c_{α,1} of (2)"),
             asm(sp.Eq(C_a, C_ALPHA_FULL), "C_α (Sec. 2.2.1)")]
UAS_ARGS = {"eta": "eta", "T": "T", "n": "n", "confidence": "gamma", "radius": ""}

# ======================================================================================
# Theorem 7 and its proof (Sec. 3.1)
THEOREM_7 = Result(
    f"{K}:thm-7", "High-probability UAS of SGD for α-Hölder smooth losses",
    "Sec. 2.2.1, Theorem 7 (proof: Sec. 3.1, eqs. (9)–(11))",
    hypotheses=[CONVEX, HOLDER, *ALPHA_RANGE, *STEP, *GAMMA, C_GT, C_A2_DEF],
    statement=[
        Step("part-a", sup_delta, "<=", DSGD, PRO,
             given=[NONNEG, asm("W = R^d", "Theorem 7(a)"), *CONSTANTS],
             oracle="sgd-argument-stability", oracle_args=UAS_ARGS,
             because="P_A(sup_{S≃S'} δ_A(S, S') ≥ Δ_SGD(γ)) ≤ γ: stand-in for 'with probability "
                     "≥ 1 − γ'"),
        Step("part-b", sup_delta, "<=", DSGD_B, PRO,
             given=[asm(BoundedDomain(R, measure="radius"), "W ⊆ B(0, R)"), *CONSTANTS],
             oracle="sgd-argument-stability", oracle_args=dict(UAS_ARGS, radius="R"),
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
                     "claims probability at least 1 − γ/n", origin="printed"),
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
             given=[NONNEG, asm("W = R^d", "Theorem 7(a)"), *CONSTANTS],
             oracle="sgd-argument-stability", oracle_args=UAS_ARGS,
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
    statement=[Step("statement", P_E, "<=", sp.exp(epsilon) * P_Ep + delta, PRO,
                    because="Algorithm 1 satisfies (ε, δ)-DP: P(w_priv ∈ E) ≤ e^ε P(w'_priv ∈ E) "
                            "+ δ for every event E and neighbouring S, S'")],
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
        ], concludes="statement"),
    ],
    bounds=[Bound("statement", epsilon, hr.alg1_mechanism(bounded=False), delta=delta,
                  profile=True, problem_class=hr.HOLDER_CLASSES[:4],
                  hypotheses=[*ALPHA_RANGE, asm(sp.Lt(delta, 1), "δ ∈ (0, 1)"), *STEP],
                  note="Algorithm 1 on W = R^d with σ of its line 12 (Δ = Δ_SGD(δ/2), every "
                       "constant written out), on 1-D members of the class: exact output "
                       "mixtures over every index sequence"),
            Bound("ball", epsilon, hr.alg1_mechanism(bounded=True), delta=delta, profile=True,
                  problem_class=(*hr.HOLDER_CLASSES[:4], BoundedDomain(R, measure="radius")),
                  hypotheses=[*ALPHA_RANGE, asm(sp.Lt(delta, 1), "δ ∈ (0, 1)"), *STEP],
                  note="the same on W = [−R, R] with Δ = Δ̃_SGD(δ/2)")],
    note="The (ε, δ) conclusion rests on Lemma 2 with δ' = δ/2 for the conditional mechanism; "
         "Lemma 2 as printed has no ε < 1, and Remark 4 uses ε ≥ 1.  The typed statements "
         "compare Algorithm 1 itself with its exact output laws on members of the class "
         "(η < min{1, 1/L} and η > 1/T of Theorem 7, on which Δ_SGD rests, in force).",
)


# ======================================================================================
# Theorems 9-10 (utility of Algorithm 1)
GAMMA_OPEN = [asm(sp.Gt(gamma, 0), "γ ∈ (0, 1)"), asm(sp.Lt(gamma, 1), "γ ∈ (0, 1)"),
              asm(sp.Lt(delta, 1), "δ ∈ (0, 1)"), asm(sp.Ge(n, 2), "n ≥ 2")]
LG = sp.log(1 / gamma)
F9 = 1 / (T * eta) + T ** ((1 + alpha) / 2) * sp.sqrt(LG / n) * eta ** ((1 + alpha) / 2)
ETA_9 = n ** (1 / (3 + alpha)) / (T * LG ** (1 / (3 + alpha)))
ETA_9_STAR = (2 / (1 + alpha)) ** (2 / (3 + alpha)) * ETA_9
X10 = sp.log(n / delta) * sp.log(n) * LG / n
Y10 = sp.sqrt(d * LOG_D) * sp.log(n / delta) * LG ** sp.Rational(1, 4) / (n * epsilon)
F10 = T * (X10 + Y10) * eta + 1 / (T * eta)
ETA_10_STAR = 1 / (T * sp.sqrt(X10 + Y10))
EXP_T9 = (-alpha ** 2 - 3 * alpha + 6) / ((1 + alpha) * (3 + alpha))
ALPHA_T9 = (sp.sqrt(73) - 7) / 4
DECOMP_3 = (R_priv - R_bar) + (R_bar - RS_bar) + (RS_bar - RS_star) + (RS_star - R_star)
UTIL_H = [CONVEX, NONNEG, HOLDER, *ALPHA_RANGE]
GAMMA_RANGE = [asm(sp.Gt(gamma, 4 * sp.Max(sp.exp(-d / 8), delta)), "γ ∈ (4 max{e^{−d/8}, δ}, 1)"),
               asm(sp.Lt(gamma, 1), "γ < 1")]
NOT_TESTED_RATE = ("The typed statement (rates) simulates the algorithm with the printed T and η "
                   "on members of the class and follows measured/claimed along n (and every "
                   "other rate variable) with a certified floor of the quantile")

THEOREM_9 = Result(
    f"{K}:thm-9", "Utility of DP-SGD-Output, unbounded domain",
    "Sec. 2.2.2, Theorem 9, eq. (3) (proof: Sec. 3.2)",
    hypotheses=[*UTIL_H, asm("W = R^d", "Theorem 9")],
    statement=[Step("statement", excess, "<=", wstar ** 2 * c_O * (
        sp.sqrt(d * LOG_D) * sp.log(n / delta)
        / (sp.log(1 / gamma) ** ((1 + alpha) / (4 * (3 + alpha))) * n ** (2 / (3 + alpha)) * epsilon)
        + sp.log(n) * sp.log(1 / gamma) ** (2 / (3 + alpha)) * sp.log(n / delta)
        / n ** (1 / (3 + alpha))), PRO,
        given=[*GAMMA_RANGE,
               asm(sp.Eq(eta, n ** (1 / (3 + alpha)) / (T * sp.log(1 / gamma) ** (1 / (3 + alpha)))),
                   "Theorem 9: η = n^{1/(3+α)}/(T (log(1/γ))^{1/(3+α)})")],
        because="with probability ≥ 1 − γ; O-form ('= ||w*||² · O(…)'). " + NOT_TESTED_RATE)],
    proof=[
        Step("eq-3", R_priv - R_star, "=", DECOMP_3, ALG, eq="3",
             because="the error decomposition (3) = (12)"),
        Step("t-threshold", EXP_T9.subs(alpha, ALPHA_T9), "=", 1, ALG,
             because="T ≍ n^{(−α²−3α+6)/((1+α)(3+α))} below α = (√73 − 7)/4, T ≍ n above: the "
                     "exponent crosses 1 exactly at the printed threshold"),
        Step("t-exponent-above-1", EXP_T9, ">=", 1, SCA,
             given=[asm(sp.Le(alpha, ALPHA_T9), "0 ≤ α < (√73 − 7)/4")],
             because="the first choice of T is the larger one on its range (T ≍ n^{…} + n)"),
        Step("t-first-condition",
             ((2 - alpha) * (1 + alpha) / (2 * (1 - alpha) * (3 + alpha)) + 2 / (3 + alpha))
             * 2 * (1 - alpha) / (1 + alpha), "=", EXP_T9, ALG, given=[asm(sp.Lt(alpha, 1))],
             because="the smallest T with n^{(2−α)(1+α)/(2(1−α)(3+α))}/T^{(1+α)/(2(1−α))} = "
                     "O(n^{−2/(3+α)}) is n^{(−α²−3α+6)/((1+α)(3+α))}"),
        Step("t-second-condition",
             ((1 + alpha) / ((1 - alpha) * (3 + alpha)) + (4 + alpha) * (1 + alpha) / (2 * (3 + alpha)))
             * 2 * (1 - alpha) / (1 + alpha) ** 2, "=", EXP_T9, ALG, given=[asm(sp.Lt(alpha, 1))],
             because="n^{(1+α)/((1−α)(3+α))}/T^{(1+α)²/(2(1−α))} = O(n^{−(4+α)(1+α)/(2(3+α))}) "
                     "gives the same exponent"),
        Step("t-third-condition",
             ((2 + alpha - alpha ** 2) / (2 * (3 + alpha) * (1 - alpha)) + 1 / (3 + alpha))
             * 2 * (1 - alpha) / (1 + alpha), "<=", EXP_T9, ALG,
             given=[asm(sp.Lt(alpha, 1))],
             because="the third condition needs a smaller power of n"),
        Step("eta-printed-stationary", sp.diff(F9, eta).subs(eta, ETA_9), "=", 0, ALG,
             given=[*GAMMA_OPEN, asm(sp.Lt(alpha, 1))],
             because="'taking the derivative of 1/(Tη) + T^{(1+α)/2}√(log(1/γ)/n) η^{(1+α)/2} w.r.t. η "
                     "and setting it to 0, we have η = n^{1/(3+α)}/(T(log(1/γ))^{1/(3+α)})'"),
        Step("eta-stationary", sp.diff(F9, eta).subs(eta, ETA_9_STAR), "=", 0, ALG,
             given=[*GAMMA_OPEN, asm(sp.Lt(alpha, 1))],
             because="the stationary point is (2/(1+α))^{2/(3+α)} times the printed η: the same up "
                     "to a factor in [1, 2^{2/3}], harmless for the O-rate"),
    ],
    rates=[hr.RATE_THM_9],
    note="The statement's dimensions: the left side is a loss, ||w*||² a squared length; the "
         "O(·) hides a constant with dimension F/Θ² (reported by the units row).",
)

ETA_T10 = 1 / (T * sp.Max(sp.sqrt(sp.log(n / delta) * sp.log(n) * sp.log(1 / gamma)) / sp.sqrt(n),
                         (d * LOG_D) ** sp.Rational(1, 4) * sp.sqrt(sp.log(n / delta))
                         * sp.log(1 / gamma) ** sp.Rational(1, 8) / sp.sqrt(n * epsilon)))
EXP_T10 = (2 - alpha) / (1 + alpha)

THEOREM_10 = Result(
    f"{K}:thm-10", "Utility of DP-SGD-Output, bounded domain",
    "Sec. 2.2.2, Theorem 10 (proof: Sec. 3.2)",
    hypotheses=[*UTIL_H, asm(BoundedDomain(R, measure="radius"), "W ⊆ B(0, R)")],
    statement=[Step("statement", excess, "<=", wstar ** 2 * c_O * (
        (d * LOG_D) ** sp.Rational(1, 4) * sp.log(1 / gamma) ** sp.Rational(1, 8)
        * sp.sqrt(sp.log(n / delta)) / sp.sqrt(n * epsilon)
        + sp.sqrt(sp.log(n) * sp.log(1 / gamma) * sp.log(n / delta)) / sp.sqrt(n)), PRO,
        given=[*GAMMA_RANGE, asm(sp.Eq(eta, ETA_T10), "Theorem 10: the choice of η")],
        because="with probability ≥ 1 − γ; O-form. " + NOT_TESTED_RATE)],
    proof=[
        Step("t-threshold", EXP_T10.subs(alpha, sp.Rational(1, 2)), "=", 1, ALG,
             because="T ≍ n^{(2−α)/(1+α)} if α < 1/2, T ≍ n else: the exponent is 1 at α = 1/2"),
        Step("t-exponent-above-1", EXP_T10, ">=", 1, ALG,
             given=[asm(sp.Le(alpha, sp.Rational(1, 2)), "α < 1/2")]),
        Step("t-condition", (1 / (2 * (1 - alpha)) + sp.Rational(1, 2)) * 2 * (1 - alpha) / (1 + alpha),
             "=", EXP_T10, ALG, given=[asm(sp.Lt(alpha, 1))],
             because="the smallest T with n^{1/(2(1−α))}/T^{(1+α)/(2(1−α))} = O(1/√n) is "
                     "n^{(2−α)/(1+α)}"),
        Step("eta-stationary", sp.diff(F10, eta).subs(eta, ETA_10_STAR), "=", 0, ALG,
             given=GAMMA_OPEN,
             because="the derivative of (T log(n/δ)log(n)log(1/γ)/n + T√(d log(1/δ))log(n/δ)"
                     "(log(1/γ))^{1/4}/(nε))η + 1/(Tη) vanishes at 1/(T√(X + Y))"),
        Step("eta-printed-lower", ETA_T10, ">=", ETA_10_STAR, SCA, given=GAMMA_OPEN,
             because="the printed η = 1/(T max{√X, √Y}) is at least the stationary point …"),
        Step("eta-printed-upper", ETA_T10, "<=", sp.sqrt(2) * ETA_10_STAR, SCA, given=GAMMA_OPEN,
             because="… and at most √2 times it (same O-rate)"),
        Step("quarter", sp.Rational(1, 4), ">=", (1 - 2 * alpha) / (2 * (1 - alpha)), ALG,
             given=[asm(sp.Lt(alpha, 1), "the exponent needs α < 1")],
             because="'Since 1/4 ≥ (1 − 2α)/(2(1 − α)), we have …' (used for every α of the theorem)", origin="printed"),
        Step("gradient-bound", M + L * wn ** alpha, "<=", GRAD_B, ALG,
             given=[asm(sp.Le(wn ** alpha, R ** alpha),
                        "||w|| ≤ R (w ∈ W ⊆ B(0, R)) and x ↦ x^α nondecreasing (α ≥ 0)")],
             because="||∂l(w; z)|| ≤ M + LR^α (printed after Theorem 10)"),
    ],
    rates=[hr.RATE_THM_10],
)

REMARK_2 = Result(
    f"{K}:rem-2", "Comparison with Wu et al. (2017)", "Sec. 2.2.2, Remark 2",
    note="The rate O((nε)^{-1/2}(d log(1/δ))^{1/4} log^{1/2}(n/δ)) with T = O(n^{(2−α)/(1+α)} + n); "
         "a comparison, nothing further to check beyond Theorem 10.")

# ======================================================================================
# Algorithm 2, Theorem 11 and its proof (Sec. 3.3)
ALGORITHM_2 = Result(
    f"{K}:alg-2", "DP-SGD-Gradient (gradient perturbation)", "Sec. 2.2.3, Algorithm 2",
    note="W ⊆ B(0, R); w_1 = 0; σ² = 14(M + LR^α)² T/(βn²ε) (log(1/δ)/((1−β)ε) + 1); for t = 1..T: "
         "i_t ~ Unif([n]), w_{t+1} = Proj_W(w_t − η(∂l(w_t; z_{i_t}) + b_t)), b_t ~ N(0, σ² I_d); "
         "return w_priv = (1/T) Σ_{t=1}^T w_t.")

SENS = 2 * GRAD_B
COND32 = asm(sp.Ge(sigma_g ** 2 / (4 * GRAD_B ** 2), sp.Rational(67, 100)), "(32)")
COND33 = asm(sp.Le(lam - 1, sigma_g ** 2 / (6 * GRAD_B ** 2)
                   * sp.log(n / (lam * (1 + sigma_g ** 2 / (4 * GRAD_B ** 2))))), "(33)")
T11_H = [CONVEX, NONNEG, HOLDER, *ALPHA_RANGE,
         asm(BoundedDomain(R, measure="radius"), "W ⊆ B(0, R) (Algorithm 2)"),
         asm(sp.Gt(beta, 0), "β ∈ (0, 1)"), asm(sp.Lt(beta, 1), "β ∈ (0, 1)"),
         asm(sp.Lt(delta, 1), "δ ∈ (0, 1)"),
         asm(sp.Eq(lam, LAM_ALG2), "λ = log(1/δ)/((1−β)ε) + 1 (Theorem 11)"),
         asm(sp.Eq(sigma_g, sp.sqrt(SIGMA_G_SQ)), "Algorithm 2, line 3"),
         COND32, COND33]
RDP3 = sp.Rational(7, 2) * p_s ** 2 * lam * Delta_g ** 2 / sigma_g ** 2

THEOREM_11 = Result(
    f"{K}:thm-11", "Privacy of DP-SGD-Gradient", "Sec. 2.2.3, Theorem 11 (proof: Sec. 3.3)",
    hypotheses=T11_H,
    statement=[Step("statement", eps_dp, "<=", epsilon, PRO,
                    because="Algorithm 2 satisfies (ε, δ)-DP if there is β ∈ (0, 1) with (32) and "
                            "(33) at λ = log(1/δ)/((1−β)ε) + 1 (the existence is Lemma 13's)")],
    proof=[
        Chain("sensitivity", [
            Step("triangle", gdiff, "<=", 2 * (M + L * wn ** alpha), CIT,
                 because="||∂l(w_t, z) − ∂l(w_t, z')|| ≤ 2(M + L||w_t||^α) (Hölder smoothness)"),
            Step("ball", 2 * (M + L * wn ** alpha), "<=", SENS, ALG,
                 given=[asm(sp.Le(wn ** alpha, R ** alpha),
                            "||w_t|| ≤ R (w_t ∈ W ⊆ B(0, R)) and x ↦ x^α nondecreasing (α ≥ 0)")]),
        ]),
        Chain("proof", [
            Step("lemma-5", eps_dp, "<=", rho + LOG_D / (lam - 1), CIT,
                 given=[asm(sp.Le(D_lam, rho), "Algorithm 2 is (λ, ρ)-RDP")],
                 because="Lemma 5 (Mironov 2017, Prop. 3)"),
            Step("lemmas-3-4-6", rho + LOG_D / (lam - 1), "<=", T * RDP3 + LOG_D / (lam - 1), CIT,
                 given=[asm(sp.Eq(p_s, 1 / n), "p = 1/n"), asm(sp.Eq(Delta_g, SENS), "Δ = 2(M + LR^α)")],
                 because="Lemma 3 (p = 1/n, Δ = 2(M + LR^α), under (32)-(33)) per step, Lemma 6 "
                         "(post-processing), Lemma 4 (composition over T steps)"),
            Step("rdp-per-step", T * RDP3 + LOG_D / (lam - 1), "=",
                 T * lam * beta * epsilon / (T * LAM_ALG2) + LOG_D / (lam - 1), ALG,
                 given=[asm(sp.Eq(p_s, 1 / n), "p = 1/n"), asm(sp.Eq(Delta_g, SENS), "Δ = 2(M + LR^α)")],
                 because="G_t is (λ, λβε/(T(log(1/δ)/((1−β)ε) + 1)))-RDP"),
            Step("lambda-choice", T * lam * beta * epsilon / (T * LAM_ALG2) + LOG_D / (lam - 1), "=",
                 beta * epsilon + LOG_D / (lam - 1), ALG,
                 because="with λ = log(1/δ)/((1−β)ε) + 1: (λ, βε/T)-RDP per step, (λ, βε) after T"),
            Step("lemma-5-value", beta * epsilon + LOG_D / (lam - 1), "=", epsilon, ALG,
                 because="βε + (1 − β)ε = ε"),
        ], concludes="statement"),
    ],
)

THEOREM_11_TRAJ = Result(
    f"{K}:thm-11+trajectory", "The composed noisy gradients of Algorithm 2 (what the proof composes)",
    "Sec. 3.3, proof of Theorem 11: G_t = ∂l(w_t, z_{i_t}) + b_t composed over t = 1..T",
    variant_of=f"{K}:thm-11",
    hypotheses=[*T11_H, asm(sp.Gt(M, 0), "M > 0 (the instance below)"),
                asm(sp.Ge(n, 2), "n ≥ 2")],
    statement=[Step("statement", eps_dp, "<=", epsilon, PRO,
                    because="(G_1, …, G_T) is (ε, δ)-DP: the claim the proof establishes before "
                            "post-processing")],
    bounds=[Bound("statement", epsilon,
                  Composition(SampledGaussian(q=1 / n, sigma=sigma_g / M), T),
                  delta=delta, profile=True,
                  hypotheses=[*(h for h in T11_H if h.is_relational), asm(sp.Gt(M, 0)),
                              asm(sp.Ge(n, 2))],
                  embodies=[h for h in T11_H if h.is_class],
                  note="an instance of the class: linear losses l(w, z) = <g_z, w> + MR on "
                       "B(0, R) (convex, nonnegative, α-Hölder for every L), the canary's "
                       "gradient M·u replaced by 0 and every other gradient 0; one uniformly "
                       "drawn index per step is then exactly the pair (1 − 1/n)N(0, σ²) + "
                       "(1/n)N(M, σ²) vs N(0, σ²) of the Poisson-sampled Gaussian with q = 1/n "
                       "and noise multiplier σ/M, composed T times (non-adaptive, gradients "
                       "constant); a violation here refutes the composition step of the proof")],
    note="Not a repair: the statement the proof of Theorem 11 proves before post-processing, "
         "checked on a member of the class against the exact PLD of the subsampled Gaussian.",
)

X12 = d * LOG_D * sp.sqrt(LG) / (n ** 2 * epsilon ** 2)
Y12 = sp.log(n) * sp.log(n / gamma) * LG / n
F12 = 1 / (T * eta) + eta * T * (X12 + Y12)
ETA_12 = sp.Max(sp.sqrt(sp.log(n) * sp.log(n / gamma) * LG) / sp.sqrt(n),
                sp.sqrt(d * LOG_D) * LG ** sp.Rational(1, 4) / (n * epsilon)) / T
ETA_12_STAR = 1 / (T * sp.sqrt(X12 + Y12))

THEOREM_12 = Result(
    f"{K}:thm-12", "Utility of DP-SGD-Gradient", "Sec. 2.2.3, Theorem 12, eq. (4) (proof: Sec. 3.3)",
    hypotheses=[*UTIL_H, asm(BoundedDomain(R, measure="radius"), "W ⊆ B(0, R)")],
    statement=[Step("statement", excess, "<=", wstar ** 2 * c_O * (
        sp.sqrt(d * LOG_D * sp.log(1 / gamma)) / (n * epsilon)
        + sp.sqrt(sp.log(n) * sp.log(n / gamma) * sp.log(1 / gamma)) / sp.sqrt(n)), PRO,
        given=[asm(sp.Gt(gamma, 18 * sp.exp(-T * d / 8)), "γ ∈ (18 exp(−Td/8), 1)"),
                asm(sp.Lt(gamma, 1), "γ < 1"),
                asm(sp.Eq(eta, sp.Max(sp.sqrt(sp.log(n) * sp.log(n / gamma) * sp.log(1 / gamma))
                                      / sp.sqrt(n),
                                      sp.sqrt(d * LOG_D) * sp.log(1 / gamma) ** sp.Rational(1, 4)
                                      / (n * epsilon)) / T), "Theorem 12: the choice of η")],
        because="with probability ≥ 1 − γ; O-form. " + NOT_TESTED_RATE)],
    proof=[
        Step("eq-4", R_priv - R_star, "=",
             (R_priv - RS_priv) + (RS_priv - RS_star) + (RS_star - R_star), ALG, eq="4",
             because="the error decomposition (4)"),
        Step("t-threshold", EXP_T10.subs(alpha, sp.Rational(1, 2)), "=", 1, ALG),
        Step("eta-stationary", sp.diff(F12, eta).subs(eta, ETA_12_STAR), "=", 0, ALG,
             given=GAMMA_OPEN,
             because="the derivative of 1/(Tη) + η(Td log(1/δ)√log(1/γ)/(n²ε²) + T log(n)log(n/γ)"
                     "log(1/γ)/n) vanishes at η* = 1/(T√(X + Y))"),
        Step("eta-printed-stationary", sp.diff(F12, eta).subs(eta, ETA_12), "=", 0, ALG,
             given=GAMMA_OPEN,
             because="'… and set it to 0, then we have η = 1/T · max{√(log(n)log(n/γ)log(1/γ))/√n, "
                     "√(d log(1/δ))(log(1/γ))^{1/4}/(nε)}' (as in the statement)"),
        Step("eta-printed-order", ETA_12, "<=", sp.sqrt(2) * ETA_12_STAR, SCA, given=GAMMA_OPEN,
             because="is the printed η at least of the order of the stationary point η*? (the "
                     "printed form is max{…}/T where η* ≍ 1/(T max{…}))"),
        Step("eta-printed-order-lower", ETA_12, ">=", ETA_12_STAR / sp.sqrt(2), SCA,
             given=GAMMA_OPEN,
             because="… and at least η*/√2?  When max{…} < 1 (n large) the printed η is "
                     "max{…}²-times smaller than η*, and the term ||w*||²/(Tη) = ||w*||²/max{…} "
                     "grows with n"),
        Step("eta-admissible", ETA_12, ">", 1 / T, SCA, given=GAMMA_OPEN, origin="derived",
             because="does the printed η meet the standing 'without loss of generality η > 1/T' "
                     "(before Theorem 7)?  Only where max{…} > 1: at fixed ε, δ, d, γ it fails "
                     "for every n past a threshold — the regime of the O-rate, which the typed "
                     "statement, bound by the standing assumptions, cannot enter"),
    ],
    rates=[hr.RATE_THM_12],
    note="The printed η = max{…}/T makes Tη = max{…} → 0 as n grows: SGD started at 0 cannot "
         "reach w* (||w*|| ≥ 1).  The standing 'w.l.o.g. η > 1/T' (before Theorem 7) excludes "
         "exactly that regime (row eta-admissible): the typed statement is checked where the "
         "printed η meets it (max{…} > 1).",
)

THEOREM_12_FIX = Result(
    f"{K}:thm-12+fix", "Utility of DP-SGD-Gradient with η = 1/(T max{…})",
    "Sec. 2.2.3, Theorem 12, the step size of the proof's own trade-off (38)",
    variant_of=f"{K}:thm-12",
    hypotheses=THEOREM_12.hypotheses,
    statement=[replace(THEOREM_12.statement[0], given=(
        asm(sp.Gt(gamma, 18 * sp.exp(-T * d / 8)), "γ ∈ (18 exp(−Td/8), 1)"),
        asm(sp.Lt(gamma, 1), "γ < 1"),
        asm(sp.Eq(eta, 1 / (T * sp.Max(sp.sqrt(sp.log(n) * sp.log(n / gamma) * sp.log(1 / gamma))
                                       / sp.sqrt(n),
                                       sp.sqrt(d * LOG_D) * sp.log(1 / gamma) ** sp.Rational(1, 4)
                                       / (n * epsilon)))), "repaired: η = 1/(T max{…})")),
        because="with probability ≥ 1 − γ; O-form. " + NOT_TESTED_RATE)],
    rates=[hr.RATE_THM_12_FIX],
    note="What changes: η = 1/(T max{…}) for the printed max{…}/T — the order of the stationary "
         "point 1/(T√(X + Y)) of 1/(Tη) + η(X + Y)T that the proof sets out to take (row "
         "holder:thm-12/eta-stationary); Theorem 10 prints its η in this form.",
)

REMARK_3 = Result(
    f"{K}:rem-3", "Comparison with [3, 4, 16]; linear complexity for α ≥ 1/2", "Sec. 2.2.3, Remark 3",
    statement=[Step("linear-complexity", EXP_T10, "<=", 1, ALG,
                    given=[asm(sp.Ge(alpha, sp.Rational(1, 2)), "α ≥ 1/2"), *ALPHA_RANGE],
                    because="gradient complexity O(n^{(2−α)/(1+α)} + n) = O(n) for α ≥ 1/2")],
)

# ======================================================================================
# Lemma 13 and its proof (Sec. 3.3, eqs. (39)-(46))
L13_H = [asm(sp.Ge(n, 18), "Lemma 13: n ≥ 18"), asm(sp.Ge(epsilon, EPS_13), "Lemma 13")]
LAM13 = asm(sp.Eq(lam, LAM_13), "λ = 2 log(n)/((1−β)ε) + 1 (T = n, δ = 1/n²)")
BETA01 = [asm(sp.Gt(beta, 0), "β ∈ (0, 1)"), asm(sp.Lt(beta, 1), "β ∈ (0, 1)")]
LHS_40 = (3 * beta * n * epsilon * (lam - 1) / (7 * lam) + sp.log(lam)
          + sp.log(1 + 7 * lam / (2 * beta * n * epsilon)))
#: (32) ⇔ f(β) ≥ 0 (eq-39, β ∈ (0, 1)) and (33) ⇔ (40) (eq-40): the paper's own equivalent
#: forms, whose interval enclosures stay tight at both ends of (0, 1)
EXISTS_SLACK = sp.Min(F39, sp.log(n) - LHS_40.subs(lam, LAM_13))

LEMMA_13 = Result(
    f"{K}:lem-13", "A sufficient condition for the existence of β (Theorem 11)",
    "Sec. 2.2.3, Lemma 13 (proof: Sec. 3.3, eqs. (39)-(46))",
    hypotheses=L13_H,
    statement=[Step("statement", 0, "<=", EXISTS_SLACK, PRO,
                    oracle="exists", oracle_args={"var": "beta", "lower": "0", "upper": "1"},
                    because="there is β ∈ (0, 1) with (32) and (33) at T = n, δ = 1/n² "
                            "(σ²/(4(M + LR^α)²) = 3.5λ/(βnε), λ = 2 log(n)/((1−β)ε) + 1), written "
                            "as the proof's equivalent forms f(β) ≥ 0 (39) and (40) (rows eq-39, "
                            "eq-40): the worst slack is maximised over β for every admissible "
                            "(n, ε), n an integer")],
    proof=[
        Step("eq-39", COND_32, "=", sp.Rational(67, 100) * F39 / (beta * (1 - beta)), ALG, eq="39",
             given=[LAM13, *BETA01],
             because="(32) with T = n, δ = 1/n² is equivalent to f(β) ≥ 0"),
        Step("discriminant-39", B39 ** 2 - 4 * C39, "=", DISC39, ALG,
             because="f(β) ≥ 0 for every β when (1 + 7/(1.34nε))² < 28(2 log(n) + ε)/(1.34nε²)"),
        Step("exists-raw-form", 0, "<=", sp.Min(COND_32, COND_33).subs(lam, LAM_13), PRO,
             oracle="exists", oracle_args={"var": "beta", "lower": "0", "upper": "1"},
             because="the same existence with (32) and (33) as printed in Theorem 11 (interval "
                     "enclosures of this form are loose at β → 1: the certificate may not close)"),
        Step("eq-40", (COND_33 * 6 * beta * n * epsilon / (14 * lam)).expand(), "=",
             sp.log(n) - (3 * beta * n * epsilon * (lam - 1) / (7 * lam) + sp.log(lam)
                          + sp.log(1 + 7 * lam / (2 * beta * n * epsilon))), ALG, eq="40",
             given=[*BETA01, asm(sp.Gt(lam, 1))],
             because="(33) at σ² = 14(M + LR^α)²λ/(βnε) is (40) (scaled by 6βnε/(14λ) > 0)"),
        Step("eq-41", 3 * beta * n * epsilon * (lam - 1) / (7 * lam), "<=", sp.log(n) / 3, ALG,
             eq="41", given=[*BETA01, asm(sp.Gt(lam, 1)),
                             asm(sp.Le(beta, 7 * sp.log(n) / (9 * n * epsilon)), "β ≤ 7 log(n)/(9nε)")],
             because="(41) holds if β ≤ 7 log(n)/(9nε), since λ > 1"),
        Step("eq-42", LAM_13, "<=", sp.cbrt(n), ALG, eq="42",
             given=[*BETA01, asm(sp.Le(beta, 1 - 2 * sp.log(n) / (N3 * epsilon)),
                                 "β ≤ 1 − 2 log(n)/((n^{1/3} − 1)ε)"), asm(sp.Ge(n, 18))],
             because="(42) log λ ≤ log(n)/3 reduces to β ≤ 1 − 2 log(n)/((n^{1/3}−1)ε)"),
        Step("eq-44", N3 - 7 * LAM_13 / (2 * beta * n * epsilon), "=",
             -N3 * G44 / (beta * (1 - beta)), ALG, eq="44", given=[*BETA01, asm(sp.Ge(n, 18))],
             because="(43) log(1 + 7λ/(2βnε)) ≤ log(n)/3 is equivalent to g(β) ≤ 0"),
        Step("disc-44-condition", DISC44, ">=", 0, SCA,
             given=[asm(sp.Ge(n, 18)), asm(sp.Ge(epsilon, EPS_DISC44), "the printed condition")],
             because="g has a real root if ε ≥ 7/(2n(n^{1/3}−1)) + 2√(7 log(n)/(n(n^{1/3}−1)))"),
        Step("max-inequality", sp.Max(EPS_DISC44, EPS_SECOND), "<=", EPS_13, SCA,
             given=[asm(sp.Ge(n, 18), "n ≥ 18")],
             because="the printed 'Finally, note that max{…} ≤ (7(n^{1/3}−1) + 4 log(n)n + 7)/"
                     "(2n(n^{1/3}−1))'", origin="printed"),
        Step("eq-45", BETA3, "<=", sp.Min(7 * sp.log(n) / (9 * n * epsilon),
                                          1 - 2 * sp.log(n) / (N3 * epsilon)), SCA, eq="45",
             given=[asm(sp.Ge(n, 18)), asm(sp.Ge(epsilon, EPS_13))]),
        Step("eq-46", BETA3, "<=", BETA1, SCA, eq="46",
             given=[asm(sp.Ge(n, 18)), asm(sp.Ge(epsilon, EPS_13)),
                    asm(sp.Ge((1 + 7 / (sp.Rational(134, 100) * n * epsilon ** 2)) ** 2,
                              28 * (2 * sp.log(n) + epsilon) / (sp.Rational(134, 100) * n * epsilon ** 2)),
                        "the printed condition of (46) (ε² in the first fraction, cf. (39))")]),
    ],
    note="Figure 1 (the shaded region ε ≥ (7(n^{1/3}−1) + 4 log(n)n + 7)/(2n(n^{1/3}−1))) "
         "illustrates the same condition.",
)

LEMMA_13_FIX = Result(
    f"{K}:lem-13+fix", "Lemma 13 with n ≥ 44", "Sec. 2.2.3, Lemma 13, repaired range of n",
    variant_of=f"{K}:lem-13",
    hypotheses=[asm(sp.Ge(n, 44), "repaired: n ≥ 44"), asm(sp.Ge(epsilon, EPS_13), "Lemma 13")],
    statement=[replace(LEMMA_13.statement[0], because="the existence of β of Lemma 13 for n ≥ 44 "
                       "(the printed n ≥ 18 fails for 18 ≤ n ≤ 43 at the printed threshold)")],
    note="What changes: n ≥ 44 for n ≥ 18.  At ε equal to the printed threshold the best "
         "worst-slack over β is negative for every n from 18 to 43 (−0.41 at n = 18, −0.005 at "
         "n = 43) and positive from n = 44 on; this variant asks the exists oracle for n ≥ 44.",
)

REMARK_4 = Result(
    f"{K}:rem-4", "On ε, δ = 1/n² and the choice of β", "Sec. 2.2.3, Remark 4",
    note="ε ≥ 1 'is always acceptable' (Apple: ε = 8, ε = 2); δ = 1/n² always; among the β that "
         "satisfy the RDP conditions of Theorem 11 the one closest to 1/2 is chosen (smallest noise "
         "variance).  The last claim is checked: σ² ∝ 1/(β(1−β)) · (…) is smallest near 1/2.",
    statement=[Step("beta-half", 1 / (beta * (1 - beta)), ">=", 4, ALG, given=BETA01,
                    because="1/(β(1−β)) is smallest at β = 1/2 (the λ-dependence of σ² through "
                            "log(1/δ)/((1−β)ε) is not part of the printed claim)")],
)

REMARK_5 = Result(
    f"{K}:rem-5", "Why Algorithm 2 needs a bounded domain", "Sec. 2.2.3, Remark 5",
    note="For W = R^d the sensitivity Δ_t ≤ 2(M + L||w_t||^α) cannot be bounded uniformly; "
         "||w_t|| = O(√(tη) + η Σσ_j + η√(dΣσ_j²)) w.h.p.  A discussion, no claim to check.")

RESULTS = [THEOREM_7, REMARK_1, ALGORITHM_1, THEOREM_8, THEOREM_9, THEOREM_10, REMARK_2,
           ALGORITHM_2, THEOREM_11, THEOREM_11_TRAJ, THEOREM_12, THEOREM_12_FIX, REMARK_3,
           LEMMA_13, LEMMA_13_FIX, REMARK_4, REMARK_5]

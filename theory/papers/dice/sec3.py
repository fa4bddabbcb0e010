"""Sec. 3 of DiceSGD: Algorithm 2, Assumptions 3.1-3.5, Theorems 3.6 and 3.7, Corollary 3.8.

Readings of the text rendering (lines 881-2600), where the renderer dropped square roots
and fraction bars:

* Theorem 3.6 / A.2: η = √(2(f(x_0) − f⋆)) / √(T L (2C1² + 3C2² + dσ₁²)), C2 ≥ 3C1 + σ/√B
  (printed "C2 ≥ 3 C1 + σ B": we read σ/√B, the standard deviation of a B-sample mean
  under Assumption 3.4; the other reading σ/B changes no verdict below), and (4)
  E_t‖∇f(x_t)‖² ≤ 2√(2 L (f(x_0) − f⋆)(2C1² + 3C2² + dσ₁²)) / √T.  Both placements of the
  roots give the same value; it is also the minimum over η of the last line of (17).
* Assumption 3.4: E‖∇f(x) − g_i‖² ≤ σ²/N (printed "σ 2 N"; the remark after it says it
  implies ‖∇f(x) − g_i‖² ≤ σ² for every i, which fixes the reading σ²/N).
* Theorem 3.7 / A.3: σ₁² ≥ 32 T G̃ log(1/δ)/(N²ϵ²) with G̃ := C1² + 2 min{C2, G'}².  The
  rendering prints "min{C2, G'²}" (dimensionally inconsistent: C2 is a gradient, G'² a
  squared gradient); the proof's last display has min{C2²B², G'²} before it "bounds C2
  by C/B"; we read min{C2, G'}² = min{C2², G'²} and write it with the stand-in
  mG = min{C2, G'} ≥ 0.
* Corollary 3.8: T = O(N²ϵ²/(G̃ log(1/δ))) and E‖∇f(x_t)‖² = O(√(G̃ log(1/δ))/(Nϵ)).
* Assumption 3.5 (G = sup ‖∇f‖ < ∞, the full gradient) is the typed class
  BoundedGradient(G, of="objective"); Theorem 3.7's G̃ is computed from it: "G' defined in
  Theorem 3.6" is the G' := max{0, G + σ − C1} of (9) (A.1), so min{C2, G'} is a definition
  in the privacy statement's hypotheses, not a free symbol.
"""
from __future__ import annotations

import sympy as sp

from theory.classes import (BoundedGradient, GradNoise, InitialGap, LowerBounded, LSmooth,
                            StronglyConvex)
from theory.mechanisms import ErrorFeedbackSGD, SampledGaussian
from theory.metrics import WEIGHTED_EXPECTED_GRAD_SQ
from theory.model import (Bound, Case, CaseSplit, Chain, Rate, Result, Step, StepKind, asm)
from theory.papers.dice.symbols import (B, B_T, C, C1, C2, G, p, Delta0, Et_grad, Lg, cO_grad, L, N, SA, T,
                                        d, delta, eps_dp, epsilon, eta, gnorm, mG, mu, sigma,
                                        sigma1, A_t, alpha_e1, e1_norm, g0)
from theory.quantities import t
from theory.stochastic import Aggregate

ALG, SCA, PRO, CIT = StepKind.ALGEBRA, StepKind.SCALAR, StepKind.PROBABILISTIC, StepKind.CITED

#: 2C1² + 3C2² + dσ₁², the constant of (4), (11), (17)
K36 = 2 * C1**2 + 3 * C2**2 + d * sigma1**2
#: the step size of Theorem 3.6
ETA36 = sp.sqrt(2 * Delta0 / (T * L * K36))
#: the bound (4)
RATE36 = 2 * sp.sqrt(2 * L * Delta0 * K36 / T)
#: σ/√B (reading of "σ B")
S_B = sigma / sp.sqrt(B)
#: G̃ := C1² + 2 min{C2, G'}²  (reading, see the module docstring)
GT = C1**2 + 2 * mG**2
#: the noise of Theorem 3.7 at equality
SIGMA1_SQ_37 = 32 * T * GT * sp.log(1 / delta) / (N**2 * epsilon**2)


#: Σ_t A_t as the aggregate (12) defines it: A_t = Σ_{τ>t} α_e^τ Π_{t<τ1<τ}(1 − α_e^{τ1})
#: = 1 − Π_{τ=t+1}^{T−1}(1 − α_e^τ) (14) with every α_e^τ ∈ (0, 1] (8), so A_t ∈ (0, 1]
#: for t < T − 1, A_{T−1} = 0 (an empty sum) and A_0 ≥ α_e^1 (T ≥ 2); a witness is realised by
#: the clipping factors α_e^τ themselves (the survival form of (14), α_e^1 as fixed by (8))
SUM_A = Aggregate(SA, "sum", index=t, first=0, last=T - 1, term="A_t", bounds=(0, 1),
                  open_lower=True, terms=((T - 1, 0, 0), (0, alpha_e1, 1)),
                  survival=True, rates=((1, alpha_e1),),
                  where="(12), (14); α_e^τ ∈ (0, 1] by (8)")
#: what fixes α_e^1 at the starting point: (8) and step (d) of the proof of (9), whose
#: ‖∇f(x_1)‖ is the gradient at the iterate the first batch is drawn at (e_1 is formed at
#: x_0: e_0 = 0, e_1 = (1/B)Σ_i (g_i − clip(g_i, C1)) at x_0, Algorithm 2)
FIRST_ERROR = [
    asm(sp.Eq(alpha_e1, C2 / sp.Max(C2, e1_norm)),
        "(8): α_e^1 = min{1, C2/‖e_1‖} (= C2/max{C2, ‖e_1‖})"),
    asm(sp.Le(e1_norm, sp.Max(0, g0 + sigma - C1)),
        "proof of (9), (d): ‖e_1‖ ≤ max{0, ‖∇f‖ + σ − C1} at the first iterate"),
]


def dicesgd(T_=T, release="all") -> ErrorFeedbackSGD:
    """Algorithm 2 (Sec. 3.1): DiceSGD releasing x_0, …, x_T (the paper: "the algorithm only
    releases x_t at iteration t and does not release e_t nor v_t")."""
    return ErrorFeedbackSGD(n=N, b=B, eta=eta, C1=C1, C2=C2, sigma=sigma1, T=T_,
                            release=release)


ALG_2 = Result(
    "dice:alg-2", "DiceSGD", "Sec. 3.1, Algorithm 2",
    note="Input x_0, D, C1, C2, η; e_0 = 0. For t = 0..T−1: draw B_t; v_t = (1/B)Σ_{i∈B_t} "
         "clip(∇f(x_t; ξ_i), C1) + clip(e_t, C2); x_{t+1} = x_t − η_t(v_t + w_t), w_t ~ "
         "N(0, σ₁² I); e_{t+1} = e_t + (1/B)Σ_{i∈B_t} ∇f(x_t; ξ_i) − v_t. Typed as "
         "theory.mechanisms.ErrorFeedbackSGD (release='all').")

ASM_3_1 = Result("dice:asm-3.1", "Lower bounded", "Sec. 3.2, Assumption 3.1",
                 hypotheses=[asm(LowerBounded(), "Assumption 3.1")],
                 note="f(x) ≥ f⋆ > −∞ for all x ∈ R^d.")
ASM_3_2 = Result("dice:asm-3.2", "Smoothness", "Sec. 3.2, Assumption 3.2",
                 hypotheses=[asm(LSmooth(L), "Assumption 3.2")],
                 note="‖∇f(x) − ∇f(y)‖ ≤ L‖x − y‖ for all x, y (f, the average loss).")
ASM_3_3 = Result("dice:asm-3.3", "Strong convexity", "Sec. 3.2, Assumption 3.3",
                 hypotheses=[asm(StronglyConvex(mu), "Assumption 3.3")],
                 note="f(y) ≥ f(x) + ⟨∇f(x), y − x⟩ + (μ/2)‖x − y‖². Not used by any "
                      "printed theorem.")
ASM_3_4 = Result("dice:asm-3.4", "Bounded variance", "Sec. 3.2, Assumption 3.4",
                 hypotheses=[asm(GradNoise(sigma / sp.sqrt(N)), "Assumption 3.4")],
                 note="E[g] = ∇f(x) and E‖∇f(x) − g_i‖² ≤ σ²/N for all x (reading σ²/N); the "
                      "remark after it: this implies ‖∇f(x) − g_i‖² ≤ σ² for every i.")
#: Assumption 3.5, typed: G bounds the gradient of the objective f (the average loss)
ASM_3_5_CLASS = BoundedGradient(G, of="objective")

ASM_3_5 = Result("dice:asm-3.5", "Bounded gradient", "Sec. 3.2, Assumption 3.5",
                 hypotheses=[asm(ASM_3_5_CLASS, "Assumption 3.5")],
                 note="G = sup_x ‖∇f(x)‖ < ∞: a bound on the FULL gradient ∇f (not on "
                      "per-sample gradients), typed as BoundedGradient(G, of='objective'). "
                      "The class reads ‖∇f‖ ≤ G; the theorems use G only through "
                      "G' = max{0, G + σ − C1}, non-decreasing in G, so a scenario admitted "
                      "with an upper bound G is admitted with its supremum too.")

THM36_HYPS = [
    asm(LowerBounded(), "Theorem 3.6: Assumption 3.1"),
    asm(LSmooth(L), "Theorem 3.6: Assumption 3.2"),
    asm(GradNoise(sigma / sp.sqrt(N)), "Theorem 3.6: Assumption 3.4"),
    asm(ASM_3_5_CLASS, "Theorem 3.6: Assumption 3.5"),
    asm(sp.Eq(eta, ETA36), "Theorem 3.6: step size"),
    asm(sp.Ge(C2, 3 * C1 + S_B), "Theorem 3.6: C2 ≥ 3C1 + σ/√B > 0"),
    asm(sp.Ge(T, 1), "Theorem 3.6: T iterations"),
]


def _rate36(rid):
    return Rate("statement", WEIGHTED_EXPECTED_GRAD_SQ, RATE36, dicesgd(),
                problem_class=(LowerBounded(), LSmooth(L), GradNoise(sigma / sp.sqrt(N)),
                               InitialGap(Delta0)),
                hypotheses=THM36_HYPS,
                note="weights A_t of (12), computed from DiceSGD's clipping factors α_e^τ")


def proof_36(eqs=("4",)) -> list:
    """The closing lines of App. A.1 (after (17)) with the choice of η, and the bounds on
    A_t, B_T, C_t and Case II that lead to (17).  Lines (10)-(16) with expectations are
    PROBABILISTIC stand-ins; the scalar manipulations are ALGEBRA/SCALAR."""
    return [
        Chain("final", [
            Step("eq-17-avg", Et_grad, "<=", (2 * Delta0 + T * L * eta**2 * K36) / (eta * SA),
                 PRO, eq="17",
                 because="(17): (η/2) Σ_t A_t E‖∇f(x_t)‖² ≤ f(x_0) − f⋆ + T L η² K/2, divided "
                         "by (η/2) Σ_t A_t (E_t is the A_t-weighted average)"),
            Step("eq-17-line-2", (2 * Delta0 + T * L * eta**2 * K36) / (eta * SA), "<=",
                 2 * Delta0 / (eta * T) + eta * L * K36, ALG, eq="17",
                 given=[asm(sp.Gt(SA, 0), "(12): A_t ∈ (0, 1]"),
                        asm(sp.Le(SA, T - 1), "(12): A_{T−1} is an empty sum (= 0) and "
                                                 "A_t ≤ 1 (the paper: C_t = 1 − A_t ≥ 0)"),
                        *FIRST_ERROR],
                 note="the printed second line of (17) divides by ηT/2, not by "
                      "(η/2)Σ_t A_t"),
            Step("eta-choice", 2 * Delta0 / (eta * T) + eta * L * K36, "=", RATE36, ALG,
                 given=[asm(sp.Eq(eta, ETA36), "Theorem 3.6: the step size")],
                 because="substituting η of Theorem 3.6 into the last line of (17)"),
        ], concludes="statement"),
        Step("eta-optimal", 2 * Delta0 / (eta * T) + eta * L * K36, ">=", RATE36, SCA,
             because="AM-GM: the printed η minimises 2Δ/(ηT) + ηLK over η > 0"),
        Step("bt-bound", B_T, "<=", 2 * T, ALG, eq="13",
             given=[asm(sp.Eq(B_T, T + SA), "(13): B_T = T + Σ_t A_t"),
                    asm(sp.Le(SA, T), "(12): A_t ≤ 1")],
             because="'Therefore, B_T ≤ 2T'"),
        Step("eq-17-bt", L * eta**2 / 2 * B_T * K36, "<=", T * L * eta**2 / 2 * K36, ALG,
             eq="17",
             given=[asm(sp.Ge(T, 2), "T ≥ 2 iterations"),
                    asm(sp.Le(B_T, 2 * T - 1), "(13): B_T = T + Σ A_t ≤ 2T − 1 (A_{T−1} = 0)"),
                    asm(sp.Gt(B_T, T), "(13): B_T = T + Σ A_t > T once T ≥ 2 (A_0 > 0 "
                                       "because every α_e^τ ∈ (0, 1])"),
                    asm(sp.Eq(B_T, T + SA), "(13): B_T = T + Σ_t A_t"),
                    *FIRST_ERROR],
             note="the noise term of the (b) line of (11) is (Lη²/2) B_T K; (17) prints "
                  "T L η²/2 K, which B_T ≤ 2T does not give (it gives T L η² K)"),
        Step("case-2-grad", gnorm, ">=", 2 * C1, ALG, eq="15",
             given=[asm(sp.Gt(gnorm, C2 - S_B - C1), "(15): α_e^{t+1} < 1"),
                    asm(sp.Ge(C2, 3 * C1 + S_B), "C2 ≥ 3C1 + σ/√B")],
             because="'By setting C2 ≥ 3C1 + σ/√B, we have ‖∇f(x_t)‖ ≥ 2C1'"),
        Step("case-2-a", C2 / (gnorm + C1 + S_B) * gnorm**2, ">=", 2 * C1 * gnorm, SCA,
             eq="16",
             given=[asm(sp.Ge(gnorm, 2 * C1), "(15)"),
                    asm(sp.Ge(C2, 3 * C1 + S_B), "C2 ≥ 3C1 + σ/√B")],
             because="C2‖∇f‖/(‖∇f‖ + C1 + σ/√B) increases in ‖∇f‖; at ‖∇f‖ = 2C1 it is 2C1"),
        Step("case-2-b", 2 * C1 * gnorm, ">", 2 * (1 - A_t) * C1 * gnorm, ALG,
             given=[asm(sp.Gt(A_t, 0), "(12): A_t ∈ (0, 1]")]),
    ]


THM_3_6 = Result(
    "dice:thm-3.6", "Convergence of DiceSGD (non-convex)", "Sec. 3.2, Theorem 3.6, eq. (4)",
    hypotheses=THM36_HYPS,
    statement=[Step("statement", Et_grad, "<=", RATE36, PRO, eq="4",
                    note="E_t: t ∈ {0..T−1} drawn with probability A_t/Σ A_t, A_t of (12)")],
    proof=proof_36(),
    rates=[_rate36("statement")],
    note="Proof in App. A.1 (encoded under dice:thm-a.2, the appendix restatement, and "
         "repeated here for its closing lines).")


#: "B/N ≤ 1/5" of Theorem 3.7, which its restatement A.3 does not print
THM37_B_OVER_N = asm(sp.Le(B / N, sp.Rational(1, 5)), "Theorem 3.7: B/N ≤ 1/5")
THM37_HYPS = [
    asm(GradNoise(sigma / sp.sqrt(N)), "Theorem 3.7: Assumption 3.4"),
    asm(ASM_3_5_CLASS, "Theorem 3.7: Assumption 3.5"),
    asm(sp.Gt(C1, 0), "Theorem 3.7: 0 < C1"), asm(sp.Le(C1, C2), "Theorem 3.7: C1 ≤ C2"),
    asm(sp.Le(C2, C / B), "Theorem 3.7: C2 ≤ C/B"),
    THM37_B_OVER_N,
    asm(sp.Ge(sigma1**2, SIGMA1_SQ_37), "Theorem 3.7: σ₁² ≥ 32 T G̃ log(1/δ)/(N²ϵ²)"),
    asm(sp.Ge(mG, 0), "G̃: min{C2, G'} ≥ 0"), asm(sp.Le(mG, C2), "G̃: min{C2, G'} ≤ C2"),
    asm(sp.Gt(delta, 0), "Theorem 3.7: δ > 0 (log(1/δ))"),
    asm(sp.Lt(delta, 1), "Lemma A.5: δ ∈ (0, 1)"),
]


#: G̃'s min{C2, G'} with G' := max{0, G + σ − C1} ("G' defined in Theorem 3.6": the
#: proof of (9)), so that a scenario's G̃ is computed from its G and σ, never drawn apart
MG_DEF = asm(sp.Eq(mG, sp.Min(C2, sp.Max(0, G + sigma - C1))),
             "Theorem 3.7: G̃ := C1² + 2 min{C2, G'}², G' = max{0, G + σ − C1} (A.1, (9))")


def _bound37(hyps):
    return Bound("statement", epsilon, dicesgd(), delta=delta, profile=True,
                 hypotheses=[*hyps, MG_DEF],
                 note="the whole released trajectory x_0..x_T, e_t hidden")


def thm37_t1(rid, where):
    """The statement at T = 1 and one admissible scenario, where the exact privacy profile
    is computable.  At T = 1, e_0 = 0 and clip(0, C2) = 0, so the released x_1 is
    x_0 − η((1/B)Σ_{i∈B_0} clip(g_i, C1) + w_0): one sub-sampled Gaussian mechanism with
    rate p = B/N (Poisson, as the proof's Lemma A.10), sensitivity C1/B of the mean under
    add/remove adjacency (the most favourable reading: the proof's "2C1/B" only makes it
    worse), noise multiplier σ₁B/C1 = p√(32 G̃ log(1/δ))/(C1 ϵ).

    The scenario: linear losses, one canary with gradient a = C1 and N − 1 samples with
    gradient 0.  It attains the sub-sampled Gaussian's worst case (a clipped contribution
    of norm C1), and satisfies Assumption 3.4 (also its per-sample form ‖∇f − g_i‖ ≤ σ)
    with σ = C1(1 − 1/N) and Assumption 3.5 with G = C1/N, so G' = max{0, G + σ − C1} = 0,
    min{C2, G'} = 0 and G̃ = C1².  With the largest admissible rate p = 1/5, ϵ = 10 and
    δ = 10⁻⁵ the printed σ₁ gives the noise multiplier √(32 log(10⁵))/50 ≈ 0.384.  Every
    hypothesis of Theorem 3.7 holds there (C1 ≤ C2 ≤ C/B are free; T = 1)."""
    hyps = [asm(sp.Eq(p, sp.Rational(1, 5)), "scenario: p = B/N = 1/5 (Theorem 3.7: ≤ 1/5)"),
            asm(sp.Eq(epsilon, 10), "scenario: ϵ = 10 (Theorem 3.7: any ϵ)"),
            asm(sp.Eq(delta, sp.Rational(1, 10**5)), "scenario: δ = 10⁻⁵")]
    return Result(
        rid, "The privacy statement at T = 1 on a worst-case scenario", where,
        hypotheses=hyps,
        statement=[Step("statement", eps_dp, "<=", epsilon, PRO,
                        note="x_1 of DiceSGD with σ₁ at the printed minimum, T = 1, G̃ = C1²")],
        bounds=[Bound("statement", epsilon,
                      SampledGaussian(q=p, sigma=p * sp.sqrt(32 * sp.log(1 / delta)) / epsilon),
                      delta=delta, profile=True, hypotheses=hyps,
                      note="exact PLD profile of the sampled Gaussian, both orders")],
        variant_of=rid.split("+")[0],
        note="Not a repair: Theorem 3.7 specialised to T = 1 on one scenario its hypotheses "
             "admit (see theory.papers.dice.sec3.thm37_t1). The theorem has no upper limit "
             "on ϵ and does not include the proof's σ₁ > 8C1/B (A.2, before (24)).")


THM_3_7 = Result(
    "dice:thm-3.7", "Privacy of DiceSGD", "Sec. 3.2, Theorem 3.7",
    hypotheses=THM37_HYPS,
    statement=[Step("statement", eps_dp, "<=", epsilon, PRO,
                    note="DiceSGD run for T iterations is (ϵ, δ)-DP")],
    bounds=[_bound37(THM37_HYPS)],
    note="Proof in App. A.2 (encoded under dice:thm-a.3).")

THM_3_7_T1 = thm37_t1("dice:thm-3.7+t1", "Sec. 3.2, Theorem 3.7 at T = 1")

COR_3_8 = Result(
    "dice:cor-3.8", "Utility-privacy trade-off of DiceSGD", "Sec. 3.2, Corollary 3.8",
    hypotheses=[asm(sp.Lt(3 * C1, C2), "Corollary 3.8: 0 < 3C1 < C2"),
                asm(sp.Le(C2, C / B), "Corollary 3.8: C2 ≤ C/B"),
                asm(sp.Eq(sigma1**2, SIGMA1_SQ_37), "Corollary 3.8: σ₁² as Theorem 3.7"),
                asm(sp.Eq(Lg, sp.log(1 / delta)), "log(1/δ)")],
    statement=[Step("statement", Et_grad, "<=", cO_grad * sp.sqrt(GT * Lg) / (N * epsilon), PRO,
                    note="E‖∇f(x_t)‖² = O(√(G̃ log(1/δ))/(Nϵ)) with T = O(N²ϵ²/(G̃ log(1/δ)))")],
    proof=[
        Step("hyp-3.6", C2, ">=", 3 * C1 + S_B, ALG,
             because="Corollary 3.8 assumes 'the same assumptions of Theorem 3.6' but "
                     "replaces its C2 ≥ 3C1 + σ/√B by 3C1 < C2: does it imply it?"),
        Step("noise-over-t", K36 / T, "=", (2 * C1**2 + 3 * C2**2) / T
             + 32 * d * GT * Lg / (N**2 * epsilon**2), ALG,
             given=[asm(sp.Eq(sigma1**2, 32 * T * GT * Lg / (N**2 * epsilon**2)),
                        "σ₁² of Theorem 3.7")],
             because="K/T in (4) with σ₁² of Theorem 3.7: the dσ₁²/T part does not decay in T"),
    ],
    note="The O-form hides the dimension d (from dσ₁²) and L(f(x_0) − f⋆); the printed "
         "T = O(N²ϵ²/(G̃ log(1/δ))) is a count over a squared gradient (its constant "
         "carries a dimension).")

RESULTS = [ALG_2, ASM_3_1, ASM_3_2, ASM_3_3, ASM_3_4, ASM_3_5, THM_3_6, THM_3_7, THM_3_7_T1,
           COR_3_8]

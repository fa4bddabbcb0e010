"""holder, Sec. 2.1 (Preliminaries): Definitions 1–5 and Lemmas 1–6, in the printed order.

Lemma 1's proof is the paper's appendix (Lemma 27 and eqs. (47)–(48)); it is encoded on
Lemma 1 here, Lemma 27 itself sits with Sec. 3 in :mod:`theory.papers.holder.proofs`.

Lemma 2 is the classical Gaussian mechanism (Dwork and Roth 2014, Thm A.1), which the
source proves **only for ε < 1**; the paper prints it without that hypothesis and uses it
with ε ≥ 1 (Remark 4: "a larger privacy budget, i.e. ε ≥ 1, is always acceptable").  Its
typed statement is compared with the exact privacy profile of the Gaussian mechanism, over
every ε > 0 the printed statement allows.
"""
import sympy as sp

from theory.mechanisms import GaussianMechanism
from theory.model import Bound, Chain, Result, Step, StepKind, asm
from theory.papers.holder.symbols import (D_lam, Delta, Delta_A, Delta_g, G, L, M, M0, alpha,
                                          eps_dp, gamma, gamma0, k, lam, p_s, rho, sigma,
                                          sigma_g, sup_delta)
from theory.papers.holder.symbols import c_gen, gen_gap
from theory.quantities import delta, epsilon, n

#: the printed bound of Lemma 1 / Lemma 27
GEN_BOUND = c_gen * ((M + L * G ** alpha) * Delta_A * sp.log(n) * sp.log(1 / gamma)
                     + (M0 + (M + L * G ** alpha) * G) * sp.sqrt(sp.log(1 / gamma) / n))

ALG, SCA, PRO, CIT = (StepKind.ALGEBRA, StepKind.SCALAR, StepKind.PROBABILISTIC,
                      StepKind.CITED)
K = "holder"

DEF_1 = Result(
    f"{K}:def-1", "Stochastic gradient descent", "Sec. 2.1, Definition 1, eq. (1)",
    note="W ⊆ R^d convex, w_1 = 0, step sizes {η_t}; w_{t+1} = Proj_W(w_t − η_t ∂l(w_t, z_{i_t})) "
         "with i_t drawn uniformly from [n]; for W = R^d, w_{t+1} = w_t − η_t ∂l(w_t, z_{i_t}). "
         "(The loss is convex in w throughout: l(w, z) ≥ l(w', z) + <∂l(w', z), w − w'>.)")

DEF_2 = Result(
    f"{K}:def-2", "Uniform argument stability (high probability)", "Sec. 2.1, Definition 2",
    statement=[Step("statement", sup_delta, "<=", Delta_A, PRO,
                    because="P_A(sup_{S≃S'} δ_A(S, S') ≥ Δ_A) ≤ γ, δ_A(S, S') = ||A(S) − A(S')||_2: "
                            "the stand-in reads 'with probability ≥ 1 − γ'")],
    note="A has Δ_A-UAS with probability at least 1 − γ (γ ∈ (0, 1)).")

LEMMA_1 = Result(
    f"{K}:lem-1", "Generalisation from high-probability UAS", "Sec. 2.1, Lemma 1 (proof: Appendix)",
    hypotheses=[asm("l is nonnegative, convex and alpha-Holder smooth with parameter L", "Lemma 1"),
                asm(sp.Gt(gamma, 0), "Lemma 1"), asm(sp.Lt(gamma, 1), "Lemma 1")],
    statement=[Step("statement", gen_gap, "<=", GEN_BOUND, CIT,
                    because="with probability ≥ 1 − γ0 − γ over S ~ D^n and A, given "
                            "P_A(sup δ_A ≥ Δ_A) ≤ γ0 and ||A(S)|| ≤ G: a 'straightforward extension' "
                            "of Bousquet, Klochkov, Zhivotovskiy (2019), Cor. 8; the constant c is "
                            "not given")],
    note="CITED: the whole content is Cor. 8 of [7] (a moment bound for uniformly stable "
         "algorithms) applied with the bounded-difference constant (48) and the range bound "
         "(47) of Lemma 27.  Encoded as a cited row, its algebraic inputs (47)-(48) are "
         "checked in Lemma 27.",
)

DEF_3 = Result(
    f"{K}:def-3", "Differential privacy", "Sec. 2.1, Definition 3",
    note="A is (ε, δ)-DP if P(A(S) ∈ E) ≤ e^ε P(A(S') ∈ E) + δ for neighbouring S, S' and every "
         "event E; ε-DP if δ = 0.")

DEF_4 = Result(
    f"{K}:def-4", "l2-sensitivity", "Sec. 2.1, Definition 4",
    note="Δ = sup_{S≃S'} ||M(S) − M(S')||_2 for M: Z^n → W.")

LEMMA_2_H = [asm(sp.Ge(sigma, sp.sqrt(2 * sp.log(sp.Rational(5, 4) / delta)) * Delta / epsilon),
                 "Lemma 2"),
             asm(sp.Lt(delta, 1), "δ a failure probability (Def. 3)")]

LEMMA_2 = Result(
    f"{K}:lem-2", "Gaussian mechanism (Dwork and Roth 2014)", "Sec. 2.1, Lemma 2",
    hypotheses=LEMMA_2_H,
    statement=[Step("statement", eps_dp, "<=", epsilon, PRO,
                    because="G(S, σ) = M(S) + b, b ~ N(0, σ² I_d), yields (ε, δ)-DP: eps_dp is "
                            "the smallest ε' with (ε', δ)-DP")],
    proof=[Step("cited", eps_dp, "<=", epsilon, CIT,
                because="Dwork and Roth (2014), Theorem A.1 — proved there for ε ∈ (0, 1) only; "
                        "the paper prints no range of ε")],
    bounds=[Bound("statement", epsilon, GaussianMechanism(sensitivity=Delta, sigma=sigma),
                  delta=delta, profile=True, hypotheses=LEMMA_2_H,
                  note="exact analytic profile of the Gaussian mechanism, both orders")],
)

LEMMA_2_FIX = Result(
    f"{K}:lem-2+fix", "Gaussian mechanism with the source's ε < 1", "Sec. 2.1, Lemma 2 (Dwork and Roth 2014, Thm A.1)",
    variant_of=f"{K}:lem-2",
    hypotheses=[*LEMMA_2_H, asm(sp.Lt(epsilon, 1), "Dwork and Roth (2014), Thm A.1: ε ∈ (0, 1)")],
    statement=[Step("statement", eps_dp, "<=", epsilon, PRO,
                    because="the printed Lemma 2 with the hypothesis ε < 1 of its source")],
    bounds=[Bound("statement", epsilon, GaussianMechanism(sensitivity=Delta, sigma=sigma),
                  delta=delta, profile=True,
                  hypotheses=[*LEMMA_2_H, asm(sp.Lt(epsilon, 1))])],
    note="What changes: ε < 1 added (the source's range).",
)

DEF_5 = Result(
    f"{K}:def-5", "Rényi differential privacy (Mironov 2017)", "Sec. 2.1, Definition 5",
    hypotheses=[asm(sp.Gt(lam, 1), "Definition 5"), asm(sp.Gt(rho, 0), "Definition 5")],
    statement=[Step("statement", D_lam, "<=", rho, PRO,
                    because="D_λ(A(S) || A(S')) = 1/(λ−1) log ∫ (P_A(S)/P_A(S'))^λ dP_A(S') ≤ ρ "
                            "for all neighbouring S, S'")],
    note="(λ, ρ)-RDP; λ → ∞ gives ε-DP.")

LEMMA_3 = Result(
    f"{K}:lem-3", "RDP of the subsampled Gaussian mechanism ([22])", "Sec. 2.1, Lemma 3",
    hypotheses=[asm(sp.Ge(sigma_g ** 2, sp.Rational(67, 100) * Delta_g ** 2), "Lemma 3"),
                asm(sp.Le(lam - 1, 2 * sigma_g ** 2 / (3 * Delta_g ** 2)
                          * sp.log(1 / (lam * p_s * (1 + sigma_g ** 2 / Delta_g ** 2)))),
                    "Lemma 3"),
                asm(sp.Gt(lam, 1), "Definition 5"), asm(sp.Le(p_s, 1), "Lemma 3")],
    statement=[Step("statement", D_lam, "<=",
                    sp.Rational(7, 2) * p_s ** 2 * lam * Delta_g ** 2 / sigma_g ** 2, CIT,
                    because="Liang, Wang, Gu, Osher, Yao (2020) [22], for subsets drawn uniformly "
                            "WITHOUT replacement with rate p")],
    note="No typed statement: the engine's sampled-Gaussian truth is Poisson subsampling under "
         "add/remove adjacency, not the without-replacement scheme of this lemma, so a comparison "
         "would not be a check of the printed claim (NOT-TESTED by design).",
)

LEMMA_4 = Result(
    f"{K}:lem-4", "Adaptive composition of RDP (Mironov 2017)", "Sec. 2.1, Lemma 4",
    hypotheses=[asm(sp.Gt(lam, 1), "Definition 5")],
    statement=[Step("statement", D_lam, "<=", k * rho, CIT,
                    because="Mironov (2017), Prop. 1: k mechanisms each (λ, ρ_i)-RDP compose to "
                            "(λ, Σρ_i)-RDP (written with equal ρ_i = ρ)")])

LEMMA_5 = Result(
    f"{K}:lem-5", "From RDP to (ε, δ)-DP (Mironov 2017)", "Sec. 2.1, Lemma 5",
    hypotheses=[asm(sp.Gt(lam, 1), "Definition 5"), asm(sp.Lt(delta, 1), "Lemma 5"),
                asm(sp.Le(D_lam, rho), "A is (λ, ρ)-RDP")],
    statement=[Step("statement", eps_dp, "<=", rho + sp.log(1 / delta) / (lam - 1), CIT,
                    because="Mironov (2017), Prop. 3")])

LEMMA_6 = Result(
    f"{K}:lem-6", "Post-processing of RDP (Mironov 2017)", "Sec. 2.1, Lemma 6",
    hypotheses=[asm(sp.Gt(lam, 1), "Definition 5")],
    statement=[Step("statement", D_lam, "<=", rho, CIT,
                    because="Mironov (2017), Prop. 2: f∘A is (λ, ρ)-RDP when A is")])

RESULTS = [DEF_1, DEF_2, LEMMA_1, DEF_3, DEF_4, LEMMA_2, LEMMA_2_FIX, DEF_5, LEMMA_3, LEMMA_4, LEMMA_5,
           LEMMA_6]

"""holder, Sec. 3 (Proofs of main results) and the Appendix: Lemmas 14–27 in the printed
order, with the proofs of Lemmas 20, 22, 23, 24 and 27 line by line (the proofs of
Theorems 7, 8, 11 and Lemma 13 sit on those results in :mod:`theory.papers.holder.main`).

Lemmas 14–19 and 21 are cited concentration and smoothness facts (CITED rows); where the
paper applies them with specific numbers the application is a row of its own.
"""
import sympy as sp

from theory.classes import BoundedDomain, Convex, Holder, NonNegative, OriginBounds
from theory.model import CaseSplit, Case, Chain, Result, Step, StepKind, asm
from theory.papers.holder.common import (C_A1, C_A1_POS, C_A1_ZERO, C_ALPHA_FULL, DSGD, DSGD_B,
                                         GRAD_B, LOG_D)
from theory.papers.holder.symbols import (R_bar, Bv, C_a, Delta_A, G, L, M, M0, R, RS_priv, RS_star,
                                          R_priv, Xin, Xsq, Yv, alpha, bnorm, c_a1, diff2,
                                          diff2_next, eta, gA, gamma, gen_gap, gnorm, inner,
                                          inner_A, l0, lA, lw, nA, sigma, sup_delta, tch, wbar,
                                          wn, wnext2, wnorm2, wstar, c_gen)
from theory.papers.holder.symbols import X_dev, X_sum, gt_, mu_, t_dev
from theory.quantities import T, c_O, d, delta, epsilon, n, t
from theory.papers.holder import rates as hr

ALG, SCA, PRO, CIT = (StepKind.ALGEBRA, StepKind.SCALAR, StepKind.PROBABILISTIC,
                      StepKind.CITED)
K = "holder"
HOLDER = asm(Holder(alpha, L), "α-Hölder smooth with parameter L")
CONVEX = asm(Convex(), "l convex")
NONNEG = asm(NonNegative(), "l nonnegative")
ALPHA_RANGE = [asm(sp.Ge(alpha, 0), "α ∈ [0, 1]"), asm(sp.Le(alpha, 1), "α ∈ [0, 1]")]
STEP = [asm(sp.Lt(eta, 1), "η < min{1, 1/L}"), asm(sp.Lt(eta, 1 / L), "η < min{1, 1/L}")]
GAMMA = [asm(sp.Gt(gamma, 0), "γ ∈ (0, 1)"), asm(sp.Lt(gamma, 1), "γ ∈ (0, 1)")]

LEMMA_14 = Result(
    f"{K}:lem-14", "Chernoff bound for Bernoulli variables (Wainwright 2019)", "Sec. 3, Lemma 14",
    hypotheses=[asm(sp.Gt(gt_, 0), "γ̃ > 0")],
    statement=[Step("statement", X_sum, "<=", (1 + gt_) * mu_, CIT,
                    because="Wainwright (2019): (a) γ̃ ∈ (0, 1), w.p. ≥ 1 − exp(−μγ̃²/3); (b) γ̃ ≥ 1, "
                            "w.p. ≥ 1 − exp(−μγ̃/3)")],
    note="X = Σ X_i, X_i ∈ {0, 1} independent, μ = E X.")

LEMMA_15 = Result(
    f"{K}:lem-15", "Chernoff bound for the norm of a Gaussian vector (Wainwright 2019)",
    "Sec. 3, Lemma 15",
    hypotheses=[asm(sp.Gt(tch, 0)), asm(sp.Lt(tch, 1), "t ∈ (0, 1)")],
    statement=[Step("statement", Xsq, "<=", d * (1 + tch), CIT,
                    because="w.p. ≥ 1 − exp(−kt²/8), X ~ N(0, I_k) (k written d here)")])

LEMMA_16 = Result(
    f"{K}:lem-16", "Hoeffding inequality", "Sec. 3, Lemma 16",
    statement=[Step("statement", X_dev, "<=", t_dev, CIT,
                    because="Hoeffding (1963): w.p. ≥ 1 − exp(−2t²/Σ(b_i − a_i)²) as printed (the classical form for the mean X = (1/k)ΣX_i has exp(−2k²t²/Σ(b_i − a_i)²))")],
    note="a_i ≤ X_i ≤ b_i independent, X = (1/k)Σ X_i: X − E X ≤ t w.p. ≥ 1 − exp(−2t²/Σ(b_i − a_i)²) "
         "as printed (the classical form has k²t² for the mean: the printed exponent is that of "
         "the sum).  CITED.")

LEMMA_17 = Result(
    f"{K}:lem-17", "Azuma–Hoeffding inequality", "Sec. 3, Lemma 17",
    statement=[Step("statement", X_dev, "<=", t_dev, CIT,
                    because="Azuma–Hoeffding: w.p. ≥ 1 − exp(−t²/(2Σb_i²))")],
    note="|ξ_i − E_{X_i} ξ_i| ≤ b_i: Σξ_i − Σ E_{X_i} ξ_i ≤ t w.p. ≥ 1 − exp(−t²/(2Σb_i²)).  CITED.")

LEMMA_18 = Result(
    f"{K}:lem-18", "Tail bound of a sub-Gaussian variable", "Sec. 3, Lemma 18",
    statement=[Step("statement", X_dev, "<=", t_dev, CIT,
                    because="sub-Gaussian tail: w.p. ≥ 1 − exp(−t²/(2v²))")],
    note="X − μ ≤ t w.p. ≥ 1 − exp(−t²/(2v²)).  CITED.")

LEMMA_19 = Result(
    f"{K}:lem-19", "Self-bounding property of Hölder smooth losses ([21, 37])", "Sec. 3.1, Lemma 19",
    hypotheses=[NONNEG, CONVEX, HOLDER, *ALPHA_RANGE],
    statement=[Step("statement", gnorm, "<=", c_a1 * lw ** (alpha / (1 + alpha)), CIT,
                    because="Lei and Ying (2020); Ying and Zhou (2017): ||∂l(w, z)|| ≤ c_{α,1} "
                            "l^{α/(1+α)}(w, z)")])

YOUNG_C = ((1 - alpha) / (1 + alpha) * c_a1 ** (2 * (1 + alpha) / (1 - alpha))
           * (alpha / (1 + alpha)) ** (2 * alpha / (1 - alpha)))
A_IN = (1 - alpha) / (1 + alpha)
OPEN01 = [asm(sp.Gt(alpha, 0), "case α ∈ (0, 1)"), asm(sp.Lt(alpha, 1), "case α ∈ (0, 1)")]
LAMBDA_Y = (1 + alpha) / (alpha * eta)

LEMMA_20 = Result(
    f"{K}:lem-20", "Boundedness of the SGD iterates on R^d", "Sec. 3.1, Lemma 20, eqs. (5)–(8)",
    hypotheses=[NONNEG, CONVEX, HOLDER, *ALPHA_RANGE, *STEP, asm("W = R^d")],
    statement=[Step("statement", wnext2, "<=", C_a * t * eta, PRO, oracle="sgd-iterate-norm",
                    oracle_args={"eta": "eta", "t": "t"},
                    given=[asm(OriginBounds(M, M0), "M0 = sup_z l(0; z)"),
                           asm(sp.Eq(c_a1, C_A1), "c_{α,1} of (2)"),
                           asm(sp.Eq(C_a, C_ALPHA_FULL), "C_α of Lemma 20")],
                    because="||w_{t+1}||² ≤ C_α Σ_{j≤t} η_j (η_j = η); a deterministic claim about "
                            "every trajectory, written with stand-ins")],
    proof=[
        Step("eq-5", wnext2, "=", wnorm2 + eta ** 2 * gnorm ** 2 - 2 * eta * inner, CIT, eq="5",
             because="||w_t − η∂l||² expanded"),
        CaseSplit("alpha", given=ALPHA_RANGE, cases=[
            Case("alpha-0", [asm(sp.Eq(alpha, 0), "case α = 0")], [
                Chain("eq-6-pre", [
                    Step("convexity", eta * gnorm ** 2 - 2 * inner, "<=",
                         eta * gnorm ** 2 + 2 * (l0 - lw), ALG,
                         given=[asm(sp.Ge(inner, lw - l0), "convexity: <w, ∂l(w)> ≥ l(w) − l(0)")]),
                    Step("lipschitz", eta * gnorm ** 2 + 2 * (l0 - lw), "<=",
                         (M + L) ** 2 + 2 * M0, ALG,
                         given=[asm(sp.Le(gnorm, M + L), "α = 0: l is (M + L)-Lipschitz"),
                                asm(sp.Le(l0, M0), "M0 = sup_z l(0, z)")],
                         because="η < 1 and l ≥ 0"),
                ]),
                Step("c-alpha-at-0", C_a, "=", (M + L) ** 2 + 2 * M0, ALG,
                     given=[asm(sp.Eq(C_a, YOUNG_C + 2 * M0), "C_α (Lemma 20)"),
                            asm(sp.Eq(c_a1, C_A1_ZERO), "c_{0,1} = M + L (2)")],
                     because="(6) is the α = 0 instance of C_α (0^0 = 1)"),
            ]),
            Case("alpha-1", [asm(sp.Eq(alpha, 1), "case α = 1")], [
                Chain("eq-7-pre", [
                    Step("self-bounding", eta * gnorm ** 2 - 2 * inner, "<=",
                         2 * eta * L * lw + 2 * l0 - 2 * lw, ALG,
                         given=[asm(sp.Le(gnorm ** 2, 2 * L * lw), "Lemma 19 at α = 1"),
                                asm(sp.Ge(inner, lw - l0), "convexity")]),
                    Step("eta-below-1-over-l", 2 * eta * L * lw + 2 * l0 - 2 * lw, "<=", 2 * l0, ALG),
                ]),
            ]),
            Case("alpha-open", [asm(sp.Gt(alpha, 0), "case α ∈ (0, 1)"),
                                asm(sp.Lt(alpha, 1), "case α ∈ (0, 1)")], [
                Step("young-identity", c_a1 ** 2 * Xin ** (2 * alpha / (1 + alpha)), "=",
                     (LAMBDA_Y * Xin) ** (2 * alpha / (1 + alpha))
                     * (c_a1 ** 2 * LAMBDA_Y ** (-2 * alpha / (1 + alpha))), ALG),
                Step("young", Yv ** (2 * alpha / (1 + alpha)) * Bv, "<=",
                     2 * alpha / (1 + alpha) * Yv + A_IN * Bv ** ((1 + alpha) / (1 - alpha)), SCA,
                     because="Young's inequality ab ≤ a^p/p + b^q/q, p = (1+α)/(2α), q = (1+α)/(1−α)"),
                Step("young-simplified",
                     2 * alpha / (1 + alpha) * LAMBDA_Y * Xin
                     + A_IN * (c_a1 ** 2 * LAMBDA_Y ** (-2 * alpha / (1 + alpha))) ** ((1 + alpha) / (1 - alpha)),
                     "=", 2 * Xin / eta + YOUNG_C * eta ** (2 * alpha / (1 - alpha)), ALG),
                Step("into-5", wnorm2 + eta ** 2 * gnorm ** 2 - 2 * eta * inner, "<=",
                     wnorm2 + YOUNG_C * eta ** (2 / (1 - alpha)) + 2 * l0 * eta, ALG,
                     given=[asm(sp.Le(gnorm ** 2, 2 * Xin / eta + YOUNG_C * eta ** (2 * alpha / (1 - alpha))),
                                "the display above (8)"),
                            asm(sp.Eq(Xin, inner + l0))],
                     because="putting the inequality into (5)"),
                Step("eta-below-1", YOUNG_C * eta ** (2 / (1 - alpha)) + 2 * l0 * eta, "<=",
                     (YOUNG_C + 2 * M0) * eta, SCA,
                     given=[asm(sp.Le(l0, M0), "M0 = sup_z l(0, z)")],
                     because="η < 1 and 2/(1 − α) ≥ 1"),
            ]),
        ]),
    ],
    note="The printed C_α = (1−α)/(1+α) c^{2(1+α)/(1−α)}(α/(1+α))^{2α/(1−α)} + 2 sup l(0; z) is the "
         "constant of (8) and of (6) (α = 0, 0^0 = 1); at α = 1 it is the undefined 0·∞ and the "
         "proof uses (7) (C = 2 sup l(0, z)) instead.",
)

LEMMA_21 = Result(
    f"{K}:lem-21", "Approximate non-expansiveness of the gradient map ([21], [17])",
    "Sec. 3.1, Lemma 21",
    hypotheses=[CONVEX, HOLDER, *ALPHA_RANGE, asm(sp.Le(eta, 2 / L), "η ≤ 2/L")],
    statement=[Step("statement", diff2_next, "<=",
                    diff2 + (1 - alpha) / (1 + alpha) * (2 ** (-alpha) * L) ** (2 / (1 - alpha))
                    * eta ** (2 / (1 - alpha)), CIT,
                    given=[asm(sp.Lt(alpha, 1), "the printed form needs α < 1")],
                    because="Lei and Ying (2020) for α ∈ [0, 1); Hardt et al. (2016) for α = 1 "
                            "(non-expansive)")])

NOISE_T = (1 + (8 / d * sp.log(4 / gamma)) ** sp.Rational(1, 4))
DSGD_UNB = DSGD

LEMMA_22 = Result(
    f"{K}:lem-22", "Error from the output noise", "Sec. 3.2, Lemma 22, eqs. (13)–(16)",
    hypotheses=[NONNEG, CONVEX, HOLDER, *ALPHA_RANGE, *STEP,
                asm(sp.Gt(gamma, 4 * sp.exp(-d / 8)), "γ ∈ (4 exp(−d/8), 1)"),
                asm(sp.Lt(gamma, 1), "γ < 1")],
    statement=[
        Step("part-a", R_priv - R_bar, "<=", c_O * (
            (T * eta) ** (alpha / 2) * sigma * sp.sqrt(d) * sp.log(1 / gamma) ** sp.Rational(1, 4)
            + sigma ** (1 + alpha) * d ** ((1 + alpha) / 2) * sp.log(1 / gamma) ** ((1 + alpha) / 4)),
             PRO,
             because="R(w_priv) − R(w̄) = O(…) w.p. ≥ 1 − γ/4 (W = R^d); O-form with a constant of "
                     "unstated dimension; the rows of the proof are the checkable content"),
        Step("part-b", R_priv - R_bar, "<=", c_O * (
            sigma * sp.sqrt(d) * sp.log(1 / gamma) ** sp.Rational(1, 4)
            + sigma ** (1 + alpha) * d ** ((1 + alpha) / 2) * sp.log(1 / gamma) ** ((1 + alpha) / 4)),
             PRO,
             because="R(w_priv) − R(w̄) = O(σ√d(log(1/γ))^{1/4} + σ^{1+α}d^{(1+α)/2}(log(1/γ))^{(1+α)/4}) "
                     "(W ⊆ B(0, R))"),
    ],
    proof=[
        Step("eq-13-holder", (M + L * (wbar + bnorm) ** alpha) * bnorm, "<=",
             (M + L * wbar ** alpha) * bnorm + L * bnorm ** (1 + alpha), SCA, eq="13",
             because="||w_priv||^α ≤ ||w̄||^α + ||b||^α (α ∈ [0, 1], w_priv = w̄ + b)"),
        Step("lemma-15-probability", sp.exp(-d * tch ** 2 / 8), "=", gamma / 4, ALG,
             given=[asm(sp.Eq(tch, sp.sqrt(8 * sp.log(4 / gamma) / d)), "t of (14)")],
             because="Lemma 15 with t = √(8 log(4/γ)/d) fails with probability γ/4"),
        Step("lemma-15-range", tch, "<", 1, ALG,
             given=[asm(sp.Eq(tch, sp.sqrt(8 * sp.log(4 / gamma) / d)), "t of (14)"),
                    asm(sp.Gt(gamma, sp.exp(-d / 8)), "the proof's 'γ ∈ (exp(−d/8), 1)'")],
             because="Lemma 15 needs t ∈ (0, 1); the proof states γ ∈ (exp(−d/8), 1) (the lemma's "
                     "range is 4 exp(−d/8))"),
        Step("eq-14", sigma * sp.sqrt(d * (1 + tch)), "<=", sigma * sp.sqrt(d) * (1 + sp.sqrt(tch)), SCA,
             eq="14", because="||b|| ≤ σ√(d(1 + t)) ≤ σ√d(1 + (8 log(4/γ)/d)^{1/4})"),
        Step("eq-15", wbar, "<=", sp.sqrt(C_a * T * eta), ALG, eq="15",
             given=[asm(sp.Le(wbar, sp.sqrt(C_a * (T - 1) * eta)),
                        "convexity of the norm and Lemma 20 (||w_t||² ≤ C_α(t − 1)η, t ≤ T)")]),
        Step("eq-16", wbar, "<=", R, ALG, eq="16", given=[asm(sp.Le(wbar, R), "w_t ∈ B(0, R)")]),
    ],
    rates=[hr.RATE_LEM_22A, hr.RATE_LEM_22B],
    note="Part statements are O-forms of random quantities, checked by their typed statements "
         "(rates: the output-noise risk F(w_priv) − F(w̄) simulated, its (1 − γ/4)-quantile "
         "followed along σ, d, γ, T, η); the proof rows carry the algebra.",
)

LEMMA_23 = Result(
    f"{K}:lem-23", "Generalisation error of SGD via UAS", "Sec. 3.2, Lemma 23, eqs. (17)–(18)",
    hypotheses=[NONNEG, CONVEX, HOLDER, *ALPHA_RANGE, *STEP,
                asm(sp.Gt(gamma, 4 * delta), "γ ∈ (4δ, 1)"), asm(sp.Lt(gamma, 1))],
    statement=[
        Step("part-a", gen_gap, "<=", c_O * (
            (T * eta) ** (alpha / 2) * DSGD_UNB * sp.log(n) * sp.log(1 / gamma)
            + (T * eta) ** ((1 + alpha) / 2) * sp.sqrt(n ** sp.Rational(-1, 2) * sp.log(1 / gamma))),
             PRO, given=[asm("W = R^d", "Lemma 23(a)")],
             because="w.p. ≥ 1 − γ/4, W = R^d, as printed (√(n^{−1/2} log(1/γ)); the proof ends "
                     "with √(log(1/γ)/n))"),
        Step("part-b", gen_gap, "<=", c_O * (DSGD_B * sp.log(n) * sp.log(1 / gamma)
                                            + sp.sqrt(n ** sp.Rational(-1, 2) * sp.log(1 / gamma))),
             PRO, because="w.p. ≥ 1 − γ/4, W ⊆ B(0, R), as printed (√(n^{−1/2} log(1/γ)); "
                          "the proof ends with √(log(1/γ)/n))"),
    ],
    proof=[
        Step("delta-below-gamma", delta / 2, "<=", gamma / 8, ALG,
             because="since γ ≥ 4δ, (17) holds with probability at least 1 − γ/8"),
    ],
    rates=[hr.RATE_LEM_23A, hr.RATE_LEM_23B],
    note="Δ_SGD(δ/2), Δ̃_SGD(δ/2) with c_{γ,T} at γ = δ/2; the typed statements measure the "
         "signed gap F(w̄) − F_S(w̄) of plain averaged SGD.",
)

LEMMA_24 = Result(
    f"{K}:lem-24", "Optimisation error of SGD", "Sec. 3.2, Lemma 24, eqs. (19)–(26)",
    hypotheses=[NONNEG, CONVEX, HOLDER, *ALPHA_RANGE, *STEP, *GAMMA],
    statement=[
        Step("part-a", RS_priv - RS_star, "<=", c_O * (
            eta ** ((1 + alpha) / 2) * T ** (alpha / 2) * sp.sqrt(sp.log(1 / gamma))
            + wstar ** (1 + alpha) * sp.sqrt(sp.log(1 / gamma) / T) + wstar ** 2 / (eta * T)
            + wstar ** (1 + alpha) * eta), PRO, given=[asm("W = R^d", "Lemma 24(a)")],
            because="R_S(w̄) − R_S(w*) = O(…) w.p. ≥ 1 − γ/4 (W = R^d)"),
        Step("part-b", RS_priv - RS_star, "<=", c_O * (
            wstar ** (1 + alpha) * sp.sqrt(sp.log(1 / gamma) / T) + wstar ** 2 / (eta * T)
            + wstar ** (1 + alpha) * eta), PRO,
            because="R_S(w̄) − R_S(w*) = O(…) w.p. ≥ 1 − γ/4 (W ⊆ B(0, R))"),
    ],
    rates=[hr.RATE_LEM_24A, hr.RATE_LEM_24B],
    proof=[
        Step("eq-20", lw, "<=", M0 + (M + L * wn ** alpha) * wn, ALG, eq="20",
             given=[asm(sp.Le(lw, M0 + inner), "convexity: l(w) ≤ sup l(0, z) + <∂l(w), w>"),
                    asm(sp.Le(inner, gnorm * wn), "Cauchy–Schwarz"),
                    asm(sp.Le(gnorm, M + L * wn ** alpha), "Hölder smoothness")]),
        Step("self-bounding-squared", gnorm ** 2, "<=", c_a1 * lw ** (2 * alpha / (1 + alpha)), ALG,
             given=[asm(sp.Le(gnorm, c_a1 * lw ** (alpha / (1 + alpha))), "Lemma 19"),
                    asm(sp.Gt(alpha, 0), "α ∈ (0, 1]")],
             because="the printed '||∂l||² ≤ c_{α,1} l^{2α/(1+α)}' (Lemma 19 squared gives c_{α,1}²)", origin="printed"),
        Step("rearrangement-denominator", c_a1 * eta / 2, "<", 1, SCA,
             given=[asm(sp.Eq(c_a1, C_A1_POS), "(2), α ∈ (0, 1]"), asm(sp.Gt(alpha, 0))],
             because="(25) divides by 1 − c_{α,1}η/2, which must be positive"),
    ],
)

LEMMA_25 = Result(
    f"{K}:lem-25", "Generalisation error of DP-SGD-Gradient", "Sec. 3.3, Lemma 25",
    hypotheses=[NONNEG, CONVEX, HOLDER, *ALPHA_RANGE, *STEP, *GAMMA],
    statement=[Step("statement", gen_gap, "<=", c_O * (DSGD_B * sp.log(n) * sp.log(1 / gamma)
                                                        + sp.sqrt(sp.log(1 / gamma) / n)), PRO,
                    because="w.p. ≥ 1 − γ/3 with Δ̃_SGD(γ/6): the noise is the same on S and S', "
                            "so the UAS of noisy SGD 'is equivalent to' that of SGD (Lemma 1)")],
    rates=[hr.RATE_LEM_25],
)

LEMMA_26 = Result(
    f"{K}:lem-26", "Optimisation error of DP-SGD-Gradient", "Sec. 3.3, Lemma 26",
    hypotheses=[NONNEG, CONVEX, HOLDER, *ALPHA_RANGE, *STEP,
                asm(sp.Gt(gamma, 18 * sp.exp(-d * T / 8)), "γ ∈ (18 exp(−dT/8), 1)"),
                asm(sp.Lt(gamma, 1))],
    statement=[Step("statement", RS_priv - RS_star, "<=", c_O * (
        wstar ** (1 + alpha) * sp.sqrt(sp.log(1 / gamma) / T) + wstar ** 2 / (T * eta) + eta
        + sp.sqrt(LOG_D * sp.log(1 / gamma)) * (wstar + eta) / (n * epsilon)
        + eta * T * d * LOG_D * sp.sqrt(sp.log(1 / gamma)) / (n ** 2 * epsilon ** 2)), PRO,
        because="w.p. ≥ 1 − γ/3; O-form")],
    rates=[hr.RATE_LEM_26],
)

LEMMA_27 = Result(
    f"{K}:lem-27", "Generalisation from UAS (deterministic sensitivity)", "Appendix, Lemma 27, eqs. (47)–(48)",
    hypotheses=[NONNEG, CONVEX, HOLDER, *ALPHA_RANGE, *GAMMA,
                asm(sp.Le(sup_delta, Delta_A), "sup_{S≃S'} δ_A(S, S') ≤ Δ_A"),
                asm(sp.Le(nA, G), "the output of A is bounded by G")],
    statement=[Step("statement", gen_gap, "<=", c_gen * (
        (M + L * G ** alpha) * Delta_A * sp.log(n) * sp.log(1 / gamma)
        + (M0 + (M + L * G ** alpha) * G) * sp.sqrt(sp.log(1 / gamma) / n)), CIT,
        because="w.p. ≥ 1 − γ: Bousquet, Klochkov, Zhivotovskiy (2019), Cor. 8 with (47)-(48)")],
    proof=[
        Chain("eq-47", [
            Step("convexity", lA, "<=", M0 + inner_A, CIT,
                 because="l(A(S), z) ≤ sup l(0, z) + <∂l(A(S), z), A(S)> (convexity)"),
            Step("cauchy-schwarz", M0 + inner_A, "<=", M0 + gA * nA, ALG,
                 given=[asm(sp.Le(inner_A, gA * nA), "Cauchy–Schwarz")]),
            Step("holder", M0 + gA * nA, "<=", M0 + (M + L * nA ** alpha) * nA, ALG,
                 given=[asm(sp.Le(gA, M + L * nA ** alpha), "Hölder smoothness")]),
            Step("bounded-output", M0 + (M + L * nA ** alpha) * nA, "<=", M0 + (M + L * G ** alpha) * G,
                 ALG, eq="47", given=[asm(sp.Le(nA ** alpha, G ** alpha), "||A(S)|| ≤ G, α ≥ 0")]),
        ]),
        Step("eq-48", (M + L * G ** alpha) * sup_delta, "<=", (M + L * G ** alpha) * Delta_A, ALG,
             eq="48", because="the bounded difference sup_z |l(A(S), z) − l(A(S'), z)| ≤ (M + LG^α)Δ_A"),
    ],
)

RESULTS = [LEMMA_14, LEMMA_15, LEMMA_16, LEMMA_17, LEMMA_18, LEMMA_19, LEMMA_20, LEMMA_21,
           LEMMA_22, LEMMA_23, LEMMA_24, LEMMA_25, LEMMA_26, LEMMA_27]

"""liang-aaai — privacy results, as printed in the AAAI version.

Liang, Zhang, He, Wu, Xing: *An Improved Privacy and Utility Analysis of Differentially
Private SGD with Bounded Domain and Smooth Losses* (AAAI 2026; file
001_b80854f0281a567d.txt).

Numbering of this version: the contraction-reduction lemma is Lemma A.1 (21); the
standard facts are Lemmas A.2–A.6 (22–26); W∞ is Definition A.7 (27), its equivalent
forms Lemma A.8, post-processing A.9 (28), convexity A.10 (29), composition A.11 (30),
the SGM Definition A.12 (31–32) and its bound Lemma A.13 (33).  Lemma 3.2's full
statement is Lemma B.1 (34)–(35), proved by (36)–(40); Theorem 3.3 = B.2 (41)–(42),
proof (43)–(46); Theorem 3.4 = B.3 (47)–(48), proof (49)–(55) with the β optimisation
(52)–(54).  The main text states Theorems 3.3/3.4 in O-form only (11)–(12).

Readings chosen:
- (40), second line, renders as "sup_v D_α(P_ψ(μ') ‖ P_{ν=v})"; read as the ICML (41)
  line sup_v D_α(P_{ψ(μ')|μ'=v} ‖ P_{ψ'(ν)|ν=v}).
- (53): β* = √(2αC²/(nbσ²)) / (√(2αC²/(nbσ²)) + √(α(1+ηL)²D²/(2η²σ²))), the square
  roots spanning the whole fractions (the LaTeX form is unambiguous).
- O(·) statements are encoded as ``D ≤ c_O · expr`` with c_O the hidden constant; the
  proof's last step to such a form carries the constant it needs as a hypothesis.
- Sec. 2.2 defines K = {θ : ‖θ‖ ≤ D} (a ball of radius D) while Algorithm 1 and the
  proof of Theorem 3.4 use D as K's diameter; the step ``diam-k`` records the clash.
"""
from __future__ import annotations

import sympy as sp

from theory.classes import BoundedDomain, Convex, Lipschitz, LSmooth
from theory.model import Bound, Chain, Result, Step, asm, with_given
from theory.papers.liang import common as lc
from theory.papers.liang import privacy as lp
from theory.papers.liang.numbering import AAAI
from theory.papers.liang.privacy import ALG, SCA
from theory.papers.liang.symbols import C, D, L, T, alpha, b, beta, eta, n, sigma_dp

V = AAAI  # the numbering table: theory/papers/liang/numbering.py

# --- the β optimisation of App. B.3, as printed -----------------------------------------
#: (52): g(β) = 2αC²/(βnbσ²) + α(1+ηL)²D²/(2η²σ²(1−β))
G_52 = (2 * alpha * C**2 / (beta * n * b * sigma_dp**2)
        + alpha * (1 + eta * L)**2 * D**2 / (2 * eta**2 * sigma_dp**2 * (1 - beta)))
_SA = sp.sqrt(2 * alpha * C**2 / (n * b * sigma_dp**2))
_SB = sp.sqrt(alpha * (1 + eta * L)**2 * D**2 / (2 * eta**2 * sigma_dp**2))
#: (53): β* = √A / (√A + √B)
BETA_STAR_53 = _SA / (_SA + _SB)
#: (54): g(β*) = (√A + √B)²
G_STAR_54 = (_SA + _SB)**2
#: (55) and (47)'s O-expressions (note the 2 in (55)'s denominator, absent from (47))
T_BAR_55 = (1 + eta * L)**2 * n * b * D**2 / (2 * eta**2 * C**2)
T_BAR_47 = (1 + eta * L)**2 * n * b * D**2 / (eta**2 * C**2)
T_BAR_48 = (1 + eta * L)**2 * n**2 * D**2 / (eta**2 * C**2)
U_GC = alpha * C**2 / (n * b * sigma_dp**2)


def theorem_3_4() -> Result:
    w = "Theorem 3.4"
    hyps = lp.theorem_3_4_hypotheses(w)
    p2 = lc.part2_hypotheses(f"{w}, second part")
    items = lp.theorem_3_4_common(V)
    st1 = lc.c_O * U_GC * sp.Min(T, T_BAR_47)
    st2 = lc.c_O * alpha * C**2 / (n**2 * sigma_dp**2) * sp.Min(T, T_BAR_48)
    rhs51 = lp.STEP_GC + lp.DOMAIN_COST
    bstar = BETA_STAR_53
    optimisation = [
        Step("eq-52", rhs51, "=", G_52, ALG, eq="52", because="definition of g(β)"),
        Step("eq-53", sp.diff(G_52, beta).subs(beta, bstar), "=", 0, ALG, eq="53",
           because="g'(β*) = 0 (setting g'(β) = 0)"),
        Step("beta-star-pos", bstar, ">", 0, ALG, eq="53", because="β* ∈ (0, 1)"),
        Step("beta-star-lt-1", bstar, "<", 1, ALG, eq="53", because="β* ∈ (0, 1)"),
        Step("eq-54", G_52.subs(beta, bstar), "=", G_STAR_54, ALG, eq="54",
           because="substituting β* into g"),
        Step("eq-54-min", G_52, ">=", G_STAR_54, SCA, eq="54",
           because="β* minimises g on (0, 1) (so g(β*) is the best bound of (51))"),
    ]
    eq55 = Step("eq-55", lc.D_last, "<=", lc.c_O * U_GC * sp.Min(T, T_BAR_55), SCA, eq="55",
              given=[asm(sp.Le(lc.D_last, 2 * alpha * C**2 * T / (beta * n * b * sigma_dp**2)),
                         "(46), the linear bound"),
                     asm(sp.Le(lc.D_last, G_STAR_54), "(54) at β = β*"),
                     asm(sp.Ge(lc.c_O, 4 / beta), "any constant of O(·) (here ≥ 4/β)")],
              because="'Combined with the linear bound in (46)'",
              note="(55) prints min{T, (1+ηL)²nbD²/(2η²C²)}; (47) has no 2 (immaterial "
                   "in O-form). (46) and (54) give at least min(2αC²T/(βnbσ²), 2αC²/(nbσ²)), "
                   "which does not vanish as D → 0 while the O-expression does: no "
                   "constant c_O makes this step follow. Confirmed by hand: at T = 3, "
                   "β = 1/2, α = 4, C = η = L = b = σ_DP = 1, n = 4, D = 1/4, (46) allows "
                   "12, (54) allows 4.5, while c_O·αC²/(nbσ²)·min{T, T̄'} = c_O/2 (T̄' = 1/2): "
                   "D_last = 4.25 violates it for c_O = 8.25, and T̄' → 0 as D → 0 defeats "
                   "any c_O. The statement (47) itself is a separate question (scenarios).")
    diam = Step("diam-k", lc.diam_K, "<=", D, ALG,
              given=[asm(sp.Eq(lc.diam_K, 2 * D), "Sec. 2.2: K = {θ : ‖θ‖ ≤ D}")],
              because="the proof needs W∞(P_θτ, P_θ'τ) ≤ z_τ = D, i.e. diam K ≤ D",
              note="Algorithm 1 calls D the diameter of K; Sec. 2.2 defines K as the ball of "
                   "radius D, whose diameter is 2D. A genuine inconsistency of the paper "
                   "(confirmed by hand: 2D ≤ D fails for every D > 0); with diameter 2D the "
                   "proof needs z_τ = 2D, which multiplies the D² term of (51) by 4")
    chain1 = Chain("part-1-proof", tuple(items["chain"]), concludes=None,
                   note="ends at (51); the O-form of (47) is reached by (52)–(55)")
    chain2 = Chain("part-2-proof", tuple(with_given(p2, [
        Step("part-2-omitted", lc.D_last, "<=", st2, lp.PRO,
           because="'The proof under additional assumptions is also omitted here.'",
           **lp.typed("part-2", constant="c_O"))])),
        concludes="part-2")
    return Result(
        "liang-aaai:thm-3.4", "Privacy guarantee for DPSGD-DC",
        "Sec. 3.1, eq. (12); full statement Theorem B.3 (47)–(48), proof App. B.3",
        hypotheses=hyps,
        statement=[Step("part-1", lc.D_last, "<=", st1, lp.PRO, eq="12",
                      because="proved in App. B.3", note="also (47); c_O the O(·) constant"),
                   Step("part-2", lc.D_last, "<=", st2, lp.PRO, given=p2, eq="48",
                      because="proof omitted in the paper")],
        proof=[diam, items["z-tau"], items["a-tau"], items["one-step"], chain1, items["min-tau"],
               *optimisation, eq55, chain2],
        bounds=[Bound("part-1", U_GC * sp.Min(T, T_BAR_47), mechanism=lp.DC,
                      problem_class=[LSmooth(L)], hypotheses=hyps, form="O", order=alpha),
                Bound("part-2", alpha * C**2 / (n**2 * sigma_dp**2) * sp.Min(T, T_BAR_48),
                      mechanism=lp.DC, problem_class=[LSmooth(L)], hypotheses=hyps + p2,
                      form="O", order=alpha),
                Bound("b3-explicit", lp.STEP_GC + lp.DOMAIN_COST, mechanism=lp.DC,
                      problem_class=[LSmooth(L)], hypotheses=hyps, form="explicit", order=alpha,
                      note="the explicit bound (51) the proof establishes on the way"),
                Bound("b3-optimised", G_STAR_54, mechanism=lp.DC, problem_class=[LSmooth(L)],
                      hypotheses=hyps, form="explicit", order=alpha,
                      note="g(β*) of (54)")],
    )


def table_1() -> Result:
    M = lc.M_lip
    smooth = asm(lp.SMOOTH, "Table 1")
    convex = asm(Convex(), "Table 1")
    lip = asm(Lipschitz(M), "Table 1")
    alt_h = [convex, smooth, lip, asm(sp.Le(eta, 2 / L), "Table 1"),
             asm(sp.Le(b, n / 5), "Table 1"),
             asm(sp.Gt(sigma_dp, 8 * sp.sqrt(2) * M / b), "Table 1"),
             lc.alpha_star_hypothesis(b / n, b * sigma_dp / (2 * sp.sqrt(2) * M), "Table 1")]
    return Result(
        "liang-aaai:tab-1", "Comparison of RDP guarantees (Table 1)", "Sec. 1.3",
        hypotheses=[asm(sp.Gt(alpha, 1), "Def. 2.3"), *lp.lc.beta_interval("Thm B.2")],
        proof=[Step("ours-unbounded-vs-thm-b.2", 2 * alpha * C**2 * T / (beta * n * b * sigma_dp**2),
                  "<=", lc.c_O * U_GC * T, ALG,
                  given=[asm(sp.Ge(lc.c_O, 2 / beta), "O(·) hides 2/β")],
                  because="liang-aaai:thm-3.3 (46)")],
        bounds=[
            Bound("feldman-2018", alpha * M**2 * T / (b**2 * sigma_dp**2), mechanism=lp.GC,
                  problem_class=[Convex(), LSmooth(L)],
                  hypotheses=[convex, smooth, lip, asm(sp.Le(eta, 2 / L), "Table 1")],
                  form="O", order=alpha,
                  note="Feldman et al. 2018; unbounded"),
            Bound("altschuler-talwar-2022",
                  alpha * M**2 / (n**2 * sigma_dp**2) * sp.Min(T, D * n / (eta * M)),
                  mechanism=lp.DC, problem_class=[Convex(), LSmooth(L)], hypotheses=alt_h,
                  form="O", order=alpha,
                  note="Altschuler & Talwar 2022; bounded"),
            Bound("ours-unbounded", U_GC * T, mechanism=lp.GC, problem_class=[LSmooth(L)],
                  hypotheses=[smooth], form="O", order=alpha),
            Bound("ours-bounded", U_GC * sp.Min(T, T_BAR_47), mechanism=lp.DC,
                  problem_class=[LSmooth(L)], hypotheses=[smooth], form="O", order=alpha),
        ],
        note="rows not encoded: Kong & Ribero 2024 (m-weakly convex: no loss class in the "
             "vocabulary), Chien & Li 2024 (no analytical form)",
    )


def theorem_3_4_fix() -> Result:
    """(55) repaired: the bounds (46) and (54) do give an O-form, with min{T, 2 + T̄}."""
    w = "Theorem 3.4 (repaired O-form)"
    hyps = lp.theorem_3_4_hypotheses(w)
    st = lc.c_O * U_GC * sp.Min(T, 2 + T_BAR_47)
    step = Step("eq-55", lc.D_last, "<=", st, SCA, eq="55",
              given=[asm(sp.Le(lc.D_last, 2 * alpha * C**2 * T / (beta * n * b * sigma_dp**2)),
                         "(46), the linear bound"),
                     asm(sp.Le(lc.D_last, G_STAR_54), "(54) at β = β*"),
                     asm(sp.Ge(lc.c_O, 2 / beta), "the constant 2/β")],
              because="(46) and (54): min(2uT/β, u(√2 + √T̄')²) ≤ (2/β)·u·min(T, 2 + T̄)")
    return Result(
        "liang-aaai:thm-3.4+fix", "Privacy guarantee for DPSGD-DC, O-form repaired",
        "App. B.3, (55)", hypotheses=hyps, variant_of="liang-aaai:thm-3.4",
        statement=[Step("part-1", lc.D_last, "<=", st, lp.PRO, because="(55) repaired")],
        proof=[Chain("part-1-proof", (step,), concludes="part-1")],
        bounds=[Bound("part-1", U_GC * sp.Min(T, 2 + T_BAR_47), mechanism=lp.DC,
                      problem_class=[LSmooth(L)], hypotheses=hyps, form="O", order=alpha)],
        note="changes min{T, T̄} of (47)/(55) to min{T, 2 + T̄}, T̄ = (1+ηL)²nbD²/(η²C²): the "
             "one-step term 2αC²/(βnbσ²) of (51) does not vanish as D → 0",
    )


E1_TRIVIAL = 2 * alpha * (D + eta * C / b)**2 / sigma_dp**2


def remark_e_1() -> list[Result]:
    hyps = [asm(sp.Gt(alpha, 1), "Def. 2.3"), asm(BoundedDomain(D), "App. E.1")]
    fixed = 2 * alpha * (D + eta * C / b)**2 / (eta**2 * sigma_dp**2)
    return [
        Result("liang-aaai:rem-e.1", "Trivial bound under a bounded domain (App. E.1)",
               "App. E.1", hypotheses=hyps,
               statement=[Step("statement", lc.D_last, "<=", E1_TRIVIAL, lp.PRO,
                             because="post-processing (Lemma A.9) and the Gaussian mechanism",
                             note="as printed: 2α(D + ηC/b)²/σ_DP²; the parameter noise is "
                                  "ησ_DP, so this is not dimensionless (see +fix)")],
               # labelled as the statement part it types, so that the part takes its
               # outcome (the engine matches typed statements to parts by label)
               bounds=[Bound("statement", E1_TRIVIAL, mechanism=lp.DC, problem_class=(),
                             hypotheses=hyps, form="explicit", order=alpha)]),
        Result("liang-aaai:rem-e.1+fix", "Trivial bound, dimensionally repaired", "App. E.1",
               hypotheses=hyps, variant_of="liang-aaai:rem-e.1",
               statement=[Step("statement", lc.D_last, "<=", fixed, lp.PRO,
                             because="post-processing and the Gaussian mechanism with noise "
                                     "ησ_DP in parameter space")],
               bounds=[Bound("statement", fixed, mechanism=lp.DC, problem_class=(),
                             hypotheses=hyps, form="explicit", order=alpha)],
               note="changes σ_DP² to η²σ_DP² (the last update adds ηζ_T, ζ_T ~ N(0, σ_DP² I))"),
    ]


_defs = lp.definitions(V)
RESULTS = [
    _defs[0], _defs[1], _defs[2], lp.lemma_2_4(V), _defs[3], lp.lemma_2_6(V),
    lp.lemma_3_2(V, "Sec. 3.1, eq. (10); full statement Lemma B.1 (34)–(35), proof App. B.1"),
    lp.theorem_3_3(V, "Sec. 3.1, eq. (11); full statement Theorem B.2 (41)–(42), proof App. B.2",
                   o_form=True),
    theorem_3_4(),
    theorem_3_4_fix(),
    table_1(),
    lp.contraction_reduction(V, "App. A.1, eq. (21)"),
    *lp.standard_facts(V, "App. A.2"),
    *lp.privacy_lemmas(V, "App. A.3"),
    *remark_e_1(),
]

"""liang-icml — privacy results, as printed in the ICML-format version.

Liang, Zhang, He, Wu, Xing: *An Improved Privacy and Utility Analysis of Differentially
Private SGD with Bounded Domain and Smooth Losses* (file 000_44d8e3677abe08fa.txt).

Numbering of this version: Lemma 2.7 is the contraction-reduction lemma; the standard
facts are Lemmas A.1–A.5 (eqs. 25–29); W∞ is Definition A.6, its equivalent forms
Lemma A.7, post-processing A.8 (31), convexity A.9 (32), composition A.10 (33), the SGM
Definition A.11 (34–35) and its bound Lemma A.12 (36).  The proof of Lemma 3.2 is
(37)–(41), of Theorem 3.3 (42)–(45), of Theorem 3.4 (46)–(48).  Theorems 3.3/3.4 state
explicit constants (12)–(15).

Readings chosen:
- Lemma A.4 (28) is rendered "≤ 2 2 + 2"; its LaTeX is a ≤ a²/(2b) + b/2, as AAAI A.5.
- Theorem 3.4 prints "the DPSGD-GC algorithm satisfies …" — read as DPSGD-DC (title,
  bounded domain D); recorded in the result's note.
- Table 1 ("Ours", bounded) prints O(α/σ²((1+ηL)²D²/η² + C²/(nb))), unlike the AAAI
  row; encoded as printed.
"""
from __future__ import annotations

from dataclasses import replace

import sympy as sp

from theory.classes import BoundedDomain, Convex, Lipschitz, LSmooth
from theory.model import Bound, Chain, Result, Step, asm, with_given
from theory.papers.liang import common as lc
from theory.papers.liang import privacy as lp
from theory.papers.liang.numbering import ICML
from theory.papers.liang.privacy import ALG
from theory.papers.liang.symbols import C, D, L, T, alpha, b, beta, eta, n, sigma_dp

V = ICML  # the numbering table: theory/papers/liang/numbering.py


def theorem_3_3() -> Result:
    """Theorem 3.3 (explicit (12)–(13)) plus the one-step check of (12) in the remove order."""
    r = lp.theorem_3_3(V, "Sec. 3.1, eqs. (12)–(13); proof App. B.2", o_form=False)
    check = Step("other-order-t1", lp.other_order_lower(1), "<=",
               2 * alpha * C**2 * T / (beta * n * b * sigma_dp**2), lp.SCA,
               given=[asm(sp.Eq(T, 1), "one iteration")],
               because="(12) at T = 1 for D' = D \\ {x}: θ₁ = θ₀ − η(g + ζ₀), noise η²σ_DP²",
               note="as liang-icml:lem-3.2/other-order with the full noise (β + (1−β) = 1): "
                    + lp.other_order_note(V))
    return replace(r, proof=r.proof + (check,))


def theorem_3_4() -> Result:
    w = "Theorem 3.4"
    hyps = lp.theorem_3_4_hypotheses(w)
    p2 = lc.part2_hypotheses(f"{w}, second part")
    items = lp.theorem_3_4_common(V)
    rhs1 = lp.STEP_GC + lp.DOMAIN_COST
    rhs2 = lp.STEP_GC2 + lp.DOMAIN_COST
    chain1 = Chain("part-1-proof", tuple(items["chain"]), concludes="part-1")
    chain2 = Chain("part-2-proof", tuple(with_given(p2, [
        Step("part-2-omitted", lc.D_last, "<=", rhs2, lp.PRO,
           because="as (46)–(48) with Lemma 3.2 part 2 (the paper omits this proof)",
           **lp.typed("part-2"))])),
        concludes="part-2")
    return Result(
        "liang-icml:thm-3.4", "Privacy guarantee for DPSGD-DC", "Sec. 3.1; proof App. B.3",
        hypotheses=hyps,
        statement=[Step("part-1", lc.D_last, "<=", rhs1, lp.PRO, eq="14", because="proved below"),
                   Step("part-2", lc.D_last, "<=", rhs2, lp.PRO, given=p2, eq="15",
                      because="proof omitted in the paper")],
        proof=[items["z-tau"], items["a-tau"], items["one-step"], chain1, items["min-tau"], chain2],
        bounds=[Bound("part-1", rhs1, mechanism=lp.DC, problem_class=[LSmooth(L)],
                      hypotheses=hyps, form="explicit", order=alpha,
                      note="holds for every T ≥ 1"),
                Bound("part-2", rhs2, mechanism=lp.DC, problem_class=[LSmooth(L)],
                      hypotheses=hyps + p2, form="explicit", order=alpha)],
        note="the statement prints 'the DPSGD-GC algorithm'; read as DPSGD-DC (typo)",
    )


def table_1() -> Result:
    M = lc.M_lip
    u = alpha * C**2 / (n * b * sigma_dp**2)
    smooth = asm(lp.SMOOTH, "Table 1")
    convex = asm(Convex(), "Table 1")
    alt_h = [convex, smooth, asm(Lipschitz(M), "Table 1"),
             asm(sp.Le(eta, 2 / L), "Table 1"), asm(sp.Le(b, n / 5), "Table 1"),
             asm(sp.Gt(sigma_dp, 8 * sp.sqrt(2) * M / b), "Table 1"),
             lc.alpha_star_hypothesis(b / n, b * sigma_dp / (2 * sp.sqrt(2) * M), "Table 1")]
    ours_bounded = alpha / sigma_dp**2 * ((1 + eta * L)**2 * D**2 / eta**2 + C**2 / (n * b))
    return Result(
        "liang-icml:tab-1", "Comparison of RDP guarantees (Table 1)", "Sec. 1",
        hypotheses=[asm(sp.Gt(alpha, 1), "Def. 2.3"), *lc.beta_interval("Thm 3.3/3.4")],
        proof=[
            Step("ours-unbounded-vs-thm-3.3", 2 * alpha * C**2 * T / (beta * n * b * sigma_dp**2),
               "<=", lc.c_O * u * T, ALG,
               given=[asm(sp.Ge(lc.c_O, 2 / beta), "O(·) hides 2/β")],
               because="liang-icml:thm-3.3 (12)"),
            Step("ours-bounded-vs-thm-3.4", lp.STEP_GC + lp.DOMAIN_COST, "<=",
               lc.c_O * ours_bounded, ALG,
               given=[asm(sp.Ge(lc.c_O, 2 / beta + 1 / (2 * (1 - beta))),
                          "O(·) hides max(2/β, 1/(2(1−β)))")],
               because="liang-icml:thm-3.4 (14)"),
        ],
        bounds=[
            Bound("feldman-2018", alpha * C**2 * T / (b**2 * sigma_dp**2), mechanism=lp.GC,
                  problem_class=[Convex(), LSmooth(L)], hypotheses=[convex, smooth], form="O",
                  order=alpha, note="Feldman et al. 2018; unbounded"),
            Bound("altschuler-talwar-2022",
                  alpha * M**2 / (n**2 * sigma_dp**2) * sp.Min(T, D * n / (eta * M)),
                  mechanism=lp.DC, problem_class=[Convex(), LSmooth(L)], hypotheses=alt_h,
                  form="O", order=alpha,
                  note="Altschuler & Talwar 2022; bounded; M the Lipschitz constant"),
            Bound("ours-unbounded", u * T, mechanism=lp.GC, problem_class=[LSmooth(L)],
                  hypotheses=[smooth], form="O", order=alpha),
            Bound("ours-bounded", ours_bounded, mechanism=lp.DC, problem_class=[LSmooth(L)],
                  hypotheses=[smooth], form="O", order=alpha),
        ],
        note="rows not encoded: Kong & Ribero 2024 (m-weakly convex: no loss class in the "
             "vocabulary), Chien & Li 2024 (no analytical form)",
    )


RESULTS = [
    lp.definitions(V)[0], lp.definitions(V)[1], lp.definitions(V)[2], lp.lemma_2_4(V),
    lp.definitions(V)[3], lp.lemma_2_6(V),
    lp.contraction_reduction(V, "Sec. 2.1, eq. (6)"),
    lp.lemma_3_2(V, "Sec. 3.1, eqs. (10)–(11); proof App. B.1"),
    theorem_3_3(),
    theorem_3_4(),
    table_1(),
    *lp.standard_facts(V, "App. A.1"),
    *lp.privacy_lemmas(V, "App. A.2"),
]

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

import sympy as sp

from theory.model import Bound, Chain, Result, asm
from theory.papers import liang_common as lc
from theory.papers import liang_privacy as lp
from theory.papers.liang_privacy import ALG, LE, Numbering, _s, _with
from theory.symbols import C, D, L, T, alpha, b, beta, eta, n, sigma_dp

V = Numbering(
    paper="liang-icml",
    ids={"def-2.5": "def-2.5", "lem-2.6": "lem-2.6", "lem-3.2": "lem-3.2",
         "winf": "def-a.6", "weq": "lem-a.7", "post": "lem-a.8", "conv": "lem-a.9",
         "comp": "lem-a.10", "sgm-def": "def-a.11", "sgm": "lem-a.12"},
    eqs={"2.6": "5", "contraction": "6", "winf": "30", "post": "31", "conv": "32",
         "comp": "33", "sgm-def": "35", "sgm": "36",
         "3.2-1": "10", "3.2-2": "11", "36": "37", "37": "38", "38": "39", "39": "40",
         "40": "41",
         "3.3-1": "12", "3.3-2": "13", "43": "42", "44": "43", "45": "44", "46": "45",
         "3.4-1": "14", "3.4-2": "15", "49": "46", "50": "47", "51": "48"},
)


def theorem_3_3() -> Result:
    """Theorem 3.3 (explicit (12)–(13)) plus the one-step check of (12) in the remove order."""
    r = lp.theorem_3_3(V, "Sec. 3.1, eqs. (12)–(13); proof App. B.2", o_form=False)
    check = _s("other-order-t1", lp.other_order_lower(1), LE,
               2 * alpha * C**2 * T / (beta * n * b * sigma_dp**2), lp.SCA,
               given=[asm(sp.Eq(T, 1), "one iteration")],
               because="(12) at T = 1 for D' = D \\ {x}: θ₁ = θ₀ − η(g + ζ₀), noise η²σ_DP²",
               note="as liang-icml:lem-3.2/other-order with the full noise (β + (1−β) = 1): "
                    + lp.OTHER_ORDER_NOTE)
    return Result(r.id, r.title, r.where, hypotheses=r.hypotheses, statement=r.statement,
                  proof=r.proof + (check,), bounds=r.bounds, note=r.note)


def theorem_3_4() -> Result:
    w = "Theorem 3.4"
    hyps = lp.theorem_3_4_hypotheses(w)
    p2 = lc.part2_hypotheses(f"{w}, second part")
    items = lp.theorem_3_4_common(V)
    rhs1 = lp.STEP_GC + lp.DOMAIN_COST
    rhs2 = lp.STEP_GC2 + lp.DOMAIN_COST
    chain1 = Chain("part-1-proof", tuple(items["chain"]), concludes="part-1")
    chain2 = Chain("part-2-proof", tuple(_with(p2, [
        _s("part-2-omitted", lc.D_last, LE, rhs2, lp.PRO,
           because="as (46)–(48) with Lemma 3.2 part 2 (the paper omits this proof)")])),
        concludes="part-2")
    return Result(
        "liang-icml:thm-3.4", "Privacy guarantee for DPSGD-DC", "Sec. 3.1; proof App. B.3",
        hypotheses=hyps,
        statement=[_s("part-1", lc.D_last, LE, rhs1, lp.PRO, eq="14", because="proved below"),
                   _s("part-2", lc.D_last, LE, rhs2, lp.PRO, given=p2, eq="15",
                      because="proof omitted in the paper")],
        proof=[items["z-tau"], items["a-tau"], items["49"], chain1, items["min-tau"], chain2],
        bounds=[Bound("part-1", rhs1, algorithm="DPSGD-DC", loss_class="L-smooth",
                      hypotheses=hyps, form="explicit", order=alpha, mechanism="last-iterate",
                      note="holds for every T ≥ 1"),
                Bound("part-2", rhs2, algorithm="DPSGD-DC", loss_class="L-smooth",
                      hypotheses=hyps + p2, form="explicit", order=alpha,
                      mechanism="last-iterate")],
        note="the statement prints 'the DPSGD-GC algorithm'; read as DPSGD-DC (typo)",
    )


def table_1() -> Result:
    M = lc.M_lip
    u = alpha * C**2 / (n * b * sigma_dp**2)
    smooth = asm(lp.SMOOTH, "Table 1")
    convex = asm("the loss is convex", "Table 1")
    alt_h = [convex, smooth, asm("the loss is M-Lipschitz", "Table 1"),
             asm(sp.Le(eta, 2 / L), "Table 1"), asm(sp.Le(b, n / 5), "Table 1"),
             asm(sp.Gt(sigma_dp, 8 * sp.sqrt(2) * M / b), "Table 1"),
             lc.alpha_star_hypothesis(b / n, b * sigma_dp / (2 * sp.sqrt(2) * M), "Table 1")]
    ours_bounded = alpha / sigma_dp**2 * ((1 + eta * L)**2 * D**2 / eta**2 + C**2 / (n * b))
    return Result(
        "liang-icml:tab-1", "Comparison of RDP guarantees (Table 1)", "Sec. 1",
        hypotheses=[asm(sp.Gt(alpha, 1), "Def. 2.3"), *lc.beta_interval("Thm 3.3/3.4")],
        proof=[
            _s("ours-unbounded-vs-thm-3.3", 2 * alpha * C**2 * T / (beta * n * b * sigma_dp**2),
               LE, lc.c_O * u * T, ALG,
               given=[asm(sp.Ge(lc.c_O, 2 / beta), "O(·) hides 2/β")],
               because="liang-icml:thm-3.3 (12)"),
            _s("ours-bounded-vs-thm-3.4", lp.STEP_GC + lp.DOMAIN_COST, LE,
               lc.c_O * ours_bounded, ALG,
               given=[asm(sp.Ge(lc.c_O, 2 / beta + 1 / (2 * (1 - beta))),
                          "O(·) hides max(2/β, 1/(2(1−β)))")],
               because="liang-icml:thm-3.4 (14)"),
        ],
        bounds=[
            Bound("feldman-2018", alpha * C**2 * T / (b**2 * sigma_dp**2), algorithm="DPSGD-GC",
                  loss_class="convex-L-smooth", hypotheses=[convex, smooth], form="O",
                  order=alpha, mechanism="last-iterate", note="Feldman et al. 2018; unbounded"),
            Bound("altschuler-talwar-2022",
                  alpha * M**2 / (n**2 * sigma_dp**2) * sp.Min(T, D * n / (eta * M)),
                  algorithm="DPSGD-DC", loss_class="convex-L-smooth", hypotheses=alt_h,
                  form="O", order=alpha, mechanism="last-iterate",
                  note="Altschuler & Talwar 2022; bounded; M the Lipschitz constant"),
            Bound("ours-unbounded", u * T, algorithm="DPSGD-GC", loss_class="L-smooth",
                  hypotheses=[smooth], form="O", order=alpha, mechanism="last-iterate"),
            Bound("ours-bounded", ours_bounded, algorithm="DPSGD-DC", loss_class="L-smooth",
                  hypotheses=[smooth], form="O", order=alpha, mechanism="last-iterate"),
        ],
        note="rows not encoded: Kong & Ribero 2024 (m-weakly convex: no loss class in the "
             "vocabulary), Chien & Li 2024 (no analytical form)",
    )


RESULTS = [
    lp.definitions(V)[0], lp.definitions(V)[1], lp.definitions(V)[2], lp.lemma_2_4(V),
    lp.definitions(V)[3], lp.lemma_2_6(V),
    lp.contraction_reduction(V, "lem-2.7", "Sec. 2.1, eq. (6)"),
    lp.lemma_3_2(V, "Sec. 3.1, eqs. (10)–(11); proof App. B.1"),
    theorem_3_3(),
    theorem_3_4(),
    table_1(),
    *lp.standard_facts(V, ("a.1", "a.2", "a.3", "a.4", "a.5"), ("25", "26", "27", "28", "29"),
                       "App. A.1"),
    *lp.privacy_lemmas(V, "App. A.2"),
]

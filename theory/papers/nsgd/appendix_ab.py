"""Appendices A and B of the nsgd paper (004_a52a5530363ebbda.txt, lines 402-566):
Assumption A.1 (the assumption of previous work), Lemmas B.1-B.5 and Remark B.1.

Rows about expectations E_k over the gradient noise use stand-in symbols (``E_*``) and
the ``worst-case`` oracle over the 2-D reduction of :mod:`.common` (exact worst case over
finitely supported noise laws with E[e] = 0 and ‖e‖ ≤ τ0 + τ1‖∇f‖, an LP).  Pointwise
facts (Cauchy–Schwarz, bounds on h_k) are SCALAR rows in s = ‖∇f‖, e_n, ip.

Readings: in (17) the rendering prints "r + τ0 + (1 + τ1)" with "‖∇f(x_k)‖" outside the
fraction; we read the denominator r + τ0 + (1 + τ1)‖∇f(x_k)‖ (the next line's value).
Lemma B.3 states no relation between r and τ0 (Theorem 3.2 later assumes r > τ0); the
lemma is checked as printed, under Assumption 2.2 and 0 < α < 1 only.
"""
from __future__ import annotations

import sympy as sp

from theory.classes import GeneralizedSmooth
from theory.model import Case, CaseSplit, Chain, Result, Step, StepKind, asm
from theory.papers.nsgd.common import (ALPHA_01, ASM_22, GN, PHI_H, PHI_HG, PHI_HIP, PHIB_H,
                                       PHIB_HG, G2D, POINT, law)
from theory.papers.nsgd.symbols import (B, E_fg, E_h, E_hg, E_hg2, E_hip, E_ig, E_sum2,
                                        Eb_cK, Eb_h, Eb_hg, Eb_hg2, Emv, Emvb, G, L, L0, L1,
                                        a_, alpha, c, d, dF, eta, etab, en, gn, ip, r, s,
                                        sigma, tau0, tau1, v1, v2)

ALG, SCA, PRO, CIT = StepKind.ALGEBRA, StepKind.SCALAR, StepKind.PROBABILISTIC, StepKind.CITED
WC = "worst-case"

ASM_A_1 = Result(
    "nsgd:asm-a.1", "Previous assumption for non-convex DP ERM", "App. A, Assumption A.1",
    hypotheses=[asm(sp.Gt(L, 0), "L > 0"), asm(sp.Gt(G, 0), "G > 0")],
    note="For every ξ, x ↦ ℓ(x, ξ) is L-smooth and G-Lipschitz.  The paper: Assumption 2.2 "
         "with τ0 = 2G, τ1 = 0 covers it (‖∇ℓ − ∇f‖ ≤ ‖∇ℓ‖ + ‖∇f‖ ≤ 2G).")

LEM_B_1 = Result(
    "nsgd:lem-b.1", "Descent lemma for (L0, L1)-smooth functions (Jin et al. 2021, Lemma C.4)",
    "App. B, Lemma B.1",
    hypotheses=[asm(GeneralizedSmooth(L0, L1), "Lemma B.1")],
    statement=[Step("statement", -dF, "<=", -eta * E_hg + (L0 + L1 * s) / 2 * Emv, CIT,
                    because="Jin et al. (2021), Lemma C.4: f(x⁺) ≤ f(x) + ⟨∇f(x), x⁺ − x⟩ + "
                            "(L0 + L1‖∇f(x)‖)/2 ‖x⁺ − x‖², here at x⁺ = x_{k+1} in expectation",
                    note="printed for any x, x⁺ (and 'f : R^d → R^d', read R^d → R)")])

#: the right side of (12)
RHS_12 = -eta * E_hg + (L0 + L1 * s) / 2 * eta**2 * (d * sigma**2 + E_hg2)
RHS_19 = -etab * Eb_hg + (L0 + L1 * s) / 2 * etab**2 * (d * c**2 * sigma**2 + Eb_hg2)

LEM_B_2 = Result(
    "nsgd:lem-b.2", "One-step descent of DP-NSGD", "App. B, Lemma B.2, eqs. (12)-(14)",
    hypotheses=[asm(GeneralizedSmooth(L0, L1), "Assumption 2.1")],
    statement=[Step("statement", -dF, "<=", RHS_12, PRO, eq="12",
                    note="E_k[f(x_{k+1})] − f(x_k) ≤ −ηE_k⟨h_k∇f, g_k⟩ + (L0 + L1‖∇f‖)/2 "
                         "η²(dσ² + E_k‖h_kg_k‖²)")],
    proof=[
        Chain("eq-14", [
            Step("eq-14-a", Emv, "=", eta**2 * d * sigma**2 + eta**2 / B**2 * E_sum2, ALG, eq="14",
                 given=[asm(sp.Eq(Emv, eta**2 * d * sigma**2 + eta**2 / B**2 * E_sum2),
                            "z_k ~ N(0, σ²I) independent of the batch, E‖z_k‖² = dσ²")]),
            Step("eq-14-b", eta**2 * d * sigma**2 + eta**2 / B**2 * E_sum2, "<=",
                 eta**2 * (d * sigma**2 + E_hg2), ALG, eq="14",
                 given=[asm(sp.Le(E_sum2, B**2 * E_hg2),
                            "Cauchy–Schwarz ‖Σ_{i∈S_k} h⁽ⁱ⁾g⁽ⁱ⁾‖² ≤ B Σ ‖h⁽ⁱ⁾g⁽ⁱ⁾‖², each "
                            "term with the law of h_kg_k")])]),
        Step("cauchy-schwarz", (v1 + v2)**2, "<=", 2 * (v1**2 + v2**2), SCA,
             note="‖Σ_{i∈S} v_i‖² ≤ B Σ‖v_i‖², at B = 2 on the line"),
        Chain("plug", [
            Step("lemma-b1", -dF, "<=", -eta * E_hg + (L0 + L1 * s) / 2 * Emv, CIT, eq="13",
                 because="Lemma B.1 at x⁺ = x_{k+1}, in expectation; (13): "
                         "E_k⟨∇f, x_k − x_{k+1}⟩ = ηE_k⟨h_k∇f, g_k⟩ (E z_k = 0, the B "
                         "summands identically distributed)"),
            Step("plug-14", -eta * E_hg + (L0 + L1 * s) / 2 * Emv, "<=", RHS_12, ALG,
                 given=[asm(sp.Le(Emv, eta**2 * (d * sigma**2 + E_hg2)), "(14)")])],
            concludes="statement"),
    ])

REM_B_1 = Result(
    "nsgd:rem-b.1", "The batch size does not enter the expected bound", "App. B, Remark B.1",
    statement=[Step("statement", sp.diff(RHS_12, B), "=", 0, ALG,
                    note="the right side of (12) does not depend on B (per-sample normalisation); "
                         "B may still matter for high-probability bounds")])

# ---- Lemma B.3 ------------------------------------------------------------------------------
_K = r + tau0 + (1 + tau1) * s
A1 = (tau0 / (r * (1 - tau1) + 2 * tau0) - alpha / (1 - tau1)) * s
A2 = (1 - alpha) * (1 - tau1) / (r * (1 - tau1) + 2 * tau0) * s**2 \
    - 4 * tau0**3 / (r * (r + tau0) * (1 - tau1)**3)
FIRST = eta * E_hg - eta * alpha * E_h * s**2          # (15)
HIGH = asm(sp.Ge(s, tau0 / (1 - tau1)), "‖∇f(x_k)‖ ≥ τ0/(1 − τ1)")
LOW = asm(sp.Lt(s, tau0 / (1 - tau1)), "‖∇f(x_k)‖ < τ0/(1 − τ1)")
LAW_B3 = law({"E_hg": PHI_HG, "E_h": PHI_H})
LAW_B3_IP = law({"E_hg": PHI_HG, "E_h": PHI_H, "E_hip": PHI_HIP})

LEM_B_3 = Result(
    "nsgd:lem-b.3", "Lower bound of the first-order terms for normalising",
    "App. B, Lemma B.3, eqs. (15)-(18)",
    hypotheses=[*ASM_22, *ALPHA_01],
    statement=[
        Step("part-1", FIRST, ">=", eta * A1, PRO, eq="16", given=[HIGH], oracle=WC,
             oracle_args=LAW_B3,
             note="ηE⟨h∇f, g⟩ − ηαE[h]‖∇f‖² ≥ ηA(‖∇f‖), first branch of (16)"),
        Step("part-2", FIRST, ">=", eta * A2, PRO, eq="16", given=[LOW], oracle=WC,
             oracle_args=LAW_B3, note="second branch of (16)"),
    ],
    proof=[CaseSplit("range", [
        Case("case-1", [HIGH], [
            Chain("inner-product", [
                Step("ip-a", s**2 + ip, ">=", (1 - tau1) * s**2 - tau0 * s, SCA, given=POINT),
                Step("ip-b", (1 - tau1) * s**2 - tau0 * s, ">=", 0, SCA)],
                note="⟨∇f, g⟩ = ‖∇f‖² + ⟨∇f, g − ∇f⟩ ≥ (1 − τ1)‖∇f‖² − τ0‖∇f‖ ≥ 0"),
            Chain("eq-17", [
                Step("eq-17-a", FIRST, ">=", eta * E_fg / _K - alpha / (1 - tau1) * eta * s, PRO,
                     eq="17", oracle=WC,
                     oracle_args=law({"E_hg": PHI_HG, "E_h": PHI_H, "E_fg": s**2 + s * a_})),
                Step("eq-17-b", eta * E_fg / _K - alpha / (1 - tau1) * eta * s, "=",
                     eta * s**2 / _K - alpha / (1 - tau1) * eta * s, PRO, eq="17", oracle=WC,
                     oracle_args=law({"E_fg": s**2 + s * a_})),
                Step("eq-17-c", eta * s**2 / _K - alpha / (1 - tau1) * eta * s, ">=", eta * A1,
                     SCA, eq="17")],
                concludes="part-1"),
        ]),
        Case("case-2", [LOW], [
            Step("noise-bound", tau0 + tau1 * s, "<=", tau0 / (1 - tau1), SCA,
                 note="‖g_k − ∇f‖ ≤ τ0 + τ1‖∇f‖ ≤ τ0/(1 − τ1)"),
            Chain("h-lower", [
                Step("h-lower-a", 1 / (r + GN), ">=", 1 / _K, SCA, given=POINT),
                Step("h-lower-b", 1 / _K, ">=", (1 - tau1) / (r * (1 - tau1) + 2 * tau0), SCA)]),
            Step("split", ip / (r + gn), "=",
                 ip / _K + ((1 + tau1) * s + tau0 - gn) * ip / ((r + gn) * _K), ALG,
                 note="the decomposition of E[η⟨∇f, g − ∇f⟩/(r + ‖g‖)], pointwise"),
            Step("hip-lower", eta * E_hip, ">=", -eta * 4 * tau0**3 / (r * (r + tau0) * (1 - tau1)**3),
                 PRO, oracle=WC, oracle_args=law({"E_hip": PHI_HIP}),
                 note="E[η⟨∇f, g − ∇f⟩/(r + ‖g‖)] ≥ −η4τ0³/(r(r + τ0)(1 − τ1)³)"),
            Chain("eq-18", [
                Step("eq-18-a", FIRST, "=", (1 - alpha) * eta * E_h * s**2 + eta * E_hip, PRO,
                     oracle=WC, oracle_args=LAW_B3_IP),
                Step("eq-18-b", (1 - alpha) * eta * E_h * s**2 + eta * E_hip, ">=", eta * A2, PRO,
                     eq="18", oracle=WC, oracle_args=law({"E_h": PHI_H, "E_hip": PHI_HIP}))],
                concludes="part-2"),
        ]),
    ])])

LEM_B_4 = Result(
    "nsgd:lem-b.4", "One-step descent of DP-SGD", "App. B, Lemma B.4, eq. (19)",
    hypotheses=[asm(GeneralizedSmooth(L0, L1), "Assumption 2.1")],
    statement=[Step("statement", -dF, "<=", RHS_19, PRO, eq="19",
                    note="printed 'without proof' ('we mimic the proof of Lemma B.2'); no "
                         "oracle evaluates the descent of f itself")])

# ---- Lemma B.5 ------------------------------------------------------------------------------
_KC = c + tau0 + (1 + tau1) * s
B1 = (tau0 * c / (c * (1 - tau1) + 2 * tau0) - alpha / (1 - tau1)) * s
B2 = (1 - alpha) * s**2
FIRST_B = etab * Eb_hg - etab * alpha * Eb_h * s**2
LAW_B5 = law({"Eb_hg": PHIB_HG, "Eb_h": PHIB_H})
C_B5 = asm(sp.Ge(c, 2 * tau0 / (1 - tau1)), "Lemma B.5: c ≥ 2τ0/(1 − τ1)")

LEM_B_5 = Result(
    "nsgd:lem-b.5", "Lower bound of the first-order terms for clipping", "App. B, Lemma B.5, eq. (20)",
    hypotheses=[*ASM_22, *ALPHA_01, C_B5],
    statement=[
        Step("part-1", FIRST_B, ">=", etab * B1, PRO, eq="20", given=[HIGH], oracle=WC,
             oracle_args=LAW_B5, note="first branch of (20)"),
        Step("part-2", FIRST_B, ">=", etab * B2, PRO, eq="20", given=[LOW], oracle=WC,
             oracle_args=LAW_B5, note="second branch of (20)"),
    ],
    proof=[
        Step("clip-lower", sp.Min(1, c / gn), ">=", c / (c + gn), SCA, given=[asm(sp.Gt(gn, 0), "g ≠ 0")],
             note="h̄_k = min{1, c/‖g_k‖} ≥ c/(c + ‖g_k‖)"),
        CaseSplit("range", [
            Case("case-1", [HIGH], [
                Chain("chain", [
                    Step("chain-1", FIRST_B, ">=", etab * Eb_cK - etab * alpha * E_ig * s**2, PRO,
                         oracle=WC, oracle_args=law({"Eb_hg": PHIB_HG, "Eb_h": PHIB_H,
                                                     "Eb_cK": c * (s**2 + s * a_) / (c + G2D),
                                                     "E_ig": 1 / G2D})),
                    Step("chain-2", etab * Eb_cK - etab * alpha * E_ig * s**2, ">=",
                         etab * c * E_fg / _KC - alpha / (1 - tau1) * etab * s, PRO, oracle=WC,
                         oracle_args=law({"Eb_cK": c * (s**2 + s * a_) / (c + G2D),
                                          "E_ig": 1 / G2D, "E_fg": s**2 + s * a_})),
                    Step("chain-3", etab * c * E_fg / _KC - alpha / (1 - tau1) * etab * s, "=",
                         etab * c * s**2 / _KC - alpha / (1 - tau1) * etab * s, PRO, oracle=WC,
                         oracle_args=law({"E_fg": s**2 + s * a_})),
                    Step("chain-4", etab * c * s**2 / _KC - alpha / (1 - tau1) * etab * s, ">=",
                         etab * B1, SCA)],
                    concludes="part-1"),
            ]),
            Case("case-2", [LOW], [
                Step("threshold", tau0 / (1 - tau1), "<=", (c - tau0) / (1 + tau1), SCA,
                     note="τ0/(1 − τ1) ≤ (c − τ0)/(1 + τ1) by c ≥ 2τ0/(1 − τ1)"),
                Step("no-clipping", tau0 + (1 + tau1) * s, "<=", c, SCA,
                     note="‖g_k‖ ≤ τ0 + (1 + τ1)‖∇f‖ ≤ c, so h̄_k = 1"),
                Chain("equality", [
                    Step("equality-1", FIRST_B, "=", (1 - alpha) * etab * s**2, PRO, oracle=WC,
                         oracle_args=LAW_B5),
                    Step("equality-2", (1 - alpha) * etab * s**2, ">=", etab * B2, ALG)],
                    concludes="part-2"),
            ]),
        ]),
    ])

RESULTS = [ASM_A_1, LEM_B_1, LEM_B_2, REM_B_1, LEM_B_3, LEM_B_4, LEM_B_5]

"""Appendix D of the nsgd paper (004_a52a5530363ebbda.txt, lines 760-860): the
decomposition (32), Lemma D.1 ((33)-(37)), α0 (38), Lemmas D.2-D.3 and the proofs of
Theorem 3.4 (D.2, eqs. (39)-(42)) and Corollary 3.5.

Readings and encoding choices, as in App. C: (34)-(37) are pointwise in g_k with
h̄_k = min{1, c/‖g_k‖}; (39) prints η²(X + Y η²) (an η⁴); (42) is checked branch by branch
(|U| ≥ T/2 or |U^c| ≥ T/2).  The per-case lines after (39) carry the sign of (39)
(f(x_k) − E_k f(x_{k+1})), unlike App. C.  The second line of (36)'s proof prints
"½ max(cL0/τ0 + 2cL1/(1 − τ1))" (a max of one term): read as the term itself.
"""
from __future__ import annotations

import sympy as sp

from theory.model import Case, CaseSplit, Chain, Result, Step, StepKind, asm
from theory.papers.nsgd.common import (ALPHA0_D, ALPHA_01, ASM_22, ETA_8, GN, HB, K_C, POINT,
                                       THM34)
from theory.papers.nsgd.symbols import (D_f, Delta, Eb_h, Eb_h2, Eb_h2e2, Eb_h2ip, Eb_hg,
                                        Eb_hg2, Eb_hip, Emin, L0, L1, LOG, N, S_U, S_Uc2, T,
                                        B_, alpha, c, c2, d, dF, delta, en, epsilon, etab,
                                        etabp, ip, nU, nUc, s, sigma, tau0, tau1)

ALG, SCA, PRO, CIT = StepKind.ALGEBRA, StepKind.SCALAR, StepKind.PROBABILISTIC, StepKind.CITED

LK = (L0 + L1 * s) / 2
RHS_32 = (-etab * Eb_h * s**2 - etab * Eb_hip + LK * etab**2 * (Eb_h2 * s**2 + 2 * Eb_h2ip)
          + LK * etab**2 * (d * c**2 * sigma**2 + Eb_h2e2))

EQ_32 = Result(
    "nsgd:eq-32", "Explicit decomposition of (19)", "App. D, eq. (32)",
    statement=[Step("statement", -dF, "<=", RHS_32, ALG, eq="32",
                    given=[asm(sp.Le(-dF, -etab * Eb_hg + LK * etab**2 * (d * c**2 * sigma**2 + Eb_hg2)),
                               "(19)"),
                           asm(sp.Eq(Eb_hg, Eb_h * s**2 + Eb_hip), "⟨h̄∇f, g⟩ split"),
                           asm(sp.Eq(Eb_hg2, Eb_h2 * s**2 + 2 * Eb_h2ip + Eb_h2e2), "‖h̄g‖² split")])])

ETA_33 = [asm(sp.Le(etab, alpha / (6 * L1 * d * c * sigma**2)), "(33): η ≤ α/(6L1dcσ²)"),
          asm(sp.Le(etab, alpha * (1 - tau1) / (2 * L0 * (1 - tau1) + 4 * L1 * tau0)),
              "(33): η ≤ α(1 − τ1)/(2L0(1 − τ1) + 4L1τ0)"),
          asm(sp.Le(etab, alpha * tau0 * (1 - tau1) / (4 * c * (L0 * (1 - tau1) + 2 * L1 * tau0))),
              "(33): η ≤ ατ0(1 − τ1)/(4c(L0(1 − τ1) + 2L1τ0))")]
Y2 = 2 * (L0 * (1 - tau1) + 2 * L1 * tau0) * tau0**2 / (1 - tau1)**3
AHB = alpha * etab * HB / 4 * s**2
M1 = c * L0 / tau0 + 2 * c * L1 / (1 - tau1)
M0 = (L0 * (1 - tau1) + 2 * L1 * tau0) / (1 - tau1)
SMALL = asm(sp.Le(s, 2 * tau0 / (1 - tau1)), "‖∇f(x_k)‖ ≤ 2τ0/(1 − τ1)")
BIG = asm(sp.Gt(s, 2 * tau0 / (1 - tau1)), "‖∇f(x_k)‖ > 2τ0/(1 − τ1)")

LEM_D_1 = Result(
    "nsgd:lem-d.1", "Second-order terms of DP-SGD", "App. D.1, Lemma D.1, eqs. (33)-(37)",
    hypotheses=[*ASM_22, *ALPHA_01, *ETA_33, *POINT, asm(sp.Gt(GN, 0), "g_k ≠ 0")],
    statement=[
        Step("eq-34", LK * etab**2 * d * c**2 * sigma**2, "<=",
             (L1 * (c + tau0) + L0) / 2 * etab**2 * d * c**2 * sigma**2 + AHB, SCA, eq="34"),
        Step("eq-35", (L0 + L1 * s) * etab**2 * HB**2 * ip, "<=", Y2 * etab**2 + AHB, SCA, eq="35"),
        Step("eq-36", LK * etab**2 * HB**2 * en**2, "<=", Y2 * etab**2 + AHB, SCA, eq="36"),
        Step("eq-37", LK * etab**2 * HB**2 * s**2, "<=", AHB, SCA, eq="37"),
    ],
    proof=[
        CaseSplit("i", [
            Case("small", [asm(sp.Le(s, c + tau0), "‖∇f‖ ≤ c + τ0")], [
                Step("line-1", L1 * s * etab**2 * d * sigma**2 / 2, "<=",
                     L1 * (c + tau0) * etab**2 * d * c**2 * sigma**2 / 2, SCA,
                     note="printed L1‖∇f‖η²dσ²/2 ≤ L1(c + τ0)η²dc²σ²/2", origin="printed")]),
            Case("large", [asm(sp.Gt(s, c + tau0), "‖∇f‖ > c + τ0")], [
                Chain("h-lower", [
                    Step("h-lower-1", HB, ">=", c / (c + GN), SCA),
                    Step("h-lower-2", c / (c + GN), ">=", c / (c + tau0 + (tau1 + 1) * s), SCA),
                    Step("h-lower-3", c / (c + tau0 + (tau1 + 1) * s), ">=", c / (3 * s), SCA)]),
                Step("h-lower-4", L1 * s * etab**2 * d * c**2 * sigma**2 / 2, "<=", AHB, SCA)])]),
        CaseSplit("ii", [
            Case("small", [SMALL], [
                Step("noise", tau0 + tau1 * s, "<=", 2 * tau0 / (1 - tau1), SCA),
                Step("eq-35-small", (L0 + L1 * s) * etab**2 * HB**2 * ip, "<=", Y2 * etab**2, SCA),
                Step("eq-36-small", LK * etab**2 * HB**2 * en**2, "<=", Y2 * etab**2, SCA)]),
            Case("large", [BIG], [
                Step("noise", en, "<=", (1 + tau1) / 2 * s, SCA),
                Step("g-lower", GN, ">=", (1 - tau1) / 2 * s, SCA),
                Chain("h-times-l", [
                    Step("h-times-l-1", HB * (L0 + L1 * s), "<=", c * (L0 + L1 * s) / GN, SCA),
                    Step("h-times-l-2", c * (L0 + L1 * s) / GN, "<=",
                         2 * c * (L0 + L1 * s) / ((1 - tau1) * s), SCA),
                    Step("h-times-l-3", 2 * c * (L0 + L1 * s) / ((1 - tau1) * s), "<=", M1, SCA)]),
                Chain("eq-35-large", [
                    Step("eq-35-large-1", (L0 + L1 * s) * etab**2 * HB**2 * ip, "<=",
                         M1 * etab**2 * HB * s**2, SCA),
                    Step("eq-35-large-2", M1 * etab**2 * HB * s**2, "<=", AHB, SCA)]),
                Chain("eq-36-large", [
                    Step("eq-36-large-1", LK * etab**2 * HB**2 * en**2, "<=", M1 / 2 * etab**2 * HB * s**2,
                         SCA),
                    Step("eq-36-large-2", M1 / 2 * etab**2 * HB * s**2, "<=", AHB, SCA)]),
            ])]),
        Chain("iii", [
            Step("iii-1", LK * etab**2 * HB**2 * s**2, "<=",
                 sp.Max(M0, M1) * etab**2 / 2 * HB * s**2, SCA),
            Step("iii-2", sp.Max(M0, M1) * etab**2 / 2 * HB * s**2, "<=", AHB, SCA,
                 given=[asm(sp.Le(etab, alpha / 2 * sp.Min(
                     (1 - tau1) / (L0 * (1 - tau1) + 2 * L1 * tau0),
                     tau0 * (1 - tau1) / (c * (L0 * (1 - tau1) + 2 * L1 * tau0)))),
                     "via setting η ≤ (α/2) min(…)")])],
            concludes="eq-37"),
    ])

EQ_38 = Result(
    "nsgd:eq-38", "The choice α0 of Lemma D.1", "App. D.1, eq. (38)",
    hypotheses=[*ASM_22, *THM34],
    statement=[Step("statement", ALPHA0_D, "<", sp.Rational(1, 2), SCA, eq="38")])

COND_D2 = [ALPHA0_D / (6 * L1 * d * c * sigma**2),
           ALPHA0_D * (1 - tau1) / (2 * L0 * (1 - tau1) + 4 * L1 * tau0),
           ALPHA0_D * tau0 * (1 - tau1) / (4 * c * (L0 * (1 - tau1) + 2 * L1 * tau0))]
T_D2 = 2 / (K_C * d * c**2 * sigma**2) * sp.Max(*[1 / x for x in COND_D2])**2

LEM_D_2 = Result(
    "nsgd:lem-d.2", "T large enough makes (33) hold (DP-SGD)", "App. D.1, Lemma D.2",
    hypotheses=[*ASM_22, *THM34, asm(sp.Ge(T, T_D2), "T ≥ the printed bound (α = α0)")],
    statement=[Step("statement", ETA_8, "<=", sp.Min(*COND_D2), SCA,
                    note="η of (8) ≤ min{…} 'is equivalent to' T ≥ …")])

X_C = K_C * d * c**2 * sigma**2 / 2
Y4 = 4 * (L0 * (1 - tau1) + 2 * L1 * tau0) * tau0**2 / (1 - tau1)**3
D1_IN_E = [asm(sp.Le(LK * etab**2 * d * c**2 * sigma**2, X_C * etab**2 + alpha * etab * Eb_h * s**2 / 4), "E(34)"),
           asm(sp.Le((L0 + L1 * s) * etab**2 * Eb_h2ip, Y2 * etab**2 + alpha * etab * Eb_h * s**2 / 4), "E(35)"),
           asm(sp.Le(LK * etab**2 * Eb_h2e2, Y2 * etab**2 + alpha * etab * Eb_h * s**2 / 4), "E(36)"),
           asm(sp.Le(LK * etab**2 * Eb_h2 * s**2, alpha * etab * Eb_h * s**2 / 4), "E(37)"),
           asm(sp.Le(-dF, RHS_32), "(32)"),
           asm(sp.Ge(etab * Eb_hg - etab * alpha * Eb_h * s**2, etab * B_), "Lemma B.5"),
           asm(sp.Eq(Eb_hg, Eb_h * s**2 + Eb_hip), "⟨h̄∇f, g⟩ split")]
SUM_OK = asm(sp.Le(etab * B_, dF + etab**2 * (X_C + Y4)), "(39) with η²(X + Y)")
B1_0 = (tau0 * c / (c * (1 - tau1) + 2 * tau0) - ALPHA0_D / (1 - tau1)) * s
RSUM = D_f / (T * etab) + etab * X_C + etab * Y4
DELTA_D = ((D_f + 1) * sp.sqrt(K_C * d * c**2 * sigma**2 / (2 * T))
           + 4 * (L0 + 2 * L1 * tau0) * tau0**2 / (1 - tau1)**3 * ETA_8)
K_U = tau0 * (c - 1) / (c * (1 - tau1) + 2 * tau0)
SUMMED = asm(sp.Le(K_U * etab * S_U + etab * S_Uc2 / 2, D_f + T * etab**2 * (X_C + Y4)),
             "the per-k lines summed over k < T")

PROOF_3_4 = [
    Step("eq-39", etab * B_, "<=", dF + etab**2 * (X_C + Y4 * etab**2), ALG, eq="39",
         given=D1_IN_E, note="Lemmas B.5, D.1 in (32); printed with η⁴ in the second term"),
    Step("case-u", K_U * etab * s, "<=", dF + etab**2 * (X_C + Y4), ALG,
         given=[SUM_OK, asm(sp.Eq(B_, B1_0), "B on U with α = α0"),
                asm(sp.Ge(s, tau0 / (1 - tau1)), "k ∈ U")], origin="printed"),
    Step("case-uc", etab * s**2 / 2, "<=", dF + etab**2 * (X_C + Y4), ALG,
         given=[SUM_OK, asm(sp.Eq(B_, (1 - ALPHA0_D) * s**2), "B on U^c with α = α0"),
                asm(sp.Le(ALPHA0_D, sp.Rational(1, 2)), "α0 ≤ 1/2")], origin="printed"),
    Step("sum-u", K_U * S_U / T, "<=", RSUM, SCA, given=[SUMMED], note="first entry of the max"),
    Step("sum-uc", S_Uc2 / (2 * T), "<=", RSUM, SCA, given=[SUMMED, asm(sp.Ge(K_U, 0), "c ≥ 1")],
         note="second entry of the max (needs the first term ≥ 0)"),
    Step("eq-40", (D_f / (T * etab) + etab * X_C).subs(etab, ETA_8), "<=",
         D_f / (T * etabp) + etabp * X_C, SCA, eq="40",
         note="'We minimize the sum of first two terms by setting' (40)"),
    Step("delta", RSUM.subs(etab, ETA_8), "<=", DELTA_D, SCA, eq="41"),
    Step("eq-42-u", Emin, "<=", 2 * (c + 2 * tau0) / (tau0 * (c - 1)) * Delta, SCA, eq="42",
         given=[asm(sp.Le(Emin * nU, S_U), "min ≤ average over U"), asm(sp.Ge(nU, T / 2), "|U| ≥ T/2"),
                asm(sp.Gt(nU, 0), "U ≠ ∅"), asm(sp.Le(K_U * S_U / T, Delta), "the max ≤ Δ"),
                asm(sp.Gt(c, 1), "c > 1 (else the first entry is not positive)")]),
    Step("eq-42-uc", Emin, "<=", sp.sqrt(4 * Delta), SCA, eq="42",
         given=[asm(sp.Le(Emin**2 * nUc, S_Uc2), "(min)² ≤ average of squares over U^c"),
                asm(sp.Ge(nUc, T / 2), "|U^c| ≥ T/2"), asm(sp.Gt(nUc, 0), "U^c ≠ ∅"),
                asm(sp.Le(S_Uc2 / (2 * T), Delta), "the max ≤ Δ")]),
]

SIG_D3 = asm(sp.Eq(sigma, c2 * sp.sqrt(T * LOG) / (N * epsilon)), "σ = c2√(T log(1/δ))/(Nε)")
ETA_D3 = N * epsilon / (c2 * T) * sp.sqrt(2 / (K_C * d * c**2 * LOG))
N_D3 = asm(sp.Ge(N, 6 * L1 * c * c2 / (epsilon * ALPHA0_D) * sp.sqrt(2 * d * LOG / K_C)),
           "enough samples")
T_43 = asm(sp.Ge(T / N, sp.Min(1, 2 * c / tau0) * 2 * (L0 * (1 - tau1) + 2 * L1 * tau0) * epsilon
                 / (c * c2 * ALPHA0_D * (1 - tau1)) * sp.sqrt(2 / (K_C * d * LOG))), "(43)")

LEM_D_3 = Result(
    "nsgd:lem-d.3", "N large enough makes (33) hold (Corollary 3.5)", "App. D.2, Lemma D.3, eq. (43)",
    hypotheses=[*ASM_22, *THM34, SIG_D3, asm(sp.Lt(delta, 1), "δ < 1")],
    statement=[
        Step("eta", ETA_8, "=", ETA_D3, ALG, note="σ² plugged into (8)"),
        Step("cond-1", ETA_D3, "<=", ALPHA0_D / (6 * L1 * d * c**2 * sigma**2), SCA, given=[N_D3],
             note="printed ≤ α0N²ε²/(6L1dc²c2²T log(1/δ)) = α0/(6L1dc²σ²) (c², where (33) has c)"),
        Step("cond-1-33", ETA_D3, "<=", COND_D2[0], SCA, given=[N_D3],
             note="the same N against the first condition of (33) as printed there"),
        Step("eq-43", ETA_D3, "<=", sp.Min(COND_D2[1], COND_D2[2]), SCA, eq="43", given=[T_43]),
    ])

RESULTS = [EQ_32, LEM_D_1, EQ_38, LEM_D_2, LEM_D_3]

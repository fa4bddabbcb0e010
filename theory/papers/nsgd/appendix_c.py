"""Appendix C of the nsgd paper (004_a52a5530363ebbda.txt, lines 566-760): the
decomposition (21), Lemma C.1 ((22)-(26)) with Remarks C.1-C.2, α0 (27), Lemmas C.2-C.3,
and the proofs of Theorem 3.2 (C.2, eqs. (28)-(30)) and Corollary 3.3.

Readings and encoding choices:

* (23)-(26) are printed without E_k: they are pointwise in the draw of g_k, and checked so
  (h_k = 1/(r + ‖g_k‖), ‖g_k‖ = √(s² + 2ip + e_n²)).  Lemma C.1's step-size condition (22)
  is positive only when r > τ0, which Theorem 3.2 assumes; the lemma is checked with it.
* (28) prints η²(X + Y η²) — an η⁴ — while (21) and Lemma C.1 give η²(X + Y) (the later
  per-case lines print η²(X + Y)): the row is checked as printed.
* The per-case lines after (28) print "≤ E_k[f(x_{k+1})] − f(x_k) + …", the opposite sign
  of (28)'s f(x_k) − E_k[f(x_{k+1})]: checked as printed, from (28).
* (30): the first line's index sets are garbled (Σ_{k∈U^c} over |U|); it is checked at a
  T = 2 instance (both iterates in U).  The second line prints √(8(r + 2τ0)/(3(1 − τ1)))Δ
  with Δ outside the root; the summary after it (a fourth root of σ²/T) needs Δ inside:
  both readings are checked.
* Expectations over the iterates (E Σ_{k∈U}‖∇f(x_k)‖, …) are stand-ins; "either |U| ≥ T/2
  or |U^c| ≥ T/2" gives the two branches.
"""
from __future__ import annotations

import sympy as sp

from theory.model import Case, CaseSplit, Chain, Reading, Result, Step, StepKind, asm
from theory.papers.nsgd.common import (ALPHA0_C, ALPHA_01, ASM_22, BIAS_5, ETA_4, ETA_C2, GN,
                                       H, K_R, POINT, THM32)
from theory.papers.nsgd.symbols import (D_f, Delta, E_h, E_h2, E_h2e2, E_h2ip, E_hg, E_hg2,
                                        E_hip, Emin, L0, L1, LOG, N, S_U, S_Uc2, T, A_, alpha,
                                        c2, d, dF, delta, en, epsilon, eta, etap, ip, nU, nUc,
                                        r, s, s0, s1, sigma, tau0, tau1)

ALG, SCA, PRO, CIT = StepKind.ALGEBRA, StepKind.SCALAR, StepKind.PROBABILISTIC, StepKind.CITED

# ---- (21) --------------------------------------------------------------------------------------
LK = (L0 + L1 * s) / 2
RHS_21 = (-eta * E_h * s**2 - eta * E_hip + LK * eta**2 * (E_h2 * s**2 + 2 * E_h2ip)
          + LK * eta**2 * (d * sigma**2 + E_h2e2))

EQ_21 = Result(
    "nsgd:eq-21", "Explicit decomposition of (12)", "App. C, eq. (21)",
    statement=[Step("statement", -dF, "<=", RHS_21, ALG, eq="21",
                    given=[asm(sp.Le(-dF, -eta * E_hg + LK * eta**2 * (d * sigma**2 + E_hg2)), "(12)"),
                           asm(sp.Eq(E_hg, E_h * s**2 + E_hip), "⟨h∇f, g⟩ = h‖∇f‖² + h⟨∇f, g − ∇f⟩"),
                           asm(sp.Eq(E_hg2, E_h2 * s**2 + 2 * E_h2ip + E_h2e2),
                               "‖hg‖² = h²‖∇f‖² + 2h²⟨g − ∇f, ∇f⟩ + h²‖g − ∇f‖²")])])

# ---- Lemma C.1 ----------------------------------------------------------------------------------
ETA_22 = [asm(sp.Le(eta, (r - tau0) * alpha / (4 * L0)), "(22): η ≤ (r − τ0)α/(4L0)"),
          asm(sp.Le(eta, (1 - tau1) * alpha / (4 * L1)), "(22): η ≤ (1 − τ1)α/(4L1)"),
          asm(sp.Le(eta, alpha / (6 * L1 * d * sigma**2)), "(22): η ≤ α/(6L1dσ²)")]
Y1 = (L0 * (1 - tau1) + L1 * tau0) * tau0**2 / (r**2 * (1 - tau1)**3)
AH = alpha * eta * H / 4 * s**2               # αηh_k‖∇f‖²/4
MAXC = sp.Max(L0 / (r - tau0), L1 / (1 - tau1))
SMALL = asm(sp.Le(s, tau0 / (1 - tau1)), "‖∇f(x_k)‖ ≤ τ0/(1 − τ1)")
BIG = asm(sp.Gt(s, tau0 / (1 - tau1)), "‖∇f(x_k)‖ > τ0/(1 − τ1)")

LEM_C_1 = Result(
    "nsgd:lem-c.1", "Second-order terms of DP-NSGD", "App. C.1, Lemma C.1, eqs. (22)-(26)",
    hypotheses=[*ASM_22, *ALPHA_01, *THM32, *ETA_22, *POINT],
    statement=[
        Step("eq-23", LK * eta**2 * d * sigma**2, "<=",
             (L0 + L1 * (r + tau0)) / 2 * eta**2 * d * sigma**2 + AH, SCA, eq="23"),
        Step("eq-24", (L0 + L1 * s) * eta**2 * H**2 * ip, "<=", Y1 * eta**2 + AH, SCA, eq="24"),
        Step("eq-25", LK * eta**2 * H**2 * en**2, "<=", Y1 / 2 * eta**2 + AH, SCA, eq="25"),
        Step("eq-26", LK * eta**2 * H**2 * s**2, "<=", AH, SCA, eq="26"),
    ],
    proof=[
        CaseSplit("i", [
            Case("small", [asm(sp.Le(s, r + tau0), "‖∇f‖ ≤ r + τ0")], [
                Step("line-1", L1 * s * eta**2 * d * sigma**2 / 2, "<=",
                     L1 * (r + tau0) * eta**2 * d * sigma**2 / 2, SCA, origin="printed")]),
            Case("large", [asm(sp.Gt(s, r + tau0), "‖∇f‖ > r + τ0")], [
                Chain("h-lower", [
                    Step("h-lower-1", H, ">=", 1 / (r + tau0 + (tau1 + 1) * s), SCA),
                    Step("h-lower-2", 1 / (r + tau0 + (tau1 + 1) * s), ">=", 1 / (3 * s), SCA)]),
                Step("h-lower-3", L1 * s * eta**2 * d * sigma**2 / 2, "<=", AH, SCA),
            ])]),
        CaseSplit("ii", [
            Case("small", [SMALL], [
                Step("noise", tau0 + tau1 * s, "<=", tau0 / (1 - tau1), SCA),
                Step("h-upper", H, "<=", 1 / r, SCA),
                Step("eq-24-small", (L0 + L1 * s) * eta**2 * H**2 * ip, "<=", Y1 * eta**2, SCA),
                Step("eq-25-small", LK * eta**2 * H**2 * en**2, "<=", Y1 / 2 * eta**2, SCA)]),
            Case("large", [BIG], [
                Step("g-lower", GN, ">=", -tau0 + (1 - tau1) * s, SCA),
                Chain("h-times-l", [
                    Step("h-times-l-1", H * (L0 + L1 * s), "<=",
                         (L0 + L1 * s) / (r - tau0 + (1 - tau1) * s), SCA),
                    Step("h-times-l-2", (L0 + L1 * s) / (r - tau0 + (1 - tau1) * s), "<=", MAXC, SCA)]),
                Chain("eq-24-large", [
                    Step("eq-24-large-1", (L0 + L1 * s) * eta**2 * H**2 * ip, "<=",
                         MAXC * eta**2 * H * s**2, SCA),
                    Step("eq-24-large-2", MAXC * eta**2 * H * s**2, "<=", AH, SCA,
                         given=[asm(sp.Le(eta, alpha / 4 * sp.Min((r - tau0) / L0, (1 - tau1) / L1)),
                                    "η ≤ (α/4) min((r − τ0)/L0, (1 − τ1)/L1)")])]),
                Chain("eq-25-large", [
                    Step("eq-25-large-1", LK * eta**2 * H**2 * en**2, "<=", MAXC / 2 * eta**2 * H * s**2, SCA),
                    Step("eq-25-large-2", MAXC / 2 * eta**2 * H * s**2, "<=", AH, SCA)]),
            ])]),
        Chain("iii", [
            Step("iii-1", LK * eta**2 * H**2 * s**2, "<=",
                 sp.Max(L0 / (r - tau0), L1 / tau1) * eta**2 / 2 * H * s**2, SCA,
                 note="printed max(L0/(r − τ0), L1/τ1) (τ1 where (ii) has 1 − τ1)"),
            Step("iii-2", sp.Max(L0 / (r - tau0), L1 / tau1) * eta**2 / 2 * H * s**2, "<=", AH,
                 SCA, given=[asm(sp.Le(eta, alpha / 2 * sp.Min((r - tau0) / L0, tau1 / L1)),
                                 "via setting η ≤ (α/2) min((r − τ0)/L0, τ1/L1)")])],
            concludes="eq-26"),
    ])

REM_C_1 = Result(
    "nsgd:rem-c.1", "How Lemma C.1 is proved", "App. C.1, Remark C.1",
    note="Split the range of ‖∇f(x_k)‖: below a threshold the left sides are O(η²); above it "
         "h_k = Ω(1/‖∇f(x_k)‖) and the left sides are O(η²h_k‖∇f‖²) (printed '‖f(x)‖²'), "
         "made ≤ αηh_k‖∇f‖²/4 by scaling η.  Its content is checked in Lemma C.1's rows.")

REM_C_2 = Result(
    "nsgd:rem-c.2", "The thresholds are artificial", "App. C.1, Remark C.2",
    note="r + τ0 for (23) and τ0/(1 − τ1) for (24)-(25) are artificial; better thresholds "
         "would improve the constants in (L0, L1, τ0, τ1) only.")

EQ_27 = Result(
    "nsgd:eq-27", "The choice α0 of Lemma C.1", "App. C.1, eq. (27)",
    hypotheses=ASM_22,
    statement=[Step("statement", ALPHA0_C, "<", sp.Rational(1, 4), SCA, eq="27")])

# ---- Lemma C.2 ----------------------------------------------------------------------------------
T_C2 = [32 * L0**2 / ((r - tau0)**2 * ALPHA0_C**2 * L1 * (r + tau0) * d * sigma**2),
        32 * L1 / (tau1**2 * ALPHA0_C**2 * (r + tau0) * d * sigma**2),
        72 * L1 * d / (ALPHA0_C**2 * (r + tau0))]
COND_C2 = [(r - tau0) * ALPHA0_C / (4 * L0), (1 - tau1)**2 * ALPHA0_C / (4 * L1),
           ALPHA0_C / (6 * L1 * d * sigma**2)]
_TGIVEN = [asm(sp.Ge(T, t_), f"T ≥ the {i}th term of the printed max") for i, t_ in
           enumerate(T_C2, 1)]

LEM_C_2 = Result(
    "nsgd:lem-c.2", "T large enough makes (22) hold (DP-NSGD)", "App. C.1, Lemma C.2",
    hypotheses=[*ASM_22, *THM32, *_TGIVEN],
    statement=[Step(f"part-{i}", ETA_C2, "<=", cond, SCA,
                    note="η = √(2/(L1(r + τ0)Tdσ²)) as printed in C.2 (no L0, unlike (4)); "
                         "'η ≤ min(…) is equivalent to T ≥ max(…)'")
               for i, cond in enumerate(COND_C2, 1)]
    + [Step("part-4", ETA_4, "<=", sp.Min(*COND_C2), SCA,
            note="the same T with Theorem 3.2's η of (4)")])

# ---- proof of Theorem 3.2 (App. C.2) ------------------------------------------------------------
X_R = K_R * d * sigma**2 / 2
C1_IN_E = [asm(sp.Le(LK * eta**2 * d * sigma**2, X_R * eta**2 + alpha * eta * E_h * s**2 / 4), "E(23)"),
           asm(sp.Le((L0 + L1 * s) * eta**2 * E_h2ip, Y1 * eta**2 + alpha * eta * E_h * s**2 / 4), "E(24)"),
           asm(sp.Le(LK * eta**2 * E_h2e2, Y1 / 2 * eta**2 + alpha * eta * E_h * s**2 / 4), "E(25)"),
           asm(sp.Le(LK * eta**2 * E_h2 * s**2, alpha * eta * E_h * s**2 / 4), "E(26)"),
           asm(sp.Le(-dF, RHS_21), "(21)"),
           asm(sp.Ge(eta * E_hg - eta * alpha * E_h * s**2, eta * A_), "Lemma B.3"),
           asm(sp.Eq(E_hg, E_h * s**2 + E_hip), "⟨h∇f, g⟩ = h‖∇f‖² + h⟨∇f, e⟩")]
SUM_OK = asm(sp.Le(eta * A_, dF + eta**2 * (X_R + 3 * Y1 / 2)), "(28) with η²(X + 3Y/2)")
A1_0 = (tau0 / (r * (1 - tau1) + 2 * tau0) - ALPHA0_C / (1 - tau1)) * s
A2_0 = ((1 - ALPHA0_C) * (1 - tau1) / (r * (1 - tau1) + 2 * tau0) * s**2
        - 4 * tau0**3 / (r * (r + tau0) * (1 - tau1)**3))
BIASC = 4 * tau0**3 / (r * (r + tau0) * (1 - tau1)**3)
RSUM = D_f / (T * eta) + eta * X_R + eta * 3 * Y1 / 2 + BIASC * nUc / T
DELTA_C = ((D_f + 1) * sp.sqrt(K_R * d * sigma**2 / (2 * T)) + BIASC
           + 3 * (L0 + L1 * tau0) * tau0**2 / (2 * r**2 * (1 - tau1)**3) * ETA_4)
SUMMED = asm(sp.Le(tau0 / (2 * r * (1 - tau1) + 4 * tau0) * eta * S_U
                   + eta * (3 * (1 - tau1) / (4 * r * (1 - tau1) + 8 * tau0) * S_Uc2 - BIASC * nUc),
                   D_f + T * eta**2 * (X_R + 3 * Y1 / 2)),
             "the per-k lines summed over k < T; Σ_k (f(x_k) − E f(x_{k+1})) ≤ D_f")
COUNTS = [asm(sp.Eq(nU + nUc, T), "|U| + |U^c| = T")]

PROOF_3_2 = [
    Step("eq-28", eta * A_, "<=", dF + eta**2 * (X_R + 3 * Y1 / 2 * eta**2), ALG, eq="28",
         given=C1_IN_E, note="Lemmas B.3, C.1 in (21); printed with η⁴ in the second term"),
    Step("case-u", tau0 / (2 * r * (1 - tau1) + 4 * tau0) * eta * s, "<=",
         -dF + eta**2 * (X_R + 3 * Y1 / 2), ALG,
         given=[SUM_OK, asm(sp.Eq(A_, A1_0), "A on U with α = α0 (17)"),
                asm(sp.Ge(s, tau0 / (1 - tau1)), "k ∈ U")],
         note="printed '≤ E_k[f(x_{k+1})] − f(x_k) + …'", origin="printed"),
    Step("case-uc", eta * (3 * (1 - tau1) / (4 * r * (1 - tau1) + 8 * tau0) * s**2 - BIASC), "<=",
         -dF + eta**2 * (X_R + 3 * Y1 / 2), ALG,
         given=[SUM_OK, asm(sp.Eq(A_, A2_0), "A on U^c with α = α0 (18)"),
                asm(sp.Lt(s, tau0 / (1 - tau1)), "k ∉ U")],
         note="'together with α0 ≤ 1/4'; printed '≤ E_k[f(x_{k+1})] − f(x_k) + …'", origin="printed"),
    Step("sum-u", 1 / (r + 2 * tau0) * tau0 / (2 * T) * S_U, "<=", RSUM, SCA,
         given=[SUMMED, *COUNTS], note="first entry of the max"),
    Step("sum-uc", 1 / (r + 2 * tau0) * 3 * (1 - tau1) / (4 * T) * S_Uc2, "<=", RSUM, SCA,
         given=[SUMMED, *COUNTS], note="second entry of the max"),
    Step("eq-29", (D_f / (T * eta) + eta * X_R).subs(eta, ETA_4), "<=",
         D_f / (T * etap) + etap * X_R, SCA, eq="29",
         note="'In order to optimize the first two terms, we set η = √(2/((L1(r + τ0) + "
              "L0)Tdσ²))': is it the minimiser over every η' > 0?"),
    Step("delta", RSUM.subs(eta, ETA_4), "<=", DELTA_C, SCA, given=[*COUNTS],
         note="the right side at (29) is at most Δ"),
    Step("eq-30-t2", sp.Min(s0, s1), "<=", sp.Min(sp.sqrt(0 / sp.Integer(2)), 0 / sp.Integer(2)),
         SCA, eq="30",
         given=[asm(sp.Ge(s0, tau0 / (1 - tau1)), "0 ∈ U"), asm(sp.Ge(s1, tau0 / (1 - tau1)), "1 ∈ U")],
         note="the first line of (30) as printed, min_k‖∇f(x_k)‖ ≤ min{√(Σ_{k∈U^c}‖∇f‖²/|U|), "
              "Σ_{k∉U}‖∇f‖/|U|}, at T = 2 with U = {0, 1} (both sums empty)"),
    Step("eq-30-u", Emin, "<=", 2 * (r + 2 * tau0) / tau0 * Delta, SCA, eq="30",
         given=[asm(sp.Le(Emin * nU, S_U), "min ≤ average over U"),
                asm(sp.Ge(nU, T / 2), "|U| ≥ T/2"), asm(sp.Gt(nU, 0), "U ≠ ∅"),
                asm(sp.Le(1 / (r + 2 * tau0) * tau0 / (2 * T) * S_U, Delta), "the max ≤ Δ")],
         note="the branch |U| ≥ T/2 of (30)"),
    Step("eq-30-uc", Emin, "<=", sp.sqrt(8 * (r + 2 * tau0) / (3 * (1 - tau1))) * Delta, SCA,
         eq="30",
         given=[asm(sp.Le(Emin**2 * nUc, S_Uc2), "(min)² ≤ average of squares over U^c"),
                asm(sp.Ge(nUc, T / 2), "|U^c| ≥ T/2"), asm(sp.Gt(nUc, 0), "U^c ≠ ∅"),
                asm(sp.Le(1 / (r + 2 * tau0) * 3 * (1 - tau1) / (4 * T) * S_Uc2, Delta),
                    "the max ≤ Δ")],
         readings=[Reading("delta-inside", Emin, "<=",
                           sp.sqrt(8 * (r + 2 * tau0) / (3 * (1 - tau1)) * Delta),
                           "Δ under the root, as the summary after (30) needs")],
         note="the branch |U^c| ≥ T/2 of (30)"),
    Step("bias-5", 2 * (r + 2 * tau0) / tau0 * BIASC, "=", BIAS_5, ALG,
         note="(5)'s non-vanishing term is the U-branch of (30) applied to Δ's O(1) term"),
    Step("bias-root", sp.sqrt(8 * (r + 2 * tau0) / (3 * (1 - tau1)) * BIASC), "<=", BIAS_5, SCA,
         given=ASM_22 + THM32,
         note="the U^c-branch of (30) (Δ inside the root) leaves √(8(r + 2τ0)/(3(1 − τ1))·"
              "4τ0³/(r(r + τ0)(1 − τ1)³)), also non-vanishing: does (5)'s last term cover it?"),
]

# ---- Lemma C.3 and Corollary 3.3 -----------------------------------------------------------------
SIG_C3 = asm(sp.Eq(sigma, c2 * sp.sqrt(T * LOG) / (N * epsilon)), "σ = c2√(T log(1/δ))/(Nε)")
ETA_C3 = N * epsilon / (c2 * T) * sp.sqrt(2 / (K_R * d * LOG))
N_C3 = asm(sp.Ge(N, 6 * c2 * L1 / (epsilon * ALPHA0_C) * sp.sqrt(2 * d * LOG / K_R)),
           "enough samples")
T_31 = asm(sp.Ge(T / N, sp.Min(L0 / (r - tau0), L1 / tau1) * 4 * epsilon / (ALPHA0_C * c2)
                 * sp.sqrt(2 / (K_R * d * LOG))), "(31)")

LEM_C_3 = Result(
    "nsgd:lem-c.3", "N large enough makes (22) hold (Corollary 3.3)", "App. C.2, Lemma C.3, eq. (31)",
    hypotheses=[*ASM_22, *THM32, SIG_C3, asm(sp.Lt(delta, 1), "δ < 1")],
    statement=[
        Step("eta", ETA_4, "=", ETA_C3, ALG, note="σ² plugged into (4)"),
        Step("cond-3", ETA_C3, "<=", ALPHA0_C / (6 * L1 * d * sigma**2), SCA, given=[N_C3],
             note="η ≤ α0N²ε²/(6L1dc2²T log(1/δ)) = α0/(6L1dσ²) as long as N ≥ …"),
        Step("eq-31", ETA_C3, "<=", sp.Min((r - tau0) * ALPHA0_C / (4 * L0),
                                          (1 - tau1) * ALPHA0_C / (4 * L1)), SCA, eq="31",
             given=[T_31], note="the other conditions of (22) 'hold as long as' (31)"),
    ])

BIAS_COR33_APP = 8 * (r + 2 * tau0) * tau0**3 / (r * (r + tau0) * (1 - tau1)**3)
PROOF_COR_3_3 = [
    Step("bias-appendix", BIAS_COR33_APP, "=", BIAS_5, ALG,
         note="the proof's last display carries 8(r + 2τ0)τ0³/(r(r + τ0)(1 − τ1)³) inside the "
              "O(·); (6) prints τ0²"),
]

RESULTS = [EQ_21, LEM_C_1, REM_C_1, REM_C_2, EQ_27, LEM_C_2, LEM_C_3]

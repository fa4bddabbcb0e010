"""Sec. 2 of the nsgd paper (004_a52a5530363ebbda.txt, lines 60-112): the problem (1),
Definition 2.1 ((ε, δ)-DP, substitution adjacency), Definition 2.2 ((L0, L1)-generalised
smoothness), Assumptions 2.1-2.2 and Example 2.3.

Example 2.3 reads "‖∇_x ℓ‖ ≤ C_w(C_w‖x*‖ + C_v) + C_w²‖x − x*‖ ≤ τ0 + τ1‖∇L(x)‖" with
τ0 = C_w(C_w‖x*‖ + C_v) and τ1 = C_w²/λ_min; it is checked on the scalars of a 1-D
reduction (|wᵀ(x − x*)| ≤ ‖w‖‖x − x*‖, ‖∇L(x)‖ ≥ λ_min‖x − x*‖).  The example claims
Assumption 2.2 "provably holds", which needs τ1 < 1; since λ_min(E[wwᵀ]) ≤ E‖w‖²/d ≤ C_w²,
its τ1 = C_w²/λ_min is never below 1 — a row of its own.
"""
from __future__ import annotations

import sympy as sp

from theory.classes import GeneralizedSmooth, LowerBounded
from theory.model import Result, Step, StepKind, asm
from theory.papers.nsgd.symbols import (C_v, C_w, L0, L1, gradL, lam_min, tau0, tau1, u_,
                                        wn, xs_norm, dx)

ALG, SCA, PRO, CIT = StepKind.ALGEBRA, StepKind.SCALAR, StepKind.PROBABILISTIC, StepKind.CITED

EQ_1 = Result(
    "nsgd:eq-1", "Empirical risk minimisation", "Sec. 1, eq. (1)",
    note="min_x f(x) := E_ξ[ℓ(x, ξ)] = (1/N) Σ_i ℓ(x, ξ_i), ξ uniform on the data set "
         "(uniform sub-sampling without replacement makes the second equality exact).")

DEF_2_1 = Result(
    "nsgd:def-2.1", "(ε, δ)-DP (Dwork et al. 2006a)", "Sec. 2.1, Definition 2.1",
    note="M is (ε, δ)-DP if for neighbouring D ∼ D' (D' differs from D by SUBSTITUTING one "
         "record) and every S: Pr[M(D) ∈ S] ≤ e^ε Pr[M(D') ∈ S] + δ; O/Ω/Θ notation; E is "
         "over the gradient draws and the Gaussian perturbation, E_k conditions on x_k.")

DEF_2_2 = Result(
    "nsgd:def-2.2", "(L0, L1)-generalised smoothness", "Sec. 2.2, Definition 2.2",
    hypotheses=[asm(GeneralizedSmooth(L0, L1), "Definition 2.2")],
    note="‖∇f(x) − ∇f(y)‖ ≤ (L0 + L1‖∇f(x)‖)‖x − y‖ for all x, y; L1 = 0 is L-smoothness.")

ASM_2_1 = Result(
    "nsgd:asm-2.1", "Generalised smoothness and a lower bound", "Sec. 2.2, Assumption 2.1",
    hypotheses=[asm(GeneralizedSmooth(L0, L1), "Assumption 2.1"),
                asm(LowerBounded(), "Assumption 2.1: f* = inf f > −∞")],
    note="f is (L0, L1)-generalised smooth, f* = inf f, D_f := f(x_0) − f* < ∞.")

ASM_2_2 = Result(
    "nsgd:asm-2.2", "Almost-sure affine bound on the gradient noise",
    "Sec. 2.2, Assumption 2.2",
    hypotheses=[asm(sp.Gt(tau0, 0), "Assumption 2.2: τ0 > 0"),
                asm(sp.Lt(tau1, 1), "Assumption 2.2: 0 ≤ τ1 < 1")],
    note="E[∇ℓ(x, ξ)] = ∇f(x) and ‖∇ℓ(x, ξ) − ∇f(x)‖ ≤ τ0 + τ1‖∇f(x)‖ almost surely, for "
         "every x (for ERM: for every record i).")

_TAU0_EX = C_w * (C_w * xs_norm + C_v)
_TAU1_EX = C_w**2 / lam_min

EX_2_3 = Result(
    "nsgd:ex-2.3", "Linear regression satisfies Assumption 2.2", "Sec. 2.2, Example 2.3",
    hypotheses=[asm(sp.Le(wn, C_w), "‖w‖ ≤ C_w"), asm(sp.Le(u_, C_v), "|v| ≤ C_v"),
                asm(sp.Le(lam_min, C_w**2),
                    "λ_min(E[wwᵀ]) ≤ E‖w‖²/d ≤ C_w² (a fact, not printed)")],
    statement=[
        Step("part-1", wn * (wn * (xs_norm + dx) + u_), "<=",
             _TAU0_EX + C_w**2 * dx, SCA,
             note="‖(wᵀx − v)w‖ ≤ ‖w‖(‖w‖‖x‖ + |v|) ≤ ‖w‖(‖w‖(‖x*‖ + ‖x − x*‖) + |v|) "
                  "≤ τ0 + C_w²‖x − x*‖"),
        Step("part-2", _TAU0_EX + C_w**2 * dx, "<=", _TAU0_EX + _TAU1_EX * gradL, SCA,
             given=[asm(sp.Ge(gradL, lam_min * dx), "‖E[wwᵀ](x − x*)‖ ≥ λ_min‖x − x*‖")],
             note="… ≤ τ0 + τ1‖∇L(x)‖ with τ1 = C_w²/λ_min"),
        Step("tau1-below-1", _TAU1_EX, "<", 1, SCA,
             note="'our Assumption 2.2 provably holds': Assumption 2.2 needs τ1 < 1"),
    ],
    note="The bound proved is on ‖∇ℓ‖, not on ‖∇ℓ − ∇L‖ as Assumption 2.2 asks; the latter "
         "follows with τ1 + 1 in place of τ1 (triangle inequality).")

RESULTS = [EQ_1, DEF_2_1, DEF_2_2, ASM_2_1, ASM_2_2, EX_2_3]

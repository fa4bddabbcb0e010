"""holder: the typed utility claims (``Rate``) of Theorems 9, 10, 12 and Lemmas 22–26, as
printed, for the rate checks (simulation of the algorithms on members of the class).

Every claim is an O-form that holds *with probability at least 1 − γ'* over the sample and
the algorithm (``confidence`` γ' = γ, γ/4 or γ/3 as printed); the constant ``c_O`` of the
step rows is left out (an O-form is checked for *some* constant).  The algorithms:

* Algorithm 1 (output perturbation) is :class:`~theory.mechanisms.AveragedSGD` with
  ``sigma_out`` = √(2 log(2.5/δ)) Δ/ε, Δ = Δ_SGD(δ/2) (W = R^d) or Δ̃_SGD(δ/2) (W ⊆ B(0, R)),
  the constants c_{α,1}, c_{α,2}, C_α, c_{γ,T} of Sec. 2.2.1 written out;
* Algorithm 2 (gradient perturbation) is AveragedSGD with ``sigma_grad`` of its line 3 and
  the projection on B(0, R).

The choices "T ≍ n^e if … , T ≍ n else" are taken with constant 1 (T = ⌈n^e⌉), and η is the
printed one.  M = sup_z ‖∂l(0, z)‖ and M0 = sup_z l(0, z) are the suprema of the problem
(class :class:`~theory.classes.OriginBounds`), ‖w*‖ the norm of the population minimiser
(:class:`~theory.classes.MinimiserNorm`, ‖w*‖ ≥ 1 "without loss of generality" before
Theorem 9).
"""
import sympy as sp

from theory.classes import BoundedDomain, Convex, Holder, MinimiserNorm, NonNegative, OriginBounds
from theory.mechanisms import AveragedSGD
from theory.metrics import (EMPIRICAL_GAP_AT_MINIMISER, EXCESS_RISK, GENERALISATION_GAP,
                            OUTPUT_NOISE_RISK)
from theory.model import Rate, asm
from theory.papers.holder.common import (C_A2, C_ALPHA_FULL, DSGD, DSGD_B, LOG_D, SIGMA_G_SQ,
                                         c_gamma)
from theory.papers.holder.symbols import (C_a, L, M, M0, R, alpha, beta, c_a2, c_gT, eta, gamma,
                                          sigma, wstar)
from theory.quantities import T, d, delta, epsilon, n

LG = sp.log(1 / gamma)
HOLDER_CLASSES = (Holder(alpha, L), Convex(), NonNegative(), OriginBounds(M, M0),
                  MinimiserNorm(wstar))
BALL = BoundedDomain(R, measure="radius")
ALPHA = [asm(sp.Ge(alpha, 0), "α ∈ [0, 1]"), asm(sp.Le(alpha, 1), "α ∈ [0, 1]")]
WSTAR = asm(sp.Ge(wstar, 1), "w.l.o.g. ||w*|| ≥ 1 (before Theorem 9)")
IN_BALL = asm(sp.Le(wstar, R), "w* ∈ W ⊆ B(0, R)")
DELTA = asm(sp.Lt(delta, 1), "δ ∈ (0, 1)")
GAMMA = [asm(sp.Gt(gamma, 0), "γ ∈ (0, 1)"), asm(sp.Lt(gamma, 1), "γ ∈ (0, 1)")]
STEP = [asm(sp.Lt(eta, 1), "η < min{1, 1/L}"), asm(sp.Lt(eta, 1 / L), "η < min{1, 1/L}")]
BETA = [asm(sp.Gt(beta, 0), "β ∈ (0, 1)"), asm(sp.Lt(beta, 1), "β ∈ (0, 1)")]



def delta_sgd(g, *, bounded: bool):
    """Δ_SGD(g) (W = R^d) or Δ̃_SGD(g) (W ⊆ B(0, R)) with every constant written out."""
    expr = DSGD_B if bounded else DSGD
    return expr.subs({c_gT: c_gamma(g), c_a2: C_A2, C_a: C_ALPHA_FULL})


def sigma_alg1(*, bounded: bool):
    """σ of Algorithm 1, line 12: σ² = 2 log(2.5/δ) Δ²/ε², Δ = Δ_SGD(δ/2) or Δ̃_SGD(δ/2)."""
    return sp.sqrt(2 * sp.log(sp.Rational(5, 2) / delta)) * delta_sgd(delta / 2, bounded=bounded) \
        / epsilon


# the printed choices of T (constant 1 in "T ≍")
EXP_T9 = (-alpha ** 2 - 3 * alpha + 6) / ((1 + alpha) * (3 + alpha))
ALPHA_T9 = (sp.sqrt(73) - 7) / 4
T_9 = sp.Piecewise((sp.ceiling(n ** EXP_T9), alpha < ALPHA_T9), (n, True))
T_10 = sp.Piecewise((sp.ceiling(n ** ((2 - alpha) / (1 + alpha))), alpha < sp.Rational(1, 2)),
                    (n, True))

ETA_9 = n ** (1 / (3 + alpha)) / (T * LG ** (1 / (3 + alpha)))
ETA_10 = 1 / (T * sp.Max(sp.sqrt(sp.log(n / delta) * sp.log(n) * LG) / sp.sqrt(n),
                         (d * LOG_D) ** sp.Rational(1, 4) * sp.sqrt(sp.log(n / delta))
                         * LG ** sp.Rational(1, 8) / sp.sqrt(n * epsilon)))
MAX_12 = sp.Max(sp.sqrt(sp.log(n) * sp.log(n / gamma) * LG) / sp.sqrt(n),
                sp.sqrt(d * LOG_D) * LG ** sp.Rational(1, 4) / (n * epsilon))
ETA_12 = MAX_12 / T
ETA_12_FIX = 1 / (T * MAX_12)

RATE_9 = wstar ** 2 * (sp.sqrt(d * LOG_D) * sp.log(n / delta)
                       / (LG ** ((1 + alpha) / (4 * (3 + alpha))) * n ** (2 / (3 + alpha)) * epsilon)
                       + sp.log(n) * LG ** (2 / (3 + alpha)) * sp.log(n / delta)
                       / n ** (1 / (3 + alpha)))
RATE_10 = wstar ** 2 * ((d * LOG_D) ** sp.Rational(1, 4) * LG ** sp.Rational(1, 8)
                        * sp.sqrt(sp.log(n / delta)) / sp.sqrt(n * epsilon)
                        + sp.sqrt(sp.log(n) * LG * sp.log(n / delta)) / sp.sqrt(n))
RATE_12 = wstar ** 2 * (sp.sqrt(d * LOG_D * LG) / (n * epsilon)
                        + sp.sqrt(sp.log(n) * sp.log(n / gamma) * LG) / sp.sqrt(n))

GAMMA_9 = [asm(sp.Gt(gamma, 4 * sp.Max(sp.exp(-d / 8), delta)), "γ ∈ (4 max{e^{−d/8}, δ}, 1)"),
           asm(sp.Lt(gamma, 1), "γ < 1")]


def choices(T_expr, eta_expr) -> dict:
    """The printed choices a typed statement substitutes: T and η (η written with that T),
    so that every hypothesis in force (η > 1/T, η < min{1, 1/L}, γ > 18 exp(−Td/8), the
    printed η itself) is read at the simulated T and η."""
    return {T: T_expr, eta: eta_expr.subs(T, T_expr)}


#: "W = R^d" (Theorem 9, Lemmas 22–24 (a)): an unprojected iteration is that
W_FULL = "W = R^d"


def _alg1(T_expr, eta_expr, *, bounded: bool):
    """Algorithm 1 with the printed choices: η and T substituted everywhere (σ depends on
    both through Δ_SGD)."""
    at = lambda e: e.subs(eta, eta_expr).subs(T, T_expr)  # noqa: E731
    return AveragedSGD(n=n, eta=at(eta), T=T_expr, sigma_out=at(sigma_alg1(bounded=bounded)),
                       radius=R if bounded else None)


def alg1_mechanism(*, bounded: bool):
    """Algorithm 1 with free η, T (its inputs) and σ of line 12: the mechanism of Theorem 8."""
    return AveragedSGD(n=n, eta=eta, T=T, sigma_out=sigma_alg1(bounded=bounded),
                       radius=R if bounded else None)


def _alg2(T_expr, eta_expr):
    at = lambda e: e.subs(eta, eta_expr).subs(T, T_expr)  # noqa: E731
    return AveragedSGD(n=n, eta=at(eta), T=T_expr, sigma_grad=at(sp.sqrt(SIGMA_G_SQ)),
                       radius=R)


NOTE_T = "T = ⌈n^e⌉ for the printed T ≍ n^e (constant 1)"

RATE_THM_9 = Rate(
    "statement", EXCESS_RISK, RATE_9, _alg1(T_9, ETA_9, bounded=False),
    problem_class=HOLDER_CLASSES, form="O", confidence=gamma,
    hypotheses=[*ALPHA, WSTAR, DELTA, *GAMMA_9, asm(sp.Ge(n, 2))],
    choices=choices(T_9, ETA_9), embodies=[W_FULL],
    note=f"Algorithm 1 on W = R^d with the printed η; {NOTE_T}")

RATE_THM_10 = Rate(
    "statement", EXCESS_RISK, RATE_10, _alg1(T_10, ETA_10, bounded=True),
    problem_class=(*HOLDER_CLASSES, BALL), form="O", confidence=gamma,
    hypotheses=[*ALPHA, WSTAR, IN_BALL, DELTA, *GAMMA_9, asm(sp.Ge(n, 2))],
    choices=choices(T_10, ETA_10),
    note=f"Algorithm 1 on W = B(0, R) with the printed η; {NOTE_T}")

GAMMA_12 = [asm(sp.Gt(gamma, 18 * sp.exp(-T_10 * d / 8)), "γ ∈ (18 exp(−Td/8), 1)"),
            asm(sp.Lt(gamma, 1), "γ < 1")]

RATE_THM_12 = Rate(
    "statement", EXCESS_RISK, RATE_12, _alg2(T_10, ETA_12),
    problem_class=(*HOLDER_CLASSES, BALL), form="O", confidence=gamma,
    hypotheses=[*ALPHA, WSTAR, IN_BALL, DELTA, *BETA, *GAMMA_12, asm(sp.Ge(n, 2))],
    choices=choices(T_10, ETA_12),
    note=f"Algorithm 2 (any β ∈ (0, 1), held fixed along a path) with the printed "
         f"η = max{{…}}/T; {NOTE_T}")

RATE_THM_12_FIX = Rate(
    "statement", EXCESS_RISK, RATE_12, _alg2(T_10, ETA_12_FIX),
    problem_class=(*HOLDER_CLASSES, BALL), form="O", confidence=gamma,
    hypotheses=[*ALPHA, WSTAR, IN_BALL, DELTA, *BETA, *GAMMA_12, asm(sp.Ge(n, 2))],
    choices=choices(T_10, ETA_12_FIX),
    note=f"Algorithm 2 with η = 1/(T max{{…}}) (the order of the stationary point of the "
         f"proof's own trade-off (38)); {NOTE_T}")

# ---- Lemmas 22–26 (any η < min{1, 1/L}, T, n)
GAMMA_22 = [asm(sp.Gt(gamma, 4 * sp.exp(-d / 8)), "γ ∈ (4 exp(−d/8), 1)"),
            asm(sp.Lt(gamma, 1), "γ < 1")]
RATE_22A = ((T * eta) ** (alpha / 2) * sigma * sp.sqrt(d) * LG ** sp.Rational(1, 4)
            + sigma ** (1 + alpha) * d ** ((1 + alpha) / 2) * LG ** ((1 + alpha) / 4))
RATE_22B = (sigma * sp.sqrt(d) * LG ** sp.Rational(1, 4)
            + sigma ** (1 + alpha) * d ** ((1 + alpha) / 2) * LG ** ((1 + alpha) / 4))
NOTE_22 = ("σ is free: Algorithm 1's σ = √(2 log(2.5/δ))Δ/ε takes every positive value as ε "
           "ranges over (0, ∞), and the bound does not involve ε")

RATE_LEM_22A = Rate(
    "part-a", OUTPUT_NOISE_RISK, RATE_22A, AveragedSGD(n=n, eta=eta, T=T, sigma_out=sigma),
    problem_class=HOLDER_CLASSES, form="O", confidence=gamma / 4,
    hypotheses=[*ALPHA, WSTAR, *STEP, *GAMMA_22], note=NOTE_22)
RATE_LEM_22B = Rate(
    "part-b", OUTPUT_NOISE_RISK, RATE_22B,
    AveragedSGD(n=n, eta=eta, T=T, sigma_out=sigma, radius=R),
    problem_class=(*HOLDER_CLASSES, BALL), form="O", confidence=gamma / 4,
    hypotheses=[*ALPHA, WSTAR, IN_BALL, *STEP, *GAMMA_22], note=NOTE_22)

GAMMA_23 = [asm(sp.Gt(gamma, 4 * delta), "γ ∈ (4δ, 1)"), asm(sp.Lt(gamma, 1))]
RATE_23A = ((T * eta) ** (alpha / 2) * delta_sgd(delta / 2, bounded=False) * sp.log(n) * LG
            + (T * eta) ** ((1 + alpha) / 2) * sp.sqrt(n ** sp.Rational(-1, 2) * LG))
RATE_23B = (delta_sgd(delta / 2, bounded=True) * sp.log(n) * LG
            + sp.sqrt(n ** sp.Rational(-1, 2) * LG))

RATE_LEM_23A = Rate(
    "part-a", GENERALISATION_GAP, RATE_23A, AveragedSGD(n=n, eta=eta, T=T),
    problem_class=HOLDER_CLASSES, form="O", confidence=gamma / 4,
    hypotheses=[*ALPHA, WSTAR, *STEP, *GAMMA_23, asm(sp.Ge(n, 2))], embodies=[W_FULL],
    note="plain SGD (the w̄ of Algorithm 1 before its noise), W = R^d")
RATE_LEM_23B = Rate(
    "part-b", GENERALISATION_GAP, RATE_23B, AveragedSGD(n=n, eta=eta, T=T, radius=R),
    problem_class=(*HOLDER_CLASSES, BALL), form="O", confidence=gamma / 4,
    hypotheses=[*ALPHA, WSTAR, IN_BALL, *STEP, *GAMMA_23, asm(sp.Ge(n, 2))],
    note="plain SGD (the w̄ of Algorithm 1 before its noise), W ⊆ B(0, R)")

RATE_24B = (wstar ** (1 + alpha) * sp.sqrt(LG / T) + wstar ** 2 / (eta * T)
            + wstar ** (1 + alpha) * eta)
RATE_24A = eta ** ((1 + alpha) / 2) * T ** (alpha / 2) * sp.sqrt(LG) + RATE_24B

RATE_LEM_24A = Rate(
    "part-a", EMPIRICAL_GAP_AT_MINIMISER, RATE_24A, AveragedSGD(n=n, eta=eta, T=T),
    problem_class=HOLDER_CLASSES, form="O", confidence=gamma / 4,
    hypotheses=[*ALPHA, WSTAR, *STEP, *GAMMA, asm(sp.Ge(n, 2))], embodies=[W_FULL],
    note="plain SGD, W = R^d")
RATE_LEM_24B = Rate(
    "part-b", EMPIRICAL_GAP_AT_MINIMISER, RATE_24B, AveragedSGD(n=n, eta=eta, T=T, radius=R),
    problem_class=(*HOLDER_CLASSES, BALL), form="O", confidence=gamma / 4,
    hypotheses=[*ALPHA, WSTAR, IN_BALL, *STEP, *GAMMA, asm(sp.Ge(n, 2))],
    note="plain SGD, W ⊆ B(0, R)")

ALG2_FREE = AveragedSGD(n=n, eta=eta, T=T, sigma_grad=sp.sqrt(SIGMA_G_SQ), radius=R)
RATE_25 = delta_sgd(gamma / 6, bounded=True) * sp.log(n) * LG + sp.sqrt(LG / n)
RATE_26 = (wstar ** (1 + alpha) * sp.sqrt(LG / T) + wstar ** 2 / (T * eta) + eta
           + sp.sqrt(LOG_D * LG) * (wstar + eta) / (n * epsilon)
           + eta * T * d * LOG_D * sp.sqrt(LG) / (n ** 2 * epsilon ** 2))

RATE_LEM_25 = Rate(
    "statement", GENERALISATION_GAP, RATE_25, ALG2_FREE,
    problem_class=(*HOLDER_CLASSES, BALL), form="O", confidence=gamma / 3,
    hypotheses=[*ALPHA, WSTAR, IN_BALL, *STEP, *GAMMA, *BETA, DELTA, asm(sp.Ge(n, 2))],
    note="Algorithm 2, any β ∈ (0, 1) (held fixed along a path)")
RATE_LEM_26 = Rate(
    "statement", EMPIRICAL_GAP_AT_MINIMISER, RATE_26, ALG2_FREE,
    problem_class=(*HOLDER_CLASSES, BALL), form="O", confidence=gamma / 3,
    hypotheses=[*ALPHA, WSTAR, IN_BALL, *STEP, *BETA, DELTA,
                asm(sp.Gt(gamma, 18 * sp.exp(-d * T / 8)), "γ ∈ (18 exp(−dT/8), 1)"),
                asm(sp.Lt(gamma, 1)), asm(sp.Ge(n, 2))],
    note="Algorithm 2, any β ∈ (0, 1) (held fixed along a path)")

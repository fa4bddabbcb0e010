"""Appendix E of the nsgd paper (004_a52a5530363ebbda.txt, lines 860-937): the RDP
functional (44), Propositions E.1-E.3 and the proof of Lemma 3.1.

Encoding choices:

* The privacy truth is typed on :class:`~theory.mechanisms.SampledGaussian` with
  ``sampling="fixed"`` (a uniform batch of B = γN without replacement, substitution
  adjacency as Definition 2.1 says).  Per step the paper's mechanism adds N(0, σ²B²) to the
  SUM of normalised gradients (sensitivity 1, the proof says) — noise multiplier Bσ; for
  DP-SGD N(0, σ²B²c²) with sensitivity c, the same multiplier.
* Proposition E.1(iii) is the RDP-to-DP conversion; it is checked on the Gaussian mechanism
  (ε_M(α) = α/(2σ²) exactly, Mironov 2017), where the exact privacy profile is known.
* The proof of Lemma 3.1 ends with "when ε = c1γ²T, we can satisfy all these conditions by
  setting σ ≥ c2γ√(T log(1/δ))/(Bε) for some explicit constants c1 and c2": no constants
  are given.  The row asks, at the smallest σ allowed, for an order α in
  [1, (B²σ²/2) log(1/γ)] meeting both conditions (the ``exists`` oracle).  Written out
  (L = log(1/δ)): the first condition is α ≤ c2²L/(14c1γ²T), the second
  α ≥ 1 + 2L/(c1γ²T); both hold for some α only if c1γ²T + 2L ≤ c2²L/14, which fails for
  EVERY pair (c1, c2) once L = log(1/δ) → 0 (δ → 1) at fixed γ²T: the witness family.
"""
from __future__ import annotations

from dataclasses import replace

import sympy as sp

from theory.mechanisms import Composition, GaussianMechanism, SampledGaussian
from theory.model import Bound, Result, Step, StepKind, asm
from theory.papers.nsgd.symbols import (B, LOG, N, T, alpha_r, c1, c2, delta, eps_M, eps_dp,
                                        eps_p, eps_sum, epsilon, gamma, sigma, sigma_p)

ALG, SCA, PRO, CIT = StepKind.ALGEBRA, StepKind.SCALAR, StepKind.PROBABILISTIC, StepKind.CITED

EQ_44 = Result(
    "nsgd:eq-44", "The RDP functional", "App. E, eq. (44)",
    note="ε_M(α) := sup_{D,D'} D_α(M(D)‖M(D')) = sup (1/(α − 1)) log E_{θ~M(D')}[(M(D)(θ)/"
         "M(D')(θ))^α], α ≥ 1.")

_CONV = sp.exp((alpha_r - 1) * (alpha_r / (2 * sigma**2) - epsilon))

PROP_E_1 = Result(
    "nsgd:prop-e.1", "Notions of DP through the RDP functional", "App. E, Proposition E.1",
    hypotheses=[asm(sp.Gt(alpha_r, 1), "α ≥ 1 (the order of (44); > 1 where D_α is Rényi)")],
    statement=[
        Step("part-1", eps_dp, "<=", epsilon, CIT, because="Dwork et al. 2014: ε_M(∞) ≤ ε iff ε-DP"),
        Step("part-2", eps_M, "<=", epsilon, CIT, because="Mironov 2017: definition of (α, ε)-RDP"),
        Step("part-3", eps_dp, "<=", epsilon, PRO,
             note="(iii) if δ ≥ exp[(α − 1)(ε_M(α) − ε)] for some α ≥ 1 then (ε, δ)-DP "
                  "(Abadi et al. 2016, Thm 2); checked on the Gaussian mechanism"),
    ],
    bounds=[Bound("part-3", epsilon, GaussianMechanism(sensitivity=1, sigma=sigma),
                  delta=_CONV, profile=True,
                  hypotheses=[asm(sp.Gt(alpha_r, 1), "α > 1")],
                  note="the Gaussian mechanism at sensitivity 1: ε_M(α) = α/(2σ²); the claim: "
                       "(ε, exp((α − 1)(α/(2σ²) − ε)))-DP for every ε and α > 1")])

PROP_E_2 = Result(
    "nsgd:prop-e.2", "RDP composition (Mironov 2017, Prop. 1)", "App. E, Proposition E.2",
    statement=[Step("statement", eps_M, "<=", eps_sum, CIT,
                    because="Mironov (2017), Proposition 1: ε_M(α) ≤ Σ_i ε_{M_i}(α) for an "
                            "adaptive composition, every fixed α ≥ 1")])

E3_HYPS = [asm(sp.Lt(gamma, sp.Rational(1, 10)), "Proposition E.3: B < 0.1N"),
           asm(sp.Le(alpha_r, sigma**2 / 2 * sp.log(1 / gamma)), "(45): α ≤ (σ²/2) log(1/γ)"),
           asm(sp.Gt(alpha_r, 1), "α > 1")]

PROP_E_3 = Result(
    "nsgd:prop-e.3", "Privacy amplification by uniform sub-sampling without replacement",
    "App. E, Proposition E.3, eq. (45)",
    hypotheses=E3_HYPS,
    statement=[Step("statement", eps_M, "<=", 7 * gamma**2 * alpha_r / sigma**2, PRO, eq="45",
                    note="Gaussian(σ) ∘ subsample(N, B), γ = B/N: ε_M(α) ≤ 7γ²α/σ² for α ≤ "
                         "(σ²/2) log(1/γ) (Bun et al. 2018, Thm 11 specialised)")],
    bounds=[Bound("statement", 7 * gamma**2 * alpha_r / sigma**2,
                  SampledGaussian(q=gamma, sigma=sigma, sampling="fixed"), order=alpha_r,
                  hypotheses=E3_HYPS)])

LEM31_HYPS = [asm(sp.Lt(B, N / 10), "Lemma 3.1: B < 0.1N"),
              asm(sp.Lt(epsilon, c1 * B**2 * T / N**2), "Lemma 3.1: ε < c1B²T/N²"),
              asm(sp.Ge(sigma, c2 * sp.sqrt(T * LOG) / (N * epsilon)),
                  "Lemma 3.1: σ ≥ c2√(T log(1/δ))/(Nε)"),
              asm(sp.Lt(delta, 1), "δ < 1 (δ ≥ 1 is trivial)")]

LEM31_BOUND = Bound(
    "statement", epsilon,
    Composition(
        SampledGaussian(q=B / N, sigma=B * sigma, sampling="fixed"), T),
    delta=delta, profile=True, hypotheses=LEM31_HYPS,
    note="T steps of the sampled Gaussian with a uniform batch of B out of N (substitution "
         "adjacency), noise multiplier Bσ")

PROOF_3_1 = [
    Step("composition", T * 7 * gamma**2 * alpha_r / (B * sigma)**2, "=",
         7 * T * gamma**2 * alpha_r / (B**2 * sigma**2), ALG,
         because="Propositions E.2 and E.3 with noise multiplier Bσ (sum of normalised "
                 "gradients, sensitivity 1)"),
    Step("conversion", delta, ">=", sp.exp((alpha_r - 1) * (eps_M - epsilon)), SCA,
         given=[asm(sp.Gt(alpha_r, 1), "α > 1"),
                asm(sp.Le(eps_M, 7 * T * gamma**2 * alpha_r / (B**2 * sigma**2)), "composition"),
                asm(sp.Le(7 * T * gamma**2 * alpha_r / (B**2 * sigma**2), epsilon / 2),
                    "7Tγ²α/(B²σ²) ≤ ε/2"),
                asm(sp.Le(sp.exp(-(alpha_r - 1) * epsilon / 2), delta), "exp(−(α − 1)ε/2) ≤ δ")],
         because="then Proposition E.1(iii) gives (ε, δ)-DP"),
    Step("constants", 0, "<=",
         sp.Min(eps_p / 2 - 7 * T * B**2 * alpha_r / (N**2 * B**2 * sigma_p**2),
                sp.log(delta) + (alpha_r - 1) * eps_p / 2), PRO,
         oracle="exists",
         oracle_args={"var": "alpha_r", "lower": 1,
                      "upper": B**2 * sigma_p**2 / 2 * sp.log(N / B)},
         given=[asm(sp.Eq(eps_p, c1 * B**2 * T / N**2), "ε = c1γ²T, γ = B/N"),
                asm(sp.Eq(sigma_p, c2 * N * sp.sqrt(T * LOG) / (c1 * B**2 * T)),
                    "σ = c2γ√(T log(1/δ))/(Bε) at ε = c1γ²T: the smallest σ allowed")],
         note="'we can satisfy all these conditions': an α in [1, (B²σ²/2) log(1/γ)] with "
              "7Tγ²α/(B²σ²) ≤ ε/2 and exp(−(α − 1)ε/2) ≤ δ (γ written B/N; ε, σ the values "
              "of the proof's last sentence, the edge of the lemma's range).  A witness at "
              "one pair (c1, c2) extends to every pair: the family δ → 1 of the module "
              "docstring", origin="printed"),
]

RESULTS = [EQ_44, PROP_E_1, PROP_E_2, PROP_E_3]

#: Lemma 3.1 at c1 = c2 = 1 (a typed statement needs the constants; the printed one
#: quantifies them existentially and the proof names none)
_PIN = {c1: 1, c2: 1, B: 9, N: 100, delta: sp.Rational(1, 2)}
LEM31_C11_HYPS = [replace(h, expr=h.expr.subs(_PIN),
                          name=h.name + " at c1 = c2 = 1, B = 9, N = 100, δ = 1/2")
                  for h in LEM31_HYPS if h.expr.subs(_PIN) is not sp.true] + [
    asm(sp.Le(T, 300), "a sub-range: T ≤ 300 (the exact accountant stays cheap)")]
LEM31_C11_BOUND = Bound(
    "statement", epsilon,
    Composition(SampledGaussian(q=sp.Rational(9, 100), sigma=9 * sigma, sampling="fixed"), T),
    delta=sp.Rational(1, 2), profile=True, hypotheses=LEM31_C11_HYPS,
    note="the statement of Lemma 3.1 at c1 = c2 = 1 on the sub-range B = 9, N = 100, "
         "δ = 1/2, T ≤ 300, against one adjacent pair's exact profile (PLD, both orders): a "
         "lower bound of the truth, so a violation is real")

"""Metrics of utility and convergence claims (:class:`theory.model.Rate`).

A metric names *what* a rate bounds, so that a rate provider in ``checks`` can measure
it on simulated runs.  Add a metric here (one instance, with an unambiguous definition)
when a paper bounds something new; never encode a metric as free text.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Metric:
    """A measurable quantity of a run θ_0, …, θ_T (``key`` is stable; ``definition`` exact)."""

    key: str
    definition: str

    def __str__(self) -> str:
        return self.definition


MIN_EXPECTED_SQRT_GAP = Metric("min-expected-sqrt-gap", "min_{0≤t≤T} E[√(f(θ_t) − f*)]")
EXPECTED_GAP_LAST = Metric("expected-gap-last", "E[f(θ_T)] − f*")
EXPECTED_GAP_AVERAGE = Metric("expected-gap-average", "E[f(θ̄_T)] − f*, θ̄_T the plain average")
AVERAGE_EXPECTED_GRAD_SQ = Metric("average-expected-grad-sq", "(1/T) Σ_{t<T} E‖∇f(θ_t)‖²")
MIN_EXPECTED_GRAD_NORM = Metric("min-expected-grad-norm", "min_{t<T} E‖∇f(θ_t)‖")
EXPECTED_MIN_GRAD_NORM = Metric("expected-min-grad-norm", "E[min_{t<T} ‖∇f(θ_t)‖]")
WEIGHTED_EXPECTED_GRAD_SQ = Metric(
    "weighted-expected-grad-sq",
    "Σ_{t<T} A_t E‖∇f(θ_t)‖² / Σ_{t<T} A_t, the weights A_t ≥ 0 computed by the algorithm "
    "from its own state (the statement names the rule)")
EXCESS_POPULATION_RISK = Metric("excess-population-risk",
                                "E[F(A(S))] − min_w F(w), F the population risk")

# random quantities of one run (S ~ D^n and the algorithm's randomness): a Rate on one of
# these with ``confidence`` = γ claims the bound with probability at least 1 − γ, and is
# checked on the (1 − γ)-quantile
EXCESS_RISK = Metric("excess-risk", "F(A(S)) − min_w F(w), F the population risk (a random "
                                    "variable over S ~ D^n and the algorithm)")
OUTPUT_NOISE_RISK = Metric("output-noise-risk",
                           "F(A(S)) − F(w̄(S)), w̄(S) the released point before its final "
                           "perturbation (a random variable)")
GENERALISATION_GAP = Metric("generalisation-gap",
                            "F(A(S)) − F_S(A(S)), F_S the empirical risk on S (a random "
                            "variable)")
EMPIRICAL_GAP_AT_MINIMISER = Metric(
    "empirical-gap-at-minimiser",
    "F_S(A(S)) − F_S(w*), w* a minimiser of the population risk F (a random variable)")

METRICS = {m.key: m for m in (MIN_EXPECTED_SQRT_GAP, EXPECTED_GAP_LAST, EXPECTED_GAP_AVERAGE,
                              AVERAGE_EXPECTED_GRAD_SQ, MIN_EXPECTED_GRAD_NORM,
                              EXPECTED_MIN_GRAD_NORM, WEIGHTED_EXPECTED_GRAD_SQ,
                              EXCESS_POPULATION_RISK, EXCESS_RISK, OUTPUT_NOISE_RISK,
                              GENERALISATION_GAP, EMPIRICAL_GAP_AT_MINIMISER)}

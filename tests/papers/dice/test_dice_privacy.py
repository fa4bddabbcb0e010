"""Theorem 3.7 (and its restatement A.3) against the exact privacy truth of the released
trajectory (provider ``error-feedback-sgd``): Assumption 3.5 is a typed class now, so the
statement is tested, and it is VIOLATED — the hidden buffer e_t is released through
clip(e_t, C2) at up to C2 per step, neither divided by B nor amplified by sub-sampling,
while σ₁ only grows like C2/N.  The witness is re-checked here: every hypothesis at the
witness, the canary's membership of both classes, and the truth at 50 digits."""
from __future__ import annotations

import math
import re

import mpmath
import pytest

from checks.truth.base import evaluate_mp
from checks.truth.error_feedback import ErrorFeedbackSGDProvider
from checks.statements import Space, check_result_statements
from checks.verdict import StatementVerdict
from theory.classes import BoundedGradient, GradNoise
from theory.papers import dice

_MEMO: dict = {}


def by_id(rid):
    return {r.id: r for r in dice.RESULTS}[f"dice:{rid}"]


def outcome(rid):
    if rid not in _MEMO:
        _MEMO[rid] = check_result_statements(by_id(rid), budget=40, seed=0)
    return _MEMO[rid]


def test_assumption_35_is_a_typed_class():
    for rid in ("asm-3.5", "thm-3.6", "thm-3.7", "thm-a.2", "thm-a.3"):
        r = by_id(rid)
        assert not [h for h in r.hypotheses if h.is_predicate], rid
        assert any(isinstance(h.cls, BoundedGradient) and h.cls.of == "objective"
                   for h in r.hypotheses if h.cls is not None), rid


@pytest.mark.parametrize("rid", ["thm-3.7", "thm-a.3"])
def test_privacy_statement_violated_with_rechecked_witness(rid):
    rep, outs = outcome(rid)
    assert rep.verdict is StatementVerdict.VIOLATED, rep.detail
    out = outs["statement"]
    assert "error-feedback-sgd" in out.detail and "50 digits" in out.detail
    w = out.witness
    st = by_id(rid).bounds[0]
    v = {k: float(w[k]) for k in ("B", "C", "C1", "C2", "G", "N", "T", "delta", "epsilon",
                                  "eta", "sigma", "sigma1")}
    # every hypothesis of the statement holds at the witness (G̃ from G and σ, not drawn)
    full = Space(st).admissible(v)
    assert full is not None
    # σ₁ at the witness satisfies the theorem's noise condition, at 50 digits
    with mpmath.workdps(50):
        gt = evaluate_mp(st.mechanism.C1**2, full) + 2 * mpmath.mpf(full["mG"]) ** 2
        need = 32 * full["T"] * gt * mpmath.log(1 / mpmath.mpf(full["delta"])) / (
            mpmath.mpf(full["N"]) ** 2 * mpmath.mpf(full["epsilon"]) ** 2)
        assert mpmath.mpf(full["sigma1"]) ** 2 >= need
    # the canary is a member of both classes: ∇f = s/N ≤ G, variance ≤ σ²/N
    s = float(re.search(r"l\(θ\) = ([0-9.e+-]+)·θ", w["scenario"]).group(1))
    N = full["N"]
    assert s / N <= full["G"] * (1 + 1e-5)
    assert s * s * (N - 1) / N**2 <= full["sigma"] ** 2 / N * (1 + 1e-5)
    assert {type(c) for c in (h.cls for h in st.hypotheses) if c} == {GradNoise, BoundedGradient}
    # the truth at 50 digits, from the provider again, exceeds δ
    t = ErrorFeedbackSGDProvider().truth(st, full, precise=True)
    assert mpmath.mpf(t.extra["lower_mp"]) > evaluate_mp(st.delta, full) * 1000
    assert t.forward > 0.1 and t.backward > 0.01        # both orders break it


def test_t1_variant_agrees_with_the_generic_provider():
    """At T = 1 the theorem's mechanism is one sampled Gaussian step: the error-feedback
    provider and the sampled-Gaussian provider give the same δ at thm-3.7+t1's scenario
    (p = 1/5, ϵ = 10, δ = 10⁻⁵, G̃ = C1²), above δ."""
    from checks.truth.error_feedback import halfline_profile, released_sum_law
    from checks.truth.providers import SampledGaussianProvider
    st = by_id("thm-3.7+t1").bounds[0]
    v = {"p": 0.2, "epsilon": 10.0, "delta": 1e-5}
    sg = SampledGaussianProvider().truth(st, v)
    z = 0.2 * math.sqrt(32 * math.log(1e5)) / 10
    m, w = released_sum_law(1, 0.2, 1.0, 1, 1.0, 1.0)
    f, r, err, _ = halfline_profile(m, w, z, 10.0)
    assert abs(f - sg.max) <= sg.error + err
    assert f > 1e-5

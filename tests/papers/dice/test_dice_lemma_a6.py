"""Lemma A.6 (21) on exact 1-D instances (oracle ``error-buffer-shift``): after K samplings
of ξ' the D' buffer holds e'_t > C2 while e_t = 0, so α_e^t = 1 and the printed right side
forgets the persistent shift −(e'_t − C2) that the update (8) carries into Δe_{t+1}."""
from __future__ import annotations

from fractions import Fraction

import mpmath

from checks import engine
from checks.papers.dice.oracles import d2_vs_zero, instance
from checks.verdict import Verdict
from theory.papers import dice


def test_d2_closed_form_of_a_gaussian():
    # D_2(N(m, σ²) ‖ N(0, σ²)) = m²/σ²
    with mpmath.workdps(50):
        assert abs(d2_vs_zero([mpmath.mpf(1)], [mpmath.mpf(3)], Fraction(2))
                   - mpmath.mpf(9) / 4) < mpmath.mpf(10) ** -45


def test_instance_by_hand():
    left, right, desc = instance(5, Fraction(2), 5)
    assert desc["e'_t"] == "6"          # 2, 3, 4, 5, 6: +2 sampled, −1 released per step
    with mpmath.workdps(50):
        p = mpmath.mpf(1) / 5
        want = mpmath.log((1 - p) ** 2 * mpmath.exp(25) + 2 * p * (1 - p) * mpmath.exp(35)
                          + p**2 * mpmath.exp(49))
        assert abs(left - want) < mpmath.mpf(10) ** -40
        assert left > right


def test_statement_refuted_by_the_oracle():
    r = {x.id: x for x in dice.RESULTS}["dice:lem-a.6"]
    rep = engine.check_result(r, budget=50, seed=0)
    s = {x.id.split("/", 1)[1]: x for x in rep.steps}["statement"]
    assert s.verdict is Verdict.REFUTED and s.method == "oracle:error-buffer-shift"
    assert s.counterexample["K"] == "3" and s.counterexample["e'_t"] == "4"  # the first found

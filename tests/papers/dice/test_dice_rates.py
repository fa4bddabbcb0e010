"""Theorem 3.6 (and A.2) against simulation (provider ``error-feedback-rate``): with
Assumption 3.5 typed and f(x_0) − f⋆ an ``InitialGap``, the rate (4) is tested and
VIOLATED.  Small clipping thresholds (admissible: C2 ≥ 3C1 + σ/√B only ties them to the
gradient noise) make K = 2C1² + 3C2² + dσ₁² and the bound tiny while the iterates cannot
move fast enough: at T = 2 the weighted metric is ‖∇f(x_0)‖² exactly, and the violation
persists at T = 256 by simulation (the buffer's delayed release makes the iterates
oscillate)."""
from __future__ import annotations

import math

import mpmath
import pytest

from checks.truth.rates_error_feedback import Scenario, exact_weighted_at_two_steps
from checks.statements import Space, check_result_statements
from checks.verdict import StatementVerdict
from theory.papers import dice
from theory.papers.dice import sec3

_MEMO: dict = {}


def by_id(rid):
    return {r.id: r for r in dice.RESULTS}[f"dice:{rid}"]


def test_rate_36_violated_with_exact_two_step_witness():
    rep, outs = check_result_statements(by_id("thm-3.6"), budget=40, seed=0)
    assert rep.verdict is StatementVerdict.VIOLATED, rep.detail
    out = outs["statement"]
    assert "error-feedback-rate" in out.detail and "50 digits" in out.detail
    assert float(out.witness["truth_error"]) == 0.0       # exact: the two-step metric
    w = out.witness
    st = by_id("thm-3.6").rates[0]
    v = {k: float(w[k]) for k in ("B", "C1", "C2", "Delta0", "G", "L", "N", "T", "d",
                                  "sigma", "sigma1")}
    full = Space(st).admissible(v)              # η defined by the theorem, C2 ≥ 3C1 + σ/√B
    assert full is not None and full["T"] == 2
    assert full["C2"] >= 3 * full["C1"] + full["sigma"] / math.sqrt(full["B"])
    sc = eval(w["scenario"], {"Scenario": Scenario})       # noqa: S307 - our own repr
    assert sc.L == full["L"] and sc.G == full["G"] and sc.gap0 == full["Delta0"]
    assert sc.noise <= full["sigma"] / math.sqrt(full["N"]) * (1 + 1e-12)
    with mpmath.workdps(50):
        bound = 2 * mpmath.sqrt(2 * mpmath.mpf(full["L"]) * mpmath.mpf(full["Delta0"])
                                * (2 * mpmath.mpf(full["C1"]) ** 2
                                   + 3 * mpmath.mpf(full["C2"]) ** 2
                                   + full["d"] * mpmath.mpf(full["sigma1"]) ** 2) / 2)
        assert exact_weighted_at_two_steps(sc) > 10 * bound
    assert st.expr == sec3.RATE36


def test_restatement_a2_carries_the_same_rate():
    assert by_id("thm-a.2").rates[0].expr == by_id("thm-3.6").rates[0].expr
    assert by_id("thm-a.2").rates[0].problem_class == by_id("thm-3.6").rates[0].problem_class

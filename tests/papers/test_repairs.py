"""Issue 35's acceptance: the repair an independent reading of the five papers found by
hand for nine refuted lines is the one the repair search reports first.

Each row is checked alone (the engine's own row check, or its result's typed statements
for a statement), then repaired exactly as ``dpcheck verify`` repairs it."""
from __future__ import annotations

import functools

import pytest

from checks import engine, repair
from checks.repair import search as S
from checks.verdict import Verdict
from theory import registry
from theory.model import walk_steps


@functools.lru_cache(maxsize=None)
def _row(step_id: str):
    result = registry.get(step_id.split("/", 1)[0])
    roles = engine.roles_of(result)
    loc = {lc.id: lc for lc in walk_steps(result, roles)}[step_id]
    opts = engine.Options()
    rep = engine.check_step(loc, opts, roles=roles)
    assert rep.verdict is Verdict.REFUTED, rep.detail
    ctx = repair.row_context(result)
    if loc.step.oracle:
        return S.repair_oracle_row(loc, rep, ctx, opts)
    return S.repair_row(loc, rep, ctx, opts)


def _statement(result_id: str):
    result = registry.get(result_id)
    opts = engine.Options()
    rep, outs = repair.statements_driver().check_result_statements(
        result, budget=opts.budget, seed=opts.seed)
    label = rep.witness["statement_label"]
    stmt = next(st for st in (*result.bounds, *result.rates) if st.label == label)
    return S.repair_statement(result, stmt, outs[label], repair.row_context(result), opts,
                              driver=repair.statements_driver())


@pytest.mark.parametrize("step_id, summary", [
    ("nsgd:lem-c.1/iii-1", "misprint? holds with 1 − τ₁ in place of τ₁ (right side)"),
    ("nsgd:lem-d.1/small/line-1", "misprint? holds with c² on the left side"),
    ("holder:lem-24/self-bounding-squared",
     "misprint? holds with c_{α,1}² in place of c_{α,1} (right side)"),
    ("holder:thm-7/chernoff-a-probability",
     "misprint? holds with log(n/γ) in place of log(1/γ) (in the definition of γ̃)"),
    ("dice:thm-a.3/sum-eps", "misprint? holds with t + 1 in place of t throughout the "
                             "right side"),
    ("nsgd:thm-3.2/eq-28", "misprint? holds with η² in place of η⁴ (right side)"),
])
def test_misprint_rows_get_the_named_repair(step_id, summary):
    found = _row(step_id)
    assert found.klass == "misprint"
    assert found.summary == summary
    assert found.repairs[0].verdict in ("PROVED", "SUPPORTED")


def test_the_eta4_misprint_of_28_is_proved():
    """(28)'s printed line is dimension-inconsistent (η⁴ where η² fits): the edits under
    which its dimensions match are judged first, and the η² one is PROVED — at its
    realisable witness six dimension-inconsistent edits pass the screen, and judged in the
    families' order they used up the budget before it."""
    assert _row("nsgd:thm-3.2/eq-28").repairs[0].verdict == "PROVED"


def test_the_misprints_that_are_proved():
    """Five of the six repaired lines are PROVED (the Hölder exponent of the sixth,
    2α/(1 + α), is beyond the prover: SUPPORTED there)."""
    for step_id in ("nsgd:lem-c.1/iii-1", "nsgd:lem-d.1/small/line-1",
                    "holder:thm-7/chernoff-a-probability", "dice:thm-a.3/sum-eps",
                    "nsgd:thm-3.2/eq-28"):
        assert _row(step_id).repairs[0].verdict == "PROVED", step_id


def test_lemma_b3_holds_if_r_is_at_least_tau0():
    found = _row("nsgd:lem-b.3/part-1")
    assert found.klass == "hypothesis"
    assert found.summary == "holds if r ≥ τ₀"
    assert "Theorem 3.2" in found.repairs[0].source or "boundary" in found.repairs[0].source


@pytest.mark.parametrize("result_id", ["dice:def-2.2", "holder:lem-2"])
def test_gaussian_calibration_holds_if_epsilon_at_most_1(result_id):
    found = _statement(result_id)
    assert found.klass == "hypothesis"
    assert found.summary == "holds if ε ≤ 1"
    assert "Dwork & Roth" in found.repairs[0].source
    assert found.repairs[0].verdict == "SUPPORTED"

"""The divergence-row oracle (checks/truth/divergence_rows.py): exact 1-D instances of rows
between Rényi divergences of one noisy clipped-gradient step, both orders."""
from __future__ import annotations

import math

import pytest

from checks import engine
from checks.plugins import get_step_oracle
from checks.oracles import divergence_rows as DR
from theory import registry
from theory.model import walk_steps


def _row(rid: str, label: str):
    r = registry.get(rid)
    roles = engine.roles_of(r)
    for loc in walk_steps(r, roles):
        if loc.id.endswith("/" + label):
            return loc, roles
    raise KeyError(label)


def _check(rid, label):
    loc, roles = _row(rid, label)
    return engine.check_step(loc, engine.Options(), roles=roles)


def test_registered():
    assert get_step_oracle("divergence-row") is DR.divergence_row


def test_shifted_lower_bound_is_below_the_translation_and_positive():
    # D^{(w)}(N(a, s²) ‖ N(0, s²)) ≤ α(a − w)²/(2s²) (translate by w): the threshold
    # bound must stay below it, and be > 0 when a > w
    a, w, s, alpha = 3.0, 1.0, 0.5, 4.0
    low, _ = DR.shifted_lower([(1.0, a)], [(1.0, 0.0)], s, w, alpha)
    assert 0 < low <= alpha * (a - w) ** 2 / (2 * s * s)
    low0, _ = DR.shifted_lower([(1.0, 0.5)], [(1.0, 0.0)], s, 1.0, alpha)
    assert low0 == 0.0          # a shift of 1 reaches N(0, s²) itself


def test_mixture_identity_row_is_judged_in_the_order_it_is_written_for():
    """(37), second line: P_ψ'(ν) = (1−q)P_ψ(ν) + qP_ψ''(ν) holds for D' = D ∪ {x̄}, the case
    the paper writes it for, and fails for D' = D \\ {x̄}: the row as encoded (orders='add')
    is SUPPORTED, judged in the add order only — the remove order is the proof's missing
    case (its own row), not a refutation of this line; asked in both orders, the oracle
    refutes it with a remove-order witness."""
    from dataclasses import replace
    rep = _check("liang-aaai:lem-3.2", "eq-37.2")
    assert rep.verdict.value == "SUPPORTED", rep.detail
    assert "add order only" in rep.detail and "remove:" not in rep.detail
    loc, roles = _row("liang-aaai:lem-3.2", "eq-37.2")
    both = dict(loc.step.oracle_args, orders="add,remove")
    loc2 = replace(loc, step=replace(loc.step, oracle_args=tuple(sorted(both.items()))))
    rep = engine.check_step(loc2, engine.Options(), roles=roles)
    assert rep.verdict.value == "REFUTED"
    assert "remove" in rep.counterexample["order"]
    assert float(rep.counterexample["lhs"]) > float(rep.counterexample["rhs"])


def test_the_orders_argument_is_checked():
    from dataclasses import replace
    loc, roles = _row("liang-aaai:lem-3.2", "eq-37.2")
    bad = dict(loc.step.oracle_args, orders="sideways")
    with pytest.raises(ValueError, match="orders"):
        DR.spec_of(replace(loc, step=replace(loc.step, oracle_args=tuple(sorted(bad.items())))))


def test_shift_row_fails_when_poisson_batches_exceed_b():
    """(37), first line: W∞(P_ψ(μ), P_ψ(μ')) ≤ (1+ηL)z fails for a concave L-smooth loss when
    the Poisson batch holds more than b examples (the sum is divided by b): refuted, and in
    the order the proof writes (add) too."""
    rep = _check("liang-icml:lem-3.2", "eq-38.1")
    assert rep.verdict.value == "REFUTED"
    assert rep.counterexample["order"].endswith("(add)")
    assert not rep.counterexample["regular loss"].startswith("−(0/")


@pytest.mark.parametrize("label", ["eq-37.3", "eq-38.1", "eq-38.2"])
def test_true_lemmas_are_supported_in_both_orders(label):
    """Convexity in the second argument, post-processing, composition: no violation."""
    rep = _check("liang-aaai:lem-3.2", label)
    assert rep.verdict.value == "SUPPORTED"
    assert "add:" in rep.detail and "remove:" in rep.detail
    assert rep.samples > 20


def test_unmapped_symbol_is_an_encoding_error():
    from dataclasses import replace
    loc, roles = _row("liang-aaai:lem-3.2", "eq-37.3")
    args = dict(loc.step.oracle_args)
    args["quantities"] = "D_psi1_mix=out_mix"
    bad = replace(loc, step=replace(loc.step, oracle_args=tuple(sorted(args.items()))))
    with pytest.raises(ValueError, match="neither mapped"):
        DR.spec_of(bad)


def test_first_broken_line_names_the_printed_line_per_order():
    from checks.verdict import StepReport, Verdict, first_broken
    rows = [StepReport("p:r/part-1", "10", "PROBABILISTIC", Verdict.REFUTED, "statement"),
            StepReport("p:r/eq-5.1", "5", "PROBABILISTIC", Verdict.SUPPORTED, "x"),
            StepReport("p:r/eq-5/link-1", None, "LINK", Verdict.REFUTED, "x"),
            StepReport("p:r/eq-5.2", "5", "PROBABILISTIC", Verdict.REFUTED, "x",
                       counterexample={"order": "D' = D \\ {x̄} (remove)"}),
            StepReport("p:r/eq-6.1", "6", "PROBABILISTIC", Verdict.REFUTED, "x",
                       counterexample={"fails_in": "add, remove"})]
    fb = first_broken(rows, ["p:r/part-1"])
    assert fb["line"] == "p:r/eq-5.2" and fb["printed"] == "(5), line 2"
    assert fb["by_order"]["remove"]["line"] == "p:r/eq-5.2"
    assert fb["by_order"]["add"]["line"] == "p:r/eq-6.1"
    assert first_broken(rows[:3], ["p:r/part-1"]) is None


def test_lemma_report_locates_the_broken_line():
    """dpcheck verify's first_broken_line for the noisy smooth-reduction lemma: the first
    line of (37) in both orders (the shift expands beyond (1+ηL)z)."""
    rep = engine.check_result(registry.get("liang-aaai:lem-3.2"))
    fb = rep.to_json()["first_broken_line"]
    assert fb["line"] == "liang-aaai:lem-3.2/eq-37.1"
    assert set(fb["by_order"]) == {"add", "remove"}
    assert fb["by_order"]["remove"]["printed"] == "(37), line 1"


def test_domain_recursion_row_fails_with_the_same_expansion():
    """(49) [ICML (46)], one projected step of DPSGD-DC with the split noise: refuted in both
    orders on K = [−10, 10] (a concave loss, a Poisson batch larger than b)."""
    rep = _check("liang-aaai:thm-3.4", "eq-49")
    assert rep.verdict.value == "REFUTED"
    assert rep.counterexample["fails_in"] == "add, remove"
    assert "K" in rep.counterexample


def test_shift_identity_row_is_supported():
    rep = _check("liang-aaai:thm-3.3", "eq-44.3")
    assert rep.verdict.value == "SUPPORTED" and rep.samples > 0


def test_typed_bound_rows():
    """Rows about the last iterate's privacy loss, judged as typed statements: the end of
    the induction (45) at the proof's values a_t = 0, θ_0 = θ'_0 fails like (41) itself; the
    omitted part-2 proof's row holds on the scenarios."""
    from checks.oracles.bound_rows import row_statement
    loc, _ = _row("liang-aaai:thm-3.3", "eq-45.1")
    stmt, at = row_statement(loc)
    assert {s.name for s in at} == {"D_init", "sum_a2"} and stmt.form == "explicit"
    rep = _check("liang-aaai:thm-3.3", "eq-45.1")
    assert rep.verdict.value == "REFUTED"
    cx = rep.counterexample
    assert float(cx["truth_max"]) - float(cx["truth_error"]) > float(cx["bound"])
    assert _check("liang-aaai:thm-3.3", "part-2-omitted").verdict.value == "SUPPORTED"
    loc, _ = _row("liang-aaai:thm-3.4", "part-2-omitted")
    assert row_statement(loc)[0].form == "O"


def test_the_batch_model_is_a_reading_of_the_shift_row():
    """(38), first line (ICML): Algorithm 1 samples with probability q = b/n — a Poisson
    batch larger than b breaks the row — while Sec. 2 writes b = |B_t|; under a batch of
    exactly b records the row holds: the row depends on the reading."""
    rep = _check("liang-icml:lem-3.2", "eq-38.1")
    assert rep.verdict.value == "REFUTED"
    (rd,) = rep.readings
    assert rd["name"] == "fixed-batch" and rd["verdict"] == "SUPPORTED", rd["detail"]
    assert "exactly b records" in rd["detail"]

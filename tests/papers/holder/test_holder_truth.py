"""The truth side of the Hölder-smooth DP-SGD paper (key ``holder``): every PROBABILISTIC row
is decidable (an oracle or a typed statement), the utility claims are simulated with the
printed T and η — Theorem 12 VIOLATED with a 50-digit certified witness along n, its
repaired step size and the other rates holding on scenarios — and Theorem 7's stability
bound is checked by the generic oracle, a planted bound 100 times smaller refuted."""
from __future__ import annotations

from dataclasses import replace

import mpmath
import pytest

from checks import engine
from checks.plugins import get_step_oracle
from checks.statements import check_result_statements
from checks.verdict import StatementVerdict, Verdict
from theory.model import Chain, StepKind, walk_steps


def _results():
    from theory.papers import holder
    return {r.id: r for r in holder.RESULTS}


def _concluded(result, label) -> bool:
    return any(isinstance(i, Chain) and i.concludes == label for i in result.proof)


def test_every_probabilistic_row_has_a_way_to_be_decided():
    missing = []
    for r in _results().values():
        typed = {s.label for s in (*r.bounds, *r.rates)}
        for loc in walk_steps(r):
            st = loc.step
            if st.kind is not StepKind.PROBABILISTIC:
                continue
            part = loc.id.count("/") == 1 and st in r.statement
            ok = (st.oracle and get_step_oracle(st.oracle) is not None) or \
                (part and (st.label in typed or _concluded(r, st.label)
                           or r.kind in ("def", "asm")))
            if not ok:
                missing.append(loc.id)
    assert not missing


def test_theorem_12_as_printed_is_violated_along_n_with_a_50_digit_witness():
    rep, outs = check_result_statements(_results()["holder:thm-12"], budget=2000, seed=0)
    assert rep.verdict is StatementVerdict.VIOLATED
    out = outs["statement"]
    assert "n → ∞' (×≥2" in out.detail                   # the headline path is n → ∞
    w = out.witness
    assert mpmath.mpf(w["truth_max"]) > mpmath.mpf(w["bound"]) > 0      # the floor
    rs = [float(x) for x in w["ratios_50_digits"].split(",")]
    assert len(rs) == 4 and all(b >= 2 * a for a, b in zip(rs, rs[1:]))
    assert float(w["n"]) >= 10 ** 6 and float(w["wstar"]) >= 1 and float(w["wstar"]) <= float(w["R"])


def test_theorem_12_with_the_stationary_step_size_holds_on_scenarios():
    rep, outs = check_result_statements(_results()["holder:thm-12+fix"], budget=2000, seed=0)
    assert rep.verdict is StatementVerdict.HOLDS_ON_SCENARIOS, rep.detail
    assert "alpha = 0," in rep.detail and "alpha = 1," in rep.detail   # α across [0, 1]


@pytest.mark.parametrize("rid", ["holder:thm-9", "holder:thm-10", "holder:lem-22",
                                 "holder:lem-23", "holder:lem-24", "holder:lem-25",
                                 "holder:lem-26"])
def test_the_other_rates_hold_on_scenarios(rid):
    rep, outs = check_result_statements(_results()[rid], budget=1000, seed=0)
    assert rep.verdict is StatementVerdict.HOLDS_ON_SCENARIOS, rep.detail
    assert all(o.tested and not o.violated and "stays bounded" in o.detail
               for o in outs.values())


def test_parts_take_the_outcome_of_their_typed_statements():
    rep = engine.check_result(_results()["holder:lem-24"], budget=500, seed=0)
    parts = {s.id.rsplit("/", 1)[1]: s for s in rep.steps if s.id.count("/") == 1}
    assert parts["part-a"].verdict is Verdict.SUPPORTED
    assert parts["part-b"].verdict is Verdict.SUPPORTED
    assert "stays bounded" in parts["part-b"].detail


def test_theorem_7_stability_oracle_and_a_planted_smaller_bound():
    r = _results()["holder:thm-7"]
    opts = engine.Options(budget=2000)
    locs = {loc.id.split("/", 1)[1]: loc for loc in walk_steps(r)}
    for part in ("part-a", "part-b"):
        got = engine.check_step(locs[part], opts)
        assert got.verdict is Verdict.SUPPORTED, got.detail
        assert 0 < 1 - got.slack < 0.2                 # the printed bound is loose
    loc = locs["part-b"]
    planted = replace(loc, step=replace(loc.step, rhs=loc.step.rhs / 100))
    got = engine.check_step(planted, opts)
    assert got.verdict is Verdict.REFUTED, got.detail
    assert float(got.counterexample["P"]) > float(got.counterexample["gamma"])


def test_theorem_8_against_the_exact_output_laws_of_algorithm_1():
    """Algorithm 1 on a 1-D member (every index sequence, output mixtures): the calibration
    to Δ_SGD(δ/2) is so loose that privacy fails only at a huge ε — but it fails, since
    σ ∝ 1/ε (Lemma 2's calibration); the witness is re-checked at 50 digits."""
    rep = engine.check_result(_results()["holder:thm-8"], budget=2000, seed=0)
    assert rep.statement.verdict is StatementVerdict.VIOLATED
    w = rep.statement.witness
    assert float(w["epsilon"]) >= 1e5 and float(w["truth_max"]) > float(w["bound"])
    assert "50 digits" in rep.statement.detail and "1-D member" in w["scenario"]
    part = next(s for s in rep.steps if s.id == "holder:thm-8/statement")
    assert part.verdict is Verdict.REFUTED and "rests on CITED rows" in part.detail

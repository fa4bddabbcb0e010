"""checks.engine: verdicts per step, chain links, chain conclusions, case coverage,
units, weakest-step aggregation, determinism; and every ALGEBRA/SCALAR step of the
encoded results gets PROVED, REFUTED or SUPPORTED."""
from __future__ import annotations

import sympy as sp
import pytest

import theory
from checks import engine
from checks.verdict import Verdict
from theory.model import Case, CaseSplit, Chain, Rel, Result, Step, StepKind, asm, walk_steps
from checks.units import using
from theory.papers.liang.symbols import TABLE as LIANG
from theory.papers.liang.symbols import C, L, alpha, b, beta, eta, mu, n, sigma_dp


@pytest.fixture(autouse=True)
def _liang_table():
    """The toy results use the Liang symbols: their dimensions come from that table."""
    with using(LIANG):
        yield

A = 2 * alpha * C**2 / (beta * n * b * sigma_dp**2)
B = 8 * alpha * C**2 / (beta * n**2 * sigma_dp**2)


def toy(proof=(), statement=None, hyps=(asm(alpha > 1), asm(b <= n / 5))):
    return Result(id="toy:lem-1.1", title="toy", where="test", hypotheses=hyps,
                  statement=statement or (Step("statement", B, Rel.LE, A),), proof=proof)


def by_id(rep):
    return {s.id.split("/", 1)[1]: s for s in rep.steps}


def run(result, budget=300):
    return engine.check_result(result, budget=budget, seed=0)


def test_good_chain_all_proved():
    chain = Chain("chain-1", (
        Step("eq-1", B, Rel.EQ, 8 * alpha * C**2 / (beta * n * n * sigma_dp**2), eq="1"),
        Step("eq-2", 8 * alpha * C**2 / (beta * n * n * sigma_dp**2), Rel.LE,
             8 * alpha * C**2 / (beta * n * 5 * b * sigma_dp**2), eq="2"),
        Step("eq-3", 8 * alpha * C**2 / (beta * n * 5 * b * sigma_dp**2), Rel.LE, A, eq="3"),
    ), concludes="statement")
    rep = run(toy((chain,)))
    s = by_id(rep)
    assert set(s) == {"statement", "eq-1", "eq-2", "eq-3", "chain-1/link-1",
                      "chain-1/link-2", "chain-1/concludes", "units"}
    assert all(r.verdict is Verdict.PROVED for r in rep.steps), [
        (r.id, r.verdict, r.detail) for r in rep.steps]
    assert rep.verdict is Verdict.PROVED
    assert s["eq-2"].eq == "2"


def test_planted_link_gap_is_refuted():
    # step 2 starts from something smaller than where step 1 ended: the chain breaks
    chain = Chain("chain-1", (
        Step("eq-1", B, Rel.LE, 8 * alpha * C**2 / (beta * n * 5 * b * sigma_dp**2)),
        Step("eq-2", 8 * alpha * C**2 / (beta * n * 6 * b * sigma_dp**2), Rel.LE,
             3 * A),
    ), concludes=None)
    s = by_id(run(toy((chain,))))
    link = s["chain-1/link-1"]
    assert link.verdict is Verdict.REFUTED and link.counterexample
    assert s["eq-1"].verdict is Verdict.PROVED and s["eq-2"].verdict is Verdict.PROVED


def test_link_with_weaker_valid_relation_is_accepted():
    # eq-1 ends at X, eq-2 starts at Y >= X in a <= chain: still a valid chain
    chain = Chain("chain-1", (
        Step("eq-1", B, Rel.LE, 8 * alpha * C**2 / (beta * n * 5 * b * sigma_dp**2)),
        Step("eq-2", 8 * alpha * C**2 / (beta * n * 4 * b * sigma_dp**2), Rel.EQ, A),
    ))
    link = by_id(run(toy((chain,))))["chain-1/link-1"]
    assert link.verdict is Verdict.PROVED and "keeps the chain valid" in link.detail


def test_chain_that_proves_a_different_statement():
    chain = Chain("chain-1", (Step("eq-1", B, Rel.LE, 2 * A),), concludes="statement")
    c = by_id(run(toy((chain,))))["chain-1/concludes"]
    assert c.verdict is Verdict.REFUTED and c.counterexample


def test_chain_with_clashing_directions():
    chain = Chain("chain-1", (Step("eq-1", B, Rel.LE, A), Step("eq-2", A, Rel.GE, 0)),
                  concludes="statement")
    assert by_id(run(toy((chain,))))["chain-1/concludes"].verdict is Verdict.REFUTED


def test_case_cover_gap_is_refuted_and_full_cover_proved():
    gap = CaseSplit("split", (Case("case-1", (asm(alpha <= 2),), ()),
                              Case("case-2", (asm(alpha >= 3),), ())))
    full = CaseSplit("split", (Case("case-1", (asm(alpha <= 2),), ()),
                               Case("case-2", (asm(alpha > 2),), ())))
    g = by_id(run(toy((gap,))))["split/cover"]
    assert g.verdict is Verdict.REFUTED
    a = sp.Rational(g.counterexample["alpha"])
    assert 2 < a < 3
    assert by_id(run(toy((full,))))["split/cover"].verdict is Verdict.PROVED


def test_case_conditions_are_in_force_inside_the_case():
    split = CaseSplit("split", (
        Case("case-1", (asm(alpha <= 2),), (Step("s", alpha - 1, Rel.LE, 1),)),
        Case("case-2", (asm(alpha > 2),), (Step("s", alpha - 1, Rel.GT, 1),))))
    s = by_id(run(toy((split,))))
    assert s["case-1/s"].verdict is Verdict.PROVED and s["case-2/s"].verdict is Verdict.PROVED


def test_false_step_refuted_and_result_takes_weakest():
    rep = run(toy((Step("bad", eta * mu, Rel.LE, sp.Rational(1, 2), given=(asm(mu <= L),
                                                                            asm(eta <= 1 / L))),)))
    s = by_id(rep)
    assert s["bad"].verdict is Verdict.REFUTED
    cx = {k: sp.Rational(v) for k, v in s["bad"].counterexample.items()}
    assert cx["mu"] <= cx["L"] and cx["eta"] <= 1 / cx["L"] and cx["eta"] * cx["mu"] > sp.Rational(1, 2)
    assert cx["alpha"] > 1 and cx["b"] <= cx["n"] / 5      # result hypotheses hold too
    assert rep.verdict is Verdict.REFUTED


def test_planted_dimension_error_reported():
    rep = run(toy((Step("units-bad", eta, Rel.LE, 1 / L + 1),)))
    u = by_id(rep)["units"]
    # a finding, not a refutation: no counterexample comes with a dimension mismatch
    assert u.verdict is Verdict.UNCHECKED and u.counterexample is None
    assert "DIMENSION MISMATCH" in u.detail and "units-bad" in u.detail


def test_kinds_without_oracles():
    rep = run(toy((Step("cited", B, Rel.LE, A, kind=StepKind.CITED, because="Lemma A.10"),
                   Step("prob", B, Rel.LE, A, kind=StepKind.PROBABILISTIC,
                        oracle="no-such-oracle"))))
    s = by_id(rep)
    assert s["cited"].verdict is Verdict.CITED
    assert s["prob"].verdict is Verdict.UNCHECKED


def test_definitions_are_defined():
    r = Result(id="toy:def-1.1", title="toy def", where="test",
               statement=(Step("statement", B, Rel.EQ, A),))
    assert by_id(run(r))["statement"].verdict is Verdict.DEFINED


def test_supported_has_budget_and_slack():
    # true but beyond the prover's reach (symbolic exponent with a large gap)
    x = sp.Symbol("x", positive=True)
    from theory.papers.liang.symbols import T
    step = Step("hard", sp.Sum(1 / (sp.Symbol("t", integer=True, nonnegative=True) + 1),
                              (sp.Symbol("t", integer=True, nonnegative=True), 0, T - 1)),
                Rel.LE, 1 + sp.log(T))
    s = by_id(run(toy((step,)), budget=200))["hard"]
    assert s.verdict in (Verdict.SUPPORTED, Verdict.PROVED)
    if s.verdict is Verdict.SUPPORTED:
        assert s.samples >= 200 and s.slack is not None and s.slack >= 0


def test_deterministic_apart_from_timings():
    res = toy((Step("bad", eta * mu, Rel.LE, sp.Rational(1, 2), given=(asm(mu <= L),)),
               Step("ok", sp.log(1 + eta * L), Rel.LE, eta * L)))

    def strip(rep):
        return [{k: v for k, v in s.to_json().items() if k != "seconds"} for s in rep.steps]

    assert strip(run(res)) == strip(run(res))


def test_count_steps_matches_checks():
    r = toy((Chain("c", (Step("e1", B, Rel.LE, A), Step("e2", A, Rel.LE, 2 * A))),))
    ticks = []
    engine.verify([r], budget=50, seed=0, progress=ticks.append)
    assert engine.count_steps([r]) == len(ticks)


def test_options_validation():
    with pytest.raises(ValueError, match="budget must be an integer >= 1"):
        engine.Options(budget=0)
    with pytest.raises(ValueError, match="seed must be an integer >= 0"):
        engine.Options(seed=-1)


# ---------------------------------------------------------------------------- encoded
def _algebra_steps():
    out = []
    for r in theory.all_results():
        for loc in walk_steps(r):
            if loc.step.kind in (StepKind.ALGEBRA, StepKind.SCALAR) and not loc.step.oracle \
                    and r.kind not in ("def", "asm"):
                out.append(pytest.param(loc, id=loc.id))
    return out


ENCODED = _algebra_steps()


@pytest.mark.skipif(not ENCODED, reason="no encoded ALGEBRA/SCALAR steps yet")
def test_every_encoded_algebra_step_gets_a_verdict():
    opts = engine.Options(budget=200, seed=0)
    bad = []
    for p in ENCODED:
        loc = p.values[0]
        rep = engine.check_step(loc, opts)
        if rep.verdict not in (Verdict.PROVED, Verdict.REFUTED, Verdict.SUPPORTED):
            bad.append(f"{loc.id}: {rep.verdict.value} ({rep.detail})")
    assert not bad, "\n".join(bad)


def test_parallel_run_equals_sequential():
    rs = sorted(theory.all_results(), key=lambda r: len(engine.plan(r)))
    rs = [r for r in rs if engine.plan(r)][:4]
    if len(rs) < 4:
        pytest.skip("fewer than 4 encoded results")

    def strip(reports):
        return [[{k: v for k, v in s.to_json().items() if k != "seconds"} for s in r.steps]
                + [r.statement.verdict.value] for r in reports]

    seq = engine.verify(rs, budget=50, seed=0, jobs=1)
    par = engine.verify(rs, budget=50, seed=0, jobs=2)
    assert [r.id for r in par] == [r.id for r in rs]
    assert strip(par) == strip(seq)


def test_results_sharing_a_title_are_checked_in_one_worker(monkeypatch):
    """The versions of one paper restate results under the same title; verify hands each
    such group to one worker (its memos then serve both), biggest group first."""
    from theory import registry
    tasks = []

    from checks.executor import Event

    class Recorder:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def submit(self, task):
            tasks.append([rid for _, rid in task[0]])
            return len(tasks) - 1

        def events(self):
            for k, t in enumerate(tasks):
                yield Event(k, "done", len(t))

    monkeypatch.setattr("checks.executor.make_executor", lambda fn, **kw: Recorder())
    results = registry.results_of("liang-icml") + registry.results_of("liang-aaai")
    engine.verify(results, jobs=2)
    assert sorted(r for t in tasks for r in t) == sorted(r.id for r in results)
    by_title: dict = {}
    for r in results:
        by_title.setdefault(" ".join(r.title.split()).casefold(), set()).add(r.id)
    for ids in by_title.values():
        assert sum(1 for t in tasks if ids & set(t)) == 1, ids     # one task holds them all
    assert ["liang-icml:thm-3.9", "liang-aaai:thm-3.10"] in tasks
    sizes = [sum(engine.cost_estimate(registry.get(r)) for r in t) for t in tasks]
    assert sizes == sorted(sizes, reverse=True)
    # Table 1 (eight typed statements, two steps) is not left for last; it shares
    # a worker with the theorems whose statements ask about its mechanisms (3.3, 3.4)
    first = [t for t in tasks if "liang-icml:tab-1" in t]
    assert len(first) == 1 and tasks.index(first[0]) < len(tasks) // 2
    assert {"liang-aaai:tab-1", "liang-icml:thm-3.4", "liang-aaai:thm-3.4"} <= set(first[0])

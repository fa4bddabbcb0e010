"""Hypotheses in force bind typed statements; standing assumptions and definitions bind later
results; contradictory hypotheses are a finding (issue 33, items 2 and 3)."""
from __future__ import annotations

import json
import textwrap

import mpmath
import pytest
import sympy as sp

from checks import engine
from checks.cli import main
from checks.statements import bound_statements, check_result_statements
from checks.verdict import StatementVerdict, Verdict
from theory import registry
from theory.mechanisms import GaussianMechanism
from theory.model import (Bound, Paper, Result, Standing, Step, StepKind, Tag, apply_standing,
                          asm, reaching, standing_problems, statement_hypotheses, walk_steps)
from theory.quantities import delta, epsilon


@pytest.fixture(autouse=True)
def _fresh_registry():
    registry.reset()
    yield
    registry.reset()


# ----------------------------------------------------------------------------- item 3
#: a user's paper in the README's style: the lemmas' conditions are the results' hypotheses,
#: and the typed statements repeat none of them
USER_PAPER = textwrap.dedent('''
    """gauss-user: the Gaussian mechanism at the classic calibration."""
    import sympy as sp

    from theory.mechanisms import GaussianMechanism
    from theory.model import Bound, Paper, Result, Step, StepKind, asm
    from theory.quantities import DIMLESS, THETA, delta, epsilon, table

    PRO = StepKind.PROBABILISTIC
    SYMBOLS = table("gauss-user")
    Delta = SYMBOLS.quantity("Delta", THETA, "l2-sensitivity of f", positive=True)
    sigma = SYMBOLS.quantity("sigma", THETA, "noise standard deviation", positive=True)
    eps_dp = SYMBOLS.quantity("eps_dp", DIMLESS, "smallest eps of (eps, delta)-DP",
                              positive=True)

    PAPER = Paper(key="gauss-user", title="The Gaussian mechanism", symbols=SYMBOLS)

    M = GaussianMechanism(sensitivity=Delta, sigma=sigma)
    CALIBRATION = Delta * sp.sqrt(2 * sp.log(sp.Rational(5, 4) / delta)) / epsilon

    # "if sigma >= Delta sqrt(2 log(1.25/delta))/eps, the Gaussian mechanism is (eps, delta)-DP"
    LEMMA_1 = Result(
        "gauss-user:lem-1", "the classic calibration", "Lemma 1",
        hypotheses=[asm(sigma >= CALIBRATION, "Lemma 1"), asm(delta < 1, "Lemma 1")],
        statement=[Step("statement", eps_dp, "<=", epsilon, PRO)],
        bounds=[Bound("statement", epsilon, M, delta=delta, profile=True)],
    )

    # the same with Delta = 1
    LEMMA_2 = Result(
        "gauss-user:lem-2", "unit sensitivity", "Lemma 2",
        hypotheses=[asm(sp.Eq(Delta, 1), "Lemma 2"), asm(delta < 1, "Lemma 2"),
                    asm(sigma >= sp.sqrt(2 * sp.log(sp.Rational(5, 4) / delta)) / epsilon,
                        "Lemma 2")],
        statement=[Step("statement", eps_dp, "<=", epsilon, PRO)],
        bounds=[Bound("statement", epsilon, M, delta=delta, profile=True)],
    )

    # the classic theorem (Dwork and Roth 2014, Thm A.1): true for eps < 1
    LEMMA_3 = Result(
        "gauss-user:lem-3", "the classic calibration for eps < 1", "Lemma 3",
        hypotheses=[asm(sigma >= CALIBRATION, "Lemma 3"), asm(delta < 1, "Lemma 3"),
                    asm(epsilon < 1, "Lemma 3")],
        statement=[Step("statement", eps_dp, "<=", epsilon, PRO)],
        bounds=[Bound("statement", epsilon, M, delta=delta, profile=True)],
    )

    RESULTS = [LEMMA_1, LEMMA_2, LEMMA_3]
''')


def _holds_at(rel, witness: dict) -> bool:
    """``rel`` at the witness's printed values, at 50 digits; the printed decimals are
    the witness (a boundary point may sit on the relation up to their last digit)."""
    with mpmath.workdps(50):
        vals = {s: sp.Float(witness[s.name], 50) for s in rel.free_symbols}
        lhs = sp.N(rel.lhs.subs(vals), 50)
        rhs = sp.N(rel.rhs.subs(vals), 50)
        tol = sp.Float(10) ** -12 * max(1, abs(lhs), abs(rhs))
        if isinstance(rel, sp.Equality):
            return abs(lhs - rhs) <= tol
        if isinstance(rel, (sp.GreaterThan, sp.StrictGreaterThan)):
            return lhs - rhs >= -tol
        return rhs - lhs >= -tol


def test_user_paper_typed_statements_keep_every_hypothesis_of_their_result(tmp_path, capsys):
    path = tmp_path / "gauss_user.py"
    path.write_text(USER_PAPER, encoding="utf-8")
    out = tmp_path / "out.json"
    main(["verify", str(path), "--format", "json", "--out", str(out), "--no-progress"])
    capsys.readouterr()
    reports = {r["id"]: r for r in json.loads(out.read_text())["results"]}
    mod = registry.import_path(path)
    violated = 0
    for res in mod.RESULTS:
        rep = reports[res.id]
        if rep["statement_verdict"] != "VIOLATED":
            continue
        violated += 1
        w = rep["statement_witness"]
        for h in res.hypotheses:
            assert _holds_at(h.expr, w), (res.id, str(h.expr), w)
    # Lemmas 1 and 2 are false for eps >= 1 (each shown where its own condition holds);
    # Lemma 2's witness has Delta = 1; Lemma 3, the classic theorem, is never "violated"
    assert violated == 2
    assert reports["gauss-user:lem-1"]["statement_verdict"] == "VIOLATED"
    assert float(reports["gauss-user:lem-2"]["statement_witness"]["Delta"]) == 1.0
    assert reports["gauss-user:lem-3"]["statement_verdict"] == "HOLDS-ON-SCENARIOS"


def test_show_lists_the_hypotheses_in_force_under_a_typed_statement(tmp_path, capsys):
    path = tmp_path / "gauss_user.py"
    path.write_text(USER_PAPER, encoding="utf-8")
    main(["show", str(path), "lem-2", "--budget", "5"])
    text = capsys.readouterr().out
    head = text.split("bound statement:", 1)[1]
    assert "in force (every scenario of the check satisfies these):" in head
    assert "Delta = 1" in head.replace("Eq(Delta, 1)", "Delta = 1") or "Eq(Delta, 1)" in head
    assert "Lemma 2" in head


Delta, sigma, T, eta, L, c = sp.symbols("Delta sigma T eta L c", positive=True)
x, y = sp.symbols("x y", real=True)
M = GaussianMechanism(sensitivity=Delta, sigma=sigma)


def test_statement_hypotheses_take_the_result_the_part_the_standing_and_the_choices():
    res = Result("toy:lem-1", "t", "w",
                 hypotheses=[asm(sigma >= 2 * Delta, "Lemma 1"), asm(delta < 1)],
                 statement=[Step("statement", x, "<=", y, StepKind.PROBABILISTIC,
                                 given=[asm(sp.Eq(eta, T / 2), "the choice of eta")])],
                 bounds=[Bound("statement", epsilon, GaussianMechanism(Delta, sigma * T),
                               delta=delta, profile=True, choices={eta: 3, T: 6})],
                 standing=[asm(eta > 1 / T, "w.l.o.g."), asm(sp.Eq(c, L + 1), "def")])
    hyps = statement_hypotheses(res, res.bounds[0])
    texts = {str(h.expr) for h in hyps if h.expr is not None}
    assert "sigma >= 2*Delta" in texts and "delta < 1" in texts
    # eta = T/2 at eta = 3, T = 6 is True (dropped); eta > 1/T becomes 3 > 1/6 (True)
    assert not any("eta" in t or "T" in t for t in texts)
    # the definition of c reaches nothing in play
    assert not any("c" in {s.name for s in h.expr.free_symbols} for h in hyps if h.expr is not None)
    standing = [h for h in res.standing]
    assert all(h.tag is Tag.STANDING for h in standing)


def test_a_named_predicate_in_force_makes_the_statement_not_tested_unless_embodied():
    base = dict(hypotheses=[asm("W = R^d", "Theorem 9"), asm(delta < 1)],
                statement=[Step("statement", x, "<=", y, StepKind.PROBABILISTIC)])
    plain = Result("toy:thm-1", "t", "w", bounds=[
        Bound("statement", epsilon, M, delta=delta, profile=True)], **base)
    rep, outs = check_result_statements(plain, budget=5)
    assert rep.verdict is StatementVerdict.NOT_TESTED
    assert "W = R^d" in outs["statement"].detail
    carried = Result("toy:thm-2", "t", "w", bounds=[
        Bound("statement", epsilon, M, delta=delta, profile=True, embodies=["W = R^d"])],
        **base)
    rep, _ = check_result_statements(carried, budget=5)
    assert rep.verdict is not StatementVerdict.NOT_TESTED


def test_contradictory_hypotheses_are_a_vacuous_finding_with_the_unsat_core():
    res = Result("toy:lem-2", "t", "w",
                 hypotheses=[asm(sigma >= 2, "Lemma 2"), asm(delta < 1)],
                 statement=[Step("statement", x, "<=", y, StepKind.PROBABILISTIC)],
                 bounds=[Bound("statement", epsilon, M, delta=delta, profile=True)],
                 standing=[asm(sigma < 1, "Sec. 2, throughout")])
    rep, outs = check_result_statements(res, budget=5)
    assert rep.verdict is StatementVerdict.VACUOUS
    core = rep.witness["contradiction"]
    assert "sigma >= 2" in core and "sigma < 1" in core and "delta" not in core
    assert outs["statement"].vacuous and "VACUOUS" in outs["statement"].detail


# ----------------------------------------------------------------------------- item 2
def test_reaching_takes_definitions_by_their_constant_and_relations_by_component():
    d = asm(sp.Eq(c, L + 1), "def")
    r1, r2 = asm(eta > 1 / T), asm(eta < 1 / L)
    other = asm(x > 0)
    # T in play: the component eta > 1/T, eta < 1/L comes in (it bounds T), the definition
    # of c does not (c is not used), x > 0 neither
    assert reaching([d, r1, r2, other], {T}) == (r1, r2)
    # c in play: its definition, and what its formula reaches
    assert reaching([d, r1, r2], {c}) == (d, r1, r2)
    assert reaching([d], {L}) == ()


def _paper(standing, results):
    return Paper(key="toy", title="t", standing=standing), results


def test_standing_binds_the_results_in_its_range_unless_lifted():
    a = Result("toy:lem-1", "a", "w", statement=[Step("s", eta, ">", 0, StepKind.ALGEBRA)])
    b = Result("toy:lem-2", "b", "w", statement=[Step("s", eta, ">", 0, StepKind.ALGEBRA)])
    cc = Result("toy:lem-3", "c", "w", unless=("step",),
                statement=[Step("s", eta, ">", 0, StepKind.ALGEBRA)])
    paper = Paper(key="toy", title="t",
                  standing=[Standing("step", [asm(eta > 1 / T)], where="Sec. 2",
                                     first="toy:lem-2")])
    out = apply_standing(paper, [a, b, cc])
    assert [len(r.standing) for r in out] == [0, 1, 0]
    assert out[1].standing[0].tag is Tag.STANDING and out[1].standing[0].where == "Sec. 2"
    bad = Paper(key="toy", title="t", standing=[Standing("x", [asm(eta > 0)], first="toy:lem-9")])
    lift = Result("toy:lem-4", "d", "w", unless=("nope",))
    msgs = standing_problems(bad, [a, lift])
    assert any("'toy:lem-9' is not a result" in m for m in msgs)
    assert any("unless 'nope' names no standing declaration" in m for m in msgs)


def test_a_row_is_checked_under_the_standing_assumptions_that_reach_it():
    # eta*T >= 1 holds only under the standing eta > 1/T: REFUTED without, PROVED with
    row = Step("tail", eta * T, ">=", 1, StepKind.ALGEBRA)
    free = Result("toy:lem-5", "t", "w", proof=[row])
    bound = Result("toy:lem-6", "t", "w", proof=[row], standing=[asm(eta > 1 / T, "wlog")])
    got = {r.id: r.verdict for r in engine.check_result(free, budget=200).steps}
    assert got["toy:lem-5/tail"] is Verdict.REFUTED
    got = {r.id: r for r in engine.check_result(bound, budget=200).steps}
    assert got["toy:lem-6/tail"].verdict is Verdict.PROVED
    # the standing hypothesis is listed in force at the row (dpcheck show), tagged
    loc = next(lc for lc in walk_steps(bound) if lc.id == "toy:lem-6/tail")
    assert any(h.tag is Tag.STANDING for h in loc.hypotheses)
    # and a row it does not reach keeps its hypotheses
    other = Result("toy:lem-7", "t", "w", proof=[Step("p", x ** 2, ">=", 0)],
                   standing=[asm(eta > 1 / T, "wlog")])
    loc = next(iter(walk_steps(other)))
    assert not any(h.tag is Tag.STANDING for h in loc.hypotheses)


def test_a_standing_definition_makes_the_constant_its_formula():
    # c <= 1 is false for a free c, and for c = L/2 with L <= 2 it holds
    row = Step("c-small", c, "<=", 1, StepKind.ALGEBRA, given=[asm(L <= 2)])
    res = Result("toy:lem-8", "t", "w", proof=[row],
                 standing=[asm(sp.Eq(c, L / 2), "(2)")])
    got = {r.id: r.verdict for r in engine.check_result(res, budget=200).steps}
    assert got["toy:lem-8/c-small"] is Verdict.PROVED


def test_the_holder_paper_binds_its_standing_assumptions():
    r = registry.get("holder:thm-12")
    texts = {str(h.expr) for h in r.standing}
    assert {"eta > 1/T", "eta < 1", "eta < 1/L"} <= texts
    stmt = bound_statements(r, engine.roles_of(r))[0]
    # the printed eta = max{...}/T read at the simulated T: eta > 1/T is max{...} > 1
    assert any(h.tag is Tag.STANDING for h in stmt.hypotheses)
    assert not any("eta" in {s.name for s in h.expr.free_symbols}
                   for h in stmt.hypotheses if h.expr is not None)
    # lem-24's self-bounding row uses the c_{alpha,1} of (2)
    loc = next(lc for lc in walk_steps(registry.get("holder:lem-24"))
               if lc.id.endswith("self-bounding-squared"))
    assert any(h.tag is Tag.STANDING and h.expr is not None and isinstance(h.expr, sp.Equality)
               and h.expr.lhs.name == "c_a1" for h in loc.hypotheses)


# ----------------------------------------------------------------------------- item 6
def test_row_origins_printed_derived_variant():
    from theory.model import Case, CaseSplit, Chain, row_origins
    res = Result("toy:thm-9", "t", "w",
                 statement=[Step("statement", x, "<=", y)],
                 proof=[Step("eq-3", x, "<=", y, eq="3"),
                        Step("check", x, "<=", y),
                        Step("quoted", x, "<=", y, origin="printed"),
                        Chain("display", [Step("line-1", x, "<=", y), Step("line-2", y, "<=", y)],
                              concludes="statement"),
                        CaseSplit("split", [Case("a", [asm(x > 0)], [Step("in-a", x, ">", 0)]),
                                            Case("b", [asm(x <= 0)], [Step("in-b", x, "<=", 0)])])])
    o = row_origins(res)
    assert o["toy:thm-9/statement"] == "printed" and o["toy:thm-9/eq-3"] == "printed"
    assert o["toy:thm-9/check"] == "derived" and o["toy:thm-9/quoted"] == "printed"
    assert o["toy:thm-9/line-1"] == "printed" and o["toy:thm-9/display/link-1"] == "printed"
    assert o["toy:thm-9/display/concludes"] == "printed"
    assert o["toy:thm-9/split/cover"] == "derived" and o["toy:thm-9/a/in-a"] == "derived"
    assert o["toy:thm-9/units"] == "derived"
    var = Result("toy:thm-9+fix", "t", "w", variant_of="toy:thm-9",
                 statement=[Step("statement", x, "<=", y)], proof=[Step("eq-3", x, "<=", y, eq="3")])
    assert set(row_origins(var).values()) == {"variant"}
    with pytest.raises(ValueError, match="origin must be one of"):
        Step("bad", x, "<=", y, origin="ours")


def test_findings_keep_printed_lines_derived_checks_and_variants_apart(capsys):
    from rich.console import Console

    from checks.cli import render_summary, report_json
    # x <= x/2 is false for x > 0: a printed line (eq), a derived check, a variant's row
    false = dict(lhs=x, rel="<=", rhs=x / 2, given=[asm(x > 0)])
    printed = Result("toy:thm-10", "t", "w", proof=[Step("eq-4", eq="4", **false)])
    derived = Result("toy:thm-11", "t", "w", proof=[Step("mine", **false)])
    variant = Result("toy:thm-10+fix", "t", "w", variant_of="toy:thm-10",
                     proof=[Step("eq-4", eq="4", **false)])
    reps = [engine.check_result(r, budget=50) for r in (printed, derived, variant)]
    assert all(any(s.verdict is Verdict.REFUTED for s in r.steps) for r in reps)
    data = report_json(reps, seed=0, budget=50)
    got = {g: [f["id"] for f in v] for g, v in data["findings"].items()}
    assert got["printed"] == ["toy:thm-10/eq-4"]
    assert got["derived"] == ["toy:thm-11/mine"]
    assert got["variants"] == ["toy:thm-10+fix/eq-4"]
    assert data["results"][2]["variant_of"] == "toy:thm-10"
    assert [s["origin"] for s in data["results"][2]["steps"]] == ["variant", "variant"]
    console = Console(record=True, width=200)
    render_summary(reps, console, seed=0, budget=50)
    lines = console.export_text().splitlines()
    head = next(i for i, ln in enumerate(lines) if ln.startswith("findings (3):"))
    assert "1 on the paper's printed lines and results, 1 of derived checks, 1 of pinned " \
           "variants" in lines[head]
    # printed lines first, then derived checks, then variants — each line marked
    assert lines[head + 1].startswith("  toy:thm-10/eq-4  [printed (4) · ")
    assert lines[head + 2].startswith("  toy:thm-11/mine  [derived · ")
    assert lines[head + 3].startswith("  toy:thm-10+fix/eq-4  [variant of toy:thm-10 · ")

"""The repair search (issue 35): every edit family finds its repair on a small synthetic
line, the hypothesis sources give "holds if …", and every kind of trivial repair —
a flipped relation, an emptied side, a side multiplied by zero or made constant, a line
whose subject cancels, a sign that holds for every value, a vacuous or pinning
hypothesis, an edit that breaks the dimensions — is planted and not reported."""
from __future__ import annotations

import pytest
import sympy as sp

from checks import engine, repair
from checks.repair import edits as E
from checks.repair import search as S
from checks.verdict import Verdict
from theory.mechanisms import GaussianMechanism
from theory.model import Bound, Result, Step, StepKind, asm, walk_steps
from theory.quantities import DIMLESS, GRADIENT, LOSS, THETA, table

T = table("repair-test", "symbols of the repair tests")
x = T.quantity("x", DIMLESS, "a quantity in (0, 1)", nonnegative=True)
y = T.quantity("y", DIMLESS, "a positive number", positive=True)
z = T.quantity("z", DIMLESS, "another positive number", positive=True)
g = T.quantity("g", DIMLESS, "a probability", positive=True)
n = T.quantity("n", DIMLESS, "a count", positive=True, integer=True)
t = T.quantity("t", DIMLESS, "an index", nonnegative=True, integer=True)
u = T.quantity("u", DIMLESS, "a defined quantity", positive=True)
a = T.quantity("a", DIMLESS, "a", positive=True)
b = T.quantity("bb", DIMLESS, "b", positive=True)
s = T.quantity("s", GRADIENT, "a gradient norm", nonnegative=True)
c = T.quantity("c", GRADIENT, "a clipping threshold", positive=True)
r = T.quantity("r", GRADIENT, "a radius", positive=True)
t0 = T.quantity("t0", GRADIENT, "a noise level", positive=True, latex=r"\tau_0")
eta = T.quantity("eta", THETA, "a step size", positive=True, latex=r"\eta")
w = T.quantity("w", DIMLESS, "a weight", positive=True)
f = T.quantity("f", LOSS, "a loss value", positive=True)
eps = T.quantity("eps", DIMLESS, "privacy loss", positive=True, latex=r"\varepsilon")
dlt = T.quantity("dlt", DIMLESS, "failure probability", positive=True, latex=r"\delta")
dlt_f = T.quantity("dlt_f", THETA, "sensitivity", positive=True, latex=r"\Delta_f")
eps_dp = T.quantity("eps_dp", DIMLESS, "the smallest epsilon", positive=True)

ALG, SCA = StepKind.ALGEBRA, StepKind.SCALAR


def _run(result, label, *, others=(), budget=10, max_edits=2):
    """The finding of the row ``label`` of ``result``: checked by the engine (it must
    be REFUTED), then repaired with the test table and ``others`` as the paper's other
    results."""
    opts = engine.Options(budget=400, seed=0)
    loc = next(lc for lc in walk_steps(result) if lc.id.endswith("/" + label))
    rep = engine.check_step(loc, opts)
    assert rep.verdict is Verdict.REFUTED, (rep.verdict, rep.detail)
    ctx = repair.row_context(result, paper_results=[result, *others], table=T)
    return S.repair_row(loc, rep, ctx, opts, budget=budget, max_edits=max_edits)


def _result(rid, steps, hyps=(), **kw):
    return Result(f"rt:{rid}", rid, "a test", hypotheses=hyps, proof=steps, **kw)


def _families(found):
    return [rp.family for rp in found.repairs]


# ------------------------------------------------------------------------------ families
def test_one_minus():
    res = _result("lem-1", [Step("row", y * (1 - x) ** 2, "<=", y * x, ALG)],
                  [asm(x < 1)])
    found = _run(res, "row")
    assert found.klass == "misprint"
    assert found.repairs[0].family == "one-minus" and found.repairs[0].verdict == "PROVED"
    assert "1 − x" in found.summary


def test_min_max():
    res = _result("lem-2", [Step("row", a, "<=", sp.Min(a, b), ALG)])
    found = _run(res, "row")
    assert found.repairs[0].family == "min-max"
    assert found.repairs[0].verdict == "PROVED"
    assert found.summary == "misprint? holds with max in place of min (right side)"


def test_log_argument_in_the_line_s_own_definition():
    # the line defines u with log(1/g); the result uses log(n/g) elsewhere
    res = _result("lem-3", [
        Step("row", sp.exp(-u), "<=", g / n, ALG, given=[asm(sp.Eq(u, sp.log(1 / g)))]),
        Step("other", sp.log(n / g), ">=", 0, ALG, given=[asm(g < 1)])],
        [asm(g < 1)])
    found = _run(res, "row")
    assert found.klass == "misprint"
    best = found.repairs[0]
    assert best.family == "log-argument" and best.verdict == "PROVED"
    assert best.edit == "log(n/g) in place of log(1/g) (in the definition of u)"


def test_index_shift():
    res = _result("lem-4", [Step("row", (t + 1) * (a + b), "<=", t * a + t * b, ALG)])
    found = _run(res, "row")
    assert found.repairs[0].family == "index+1"
    assert found.repairs[0].edit == "t + 1 in place of t throughout the right side"


def test_exponent():
    res = _result("lem-5", [Step("row", y ** 3, "<=", 2 * y ** 2, ALG)], [asm(y >= 2)])
    found = _run(res, "row")
    assert found.repairs[0].family == "exponent" and found.repairs[0].verdict == "PROVED"


def test_square_added():
    res = _result("lem-6", [Step("row", y ** 2, "<=", z * a, ALG,
                                 given=[asm(y <= z * sp.sqrt(a))])])
    found = _run(res, "row")
    assert found.repairs[0].family == "square-root"
    assert found.repairs[0].edit == "z² in place of z (right side)"


def test_exchange_of_a_symbol_of_the_same_dimension():
    res = _result("lem-7", [Step("row", s * eta, "<=", c * eta, ALG, given=[asm(s <= r)])])
    found = _run(res, "row")
    assert found.repairs[0].family == "exchange"
    assert found.repairs[0].edit == "r in place of c (right side)"


def test_factor_from_elsewhere_added():
    res = _result("lem-8", [
        Step("row", w * s, "<=", w * c ** 2 * (c + t0), SCA, given=[asm(s <= c + t0)]),
        Step("elsewhere", c ** 2 * w * s, "<=", c ** 2 * w * (c + t0), SCA,
             given=[asm(s <= c + t0)])])
    found = _run(res, "row")
    best = found.repairs[0]
    assert best.family == "factor-added" and best.edit == "c² on the left side"
    assert best.dims == "consistent"


def test_factor_dropped():
    res = _result("lem-9", [Step("row", y, "<=", (y + z) * w, ALG)], [asm(w < 1)])
    found = _run(res, "row")
    best = found.repairs[0]
    assert best.family == "factor-dropped" and best.verdict == "PROVED"
    assert best.edit == "w dropped (right side)"


def test_factor_dropped_reads_as_a_power():
    """η²·(a + 3η²·b) with the inner η² dropped is η² in place of η⁴."""
    from checks.repair.render import Renderer
    rhs = eta ** 2 * (y + 3 * eta ** 2 * z)
    path, node = next((p, nd) for p, nd, _ in E.walk(rhs)
                      if isinstance(nd, sp.Mul) and nd != rhs and nd.has(z))
    ed = next(e for e in E.candidates("rhs", rhs, E.context([], {eta, y, z}, [],
                                                            lambda v: None))
              if e.family == "factor-dropped" and e.path == path and e.factor == eta ** 2)
    assert Renderer(T).edit_text([ed], {"rhs": rhs}, {}) == "η² in place of η⁴ (right side)"


def test_constant_factor():
    res = _result("lem-10", [Step("row", 2 * y, "<=", z, ALG, given=[asm(y <= z)])])
    found = _run(res, "row")
    assert found.repairs[0].family == "constant"
    assert "÷2" in found.repairs[0].edit or "1 in place of 2" in found.repairs[0].edit


def test_two_edits_one_on_each_side():
    # neither side alone: the left's square and the right's factor 4 were both misprinted
    res = _result("lem-11", [Step("row", y ** 2, "<=", y / 4, ALG)], [asm(y <= 1)])
    found = _run(res, "row")
    assert found.klass == "misprint"
    best = found.repairs[0]
    assert best.edits in (1, 2)
    one = _run(res, "row", max_edits=1)
    assert all(rp.edits == 1 for rp in one.repairs)


def test_no_repair_within_two_edits():
    res = _result("lem-12", [Step("row", sp.exp(y), "<=", sp.log(y) + 1, ALG)])
    found = _run(res, "row", budget=3)
    assert found.klass == "none" and found.summary == "no repair within 2 edits"
    assert "judged (budget 3)" in found.searched


# ----------------------------------------------------------------------------- hypotheses
def test_boundary_hypothesis():
    res = _result("lem-13", [Step("row", w * r, ">=", w * t0, ALG)])
    found = _run(res, "row")
    assert found.klass == "hypothesis"
    assert found.summary == "holds if r ≥ τ₀"
    assert "boundary" in found.repairs[0].source


def test_hypothesis_from_another_result_of_the_paper():
    other = _result("thm-1", [], [asm(sp.Gt(r, t0), "Theorem 1: r > τ0")])
    res = _result("lem-14", [Step("row", w * r, ">=", w * t0, ALG)])
    found = _run(res, "row", others=[other])
    best = found.repairs[0]
    assert best.kind == "hypothesis" and best.edit == "r ≥ τ₀"
    assert "rt:thm-1" in best.source and "weakened" in best.source


def test_statement_gets_the_cited_condition():
    """A Gaussian mechanism with the classical calibration: (ε, δ)-DP only for ε ≤ 1."""
    sigma = sp.sqrt(2 * sp.log(sp.Rational(5, 4) / dlt)) * dlt_f / eps
    res = Result("rt:def-1", "Gaussian mechanism", "a test",
                 hypotheses=[asm(dlt < 1)],
                 statement=[Step("statement", eps_dp, "<=", eps, StepKind.PROBABILISTIC)],
                 bounds=[Bound("statement", eps, GaussianMechanism(dlt_f, sigma), delta=dlt,
                               profile=True, hypotheses=[asm(dlt < 1)])])
    opts = engine.Options(repairs=True)
    rep = engine.check_result(res, options=opts)
    assert rep.statement.verdict.value == "VIOLATED"
    part = next(st for st in rep.steps if st.id == "rt:def-1/statement")
    assert part.repair["class"] == "hypothesis"
    assert part.repair["summary"] == "holds if eps ≤ 1" or part.repair["summary"].endswith(
        "ε ≤ 1")
    assert "Dwork & Roth" in part.repairs[0]["source"]
    assert rep.statement_repair["summary"] == part.repair["summary"]
    js = rep.to_json()
    assert js["statement_repair"]["class"] == "hypothesis"
    assert js["statement_repairs"][0]["verdict"] == "SUPPORTED"


# --------------------------------------------------------------------- trivial repairs
def _guarded(printed: Step, lhs, rhs):
    """The guard's verdict on repairing ``printed`` into ``lhs REL rhs``."""
    from checks.claim import step_claim
    claim = step_claim(printed.lhs, printed.rel, printed.rhs, ())
    return S._trivial(printed, sp.sympify(lhs), sp.sympify(rhs), claim, ())


@pytest.mark.parametrize("lhs, rhs, why", [
    (0, "c + t0", "empties"),                       # a side emptied
    ("0*s", "c + t0", "empties"),                   # multiplied by zero
    (5, "c + t0", "constant"),                      # a side made constant
    ("s + c", "s + c", "same"),                     # both sides the same
    ("s", "s*(c + t0)/c", "cancels"),               # the subject cancels
])
def test_planted_trivial_line_is_refused(lhs, rhs, why):
    printed = Step("row", s, "<=", c + t0, ALG)
    loc = {str(v): v for v in (s, c, t0)}
    got = _guarded(printed, sp.sympify(lhs, locals=loc), sp.sympify(rhs, locals=loc))
    assert why in got


def test_subject_cancels_numerically_as_symbolically():
    import numpy as np
    from checks.repair import numeric
    printed = Step("row", s, "<=", c + t0, ALG)
    pts = numeric.Points({s: np.array([0.5, 2.0]), c: np.array([1.0, 3.0]),
                          t0: np.array([0.25, 7.0])})
    for lhs, rhs, cancels in ((s, s * (c + t0) / c, True), (s + c, s + t0, True),
                              (s * c, c ** 2 * (c + t0), False), (s, c + t0, False)):
        got = S._subject_cancels(printed, lhs, rhs, pts)
        assert bool(got) is cancels, (lhs, rhs, got)
        assert bool(S._subject_cancels(printed, lhs, rhs)) is cancels


def test_planted_sign_tautology_is_refused():
    printed = Step("row", r - t0, ">=", 0, ALG)
    assert "every value" in _guarded(printed, (r - t0) ** 2, 0)
    # and the search does not report it (the row has no repair at all)
    res = _result("lem-15", [printed])
    found = _run(res, "row")
    assert all("²" not in rp.edit or rp.kind == "hypothesis" for rp in found.repairs)


def test_relation_is_never_flipped():
    res = _result("lem-16", [Step("row", y, "<=", z, ALG, given=[asm(y >= z + 1)])])
    found = _run(res, "row")
    assert all(" ≥ " not in rp.line.split(" if ")[0] for rp in found.repairs)
    assert all(rp.line.split(" if ")[0].count("≤") == 1 for rp in found.repairs)


def test_vacuous_and_pinning_hypotheses_are_refused():
    assert S.admissible([x < 1]) is True
    assert S.admissible([x < 1, x >= 1]) is False
    opts = engine.Options()
    assert S.pins(sp.Ge(dlt, 1), [dlt <= 1], opts) is True
    assert S.pins(sp.Le(eps, 1), [dlt <= 1], opts) is False
    # the witness x ∈ (1/2, 1) suggests the boundary x ≥ 1, which x < 1 makes vacuous
    res = _result("lem-17", [Step("row", x, "<=", sp.Rational(1, 2), ALG)], [asm(x < 1)])
    found = _run(res, "row")
    assert not any(rp.kind == "hypothesis" and "x ≥ 1" in rp.edit for rp in found.repairs)


def test_dimension_breaking_edit_is_refused():
    # dropping η would make s ≤ c-in-loss-units: a gradient against a loss
    res = _result("lem-18", [Step("row", s * eta, "<=", f, ALG, given=[asm(s <= f)])])
    found = _run(res, "row")
    assert not any("η dropped" in rp.edit for rp in found.repairs)
    for rp in found.repairs:
        assert rp.dims != "inconsistent"


# ------------------------------------------------------------------------------ pieces
def test_candidates_are_deterministic_and_screen_cheaply():
    ctx = E.context([c ** 2 * w], {s, c, t0, w}, [], lambda v: T.info(v).dim)
    one = E.candidates("rhs", w * c ** 2 * (c + t0), ctx)
    two = E.candidates("rhs", w * c ** 2 * (c + t0), ctx)
    assert [(e.family, e.path, e.new) for e in one] == [(e.family, e.path, e.new) for e in two]
    assert {e.family for e in one} >= {"exchange", "factor-added", "factor-dropped",
                                        "constant", "square-root", "exponent"}


def test_render_uses_the_declared_notation():
    from checks.repair.render import Renderer
    rnd = Renderer(T)
    assert rnd.text(1 - t0) == "1 − τ₀"
    assert rnd.text(eta ** 4) == "η⁴"
    assert rnd.latex(eta, "<=", t0) == r"\eta \le \tau_0"


def test_bad_repair_options():
    with pytest.raises(ValueError, match="repair_edits must be 1 or 2"):
        engine.Options(repair_edits=3)
    with pytest.raises(ValueError, match="repair_budget must be an integer >= 1"):
        engine.Options(repair_budget=0)


def test_without_repairs_nothing_is_attached():
    res = _result("lem-19", [Step("row", a, "<=", sp.Min(a, b), ALG)])
    rep = engine.check_result(res, options=engine.Options(budget=400))
    row = rep.steps[0]
    assert row.verdict is Verdict.REFUTED and row.repair is None
    assert "repairs" not in row.to_json() and "repair" not in row.to_json()
    rep2 = engine.check_result(res, options=engine.Options(budget=400, repairs=True))
    assert rep2.steps[0].repair["class"] == "misprint"
    assert rep2.steps[0].to_json()["repairs"][0]["verdict"] == "PROVED"
    # the findings' own verdicts do not change
    assert [st.verdict for st in rep.steps] == [st.verdict for st in rep2.steps]


def test_a_failing_search_costs_nothing_but_its_repairs(monkeypatch):
    def boom(*a, **k):
        raise RuntimeError("planted")
    monkeypatch.setattr(repair, "repair_row", boom)
    res = _result("lem-20", [Step("row", a, "<=", sp.Min(a, b), ALG)])
    rep = engine.check_result(res, options=engine.Options(budget=400, repairs=True))
    row = rep.steps[0]
    assert row.verdict is Verdict.REFUTED
    assert row.repair["class"] == "not-searched" and "planted" in row.repair["summary"]


def test_verify_checks_every_result_before_it_repairs_any(monkeypatch):
    """The findings' verdicts are those of a run without repairs: no repair search runs
    between two results' checks (z3 under a resource limit may answer by what its process
    built before)."""
    calls = []
    real_check, real_attach = engine.check_result, repair.attach
    monkeypatch.setattr(engine, "check_result",
                        lambda r, **k: calls.append(("check", r.id)) or real_check(r, **k))
    monkeypatch.setattr(repair, "attach",
                        lambda r, *a, **k: calls.append(("repair", r.id))
                        or real_attach(r, *a, **k))
    rs = [_result(f"lem-{k}", [Step("row", a, "<=", sp.Min(a, b), ALG)]) for k in (21, 22)]
    reps = engine.verify(rs, budget=300, repairs=True, jobs=1)
    kinds = [c[0] for c in calls]
    assert kinds == ["check", "check", "repair", "repair"]
    assert all(rp.steps[0].repair["class"] == "misprint" for rp in reps)


def test_admissible_sample_draws_points_that_meet_the_hypotheses():
    from checks import falsify
    from checks.claim import step_claim
    claim = step_claim(y, "<=", z, [asm(y <= 2 * z), asm(z < 3)])
    syms, vals, ok = falsify.admissible_sample(claim, 500, seed=1)
    assert ok.sum() > 50
    col = dict(zip(syms, vals))
    assert (col[y][ok] <= 2 * col[z][ok] + 1e-9).all() and (col[z][ok] < 3).all()

"""Issue 18: a counterexample must be a real instance — implied relations, realised
witnesses, readings.  Hand-built results only (no paper is named)."""
from __future__ import annotations

import sympy as sp

from checks import engine, realise
from checks.claim import step_claim
from checks.engine import ClaimOutcome, Options, check_step
from checks.verdict import StepReport, Verdict
from theory.classes import LSmooth, StronglyConvex, implied_hypotheses
from theory.model import Located, Reading, Result, Step, asm, walk_steps

gap = sp.Symbol("gap", nonnegative=True)
dist = sp.Symbol("dist", nonnegative=True)
grad = sp.Symbol("grad_norm", nonnegative=True)
D = sp.Symbol("D", positive=True)
L = sp.Symbol("L", positive=True)
mu = sp.Symbol("mu", positive=True)
alpha = sp.Symbol("alpha", positive=True)
p = sp.Symbol("p", nonnegative=True)
cond = sp.Symbol("cond", nonnegative=True)
x = sp.Symbol("x", positive=True)
y = sp.Symbol("y", positive=True)

ROLES = {"gap": gap, "dist": dist, "grad_norm": grad, "diam": D,
         "renyi_order": (alpha,), "probability": (p,), "conditional": ((cond, p),)}
OPTS = Options(budget=300)


def _loc(result: Result, label: str) -> Located:
    return next(loc for loc in walk_steps(result, ROLES) if loc.id.endswith("/" + label))


def test_classes_and_roles_imply_relations_with_their_source():
    hyps = [asm(LSmooth(L), "Asm 1"), asm(StronglyConvex(mu), "Asm 2")]
    got = {str(a.expr): a for a in implied_hypotheses(hyps, ROLES, {gap, dist, grad, alpha,
                                                                     p, cond})}
    assert "gap <= L*dist**2/2" in got and got["gap <= L*dist**2/2"].implied
    assert "LSmooth" in got["gap <= L*dist**2/2"].where
    assert "gap >= dist**2*mu/2" in got
    assert "alpha > 1" in got and "p <= 1" in got and "p > 0" in got
    # a relation over symbols not in play is not granted
    none = implied_hypotheses(hyps, ROLES, {alpha})
    assert all("gap" not in str(a.expr) for a in none)


def test_a_witness_breaking_an_implied_relation_is_not_reported():
    # gap ≤ (L/2)·dist² ≤ 1/2 for an L-smooth loss with L ≤ 1 and dist ≤ 1: the step holds,
    # but without the implied relation the scalar search plants gap > 1/2 at dist ≤ 1
    r = Result("toy:thm-1", "toy", "here",
               hypotheses=[asm(LSmooth(L), "A"), asm(L <= 1), asm(dist <= 1)],
               proof=[Step("eq-1", gap, "<=", sp.Rational(1, 2), kind="SCALAR")])
    bare = next(walk_steps(r))
    assert check_step(bare, OPTS).verdict is Verdict.REFUTED       # the planted witness
    rep = check_step(_loc(r, "eq-1"), OPTS, roles=ROLES)
    assert rep.verdict is not Verdict.REFUTED, rep.counterexample
    assert any(h.implied for h in _loc(r, "eq-1").hypotheses)


def test_rdp_order_above_one_and_conditioning_on_positive_probability():
    r = Result("toy:thm-2", "toy", "here", proof=[
        Step("eq-1", alpha, ">", 1, kind="SCALAR"),
        Step("eq-2", p * cond, "<=", cond, kind="SCALAR"),
        Step("eq-3", p, ">", 0, kind="SCALAR")])
    for lbl in ("eq-1", "eq-2"):
        assert check_step(_loc(r, lbl), OPTS, roles=ROLES).verdict is Verdict.PROVED
    # eq-3 names no conditional expectation: Pr > 0 is not granted there
    assert check_step(_loc(r, "eq-3"), OPTS, roles=ROLES).verdict is Verdict.REFUTED


def test_a_realisable_refutation_shows_its_instance():
    r = Result("toy:thm-3", "toy", "here",
               hypotheses=[asm(LSmooth(L), "A"), asm(StronglyConvex(mu), "B"), asm(mu <= L)],
               proof=[Step("eq-1", gap, "<=", L * dist ** 2 / 4, kind="SCALAR")])
    rep = check_step(_loc(r, "eq-1"), OPTS, roles=ROLES)
    assert rep.verdict is Verdict.REFUTED
    assert rep.instance and "f" in rep.instance and "50 digits" in rep.instance["check"]
    assert "realised by" in rep.evidence()


def test_realise_builds_and_rejects_instances():
    hyps = [asm(LSmooth(L)), asm(StronglyConvex(mu))]
    roles = dict(ROLES, states=({"gap": sp.Symbol("m") ** 2},))
    # the impossible point: D = 1/16 but √gap = 141 on a 16-smooth loss
    bad = realise.realise({"L": "16", "mu": "1", "D": "1/16", "dist": "0", "grad_norm": "0",
                           "m": "141"}, hyps, roles)
    assert bad.applies and not bad.ok and bad.why
    # and its realisable twin: dist = 141.4, D = 142
    ok = realise.realise({"L": "16", "mu": "1", "D": "142", "dist": "707/5", "m": "141"},
                         hyps, roles)
    assert ok.ok, ok.why
    # both curvatures used (gap/dist² and ‖∇f‖/dist set independently)
    two = realise.realise({"L": "4", "mu": "1", "dist": "1", "gap": "1", "grad_norm": "12/5"},
                          hyps, ROLES)
    assert two.ok, two.why
    # 2·gap > ‖∇f‖·dist: no quadratic, a piece with linear growth
    piece = realise.realise({"L": "4", "mu": "1/10", "dist": "1", "gap": "1",
                             "grad_norm": "3/2"}, hyps, ROLES)
    assert piece.ok and "linear-growth" in piece.instance["f"], piece.why
    # dist = 0 with gap > 0: nothing
    assert not realise.realise({"L": "1", "dist": "0", "gap": "1"}, hyps, ROLES).ok
    # no role quantity in the witness: not applicable
    assert not realise.realise({"L": "1"}, hyps, ROLES).applies


def test_an_unrealisable_violation_is_not_refuted():
    # the claim lacks the implied relations (built bare), so the search finds gap > 0 at
    # dist = 0; the realiser (which knows the class) rejects every such witness
    hyps = [asm(LSmooth(L)), asm(L <= 1), asm(dist <= 0)]
    claim = step_claim(gap, "<=", 0, hyps)
    out = engine.judge_claim(claim, OPTS)
    assert out.verdict is Verdict.REFUTED
    out2, inst = engine.realised(out, claim, hyps, ROLES, OPTS)
    assert out2.verdict is Verdict.UNCHECKED and inst is None
    assert "no instance realises it" in out2.detail


def test_a_reading_dependent_row_reports_both():
    r = Result("toy:thm-4", "toy", "here", proof=[
        Step("eq-1", sp.sqrt(x * y ** 2), "=", sp.sqrt(x) * y ** 2,
             readings=[Reading("root-over-x", sp.sqrt(x) * y ** 2, "=", sp.sqrt(x) * y ** 2,
                               "the root may end after x")])])
    rep = check_step(next(walk_steps(r)), OPTS)
    assert rep.verdict is Verdict.REFUTED and rep.counterexample
    assert rep.readings and rep.readings[0]["verdict"] == "PROVED"
    assert rep.depends_on_reading and "DEPENDS ON THE READING" in rep.evidence()
    js = rep.to_json()
    assert js["depends_on_reading"] and js["readings"][0]["name"] == "root-over-x"
    assert StepReport.from_json(js).depends_on_reading
    from checks.cli import report_json
    from checks.verdict import ResultReport
    rr = ResultReport(r.id, r.paper, r.kind, r.number, r.title, steps=[rep])
    data = report_json([rr], seed=0, budget=1)
    assert data["depends_on_reading"] == [{"id": rep.id, "printed": "REFUTED",
                                           "readings": {"root-over-x": "PROVED"}}]


def test_a_symbol_the_table_calls_a_renyi_order_gets_order_above_one(monkeypatch):
    from theory import registry
    from theory.model import Paper
    from theory.quantities import DIMLESS, table
    tab = table("toy-orders")
    a = tab.quantity("a_ord", DIMLESS, "Rényi order of the toy", positive=True)
    monkeypatch.setattr(registry, "paper", lambda key: Paper(key="toy", title="t", symbols=tab))
    r = Result("toy:thm-5", "toy", "here", proof=[Step("eq-1", a, ">", 1, kind="SCALAR")])
    roles = engine.roles_of(r)
    assert a in roles["renyi_order"]
    loc = next(walk_steps(r, roles))
    assert check_step(loc, OPTS, roles=roles).verdict is Verdict.PROVED


def test_a_structural_row_is_not_refuted_by_an_unrealisable_witness(monkeypatch):
    """Links, conclusions and case covers follow the same rule as steps: the link
    gap -> (L/2)·dist² in a <= chain holds for every L-smooth loss (gap ≤ (L/2)·dist²), so a
    witness with gap above it is no instance; without the class the link is refuted."""
    from theory.model import Chain
    chain = Chain("c", [Step("s1", x, "<=", gap, kind="SCALAR"),
                        Step("s2", L * dist**2 / 2, "<=", L / 2, kind="SCALAR")])
    typed = Result("toy:thm-2", "toy", "here",
                   hypotheses=[asm(LSmooth(L), "A"), asm(dist <= 1)], proof=[chain])
    bare = Result("toy:thm-3", "toy", "here", hypotheses=[asm(dist <= 1)], proof=[chain])
    monkeypatch.setattr(engine, "roles_of", lambda result: ROLES)

    def link(result):
        checks = [c for c in engine.plan(result) if c.kind == "LINK"]
        assert len(checks) == 1
        return checks[0].run(OPTS)

    refuted = link(bare)
    assert refuted.verdict is Verdict.REFUTED and refuted.counterexample
    rep = link(typed)
    assert rep.verdict is Verdict.PROVED, (rep.verdict, rep.detail, rep.counterexample)

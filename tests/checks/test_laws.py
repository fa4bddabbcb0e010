"""Issue 33 (items 1 and 7): random quantities are typed — the moments a paper writes as
stand-ins are moments of a declared random variable, the engine grants what holds for any
law, a witness over moments is realised by a finitely supported law (a linear programme,
re-checked at 50 digits), and a witness no law realises is never REFUTED.  Hand-built
papers only (no paper is named)."""
from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from checks import laws, realise
from checks.engine import Options, check_step
from checks.verdict import StepReport, Verdict
from theory.model import Paper, Result, Step, Tag, asm, walk_steps
from theory.stochastic import Aggregate, RandomVariable, aggregate_relations, law_relations

X = sp.Symbol("X", real=True)
m1 = sp.Symbol("m1", nonnegative=True)
m2 = sp.Symbol("m2", nonnegative=True)
m3 = sp.Symbol("m3", nonnegative=True)
c = sp.Symbol("c", positive=True)
OPTS = Options(budget=400)

#: X ∈ [0, 1] almost surely; m_k = E[X^k]
UNIT = RandomVariable("X", coords=(X,), support=[0 <= X, X <= 1],
                      moments={m1: X, m2: X**2, m3: X**3}, where="toy")
PAPER = Paper(key="toy-law", title="toy", random=(UNIT,))
BARE = Paper(key="toy-bare", title="toy")


def _loc(result, label, paper=PAPER):
    return next(loc for loc in walk_steps(result, paper.role_map())
                if loc.id.endswith("/" + label))


def test_what_holds_for_every_law_is_granted_with_its_source():
    got = {str(rel): src for rel, src in law_relations(UNIT, {m1, m2, m3})}
    assert "m1**2 <= m2" in got and "Jensen" in got["m1**2 <= m2"]          # Jensen
    assert "m2**2 <= m1*m3" in got and "Cauchy" in got["m2**2 <= m1*m3"]   # Cauchy–Schwarz
    assert "m1 <= 1" in got and "support" in got["m1 <= 1"]                # X ≤ 1 ⇒ E[X] ≤ 1
    assert "m2 <= m1" in got                                               # X² ≤ X on [0, 1]
    assert "m1**3 <= m3" in got and "Lyapunov" in got["m1**3 <= m3"]        # moment ordering
    # only the moments in play: nothing about m3 when the line does not use it
    assert all("m3" not in r for r in {str(rel) for rel, _ in law_relations(UNIT, {m1, m2})})


def test_the_relations_enter_the_hypotheses_in_force_tagged_law():
    r = Result("toy-law:thm-1", "t", "here", proof=[Step("eq-1", m2, "<=", m1, "SCALAR")])
    hyps = _loc(r, "eq-1").hypotheses
    law = [h for h in hyps if h.tag is Tag.LAW]
    assert law and all(h.implied for h in law)
    assert any(str(h.expr) == "m1**2 <= m2" for h in law)
    assert all("law of X" in h.where for h in law)


def test_an_unrealisable_moment_witness_no_longer_refutes_a_true_line():
    # (1 − E X)(E X² − E X³) ≥ (E X − E X²)² holds for every law on [0, 1] (Cauchy–Schwarz
    # with the weight 1 − X), but not for free numbers meeting Jensen, Cauchy–Schwarz and
    # the support bounds (m1 = 1/2, m2 = 3/10, m3 = 29/100 meets them all)
    line = Step("eq-1", (1 - m1) * (m2 - m3), ">=", (m1 - m2)**2, "SCALAR")
    r = Result("toy-law:thm-2", "t", "here", proof=[line])
    bare = check_step(_loc(r, "eq-1", BARE), OPTS, roles=BARE.role_map())
    assert bare.verdict is Verdict.REFUTED             # the free numbers break it
    rep = check_step(_loc(r, "eq-1"), OPTS, roles=PAPER.role_map())
    assert rep.verdict is Verdict.SUPPORTED, (rep.verdict, rep.detail)
    assert "laws" in rep.detail


def test_a_moment_witness_is_realised_by_a_law_re_checked_at_50_digits():
    wit = {"m1": "1/2", "m2": "1/3", "m3": "1/4"}          # the uniform law's moments
    got = laws.realise_moments(wit, [UNIT])
    assert got.applies and got.ok, got.why
    (rv, law), = got.laws
    with mpmath.workdps(60):
        total = sum(p for _, p in law)
        assert abs(total - 1) < mpmath.mpf(10) ** -40
        for name, k in (("m1", 1), ("m2", 2), ("m3", 3)):
            val = sum(p * mpmath.mpf(sp.Rational(pt[X]).p) ** k
                      / mpmath.mpf(sp.Rational(pt[X]).q) ** k for pt, p in law)
            assert abs(val - mpmath.mpf(sp.Rational(wit[name]))) < mpmath.mpf(10) ** -40
        assert all(0 <= pt[X] <= 1 and p >= 0 for pt, p in law)
    assert "law of X" in got.instance and "50 digits" in got.instance["check"]


def test_moments_no_law_has_are_not_realised():
    got = laws.realise_moments({"m1": "1/2", "m2": "1/5"}, [UNIT])     # E[X²] < E[X]²
    assert got.applies and not got.ok
    assert "no law" in got.why


def test_a_false_line_is_refuted_by_a_law_found_by_a_linear_programme():
    # E[X] ≤ c·E[X²] fails for X ∈ [0, 1] whenever c < 1 (a point mass at 1/2, c = 1)
    r = Result("toy-law:thm-3", "t", "here", hypotheses=[asm(c <= 1)],
               proof=[Step("eq-1", m1, "<=", c * m2, "SCALAR")])
    rep = check_step(_loc(r, "eq-1"), OPTS, roles=PAPER.role_map())
    assert rep.verdict is Verdict.REFUTED
    assert rep.instance and any(k.startswith("law of X") for k in rep.instance)
    # the witness's moments are a law's: Jensen holds at it
    cx = rep.counterexample
    v1, v2 = (realise.parse_value(cx[k]) for k in ("m1", "m2"))
    assert v1**2 <= v2 <= v1 <= 1


def test_the_law_search_finds_a_violation_the_scalar_search_misses():
    # the violation needs the law at its extreme (all mass at X = 1) together with the
    # parameters; a linear programme chooses the law at each parameter point
    t = sp.Symbol("t", positive=True)
    line = (m1 - m2) * t + m1 <= sp.Rational(99, 100)
    got = laws.search_laws(line, [asm(t <= 1)], [UNIT], budget=200, seed=1)
    assert got is not None and got.counterexample is not None, got
    assert "law of X" in got.counterexample and "confirmed" in got.detail


def test_aggregates_carry_what_their_definition_implies():
    T, S, a1, tt = (sp.Symbol(n, positive=True) for n in ("T", "S", "a1", "t"))
    ag = Aggregate(S, "sum", index=tt, first=0, last=T - 1, term="A_t", bounds=(0, 1),
                   open_lower=True, terms=((T - 1, 0, 0), (0, a1, 1)), where="toy")
    rels = {r for r, _ in aggregate_relations(ag, {S})}
    assert sp.Le(S, T) in rels
    assert sp.Or(S >= a1, T < 2) in rels and sp.Or(S <= T - 1, T < 2) in rels
    assert sp.Or(S > a1, T <= 2) in rels
    # realised by a sequence of terms: T = 2 forces S = A_0 ∈ [a1, 1], A_1 = 0
    ok = realise.realise_aggregates({"S": "1", "T": "2", "a1": "1/2"}, [ag])
    assert ok.ok and "A_t at position 1 = 0" in ok.instance["terms of S"]
    bad = realise.realise_aggregates({"S": "1/4", "T": "2", "a1": "1/2"}, [ag])
    assert bad.applies and not bad.ok and "outside" in bad.why
    # the terms not fixed one by one are > 0: S = 1 at T = 3 with A_0 = 1 needs A_1 > 0
    ok3 = realise.realise_aggregates({"S": "1", "T": "3", "a1": "1/2"}, [ag])
    assert ok3.ok and "= 0 each" not in ok3.instance["terms of S"]


def test_every_refuted_row_shows_its_instance():
    scalar = StepReport("x:thm-1/eq-1", None, "ALGEBRA", Verdict.REFUTED, "z3+mpmath",
                        counterexample={"a": "1"})
    assert "witness itself" in realise.witness_instance(scalar)["point"]
    oracle = StepReport("x:thm-1/eq-2", None, "PROBABILISTIC", Verdict.REFUTED,
                        "oracle:worst-case", counterexample={"a": "1", "law": "P(x=1) = 1"})
    got = realise.witness_instance(oracle)
    assert got["law"] == "P(x=1) = 1" and "worst-case" in got["check"]
    stmt = StepReport("x:thm-1/part-1", None, "PROBABILISTIC", Verdict.REFUTED, "statement",
                      counterexample={"n": "10", "truth_max": "2", "bound": "1",
                                      "scenario": "a canary", "method": "exact"})
    got = realise.scenario_instance(stmt.counterexample)
    assert got["scenario"] == "a canary" and "> bound 1" in got["truth"]
    assert got["parameters"] == "n = 10"


@pytest.mark.parametrize("bad", [
    dict(coords=(X,), support=[X <= 1], moments={m1: X}),             # no lower bound
    dict(coords=(X,), support=[0 <= X, X <= 1], moments={}),           # no moments
])
def test_a_declaration_without_a_bounded_support_or_moments_is_an_encoding_error(bad):
    with pytest.raises(ValueError):
        RandomVariable("X", **bad)


def test_survival_weights_are_realised_by_their_rates_exactly():
    # S = Σ_t A_t with A_t = 1 − Π_{τ>t}(1 − a_τ), a_τ ∈ (0, 1], a_1 fixed: the instance is
    # the rates, and the terms they give sum to S exactly
    T, S, a1, tt = (sp.Symbol(n, positive=True) for n in ("T", "S", "a1", "t"))
    ag = Aggregate(S, "sum", index=tt, first=0, last=T - 1, term="A_t", bounds=(0, 1),
                   survival=True, rates=((1, a1),), where="toy")
    ok = realise.realise_aggregates({"S": "3", "T": "10", "a1": "5/7"}, [ag])
    assert ok.ok, ok.why
    text = ok.instance["terms of S"]
    assert "a_1 = 5/7" in text and "sum = 3 (exact)" in text
    rates = dict(part.split(" = ") for part in text.split("rates ")[1].split("; terms")[0]
                 .split("; "))
    vals = {}
    for k, v in rates.items():                     # a run a_i..a_j = v, or one a_i = v
        lo, _, hi = k.partition("..")
        for u in range(int(lo[2:]), int((hi or lo)[2:]) + 1):
            vals[u] = sp.Rational(v)
    assert sorted(vals) == list(range(1, 10))
    assert all(0 < v <= 1 for v in vals.values())
    total = sum(1 - sp.prod([1 - vals[u] for u in range(k + 1, 10)]) for k in range(10))
    assert total == 3
    # T = 2: A_0 = a_1, A_1 = 0 — the sum is a_1, nothing else
    assert realise.realise_aggregates({"S": "5/7", "T": "2", "a1": "5/7"}, [ag]).ok
    bad = realise.realise_aggregates({"S": "1", "T": "2", "a1": "5/7"}, [ag])
    assert bad.applies and not bad.ok
    # at most T − 1 (every rate 1), and more than a_1 once T ≥ 3
    assert not realise.realise_aggregates({"S": "9.5", "T": "10", "a1": "5/7"}, [ag]).ok
    assert not realise.realise_aggregates({"S": "1/2", "T": "10", "a1": "5/7"}, [ag]).ok

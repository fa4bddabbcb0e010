"""The DP-NSGD vs DP-SGD paper (key ``nsgd``): the encoding loads in the paper's order, lints
clean, and the engine's verdicts on its decisive rows are what the report says — the
refuted first-order lemmas (exact worst-case noise laws), the η⁴ and sign slips of the
telescoping, the non-minimising step size, the non-vanishing term (5) does not cover."""
from __future__ import annotations

import pytest
import sympy as sp

from checks import engine
from checks.cli import main
from checks.units import using
from checks.verdict import Verdict
from theory import registry
from theory.papers import nsgd
from theory.papers.nsgd.symbols import TABLE

IDS = ["eq-1", "def-2.1", "def-2.2", "asm-2.1", "asm-2.2", "ex-2.3", "alg-1", "alg-1+dp-sgd",
       "lem-3.1", "lem-3.1+c11", "thm-3.2", "cor-3.3", "eq-7", "thm-3.4", "cor-3.5", "eq-11",
       "ex-3.1", "asm-a.1", "lem-b.1", "lem-b.2", "rem-b.1", "lem-b.3", "lem-b.4", "lem-b.5",
       "eq-21", "lem-c.1", "rem-c.1", "rem-c.2", "eq-27", "lem-c.2", "lem-c.3", "eq-32",
       "lem-d.1", "eq-38", "lem-d.2", "lem-d.3", "eq-44", "prop-e.1", "prop-e.2", "prop-e.3"]


@pytest.fixture(autouse=True)
def _table():
    with using(TABLE):
        yield


def by_id(rid):
    return registry.get(f"nsgd:{rid}")


_MEMO: dict = {}


def rows(rid, budget=300):
    if (rid, budget) not in _MEMO:
        rep = engine.check_result(by_id(rid), budget=budget, seed=0)
        _MEMO[(rid, budget)] = {s.id.split("/", 1)[1]: s for s in rep.steps}
    return _MEMO[(rid, budget)]


def test_loads_in_paper_order():
    assert [r.id.split(":", 1)[1] for r in nsgd.RESULTS] == IDS
    assert "nsgd" in registry.papers()
    own = set(nsgd.PAPER.symbols.own())
    assert {"r", "c", "tau0", "tau1", "L0", "L1", "alpha", "alpha_r"} <= own


def test_lint_is_clean(capsys):
    assert main(["lint", "theory/papers/nsgd"]) == 0
    assert "ok:" in capsys.readouterr().out


def test_example_2_3_never_meets_tau1_below_one():
    r = rows("ex-2.3")
    assert r["part-1"].verdict is Verdict.PROVED
    assert r["part-2"].verdict is Verdict.PROVED
    assert r["tau1-below-1"].verdict is Verdict.REFUTED


def test_example_3_1_closed_form_proved_and_sign_claim_refuted():
    r = rows("ex-3.1")
    assert r["mean-zero"].verdict is Verdict.PROVED
    assert r["closed-form"].verdict is Verdict.PROVED
    assert r["negative"].verdict is Verdict.REFUTED


def test_telescoping_slips_of_theorem_3_2_are_refuted():
    r = rows("thm-3.2")
    for row in ("eq-28", "case-u", "case-uc", "eq-29", "eq-30-t2", "bias-root"):
        assert r[row].verdict is Verdict.REFUTED, (row, r[row].detail)
    assert r["bias-5"].verdict is Verdict.PROVED
    # (30)'s U^c branch depends on the reading: Δ outside the root fails, inside holds
    rd = {x["name"]: x["verdict"] for x in r["eq-30-uc"].readings}
    assert r["eq-30-uc"].verdict is Verdict.REFUTED and rd["delta-inside"] == "PROVED"


def test_descent_lemma_b2_is_proved_through_its_proof():
    r = rows("lem-b.2")
    assert r["statement"].verdict is Verdict.CITED or r["statement"].verdict is Verdict.PROVED
    assert r["eq-14-b"].verdict is Verdict.PROVED and r["cauchy-schwarz"].verdict is Verdict.PROVED


def test_lemma_c1_case_iii_with_tau1_is_refuted_but_eq_26_holds_pointwise():
    r = rows("lem-c.1")
    assert r["iii-1"].verdict is Verdict.REFUTED
    assert r["eq-23"].verdict in (Verdict.PROVED, Verdict.SUPPORTED)


def test_lemma_3_1_proof_leaves_no_order_and_pinned_constants_violate():
    r = rows("lem-3.1")
    assert r["constants"].verdict is Verdict.REFUTED, r["constants"].detail
    assert r["statement"].verdict is Verdict.UNCHECKED      # existential constants
    rep = engine.check_result(by_id("lem-3.1+c11"), budget=300, seed=0)
    assert rep.statement.verdict.value == "VIOLATED", rep.statement.detail
    assert float(rep.statement.witness["truth_max"]) > 0.5


def test_first_order_lemmas_are_broken_by_exact_noise_laws():
    """The worst-case LP oracle at the default budget: Lemma B.3's first branch (r < τ0) and
    Lemma B.5's first branch fail for a finitely supported mean-zero law; B.3's second
    branch holds on every worst case searched."""
    r3 = rows("lem-b.3", budget=2000)
    assert r3["part-1"].verdict is Verdict.REFUTED
    assert "law" in r3["part-1"].counterexample
    assert r3["part-2"].verdict is Verdict.SUPPORTED
    assert r3["case-2/hip-lower"].verdict is Verdict.SUPPORTED
    r5 = rows("lem-b.5", budget=2000)
    assert r5["part-1"].verdict is Verdict.REFUTED
    assert r5["case-1/chain-1"].verdict is Verdict.REFUTED


@pytest.mark.parametrize("rid, row, h, moments", [
    ("thm-3.2", "eq-28", "h_k", ("E_h", "E_h2")),
    ("thm-3.4", "eq-39", "hb_k", ("Eb_h", "Eb_h2"))])
def test_the_eta4_slips_are_refuted_by_a_law(rid, row, h, moments):
    """Issue 33: the witnesses of (28) and (39) had E[h] = 1 > 1/r, E[h²] = 0 < E[h]² and
    α = 1 (or E[h̄²] > E[h̄] with h̄ ≤ 1, α > 1): no random variable has them.  The
    stand-ins are moments of the declared gradient noise, α lies in (0, 1) as Lemmas C.1 /
    D.1 state, and the refutation is a finitely supported law."""
    from checks.realise import parse_value
    rep = rows(rid)[row]
    assert rep.verdict is Verdict.REFUTED
    cx = rep.counterexample
    law = [k for k in cx if k.startswith("law of the gradient noise")]
    assert law and rep.instance and law[0] in rep.instance
    alpha = parse_value(cx["alpha"])
    assert 0 < alpha < 1
    e1, e2 = (parse_value(cx[m].split("≈")[-1]) if "≈" in cx[m] else parse_value(cx[m])
              for m in moments)
    assert e1 ** 2 <= e2 * (1 + sp.Rational(1, 10**12))       # Jensen
    if h == "h_k":
        assert e1 <= 1 / parse_value(cx["r"])                   # h ≤ 1/r
    else:
        assert e2 <= e1 <= 1                                    # h̄ ≤ 1

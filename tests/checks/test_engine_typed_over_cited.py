"""A statement part concluded by a chain of PROVED and CITED rows is PROVED only while its
typed statement is not VIOLATED: a confirmed violation on a member means one of the cited
rows is false there, and the part is REFUTED with the witness (PROVED is never wrong)."""
from __future__ import annotations

import sympy as sp

from checks import engine
from checks.verdict import StatementVerdict, Verdict
from theory.mechanisms import GaussianMechanism
from theory.model import Bound, Chain, Result, Step, StepKind, asm

eps, dl, sig, D, e_dp = sp.symbols("epsilon delta sigma Delta eps_dp", positive=True)
CAL = sp.sqrt(2 * sp.log(sp.Rational(5, 4) / dl)) * D / eps       # the classical calibration
HYPS = [asm(sp.Eq(sig, CAL)), asm(sp.Lt(dl, 1))]


def _result(bound_sigma, extra=()):
    hyps = [*HYPS, *extra]
    return Result(
        "x:thm-1", "planted", "test", hypotheses=hyps,
        statement=[Step("statement", e_dp, "<=", eps, StepKind.PROBABILISTIC)],
        proof=[Chain("proof", [Step("cited", e_dp, "<=", eps, StepKind.CITED,
                                    because="a cited Gaussian mechanism lemma")],
                     concludes="statement")],
        bounds=[Bound("statement", eps, GaussianMechanism(sensitivity=D, sigma=bound_sigma),
                      delta=dl, profile=True, hypotheses=hyps)])


def _part(rep):
    return next(s for s in rep.steps if s.id == "x:thm-1/statement")


def test_a_violated_typed_statement_outweighs_a_cited_proof():
    rep = engine.check_result(_result(sig), budget=40, seed=0)
    assert rep.statement.verdict is StatementVerdict.VIOLATED      # ε ≥ 1 breaks it
    part = _part(rep)
    assert part.verdict is Verdict.REFUTED and part.counterexample
    assert "rests on CITED rows (cited)" in part.detail


def test_a_holding_typed_statement_leaves_the_proof_in_charge():
    # the classical calibration is sound for ε < 1 (Dwork and Roth, Thm A.1)
    rep = engine.check_result(_result(3 * sig, [asm(sp.Lt(eps, 1)), asm(sp.Gt(dl, sp.Rational(1, 100))),
                                                 asm(sp.Gt(eps, sp.Rational(1, 2)))]),
                              budget=40, seed=0)
    assert rep.statement.verdict is StatementVerdict.HOLDS_ON_SCENARIOS
    assert _part(rep).verdict is Verdict.PROVED

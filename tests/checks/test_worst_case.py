"""The ``worst-case`` step oracle (checks/truth/worst_case.py): exact worst cases over
finitely supported laws as an LP.  A line false for some mean-zero law on its support is
REFUTED with an exact law re-checked at 50 digits; a true line is SUPPORTED; a line not
affine in its expectations is UNCHECKED with the reason."""
from __future__ import annotations

import sympy as sp

from checks.oracles.worst_case import worst_case_oracle
from checks.verdict import Verdict
from theory.model import Result, Step, StepKind, asm, walk_steps

R = sp.Symbol("R", positive=True)
a = sp.Symbol("a", real=True)
Ea2 = sp.Symbol("Ea2", nonnegative=True)
Ea4 = sp.Symbol("Ea4", nonnegative=True)

LAW = {"coords": ("a",), "box": (("a", -R, R),), "support": sp.Le(a**2, R**2),
       "moments": (a,), "expect": (("Ea2", a**2),)}


def _judge(lhs, rel, rhs, args=LAW, hyps=()):
    res = Result("toy:lem-1", "toy", "here", hypotheses=[asm(sp.Le(R, 10), "R ≤ 10"), *hyps],
                 statement=[Step("statement", lhs, rel, rhs, StepKind.PROBABILISTIC,
                                 oracle="worst-case", oracle_args=args)])
    loc = next(iter(walk_steps(res)))
    return worst_case_oracle(loc, budget=400, seed=0)


def test_a_false_variance_bound_is_refuted_with_an_exact_law():
    rep = _judge(Ea2, "<=", R**2 / 2)           # the law ±R has E[a²] = R²
    assert rep.verdict is Verdict.REFUTED, rep.detail
    assert "law" in rep.counterexample and float(rep.counterexample["E[slack]"]) < 0


def test_a_true_bound_is_supported():
    rep = _judge(Ea2, "<=", R**2)
    assert rep.verdict is Verdict.SUPPORTED, rep.detail


def test_equalities_are_checked_both_ways():
    law = dict(LAW, expect=(("Ea2", a**2),))
    rep = _judge(Ea2, "=", 0, law)                # E[a²] = 0 fails for ±R
    assert rep.verdict is Verdict.REFUTED


def test_not_affine_in_the_expectations_is_unchecked():
    law = dict(LAW, expect=(("Ea2", a**2), ("Ea4", a**4)))
    rep = _judge(Ea2 * Ea4, "<=", R**6, law)
    assert rep.verdict is Verdict.UNCHECKED and "affine" in rep.detail

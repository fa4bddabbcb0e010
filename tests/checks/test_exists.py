"""The generic ``exists`` step oracle (checks/exists.py): 'for every admissible parameter
there is a witness in (lower, upper)' — SUPPORTED where a witness exists, REFUTED only with
an interval-arithmetic certificate that none does, at a point satisfying the hypotheses."""
from __future__ import annotations

import sympy as sp

from checks import engine, plugins
from checks.oracles.exists import certify_none
from checks.verdict import Verdict
from theory.model import Result, Step, StepKind, asm, walk_steps

x = sp.Symbol("x", positive=True)
a = sp.Symbol("a", positive=True)


def _row(hyps):
    plugins.ensure_loaded()
    r = Result("toy:lem-1", "toy", "test", hypotheses=hyps,
               statement=[Step("statement", 0, "<=", x * (1 - x) - a, StepKind.PROBABILISTIC,
                               oracle="exists", oracle_args={"var": "x", "lower": "0", "upper": "1"})])
    loc = next(walk_steps(r))
    return engine.check_step(loc, engine.Options(budget=8))


def test_witness_exists_is_supported():
    rep = _row([asm(sp.Le(a, sp.Rational(1, 5)))])
    assert rep.verdict is Verdict.SUPPORTED, rep.detail


def test_no_witness_is_refuted_with_a_certificate():
    rep = _row([asm(sp.Ge(a, sp.Rational(3, 10)))])
    assert rep.verdict is Verdict.REFUTED, rep.detail
    assert float(sp.Rational(rep.counterexample["a"])) >= 0.3
    assert "interval arithmetic" in rep.detail


def test_certificate_does_not_close_when_a_witness_exists():
    ok, _ = certify_none(x * (1 - x) - sp.Rational(1, 4), x, 0, 1, max_boxes=500)
    assert not ok            # x = 1/2 attains 0: never certified negative
    ok, boxes = certify_none(x * (1 - x) - sp.Rational(26, 100), x, 0, 1)
    assert ok and boxes > 1


def test_hypotheses_on_the_witness_constrain_it():
    rep = _row([asm(sp.Le(a, sp.Rational(1, 5))), asm(sp.Ge(x, sp.Rational(99, 100)))])
    assert rep.verdict is Verdict.REFUTED, rep.detail     # x ≥ 0.99 leaves x(1−x) ≤ 0.0099 < a

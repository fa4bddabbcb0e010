"""The generic stability oracles (``sgd-argument-stability``, ``sgd-iterate-norm``): exact
enumeration and sampling agree, neighbours move the average, and planted bounds are
decided — a bound far below the measured sensitivity is REFUTED with its exact probability,
a generous one SUPPORTED, a bound on the iterates that SGD exceeds at its first step is
REFUTED."""
from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from checks.engine import Options, check_step
from checks.truth.sgd_paths import neighbour_sup, run_sgd, sequences
from theory.classes import Holder, OriginBounds
from theory.model import Result, Step, StepKind, asm, walk_steps

al, L, eta, g, M, M0, sd, w2 = sp.symbols("alpha L eta gamma M M0 sd w2", positive=True)
T = sp.Symbol("T", positive=True, integer=True)
n = sp.Symbol("n", positive=True, integer=True)
t = sp.Symbol("t", positive=True, integer=True)
HYPS = [asm(Holder(al, L)), asm(OriginBounds(M, M0)), asm(sp.Le(al, 1)), asm(sp.Lt(eta, 1)),
        asm(sp.Lt(eta, 1 / L)), asm(sp.Gt(eta, 1 / T)), asm(sp.Lt(g, 1))]
ARGS = {"eta": "eta", "T": "T", "n": "n", "confidence": "gamma", "radius": ""}


def _row(rhs, oracle="sgd-argument-stability", args=ARGS, lhs=sd):
    r = Result("x:thm-1", "planted", "test", hypotheses=HYPS,
               proof=[Step("s", lhs, "<=", rhs, StepKind.PROBABILISTIC, oracle=oracle,
                           oracle_args=args)])
    loc = next(walk_steps(r))
    return check_step(loc, Options(budget=2000))


def test_sequences_enumerate_or_sample():
    s, full = sequences(2, 3)
    assert full and s.shape == (8, 3) and len({tuple(x) for x in s}) == 8
    s, full = sequences(10, 10, sample=64, seed=1)
    assert not full and s.shape == (64, 10)
    with pytest.raises(ValueError, match="n and T"):
        sequences(0, 3)


def test_identical_data_give_identical_averages_and_neighbours_move_them():
    z = np.linspace(-1, 1, 3)
    s, _ = sequences(3, 4)
    w1, _ = run_sgd(z, s, nu=0.5, c=1.0, eta=0.3, radius=None)
    w2_, _ = run_sgd(z.copy(), s, nu=0.5, c=1.0, eta=0.3, radius=None)
    assert np.array_equal(w1, w2_)
    sup = neighbour_sup(z, 1.0, s, nu=0.5, c=1.0, eta=0.3, radius=None)
    assert sup.max() > 0 and np.all(sup >= 0)
    # a sequence that never draws index 0 is unaffected by replacing z_0 only — but the
    # sup runs over every index, so it is positive wherever some index is drawn
    assert np.all(sup > 0)


def test_a_bound_below_the_sensitivity_is_refuted_and_a_generous_one_supported():
    low = _row(eta / 10 ** 6)
    assert low.verdict.value == "REFUTED", low.detail
    assert float(low.counterexample["P"]) > float(low.counterexample["gamma"])
    assert "bound_50_digits" in low.counterexample
    high = _row(10 ** 6 * T * eta)
    assert high.verdict.value == "SUPPORTED", high.detail
    assert high.slack > 0.99


def test_iterate_norm_oracle():
    bad = _row(eta ** 2 * M ** 2 / 4, oracle="sgd-iterate-norm", args={"eta": "eta", "t": "t", "T": "T"},
               lhs=w2)
    assert bad.verdict.value == "REFUTED", bad.detail   # ||w_2||² = η²M² at the data's edge
    ok = _row(t * eta * (M + L) ** 2 + 2 * M0, oracle="sgd-iterate-norm",
              args={"eta": "eta", "t": "t", "T": "T"}, lhs=w2)
    assert ok.verdict.value == "SUPPORTED", ok.detail

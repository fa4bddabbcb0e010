"""The stability oracles (:mod:`checks.oracles.stability`) called directly on a one-scenario
grid small enough to compute by hand: ν = 0, L = 1 (c = 1/2), data z = (−1, 1), T = 2.
Averaged SGD from w_1 = 0 gives w̄ = w_2/2 = ηc·sign(z_{i_1})/2, and replacing the drawn
datum by the opposite end moves it by ηc = η/2 on every index sequence; the iterates reach
w_2² = η²/4 and w_3² = η² (a step back toward 0 or further out).  (That the oracles decide
planted steps through the engine is tested by ``test_stability.py``.)"""
from __future__ import annotations

import pytest
import sympy as sp
from scipy.stats import beta as beta_dist

from checks.oracles import stability
from checks.oracles.stability import (_clopper_pearson_lower, _Roles, sgd_argument_stability,
                                      sgd_iterate_norm)
from checks.verdict import Verdict
from theory.classes import Holder
from theory.model import Result, Step, StepKind, asm, walk_steps

al, L, eta, g, sd, w2 = sp.symbols("alpha L eta gamma sd w2", positive=True)
T = sp.Symbol("T", positive=True, integer=True)
n = sp.Symbol("n", positive=True, integer=True)
t = sp.Symbol("t", positive=True, integer=True)
HYPS = [asm(Holder(al, L)), asm(sp.Le(al, 1)), asm(sp.Lt(eta, 1 / L)), asm(sp.Gt(eta, 1 / T)),
        asm(sp.Lt(g, 1))]
STAB = {"eta": "eta", "T": "T", "n": "n", "confidence": "gamma", "radius": ""}
NORM = {"eta": "eta", "t": "t", "T": "T"}
#: (ν, L, n, T, a, γ, R): the one scenario of these tests
TINY = [(0.0, 1.0, 2, 2, 1.0, 0.5, 2.0)]
ETAS = (0.525, 0.75, 0.975)          # 1/T + f·(min(1, 1/L) − 1/T), f = 0.05, 0.5, 0.95


@pytest.fixture(autouse=True)
def tiny_grid(monkeypatch):
    monkeypatch.setattr(stability, "SCENARIOS", TINY)


def _loc(lhs, rhs, oracle, args, hyps=HYPS):
    r = Result("x:thm-1", "planted", "test", hypotheses=hyps,
               proof=[Step("s", lhs, "<=", rhs, StepKind.PROBABILISTIC, oracle=oracle,
                           oracle_args=args)])
    return next(walk_steps(r))


def _stab(rhs, **kw):
    return sgd_argument_stability(_loc(sd, rhs, "sgd-argument-stability", STAB, **kw),
                                  budget=2000, seed=0)


def _norm(rhs, **kw):
    return sgd_iterate_norm(_loc(w2, rhs, "sgd-iterate-norm", NORM, **kw), budget=2000, seed=0)


# ---------------------------------------------------------------------------- stability
def test_a_bound_below_the_sensitivity_on_every_sequence_is_refuted_exactly():
    rep = _stab(eta / 4)                   # sup|w̄ − w̄'| = η/2 on all 4 sequences
    assert rep.verdict is Verdict.REFUTED, rep.detail
    ce = rep.counterexample
    assert ce["P"] == "1.0" and ce["gamma"] == "0.5" and ce["eta"] == "0.525"
    assert ce["bound_50_digits"].startswith("0.13125")
    assert rep.slack == pytest.approx(0.525 / 4 - 0.525 / 2)
    assert rep.detail == "P(sup δ ≥ bound) = 1 > 0.5 over all 4 index sequences"


def test_a_generous_bound_is_supported_with_the_measured_ratio():
    rep = _stab(eta)
    assert rep.verdict is Verdict.SUPPORTED, rep.detail
    assert rep.slack == pytest.approx(0.5)                  # (η/2)/η at every η
    assert rep.samples == 4 * len(ETAS)
    assert "the largest max_seq sup|w̄ − w̄'| / bound = 0.5" in rep.detail


def test_a_bound_met_with_equality_is_not_refuted():
    rep = _stab(eta / 2)                   # reached exactly, not exceeded (margin 1e-9)
    assert rep.verdict is Verdict.SUPPORTED, rep.detail
    assert rep.slack == pytest.approx(0.0, abs=1e-12)


def test_sampled_sequences_are_judged_by_the_clopper_pearson_lower_end(monkeypatch):
    # 2^13 = 8192 sequences > 4096: a seeded sample of 512
    monkeypatch.setattr(stability, "SCENARIOS", [(0.0, 1.0, 2, 13, 1.0, 0.5, 2.0)])
    rep = _stab(eta / 10 ** 6)
    assert rep.verdict is Verdict.REFUTED, rep.detail
    low = 0.001 ** (1 / 512)                         # every sampled sequence reaches it
    assert rep.detail == f"P(sup δ ≥ bound) ≥ {low:.4g} > 0.5 over a sample of 512 index " \
                         "sequences"


def test_no_admissible_scenario_is_unchecked():
    rep = _stab(eta, hyps=[*HYPS, asm(sp.Gt(eta, 5))])
    assert rep.verdict is Verdict.UNCHECKED
    assert rep.detail == "no scenario of the grid satisfies the hypotheses in force"


def test_the_oracle_needs_a_holder_class():
    loc = _loc(sd, eta, "sgd-argument-stability", STAB, hyps=HYPS[1:])
    with pytest.raises(ValueError, match="^the oracle needs a Holder\\(nu, L\\) class in force$"):
        _Roles(loc)


# ---------------------------------------------------------------------------- iterate norm
def test_iterate_norms_by_hand_refute_a_bound_linear_in_t_at_the_second_step():
    rep = _norm(t * eta ** 2 * L ** 2 / 4)     # w_2² = η²/4 meets it, w_3² = η² is 2× it
    assert rep.verdict is Verdict.REFUTED, rep.detail
    ce = rep.counterexample
    assert (ce["t"], ce["eta"], ce["ratio"]) == ("2", "0.525", "2")
    assert rep.slack == pytest.approx(-1.0)


def test_iterate_norms_by_hand_meet_a_quadratic_bound_exactly():
    rep = _norm(t ** 2 * eta ** 2 * L ** 2 / 4)
    assert rep.verdict is Verdict.SUPPORTED, rep.detail
    assert rep.slack == pytest.approx(0.0, abs=1e-12)
    assert "the largest ||w_(t+1)||²/bound = 1" in rep.detail


def test_the_first_step_alone_refutes_a_bound_below_it():
    rep = _norm(eta ** 2 * L ** 2 / 8)         # w_2² = η²/4 is twice it at t = 1
    assert rep.verdict is Verdict.REFUTED
    assert (rep.counterexample["t"], rep.counterexample["ratio"]) == ("1", "2")


# ---------------------------------------------------------------------------- the interval
def test_clopper_pearson_lower_end():
    assert _clopper_pearson_lower(0, 100) == 0.0
    assert _clopper_pearson_lower(512, 512) == pytest.approx(0.001 ** (1 / 512), rel=1e-12)
    for k, m in ((1, 10), (37, 200), (199, 200)):
        assert _clopper_pearson_lower(k, m) == pytest.approx(
            beta_dist.ppf(0.001, k, m - k + 1), rel=1e-9)
        assert _clopper_pearson_lower(k, m) < k / m

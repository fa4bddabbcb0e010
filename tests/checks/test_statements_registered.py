"""Registered bounds at a concrete run (:mod:`checks.statements.registered`): which
registered bounds are candidates (explicit last-iterate RDP of NoisySGD over T, the run's
domain kind, the classes the problem is known to belong to), how a bound's symbols get the
run's values, and the bound minimised over a free analysis parameter on its grid, blank
where its hypotheses fail."""
from __future__ import annotations

import math
from types import SimpleNamespace

import pytest
import sympy as sp

from checks.statements.registered import _implicit_holds, assign, bound_value, noisy_sgd_bounds
from theory import registry
from theory.classes import Convex, LSmooth
from theory.mechanisms import GaussianMechanism, NoisySGD
from theory.model import Bound, ImplicitBound, asm

n, b, eta, C, sig, al, beta, q, L, D, K = sp.symbols(
    "n b eta C sigma_dp alpha beta q L D K", positive=True)
T = sp.Symbol("T", positive=True, integer=True)
SCEN = {"n": 1000.0, "b": 10.0, "eta": 0.1, "C": 1.0, "sigma_dp": 2.0, "alpha": 4.0,
        "L": 3.0, "D": 5.0}
#: α T q² (1/β + 1/(1 − β)) / σ² with q = b/n: smallest at β = 1/2
SPLIT = al * T * q ** 2 * (1 / beta + 1 / (1 - beta)) / sig ** 2
HYPS = [asm(sp.Eq(q, b / n)), asm(beta < 1)]


def _sgd(**kw):
    return NoisySGD(n=n, b=b, eta=eta, C=C, sigma=sig, T=kw.pop("T", T), **kw)


def _bound(expr=SPLIT, mech=None, hyps=HYPS, **kw):
    return Bound("b", expr, mech or _sgd(), order=al, hypotheses=hyps, **kw)


# ---------------------------------------------------------------------------- candidates
def test_only_explicit_last_iterate_rdp_bounds_of_noisy_sgd_over_t_are_candidates(
        monkeypatch):
    good = _bound()
    bounded = _bound(mech=_sgd(domain=D))
    others = [_bound(form="O"),                                          # an O-form
              _bound(mech=_sgd(release="all")),                          # every iterate
              _bound(mech=_sgd(T=sp.Integer(10))),                       # not a curve over T
              _bound(mech=GaussianMechanism(C, sig)),                    # another mechanism
              Bound("b", al, _sgd(), profile=True, delta=q)]             # (ε, δ)
    results = [SimpleNamespace(id="p:thm-1", bounds=[good, *others]),
               SimpleNamespace(id="p:thm-2", bounds=[bounded]),
               SimpleNamespace(id="r:lem-1", bounds=[_bound(problem_class=[Convex()])])]
    monkeypatch.setattr(registry, "all_results", lambda: results)
    got = noisy_sgd_bounds(False)
    assert [(lbl, bd) for lbl, bd in got] == [("p:thm-1 b", good), ("r:lem-1 b",
                                                                    results[2].bounds[0])]
    assert noisy_sgd_bounds(True) == [("p:thm-2 b", bounded)]
    assert [lbl for lbl, _ in noisy_sgd_bounds(False, only="r:")] == ["r:lem-1 b"]
    # a bound whose classes the problem is not known to belong to is not shown
    assert [lbl for lbl, _ in noisy_sgd_bounds(
        False, classes_ok=lambda c: not isinstance(c, Convex))] == ["p:thm-1 b"]


# ---------------------------------------------------------------------------- assign
def test_assign_gives_the_run_s_values_to_the_mechanism_s_symbols():
    bd = _bound(mech=_sgd(domain=D), problem_class=[LSmooth(L)])
    v, free = assign(bd, SCEN, {})
    assert {k: v[k] for k in ("n", "b", "eta", "C", "sigma_dp", "alpha", "D", "L")} == SCEN
    assert v["T"] is None                                   # set per row by the caller
    assert v["__defs__"] == {"q": b / n}                    # a definition, computed
    assert free == ["beta"]                                 # an analysis parameter in (0, 1)


def test_assign_takes_fixed_values_and_refuses_a_parameter_left_over():
    bd = _bound(expr=SPLIT * K, hyps=[*HYPS, asm(K >= 1)])
    assert assign(bd, SCEN, {}) is None                     # K ≥ 1: not in (0, 1), no value
    v, free = assign(bd, SCEN, {"K": 2.0})
    assert v["K"] == 2.0 and free == ["beta"]
    v, free = assign(bd, SCEN, {"K": 2.0, "beta": 0.3})
    assert v["beta"] == 0.3 and free == []


# ---------------------------------------------------------------------------- value
def _value(bd, T_value=100.0, sets=None):
    v, free = assign(bd, SCEN, sets or {})
    return bound_value(bd, dict(v, T=T_value), free)


def test_the_bound_is_minimised_over_the_free_parameter_on_its_grid():
    """The grid 0.01, 0.03, …, 0.99 (and 0.999) misses β = 1/2: the smallest value is at
    β = 0.49 (and 0.51): 1/0.49 + 1/0.51, not 4."""
    qv = SCEN["b"] / SCEN["n"]
    want = SCEN["alpha"] * 100 * qv ** 2 * (1 / 0.49 + 1 / 0.51) / SCEN["sigma_dp"] ** 2
    assert _value(_bound()) == pytest.approx(want, rel=1e-12)


def test_a_fixed_parameter_is_not_minimised():
    qv = SCEN["b"] / SCEN["n"]
    want = SCEN["alpha"] * 100 * qv ** 2 * (1 / 0.2 + 1 / 0.8) / SCEN["sigma_dp"] ** 2
    bd = _bound()
    v, _ = assign(bd, SCEN, {"beta": 0.2})
    assert bound_value(bd, dict(v, T=100.0), []) == pytest.approx(want, rel=1e-12)


def test_grid_points_where_a_hypothesis_fails_are_skipped():
    bd = _bound(hyps=[*HYPS, asm(beta >= 0.6)])
    qv = SCEN["b"] / SCEN["n"]
    want = SCEN["alpha"] * 100 * qv ** 2 * (1 / 0.61 + 1 / 0.39) / SCEN["sigma_dp"] ** 2
    assert _value(bd) == pytest.approx(want, rel=1e-12)


def test_a_bound_whose_hypotheses_fail_everywhere_is_blank():
    bd = _bound(hyps=[*HYPS, asm(T <= 10)])
    assert math.isnan(_value(bd, T_value=100.0))
    assert not math.isnan(_value(bd, T_value=5.0))


def test_an_implicit_bound_holds_up_to_its_value():
    imp = ImplicitBound(al, (sp.Le(al ** 2, K),), "sqrt(K)", lower=1, upper=100)
    assert _implicit_holds(imp, {"alpha": 3.9, "K": 16.0})
    assert not _implicit_holds(imp, {"alpha": 4.1, "K": 16.0})
    assert not _implicit_holds(imp, {"K": 16.0})                # no value: does not hold
    assert not _implicit_holds(imp, {"alpha": 1.5, "K": 0.5})   # holds nowhere


"""Compositions with a closed form use it (issue 34): a T-fold composition of Gaussian
mechanisms is one Gaussian mechanism of sensitivity √T·Δ, so its RDP and its privacy
profile are exact and a tight bound is decided as tight; a composed privacy-loss
distribution too large to build is refused from its size before anything is allocated; a
statement printed with ``=`` is checked both ways."""
from __future__ import annotations

import sympy as sp

from checks.statements import check_result_statements, check_statement
from checks.truth.base import Unavailable
from checks.truth.providers import PLD_BUCKETS_MAX, SampledGaussianProvider, _pld_buckets
from theory.mechanisms import Composition, GaussianMechanism, SampledGaussian
from theory.model import Bound, Result, Step, asm

T = sp.Symbol("T", positive=True, integer=True)
s, D, a, d = sp.symbols("sigma Delta alpha delta", positive=True)
Da = sp.Symbol("D_alpha", nonnegative=True)


def test_the_composition_of_an_unsampled_gaussian_with_t_unbounded_is_decided():
    # (ε, δ) at the RDP-optimal order, true for every T: no privacy-loss distribution of T
    # compositions is built (q = 1: one Gaussian of sensitivity √T)
    eps = T / (2 * s**2) + sp.sqrt(2 * T * sp.log(1 / d)) / s
    st = Bound("statement", eps, Composition(SampledGaussian(q=1, sigma=s), T), delta=d,
               profile=True, hypotheses=[asm(d < 1)])
    out = check_statement(st, budget=2000, seed=0)
    assert out.tested and not out.violated, out.detail
    assert "(q = 1" in out.witness["method"]                # the closed form answered


def test_a_tight_rdp_bound_of_a_gaussian_composition_holds_with_ratio_one():
    st = Bound("rdp", T * a * D**2 / (2 * s**2), Composition(GaussianMechanism(D, s), T),
               order=a)
    out = check_statement(st, budget=2000, seed=0)
    assert out.tested and not out.violated and out.ratio == 1.0, out.detail
    assert "decided exactly by the closed form" in out.detail
    low = Bound("rdp", T * a * D**2 / (3 * s**2), Composition(GaussianMechanism(D, s), T),
                order=a)
    bad = check_statement(low, budget=2000, seed=0)
    assert bad.violated and abs(bad.ratio - 1.5) < 1e-9


def test_a_huge_composed_pld_is_refused_from_its_size():
    prov = SampledGaussianProvider()
    st = Bound("statement", 1.0, Composition(SampledGaussian(q=0.5, sigma=s), T), delta=d,
               profile=True)
    v = {"sigma": 0.05, "T": 100000.0, "delta": 1e-5}
    assert _pld_buckets(0.5, 0.05, 1e5) > PLD_BUCKETS_MAX
    try:
        prov.reach(st, v)
    except Unavailable as exc:
        assert "out of reach" in str(exc)
    else:
        raise AssertionError("reach() let a ~1e10-bucket PLD through")
    prov.reach(st, {"sigma": 1.0, "T": 1000.0, "delta": 1e-5})     # typical: in reach


def _result(rhs):
    return Result("my-paper:lem-1", "RDP of the Gaussian mechanism", "Lemma 1",
                  hypotheses=[asm(a > 1)],
                  statement=[Step("statement", Da, "=", rhs, "PROBABILISTIC")],
                  bounds=[Bound("statement", rhs, GaussianMechanism(D, s), order=a)])


def test_an_equality_statement_is_checked_both_ways():
    rep, outs = check_result_statements(_result(a * D**2 / (2 * s**2)), budget=200, seed=0)
    assert rep.verdict.value == "HOLDS-ON-SCENARIOS", rep.detail
    rep, outs = check_result_statements(_result(a * D**2 / s**2), budget=200, seed=0)
    assert rep.verdict.value == "VIOLATED"
    assert "truth is below the claimed value" in outs["statement"].detail
    assert float(outs["statement"].witness["truth_max"]) < float(outs["statement"].witness["bound"])

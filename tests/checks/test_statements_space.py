"""The admissible space of a typed statement (:mod:`checks.statements.space`): which symbols
are sampled and which computed, points that satisfy every relational and implicit
hypothesis, the fallback point, the numeric relations and implicit bounds, targets realised
on the paper's symbols, derived seeds."""
from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np
import pytest
import sympy as sp

from checks.statements.space import (Space, _Skip, holds, implicit_value, realise,
                                     seeded)
from theory.mechanisms import Mechanism
from theory.model import Bound, ImplicitBound, asm


@dataclass(frozen=True)
class Toy(Mechanism):
    a: sp.Expr
    T: sp.Expr


a, x, s, u = sp.symbols("a x s u", positive=True)
z = sp.Symbol("z", real=True)
T = sp.Symbol("T", positive=True, integer=True)
al = sp.Symbol("alpha", positive=True)


def _bound(expr, *hyps, mech=None):
    return Bound("b", expr, mech or Toy(a, T), order=2, hypotheses=list(hyps))


BOX = (asm(a > 1), asm(a <= 4), asm(T >= 2), asm(T <= 100))


# ---------------------------------------------------------------------------- the space
def test_symbols_are_sampled_and_definitions_computed():
    st = _bound(a * T + s, *BOX, asm(sp.Eq(s, 2 * a)), asm("W is convex"))
    sp_ = Space(st)
    assert [v.name for v in sp_.symbols] == ["T", "a"]           # s is defined, not drawn
    assert {v.name for v in sp_.defined} == {"s"}
    assert sp_.predicates == ["W is convex"]
    v = sp_.complete({"a": 3.0, "T": 5.0})
    assert v == {"a": 3.0, "T": 5.0, "s": 6.0}
    # a user's value of a defined symbol is recomputed, not trusted
    assert sp_.admissible({"a": 3.0, "T": 5.0, "s": 100.0})["s"] == 6.0


def test_domains_come_from_the_hypotheses_and_the_symbols_assumptions():
    sp_ = Space(_bound(a * T, *BOX))
    dT, da = sp_.domain_of("T"), sp_.domain_of("a")
    assert (dT.lo, dT.hi, dT.integer) == (2.0, 100.0, True)
    assert (da.lo, da.hi, da.integer) == (1.0, 4.0, False)
    assert sp_.domain_of("nope") is None


def test_admissible_points_satisfy_every_hypothesis():
    sp_ = Space(_bound(a * T, *BOX, asm(a * T <= 50)))
    assert sp_.admissible({"a": 2.0, "T": 3.0}) == {"a": 2.0, "T": 3.0}
    assert sp_.admissible({"a": 5.0, "T": 3.0}) is None            # a ≤ 4 fails
    assert sp_.admissible({"a": 2.0, "T": 2.5}) is None            # T is an integer
    assert sp_.admissible({"a": 2.0, "T": 30.0}) is None           # a·T ≤ 50 fails
    assert sp_.admissible({"a": 2.0}) is None                      # T has no value
    assert sp_.admissible({"a": math.inf, "T": 3.0}) is None
    with pytest.raises(_Skip, match="fails"):
        sp_.complete({"a": 2.0, "T": 30.0})


def test_draws_are_admissible_and_depend_on_the_generator_only():
    sp_ = Space(_bound(a * T, *BOX, asm(a * T <= 50)))
    one = sp_.draw(np.random.default_rng(3), 200)
    assert len(one) > 20
    assert all(sp_.admissible(v) == v for v in one)
    assert all(v["T"] == int(v["T"]) for v in one)
    assert sp_.draw(np.random.default_rng(3), 200) == one
    assert sp_.draw(np.random.default_rng(4), 200) != one


def test_from_modes_reads_one_point_per_column_and_drops_inadmissible_ones():
    sp_ = Space(_bound(a * T, *BOX))
    k = len(sp_.doms)
    ms = np.full((k, 3), 4)                                      # uniform mode
    us = np.array([[0.0, 0.5, 1.0], [0.5, 0.5, 0.5]])
    pts = sp_.from_modes(ms, us)
    assert 1 <= len(pts) <= 3 and all(sp_.admissible(p) == p for p in pts)


def test_an_implicit_hypothesis_bounds_its_variable():
    imp = ImplicitBound(al, (sp.Le(al ** 2, x),), "sqrt(x)", lower=1, upper=100)
    st = Bound("b", al * x, Toy(x, 1), order=al,
               hypotheses=[asm(imp), asm(x >= 1), asm(x <= 100), asm(al > 1)])
    sp_ = Space(st)
    assert sp_.implicit == [imp]
    assert sp_.admissible({"alpha": 3.9, "x": 16.0}) is not None
    assert sp_.admissible({"alpha": 4.1, "x": 16.0}) is None       # α ≤ √16 fails


# ---------------------------------------------------------------------------- fallback
@pytest.mark.parametrize("hyps, want", [
    ((asm(a > 1), asm(a <= 4)), {"a": 2.5}),                     # middle of a bounded domain
    ((asm(a > 3),), {"a": 6.0}),                                 # twice a positive lower end
    ((asm(a > 0.25),), {"a": 1.0}),                              # at least 1
    ((), {"a": 1.0}),                                            # unbounded: 1
])
def test_fallback_of_a_continuous_symbol(hyps, want):
    assert Space(_bound(a, *hyps, mech=Toy(a, 1))).fallback() == want


def test_fallback_of_a_symbol_with_a_negative_lower_end_or_none():
    assert Space(_bound(z, asm(z > -3), mech=Toy(1, 1))).fallback() == {"z": 1.0}
    assert Space(_bound(z, mech=Toy(1, 1))).fallback() == {"z": 1.0}
    assert Space(_bound(z, asm(z > -3), asm(z < 2), mech=Toy(1, 1))).fallback() == {"z": -0.5}


def test_fallback_rounds_integers_and_keeps_them_at_least_one():
    assert Space(_bound(T, asm(T >= 2), asm(T <= 5), mech=Toy(1, T))).fallback() == {"T": 4.0}
    assert Space(_bound(T, asm(T >= 7), mech=Toy(1, T))).fallback() == {"T": 14.0}
    assert Space(_bound(T, asm(T <= 1), mech=Toy(1, T))).fallback() == {"T": 1.0}
    # the fallback need not be admissible: it is where targets are realised from
    got = Space(_bound(a * T, *BOX)).fallback()
    assert got == {"T": 51.0, "a": 2.5}


# ---------------------------------------------------------------------------- holds
@pytest.mark.parametrize("rel, v, want", [
    (a <= 2, {"a": 2.0}, True),
    (a < 2, {"a": 2.0}, False),
    (a >= 2, {"a": 1.0}, False),
    (a > 2, {"a": 3.0}, True),
    (sp.Eq(a, 1 / sp.Integer(3)), {"a": 1 / 3 + 1e-14}, True),    # == within rtol
    (sp.Eq(a, 1 / sp.Integer(3)), {"a": 1 / 3 + 1e-9}, False),
    (sp.Ne(a, 2), {"a": 2.0}, False),
    (sp.And(a > 1, a < 3), {"a": 2.0}, True),
    (sp.And(a > 1, a < 3), {"a": 4.0}, False),
    (sp.Or(a < 1, a > 3), {"a": 4.0}, True),
    (sp.Not(a > 3), {"a": 4.0}, False),
    (a <= 2, {}, False),                                          # unevaluable: False
    (sp.log(z) <= 2, {"z": -1.0}, False),                         # not a finite real
    (sp.true, {}, True),
    (sp.false, {}, False),
])
def test_holds(rel, v, want):
    assert holds(rel, v) is want


def test_holds_of_a_non_relation_is_false():
    assert holds(a + 1, {"a": 1.0}) is False


# ---------------------------------------------------------------------------- implicit bounds
def test_implicit_value_is_the_last_crossing_to_twelve_digits():
    imp = ImplicitBound(al, (sp.Le(al ** 2, x),), "sqrt(x)", lower=1, upper=100)
    assert implicit_value(imp, {"x": 16.0}) == pytest.approx(4.0, rel=1e-11)
    assert implicit_value(imp, {"x": 2.0}) == pytest.approx(math.sqrt(2), rel=1e-11)
    assert implicit_value(imp, {"x": 1e6}) == 100.0                # holds up to the upper end
    assert implicit_value(imp, {"x": 0.5}) is None                 # holds nowhere in (1, 100]
    assert implicit_value(imp, {}) is None                         # x has no value


def test_implicit_value_with_several_conditions_and_a_greater_than():
    imp = ImplicitBound(al, (sp.Le(al, x), sp.Ge(10 - al, 0)), "min(x, 10)", lower=1,
                        upper=1000)
    assert implicit_value(imp, {"x": 3.0}) == pytest.approx(3.0, rel=1e-11)
    assert implicit_value(imp, {"x": 50.0}) == pytest.approx(10.0, rel=1e-11)


def test_implicit_value_overflow_is_a_failed_condition_not_an_error():
    imp = ImplicitBound(al, (sp.Le(sp.exp(al * x), 1e300),), "log(1e300)/x", lower=1,
                        upper=10 ** 6)
    got = implicit_value(imp, {"x": 1.0})
    assert got == pytest.approx(300 * math.log(10), rel=1e-10)


# ---------------------------------------------------------------------------- realise
def _prov(derived):
    return SimpleNamespace(derived=lambda stmt: derived)


def test_realise_solves_each_target_for_a_free_symbol_keeping_the_others():
    st = _bound(a * T, asm(a > 0), asm(a <= 1000), asm(T >= 1), asm(T <= 1000))
    sp_ = Space(st)
    got = realise(st, _prov({"prod": a * T}), {"prod": 12.0}, {"a": 1.0, "T": 4.0}, sp_)
    # the continuous symbol moves, the integer stays
    assert got["T"] == 4.0 and got["a"] == pytest.approx(3.0, rel=1e-12)


def test_realise_sets_a_symbol_target_directly_rounding_integers():
    st = _bound(a * T, asm(a > 0), asm(a <= 1000), asm(T >= 1), asm(T <= 1000))
    sp_ = Space(st)
    got = realise(st, _prov({"T": T, "a": a}), {"T": 7.4, "a": 0.3}, {"a": 1.0, "T": 4.0}, sp_)
    assert got == {"a": 0.3, "T": 7.0}


def test_realise_gives_none_where_the_target_is_not_admissible_and_ignores_unknown_names():
    st = _bound(a * T, *BOX)
    sp_ = Space(st)
    assert realise(st, _prov({"T": T}), {"T": 500.0}, {"a": 2.0, "T": 4.0}, sp_) is None
    assert realise(st, _prov({}), {"nothing": 3.0}, {"a": 2.0, "T": 4.0}, sp_) == \
        {"a": 2.0, "T": 4.0}


# ---------------------------------------------------------------------------- seeds
def test_seeded_streams_are_fixed_distinct_and_32_bit():
    assert seeded(0, "hyp") == seeded(0, "hyp")
    assert seeded(0, "hyp") == zlib.crc32(b"hyp")
    assert seeded(5, "a", 1) == (5 ^ zlib.crc32(b"a|1")) & 0xFFFFFFFF
    assert len({seeded(0, "a"), seeded(1, "a"), seeded(0, "b"), seeded(0, "a", "b")}) == 4
    assert 0 <= seeded(2 ** 40 + 7, "x") < 2 ** 32

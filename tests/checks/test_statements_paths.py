"""Paths toward both ends of a statement's parameters (:mod:`checks.statements.paths`): each
parameter moved alone, ×factor toward ∞ and ÷factor toward 0, geometrically toward an
interval's end, integers rounded (and never below 1), stopping at the first inadmissible
point or where rounding stalls, in the plan's variable order; the provider's joint paths;
base points moved to plain values."""
from __future__ import annotations

from dataclasses import dataclass

import pytest
import sympy as sp

from checks.statements.evaluator import Evaluator
from checks.statements.paths import (NICE, arrow, generic_paths, one_parameter,
                                     parameter_paths, provider_paths, simple)
from checks.statements.space import Space
from checks.truth.base import Truth, TruthProvider, Unavailable
from theory.mechanisms import Mechanism
from theory.model import Bound, asm


@dataclass(frozen=True)
class Toy(Mechanism):
    a: sp.Expr
    T: sp.Expr


class Flat(TruthProvider):
    name = "toy-paths"
    mechanisms = (Toy,)
    joint: dict = {}

    def truth(self, stmt, v, **kw):
        return Truth(1.0, 1.0, 0.0)

    def paths(self, stmt):
        return self.joint


class Completing(Flat):
    """Its scenario fixes x = 2a (and refuses a > 3)."""

    def complete(self, stmt, values):
        if values.get("a", 0) > 3:
            raise Unavailable("a > 3")
        return dict(values, x=2 * values["a"])


a, x = sp.symbols("a x", positive=True)
T = sp.Symbol("T", positive=True, integer=True)
BASE = {"a": 2.0, "T": 8.0, "x": 1.0}


def _ev(*hyps, prov=None, expr=None):
    st = Bound("b", a * T * x if expr is None else expr, Toy(a, T), order=2,
               hypotheses=[asm(a <= 4), *hyps])
    return Evaluator(st, [prov or Flat()], Space(st))


def _moved(paths):
    return {name: [p[var] for p in pts] for name, var, pts in paths}


def test_each_parameter_toward_both_ends_from_the_base():
    got = _moved(parameter_paths(_ev(), BASE, steps=3, factor=10.0, min_points=1))
    assert got == {
        "T → ∞": [8.0, 80.0, 800.0, 8000.0],
        "T → 0": [8.0, 1.0],                                  # 0.8 rounds to 1, then stalls
        "a → 4": [2.0, pytest.approx(3.8), pytest.approx(3.98), pytest.approx(3.998)],
        "a → 0": [2.0, pytest.approx(0.2), pytest.approx(0.02), pytest.approx(0.002)],
        "x → ∞": [1.0, 10.0, 100.0, 1000.0],
        "x → 0": [1.0, 0.1, pytest.approx(0.01), pytest.approx(0.001)],
    }


def test_every_point_keeps_the_other_parameters_and_starts_with_the_base():
    for name, var, pts in parameter_paths(_ev(), BASE, steps=3, factor=10.0, min_points=1):
        assert pts[0] is BASE
        for p in pts[1:]:
            assert {k: v for k, v in p.items() if k != var} == \
                {k: v for k, v in BASE.items() if k != var}


def test_integers_are_rounded_and_a_stalled_or_short_path_is_dropped():
    got = _moved(parameter_paths(_ev(), BASE, variables=("T",), steps=3, factor=3.0,
                                 min_points=2))
    # up: 24, 72, 216; down: 8/3 → 3, 8/9 → 1, then 1 again (stalls): two moved points
    assert got == {"T → ∞": [8.0, 24.0, 72.0, 216.0], "T → 0": [8.0, 3.0, 1.0]}
    got = _moved(parameter_paths(_ev(), BASE, variables=("T",), steps=3, factor=3.0,
                                 min_points=3))
    assert list(got) == ["T → ∞"]


def test_a_path_stops_at_the_first_inadmissible_point():
    ev = _ev(asm(a * T <= 1000))
    assert [p["T"] for p in one_parameter(ev, BASE, "T", "up", 4, 10.0)] == [80.0]
    assert _moved(parameter_paths(ev, BASE, variables=("T",), steps=4, factor=10.0)) == {}


def test_the_plans_variable_order_and_names_outside_the_space_are_skipped():
    names = [n for n, _, _ in parameter_paths(_ev(), BASE, variables=("x", "nope", "a"),
                                              steps=3, factor=10.0)]
    assert names == ["x → ∞", "x → 0", "a → 4", "a → 0"]
    # without a plan: the statement's free symbols by name
    names = [n for n, _, _ in parameter_paths(_ev(), BASE, steps=3, factor=10.0)]
    assert names == ["T → ∞", "a → 4", "a → 0", "x → ∞", "x → 0"]


def test_a_prefix_names_the_base():
    names = [n for n, _, _ in parameter_paths(_ev(), BASE, variables=("x",), steps=3,
                                              factor=10.0, prefix="anchor 1: ")]
    assert names == ["anchor 1: x → ∞", "anchor 1: x → 0"]


def test_generic_paths_is_the_same_as_a_dict():
    ev = _ev()
    got = generic_paths(ev, BASE, variables=("a",), steps=3, factor=10.0)
    assert got == {n: p for n, _, p in parameter_paths(ev, BASE, variables=("a",), steps=3,
                                                       factor=10.0)}
    assert list(got) == ["a → 4", "a → 0"]


def test_no_path_for_a_parameter_without_a_value_or_domain():
    ev = _ev()
    assert one_parameter(ev, {"a": 2.0, "T": 8.0}, "x", "up", 3, 10.0) == []
    assert one_parameter(ev, BASE, "nope", "up", 3, 10.0) == []


def test_points_are_completed_by_the_provider_and_refused_points_stop_the_path():
    ev = _ev(prov=Completing())
    pts = one_parameter(ev, {"a": 2.0, "T": 8.0, "x": 4.0}, "a", "up", 3, 10.0)
    assert pts == []                                        # a = 3.8 > 3: refused at once
    pts = one_parameter(ev, {"a": 2.0, "T": 8.0, "x": 4.0}, "a", "down", 2, 10.0)
    assert [(p["a"], p["x"]) for p in pts] == [pytest.approx((0.2, 0.4)),
                                                pytest.approx((0.02, 0.04))]


@pytest.mark.parametrize("direction, lo, hi, want", [
    ("up", None, None, "→ ∞"), ("up", 0.0, 4.0, "→ 4"), ("up", 0.0, 0.5, "→ 0.5"),
    ("down", None, None, "→ 0"), ("down", 1.0, None, "→ 1"), ("down", -2.0, 3.0, "→ -2"),
])
def test_arrow(direction, lo, hi, want):
    assert arrow(direction, lo, hi) == want


def test_provider_paths_are_realised_and_inadmissible_targets_dropped():
    prov = Flat()
    prov.joint = {"a up": [{"a": 1.0}, {"a": 3.0}, {"a": 9.0}], "nowhere": [{"a": 50.0}]}
    try:
        got = provider_paths(_ev(prov=prov), BASE)
    finally:
        prov.joint = {}
    assert list(got) == ["a up"]                            # a = 9, 50 exceed a ≤ 4
    assert [(p["a"], p["T"], p["x"]) for p in got["a up"]] == [(1.0, 8.0, 1.0),
                                                              (3.0, 8.0, 1.0)]


def test_simple_moves_free_parameters_to_plain_values_and_keeps_the_others():
    ev = _ev(asm(a > 1), asm(x <= 0.05))
    v = {"a": 1.2345, "T": 37.0, "x": 0.0123}
    got = simple(ev, v, keep={"x"})
    assert got["x"] == 0.0123                               # kept
    assert got["a"] == pytest.approx(2.5)                   # the middle of (1, 4]
    assert got["T"] == 8.0                                  # the first plain integer
    got = simple(ev, v, keep=set())
    assert got["x"] == pytest.approx(0.025)                 # the middle of (0, 0.05]
    # an unbounded continuous parameter goes to the first admissible plain value
    ev = _ev(asm(x > 3))
    assert simple(ev, {"a": 2.0, "T": 8.0, "x": 3.3}, keep={"a", "T"})["x"] == 10.0
    assert NICE.index(10.0) < NICE.index(100.0)

"""The driver's targeted phase (:func:`checks.statements.search.hypothesis_phase`): it asks
``consider`` at admissible points of the statement's space only, at most ``n`` of them,
the same points for a seed, and survives scores that are huge, infinite or absent."""
from __future__ import annotations

import math
from dataclasses import dataclass

import sympy as sp

from checks.determinism import pin_hypothesis
from checks.statements.search import hypothesis_phase
from checks.statements.space import Space
from theory.mechanisms import Mechanism
from theory.model import Bound, asm

pin_hypothesis()      # as the engine does when it is imported


@dataclass(frozen=True)
class Toy(Mechanism):
    a: sp.Expr
    T: sp.Expr


a = sp.Symbol("a", positive=True)
T = sp.Symbol("T", positive=True, integer=True)
SPACE = Space(Bound("b", a * T, Toy(a, T), order=2,
                    hypotheses=[asm(a <= 4), asm(T <= 50), asm(a * T >= 2)]))


def _run(seed=0, n=40, score=lambda v: v["a"] * v["T"]):
    seen = []

    def consider(v):
        seen.append(dict(v))
        return score(v)
    hypothesis_phase(SPACE, consider, n, seed)
    return seen


def test_only_admissible_points_at_most_n():
    seen = _run(n=40)
    assert 10 <= len(seen) <= 40
    assert all(SPACE.admissible(v) == v for v in seen)
    assert all(v["a"] * v["T"] >= 2 and v["T"] == int(v["T"]) for v in seen)


def test_the_same_seed_asks_the_same_points():
    assert _run(seed=3) == _run(seed=3)
    assert _run(seed=3) != _run(seed=4)


def test_scores_that_are_huge_infinite_or_absent_are_taken():
    for score in (lambda v: 1e300, lambda v: math.inf, lambda v: None):
        assert _run(n=20, score=score)


def test_a_space_without_parameters_asks_nothing():
    empty = Space(Bound("b", sp.Integer(1), Toy(1, 2), order=2))
    assert empty.doms == []
    calls = []
    hypothesis_phase(empty, calls.append, 10, 0)
    assert calls == []

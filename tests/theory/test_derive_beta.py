"""β* re-derivation (theory.papers.liang_aaai.derive.derive_beta): the logic, not a hard-coded verdict."""
from __future__ import annotations

import random

import pytest
import sympy as sp

from theory.papers.liang_aaai.derive import BetaDerivation, _equal, derive_beta
from theory.papers.liang.symbols import C, D, L, alpha, b, beta, eta, n, sigma_dp


@pytest.fixture(scope="module")
def d() -> BetaDerivation:
    return derive_beta()


def _points(k=20, seed=3):
    rng = random.Random(seed)
    for _ in range(k):
        yield {alpha: sp.Rational(rng.randint(11, 400), 10), C: sp.Rational(rng.randint(1, 50), 7),
               D: sp.Rational(rng.randint(1, 90), 11), L: sp.Rational(rng.randint(1, 30), 3),
               eta: sp.Rational(1, rng.randint(1, 100)), n: rng.randint(100, 10**5),
               b: rng.randint(1, 99), sigma_dp: sp.Rational(rng.randint(1, 80), 9)}


def test_beta_star_is_a_stationary_point(d):
    assert sp.simplify(d.dg.subs(beta, d.beta_star)) == 0
    assert sp.simplify(sp.diff(d.g, beta) - d.dg) == 0


def test_beta_star_lies_in_the_unit_interval(d):
    assert d.beta_star.is_positive
    assert sp.simplify(1 - d.beta_star).is_positive
    for pt in _points():
        v = d.beta_star.subs(pt)
        assert 0 < v < 1


def test_chosen_root_is_the_only_admissible_one(d):
    assert len(d.roots) == 2
    assert sum(1 for _, p, l1 in d.root_checks if p is True and l1 is True) == 1
    other = [r for r in d.roots if sp.simplify(r - d.beta_star) != 0]
    assert len(other) == 1
    # the other root is outside (0, 1) at every sampled point (or undefined)
    for pt in _points():
        v = other[0].subs(pt)
        assert v.is_finite is False or v < 0 or v > 1


def test_beta_star_minimises_g(d):
    assert d.second_derivative_positive is True
    for pt in _points(10):
        gs = d.g_star.subs(pt)
        for x in (sp.Rational(1, 100), sp.Rational(1, 3), sp.Rational(1, 2), sp.Rational(97, 100)):
            assert d.g.subs(pt).subs(beta, x) >= gs
    assert sp.simplify(d.g.subs(beta, d.beta_star) - d.g_star) == 0


def test_match_flags_are_decided_symbolically(d):
    assert d.matches_53 == (sp.simplify(d.beta_star - d.printed_53) == 0)
    assert d.matches_54 == (sp.simplify(d.g_star - d.printed_54) == 0)
    if not d.matches_53:
        assert d.witness_53 is not None


def test_equal_finds_a_witness_for_a_wrong_formula(d):
    same, w = _equal(d.beta_star, d.printed_53, sorted(d.beta_star.free_symbols, key=str))
    assert same is True and w is None
    wrong = d.printed_53 * 2  # a planted error: β* off by a factor 2
    same, w = _equal(d.beta_star, wrong, sorted(wrong.free_symbols, key=str))
    assert same is False and w
    pt = {sp.Symbol(k, **{"positive": True}): sp.Rational(v) for k, v in w.items()}
    num = {s: pt[sp.Symbol(s.name, positive=True)] for s in wrong.free_symbols}
    assert sp.N(d.beta_star.subs(num) - wrong.subs(num), 30) != 0


def test_render_text_and_latex(d):
    text = d.render()
    assert "beta*" in text and "(53)" in text and "(54)" in text
    tex = d.render(latex=True)
    assert r"\beta^*" in tex and r"\begin{align*}" in tex

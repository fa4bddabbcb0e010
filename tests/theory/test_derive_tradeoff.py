"""The C.2/C.3 trade-off re-derivation (theory.papers.liang_aaai.tradeoff)."""
from __future__ import annotations

import pytest
import sympy as sp

from theory.papers.liang_aaai.tradeoff import Item, derive_tradeoff, eps, lg
from theory.papers.liang.symbols import C, L, b, d, eta, n


@pytest.fixture(scope="module")
def der():
    return derive_tradeoff(paper="liang-aaai")


def _item(der, label, what_part):
    hits = [i for i in der.items if i.label == label and what_part in i.what]
    assert hits, f"no item ({label}) {what_part!r}"
    return hits[0]


def test_unknown_paper_rejected():
    with pytest.raises(ValueError, match="paper must be one of"):
        derive_tradeoff(paper="liang-icml")


def test_every_printed_formula_gets_a_status(der):
    assert len(der.items) >= 25
    assert {i.status for i in der.items} <= {"MATCHES", "DIFFERS"}
    labels = {i.label for i in der.items}
    for eq in ("81", "83", "84", "85", "87", "88", "90", "91", "92", "95", "97", "98", "99", "100",
               "101", "102", "103", "104"):
        assert eq in labels


def test_substitution_typos_found(der):
    # σ_DP² = αC²T/(εn²): √(dLη)σ_DP = C√(αdLηT/ε)/n, printed √(αdLηTC)/√(εn)
    six = _item(der, "81", "sixth")
    assert six.status == "DIFFERS"
    assert sp.simplify(six.ratio - sp.sqrt(C) / sp.sqrt(n)) == 0
    assert _item(der, "81", "fifth").status == "MATCHES"


def test_optimal_T_of_c2_matches(der):
    it = _item(der, "85", "T minimising")
    assert it.status == "MATCHES"
    # at the derived T the two balanced terms 1/(η²C²T²) and (fifth term)² are equal
    five = _item(der, "84", "squared fifth").derived
    T = sp.Symbol("T", positive=True, integer=True)
    assert sp.simplify((1 / (eta ** 2 * C ** 2 * T ** 2) - five).subs(T, it.derived)) == 0


def test_c3_case_1_2_differs_and_t_100_not_dimensionless(der):
    assert _item(der, "101", "rate").status == "DIFFERS"
    t100 = _item(der, "100", "T")
    assert t100.status == "DIFFERS"
    assert sp.simplify(t100.ratio * 2 * L * d) == 1


def test_step_size_violations_reported(der):
    v = {c.choice for c in der.violations()}
    assert any("b/L" in c for c in v)                 # C.2 case (1): η = b/L > 1/(9L)
    assert any("L^{3/2}" in c for c in v)             # C.3 case (1.1)


def test_theta_status_logic():
    x = sp.Symbol("x", positive=True)
    assert Item("t", "", 3 * x, x).status == "MATCHES"
    assert Item("t", "", x, x ** 2).status == "DIFFERS"
    assert Item("t", "", 2 * x, x, exact=True).status == "DIFFERS"
    assert Item("t", "", x + x ** 2, 5 * x + 2 * x ** 2).status == "MATCHES"


def test_render(der):
    txt = der.render()
    assert "DIFFERS" in txt and "VIOLATES" in txt and "(101)" in txt
    tex = der.render(latex=True)
    assert "\\frac" in tex or "\\sqrt" in tex

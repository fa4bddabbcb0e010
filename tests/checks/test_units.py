"""checks.units: dimensions of encoded expressions; a planted error is caught."""
from __future__ import annotations

import pytest
import sympy as sp

from checks.units import (DIMLESS, DimensionError, UnknownDimension, check_relation,
                          check_result, dimension, render)
from theory.model import Result, Rel, Step, asm
from theory.papers.liang.symbols import C, D, L, T, alpha, b, beta, eta, mu, n, sigma_dp


def test_basic_dimensions():
    assert dimension(alpha * C**2 / (beta * n * b * sigma_dp**2) * T) == DIMLESS
    assert render(dimension(eta * C)) == "Θ"          # step size × gradient = length
    assert dimension(eta * L) == DIMLESS
    assert dimension(sp.sqrt(D**2 + (eta * C)**2)) == dimension(D)
    assert dimension(0 * D) is None                    # 0 fits anything
    assert dimension(sp.exp(-eta * mu * T)) == DIMLESS


@pytest.mark.parametrize("expr", [
    1 + eta,                       # number + step size
    eta + L,                       # different dimensions
    sp.log(D),                     # log of a length
    sp.exp(C),                     # exp of a gradient
    D**alpha,                      # dimensional base, symbolic power
    sp.Max(D, C),
])
def test_mismatches_raise(expr):
    with pytest.raises(DimensionError):
        dimension(expr)


def test_relation_sides_must_agree():
    assert check_relation(sp.Le(eta, 1 / L), "here") == []
    bad = check_relation(sp.Le(eta, 1), "here")
    assert len(bad) == 1 and "relation" in bad[0].message and not bad[0].unknown


def test_unknown_symbol_is_reported_not_crashed():
    w = sp.Symbol("w_undeclared")
    with pytest.raises(UnknownDimension):
        dimension(w + 1)
    f = check_relation(sp.Le(w, 1), "here")
    assert f and f[0].unknown


def test_planted_error_in_a_result_is_found():
    r = Result(id="toy:lem-9.1", title="toy", where="test",
               hypotheses=(asm(eta <= 1 / L),),
               statement=(Step("statement", 1 - eta * mu, Rel.GE, 0),
                          Step("part-2", eta * C, Rel.LE, D + C)))   # planted: D + C
    n_checked, findings = check_result(r)
    assert n_checked == 3
    assert [f.where for f in findings] == ["toy:lem-9.1/part-2"]

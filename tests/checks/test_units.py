"""checks.units: dimensions of encoded expressions; a planted error is caught."""
from __future__ import annotations

import pytest
import sympy as sp

from checks.units import (DIMLESS, DimensionError, UnknownDimension, check_relation,
                          check_result, dimension, render, using)
from theory.model import Result, Rel, Step, asm
from theory.papers.liang.symbols import TABLE as LIANG
from theory.papers.liang.symbols import C, D, L, T, alpha, b, beta, eta, mu, n, sigma_dp
from theory.quantities import DIMLESS as NODIM
from theory.quantities import THETA, table


@pytest.fixture(autouse=True)
def _liang_table():
    """These tests use the Liang symbols: look them up in that paper's table."""
    with using(LIANG):
        yield


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
    C**D,                          # exponent with a dimension
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
    n_checked, findings = check_result(r, LIANG)
    assert n_checked == 3
    assert [f.where for f in findings] == ["toy:lem-9.1/part-2"]


def test_symbolic_exponent_and_per_paper_tables():
    # a Hölder class needs Θ^(1+ν): a dimension exponent may be a SymPy expression
    tab = table("toy-holder")
    nu = tab.quantity("nu", NODIM, "smoothness exponent", positive=True)
    R = tab.quantity("R", THETA, "radius", positive=True)
    with using(tab):
        d = dimension(R**(1 + nu))
        assert d[0] == 1 + nu and d[1] == 0
        assert dimension(R**nu / R**nu) == DIMLESS
    # the same name means different things in different papers: not in this table
    with using(tab), pytest.raises(UnknownDimension):
        dimension(sp.Symbol("sigma_dp", positive=True))


def test_a_fixed_exponent_is_read_at_its_value_in_a_case_or_branch():
    """Θ^(1+α) is Θ where α = 0 is in force: a Piecewise branch under Eq(α, 0) and a step
    in a case α = 0 are read there (no false mismatch), a real one still reported."""
    import sympy as sp
    from checks import units
    from theory.quantities import DIMLESS, LOSS, THETA, table
    tb = table("fixtest")
    al = tb.quantity("al", DIMLESS, "exponent", nonnegative=True)
    L = tb.quantity("L", LOSS / THETA ** (1 + al), "Hölder constant", positive=True)
    M = tb.quantity("M", LOSS / THETA, "gradient at 0", positive=True)
    with units.using(tb):
        pw = sp.Piecewise((M + L, sp.Eq(al, 0)), (L ** (1 / (1 + al)) * M ** (al / (1 + al)), True))
        assert units.dimension(pw) is not None
        with pytest.raises(units.DimensionError):
            units.dimension(M + L)
        with units.fixing([(al, 0)]):
            assert units.dimension(units.at_fixed(M + L, [(al, 0)])) == (-1, 1)
        with pytest.raises(units.DimensionError):
            units.dimension(sp.Piecewise((M + L * M, sp.Eq(al, 0)), (M, True)))

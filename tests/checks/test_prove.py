"""checks.prove: true inequalities PROVED (with square roots, exp/log and case
hypotheses), false ones never PROVED, z3 models only as candidates."""
from __future__ import annotations

import pytest
import sympy as sp

from checks.claim import make_claim, step_claim
from checks.prove import prove, sympy_stage, z3_stage
from theory.papers.liang.symbols import C, L, T, alpha, b, beta, eta, mu, n, q, sigma_dp

x, y = sp.symbols("x y", positive=True)
r = sp.Symbol("r", real=True)

TRUE = [
    pytest.param(sp.sqrt(x + y), "<=", sp.sqrt(x) + sp.sqrt(y), [], id="sqrt-subadditive"),
    pytest.param(sp.sqrt(x * y), "<=", (x + y) / 2, [], id="am-gm"),
    pytest.param(alpha / (alpha - 1), ">", 1, [alpha > 1], id="alpha-gt-1"),
    pytest.param(1 - eta * mu, ">=", 0, [eta <= 1 / L, mu <= L], id="eta-mu-ordering"),
    pytest.param(sp.exp(x), ">=", 1 + x, [], id="exp-tangent"),
    pytest.param(sp.log(1 + x), "<=", x, [], id="log-tangent"),
    pytest.param(beta * (1 - beta), "<=", sp.Rational(1, 4), [beta < 1], id="beta-quadratic"),
    pytest.param(8 * alpha * C**2 / (beta * n**2 * sigma_dp**2), "<=",
                 2 * alpha * C**2 / (beta * n * b * sigma_dp**2), [b <= n / 5],
                 id="lemma-3.2-parts"),
    pytest.param(sp.Abs(r), ">=", r, [], id="abs"),
    pytest.param(sp.Max(x, y), ">=", (x + y) / 2, [], id="max"),
    pytest.param(x**sp.Rational(3, 2), "<=", x**2, [x >= 1], id="rational-power-case"),
    pytest.param((1 + eta * L)**T, "<=", sp.exp(eta * L * T), [], id="symbolic-power"),
    pytest.param((x - 1) * (x - 2), ">=", 0, [sp.Or(x <= 1, x >= 2)], id="case-hypothesis"),
]

FALSE = [
    pytest.param((x + y) / 2, "<=", sp.sqrt(x * y), [], id="reverse-am-gm"),
    pytest.param(x**2, "<=", x, [], id="square"),
    pytest.param(alpha / (alpha - 1), "<=", 2, [alpha > 1], id="alpha"),
    pytest.param(1 - eta * mu, ">=", sp.Rational(1, 2), [eta <= 1 / L, mu <= L], id="ordering"),
    pytest.param(sp.log(1 + x), ">=", x, [], id="log"),
    pytest.param(sp.sqrt(x + y), "=", sp.sqrt(x) + sp.sqrt(y), [], id="sqrt-eq"),
]


@pytest.mark.parametrize("lhs, rel, rhs, hyps", TRUE)
def test_true_inequalities_are_proved(lhs, rel, rhs, hyps):
    out = prove(step_claim(lhs, rel, rhs, hyps))
    assert out.status == "proved", out.detail
    assert out.method in ("sympy-simplify", "sympy-sign", "z3-nra")


@pytest.mark.parametrize("lhs, rel, rhs, hyps", FALSE)
def test_false_inequalities_are_not_proved(lhs, rel, rhs, hyps):
    out = prove(step_claim(lhs, rel, rhs, hyps))
    assert out.status in ("model", "unknown")


def test_identity_by_simplification():
    out = prove(step_claim((x + 1)**2, "=", x**2 + 2 * x + 1))
    assert out.status == "proved" and out.method == "sympy-simplify"


def test_dropping_a_hypothesis_changes_the_answer():
    with_h = prove(step_claim(alpha - 1, ">", 0, [alpha > 1]))
    without = prove(step_claim(alpha - 1, ">", 0, []))
    assert with_h.status == "proved"
    assert without.status != "proved"


def test_exact_model_satisfies_the_negation():
    out = z3_stage(step_claim(x**2, "<=", x))
    assert out.status == "model"
    val = sp.Rational(out.model["x"])
    assert val > 0 and val**2 > val


def test_definitions_are_substituted():
    K = sp.Symbol("K", positive=True)
    c = make_claim(sp.Le(K, 1 / (q * (alpha - 1))),
                   [sp.Eq(K, sp.log(1 + 1 / (q * (alpha - 1)))), alpha > 1])
    assert K not in c.conclusion.free_symbols
    assert prove(c).status == "proved"


def test_sympy_stage_uses_lower_bound_shift():
    out = sympy_stage(step_claim(alpha**2, ">", 1, [alpha > 1]))
    assert out is not None and out.status == "proved"


def test_input_validation():
    with pytest.raises(ValueError, match="rlimit must be > 0"):
        prove(step_claim(x, "<=", x + 1), rlimit=0)


def test_z3_work_on_a_claim_does_not_depend_on_what_was_checked_before(monkeypatch):
    """Issue 34: the verdict of a z3 call must depend on the claim and the rlimit alone.
    Each call runs in a z3 context of its own (z3 numbers terms in the order a context
    meets them, and its heuristics break ties by those numbers) with a strategy that has
    no clock or memory probe: the same claim counts the same rlimit units from zero,
    fresh or after other claims (in the shared context the count went on from what the
    process had checked before)."""
    import z3
    used: list[int] = []
    check = z3.Solver.check

    def counted(self, *args):
        res = check(self, *args)
        used.append(self.statistics().get_key_value("rlimit count"))
        return res

    monkeypatch.setattr(z3.Solver, "check", counted)
    claim = step_claim(8 * alpha * C**2 / (beta * n**2 * sigma_dp**2), "<=",
                       2 * alpha * C**2 / (beta * n * b * sigma_dp**2), [b <= n / 5])
    assert z3_stage(claim).status == "proved"
    fresh, used[:] = list(used), []
    for p in TRUE + FALSE:
        z3_stage(step_claim(p.values[0], p.values[1], p.values[2], p.values[3]))
    used.clear()
    assert z3_stage(claim).status == "proved"
    assert used == fresh and all(u > 0 for u in fresh)

"""The README's "A truth provider of your own" example, run as printed: the provider
answers (supports, truth) and the driver searches — a correct RDP bound of the Laplace
mechanism holds on scenarios, a bound missing the log term is VIOLATED with a witness
confirmed at 50 digits."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
import sympy as sp

from checks import plugins
from checks.statements import check_statement
from theory.mechanisms import Mechanism
from theory.model import Bound, asm

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Laplace(Mechanism):
    """M(D) = f(D) + Lap(b), |f(D) − f(D')| ≤ sensitivity."""

    sensitivity: sp.Expr
    b: sp.Expr


def _example_code() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    head = text.index("**A truth provider of your own**")
    return re.search(r"```python\n(.*?)```", text[head:], re.S).group(1)


@pytest.fixture
def laplace_provider():
    before = dict(plugins._PROVIDERS)
    ns = {"Laplace": Laplace}
    exec(compile(_example_code(), "README.md", "exec"), ns)       # noqa: S102 - our README
    yield ns["LaplaceRDP"]
    plugins._PROVIDERS.clear()
    plugins._PROVIDERS.update(before)


def test_the_readme_provider_answers_and_the_driver_searches(laplace_provider):
    D, b, a = sp.symbols("Delta b alpha", positive=True)
    mech = Laplace(sensitivity=D, b=b)
    r = D / b
    exact = sp.log(a / (2 * a - 1) * sp.exp((a - 1) * r)
                   + (a - 1) / (2 * a - 1) * sp.exp(-a * r)) / (a - 1)
    hyps = [asm(a > 1), asm(a <= 64), asm(r <= 10)]
    good = Bound("rdp", r, mech, order=a, hypotheses=hyps)           # D_α ≤ ε = Δ/b
    out = check_statement(good, budget=200, seed=0)
    assert out.tested and not out.violated, out.detail
    assert "laplace-rdp" in out.detail and out.ratio <= 1
    bad = Bound("rdp", exact / 2, mech, order=a, hypotheses=hyps)
    out = check_statement(bad, budget=200, seed=0)
    assert out.violated, out.detail
    w = out.witness
    assert float(w["truth_max"]) > float(w["bound"])
    assert "truth_lower_50_digits" in w and "bound_50_digits" in w

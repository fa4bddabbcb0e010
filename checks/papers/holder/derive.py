"""``dpcheck derive holder-rates``: the T and η choices of Theorems 9, 10, 12 re-derived in
SymPy — where the gradient complexity n^{(2−α)/(1+α)} (Theorems 10, 12) and
n^{(−α²−3α+6)/((1+α)(3+α))} (Theorem 9) cross the linear one, and the resulting rates."""
from __future__ import annotations

import sympy as sp

from checks.plugins import derive_command


@derive_command("holder-rates", help="the T choices of Theorems 9, 10, 12 of the Hölder "
                                     "DP-SGD paper: where each exponent crosses 1",
                papers=("holder",))
def holder_rates(args) -> str:
    a = sp.Symbol("alpha", nonnegative=True)
    e10 = (2 - a) / (1 + a)
    e9 = (-a ** 2 - 3 * a + 6) / ((1 + a) * (3 + a))
    c10 = sp.solve(sp.Eq(e10, 1), a)
    c9 = [r for r in sp.solve(sp.Eq(e9, 1), a) if r.is_nonnegative]
    lines = [
        f"Theorems 10, 12: T ≍ n^({e10}) vs n: exponent = 1 at alpha = {c10} "
        f"(printed threshold 1/2)",
        f"Theorem 9: T ≍ n^({sp.simplify(e9)}) vs n: exponent = 1 at alpha = {c9} "
        f"(printed threshold (sqrt(73) - 7)/4 = {sp.N((sp.sqrt(73) - 7) / 4, 8)})",
        f"gradient complexity at alpha = 0: n^{e10.subs(a, 0)} (Thm 10/12), "
        f"n^{e9.subs(a, 0)} (Thm 9); at alpha = 1: n^{e10.subs(a, 1)}, n^{e9.subs(a, 1)}",
    ]
    return "\n".join(lines)

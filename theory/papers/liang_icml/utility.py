"""``liang-icml`` — utility half: Section 3.2 (Assumptions 3.6, 3.8, Lemma 3.7,
Theorem 3.9, Corollaries 3.11, 3.12), Appendix A.3 (Lemmas A.13, A.14) and the proof of
Theorem 3.9 in Appendix C.1, eqs. (50)–(70).

The proof is encoded once for both versions in :mod:`theory.papers.liang.utility`
(see its docstring for the scalar stand-ins and the readings chosen); this module fixes
the ICML numbering and adds the ICML corollaries, which substitute σ_DP into the O(·)
bounds (20)–(23).  The ICML version has no C.2/C.3 derivations.
"""
from __future__ import annotations

import sympy as sp

from theory.papers.liang.numbering import ICML
from theory.papers.liang.utility import (assumption_results, build_theorem, lemma37,
                                         lemma_results, tradeoff_dc, tradeoff_gc)
from theory.papers.liang.symbols import C, D, L, T, alpha, b, d, epsilon, eta, n

_sqrt = sp.sqrt
_B1 = (1 + eta * L) ** 2 * D ** 2 / eta ** 2 + C ** 2 / (n * b)
_B2 = (1 + eta * L) ** 2 * D ** 2 / eta ** 2 + C ** 2 / n ** 2

RESULTS = [
    *assumption_results(ICML)[:1],
    lemma37(ICML),
    *assumption_results(ICML)[1:],
    build_theorem(ICML),
    tradeoff_gc("liang-icml:cor-3.11", "Section 3.2, Corollary 3.11, eqs. (20)–(21)", [
        ("part-1", alpha * C ** 2 * T / (epsilon * n * b),
         d * alpha * C * L * eta * T / (epsilon * n * b),
         _sqrt(d * alpha * L * eta * T) * C / _sqrt(epsilon * n * b), "Corollary 3.11, eq. (20)", False),
        ("part-2", alpha * C ** 2 * T / (epsilon * n ** 2),
         d * alpha * C * L * eta * T / (epsilon * n ** 2),
         _sqrt(d * alpha * L * eta * T) * C / (_sqrt(epsilon) * n), "Corollary 3.11, eq. (21)", True),
    ]),
    tradeoff_dc("liang-icml:cor-3.12", "Section 3.2, Corollary 3.12, eqs. (22)–(23)", [
        ("part-1", alpha / epsilon * _B1, d * alpha * eta * _sqrt(L) / (epsilon * C) * _B1,
         _sqrt(d * alpha * eta / epsilon * _B1), "Corollary 3.12, eq. (22)", False),
        ("part-2", alpha / epsilon * _B2, d * alpha * eta * _sqrt(L) / (epsilon * C) * _B2,
         _sqrt(d * alpha * eta / epsilon * _B2), "Corollary 3.12, eq. (23)", True),
    ]),
    *lemma_results(ICML),
]

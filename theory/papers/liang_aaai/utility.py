"""``liang-aaai`` — utility half: Section 3.2 (Assumptions 3.6, 3.9, Lemma 3.7,
Proposition 3.8, Theorem 3.10, Proposition 3.12), Appendix A.4 (Lemmas A.14, A.15), the
proof of Theorem 3.10 in C.1, eqs. (58)–(79), and the trade-off derivations of C.2
(Proposition C.1, eqs. (80)–(93)) and C.3 (Proposition C.3, eqs. (94)–(105)).

The C.1 proof is shared with the ICML version (:mod:`theory.papers.liang.utility`).
Here: the σ_DP substitutions of Propositions 3.8/3.12 and their full statements C.1/C.3
(printed terms against the substitution, O-constants 1) and the RDP → (ϵ, δ)-DP
conversion steps (82)→(83) and (96)→(97) term by term (α = 1 + 2log(1/δ)/ϵ, ε = ϵ/2,
ϵ ≤ 2log(1/δ), so α/ε ≤ 8log(1/δ)/ϵ²).  The minimisation over T and the choices of C
and η are re-derived by :func:`theory.papers.liang_aaai.tradeoff.derive_tradeoff`.

Reading: in C.3, (94)–(96) write the RDP level with the same glyph ϵ as the DP level;
it is read as the RDP ε there (as in (18)), and as the DP ϵ from (97) on.
"""
from __future__ import annotations

import sympy as sp

from theory.model import Chain, Result, Step, StepKind, asm
from theory.papers.liang.numbering import AAAI
from theory.papers.liang.utility import (assumption_results, build_theorem, eps_dp,
                                         lemma37, lemma_results, tradeoff_dc, tradeoff_gc)
from theory.papers.liang.symbols import C, D, L, T, alpha, b, d, delta, epsilon, eta, n

_sqrt = sp.sqrt
_lg = sp.log(1 / delta)
Tbar = (1 + eta * L) ** 2 * n * b * D ** 2 / (eta ** 2 * C ** 2)
Tbar_p = (1 + eta * L) ** 2 * n ** 2 * D ** 2 / (eta ** 2 * C ** 2)
_m, _mp = sp.Min(T, Tbar), sp.Min(T, Tbar_p)

_ROOT_C = ("the rendering's root may end before C (C a factor outside it), which is what "
           "σ_DP² ∝ C² gives")
_GC1 = ("part-1", alpha * C ** 2 * T / (epsilon * n * b),
        alpha * d * L * eta * C * T / (epsilon * n * b),
        _sqrt(alpha * d * L * eta * T * C) / _sqrt(epsilon * n * b))
_GC1_ALT = ("c-outside-root", _sqrt(alpha * d * L * eta * T) * C / _sqrt(epsilon * n * b), _ROOT_C)
_DC1 = ("part-1", alpha * C ** 2 / (epsilon * n * b) * _m,
        alpha * d * eta * C * _sqrt(L) / (epsilon * n * b) * _m,
        _sqrt(alpha * d * eta / (epsilon * n * b) * _m * C))
_DC1_ALT = ("c-outside-root", _sqrt(alpha * d * eta / (epsilon * n * b) * _m) * C, _ROOT_C)


def _conversion(label: str, eqs: str, pairs) -> Chain:
    """Term-by-term RDP → DP conversion: printed before ≤ k · printed after."""
    given = [asm(sp.Eq(alpha, 1 + 2 * _lg / eps_dp), "Lemma 2.4 (C.2): α = 1 + 2log(1/δ)/ϵ"),
             asm(sp.Eq(epsilon, eps_dp / 2), "Lemma 2.4 (C.2): ε = ϵ/2"),
             asm(eps_dp <= 2 * _lg, "C.2: ϵ ≤ 2log(1/δ)"), asm(delta < 1, "C.2: 0 < δ < 1"),
             asm(eps_dp > 0, "C.2: ϵ > 0")]
    steps = [Step(f"{label}-term-{i}", before, "<=", k * after, kind=StepKind.SCALAR, eq=eqs,
                  given=given, because=f"α/ε ≤ 8log(1/δ)/ϵ²; O-constant {k}", note=note,
                  readings=tuple((nm, b_, "<=", k * a_, why) for nm, b_, a_, why in alt))
             for i, (before, after, k, note, *alt) in enumerate(pairs, 1)]
    return Chain(label, steps, links=False, note=f"conversion {eqs}")


_prop_c1 = tradeoff_gc("liang-aaai:prop-c.1", "Appendix C.2, Proposition C.1, eqs. (80)–(81)", [
    (*_GC1, "Proposition C.1 (i), eq. (80)", False, _GC1_ALT),
    ("part-2", alpha * C ** 2 * T / (epsilon * n ** 2),
     alpha * d * L * eta * C * T / (epsilon * n ** 2),
     _sqrt(alpha * d * L * eta * T * C) / _sqrt(epsilon * n), "Proposition C.1 (ii), eq. (81)", True,
     ("c-and-n-outside-root", _sqrt(alpha * d * L * eta * T / epsilon) * C / n,
      "the rendering's roots may end before C and before n (√(εn) read √ε·n), which is what "
      "σ_DP² ∝ C²/n² gives")),
])
_prop_c1 = Result(
    id=_prop_c1.id, title=_prop_c1.title + " (full statement of Proposition 3.8) and its conversion",
    where=_prop_c1.where + "; conversion (82)→(83)", hypotheses=_prop_c1.hypotheses,
    proof=_prop_c1.proof + (_conversion("eq-83", "83", [
        (alpha * d * L * eta * C * T / (epsilon * n ** 2),
         d * L * eta * C * T * _lg / (eps_dp ** 2 * n ** 2), 8, "fifth term"),
        (_sqrt(alpha * d * L * eta * T * C) / _sqrt(epsilon * n),
         _sqrt(d * L * eta * T * _lg * C) / (eps_dp * n), _sqrt(8), "sixth term, as printed in (82)/(83)",
         ("root-over-epsilon-only", _sqrt(alpha * d * L * eta * T * C / epsilon) / n,
          _sqrt(d * L * eta * T * _lg * C) / (eps_dp * n),
          "(82)'s √(εn) may be √ε·n: n outside the root, as σ_DP² ∝ 1/n² gives and as (83) "
          "prints it")),
    ]),), note=_prop_c1.note)

_prop_c3 = tradeoff_dc("liang-aaai:prop-c.3", "Appendix C.3, Proposition C.3, eqs. (94)–(95)", [
    (*_DC1, "Proposition C.3 (i), eq. (94)", False, _DC1_ALT),
    ("part-2", alpha * C ** 2 / (epsilon * n ** 2) * _mp,
     alpha * d * eta * C * _sqrt(L) / (epsilon * n ** 2) * _mp,
     _sqrt(alpha * d * eta / epsilon * _mp * C / n), "Proposition C.3 (ii), eq. (95)", True,
     ("c-over-n-outside-root", _sqrt(alpha * d * eta / epsilon * _mp) * C / n,
      "the rendering's root may end before C/n, which is what σ_DP² ∝ C²/n² gives")),
])
_prop_c3 = Result(
    id=_prop_c3.id, title=_prop_c3.title + " (full statement of Proposition 3.12) and its conversion",
    where=_prop_c3.where + "; conversion and squaring (96)→(97)", hypotheses=_prop_c3.hypotheses,
    proof=_prop_c3.proof + (_conversion("eq-97", "97", [
        ((alpha * d * eta * C * _sqrt(L) / (epsilon * n ** 2) * _mp) ** 2,
         d ** 2 * L * eta ** 2 * C ** 2 * _lg ** 2 / (eps_dp ** 4 * n ** 4) * sp.Min(T ** 2, Tbar_p ** 2), 64,
         "fifth term squared"),
        ((_sqrt(alpha * d * eta / epsilon * _mp * C / n)) ** 2,
         d * eta * _lg * C ** 2 / (eps_dp ** 2 * n ** 2) * _mp, 8, "sixth term squared, as printed",
         ("c-over-n-outside-root", (_sqrt(alpha * d * eta / epsilon * _mp) * C / n) ** 2,
          d * eta * _lg * C ** 2 / (eps_dp ** 2 * n ** 2) * _mp,
          "(96)'s root may end before C/n, as σ_DP² ∝ C²/n² gives and as (97)'s C²/n² "
          "squares it")),
    ]),), note=_prop_c3.note)

RESULTS = [
    *assumption_results(AAAI)[:1],
    lemma37(AAAI),
    tradeoff_gc("liang-aaai:prop-3.8", "Section 3.2, Proposition 3.8, eq. (15)",
                [(*_GC1, "Proposition 3.8, eq. (15)", False, _GC1_ALT)]),
    *assumption_results(AAAI)[1:],
    build_theorem(AAAI),
    tradeoff_dc("liang-aaai:prop-3.12", "Section 3.2, Proposition 3.12, eq. (18)",
                [(*_DC1, "Proposition 3.12, eq. (18)", False, _DC1_ALT)]),
    *lemma_results(AAAI),
    _prop_c1,
    _prop_c3,
]

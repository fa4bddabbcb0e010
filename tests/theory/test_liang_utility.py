"""Structure of the utility encodings of liang-icml / liang-aaai (theory.papers.*.utility)."""
from __future__ import annotations

import pytest

from theory import registry
from theory.model import CaseSplit, StepKind, walk_steps
from theory.papers.liang_aaai import utility as aaai
from theory.papers.liang_icml import utility as icml
from theory.papers.liang.symbols import info

THM = {"liang-icml": "liang-icml:thm-3.9", "liang-aaai": "liang-aaai:thm-3.10"}


def _thm(mod, key):
    return next(r for r in mod.RESULTS if r.id == THM[key])


def test_ids_and_registry():
    ids_i = {r.id for r in icml.RESULTS}
    ids_a = {r.id for r in aaai.RESULTS}
    assert {"liang-icml:asm-3.6", "liang-icml:lem-3.7", "liang-icml:asm-3.8", "liang-icml:thm-3.9",
            "liang-icml:cor-3.11", "liang-icml:cor-3.12", "liang-icml:lem-a.13", "liang-icml:lem-a.14"} <= ids_i
    assert {"liang-aaai:asm-3.6", "liang-aaai:lem-3.7", "liang-aaai:prop-3.8", "liang-aaai:asm-3.9",
            "liang-aaai:thm-3.10", "liang-aaai:prop-3.12", "liang-aaai:lem-a.14", "liang-aaai:lem-a.15",
            "liang-aaai:prop-c.1", "liang-aaai:prop-c.3"} <= ids_a
    registered = {r.id for r in registry.all_results()}
    assert ids_i <= registered and ids_a <= registered


@pytest.mark.parametrize("mod,key,lo,hi", [(icml, "liang-icml", 50, 70), (aaai, "liang-aaai", 58, 79)])
def test_every_printed_equation_is_encoded(mod, key, lo, hi):
    eqs = {loc.step.eq for loc in walk_steps(_thm(mod, key)) if loc.step.eq}
    expected = {str(k) for k in range(lo, hi + 1)}
    assert expected <= eqs, sorted(expected - eqs)


def test_both_versions_have_the_same_proof_shape():
    a = [loc.id.split("/", 1)[1] for loc in walk_steps(_thm(icml, "liang-icml"))]
    b = [loc.id.split("/", 1)[1] for loc in walk_steps(_thm(aaai, "liang-aaai"))]
    assert len(a) == len(b) >= 70
    cases = lambda ids: sorted({x.rsplit("/", 1)[0] for x in ids})  # noqa: E731
    assert cases(a) == cases(b)


def test_case_split_and_hypotheses_in_force():
    thm = _thm(icml, "liang-icml")
    locs = {loc.id: loc for loc in walk_steps(thm)}
    # the reuse of (55) in case (2.1) carries case (2.1)'s hypotheses, not case (1.1)'s
    reuse = locs["liang-icml:thm-3.9/case-2/case-2.1/eq-55-line-2"]
    conds = {str(h.expr) for h in reuse.hypotheses if h.expr is not None}
    assert "grad_norm > C/2" in conds
    assert not any("35" in c for c in conds)
    split = next(p for p in thm.proof if isinstance(p, CaseSplit))
    assert [c.label for c in split.cases] == ["case-1", "case-2"]
    assert any(loc.step.oracle == "dpsgd-dc-instance" for loc in locs.values())


@pytest.mark.parametrize("mod", [icml, aaai])
def test_every_free_symbol_has_a_dimension(mod):
    for r in mod.RESULTS:
        exprs = [h.expr for h in r.hypotheses if h.expr is not None]
        for loc in walk_steps(r):
            exprs += [loc.step.lhs, loc.step.rhs] + [h.expr for h in loc.hypotheses if h.expr is not None]
        for e in exprs:
            for s in e.free_symbols:
                info(s)   # raises KeyError for an undeclared quantity


def test_probabilistic_steps_name_an_oracle():
    for mod in (icml, aaai):
        for r in mod.RESULTS:
            for loc in walk_steps(r):
                if loc.step.kind is StepKind.PROBABILISTIC:
                    # an oracle, or a typed statement (Rate/Bound) of the same label decides it
                    typed = {st.label for st in (*r.rates, *r.bounds)}
                    assert loc.step.oracle or loc.step.label in typed, loc.id


def test_typos_kept_as_printed():
    locs = {loc.id: loc for loc in walk_steps(_thm(icml, "liang-icml"))}
    # (63): Markov printed as 4σ²/C
    s63 = locs["liang-icml:thm-3.9/case-2/case-2.2/eq-63-line-2"].step
    assert str(s63.rhs) == "4*sigma_sgd**2/C"
    # (60): first line without d
    s60 = locs["liang-icml:thm-3.9/case-2/case-2.1/eq-60"].step
    assert "d*" not in str(s60.rhs)


def test_engine_gives_every_algebra_step_a_verdict():
    """Every ALGEBRA/SCALAR step of the ICML utility theorem is PROVED, SUPPORTED or
    REFUTED by the engine (never UNCHECKED); the known errors of the paper are REFUTED."""
    from checks import engine
    from checks.verdict import Verdict

    thm = _thm(icml, "liang-icml")
    rep = engine.check_result(thm, budget=60, seed=0)
    kinds = {loc.id: loc.step.kind for loc in walk_steps(thm)}
    by_id = {s.id: s for s in rep.steps}
    for sid, kind in kinds.items():
        if kind in (StepKind.ALGEBRA, StepKind.SCALAR):
            assert by_id[sid].verdict is not Verdict.UNCHECKED, (sid, by_id[sid].detail)
    refuted = {s.id.split(":", 1)[1] for s in rep.steps if s.verdict is Verdict.REFUTED}
    assert "thm-3.9/case-2/case-2.1/eq-55-line-2" in refuted     # (55) reused outside its case
    assert "thm-3.9/case-2/case-2.1/eq-60" in refuted             # d dropped
    assert "thm-3.9/case-2/case-2.2/eq-64-line-5" in refuted      # Jensen on the wrong expectation


@pytest.mark.parametrize("rid", ["liang-aaai:prop-c.1", "liang-aaai:prop-c.3"])
def test_part_2_witnesses_meet_the_part_2_conditions(rid):
    """Propositions C.1/C.3 part (ii) assume b ≤ n/5 and σ_DP > 8C/(b√β), β ∈ (0, 1): the
    witness of a refuted part-(ii) substitution row must meet them (they were predicates,
    and the witness took n = 1, which no batch size b ≥ 1 allows)."""
    import sympy as sp

    from checks import engine
    from checks.verdict import Verdict

    res = registry.get(rid)
    rep = engine.check_result(res, budget=2000, seed=0)
    row = next(s for s in rep.steps if s.id.endswith("part-2-term-6"))
    assert row.verdict is Verdict.REFUTED
    w = {k: sp.sympify(str(v).split(" ≈ ")[0]) for k, v in row.counterexample.items()}
    assert 1 <= w["b"] <= w["n"] / 5
    assert 0 < w["beta"] < 1
    assert w["sigma_dp"] > 8 * w["C"] / (w["b"] * sp.sqrt(w["beta"]))

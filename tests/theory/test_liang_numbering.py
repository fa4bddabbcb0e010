"""The numbering table of Liang et al. (theory.papers.liang.numbering): one table, keyed by
what an item is, gives its number in both versions; the builders take every shared number
from it."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from theory import registry
from theory.model import walk_steps
from theory.papers.liang import numbering as nb
from theory.papers.liang.numbering import AAAI, ICML

PAPERS = Path(nb.__file__).resolve().parents[1]


def test_both_versions_number_the_same_items():
    assert set(nb.IDS_ICML) == set(nb.IDS_AAAI)
    # the one line ICML prints without a number: case (1.2) of C.1
    assert set(nb.EQS_AAAI) - set(nb.EQS_ICML) == {"bound-1.2"}
    assert set(nb.EQS_ICML) <= set(nb.EQS_AAAI)
    assert not ICML.numbered("bound-1.2") and AAAI.eq("bound-1.2") == "66"


@pytest.mark.parametrize("v", [ICML, AAAI], ids=lambda v: v.paper)
def test_numbers_are_unique_and_ids_are_results(v):
    eqs = list(v.eqs.values())
    assert len(eqs) == len(set(eqs)), sorted(e for e in eqs if eqs.count(e) > 1)
    registered = {r.id for r in registry.all_results()}
    missing = sorted(v.rid(role) for role in v.ids if v.rid(role) not in registered)
    assert not missing
    assert set(v.notes) <= set(v.eqs) | set(v.ids)


def test_names_as_the_text_cites_them():
    assert ICML.name("smoothness-facts") == "Lemma A.13" and AAAI.name("smoothness-facts") == "Lemma A.14"
    assert ICML.name("dc-utility") == "Theorem 3.9" and AAAI.number("dc-utility") == "3.10"
    assert ICML.number("strong-convexity") == "3.8" and AAAI.number("strong-convexity") == "3.9"
    assert (ICML.eq("step-expansion-C"), AAAI.eq("step-expansion-C")) == ("50", "58")


def test_a_malformed_row_is_refused():
    with pytest.raises(ValueError, match="cannot read"):
        nb._columns("markov | lem-a.1 25 | lem-a.2 (22)")
    with pytest.raises(ValueError, match="malformed or repeated"):
        nb._columns("markov | lem-a.1 (25)")
    with pytest.raises(ValueError, match="malformed or repeated"):
        nb._columns("markov | (25) | (22)\nmarkov | (26) | (23)")


#: the rows of C.1; the update rule (ICML (49), AAAI (56)) is only cited, not a proof line
_C1_ROLES = [line.split("|")[0].strip() for line in nb.TABLE.split("App. C.1", 1)[1].splitlines()
             if "|" in line.split("#", 1)[0] and "dc-update" not in line]


@pytest.mark.parametrize("key,v,thm", [("liang-icml", ICML, "thm-3.9"), ("liang-aaai", AAAI, "thm-3.10")])
def test_the_proof_prints_the_version_numbers(key, v, thm):
    """Every numbered line of C.1 carries a number of this version's C.1 rows, and the
    two versions' proofs pair line by line through the table."""
    c1 = {v.eq(role) for role in v.eqs if role in _C1_ROLES}
    res = registry.get(f"{key}:{thm}")
    printed = {loc.step.eq for loc in walk_steps(res) if loc.step.eq}
    assert printed == c1


def test_the_c1_proofs_pair_line_by_line():
    to_aaai = {ICML.eq(r): AAAI.eq(r) for r in ICML.eqs}
    a = list(walk_steps(registry.get("liang-icml:thm-3.9")))
    b = list(walk_steps(registry.get("liang-aaai:thm-3.10")))
    assert len(a) == len(b)
    for la, lb in zip(a, b):
        if la.step.eq is None:
            assert lb.step.eq in (None, AAAI.eq("bound-1.2")), lb.id
        else:
            assert lb.step.eq == to_aaai[la.step.eq], (la.id, lb.id)


def test_one_relation_style_in_every_paper_package():
    """Paper packages write relations as strings ("<="), never theory.model.Rel."""
    offenders = []
    for path in sorted(PAPERS.rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and any(a.name == "Rel" for a in node.names):
                offenders.append(f"{path.relative_to(PAPERS)}:{node.lineno} imports Rel")
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id == "Rel":
                offenders.append(f"{path.relative_to(PAPERS)}:{node.lineno} Rel.{node.attr}")
    assert not offenders, offenders

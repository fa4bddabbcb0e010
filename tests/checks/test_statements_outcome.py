"""What a statement check found (:class:`checks.statements.outcome.Outcome`): a bare outcome
is a tested, unviolated finding with nothing measured, each outcome owns its paths, and the
driver hands out copies — a caller editing one outcome never edits another's."""
from __future__ import annotations

from dataclasses import dataclass, replace

import sympy as sp

from checks.statements.driver import _AS, _relabel
from checks.statements.outcome import Outcome
from theory.mechanisms import Mechanism
from theory.model import Bound, asm


def test_a_bare_outcome_is_tested_and_not_violated_with_nothing_measured():
    o = Outcome("b")
    assert (o.label, o.violated, o.tested, o.ratio, o.witness, o.detail, o.samples, o.paths) \
        == ("b", False, True, None, None, "", 0, {})


def test_each_outcome_owns_its_paths():
    one, two = Outcome("a"), Outcome("b")
    one.paths["T → ∞"] = (1.0, 2.0)
    assert two.paths == {} and Outcome("c").paths == {}


def test_equal_findings_compare_equal_and_replace_changes_one_field():
    o = Outcome("b", violated=True, ratio=2.0, witness={"a": "1"}, detail="d", samples=3)
    assert o == Outcome("b", violated=True, ratio=2.0, witness={"a": "1"}, detail="d",
                        samples=3)
    p = replace(o, label="c")
    assert p.label == "c" and p.ratio == 2.0 and p != o


def test_a_relabelled_outcome_shares_nothing_with_the_remembered_one():
    memo = Outcome(_AS, ratio=1.5, witness={"statement": f"{_AS} here"},
                   detail=f"bound {_AS}: holds", paths={"x": (1.0, 1.5)})
    out = _relabel(memo, "mine")
    assert (out.label, out.detail, out.witness) == ("mine", "bound mine: holds",
                                                    {"statement": "mine here"})
    out.witness["extra"] = "1"
    out.paths["y"] = (0.0, 0.0)
    assert memo.witness == {"statement": f"{_AS} here"} and memo.paths == {"x": (1.0, 1.5)}


@dataclass(frozen=True)
class Toy(Mechanism):
    a: sp.Expr


def test_the_driver_reports_a_named_predicate_as_a_not_tested_outcome():
    from checks.statements import check_statement
    a = sp.Symbol("a", positive=True)
    out = check_statement(Bound("b", a, Toy(a), order=2,
                                hypotheses=[asm("the loss is nice")]), budget=10, seed=0)
    assert isinstance(out, Outcome)
    assert (out.label, out.tested, out.violated, out.ratio, out.samples) == \
        ("b", False, False, None, 0)
    assert "hypothesis 'the loss is nice' is a named predicate" in out.detail

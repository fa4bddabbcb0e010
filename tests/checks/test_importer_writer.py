"""A draft as a paper module (:mod:`checks.importer.writer`): expressions printed as Python
that rebuilds them exactly, and a module that runs as written — every printed result with
its steps, chains and hypotheses, each side that did not parse a named stand-in marked
``TODO(unparsed)``, its LaTeX quoted."""
from __future__ import annotations

import importlib.util
import sys

import pytest
import sympy as sp

from checks.importer import todo_markers
from checks.importer.document import Begin, Display, Document, End, Text
from checks.importer.draft import build
from checks.importer.latex import Row
from checks.importer.writer import pyexpr, write
from theory.model import Chain, Result

x, y = sp.symbols("x y", positive=True)


@pytest.mark.parametrize("expr", [
    sp.Rational(3, 7) * x + sp.Rational(1, 2),
    sp.sqrt(x + 1) + 1 / sp.sqrt(y),
    x ** sp.Rational(2, 3) - y ** -2,
    sp.exp(x) * sp.log(y) + sp.E + sp.pi,
    sp.Max(x, y) - sp.Min(x, 1) + sp.Abs(x - y),
    sp.Float("0.125") * x,
    sp.oo,
    -sp.oo,
])
def test_pyexpr_rebuilds_the_expression_exactly(expr):
    text = pyexpr(expr)
    assert eval(text, {"sp": sp, "x": x, "y": y}) == expr, text      # noqa: S307 - our text


@pytest.mark.parametrize("rel, text", [
    (x <= y, "x <= y"), (sp.Lt(x, 2 * y), "x < 2*y"), (sp.Ge(x, 1), "x >= 1"),
    (sp.Eq(x, y + 1), "sp.Eq(x, 1 + y)"),
])
def test_pyexpr_of_relations(rel, text):
    assert pyexpr(rel) == text


def D(*rows):
    return Display([Row(*r) if isinstance(r, tuple) else Row(r) for r in rows])


def _draft():
    doc = Document([
        Begin("lemma", "1", "Square"), Text("For all $u > 0$ and $v > 0$,"),
        D(("(u+v)^2 \\le 2u^2 + 2v^2", "1")), End("lemma"),
        Begin("proof", None, "Proof", of="lem-1"),
        D(("(u+v)^2 &= u^2 + 2uv + v^2", None), ("&\\le 2u^2 + 2v^2", "2")),
        D(("\\frac{1} \\le 1", "3")), End("proof"),
        Begin("theorem", "2", 'A "quoted" title'), Text("Plain."), End("theorem"),
    ], "src/my paper.tex", "A tiny paper", "latex", [("lemma", "1"), ("theorem", "2")])
    return build(doc, "tiny")


def _load(tmp_path, text):
    f = tmp_path / "tiny_draft.py"
    f.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("tiny_draft_under_test", f)
    mod = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(mod)
    finally:
        sys.modules.pop("tiny_draft_under_test", None)
    return f, mod


def test_the_module_runs_as_written_and_holds_every_result(tmp_path):
    text = write(_draft())
    f, mod = _load(tmp_path, text)
    assert [r.id for r in mod.RESULTS] == ["tiny:lem-1", "tiny:thm-2"]
    assert all(isinstance(r, Result) for r in mod.RESULTS)
    lem, thm = mod.RESULTS
    assert (lem.title, lem.where) == ("Square", "Lemma 1")
    assert [str(h.expr) for h in lem.hypotheses] == ["u > 0", "v > 0"]
    (st,) = lem.statement
    assert (st.label, st.rel, st.eq) == ("statement", "<=", "1")
    assert sp.expand(st.lhs - (mod.u + mod.v) ** 2) == 0
    chain, unparsed = lem.proof
    assert isinstance(chain, Chain) and chain.label == "eq-2"
    assert [s.label for s in chain.steps] == ["eq-2.1", "eq-2.2"]
    assert chain.concludes == "statement"
    assert unparsed.label == "eq-3" and "not checked: left side did not parse" in unparsed.note
    assert thm.title == 'A "quoted" title' and thm.statement == ()
    assert mod.PAPER.key == "tiny"


def test_every_place_a_person_is_needed_is_a_todo(tmp_path):
    text = write(_draft())
    f, _ = _load(tmp_path, text)
    tags = [tag for _, tag, _ in todo_markers(f)]
    assert tags.count("unparsed") == 2          # the stand-in's declaration and its row
    assert "dimension" in tags
    assert "unparsed_1 = SYMBOLS.quantity('unparsed_1', DIMLESS, 'did not parse: \\\\frac{1}')" \
        in text
    # the printed statement is quoted under its result
    assert 'r"""Lemma 1 (Square), as printed:' in text
    assert "(u+v)^2 \\le 2u^2 + 2v^2" in text
    # the module's docstring counts what was imported
    assert "Imported: 2 results, 4 display relations, 3 parsed into SymPy (3 algebra" in text

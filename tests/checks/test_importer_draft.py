"""From printed results to a draft (:func:`checks.importer.draft.build`): ids from the key,
kind and number (a repeated one made unique), statement parts, a proof display's aligned
relations as one chain that concludes the statement part it proves, inline conditions and
``:=`` definitions as hypotheses, and every display that is not a scalar relation kept as an
UNPARSED row with its reason — all counted."""
from __future__ import annotations

from checks.importer.document import Begin, Display, Document, End, Text
from checks.importer.draft import build
from checks.importer.latex import Row


def D(*rows):
    """A display of rows given as (latex, number) or latex."""
    return Display([Row(*r) if isinstance(r, tuple) else Row(r) for r in rows])


def _build(*blocks, printed=()):
    return build(Document(list(blocks), "src.tex", "A title", "latex", list(printed)), "k")


def _names(res):
    return [h.expr for h in res.hypotheses]


def test_ids_statement_parts_and_a_concluding_chain():
    d = _build(
        Begin("lemma", "1", "Square"), Text("For any $a$ and $b$,"),
        D(("(a+b)^2 \\le 2a^2 + 2b^2", "1")), End("lemma"),
        Begin("proof", None, "Proof", of="lem-1"),
        D(("(a+b)^2 &= a^2 + 2ab + b^2", None), ("&\\le 2a^2 + 2b^2", "2")), End("proof"),
        Begin("theorem", "2"), D(("x \\le 1", "3"), ("y \\ge 0", "4")), End("theorem"),
        printed=[("lemma", "1"), ("theorem", "2")])
    lem, thm = d.results
    assert (lem.id, lem.title, lem.where, lem.env, lem.number) == \
        ("k:lem-1", "Square", "Lemma 1", "Lemma", "1")
    (st,) = lem.statement
    assert (st.label, st.kind, st.eq, st.rel) == ("statement", "ALGEBRA", "1", "<=")
    assert (str(st.lhs.expr), str(st.rhs.expr)) == ("(a + b)**2", "2*a**2 + 2*b**2")
    (chain,) = lem.proof
    # the display's one number numbers both relations; the chain is named by it
    assert chain.label == "eq-2" and [s.label for s in chain.steps] == ["eq-2.1", "eq-2.2"]
    assert [s.rel for s in chain.steps] == ["=", "<="]
    assert chain.concludes == "statement"                 # = then ≤ gives the part's ≤
    assert lem.proof_titles == ["Proof"]
    assert [s.label for s in thm.statement] == ["part-1", "part-2"]
    assert [s.eq for s in thm.statement] == ["3", "4"]
    assert (d.key, d.title, d.source, d.fmt) == ("k", "A title", "src.tex", "latex")
    s = d.stats
    assert (s.results, s.printed, s.displays, s.relations, s.parsed, s.algebra, s.unparsed) \
        == (2, 2, 3, 5, 5, 5, 0)


def test_a_repeated_number_gets_a_unique_id_and_loose_displays_are_results():
    d = _build(Begin("lemma", "1"), End("lemma"), Begin("lemma", "1"), End("lemma"),
               Begin("lemma", "1"), End("lemma"), D(("z \\ge 0", "9")))
    assert [r.id for r in d.results] == ["k:lem-1", "k:lem-1.x2", "k:lem-1.x3", "k:eq-9"]
    assert d.stats.results == 3                           # loose displays are not counted
    (st,) = d.results[-1].statement
    assert (st.label, st.kind, str(st.lhs.expr), st.rel) == ("statement", "ALGEBRA", "z", ">=")


def test_inline_conditions_become_hypotheses():
    d = _build(Begin("lemma", "1"),
               Text("Let $\\alpha > 1$ and $q \\in (0, 1]$; for all $a, b \\ge 0$ we have"),
               Text("We see $x > 2$ here, and $0 < t < 1$ is fixed."),
               D(("a \\le a + b", "1")), End("lemma"))
    (lem,) = d.results
    got = {str(h) for h in _names(lem)}
    # "we see $x > 2$" is no condition; "0 < t < 1" follows a comma
    assert got == {"alpha > 1", "q > 0", "q <= 1", "a >= 0", "b >= 0", "0 < t", "t < 1"}
    assert all(h.where == "Lemma 1, text" for h in lem.hypotheses)
    assert d.stats.hypotheses == 7


def test_definitions_and_choices_of_a_parameter_are_hypotheses():
    d = _build(Begin("theorem", "1"), D(("\\eta = 1/L", "1"), ("f \\le \\eta L", "2")),
               End("theorem"),
               Begin("proof", None, "Proof"), D(("c := a + b", "3")), End("proof"))
    (thm,) = d.results
    hyps = {(str(h.expr), h.where) for h in thm.hypotheses}
    # (the second row is an equation of its own, not the rest of 1/L)
    assert hyps == {("Eq(eta, 1/L)", "Theorem 1, (1)"), ("Eq(c, a + b)", "Theorem 1, (3)")}
    assert [(str(s.lhs.expr), s.rel, str(s.rhs.expr)) for s in thm.statement] == \
        [("eta", "=", "1/L"), ("f", "<=", "L*eta")]
    assert thm.proof[0].definition


def test_what_is_not_a_scalar_relation_stays_unparsed_with_its_reason():
    d = _build(Begin("lemma", "1"), End("lemma"),
               Begin("proof", None, "Proof"),
               D(("A \\subseteq B", None)), D(("a + b", "5")), D(("\\frac{1} \\le 1", "6")),
               End("proof"))
    (lem,) = d.results
    got = [(s.label, s.kind, s.reason.split(":")[0]) for s in lem.proof]
    assert got == [("line-1", "UNPARSED", "the relation \\subseteq is not a scalar relation"),
                   ("eq-5", "UNPARSED", "a display with no relation sign"),
                   ("eq-6", "UNPARSED", "left side did not parse")]
    s = d.stats
    assert (s.relations, s.parsed, s.unparsed) == (3, 0, 3)
    assert [f[0] for f in s.failures] == ["k:lem-1/line-1", "k:lem-1/eq-5", "k:lem-1/eq-6"]

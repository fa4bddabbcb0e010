"""From a reader's blocks to the printed results (:func:`checks.importer.structure.results`):
environments read to their end where the source marks it, otherwise a statement that stops
at the first new sentence after its display (a "where …" paragraph continues it), proofs
attached to the result they name (else the one before) and ended by ∎ or the next result,
displays outside every result kept as results of their own."""
from __future__ import annotations

from checks.importer.document import Begin, Display, Document, End, Heading, Text
from checks.importer.latex import Row
from checks.importer.structure import results


def _doc(*blocks):
    return Document(list(blocks), "test")


def D(latex, number=None):
    return Display([Row(latex, number)])


def _texts(blocks):
    return [b.text if isinstance(b, Text) else "$$" + b.latex for b in blocks]


def test_explicit_environments_read_to_their_end():
    out = results(_doc(
        Heading("2 Main results"),
        Begin("lemma", "2.1", "Sum"), Text("For $x>0$,"), D("x+x=2x", "4"),
        Text("Another sentence inside."), End("lemma"),
        Begin("theorem", "3"), Text("Hello."), End("theorem"),
    ))
    assert [(r.key, r.title, r.where, r.env) for r in out] == [
        ("lem-2.1", "Sum", "2 Main results, Lemma 2.1", "Lemma"),
        ("thm-3", "", "2 Main results, Theorem 3", "Theorem")]
    assert _texts(out[0].blocks) == ["For $x>0$,", "$$x+x=2x", "Another sentence inside."]


def test_numbers_are_normalised_and_a_missing_number_is_made_up():
    out = results(_doc(Begin("Lemma*", "A.2."), End("Lemma*"), Begin("remark", None), End("remark"),
                       Begin("unknownword", "7"), End("unknownword")))
    assert [r.key for r in out] == ["lem-a.2", "rem-u2", "rem-7"]


def test_a_text_rendering_statement_stops_at_a_new_sentence_after_its_display():
    out = results(_doc(
        Begin("lemma", "1", explicit=False), Text("Let $a>0$. Then"), D("a^2 > 0", "1"),
        Text("where $a$ is real."),                     # continues the statement
        Text("We now turn to the proof of the main theorem."),   # a new sentence: ends it
        D("b = c", "2"),                                 # a display outside every result
    ))
    lem, eq = out
    assert lem.key == "lem-1"
    assert _texts(lem.blocks) == ["Let $a>0$. Then", "$$a^2 > 0", "where $a$ is real."]
    assert (eq.kind, eq.number, eq.env, eq.where) == ("eq", "2", "Equation", "eq. (2)")


def test_a_text_rendering_statement_without_display_stops_after_two_paragraphs():
    out = results(_doc(Begin("lemma", "1", explicit=False), Text("First."), Text("Second."),
                       Text("Third, a new one.")))
    assert _texts(out[0].blocks) == ["First.", "Second."]


def test_an_introducing_paragraph_before_another_display_continues_the_statement():
    out = results(_doc(Begin("theorem", "1", explicit=False), D("a = b", "1"),
                       Text("Moreover we have:"), D("c = d", "2"), Text("Next section.")))
    assert _texts(out[0].blocks) == ["$$a = b", "Moreover we have:", "$$c = d"]


def test_proofs_attach_to_the_result_they_name_or_to_the_one_before():
    out = results(_doc(
        Begin("lemma", "1"), End("lemma"),
        Begin("theorem", "2"), End("theorem"),
        Begin("proof", None, "Proof of Lemma 1", of="lem-1"), Text("By algebra."),
        D("x = x", "5"), End("proof"),
        Begin("proof", None, "Proof"), Text("Obvious."), End("proof"),
    ))
    lem, thm = out
    assert [p.title for p in lem.proofs] == ["Proof of Lemma 1"]
    assert _texts(lem.proofs[0].blocks) == ["By algebra.", "$$x = x"]
    assert [p.title for p in thm.proofs] == ["Proof"]


def test_an_unmarked_proof_ends_at_the_tombstone():
    out = results(_doc(
        Begin("lemma", "1", explicit=False), Text("Claim."),
        Begin("proof", None, "Proof", explicit=False), Text("Easy."), D("a=a"),
        Text("Done. ∎"), Text("Unrelated prose."), D("z = 1", "9"),
    ))
    lem, eq = out
    assert _texts(lem.proofs[0].blocks) == ["Easy.", "$$a=a", "Done. ∎"]
    assert eq.key == "eq-9"


def test_a_proof_before_any_result_gets_a_result_of_its_own():
    out = results(_doc(Heading("Appendix"), Begin("proof", None, "Proof"), Text("x."),
                       End("proof")))
    (only,) = out
    assert (only.kind, only.env, only.where) == ("eq", "Proof", "Appendix")
    assert _texts(only.proofs[0].blocks) == ["x."]


def test_loose_displays_keep_their_number_or_get_one():
    out = results(_doc(Heading("Intro"), D("a=b", "3.1"), D("c=d"), D("e=f", "A.4")))
    assert [(r.key, r.where) for r in out] == [("eq-3.1", "Intro, eq. (3.1)"),
                                               ("eq-u2", "Intro, display at line 0"),
                                               ("eq-a.4", "Intro, eq. (A.4)")]


def test_a_heading_closes_the_statement_and_the_proof():
    out = results(_doc(Begin("lemma", "1", explicit=False), Text("Claim."),
                       Heading("3 Next"), Text("Prose."), D("q = r", "7")))
    lem, eq = out
    assert _texts(lem.blocks) == ["Claim."] and eq.where == "3 Next, eq. (7)"

"""The reader's common form (:mod:`checks.importer.document`): a proof's "of Theorem 7" as a
result key, a display's rows joined and its printed numbers, the theorem words and the
result kind each becomes."""
from __future__ import annotations

import pytest

from checks.importer.document import ENV_KINDS, Display, proof_of
from checks.importer.latex import Row
from theory.model import RESULT_KINDS


@pytest.mark.parametrize("text, key", [
    ("Proof of Theorem 7", "thm-7"),
    ("Proof of Lemma 3.2.", "lem-3.2"),
    ("Proof of Corollary A.1", "cor-a.1"),
    ("Proof (of Proposition 4b)", "prop-4b"),
    ("Proof of Claim 2", "lem-2"),                    # a claim is a lemma
    ("Proof of Lemma B.3.1", "lem-b.3.1"),
    ("Proof", None),
    ("Proof of the main result", None),
    ("Proof of Lemma", None),                         # no number
])
def test_proof_of(text, key):
    assert proof_of(text) == key


def test_a_display_joins_its_rows_and_lists_its_printed_numbers():
    d = Display([Row("a &= b", "3"), Row("&= c"), Row("&\\le d", "4.1")])
    assert d.latex == "a &= b \\\\ &= c \\\\ &\\le d"
    assert d.numbers == ["3", "4.1"]
    assert Display().latex == "" and Display().numbers == []


def test_every_theorem_word_becomes_a_result_kind_of_the_data_model():
    assert set(ENV_KINDS.values()) <= set(RESULT_KINDS)
    assert (ENV_KINDS["theorem"], ENV_KINDS["lemma"], ENV_KINDS["assumption"],
            ENV_KINDS["hypothesis"]) == ("thm", "lem", "asm", "asm")

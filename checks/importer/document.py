"""What every reader produces: a paper as a flat list of blocks in printed order.

A :class:`Heading` opens a section; a :class:`Begin` opens a theorem-like environment
(kind, printed number, title) or a proof, an :class:`End` closes it — readers of text
renderings, which do not mark where an environment ends, emit no ``End`` and
:mod:`checks.importer.structure` decides; :class:`Text` is prose with inline math as
``$…$``; :class:`Display` is a displayed formula as rows of LaTeX with their numbers.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from checks.importer.latex import Row

#: theorem-like environments and the result kind each becomes (theory.model.RESULT_KINDS)
ENV_KINDS = {"theorem": "thm", "lemma": "lem", "corollary": "cor", "proposition": "prop",
             "definition": "def", "assumption": "asm", "remark": "rem", "claim": "lem",
             "fact": "lem", "example": "ex", "conjecture": "prop", "observation": "rem",
             "hypothesis": "asm", "condition": "asm", "property": "prop", "algorithm": "alg"}


@dataclass
class Heading:
    title: str
    line: int = 0


@dataclass
class Begin:
    env: str                 # "lemma", "theorem", ... or "proof"
    number: str | None = None
    title: str = ""
    of: str | None = None    # a proof's "of Theorem 7": ("thm", "7") as "thm-7"
    line: int = 0
    explicit: bool = True    # the source marks the end (LaTeX) or not (text renderings)


@dataclass
class End:
    env: str
    line: int = 0


@dataclass
class Text:
    text: str
    line: int = 0


@dataclass
class Display:
    rows: list[Row] = field(default_factory=list)
    line: int = 0

    @property
    def latex(self) -> str:
        return " \\\\ ".join(r.latex for r in self.rows)

    @property
    def numbers(self) -> list[str]:
        return [r.number for r in self.rows if r.number]


@dataclass
class Document:
    blocks: list
    source: str
    title: str = ""
    fmt: str = ""
    #: (kind, number) of every theorem-like heading the reader saw, whether or not it
    #: became a result (for the "results found vs printed" count)
    printed: list = field(default_factory=list)


RESULT_WORDS = r"(Theorem|Lemma|Corollary|Proposition|Definition|Assumption|Remark|Claim|Fact|" \
               r"Example|Conjecture|Observation|Hypothesis|Condition|Property)"
NUMBER = r"([A-Z]?\.?\d+(?:\.\d+)*[a-z]?|[A-Z](?:\.\d+)+)"


def proof_of(text: str) -> str | None:
    """``Proof of Theorem 7`` -> ``thm-7`` (None when the proof names no result)."""
    m = re.search(RESULT_WORDS + r"\s+" + NUMBER, text)
    if not m:
        return None
    return f"{ENV_KINDS[m.group(1).lower()]}-{m.group(2).lower()}"

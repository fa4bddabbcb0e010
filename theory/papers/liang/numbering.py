"""Where each shared item sits in the two versions of Liang et al.

The ICML and AAAI versions print the same lemmas and proofs under different numbers.
The shared builders (:mod:`theory.papers.liang.privacy`, :mod:`theory.papers.liang.utility`)
refer to an item by its *role* — what the item is (``markov``, ``inner-small-deviation``),
never a number of either version; :data:`TABLE` gives its printed number in each version,
side by side, so that a reader holding either PDF can tick them off.

A cell holds the item's result id (``lem-a.13``), its printed equation number in
parentheses (``(50)``), or both; ``—`` marks an item that version prints without a
number.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

#: role | ICML | AAAI
TABLE = """
    # ---- Sec. 2 and App. A: definitions, cited lemmas, standard facts
    shifted-divergence          | def-2.5             | def-2.5
    shift-reduction             | lem-2.6 (5)         | lem-2.6 (5)
    contraction-reduction       | lem-2.7 (6)         | lem-a.1 (21)
    markov                      | lem-a.1 (25)        | lem-a.2 (22)
    projection                  | lem-a.2 (26)        | lem-a.3 (23)
    square-sum                  | lem-a.3 (27)        | lem-a.4 (24)
    half-square                 | lem-a.4 (28)        | lem-a.5 (25)
    root-sum                    | lem-a.5 (29)        | lem-a.6 (26)
    winf                        | def-a.6 (30)        | def-a.7 (27)
    weq                         | lem-a.7             | lem-a.8
    post                        | lem-a.8 (31)        | lem-a.9 (28)
    conv                        | lem-a.9 (32)        | lem-a.10 (29)
    comp                        | lem-a.10 (33)       | lem-a.11 (30)
    sgm-def                     | def-a.11 (35)       | def-a.12 (32)
    sgm                         | lem-a.12 (36)       | lem-a.13 (33)

    # ---- Lemma 3.2 (noisy smooth-reduction) and its proof, App. B.1
    smooth-reduction            | lem-3.2             | lem-3.2
    smooth-reduction-1          | (10)                | (10)
    smooth-reduction-2          | (11)                | (35)
    coupled-gap                 | (37)                | (36)
    sampling-mixture            | (38)                | (37)
    sampled-record              | (39)                | (38)
    combine-part-1              | (40)                | (39)
    sgm-part-2                  | (41)                | (40)

    # ---- Theorem 3.3 (DPSGD-GC privacy) and its proof, App. B.2
    gc-privacy-1                | (12)                | (11)
    gc-privacy-2                | (13)                | (42)
    noise-split                 | (42)                | (43)
    gc-one-step                 | (43)                | (44)
    gc-induction                | (44)                | (45)
    gc-no-shift                 | (45)                | (46)

    # ---- Theorem 3.4 (DPSGD-DC privacy) and its proof, App. B.3
    dc-privacy-1                | (14)                | (12)
    dc-privacy-2                | (15)                | (48)
    dc-one-step                 | (46)                | (49)
    dc-induction                | (47)                | (50)
    dc-shift-choice             | (48)                | (51)

    # ---- Sec. 3.2 and App. A: the utility results
    sgd-variance                | asm-3.6 (16)        | asm-3.6 (13)
    gc-utility                  | lem-3.7 (17)        | lem-3.7 (14)
    strong-convexity            | asm-3.8             | asm-3.9
    dc-utility                  | thm-3.9 (19)        | thm-3.10 (17)
    smoothness-facts            | lem-a.13            | lem-a.14
    strong-convexity-facts      | lem-a.14            | lem-a.15

    # ---- App. C.1: the proof of the DPSGD-DC utility theorem
    dc-update                   | (49)                | (56)
    #      case (1.1)
    step-expansion-C            | (50)                | (58)
    inner-small-deviation       | (51)                | (59)
    inner-large-deviation       | (52)                | (60)
    markov-deviation            | (53)                | (61)
    inner-mean-1.1              | (54)                | (62)
    step-size-choice            | (55)                | (63)
    recursion-1.1               | (56)                | (64)
    average-1.1                 | (57)                | (65)
    #      case (1.2): ICML prints its one line inline, without a number
    bound-1.2                   | —                   | (66)
    #      case (2.1)
    step-expansion-g            | (58)                | (67)
    inner-mean-2.1              | (59)                | (68)
    recursion-2.1               | (60)                | (69)
    average-2.1                 | (61)                | (70)
    #      case (2.2)
    triangle-2.2                | (62)                | (71)
    markov-clipping             | (63)                | (72)
    inner-mean-2.2              | (64)                | (73)
    batch-second-moment         | (65)                | (74)
    recursion-2.2               | (66)                | (75)
    average-gap-2.2             | (67)                | (76)
    average-root-gap-2.2        | (68)                | (77)
    average-2.2                 | (69)                | (78)
    #      "Finally, summing up all the cases"
    summing-up                  | (70)                | (79)
"""

_EQ = re.compile(r"^\((\w+)\)$")
_ID = re.compile(r"^[a-z]+-[a-z0-9.]+$")


def _columns(text: str) -> tuple[dict, dict, dict, dict]:
    """Parse :data:`TABLE` into (ICML ids, ICML eqs, AAAI ids, AAAI eqs), each role → str."""
    cols = ({}, {}), ({}, {})
    for line in text.strip().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        role, *cells = (c.strip() for c in line.split("|"))
        if len(cells) != 2 or role in cols[0][0] or role in cols[0][1]:
            raise ValueError(f"numbering: malformed or repeated row {line!r}")
        for (ids, eqs), cell in zip(cols, cells):
            for token in cell.split():
                if token == "—":
                    continue
                m = _EQ.match(token)
                if m:
                    eqs[role] = m.group(1)
                elif _ID.match(token):
                    ids[role] = token
                else:
                    raise ValueError(f"numbering: cannot read {token!r} in row {line!r}")
    (icml_ids, icml_eqs), (aaai_ids, aaai_eqs) = cols
    return icml_ids, icml_eqs, aaai_ids, aaai_eqs


IDS_ICML, EQS_ICML, IDS_AAAI, EQS_AAAI = _columns(TABLE)

_KIND = {"lem": "Lemma", "thm": "Theorem", "def": "Definition", "asm": "Assumption"}


@dataclass(frozen=True)
class Numbering:
    """Where each shared item sits in one version: result ids and printed equations."""

    paper: str
    ids: dict = field(default_factory=dict)    # role -> local id ("lem-a.9")
    eqs: dict = field(default_factory=dict)    # role -> printed equation label ("37")
    notes: dict = field(default_factory=dict)  # role -> reading chosen in this version

    def rid(self, role: str) -> str:
        """The result id: ``liang-icml:lem-a.13``."""
        return f"{self.paper}:{self.ids[role]}"

    def number(self, role: str) -> str:
        """The result's printed number: ``A.13``."""
        return self.ids[role].split("-", 1)[1].upper()

    def name(self, role: str) -> str:
        """The result as the text cites it: ``Lemma A.13``."""
        return f"{_KIND[self.ids[role].split('-', 1)[0]]} {self.number(role)}"

    def numbered(self, role: str) -> bool:
        """Whether this version prints the item with an equation number."""
        return role in self.eqs

    def eq(self, role: str) -> str:
        return self.eqs[role]

    def lbl(self, role: str, line: int | None = None) -> str:
        base = f"eq-{self.eqs[role]}"
        return base if line is None else f"{base}.{line}"

    def note(self, role: str) -> str:
        return self.notes.get(role, "")


ICML = Numbering("liang-icml", IDS_ICML, EQS_ICML)
AAAI = Numbering("liang-aaai", IDS_AAAI, EQS_AAAI, notes={
    "sgm-part-2": "printed as sup_v D_α(P_ψ(μ') ‖ P_{ν=v}) (garbled); read as ICML (41)"})

"""From a :class:`~checks.importer.document.Document` to the paper's results: each
theorem-like environment with its number, title, section, statement (prose and
displays) and the proofs attached to it; displays outside every result become results
of kind ``eq`` of their own, so that no formula is dropped.

Where a text rendering does not mark an environment's end, a statement runs from its
heading over its first paragraphs and displays, and stops at the first paragraph that
opens a new sentence after a display (a lower-case paragraph — ``where …`` — continues
it); a proof runs to ∎/□, the next result, or the next section.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from checks.importer.document import ENV_KINDS, Begin, Display, Document, End, Heading, Text


@dataclass
class Proof:
    title: str
    blocks: list = field(default_factory=list)     # Text and Display, in order


@dataclass
class Block:
    """One result as printed."""

    kind: str                 # thm, lem, ... (theory.model.RESULT_KINDS), eq for loose displays
    number: str
    title: str
    where: str
    env: str                  # the printed word: Lemma, Theorem, ... ("Equation" for eq)
    blocks: list = field(default_factory=list)     # statement: Text and Display
    proofs: list = field(default_factory=list)
    line: int = 0

    @property
    def key(self) -> str:
        return f"{self.kind}-{self.number}"


_CONTINUES = re.compile(r"^\s*(?:where|for|and|with|if|provided|then|in which|here|such|"
                        r"respectively|as long as|under|when|holds|is|are|,|\(|\$)", re.I)
_INTRODUCES = re.compile(r"(?:that|have|holds?|as|by|:|follows|satisfies|obtain|get)\s*[.:,]?\s*$",
                         re.I)
_END_PROOF = re.compile(r"(∎|□|\\square|\\qed|\\blacksquare|\\Box)\W*$")


def results(doc: Document) -> list[Block]:
    out: list[Block] = []
    section = ""
    current: Block | None = None      # the statement being read
    proof: Proof | None = None
    proof_owner: Block | None = None
    shown_display = False
    texts = 0
    loose_count = 0
    i = 0
    blocks = doc.blocks

    def close_statement():
        nonlocal current
        current = None

    def close_proof():
        nonlocal proof, proof_owner
        if proof is not None and proof_owner is not None:
            proof_owner.proofs.append(proof)
        proof = None
        proof_owner = None

    def loose(disp: Display):
        nonlocal loose_count
        loose_count += 1
        number = disp.numbers[0] if disp.numbers else f"u{loose_count}"
        number = re.sub(r"[^a-z0-9.]", "", number.lower()) or f"u{loose_count}"
        where = (section + ", " if section else "") + (
            f"eq. ({disp.numbers[0]})" if disp.numbers else f"display at line {disp.line}")
        out.append(Block("eq", number, "", where, "Equation", [disp], [], disp.line))

    while i < len(blocks):
        b = blocks[i]
        if isinstance(b, Heading):
            close_statement()
            close_proof()
            section = b.title[:80]
        elif isinstance(b, Begin) and b.env != "proof":
            close_statement()
            close_proof()
            kind = ENV_KINDS.get(b.env.lower().rstrip("*"), "rem")
            number = (b.number or "").lower().rstrip(".")
            number = re.sub(r"[^a-z0-9.]", "", number) or f"u{len(out) + 1}"
            word = b.env.rstrip("*").capitalize()
            where = (section + ", " if section else "") + f"{word} {b.number or ''}".strip()
            current = Block(kind, number, b.title, where, word, [], [], b.line)
            out.append(current)
            shown_display = False
            texts = 0
            if b.explicit:
                # read to the matching End
                depth = 1
                i += 1
                while i < len(blocks) and depth:
                    c = blocks[i]
                    if isinstance(c, Begin) and c.env != "proof":
                        depth += 1
                    elif isinstance(c, End) and c.env != "proof":
                        depth -= 1
                        if depth == 0:
                            break
                    elif isinstance(c, (Text, Display)):
                        current.blocks.append(c)
                    i += 1
                current = None
        elif isinstance(b, Begin) and b.env == "proof":
            close_statement()
            close_proof()
            owner = None
            if b.of:
                owner = next((r for r in out if r.key == b.of), None)
            if owner is None:
                owner = next((r for r in reversed(out) if r.kind != "eq"), None)
            proof = Proof(b.title or "Proof")
            proof_owner = owner
            if owner is None:
                proof_owner = Block("eq", f"p{len(out) + 1}", "", section or "proof", "Proof",
                                    [], [], b.line)
                out.append(proof_owner)
            if b.explicit:
                i += 1
                depth = 1
                while i < len(blocks) and depth:
                    c = blocks[i]
                    if isinstance(c, Begin) and c.env == "proof":
                        depth += 1
                    elif isinstance(c, End) and c.env == "proof":
                        depth -= 1
                        if depth == 0:
                            break
                    elif isinstance(c, (Text, Display)):
                        proof.blocks.append(c)
                    i += 1
                close_proof()
        elif isinstance(b, End):
            close_statement()
        elif isinstance(b, Text):
            if proof is not None:
                proof.blocks.append(b)
                if _END_PROOF.search(b.text.strip()):
                    close_proof()
            elif current is not None:
                starts_sentence = not _CONTINUES.match(b.text)
                if shown_display and starts_sentence and not (
                        _INTRODUCES.search(b.text) and len(b.text) < 160
                        and i + 1 < len(blocks) and isinstance(blocks[i + 1], Display)):
                    close_statement()
                elif not shown_display and texts >= 2 and starts_sentence:
                    close_statement()
                else:
                    current.blocks.append(b)
                    texts += 1
        elif isinstance(b, Display):
            if proof is not None:
                proof.blocks.append(b)
            elif current is not None:
                current.blocks.append(b)
                shown_display = True
            else:
                loose(b)
        i += 1
    close_proof()
    return out

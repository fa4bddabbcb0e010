"""Where each shared privacy item sits in the two versions of Liang et al.

The ICML and AAAI versions print the same privacy lemmas and proofs under different
numbers.  The builders of :mod:`theory.papers.liang.privacy` refer to an item by its
*role* (left column); the tables give its printed number in each version, side by side,
so that a reader holding either PDF can tick them off.
"""
from __future__ import annotations

from dataclasses import dataclass, field


def _columns(text: str) -> tuple[dict[str, str], dict[str, str]]:
    """Parse a three-column table ``role  icml  aaai`` (one row a line)."""
    icml, aaai = {}, {}
    for line in text.strip().splitlines():
        role, a, b = line.split()
        icml[role], aaai[role] = a, b
    return icml, aaai


#: result ids: role  →  ICML id, AAAI id
IDS_ICML, IDS_AAAI = _columns("""
    def-2.5     def-2.5     def-2.5
    lem-2.6     lem-2.6     lem-2.6
    lem-3.2     lem-3.2     lem-3.2
    winf        def-a.6     def-a.7
    weq         lem-a.7     lem-a.8
    post        lem-a.8     lem-a.9
    conv        lem-a.9     lem-a.10
    comp        lem-a.10    lem-a.11
    sgm-def     def-a.11    def-a.12
    sgm         lem-a.12    lem-a.13
""")

#: printed equation numbers: role  →  ICML eq., AAAI eq.  (roles are the AAAI numbers of
#: the proof lines, or the name of the statement they belong to)
EQS_ICML, EQS_AAAI = _columns("""
    2.6         5           5
    contraction 6           21
    winf        30          27
    post        31          28
    conv        32          29
    comp        33          30
    sgm-def     35          32
    sgm         36          33
    3.2-1       10          10
    3.2-2       11          35
    36          37          36
    37          38          37
    38          39          38
    39          40          39
    40          41          40
    3.3-1       12          11
    3.3-2       13          42
    43          42          43
    44          43          44
    45          44          45
    46          45          46
    3.4-1       14          12
    3.4-2       15          48
    49          46          49
    50          47          50
    51          48          51
""")


@dataclass(frozen=True)
class Numbering:
    """Where each shared item sits in one version: result ids and printed equations."""

    paper: str
    ids: dict = field(default_factory=dict)    # role -> local id ("lem-a.9")
    eqs: dict = field(default_factory=dict)    # role -> printed equation label ("37")
    notes: dict = field(default_factory=dict)  # role -> reading chosen in this version

    def rid(self, role: str) -> str:
        return f"{self.paper}:{self.ids[role]}"

    def eq(self, role: str) -> str:
        return self.eqs[role]

    def lbl(self, role: str, line: int | None = None) -> str:
        base = f"eq-{self.eqs[role]}"
        return base if line is None else f"{base}.{line}"

    def note(self, role: str) -> str:
        return self.notes.get(role, "")


ICML = Numbering("liang-icml", IDS_ICML, EQS_ICML)
AAAI = Numbering("liang-aaai", IDS_AAAI, EQS_AAAI, notes={
    "40": "printed as sup_v D_α(P_ψ(μ') ‖ P_{ν=v}) (garbled); read as ICML (41)"})

"""What the check of one typed statement found (DESIGN.md, *Statement checks*)."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Outcome:
    label: str
    violated: bool = False
    ratio: float | None = None
    witness: dict | None = None
    detail: str = ""
    tested: bool = True
    samples: int = 0
    paths: dict = field(default_factory=dict)
    #: the hypotheses in force contradict each other (``witness["contradiction"]``: the
    #: unsat core): no scenario can be checked, and that is a finding of its own
    vacuous: bool = False


"""Verdicts and the evidence behind them (DESIGN.md, *Verdicts*).

| verdict     | meaning                                   | evidence                                   |
|-------------|-------------------------------------------|--------------------------------------------|
| PROVED      | holds for every parameter allowed         | SymPy identity/sign argument or z3 unsat   |
| REFUTED     | false for some allowed parameters         | counterexample re-checked at >= 50 digits  |
| SUPPORTED   | no counterexample found                   | search budget, smallest slack and where    |
| CITED       | external result taken as given            | the oracle compared with, if any           |
| UNCHECKED   | not yet encoded for checking              | -                                          |
| DEFINED     | a definition: nothing to check            | -                                          |

A result's verdict is its weakest step's (REFUTED < UNCHECKED < SUPPORTED < CITED <
PROVED; DEFINED is neutral).  The statement verdict is separate: VIOLATED (a witness
scenario where exact/simulated truth exceeds the bound), HOLDS-ON-SCENARIOS (with the
tightest ratio truth/bound), VACUOUS (the hypotheses in force contradict each other: the
unsat core), or NOT-TESTED.
"""
from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field
from typing import Iterable


class Verdict(str, enum.Enum):
    REFUTED = "REFUTED"
    UNCHECKED = "UNCHECKED"
    SUPPORTED = "SUPPORTED"
    CITED = "CITED"
    PROVED = "PROVED"
    DEFINED = "DEFINED"

    @property
    def strength(self) -> int:
        return _STRENGTH[self]


_STRENGTH = {Verdict.REFUTED: 0, Verdict.UNCHECKED: 1, Verdict.SUPPORTED: 2,
             Verdict.CITED: 3, Verdict.PROVED: 4, Verdict.DEFINED: 5}


class StatementVerdict(str, enum.Enum):
    VIOLATED = "VIOLATED"
    #: the hypotheses in force contradict each other (an unsat core proves it): a finding
    VACUOUS = "VACUOUS"
    HOLDS_ON_SCENARIOS = "HOLDS-ON-SCENARIOS"
    NOT_TESTED = "NOT-TESTED"


def weakest(verdicts: Iterable[Verdict]) -> Verdict:
    """The weakest verdict; DEFINED when there is nothing else (a definition)."""
    vs = [Verdict(v) for v in verdicts]
    vs = [v for v in vs if v is not Verdict.DEFINED] or [Verdict.DEFINED]
    return min(vs, key=lambda v: v.strength)


@dataclass
class StepReport:
    """The verdict on one step (or on a structural check: chain link, case cover, units).

    ``counterexample`` maps symbol names to exact strings (``"3/2"``) where exact.
    ``slack`` is the smallest slack seen (``rhs - lhs`` oriented so that negative
    means violated), ``where`` the point it was seen at.  ``detail`` is one line of
    human-readable evidence (the certificate, the oracle, why it fell back).
    """

    id: str
    eq: str | None
    kind: str
    verdict: Verdict
    method: str
    counterexample: dict[str, str] | None = None
    slack: float | None = None
    samples: int = 0
    seconds: float = 0.0
    detail: str = ""
    where: dict[str, str] | None = None
    #: a concrete instance attaining the witness (:mod:`checks.realise`), as text fields
    instance: dict[str, str] | None = None
    #: the alternative readings of an ambiguous rendering, each checked: dicts with
    #: name, claim, why, verdict, method, counterexample, detail
    readings: list[dict] | None = None
    #: a REFUTED row's repairs (:mod:`checks.repair`), best first: dicts with edit,
    #: verdict, evidence, kind, edits, line, latex; None when no repair was searched
    repairs: list[dict] | None = None
    #: the repair search's class of the finding: {"class", "summary", "searched"}
    repair: dict | None = None
    #: what the row is (:data:`theory.model.ORIGINS`): a line the paper prints
    #: ("printed", with its ``eq``), a check the encoder derived ("derived"), or a row of a
    #: pinned variant ("variant"); set by the engine (:func:`theory.model.row_origins`)
    origin: str = "printed"

    @property
    def depends_on_reading(self) -> bool:
        """True when an alternative reading gets another verdict than the printed one."""
        return any(r.get("verdict") != self.verdict.value for r in self.readings or ())

    def evidence(self) -> str:
        """One line for tables: the witness, or the search budget and smallest slack,
        or the detail (certificate, oracle, finding)."""
        if self.depends_on_reading:
            alts = "; ".join(
                f"reading {r['name']}: {r['verdict']}"
                + (" witness " + ", ".join(f"{k}={v}" for k, v in r["counterexample"].items())
                   if r.get("counterexample") else "")
                for r in self.readings or ())
            own = ("witness " + ", ".join(f"{k}={v}" for k, v in self.counterexample.items())
                   if self.counterexample else self.detail)
            return (f"DEPENDS ON THE READING — printed: {self.verdict.value} {own}; {alts}")
        if self.counterexample:
            w = "witness " + ", ".join(f"{k}={v}" for k, v in self.counterexample.items())
            if self.instance:
                shown = [self.instance[k] for k in self.instance
                         if k in ("f", "θ") or k.startswith(("law of", "terms of"))]
                if shown:
                    w += " — realised by " + "; ".join(shown)
            return w
        if self.verdict is Verdict.SUPPORTED:
            slack = "n/a" if self.slack is None else f"{self.slack:.3g}"
            return f"{self.samples} samples, min slack {slack}"
        return self.detail

    def to_json(self) -> dict:
        d = asdict(self)
        d["verdict"] = self.verdict.value
        d["depends_on_reading"] = self.depends_on_reading
        for k in ("repairs", "repair"):      # present only where a repair was searched
            if d[k] is None:
                del d[k]
        return d

    @classmethod
    def from_json(cls, d: dict) -> "StepReport":
        d = dict(d)
        d.pop("depends_on_reading", None)
        d["verdict"] = Verdict(d["verdict"])
        return cls(**d)


@dataclass
class StatementReport:
    verdict: StatementVerdict = StatementVerdict.NOT_TESTED
    detail: str = ""
    witness: dict | None = None
    ratio: float | None = None
    #: a VIOLATED statement's instance: the scenario, how its truth was computed, the
    #: truth against the bound (:func:`checks.realise.scenario_instance`)
    instance: dict | None = None


@dataclass
class ResultReport:
    id: str
    paper: str
    kind: str
    number: str
    title: str
    steps: list[StepReport] = field(default_factory=list)
    statement: StatementReport = field(default_factory=StatementReport)
    seconds: float = 0.0
    #: the first printed line of the proof that is REFUTED (see :func:`first_broken`)
    first_broken: dict | None = None
    #: one dict per typed statement (``Result.bounds``, then ``Result.rates``): label,
    #: kind ("bound"/"rate"), outcome ("held", "violated" or "not tested"), scenarios,
    #: ratio and why (not tested) — what the default view shows beside the rows'
    #: verdict; the JSON has the same in ``statement_detail``
    typed: list = field(default_factory=list)
    #: why the result could not be checked (its worker died, the watchdog ended it);
    #: None for a checked result
    error: str | None = None
    #: a VIOLATED statement's repairs (:mod:`checks.repair`): {"class", "summary",
    #: "searched", "repairs"}; None when none was searched
    statement_repair: dict | None = None
    #: the outcome per typed statement label, as the checks left them (what the repair
    #: search of a violated statement starts from); not part of the JSON
    statement_outcomes: dict | None = field(default=None, repr=False, compare=False)
    #: the printed result a pinned variant (``…+c11``, ``…+fix``) varies, else None: its
    #: findings are the variant's, never the printed result's
    variant_of: str | None = None

    @property
    def verdict(self) -> Verdict:
        return weakest(s.verdict for s in self.steps) if self.steps else Verdict.DEFINED

    def to_json(self) -> dict:
        return {
            "id": self.id, "paper": self.paper, "kind": self.kind, "number": self.number,
            "title": self.title, "variant_of": self.variant_of,
            "verdict": self.verdict.value,
            "statement_verdict": self.statement.verdict.value,
            "statement_detail": self.statement.detail,
            "statement_witness": self.statement.witness,
            "statement_instance": self.statement.instance,
            "statement_ratio": self.statement.ratio,
            "first_broken_line": self.first_broken,
            "steps": [s.to_json() for s in self.steps],
            **({"error": self.error} if self.error is not None else {}),
        } | ({} if self.statement_repair is None else {
            "statement_repair": {k: v for k, v in self.statement_repair.items()
                                 if k != "repairs"},
            "statement_repairs": self.statement_repair.get("repairs") or []})


#: where a finding goes (:func:`findings`): the paper's printed lines and results, the
#: encoder's derived checks, the pinned variants
FINDING_GROUPS = ("printed", "derived", "variants")


def timing_free(data):
    """A report's JSON (``to_json()``, nested dicts and lists) without its ``seconds``: what
    two runs of one seed are compared on — their output is identical but for timings."""
    if isinstance(data, dict):
        return {k: timing_free(v) for k, v in data.items() if k != "seconds"}
    if isinstance(data, list):
        return [timing_free(v) for v in data]
    return data


def finding_group(report: "ResultReport", step: StepReport | None = None) -> str:
    """The group (:data:`FINDING_GROUPS`) of a finding: a row by its origin, a typed
    statement by its result (a printed result's statement is the paper's claim)."""
    if report.variant_of or (step is not None and step.origin == "variant"):
        return "variants"
    if step is None or step.origin == "printed":
        return "printed"
    return "derived"


def findings(reports) -> dict[str, list[dict]]:
    """Every REFUTED row and VIOLATED or VACUOUS typed statement, apart by what it is
    (:data:`FINDING_GROUPS`): ``printed`` — a line the paper prints (with its equation) or
    a printed result's typed statement; ``derived`` — a check the encoder derived;
    ``variants`` — a pinned variant's row or statement (the variant's claim, never the
    printed result being false).  Each: id, what ("row" or "statement"), verdict, eq
    (rows), variant_of (variants)."""
    out: dict[str, list[dict]] = {g: [] for g in FINDING_GROUPS}
    for r in reports:
        for s in r.steps:
            if s.verdict is Verdict.REFUTED:
                item = {"id": s.id, "what": "row", "verdict": s.verdict.value, "eq": s.eq}
                if r.variant_of:
                    item["variant_of"] = r.variant_of
                out[finding_group(r, s)].append(item)
        sv = r.statement.verdict
        if sv in (StatementVerdict.VIOLATED, StatementVerdict.VACUOUS):
            item = {"id": r.id, "what": "statement", "verdict": sv.value}
            if r.variant_of:
                item["variant_of"] = r.variant_of
            out[finding_group(r)].append(item)
    return out


#: the orders of an adjacent pair a witness may name (``fails_in`` or ``order``)
PAIR_ORDERS = ("add", "remove")


def _orders_of(step: StepReport) -> list[str]:
    cx = step.counterexample or {}
    if "fails_in" in cx:
        return [o.strip() for o in str(cx["fails_in"]).split(",") if o.strip()]
    text = str(cx.get("order", ""))
    return [o for o in PAIR_ORDERS if f"({o})" in text]


def first_broken(steps: Iterable[StepReport], parts: Iterable[str] = ()) -> dict | None:
    """The first printed line of the proof that is REFUTED, in report order — ``{"line",
    "printed", "eq", "witness", "detail"}`` — and, where witnesses name the order of the
    adjacent pair, the first such line per order (``"by_order": {order: line}``).  A
    printed line is a proof row (statement parts ``parts`` and the structural rows
    excluded); rows with an equation number come first, and where no numbered row is
    refuted the first refuted row without one is the line (a paper — a draft, say — whose
    rows carry no ``eq``).  None when no proof row is refuted."""
    parts = set(parts)
    proof = [s for s in steps if s.id not in parts and s.kind not in
             ("LINK", "CONCLUDES", "COVER", "UNITS") and s.verdict is Verdict.REFUTED]
    rows = [s for s in proof if s.eq] or proof
    if not rows:
        return None
    first = rows[0]
    out = {"line": first.id, "printed": printed_line(first), "eq": first.eq,
           "witness": first.counterexample, "detail": first.detail, "by_order": {}}
    for s in rows:
        for o in _orders_of(s):
            out["by_order"].setdefault(o, {"line": s.id, "printed": printed_line(s),
                                           "eq": s.eq, "witness": s.counterexample})
    return out


def printed_line(step: StepReport) -> str:
    """"(37), line 2" for a row labelled ``eq-37.2`` of equation (37); "(37)" otherwise;
    a row without an equation number by its id within the result ("case-1/line-2")."""
    import re
    if not step.eq:
        return step.id.split("/", 1)[-1]
    m = re.search(r"\.(\d+)$", step.id.rsplit("/", 1)[-1])
    return f"({step.eq})" + (f", line {m.group(1)}" if m else "")

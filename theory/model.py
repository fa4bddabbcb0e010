"""The data model of an encoded paper (DESIGN.md, *Data model*).

A paper module declares :class:`Result` objects.  A result has hypotheses, a statement
(one :class:`Step` per printed part), a proof made of :class:`Chain`, :class:`CaseSplit`
and :class:`Step` items, and, for privacy results, :class:`Bound` objects that the
scenario checks compare with exact divergences.

Everything here is plain data: frozen dataclasses holding SymPy objects.  Nothing is
evaluated numerically and nothing imports ``checks``.

Hypotheses in force for a step
------------------------------
A step is checked under: the result's relational hypotheses, the conditions of every
enclosing :class:`Case`, and the step's own ``given`` — nothing else.  A step that
re-uses a line proved in another case must therefore be re-declared inside the case
that uses it (with that case's hypotheses), which is exactly how the papers' "by (63)"
reuse has to be judged.
"""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from typing import Iterator, Union

import sympy as sp


class Rel(str, enum.Enum):
    """A step's relation ``lhs REL rhs``."""

    LE = "<="
    LT = "<"
    EQ = "="
    GE = ">="
    GT = ">"

    def holds(self, lhs, rhs) -> bool:
        """Evaluate the relation on two numbers (mpmath, float, Rational...)."""
        return {"<=": lhs <= rhs, "<": lhs < rhs, "=": lhs == rhs,
                ">=": lhs >= rhs, ">": lhs > rhs}[self.value]

    def sympy(self, lhs, rhs) -> sp.Basic:
        """The SymPy relational ``lhs REL rhs`` (unevaluated)."""
        cls = {"<=": sp.Le, "<": sp.Lt, "=": sp.Eq, ">=": sp.Ge, ">": sp.Gt}[self.value]
        return cls(lhs, rhs, evaluate=False)

    @property
    def direction(self) -> int:
        """-1 for ≤/<, +1 for ≥/>, 0 for =."""
        return {"<=": -1, "<": -1, "=": 0, ">=": 1, ">": 1}[self.value]

    @property
    def strict(self) -> bool:
        return self in (Rel.LT, Rel.GT)

    @staticmethod
    def compose(a: "Rel", b: "Rel") -> "Rel | None":
        """Relation of ``x a y b w`` between x and w; None if the directions clash."""
        if a.direction and b.direction and a.direction != b.direction:
            return None
        direction = a.direction or b.direction
        strict = a.strict or b.strict
        if direction == 0:
            return Rel.EQ
        if direction < 0:
            return Rel.LT if strict else Rel.LE
        return Rel.GT if strict else Rel.GE

    def implies(self, other: "Rel") -> bool:
        """True when ``x self y`` implies ``x other y`` for all reals."""
        if self == other:
            return True
        if self == Rel.EQ:
            return other in (Rel.LE, Rel.GE)
        return (self.direction == other.direction) and self.strict and not other.strict


class StepKind(str, enum.Enum):
    """How a step is justified and therefore how it can be checked (DESIGN.md)."""

    ALGEBRA = "ALGEBRA"            # follows from `given` by algebra
    SCALAR = "SCALAR"              # a real inequality that may need numerics
    PROBABILISTIC = "PROBABILISTIC"  # a fact about random variables; toy distributions
    CITED = "CITED"                # an external result; checked against an oracle if any


@dataclass(frozen=True)
class Assumption:
    """A named hypothesis: a SymPy relational/boolean, or a named predicate.

    ``expr`` is None for predicates such as "l is L-smooth" that are not scalar
    relations; those are recorded (and rendered) but play no part in algebra.
    """

    name: str
    expr: sp.Basic | None = None
    where: str = ""
    predicate: str = ""

    def __post_init__(self):
        if self.expr is not None and not isinstance(self.expr, sp.Basic):
            object.__setattr__(self, "expr", sp.sympify(self.expr))
        if self.expr is None and not self.predicate:
            object.__setattr__(self, "predicate", self.name)

    @property
    def is_relational(self) -> bool:
        return self.expr is not None

    def __str__(self) -> str:
        return self.name if self.expr is None else str(self.expr)


def asm(expr, where: str = "", name: str | None = None) -> Assumption:
    """Shorthand: ``asm(b <= n/5, "Lemma 3.2")``; ``asm("l is L-smooth", "Asm 3.1")``."""
    if isinstance(expr, str):
        return Assumption(name=name or expr, expr=None, where=where, predicate=expr)
    expr = sp.sympify(expr)
    return Assumption(name=name or str(expr), expr=expr, where=where)


def _as_assumptions(items) -> tuple[Assumption, ...]:
    out = []
    for item in items or ():
        out.append(item if isinstance(item, Assumption) else asm(item))
    return tuple(out)


_LABEL = re.compile(r"^[a-z0-9][a-z0-9.+\-]*$")


def _check_label(label: str, what: str) -> None:
    if not isinstance(label, str) or not _LABEL.match(label):
        raise ValueError(f"{what} label must match {_LABEL.pattern} (lower case), got {label!r}")


@dataclass(frozen=True)
class Step:
    """One printed line ``lhs REL rhs`` with the hypotheses in force and its justification.

    ``label`` is the step's last id component: ``eq-63`` for a printed equation,
    ``line-2`` or a descriptive slug otherwise.  ``oracle`` names a checker in
    ``checks`` for PROBABILISTIC/CITED steps (e.g. ``"gaussian-rdp"``) and
    ``oracle_args`` parametrises it; theory only names it, never imports it.
    """

    label: str
    lhs: sp.Expr
    rel: Rel
    rhs: sp.Expr
    kind: StepKind = StepKind.ALGEBRA
    given: tuple[Assumption, ...] = ()
    because: str = ""
    eq: str | None = None
    note: str = ""
    oracle: str | None = None
    oracle_args: tuple[tuple[str, object], ...] = ()

    def __post_init__(self):
        _check_label(self.label, "step")
        object.__setattr__(self, "lhs", sp.sympify(self.lhs))
        object.__setattr__(self, "rhs", sp.sympify(self.rhs))
        object.__setattr__(self, "rel", Rel(self.rel))
        object.__setattr__(self, "kind", StepKind(self.kind))
        object.__setattr__(self, "given", _as_assumptions(self.given))
        if isinstance(self.oracle_args, dict):
            object.__setattr__(self, "oracle_args", tuple(sorted(self.oracle_args.items())))

    @property
    def relational(self) -> sp.Basic:
        return self.rel.sympy(self.lhs, self.rhs)

    @property
    def free_symbols(self) -> set[sp.Symbol]:
        syms = set(self.lhs.free_symbols) | set(self.rhs.free_symbols)
        return syms

    def __str__(self) -> str:
        return f"{self.lhs} {self.rel.value} {self.rhs}"


@dataclass(frozen=True)
class Chain:
    """Consecutive steps ``e0 R1 e1 R2 e2 ...`` as printed.

    With ``links=True`` (the default) the engine checks that each step's ``rhs`` equals
    the next step's ``lhs`` up to SymPy equality.  ``concludes`` names what the chain's
    composite relation (first lhs, composed relation, last rhs) must establish:
    ``"statement"`` for the result's (single) statement, a statement part's label
    (``"part-1"``), or None when the chain proves an intermediate fact only.
    """

    label: str
    steps: tuple[Step, ...]
    links: bool = True
    concludes: str | None = None
    note: str = ""

    def __post_init__(self):
        _check_label(self.label, "chain")
        object.__setattr__(self, "steps", tuple(self.steps))
        if not self.steps:
            raise ValueError(f"chain {self.label!r} must have at least one step")


@dataclass(frozen=True)
class Case:
    """A case of a case split: its condition(s) and its sub-proof."""

    label: str
    condition: tuple[Assumption, ...]
    proof: tuple["ProofItem", ...]
    note: str = ""

    def __post_init__(self):
        _check_label(self.label, "case")
        object.__setattr__(self, "condition", _as_assumptions(self.condition))
        object.__setattr__(self, "proof", tuple(self.proof))


@dataclass(frozen=True)
class CaseSplit:
    """A case analysis.  Its cases must cover every parameter allowed by ``given``
    (plus the hypotheses in force around it); the engine checks that like a step:
    ``given ∧ ¬(c1 ∨ c2 ∨ …)`` must be unsatisfiable."""

    label: str
    cases: tuple[Case, ...]
    given: tuple[Assumption, ...] = ()
    note: str = ""

    def __post_init__(self):
        _check_label(self.label, "case split")
        object.__setattr__(self, "cases", tuple(self.cases))
        object.__setattr__(self, "given", _as_assumptions(self.given))


ProofItem = Union[Step, Chain, CaseSplit]


@dataclass(frozen=True)
class Bound:
    """A privacy bound stated by a result: ``(alpha, epsilon)``-RDP with ``epsilon``.

    ``form`` is ``"explicit"`` when constants are printed, ``"O"`` when the paper gives
    only an order of magnitude (then the checks ask whether *some* constant works).
    ``hypotheses`` are those of the part of the result the bound belongs to.
    ``mechanism`` describes what is private: ``"last-iterate"`` or ``"all-iterates"``.
    """

    label: str
    epsilon: sp.Expr
    algorithm: str
    loss_class: str
    hypotheses: tuple[Assumption, ...] = ()
    form: str = "explicit"
    order: sp.Symbol | None = None
    mechanism: str = "last-iterate"
    note: str = ""

    def __post_init__(self):
        _check_label(self.label, "bound")
        object.__setattr__(self, "epsilon", sp.sympify(self.epsilon))
        object.__setattr__(self, "hypotheses", _as_assumptions(self.hypotheses))
        if self.form not in ("explicit", "O"):
            raise ValueError(f"form must be 'explicit' or 'O', got {self.form!r}")


RESULT_KINDS = ("def", "asm", "lem", "thm", "cor", "prop", "rem", "alg", "eq", "tab", "fig")
_ID = re.compile(r"^(?P<paper>[a-z0-9-]+):(?P<kind>[a-z]+)-(?P<number>[a-z0-9.]+)"
                 r"(?P<variant>\+[a-z0-9-]+)?$")


@dataclass(frozen=True)
class Result:
    """One numbered result of a paper, as printed.

    ``statement`` holds one :class:`Step` per printed part (labels ``statement`` for a
    single-part result, ``part-1``/``part-2`` ...).  ``proof`` holds the proof's items
    in the printed order.  ``variant_of`` is set for repaired variants
    (``…:thm-3.9+fix``), which must say what they change in ``note``.
    """

    id: str
    title: str
    where: str
    hypotheses: tuple[Assumption, ...] = ()
    statement: tuple[Step, ...] = ()
    proof: tuple[ProofItem, ...] = ()
    bounds: tuple[Bound, ...] = ()
    note: str = ""
    variant_of: str | None = None

    def __post_init__(self):
        m = _ID.match(self.id or "")
        if not m:
            raise ValueError(f"result id must look like 'paper:kind-number', got {self.id!r}")
        if m["kind"] not in RESULT_KINDS:
            raise ValueError(f"result kind must be one of {RESULT_KINDS}, got {m['kind']!r} "
                             f"in {self.id!r}")
        if m["variant"] and not self.variant_of:
            raise ValueError(f"{self.id}: a '+variant' id needs variant_of set")
        object.__setattr__(self, "hypotheses", _as_assumptions(self.hypotheses))
        object.__setattr__(self, "statement", tuple(self.statement))
        object.__setattr__(self, "proof", tuple(self.proof))
        object.__setattr__(self, "bounds", tuple(self.bounds))

    @property
    def paper(self) -> str:
        return self.id.split(":", 1)[0]

    @property
    def kind(self) -> str:
        return _ID.match(self.id)["kind"]

    @property
    def number(self) -> str:
        return _ID.match(self.id)["number"] + (_ID.match(self.id)["variant"] or "")

    def statement_part(self, label: str) -> Step:
        for s in self.statement:
            if s.label == label:
                return s
        raise KeyError(f"{self.id} has no statement part {label!r}")


@dataclass(frozen=True)
class Located:
    """A step with its full id and every hypothesis in force at its place."""

    id: str
    step: Step
    hypotheses: tuple[Assumption, ...]
    case_path: tuple[str, ...]


def walk_steps(result: Result) -> Iterator[Located]:
    """Every step of a result (statement parts first, then the proof in order) with its
    id ``<result>/<case path>/<label>`` and the hypotheses in force there."""
    base = tuple(result.hypotheses)
    for s in result.statement:
        yield Located(f"{result.id}/{s.label}", s, base + s.given, ())
    yield from _walk(result.id, result.proof, base, ())


def _walk(prefix: str, items, hyps, path) -> Iterator[Located]:
    for item in items:
        if isinstance(item, Step):
            yield Located(_join(prefix, path, item.label), item, hyps + item.given, path)
        elif isinstance(item, Chain):
            for s in item.steps:
                yield Located(_join(prefix, path, s.label), s, hyps + s.given, path)
        elif isinstance(item, CaseSplit):
            for case in item.cases:
                yield from _walk(prefix, case.proof, hyps + item.given + case.condition,
                                 path + (case.label,))
        else:
            raise TypeError(f"unknown proof item {item!r}")


def _join(prefix: str, path: tuple[str, ...], label: str) -> str:
    return "/".join((prefix,) + path + (label,))

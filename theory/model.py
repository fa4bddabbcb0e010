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

import contextlib
import contextvars
import enum
import os
import re
import sys
from dataclasses import dataclass, field, replace
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
class ImplicitBound:
    """``var ≤ sup{v > lower : every condition holds at var = v}`` — a bound on a parameter
    that a paper defines implicitly (the largest order satisfying some conditions, as
    α*(q, σ) of the sampled Gaussian lemma).  ``conditions`` are relationals in ``var``
    (and other symbols); ``label`` is how the paper writes the bound (``alpha_star(q,
    sigma)``).  Not a scalar relation the algebra can use; the statement checks evaluate
    it numerically (a scan of (lower, upper] then bisection of the last crossing)."""

    var: sp.Symbol
    conditions: tuple
    label: str
    lower: sp.Expr = sp.Integer(1)
    upper: sp.Expr = sp.Integer(10) ** 6

    def __post_init__(self):
        object.__setattr__(self, "conditions", tuple(sp.sympify(c) for c in self.conditions))
        object.__setattr__(self, "lower", sp.sympify(self.lower))
        object.__setattr__(self, "upper", sp.sympify(self.upper))
        if not self.conditions:
            raise ValueError("conditions must not be empty")

    @property
    def free_symbols(self) -> set:
        out = set()
        for c in self.conditions:
            out |= c.free_symbols
        return out

    def __str__(self) -> str:
        return f"{self.var} <= {self.label}"


class Tag(str, enum.Enum):
    """Where a hypothesis comes from — what code selects hypotheses by (never the text of
    their citation)."""

    PRINTED = "printed"      # stated by the paper where it is used (result, case, step)
    STANDING = "standing"    # a standing assumption of the paper or a section
    CLASS = "class"          # granted by the engine: implied by a typed class in force
    ROLE = "role"            # granted by the engine: a Rényi order > 1, a probability in
    #                          [0, 1], Jensen on noise moments, a conditioning event > 0


@dataclass(frozen=True)
class Assumption:
    """A hypothesis, with the place in the paper stating it.  Exactly one of:

    * ``expr`` — a SymPy relational/boolean over real symbols (the algebra uses it);
    * ``cls`` — a typed problem class instance (:mod:`theory.classes`): no scalar content
      by itself, but it implies relations (:meth:`~theory.classes.ProblemClass.implied`)
      and truth providers admit only scenarios that are members of it;
    * ``implicit`` — an :class:`ImplicitBound` such as α ≤ α*(q, σ);
    * ``predicate`` — last resort, a named statement no checker can use (recorded and
      rendered; a statement check never guesses from its text).
    """

    name: str
    expr: sp.Basic | None = None
    where: str = ""
    predicate: str = ""
    cls: object = None
    implicit: ImplicitBound | None = None
    #: where the hypothesis comes from (:class:`Tag`): printed, standing, or granted by the
    #: engine (a consequence of a typed class in force, of a role: an RDP order > 1, a
    #: probability in [0, 1], a conditioning event of positive probability — ``where`` then
    #: holds the source, :func:`theory.classes.implied_hypotheses`)
    tag: Tag = Tag.PRINTED

    def __post_init__(self):
        object.__setattr__(self, "tag", Tag(self.tag))
        if self.expr is not None and not isinstance(self.expr, sp.Basic):
            object.__setattr__(self, "expr", sp.sympify(self.expr))
        if self.cls is not None and not _is_problem_class(self.cls):
            problem(f"cls must be a theory.classes.ProblemClass, got {self.cls!r}")
            object.__setattr__(self, "cls", None)
        if self.expr is None and self.cls is None and self.implicit is None \
                and not self.predicate:
            object.__setattr__(self, "predicate", self.name)

    @property
    def implied(self) -> bool:
        """Granted by the engine (a class's or a role's consequence), not printed."""
        return self.tag in (Tag.CLASS, Tag.ROLE)

    @property
    def is_relational(self) -> bool:
        return self.expr is not None

    @property
    def is_class(self) -> bool:
        return self.cls is not None

    @property
    def is_predicate(self) -> bool:
        return self.expr is None and self.cls is None and self.implicit is None

    def __str__(self) -> str:
        if self.expr is not None:
            return str(self.expr)
        return self.name


def _is_problem_class(x) -> bool:
    from theory.classes import ProblemClass
    return isinstance(x, ProblemClass)


def asm(expr, where: str = "", name: str | None = None) -> Assumption:
    """A hypothesis from what the paper states::

        asm(b <= n / 5, "Lemma 3.2")          # a relation
        asm(LSmooth(L), "Assumption 3.1")     # a typed problem class
        asm(ImplicitBound(alpha, conds, "alpha_star(q, sigma)"), "Lemma A.12")
        asm("K is closed and convex")         # a named predicate (last resort)
    """
    if isinstance(expr, Assumption):
        return expr
    if isinstance(expr, str):
        return Assumption(name=name or expr, expr=None, where=where, predicate=expr)
    if _is_problem_class(expr):
        return Assumption(name=name or expr.describe(), where=where, cls=expr)
    if isinstance(expr, ImplicitBound):
        return Assumption(name=name or str(expr), where=where, implicit=expr)
    expr = sp.sympify(expr)
    return Assumption(name=name or str(expr), expr=expr, where=where)


def _as_assumptions(items) -> tuple[Assumption, ...]:
    out = []
    for item in items or ():
        out.append(item if isinstance(item, Assumption) else asm(item))
    return tuple(out)


# --------------------------------------------------------------------------------------
# encoding problems: raised, or collected (``dpcheck lint`` lists every one)
_COLLECT: contextvars.ContextVar[list | None] = contextvars.ContextVar("theory_problems",
                                                                      default=None)
_THEORY_DIR = os.path.dirname(os.path.abspath(__file__))


@contextlib.contextmanager
def collecting_problems():
    """Within this block the data model's checks (labels, ids, keys, a symbol declared
    twice, a bound's missing order…) do not raise: each records ``(file, line, message)``
    — the line of the paper module that built the object — in the yielded list, and the
    object is built as given, so that importing a paper file reports *every* problem
    (``dpcheck lint``).  An object built here may be invalid: never verify it."""
    got: list = []
    tok = _COLLECT.set(got)
    try:
        yield got
    finally:
        _COLLECT.reset(tok)


def problem(message: str) -> None:
    """An encoding problem: ``ValueError(message)``, or recorded and ignored inside
    :func:`collecting_problems`."""
    got = _COLLECT.get()
    if got is None:
        raise ValueError(message)
    got.append(_caller() + (message,))


def _caller() -> tuple[str, int]:
    """(file, line) of the innermost frame outside ``theory`` (and outside generated
    dataclass code): where the paper built the faulty object."""
    f = sys._getframe(1)
    while f is not None:
        name = f.f_code.co_filename
        if not name.startswith("<") and os.path.dirname(os.path.abspath(name)) != _THEORY_DIR:
            return name, f.f_lineno
        f = f.f_back
    return "", 0


_LABEL = re.compile(r"^[a-z0-9][a-z0-9.+\-]*$")
#: a label's characters, in words (every message about a label or an id says them)
LABEL_RULE = ("lower-case letters, digits, '.', '+' and '-', starting with a letter or a "
              "digit")


def _offending(text: str, allowed: str) -> str:
    """What in ``text`` breaks the rule: its characters outside the class ``allowed``."""
    bad = sorted({c for c in text if not re.fullmatch(f"[{allowed}]", c)}, key=text.index)
    if not bad:
        return ""
    return "character" + "s" * (len(bad) > 1) + " " + ", ".join(repr(c) for c in bad) + \
        (" not allowed" if len(bad) > 1 else " is not allowed")


def _check_label(label: str, what: str) -> None:
    if isinstance(label, str) and _LABEL.match(label):
        return
    if not isinstance(label, str):
        why = f"must be a string, got {type(label).__name__}"
    elif not label:
        why = "must not be empty"
    else:
        why = (_offending(label, r"a-z0-9.+\-")
               or f"must start with a letter or a digit, not {label[0]!r}")
    problem(f"{what} label {label!r}: {why}; a label is {LABEL_RULE} "
            "(e.g. 'eq-3.1', 'line-2', 'part-1')")


@dataclass(frozen=True)
class Reading:
    """Another reading of a printed line, where the text rendering leaves the extent of a
    root or a fraction ambiguous, or where the text admits two models of the mechanism the
    line speaks of (a batch "sampled with probability q = b/n" and "of size b = |B_t|":
    ``oracle_args`` then override the step oracle's arguments, e.g. ``{"sampling":
    "fixed"}``).  The step's own ``lhs REL rhs`` stays the primary (printed) reading; the
    engine checks every alternative too and reports a row whose verdicts differ as
    depending on the reading (both verdicts, both witnesses)."""

    name: str
    lhs: sp.Expr
    rel: Rel
    rhs: sp.Expr
    why: str = ""
    oracle_args: tuple[tuple[str, object], ...] = ()

    def __post_init__(self):
        _check_label(self.name, "reading")
        object.__setattr__(self, "lhs", sp.sympify(self.lhs))
        object.__setattr__(self, "rhs", sp.sympify(self.rhs))
        object.__setattr__(self, "rel", Rel(self.rel))
        if isinstance(self.oracle_args, dict):
            object.__setattr__(self, "oracle_args", tuple(sorted(self.oracle_args.items())))

    def __str__(self) -> str:
        return f"{self.lhs} {self.rel.value} {self.rhs}"


def _as_readings(items) -> tuple[Reading, ...]:
    out = []
    for r in items or ():
        out.append(r if isinstance(r, Reading) else Reading(*r))
    return tuple(out)


#: what a row of the report is: a line the paper prints, a check the encoder derived, or a
#: row of a pinned variant (a result with ``variant_of``: ``+c11``, ``+fix``)
ORIGINS = ("printed", "derived", "variant")


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
    #: alternative readings of an ambiguous rendering (:class:`Reading`, or tuples
    #: ``(name, lhs, rel, rhs, why)``); the printed reading above stays the primary one
    readings: tuple[Reading, ...] = ()
    #: what the row is (:data:`ORIGINS`): ``"printed"`` — a line the paper prints (with its
    #: equation, ``eq``, where numbered) — or ``"derived"`` — a check the encoder derived
    #: ("the printed η is the stationary point", "the last term of (5) covers the U^c
    #: branch").  None: printed when ``eq`` is set, for a line of a chain (a printed
    #: display) and a statement part; derived otherwise (:func:`row_origins`)
    origin: str | None = field(default=None, metadata={"quiet": True})

    def __post_init__(self):
        _check_label(self.label, "step")
        if self.origin is not None and self.origin not in ORIGINS[:2]:
            problem(f"step {self.label!r}: origin must be one of {ORIGINS[:2]} (or None: "
                    f"from eq), got {self.origin!r}")
            object.__setattr__(self, "origin", None)
        object.__setattr__(self, "readings", _as_readings(self.readings))
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


def with_given(extra, steps) -> list[Step]:
    """The steps with ``extra`` hypotheses put in front of each one's ``given`` (a
    statement part's hypotheses applied to its proof lines)."""
    extra = _as_assumptions(extra)
    return [replace(s, given=extra + s.given) for s in steps]


@dataclass(frozen=True)
class Standing:
    """Standing assumptions (and definitions) that a paper, or one of its sections, declares
    once for everything that follows: "throughout, η < min{1, 1/L}", "without loss of
    generality η > 1/T", "let c_{α,1} = … (2)".  They bind every result from ``first`` to
    ``last`` in the paper's order (``RESULTS``; None: from the first result, to the last) —
    unless the result says otherwise (``Result(unless=(label,))``).

    Each hypothesis is tagged :attr:`Tag.STANDING` (``where`` defaults to the declaration's).
    A definition ``Eq(c, formula)`` makes the constant that formula wherever it is used:
    never a free symbol.  Declared in :attr:`Paper.standing`; the registry hands every result
    the hypotheses that bind it (:attr:`Result.standing`, :func:`apply_standing`)."""

    label: str
    hypotheses: tuple[Assumption, ...]
    where: str = ""
    first: str | None = None
    last: str | None = None
    note: str = ""

    def __post_init__(self):
        _check_label(self.label, "standing")
        hyps = tuple(replace(h, tag=Tag.STANDING, where=h.where or self.where)
                     for h in _as_assumptions(self.hypotheses))
        object.__setattr__(self, "hypotheses", hyps)
        if not hyps:
            problem(f"standing {self.label!r}: no hypotheses")


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
            problem(f"chain {self.label!r} must have at least one step")


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


FORMS = ("explicit", "O")


@dataclass(frozen=True)
class Bound:
    """A privacy claim of a result, typed (DESIGN.md, *Data model*).

    * RDP (default): for every pair of adjacent datasets, **in both orders**,
      ``D_order(M(D) ‖ M(D')) ≤ expr`` — ``order`` is the paper's Rényi-order symbol.
    * (ε, δ) (``profile=True``): ``M`` is ``(expr, delta)``-DP, i.e. the exact privacy
      profile satisfies δ_M(expr) ≤ ``delta`` in both orders.

    ``mechanism`` (:mod:`theory.mechanisms`) says what is released; ``problem_class``
    (:mod:`theory.classes`) what the statement assumes of the losses — a truth provider
    admits only scenarios that are members of every class.  ``hypotheses`` are the
    relations in force (those of the result part the bound belongs to).  ``form="O"``:
    the paper gives an order of magnitude only, and the checks ask whether *some*
    constant works along every admissible path.
    """

    label: str
    expr: sp.Expr
    mechanism: object
    problem_class: tuple = ()
    order: sp.Expr | None = None
    delta: sp.Expr | None = None
    profile: bool = False
    form: str = "explicit"
    hypotheses: tuple[Assumption, ...] = ()
    note: str = ""
    #: the claimed relation of the truth to ``expr`` (of δ_M(ε) to ``delta``): "<=" (a bound)
    #: or "=" (the truth is exactly that: checked both ways — a truth below it refutes it too)
    rel: str = "<="
    #: the printed choices this statement fixes in the result's symbols (a dict, or pairs
    #: ``(symbol, expression)``: {η: the η of Theorem 12, T: ⌈n^e⌉}) — every hypothesis in
    #: force at the statement is read with them substituted (:func:`statement_hypotheses`)
    choices: tuple = field(default=(), metadata={"quiet": True})
    #: hypotheses in force that the statement's mechanism embodies, so that they are no
    #: condition on its scenarios: named predicates (their text, or the
    #: :class:`Assumption`) — "W = R^d" for an unprojected iteration — and problem
    #: classes of the result that the mechanism's parameters already carry (a sensitivity
    #: the classes bound); any other named predicate in force makes the statement
    #: NOT-TESTED, any other class binds its scenarios
    embodies: tuple = field(default=(), metadata={"quiet": True})
    #: what kind of typed statement this is (a bound on a privacy quantity)
    statement_type = "bound"

    def __post_init__(self):
        _check_label(self.label, "bound")
        _typed_bindings(self, "bound")
        object.__setattr__(self, "expr", sp.sympify(self.expr))
        object.__setattr__(self, "hypotheses", _as_assumptions(self.hypotheses))
        object.__setattr__(self, "problem_class", _as_classes(self.problem_class))
        if self.order is not None:
            object.__setattr__(self, "order", sp.sympify(self.order))
        if self.delta is not None:
            object.__setattr__(self, "delta", sp.sympify(self.delta))
        if self.form not in FORMS:
            problem(f"bound {self.label!r}: form must be one of {FORMS}, got {self.form!r}")
        if self.rel not in ("<=", "="):
            problem(f"bound {self.label!r}: rel must be '<=' or '=', got {self.rel!r}")
        if not _is_mechanism(self.mechanism):
            problem(f"bound {self.label!r}: mechanism must be a "
                    f"theory.mechanisms.Mechanism, got {self.mechanism!r}")
        if self.profile and self.delta is None:
            problem(f"bound {self.label!r}: an (epsilon, delta) claim (profile=True) "
                    "needs delta")
        if not self.profile and self.order is None:
            problem(f"bound {self.label!r}: an RDP claim needs its order (the "
                    "paper's Renyi-order symbol), or profile=True for (epsilon, delta)")

    @property
    def kind(self) -> str:
        return "(epsilon, delta)-DP" if self.profile else "RDP"

    def describe(self) -> str:
        """One line: what is claimed of which mechanism on which classes."""
        what = (f"({sp.sstr(self.expr)}, {sp.sstr(self.delta)})-DP" if self.profile
                else f"RDP of order {sp.sstr(self.order)} <= {sp.sstr(self.expr)}")
        cls = ", ".join(c.name + "(" + ", ".join(sp.sstr(v) for v in c.params().values()) + ")"
                        for c in self.problem_class)
        return (f"{self.mechanism.describe()} is {what}" + (f" on {cls}" if cls else "")
                + (" [O-form]" if self.form == "O" else ""))

    @property
    def free_symbols(self) -> set:
        out = set(self.expr.free_symbols) | set(self.mechanism.free_symbols)
        for e in (self.order, self.delta):
            if e is not None:
                out |= e.free_symbols
        for c in self.problem_class:
            out |= c.free_symbols
        return out


@dataclass(frozen=True)
class Rate:
    """A utility or convergence claim: ``metric ≤ expr`` for ``mechanism`` (the algorithm: a
    :mod:`theory.mechanisms` instance whose fields are its parameters) on every problem of the
    classes in ``problem_class``, under ``hypotheses``.  Checked by simulation on
    problem families of the classes, with confidence intervals (``checks.truth.rates_quadratic``).
    ``form="O"``: an order of magnitude (the constant is reported, not decided).
    ``confidence``: a high-probability claim, ``metric ≤ expr`` with probability at least
    1 − ``confidence`` (the metric a random quantity of one run; checked on its
    (1 − confidence)-quantile); None: the metric as defined (an expectation, a minimum).
    ``constants``: symbols of ``expr`` (or of a hypothesis) that the paper only asserts to *exist* ("there is a
    constant C such that …"), each allowed to depend on the symbols in ``depends_on`` only
    (empty: absolute constants).  A provider that supports them reports the smallest
    values that make the claim hold on its scenarios, and calls the claim violated only
    when no value works (the needed value grows without bound along a family of
    scenarios that share the values of ``depends_on``)."""

    label: str
    metric: object
    expr: sp.Expr
    mechanism: object
    problem_class: tuple = ()
    form: str = "explicit"
    hypotheses: tuple[Assumption, ...] = ()
    note: str = ""
    confidence: sp.Expr | None = None
    constants: tuple = ()
    depends_on: tuple = ()
    #: as :attr:`Bound.choices`: the printed choices the statement fixes (η, T …)
    choices: tuple = field(default=(), metadata={"quiet": True})
    #: as :attr:`Bound.embodies`: named predicates in force its mechanism embodies
    embodies: tuple = field(default=(), metadata={"quiet": True})
    #: what kind of typed statement this is (a rate of a utility metric); a rate has no
    #: Rényi order and no privacy profile
    statement_type = "rate"
    order = None
    delta = None
    profile = False

    def __post_init__(self):
        _check_label(self.label, "rate")
        _typed_bindings(self, "rate")
        object.__setattr__(self, "expr", sp.sympify(self.expr))
        object.__setattr__(self, "constants", tuple(self.constants))
        object.__setattr__(self, "depends_on", tuple(self.depends_on))
        for c in self.constants + self.depends_on:
            if not isinstance(c, sp.Symbol):
                problem(f"rate {self.label!r}: constants and depends_on must be "
                        f"symbols, got {c!r}")
        inside = set(self.expr.free_symbols)
        for h in self.hypotheses:
            if h.expr is not None:
                inside |= h.expr.free_symbols
        for c in self.constants:
            if c not in inside:
                problem(f"rate {self.label!r}: constant {c} occurs neither in expr "
                        "nor in a hypothesis")
        if self.confidence is not None:
            object.__setattr__(self, "confidence", sp.sympify(self.confidence))
        object.__setattr__(self, "hypotheses", _as_assumptions(self.hypotheses))
        object.__setattr__(self, "problem_class", _as_classes(self.problem_class))
        if self.form not in FORMS:
            problem(f"rate {self.label!r}: form must be one of {FORMS}, got {self.form!r}")
        if not _is_mechanism(self.mechanism):
            problem(f"rate {self.label!r}: mechanism must be a "
                    f"theory.mechanisms.Mechanism, got {self.mechanism!r}")
        from theory.metrics import Metric
        if not isinstance(self.metric, Metric):
            problem(f"rate {self.label!r}: metric must be a theory.metrics.Metric, "
                    f"got {self.metric!r}")

    def describe(self) -> str:
        cls = ", ".join(c.name + "(" + ", ".join(sp.sstr(v) for v in c.params().values()) + ")"
                        for c in self.problem_class)
        conf = ("" if self.confidence is None else
                f" with probability >= 1 - {sp.sstr(self.confidence)}")
        ex = ("" if not self.constants else
              f" for some {', '.join(map(str, self.constants))}"
              + (f" depending on {', '.join(map(str, self.depends_on))} only"
                 if self.depends_on else " (absolute)"))
        return (f"{self.metric.definition} <= {sp.sstr(self.expr)}{conf} for "
                f"{self.mechanism.describe()}" + (f" on {cls}" if cls else "")
                + (" [O-form]" if self.form == "O" else "") + ex)

    @property
    def free_symbols(self) -> set:
        out = set(self.expr.free_symbols) | set(self.mechanism.free_symbols)
        if self.confidence is not None:
            out |= self.confidence.free_symbols
        for c in self.problem_class:
            out |= c.free_symbols
        return out


def _typed_bindings(stmt, what: str) -> None:
    """Normalise a typed statement's ``choices`` (pairs (symbol, expression), sorted by
    name) and ``embodies`` (predicate texts)."""
    ch = stmt.choices
    if isinstance(ch, dict):
        ch = tuple(ch.items())
    pairs = []
    for item in ch or ():
        try:
            sym, val = item
        except (TypeError, ValueError):
            problem(f"{what} {stmt.label!r}: choices must map symbols to expressions, got "
                    f"{item!r}")
            continue
        if not isinstance(sym, sp.Symbol):
            problem(f"{what} {stmt.label!r}: choices must map symbols to expressions, got "
                    f"the key {sym!r}")
            continue
        pairs.append((sym, sp.sympify(val)))
    object.__setattr__(stmt, "choices", tuple(sorted(pairs, key=lambda p: p[0].name)))
    emb = stmt.embodies
    if isinstance(emb, (str, Assumption)):
        emb = (emb,)
    out = []
    for e in emb or ():
        if isinstance(e, Assumption):
            e = e.cls if e.cls is not None else e.name if e.is_predicate else e
        if not ((isinstance(e, str) and e) or _is_problem_class(e)):
            problem(f"{what} {stmt.label!r}: embodies must hold named predicates (their "
                    f"text or the Assumption) and problem classes, got {e!r}")
            continue
        out.append(e)
    object.__setattr__(stmt, "embodies", tuple(out))


def _is_mechanism(x) -> bool:
    from theory.mechanisms import Mechanism
    return isinstance(x, Mechanism)


def _as_classes(items) -> tuple:
    if _is_problem_class(items):
        items = (items,)
    out = []
    for c in items or ():
        c = c.cls if isinstance(c, Assumption) else c
        if not _is_problem_class(c):
            problem(f"problem_class must hold theory.classes.ProblemClass instances, "
                    f"got {c!r}")
            continue
        out.append(c)
    return tuple(out)


RESULT_KINDS = ("def", "asm", "lem", "thm", "cor", "prop", "rem", "alg", "eq", "tab", "fig",
                "ex")
_ID = re.compile(r"^(?P<paper>[a-z0-9-]+):(?P<kind>[a-z]+)-(?P<number>[a-z0-9.]+)"
                 r"(?P<variant>\+[a-z0-9-]+)?$")
_KEY = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def id_problem(rid) -> str:
    """One line saying why ``rid`` is not a result id, naming the offending characters
    and the characters each part allows."""
    rule = ("an id is KEY:KIND-NUMBER[+VARIANT]: KEY lower-case letters, digits and '-'; "
            f"KIND one of {', '.join(RESULT_KINDS)}; NUMBER lower-case letters, digits and "
            "'.'; VARIANT lower-case letters, digits and '-' (e.g. 'my-paper:cor-3.1', "
            "'my-paper:thm-2+fix')")
    if not isinstance(rid, str):
        return f"result id must be a string, got {type(rid).__name__}; {rule}"
    key, colon, rest = rid.partition(":")
    why = []
    if not colon:
        why.append("no ':' between the paper key and the result")
    else:
        bad = _offending(key, "a-z0-9-")
        if bad or not key:
            why.append(f"key {key!r}: " + (bad or "empty"))
        kind, dash, tail = rest.partition("-")
        number, plus, variant = tail.partition("+")
        if not dash:
            why.append(f"no '-' between the kind and the number in {rest!r}")
        elif kind not in RESULT_KINDS:
            why.append(f"kind {kind!r} is not one of the kinds")
        if dash:
            bad = _offending(number, "a-z0-9.")
            if bad or not number:
                why.append(f"number {number!r}: " + (bad or "empty"))
            if plus:
                bad = _offending(variant, "a-z0-9-")
                if bad or not variant:
                    why.append(f"variant {variant!r}: " + (bad or "empty"))
    return (f"result id {rid!r}: {'; '.join(why) or 'does not match the rule'} — {rule}")


def _as_normalisations(items, what: str) -> tuple:
    """``normalise`` as a tuple of symbols (a symbol, or ``Eq(symbol, 1)``, per item)."""
    if isinstance(items, (sp.Symbol, sp.Equality)):
        items = (items,)
    out = []
    for x in items or ():
        if isinstance(x, sp.Equality) and x.rhs == 1 and isinstance(x.lhs, sp.Symbol):
            x = x.lhs
        if not isinstance(x, sp.Symbol):
            problem(f"{what} must hold symbols (each set to 1 by convention), got {x!r}")
            continue
        out.append(x)
    return tuple(out)


@dataclass(frozen=True)
class Result:
    """One numbered result of a paper, as printed.

    ``statement`` holds one :class:`Step` per printed part (labels ``statement`` for a
    single-part result, ``part-1``/``part-2`` ...).  ``proof`` holds the proof's items
    in the printed order.  ``bounds`` (privacy) and ``rates`` (utility/convergence) are
    the typed statements the truth providers check.  ``variant_of`` is set for
    repaired variants (``…:thm-3.9+fix``), which must say what they change in ``note``.
    """

    id: str
    title: str
    where: str
    hypotheses: tuple[Assumption, ...] = ()
    statement: tuple[Step, ...] = ()
    proof: tuple[ProofItem, ...] = ()
    bounds: tuple[Bound, ...] = ()
    rates: tuple[Rate, ...] = ()
    note: str = ""
    variant_of: str | None = None
    #: symbols set to 1 by a convention of this result ("Δ = 1 without loss of
    #: generality"): the units check measures their dimension in their own unit
    #: (:attr:`Paper.normalise` for a convention of the whole paper)
    normalise: tuple = ()
    #: labels of the paper's :class:`Standing` declarations this result says otherwise
    #: about (they do not bind it)
    unless: tuple = field(default=(), metadata={"quiet": True})
    #: the standing hypotheses that bind this result (tag :attr:`Tag.STANDING`): set from
    #: the paper's declarations when the paper is loaded (:func:`apply_standing`); in force
    #: at every row and typed statement whose symbols they reach (:func:`in_force`)
    standing: tuple = field(default=(), metadata={"quiet": True})

    def __post_init__(self):
        m = _ID.match(self.id) if isinstance(self.id, str) else None
        if not m:
            problem(id_problem(self.id))
        elif m["kind"] not in RESULT_KINDS:
            problem(f"result id {self.id!r}: kind {m['kind']!r} is not one of "
                    f"{', '.join(RESULT_KINDS)}")
        elif m["variant"] and not self.variant_of:
            problem(f"{self.id}: a '+variant' id needs variant_of set")
        object.__setattr__(self, "hypotheses", _as_assumptions(self.hypotheses))
        object.__setattr__(self, "statement", tuple(self.statement))
        object.__setattr__(self, "proof", tuple(self.proof))
        object.__setattr__(self, "bounds", tuple(self.bounds))
        object.__setattr__(self, "rates", tuple(self.rates))
        for b in self.bounds:
            if not isinstance(b, Bound):
                problem(f"{self.id}: bounds must hold Bound objects, got {b!r}")
        for r in self.rates:
            if not isinstance(r, Rate):
                problem(f"{self.id}: rates must hold Rate objects, got {r!r}")
        object.__setattr__(self, "bounds", tuple(b for b in self.bounds if isinstance(b, Bound)))
        object.__setattr__(self, "rates", tuple(r for r in self.rates if isinstance(r, Rate)))
        object.__setattr__(self, "normalise", _as_normalisations(self.normalise,
                                                                 f"{self.id}: normalise"))
        unless = (self.unless,) if isinstance(self.unless, str) else tuple(self.unless or ())
        object.__setattr__(self, "unless", unless)
        object.__setattr__(self, "standing", tuple(
            replace(h, tag=Tag.STANDING) for h in _as_assumptions(self.standing)))

    @property
    def valid_id(self) -> bool:
        """False only for a result built inside :func:`collecting_problems` with an id
        that breaks the rule (its problem is recorded; nothing else can use it)."""
        m = _ID.match(self.id) if isinstance(self.id, str) else None
        return bool(m) and m["kind"] in RESULT_KINDS

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
class Paper:
    """What a paper module exposes as ``PAPER`` (beside ``RESULTS``): its key (the prefix
    of every result id), title, the file or citation it encodes, and its symbol table
    (:class:`theory.quantities.SymbolTable`), used for dimensions.

    ``roles`` binds the generic roles the engine reasons with to the paper's symbols
    (:func:`theory.classes.implied_hypotheses`): ``gap``, ``dist``, ``grad_norm``,
    ``diam`` (the state at the current iterate), ``noise_sq``/``noise_abs`` (E‖∇l_ξ −
    ∇f‖², E‖∇l_ξ − ∇f‖), ``renyi_order`` (symbols that are Rényi orders: α > 1),
    ``probability`` (symbols that are probabilities: in [0, 1]), ``conditional`` (pairs
    (conditional expectation, probability of its event): the event has positive
    probability wherever the expectation is used) and ``states`` (more role maps for
    other iterates or aggregates, e.g. ``{"gap": min_sqrt_gap**2}``)."""

    key: str
    title: str
    file: str = ""
    symbols: object = None
    roles: tuple = ()
    note: str = ""
    #: symbols the paper sets to 1 "without loss of generality" (a sensitivity Δ = 1, a
    #: smoothness L = 1): a convention of units, not a dimension mismatch — the units
    #: check measures each one's dimension in its own unit (e.g. Θ in units of Δ)
    normalise: tuple = ()
    #: standing assumptions and definitions of the paper or of its sections
    #: (:class:`Standing`), each binding the results from its ``first`` to its ``last``
    standing: tuple = field(default=(), metadata={"quiet": True})

    def __post_init__(self):
        if not isinstance(self.key, str) or not _KEY.match(self.key):
            why = ("" if not isinstance(self.key, str) or not self.key else
                   _offending(self.key, "a-z0-9-") or
                   f"must start with a letter or a digit, not {self.key[0]!r}")
            problem(f"paper key {self.key!r}" + (f": {why}" if why else "") +
                    "; a key is lower-case letters, digits and '-', starting with a letter "
                    "or a digit (e.g. 'my-draft')")
        if isinstance(self.roles, dict):
            object.__setattr__(self, "roles", _freeze_roles(self.roles))
        object.__setattr__(self, "normalise", _as_normalisations(self.normalise,
                                                                 "Paper.normalise"))
        st = (self.standing,) if isinstance(self.standing, Standing) else tuple(
            self.standing or ())
        for x in st:
            if not isinstance(x, Standing):
                problem(f"Paper.standing must hold theory.model.Standing objects, got {x!r}")
        object.__setattr__(self, "standing", tuple(x for x in st if isinstance(x, Standing)))

    def role_map(self) -> dict:
        """``roles`` as a dict (``states`` as a tuple of dicts)."""
        return thaw_roles(self.roles)


def _freeze_roles(roles: dict) -> tuple:
    out = []
    for k, v in sorted(roles.items()):
        if k == "states":
            v = tuple(tuple(sorted(st.items())) if isinstance(st, dict) else tuple(st)
                      for st in v)
        elif isinstance(v, list):
            v = tuple(v)
        out.append((k, v))
    return tuple(out)


def thaw_roles(roles) -> dict:
    """A paper's ``roles`` (frozen or not) as a plain dict."""
    if isinstance(roles, dict):
        d = dict(roles)
    else:
        d = dict(roles or ())
    if "states" in d:
        d["states"] = tuple(dict(st) for st in d["states"])
    return d


@dataclass(frozen=True)
class Located:
    """A step with its full id and every hypothesis in force at its place."""

    id: str
    step: Step
    hypotheses: tuple[Assumption, ...]
    case_path: tuple[str, ...]


def walk_steps(result: Result, roles=None) -> Iterator[Located]:
    """Every step of a result (statement parts first, then the proof in order) with its
    id and the hypotheses in force there (:func:`step_id`: ``<result>/<case
    path>/<label>``, with the chain's label before a label that several chains use).
    With ``roles`` (a paper's :attr:`Paper.roles`), the hypotheses in force include the
    relations they imply (:func:`in_force`)."""
    base = tuple(result.hypotheses)
    for s in result.statement:
        yield Located(f"{result.id}/{s.label}", s, in_force(result, base + s.given, s, roles),
                      ())
    yield from _walk(result, result.proof, base, (), roles, repeated_labels(result))


def repeated_labels(result: Result) -> frozenset:
    """The (case path, label) pairs that more than one step of ``result`` uses at the same
    place (statement parts count at the top).  A chain's step with such a label gets the
    chain's label in its id (:func:`step_id`); any other repetition stays a duplicate id."""
    seen: dict = {}
    for s in result.statement:
        seen[((), s.label)] = seen.get(((), s.label), 0) + 1

    def walk(items, path):
        for item in items:
            if isinstance(item, Step):
                seen[(path, item.label)] = seen.get((path, item.label), 0) + 1
            elif isinstance(item, Chain):
                for s in item.steps:
                    seen[(path, s.label)] = seen.get((path, s.label), 0) + 1
            elif isinstance(item, CaseSplit):
                for case in item.cases:
                    walk(case.proof, path + (case.label,))
    walk(result.proof, ())
    return frozenset(k for k, n in seen.items() if n > 1)


def step_id(result_id: str, path: tuple[str, ...], label: str, chain: str | None = None,
            repeated: frozenset = frozenset()) -> str:
    """The id of a proof step: ``<result>/<case path>/<label>``; a step of chain
    ``chain`` whose label another step at the same place also uses (``repeated``, from
    :func:`repeated_labels`) is ``<result>/<case path>/<chain>/<label>`` — so two chains
    may both have a step ``subst``, and every other id stays as it was."""
    if chain is not None and (path, label) in repeated:
        return _join(result_id, path + (chain,), label)
    return _join(result_id, path, label)


def in_force(result: Result, hyps, step: Step | None, roles=None) -> tuple[Assumption, ...]:
    """``hyps`` plus the standing hypotheses of the result that reach the step
    (:func:`with_standing`) and the relations implied by the typed classes and the roles in
    force (:func:`theory.classes.implied_hypotheses`), restricted to the symbols in play
    (the step's and the relational hypotheses')."""
    hyps = tuple(hyps)
    present = set()
    if step is not None:
        present |= step.free_symbols
        for rd in step.readings:
            present |= rd.lhs.free_symbols | rd.rhs.free_symbols
    hyps = with_standing(result, hyps, present)
    if roles is None and not result.bounds:
        return hyps
    from theory.classes import implied_hypotheses
    for h in hyps:
        if h.expr is not None:
            present |= h.expr.free_symbols
    orders = tuple(b.order for b in result.bounds if b.order is not None)
    # a step oracle evaluates the line on real instances of the classes: the class and
    # role relations hold there by construction, except that an expectation conditioned
    # on an event needs the event to have positive probability
    kinds = ("conditional",) if step is not None and step.oracle else None
    return hyps + tuple(implied_hypotheses(hyps, roles, present, orders=orders,
                                           kinds=kinds))


def _hyp_symbols(h: Assumption) -> set:
    if h.expr is not None:
        return set(h.expr.free_symbols)
    if h.implicit is not None:
        return set(h.implicit.free_symbols) | {h.implicit.var}
    if h.cls is not None:
        return set(h.cls.free_symbols)
    return set()


def _hyp_key(h: Assumption):
    if h.expr is not None:
        return ("expr", h.expr)
    if h.cls is not None:
        return ("cls", h.cls)
    if h.implicit is not None:
        return ("implicit", h.implicit)
    return ("predicate", h.name)


def _defined_symbol(h: Assumption):
    """The symbol a hypothesis ``Eq(c, formula)`` defines (c not in the formula), else
    None."""
    e = h.expr
    if not isinstance(e, sp.Equality):
        return None
    for a, b in ((e.lhs, e.rhs), (e.rhs, e.lhs)):
        if isinstance(a, sp.Symbol) and a not in b.free_symbols and not a.is_integer:
            return a
    return None


def reaching(hyps, symbols) -> tuple[Assumption, ...]:
    """The hypotheses among ``hyps`` that reach ``symbols`` — what they assume of the
    quantities in play, and nothing about the others:

    * a definition ``Eq(c, formula)`` where ``c`` is in play (a constant defined by a
      formula is that formula wherever it is used; elsewhere it names nothing in play);
    * a relation sharing a symbol with those in play, or with a relation or definition
      taken (the connected component: η > 1/T and η < 1 constrain T even where η is not
      written);
    * a named predicate, or a class without parameters (they speak of no symbol), always.

    Order kept."""
    hyps = tuple(hyps)
    syms = set(symbols)
    taken = [not _hyp_symbols(h) and (h.is_predicate or h.cls is not None) for h in hyps]
    changed = True
    while changed:
        changed = False
        for i, h in enumerate(hyps):
            if taken[i]:
                continue
            fs = _hyp_symbols(h)
            c = _defined_symbol(h)
            if (c in syms) if c is not None else bool(fs & syms):
                taken[i] = True
                syms |= fs
                changed = True
    return tuple(h for h, t in zip(hyps, taken) if t)


def _merge(hyps, extra) -> tuple[Assumption, ...]:
    """``hyps`` then the hypotheses of ``extra`` that say something new (by expression,
    class, implicit bound or predicate)."""
    seen = {_hyp_key(h) for h in hyps}
    out = list(hyps)
    for h in extra:
        k = _hyp_key(h)
        if k not in seen:
            seen.add(k)
            out.append(h)
    return tuple(out)


def with_standing(result: Result, hyps, symbols=()) -> tuple[Assumption, ...]:
    """``hyps`` plus the result's standing hypotheses that reach ``symbols`` or the
    symbols of the relations in ``hyps`` (:func:`reaching`), each once."""
    hyps = tuple(hyps)
    if not result.standing:
        return hyps
    present = set(symbols)
    for h in hyps:
        if h.expr is not None:
            present |= h.expr.free_symbols
    return _merge(hyps, reaching(result.standing, present))


def apply_standing(paper: "Paper", results) -> list:
    """``results`` with :attr:`Result.standing` set from the paper's :class:`Standing`
    declarations: a result gets the hypotheses of every declaration whose range (``first``
    to ``last`` in the order of ``results``) holds it and that it does not lift
    (``unless``).  An unknown ``first``/``last`` id or ``unless`` label is a problem."""
    results = list(results)
    for msg in standing_problems(paper, results):
        problem(msg)
    ids = [r.id for r in results if isinstance(r, Result)]
    extra: dict = {rid: [] for rid in ids}
    for st in getattr(paper, "standing", ()) or ():
        if any(x is not None and x not in ids for x in (st.first, st.last)):
            continue
        i0 = ids.index(st.first) if st.first else 0
        i1 = ids.index(st.last) if st.last else len(ids) - 1
        for rid in ids[i0:i1 + 1]:
            extra[rid].append(st)
    out = []
    for r in results:
        if not isinstance(r, Result):
            out.append(r)
            continue
        add = [h for st in extra.get(r.id, ()) if st.label not in r.unless
               for h in st.hypotheses]
        merged = _merge(r.standing, add)
        out.append(r if merged == r.standing else replace(r, standing=merged))
    return out


def standing_problems(paper: "Paper", results) -> list[str]:
    """One line per mistake in the paper's standing declarations: a ``first``/``last``
    that is no result of the paper, ``first`` after ``last``, a label declared twice, an
    ``unless`` naming no declaration."""
    out = []
    ids = [r.id for r in results if isinstance(r, Result)]
    decl = tuple(getattr(paper, "standing", ()) or ())
    labels = [st.label for st in decl]
    for lb in sorted({x for x in labels if labels.count(x) > 1}):
        out.append(f"standing {lb!r}: declared twice")
    for st in decl:
        bad = [x for x in (st.first, st.last) if x is not None and x not in ids]
        if bad:
            out.append(f"standing {st.label!r}: {bad[0]!r} is not a result of the paper "
                       "(first and last are result ids, in the paper's order)")
        elif st.first and st.last and ids.index(st.first) > ids.index(st.last):
            out.append(f"standing {st.label!r}: first {st.first!r} comes after last "
                       f"{st.last!r} in the paper's order")
    for r in results:
        if isinstance(r, Result):
            for u in r.unless:
                if u not in labels:
                    out.append(f"{r.id}: unless {u!r} names no standing declaration of the "
                               f"paper (declared: {', '.join(sorted(labels)) or 'none'})")
    return out


def part_of(result: Result, label: str) -> Step | None:
    """The statement part a typed statement with ``label`` states: the part with that
    label, else the result's only part."""
    for s in result.statement:
        if s.label == label:
            return s
    return result.statement[0] if len(result.statement) == 1 else None


def statement_hypotheses(result: Result, stmt, roles=None) -> tuple[Assumption, ...]:
    """Every hypothesis in force at a typed statement (``Bound`` or ``Rate``) of
    ``result``: the statement's own; the result's, its part's own ``given``
    (:func:`part_of`) and the standing ones (:attr:`Result.standing`) — read with the
    statement's printed ``choices`` substituted, those that reach the statement's symbols
    (:func:`reaching`), a named predicate or a class unless the statement ``embodies``
    it, a relation about the run's state unless the statement's classes imply it (the
    simulated instance meets it) — and the relations the classes and roles in force imply
    among its symbols
    (:func:`theory.classes.implied_hypotheses`, the statement's Rényi order > 1)."""
    own = tuple(stmt.hypotheses)
    symbols = set(stmt.free_symbols)
    for h in own:
        symbols |= _hyp_symbols(h)
    part = part_of(result, stmt.label)
    outer = tuple(result.hypotheses) + (tuple(part.given) if part is not None else ()) \
        + tuple(result.standing)
    choices = dict(getattr(stmt, "choices", ()) or ())
    embodied = list(getattr(stmt, "embodies", ()) or ())
    classes = tuple(getattr(stmt, "problem_class", ()))
    from theory.classes import implied_hypotheses
    # a relation about the run's state (dist ≤ D) that the statement's classes imply holds
    # on every scenario the provider simulates: no condition on its parameters
    by_class = {str(a.expr) for a in implied_hypotheses(
        tuple(Assumption(name=c.describe(), cls=c) for c in classes), roles)
        if a.expr is not None} if roles else set()
    read = []
    for h in outer:
        if h.is_predicate and h.name in embodied:
            continue
        if h.cls is not None and (h.cls in classes or h.cls in embodied):
            continue
        if h.expr is not None and str(h.expr) in by_class:
            continue
        if choices and h.expr is not None:
            e = h.expr.subs(choices, simultaneous=True)
            if e is sp.true:
                continue
            h = replace(h, expr=e)
        elif choices and h.cls is not None:
            h = replace(h, cls=_subs_class(h.cls, choices))
        if h.expr is sp.true:
            continue
        read.append(h)
    hyps = _merge(own, reaching(read, symbols))
    present = set(symbols)
    for h in hyps:
        present |= _hyp_symbols(h)
    classes = tuple(Assumption(name=c.describe(), cls=c, tag=Tag.CLASS) for c in classes)
    orders = (stmt.order,) if getattr(stmt, "order", None) is not None else ()
    implied = implied_hypotheses(hyps + classes, roles, present, orders=orders)
    return _merge(hyps, implied)


def _subs_class(cls, choices: dict):
    """A problem class with ``choices`` substituted in its parameters."""
    ps = {k: v.subs(choices, simultaneous=True) for k, v in cls.params().items()}
    return replace(cls, **ps)


def _walk(result, items, hyps, path, roles, repeated=frozenset()) -> Iterator[Located]:
    prefix = result.id
    for item in items:
        if isinstance(item, Step):
            yield Located(step_id(prefix, path, item.label), item,
                          in_force(result, hyps + item.given, item, roles), path)
        elif isinstance(item, Chain):
            for s in item.steps:
                yield Located(step_id(prefix, path, s.label, item.label, repeated), s,
                              in_force(result, hyps + s.given, s, roles), path)
        elif isinstance(item, CaseSplit):
            for case in item.cases:
                yield from _walk(result, case.proof, hyps + item.given + case.condition,
                                 path + (case.label,), roles, repeated)
        else:
            raise TypeError(f"unknown proof item {item!r}")


def row_origins(result: Result) -> dict[str, str]:
    """The origin (:data:`ORIGINS`) of every row of ``result`` by its id — steps as
    :func:`walk_steps` names them, and the structural rows (``…/<chain>/link-k``,
    ``…/<chain>/concludes``, ``…/<split>/cover``, ``<result>/units``):

    * every row of a pinned variant (``variant_of`` set): ``"variant"``;
    * a step: its ``origin``; unset, ``"printed"`` for a statement part, a step with an
      equation number and a line of a chain (a chain is a printed display), ``"derived"``
      for any other step (a check the encoder adds: mark a printed unnumbered line
      ``origin="printed"``);
    * a chain's links and conclusion: ``"printed"`` when the chain is (one of its steps
      is printed) — a gap in a printed display is a finding about the printed proof;
    * a case cover and the units row: ``"derived"`` (checks the encoder's case analysis and
      the engine add)."""
    out: dict[str, str] = {}
    variant = bool(result.variant_of)
    repeated = repeated_labels(result)

    def of(step: Step, chain_printed: bool = False) -> str:
        if variant:
            return "variant"
        if step.origin is not None:
            return step.origin
        return "printed" if (step.eq or chain_printed) else "derived"

    for s in result.statement:
        out[f"{result.id}/{s.label}"] = "variant" if variant else (s.origin or "printed")

    def walk(items, path):
        for item in items:
            if isinstance(item, Step):
                out[step_id(result.id, path, item.label)] = of(item)
            elif isinstance(item, Chain):
                kinds = [of(s, True) for s in item.steps]
                for s, k in zip(item.steps, kinds):
                    out[step_id(result.id, path, s.label, item.label, repeated)] = k
                structural = ("variant" if variant else
                              "printed" if "printed" in kinds else "derived")
                for k in range(1, len(item.steps)):
                    out[_join(result.id, path + (item.label,), f"link-{k}")] = structural
                out[_join(result.id, path + (item.label,), "concludes")] = structural
            elif isinstance(item, CaseSplit):
                out[_join(result.id, path + (item.label,), "cover")] = (
                    "variant" if variant else "derived")
                for case in item.cases:
                    walk(case.proof, path + (case.label,))
    walk(result.proof, ())
    out[f"{result.id}/units"] = "variant" if variant else "derived"
    return out


def _join(prefix: str, path: tuple[str, ...], label: str) -> str:
    return "/".join((prefix,) + path + (label,))

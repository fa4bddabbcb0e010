"""What every truth provider is and returns (DESIGN.md, *Truth providers*).

A provider says which typed statements it :meth:`~TruthProvider.supports` (by mechanism
type, release, problem classes, parameter domain) and, at a parameter point, computes
the truth for the mechanism on a *scenario* that is a member of every class the
statement assumes — both orders of the adjacent pair, with a certified error:

* RDP statements: ``forward = D_λ(M(D') ‖ M(D))`` ("add": D' has the extra example),
  ``backward = D_λ(M(D) ‖ M(D'))`` ("remove");
* (ε, δ) statements: ``forward``/``backward`` are the exact δ(ε) of the privacy
  profile in each order, at the statement's ε.

``error`` bounds |truth − value| for both numbers (a few ulps relative for closed forms
evaluated in double precision, never a bare 0 for a quadrature).  The
statement checker decides VIOLATED only when ``max − error`` exceeds the bound beyond
its own confirmation at high precision, and HOLDS only when ``max + error`` does not.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable

import mpmath
import sympy as sp

from checks.claim import lambdify


@dataclass(frozen=True)
class Support:
    ok: bool
    reason: str = ""

    def __bool__(self) -> bool:
        return self.ok


@dataclass
class Truth:
    """The truth at one point, both orders, with a certified absolute error: ``error`` for
    both, or one per order (``forward_error``, ``backward_error``; ``error`` is then their
    larger) where the two orders are certified to different precision."""

    forward: float
    backward: float
    error: float = 0.0
    method: str = ""
    scenario: str = ""
    extra: dict = field(default_factory=dict)
    forward_error: float | None = None
    backward_error: float | None = None
    #: explicit certified ends of a measured quantity (:meth:`interval`), which may be
    #: infinite (no order statistic certifies a quantile's lower end at this many runs)
    lo: float | None = None
    hi: float | None = None

    def __post_init__(self):
        if self.forward_error is not None or self.backward_error is not None:
            fe = self.error if self.forward_error is None else self.forward_error
            be = self.error if self.backward_error is None else self.backward_error
            self.forward_error, self.backward_error = fe, be
            self.error = max(fe, be)

    @classmethod
    def interval(cls, lo: float, hi: float, method: str = "", scenario: str = "",
                 extra: dict | None = None, estimate: float | None = None) -> "Truth":
        """A measured quantity certified to lie in [lo, hi] (either end may be infinite),
        with its point ``estimate`` (the midpoint where both ends are finite); one value:
        both orders agree."""
        if estimate is None:
            estimate = (lo + hi) / 2 if math.isfinite(lo) and math.isfinite(hi) else \
                (lo if math.isfinite(lo) else hi)
        half = max(estimate - lo, hi - estimate)
        return cls(estimate, estimate, half, method, scenario, dict(extra or {}), lo=lo, hi=hi)

    @classmethod
    def worst(cls, truths: list["Truth"]) -> "Truth":
        """The truth of the largest of several quantities (the worst of several instances
        at one point): [max of the lower ends, max of the upper ends]; method and scenario
        of the instance with the largest lower end."""
        top = max(truths, key=lambda t: t.lower)
        if len(truths) == 1:
            return top
        return cls.interval(top.lower, max(t.upper for t in truths), top.method,
                            top.scenario, top.extra, estimate=max(t.max for t in truths))

    def errors(self) -> tuple[float, float]:
        """(error of the forward order, error of the backward order)."""
        if self.forward_error is None:
            return self.error, self.error
        return self.forward_error, self.backward_error

    @property
    def max(self) -> float:
        return max(self.forward, self.backward)

    @property
    def lower(self) -> float:
        """A certified lower bound of the larger order's value."""
        if self.lo is not None:
            return self.lo
        fe, be = self.errors()
        if fe == be:
            return self.max - fe
        return max(self.forward - fe, self.backward - be)

    @property
    def upper(self) -> float:
        """A certified upper bound of the larger order's value."""
        if self.hi is not None:
            return self.hi
        fe, be = self.errors()
        if fe == be:
            return self.max + fe
        return max(self.forward + fe, self.backward + be)

    def orders_above(self, bound: float) -> list[str]:
        fe, be = self.errors()
        return [nm for nm, v, e in (("add", self.forward, fe), ("remove", self.backward, be))
                if v - e > bound]


class Unavailable(Exception):
    """The provider cannot evaluate this point (cost, domain); not a finding."""


class NotMember(Exception):
    """No scenario of the provider is a member of every class at this point."""


@dataclass(frozen=True)
class SearchPlan:
    """How the statement driver (:mod:`checks.statements`) searches a statement with a
    provider: a declaration of what the provider's truths cost, never a loop of its own.
    The driver owns every search; the provider says how much of each kind is affordable.

    * ``random``: random admissible points of an explicit form's search (the engine's
      budget caps it); ``anchor_bases``: drawn points each anchor is realised on;
      ``targeted``: a Hypothesis phase targeting truth/bound (cheap truths only);
      ``max_points``: at most this many admissible points evaluated (None: no cap);
    * O-forms: paths start from ``bases`` base points (the anchors realised on the first
      of ``base_tries`` drawn points that admits them, else draws),
      move each of ``variables`` (names; None: every free symbol of the statement) toward
      both ends of its range, ``path_steps`` steps of ×``path_factor`` (÷ toward 0,
      geometric toward an interval's end);
    * ``explicit_paths``: an explicit form follows the same paths too (where its truths
      are too dear for a wide random search, the ends of the range are searched this way);
    * existential constants (:attr:`theory.model.Rate.constants`): ``growth`` names the
      parameter whose path (toward ∞, ``path_steps`` steps of ×``path_factor`` ending at
      the point needing the largest constant) decides whether any constant works.
    """

    random: int = 16
    anchor_bases: int = 2
    base_tries: int = 1
    targeted: bool = True
    max_points: int | None = None
    bases: int = 1
    variables: tuple | None = None
    path_steps: int = 4
    path_factor: float = 10.0
    explicit_paths: bool = False
    #: the parameters along whose paths the (dear) truth is evaluated; along the others
    #: only the certified lower bound (cheap) is followed — None: along every path
    measured: tuple | None = None
    #: base points moved, where admissible, to plain values (1, 2, 1/2 …; 8, 16, 32 … for
    #: integers) except the anchors' own targets: paths that start where a reader can follow
    simple_bases: bool = False
    growth: str | None = None
    #: existential constants: the growth of the certified needed constant that shows no
    #: constant works — ×``growth_step`` at each step and ×``growth_total`` over the path
    growth_step: float = 1.5
    growth_total: float = 4.0


#: the plan of a provider whose truth is a simulation: its anchors realised on one drawn
#: point and a few random points, no targeted phase (each truth costs a simulation)
SIMULATION_PLAN = SearchPlan(random=8, anchor_bases=1, targeted=False)


def dimension_symbols(stmt) -> set:
    """The statement's dimension symbol ``d`` (the base quantity), where its expression
    has one: what a rate provider sizing its family by ``d`` reads."""
    return {s for s in stmt.expr.free_symbols if s.name == "d"}


class TruthProvider:
    """Base class of truth providers — the whole protocol (DESIGN.md, *Truth providers*).

    A provider *answers*; the statement driver (:mod:`checks.statements`) *searches*.  A
    subclass sets ``name`` and ``mechanisms`` (and ``metrics`` for rates, ``classes``,
    ``profiles``) and implements :meth:`truth`.  It may refine :meth:`supports` (call the
    base first), declare its cost (:meth:`plan`), the quantities its scenarios fix
    (:meth:`complete`), membership (:meth:`member`), targets (:meth:`derived`,
    :meth:`anchors`, :meth:`paths`), a certified lower bound where the truth is out of reach
    (:meth:`lower_truth`), a batch form of :meth:`truth` (:meth:`truths`) and a closed form
    (:meth:`closed_form`).  Where two providers support a statement, the one with the
    larger ``priority`` answers; between equal priorities, at each point the truth with the
    tighter certified error (registration order never decides)."""

    name: str = ""
    mechanisms: tuple = ()
    #: problem-class types whose membership :meth:`member` can decide
    classes: tuple = ()
    #: True: the provider computes privacy profiles (ε, δ) too
    profiles: bool = False
    #: the utility metrics (:mod:`theory.metrics`) a rate provider measures; empty: the
    #: provider answers privacy statements (:class:`~theory.model.Bound`) only
    metrics: tuple = ()
    #: the larger answers where two providers support one statement
    priority: int = 0
    #: True: the truth is measured (a simulation): :meth:`truth` takes a ``seed``, its error
    #: is a confidence half-width, and the driver derives one seed per point
    stochastic: bool = False
    #: True: :meth:`truth` takes the hints ``enough`` and ``rel_tol`` (below) and may
    #: then spend less
    takes_hints: bool = False

    def supports(self, stmt) -> Support:
        rate = getattr(stmt, "statement_type", "bound") == "rate"
        if rate and not self.metrics:
            return Support(False, f"{self.name}: privacy statements only")
        if not rate and self.metrics:
            return Support(False, f"{self.name}: rates only")
        if rate and stmt.metric not in self.metrics:
            return Support(False, f"{self.name}: metric {stmt.metric.key} not measured")
        mech = getattr(stmt, "mechanism", None)
        if mech is None or not isinstance(mech, self.mechanisms):
            return Support(False, f"{self.name}: mechanism {type(mech).__name__} not "
                                  "supported")
        if getattr(stmt, "profile", False) and not self.profiles:
            return Support(False, f"{self.name}: no (epsilon, delta) profiles")
        for c in all_classes(stmt):
            if not isinstance(c, self.classes):
                return Support(False, f"{self.name}: no scenario is known to be a member of "
                                      f"{c.name} (the statement assumes it)")
        return Support(True)

    def plan(self, stmt, budget: int) -> SearchPlan:
        """What the driver's search may spend on this statement (see :class:`SearchPlan`)."""
        return SearchPlan()

    def complete(self, stmt, values: dict) -> dict:
        """``values`` with the quantities the provider's scenario fixes set (a class constant
        that is a supremum over the member, e.g. the Lipschitz constant of the power loss);
        raise :class:`Unavailable` where no scenario fits.  Default: ``values``."""
        return values

    def reach(self, stmt, values: dict) -> None:
        """Raise :class:`Unavailable` where the truth at ``values`` is beyond the provider's
        budget — decided from the scenario's size (grid cells, steps, runs, compositions)
        before anything is computed or allocated.  The driver asks it before every truth,
        so a point out of reach costs nothing.  Default: every point is in reach."""

    def reads(self, stmt) -> set:
        """Symbols the truth depends on besides the mechanism's, the order's, the classes',
        a profile's ε and a rate's confidence (e.g. the dimension ``d`` of a rate's family):
        the truth memo is keyed by them, and the search never treats them as analysis
        parameters of the bound."""
        return set()

    def describe(self, stmt) -> str:
        """One line saying what the provider evaluates for ``stmt`` (its family of
        scenarios, runs, error), appended to the statement's detail; "" for nothing."""
        return ""

    def member(self, stmt, values: dict) -> None:
        """Raise :class:`NotMember` when the provider's scenario at ``values`` is not a
        member of every class of the statement."""

    def derived(self, stmt) -> dict[str, sp.Expr]:
        """Named quantities of the statement used by anchors and paths (e.g. the sampling
        rate and the noise multiplier of DP-SGD), as SymPy expressions."""
        out = dict(stmt.mechanism.params())
        if getattr(stmt, "order", None) is not None:
            out["order"] = stmt.order
        return out

    def anchors(self, stmt) -> list[dict[str, float]]:
        """Targets for :meth:`derived` quantities where bounds usually break."""
        return []

    def paths(self, stmt) -> dict[str, list[dict[str, float]]]:
        """Joint paths (sequences of targets) along which O-forms are followed."""
        return {}

    def truth(self, stmt, values: dict, *, precise: bool = False, **kw) -> Truth:
        """The truth at ``values``, both orders, with a certified error.  A provider that
        sets ``takes_hints`` also takes two hints of the precision the caller needs:
        ``enough=x`` (it compares the truth with the bound x only, so a wider certified
        bracket whose upper end is ≤ x will do) and ``rel_tol=r`` (an error up to
        r·max(value, 1e-6) will do).  A truth less precise than the provider's default
        carries ``extra["coarse"] = True``; its bracket is as certified as any.  A
        ``stochastic`` provider takes ``seed=`` (its truth is a measurement: ``error`` is
        the half-width of its confidence interval).  ``precise=True``: the truth a violation
        is confirmed with (``extra["lower_mp"]``: its lower end at 50 digits, where known)."""
        raise NotImplementedError

    def truths(self, stmt, points: list[dict], seeds: list[int]) -> list:
        """:meth:`truth` at several points (a stochastic provider's ``seeds``, one a point),
        each a :class:`Truth` or the exception it raised.  A provider that simulates many
        scenarios faster together overrides it; the default asks one point at a time."""
        out = []
        for v, sd in zip(points, seeds):
            try:
                out.append(self.truth(stmt, v, seed=sd) if self.stochastic
                           else self.truth(stmt, v))
            except (Unavailable, ValueError, ArithmeticError, OverflowError,
                    MemoryError) as exc:
                out.append(exc)
        return out

    def lower_truth(self, stmt, values: dict, *, precise: bool = False) -> Truth | None:
        """A certified *lower bound* of the truth in both orders (``forward``/``backward``
        are lower bounds, ``error`` 0), for points where :meth:`truth` is out of reach or not
        resolved; None where the provider has none.  It can show that a bound is exceeded
        or that a ratio is unbounded, never that a bound holds.  ``precise=True``: at 50
        digits (``extra["lower_mp"]``), what a violation is confirmed with."""
        return None

    def closed_form(self, stmt) -> sp.Expr | None:
        """The truth (the larger of both orders) as a SymPy expression in the statement's
        symbols, where it has a closed form; None otherwise.  The statement checker uses it
        to decide a scenario whose numerical truth ± error straddles the bound exactly
        (a tight bound, truth = bound, holds), instead of calling it undecided."""
        return None


#: measured lower bounds of a provider's truth registered by other parts of the engine (the
#: simulator's membership-inference audit): provider name → functions
_LOWER_SOURCES: dict[str, list] = {}


def lower_bound_source(provider: str):
    """Decorator registering ``fn(provider, stmt, values, **context) -> Truth | None`` — a
    certified (or confidence-bounded, said in its method) lower bound of ``provider``'s
    truth at a point its exact computation cannot reach.  The provider asks its sources
    itself (:func:`lower_bound_sources`); the truth package imports none of them, the
    sources import the truth package (the simulator registers its audit this way)."""
    def deco(fn):
        fns = _LOWER_SOURCES.setdefault(provider, [])
        if all(f.__module__ + f.__qualname__ != fn.__module__ + fn.__qualname__ for f in fns):
            fns.append(fn)
        return fn
    return deco


def lower_bound_sources(provider: str) -> list:
    """The functions registered for ``provider`` by :func:`lower_bound_source`."""
    return list(_LOWER_SOURCES.get(provider, ()))


def is_rate(stmt) -> bool:
    """True for a :class:`~theory.model.Rate` (a utility claim), False for a
    :class:`~theory.model.Bound` (a privacy claim)."""
    return getattr(stmt, "statement_type", "bound") == "rate"


def all_classes(stmt) -> tuple:
    """The problem classes a statement assumes: its ``problem_class`` and the class
    instances among its hypotheses (de-duplicated, order kept)."""
    out = list(getattr(stmt, "problem_class", ()))
    for h in getattr(stmt, "hypotheses", ()):
        if getattr(h, "cls", None) is not None and h.cls not in out:
            out.append(h.cls)
    return tuple(out)


# ----------------------------------------------------------------------------- evaluation
class _Message:
    """An exception message formatted only when read: searches evaluate hypotheses at
    many points and discard most failures, and printing a SymPy expression into every
    discarded message cost more than the evaluation."""
    __slots__ = ("fmt", "args")

    def __init__(self, fmt: str, *args):
        self.fmt, self.args = fmt, args

    def __str__(self):
        return self.fmt.format(*self.args)


def _number(expr: sp.Expr) -> float | None:
    """A constant expression's double value, None unless a finite real."""
    v = complex(expr)
    return None if v.imag or not math.isfinite(v.real) else v.real


@lru_cache(maxsize=None)
def _eval_plan(expr: sp.Basic):
    """What :func:`evaluate` needs of an expression, remembered: ``(expr, None, value)``
    for a constant (value None unless a finite real), else ``(expr, symbol names,
    compiled function)`` — the searches evaluate the same few expressions at ~10⁶ points,
    and working this out each time cost three times the compiled call itself."""
    if expr.is_number:
        return expr, None, _number(expr)
    syms = sorted(expr.free_symbols, key=lambda s: s.name)
    return expr, [s.name for s in syms], lambdify(syms, expr, "math")


def evaluate(expr, values: dict[str, float]) -> float:
    """``expr`` at ``values`` (by symbol name) in double precision; raises Unavailable when
    a symbol has no value or the value is not a finite real."""
    return evaluate_plan(_eval_plan(expr if isinstance(expr, sp.Basic) else sp.sympify(expr)),
                         values)


def evaluator(expr) -> Callable[[dict], float]:
    """``lambda values: evaluate(expr, values)`` with the expression's plan looked up once
    (for a caller that evaluates one expression at many points)."""
    plan = _eval_plan(expr if isinstance(expr, sp.Basic) else sp.sympify(expr))
    return functools.partial(evaluate_plan, plan)


def evaluate_plan(plan, values: dict[str, float]) -> float:
    """:func:`evaluate` of an expression's :func:`_eval_plan`."""
    expr, names, fn = plan
    if names is None:                    # a constant: fn holds its value (None: not real)
        if fn is None:
            raise Unavailable(_Message("{} is not a finite real", expr))
        return fn
    try:
        v = fn(*[values[nm] for nm in names])
    except KeyError as exc:
        raise Unavailable(f"no value for symbol {exc}") from None
    except (ValueError, ZeroDivisionError, OverflowError, TypeError):
        raise Unavailable(_Message("{} cannot be evaluated here", expr)) from None
    if isinstance(v, complex):
        if v.imag:
            raise Unavailable(_Message("{} is not real here", expr))
        v = v.real
    v = float(v)
    if not math.isfinite(v):
        raise Unavailable(_Message("{} is not finite here", expr))
    return v


def batch_counts(mech, values: dict[str, float]) -> tuple[int, int, int]:
    """``(n, b, T)`` of a sampled mechanism at ``values``: positive integers with b ≤ n, else
    :class:`Unavailable` (the truth is out of the provider's reach there)."""
    n, b, T = evaluate(mech.n, values), evaluate(mech.b, values), evaluate(mech.T, values)
    for nm, x in (("n", n), ("b", b), ("T", T)):
        if x != int(x) or x < 1:
            raise Unavailable(f"{nm} = {x:g} is not a positive integer")
    if b > n:
        raise Unavailable("b > n")
    return int(n), int(b), int(T)


def exact_value(x) -> sp.Expr:
    """A float or int as an exact SymPy number (floats exactly, by their binary value)."""
    if isinstance(x, bool):
        raise TypeError("bool is not a number")
    if isinstance(x, int) or (isinstance(x, float) and x.is_integer() and abs(x) < 2**53):
        return sp.Integer(int(x))
    return sp.Rational(float(x))


def evaluate_mp(expr, values: dict[str, float], dps: int = 50) -> mpmath.mpf:
    """``expr`` at ``values`` with mpmath at ``dps`` digits, the values read exactly."""
    expr = sp.sympify(expr)
    subs = {s: exact_value(values[s.name]) for s in expr.free_symbols}
    with mpmath.workdps(dps):
        return mpmath.mpf(sp.N(expr.xreplace(subs), dps))

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

    def __post_init__(self):
        if self.forward_error is not None or self.backward_error is not None:
            fe = self.error if self.forward_error is None else self.forward_error
            be = self.error if self.backward_error is None else self.backward_error
            self.forward_error, self.backward_error = fe, be
            self.error = max(fe, be)

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
        fe, be = self.errors()
        if fe == be:
            return self.max - fe
        return max(self.forward - fe, self.backward - be)

    @property
    def upper(self) -> float:
        """A certified upper bound of the larger order's value."""
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


class TruthProvider:
    """Base class of truth providers.  Subclasses set ``name`` and ``mechanisms`` and
    implement :meth:`truth`; they may refine :meth:`supports`, :meth:`member`,
    :meth:`derived`, :meth:`anchors` and :meth:`paths`."""

    name: str = ""
    mechanisms: tuple = ()
    #: problem-class types whose membership :meth:`member` can decide
    classes: tuple = ()
    #: True: the provider computes privacy profiles (ε, δ) too
    profiles: bool = False
    #: True: :meth:`truth` takes the hints ``enough`` and ``rel_tol`` (below) and may
    #: then spend less
    takes_hints: bool = False

    def supports(self, stmt) -> Support:
        mech = getattr(stmt, "mechanism", None)
        if mech is None or not isinstance(mech, self.mechanisms):
            return Support(False, f"{self.name}: mechanism {type(mech).__name__} not supported")
        if getattr(stmt, "profile", False) and not self.profiles:
            return Support(False, f"{self.name}: no (epsilon, delta) profiles")
        for c in all_classes(stmt):
            if not isinstance(c, self.classes):
                return Support(False, f"{self.name}: no scenario is known to be a member of "
                                      f"{c.name} (the statement assumes it)")
        return Support(True)

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

    def truth(self, stmt, values: dict, *, precise: bool = False) -> Truth:
        """The truth at ``values``, both orders, with a certified error.  A provider that
        sets ``takes_hints`` also takes two hints of the precision the caller needs:
        ``enough=x`` (it compares the truth with the bound x only, so a wider certified
        bracket whose upper end is ≤ x will do) and ``rel_tol=r`` (an error up to
        r·max(value, 1e-6) will do).  A truth less precise than the provider's default
        carries ``extra["coarse"] = True``; its bracket is as certified as any."""
        raise NotImplementedError

    def lower_truth(self, stmt, values: dict) -> Truth | None:
        """A certified *lower bound* of the truth in both orders (``forward``/``backward``
        are lower bounds, ``error`` 0), for points where :meth:`truth` is out of reach; None
        where the provider has none.  Used only to follow an O-form path (truth/expr ≥
        lower/expr can show a ratio is unbounded, never that a bound holds)."""
        return None

    def closed_form(self, stmt) -> sp.Expr | None:
        """The truth (the larger of both orders) as a SymPy expression in the statement's
        symbols, where it has a closed form; None otherwise.  The statement checker uses it
        to decide a scenario whose numerical truth ± error straddles the bound exactly
        (a tight bound, truth = bound, holds), instead of calling it undecided."""
        return None


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

"""Typed problem classes (DESIGN.md, *Data model*), the way PEPit types function classes.

A result states its assumptions on the loss as class instances::

    asm(LSmooth(L), "Assumption 3.1")
    asm(Holder(alpha, L), "Definition 2")      # the Hölder paper's α is its exponent

so that the engine can (1) add the scalar relations a reader grants at that point
(:meth:`ProblemClass.implied`: L-smooth with a minimiser ⇒ gap ≤ (L/2)·dist², …) and
(2) let truth providers admit a scenario only if it is a member of **every** class a
statement assumes (the linear canary is convex and L-smooth for every L, but not
strongly convex).  Classes are plain data: parameters are SymPy expressions in the
paper's own symbols; nothing here evaluates anything.

``of`` says what the class constrains: ``"loss"`` (every per-example loss l_ξ),
``"objective"`` (the average f = E l_ξ) or ``"noise"`` (the gradient noise ∇l_ξ − ∇f).

Roles
-----
:meth:`ProblemClass.implied` speaks of the state at the current iterate through *roles*
that a paper binds to its own scalar stand-ins (``roles={"gap": gap, "dist": dist,
"grad_norm": grad_norm, "diam": D}``): ``gap`` = f(θ) − f(θ*), ``dist`` = ‖θ − θ*‖,
``grad_norm`` = ‖∇f(θ)‖ with θ* an unconstrained minimiser (∇f(θ*) = 0), ``diam`` the
diameter of the domain.  A relation is produced only when every role it uses is bound.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Mapping

import sympy as sp

SCOPES = ("loss", "objective", "noise")
ROLES = ("gap", "dist", "grad_norm", "diam")


def _expr(x):
    return None if x is None else sp.sympify(x)


@dataclass(frozen=True)
class ProblemClass:
    """Base class: subclasses add their parameters as dataclass fields (SymPy exprs)."""

    of: str = field(default="loss", kw_only=True)

    def __post_init__(self):
        if self.of not in SCOPES:
            raise ValueError(f"of must be one of {SCOPES}, got {self.of!r}")
        for f in fields(self):
            if f.name != "of":
                v = getattr(self, f.name)
                if isinstance(v, (int, float, sp.Basic)) and not isinstance(v, bool):
                    object.__setattr__(self, f.name, sp.sympify(v))

    @property
    def name(self) -> str:
        return type(self).__name__

    def params(self) -> dict[str, sp.Expr]:
        """The class's parameters by field name (``of`` excluded)."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if f.name != "of" and isinstance(getattr(self, f.name), sp.Basic)}

    @property
    def free_symbols(self) -> set:
        out: set = set()
        for v in self.params().values():
            out |= v.free_symbols
        return out

    def describe(self) -> str:
        ps = ", ".join(f"{k}={sp.sstr(v)}" for k, v in self.params().items())
        who = {"loss": "each loss l_ξ", "objective": "the objective f",
               "noise": "the gradient noise"}[self.of]
        return f"{who} is {self.name}({ps})"

    def implied(self, roles: Mapping[str, sp.Expr]) -> list[tuple[sp.Basic, str]]:
        """Scalar relations this class implies between bound roles, with their source."""
        return []

    def __str__(self) -> str:
        return self.describe()


def _have(roles, *names) -> bool:
    return all(roles.get(nm) is not None for nm in names)


@dataclass(frozen=True)
class LSmooth(ProblemClass):
    """‖∇l(x) − ∇l(y)‖ ≤ L‖x − y‖ for all x, y."""

    L: sp.Expr

    def implied(self, roles):
        out = []
        if _have(roles, "gap", "dist"):
            out.append((sp.Le(roles["gap"], self.L / 2 * roles["dist"] ** 2),
                        f"L-smooth with a minimiser: f(θ) − f* ≤ (L/2)‖θ − θ*‖² (L = {self.L})"))
        if _have(roles, "grad_norm", "dist"):
            out.append((sp.Le(roles["grad_norm"], self.L * roles["dist"]),
                        "L-smooth with a minimiser: ‖∇f(θ)‖ ≤ L‖θ − θ*‖"))
        if _have(roles, "grad_norm", "gap"):
            out.append((sp.Le(roles["grad_norm"] ** 2, 2 * self.L * roles["gap"]),
                        "L-smooth, bounded below: ‖∇f(θ)‖² ≤ 2L(f(θ) − f*)"))
        return out


@dataclass(frozen=True)
class Convex(ProblemClass):
    """l(y) ≥ l(x) + ⟨∇l(x), y − x⟩ for all x, y."""

    def implied(self, roles):
        if _have(roles, "gap", "grad_norm", "dist"):
            return [(sp.Le(roles["gap"], roles["grad_norm"] * roles["dist"]),
                     "convex: f(θ) − f* ≤ ⟨∇f(θ), θ − θ*⟩ ≤ ‖∇f(θ)‖‖θ − θ*‖")]
        return []


@dataclass(frozen=True)
class StronglyConvex(ProblemClass):
    """l(y) ≥ l(x) + ⟨∇l(x), y − x⟩ + (μ/2)‖y − x‖²."""

    mu: sp.Expr

    def implied(self, roles):
        out = []
        if _have(roles, "gap", "dist"):
            out.append((sp.Ge(roles["gap"], self.mu / 2 * roles["dist"] ** 2),
                        "μ-strongly convex: f(θ) − f* ≥ (μ/2)‖θ − θ*‖²"))
        if _have(roles, "grad_norm", "dist"):
            out.append((sp.Ge(roles["grad_norm"], self.mu * roles["dist"]),
                        "μ-strongly convex: ‖∇f(θ)‖ ≥ μ‖θ − θ*‖"))
        if _have(roles, "gap", "grad_norm"):
            out.append((sp.Le(roles["gap"], roles["grad_norm"] ** 2 / (2 * self.mu)),
                        "μ-strongly convex (Polyak–Łojasiewicz): f(θ) − f* ≤ ‖∇f(θ)‖²/(2μ)"))
        return out


@dataclass(frozen=True)
class Holder(ProblemClass):
    """‖∂l(x) − ∂l(y)‖ ≤ L‖x − y‖^ν with ν ∈ [0, 1] (ν = 1: L-smooth; ν = 0: bounded
    variation of the (sub)gradient, non-smooth)."""

    nu: sp.Expr
    L: sp.Expr

    def implied(self, roles):
        if _have(roles, "gap", "dist"):
            return [(sp.Le(roles["gap"], self.L / (1 + self.nu) * roles["dist"] ** (1 + self.nu)),
                     "ν-Hölder smooth with a minimiser: f(θ) − f* ≤ L‖θ − θ*‖^(1+ν)/(1+ν)")]
        return []


@dataclass(frozen=True)
class Lipschitz(ProblemClass):
    """|l(x) − l(y)| ≤ M‖x − y‖, i.e. every (sub)gradient has norm ≤ M."""

    M: sp.Expr

    def implied(self, roles):
        if _have(roles, "grad_norm"):
            return [(sp.Le(roles["grad_norm"], self.M), "M-Lipschitz: ‖∇f(θ)‖ ≤ M")]
        return []


@dataclass(frozen=True)
class BoundedDomain(ProblemClass):
    """The parameter domain K is closed and convex, of the given ``measure`` (``"diameter"``
    or ``"radius"``): projections Π_K are applied by the algorithm."""

    size: sp.Expr
    measure: str = "diameter"

    def __post_init__(self):
        super().__post_init__()
        if self.measure not in ("diameter", "radius"):
            raise ValueError(f"measure must be 'diameter' or 'radius', got {self.measure!r}")

    @property
    def diameter(self) -> sp.Expr:
        return self.size if self.measure == "diameter" else 2 * self.size

    def describe(self) -> str:
        return f"the domain K is closed, convex, of {self.measure} {sp.sstr(self.size)}"

    def implied(self, roles):
        if _have(roles, "dist"):
            return [(sp.Le(roles["dist"], self.diameter),
                     f"bounded domain: ‖θ − θ*‖ ≤ diam K = {sp.sstr(self.diameter)}")]
        return []


@dataclass(frozen=True)
class GradNoise(ProblemClass):
    """Unbiased stochastic gradients with E‖∇l_ξ(θ) − ∇f(θ)‖² ≤ σ² for every θ."""

    sigma: sp.Expr

    def __post_init__(self):
        object.__setattr__(self, "of", "noise")
        super().__post_init__()


@dataclass(frozen=True)
class BoundedGradient(ProblemClass):
    """‖∇l_ξ(θ)‖ ≤ G for every ξ and θ (per-example gradients bounded)."""

    G: sp.Expr

    def implied(self, roles):
        if _have(roles, "grad_norm"):
            return [(sp.Le(roles["grad_norm"], self.G), "bounded gradients: ‖∇f(θ)‖ ≤ G")]
        return []


@dataclass(frozen=True)
class LowerBounded(ProblemClass):
    """f* = inf f > −∞."""


@dataclass(frozen=True)
class NonNegative(ProblemClass):
    """l_ξ(θ) ≥ 0 for every ξ and θ."""


@dataclass(frozen=True)
class GeneralizedSmooth(ProblemClass):
    """(L0, L1)-smoothness: ‖∇²f(θ)‖ ≤ L0 + L1‖∇f(θ)‖ (Zhang et al. 2020)."""

    L0: sp.Expr
    L1: sp.Expr


def classes_in(assumptions) -> tuple[ProblemClass, ...]:
    """The class instances among assumptions (``Assumption.cls``) or bare instances."""
    out = []
    for a in assumptions or ():
        c = a if isinstance(a, ProblemClass) else getattr(a, "cls", None)
        if c is not None:
            out.append(c)
    return tuple(out)


__all__ = ["ProblemClass", "LSmooth", "Convex", "StronglyConvex", "Holder", "Lipschitz",
           "BoundedDomain", "GradNoise", "BoundedGradient", "LowerBounded", "NonNegative",
           "GeneralizedSmooth", "classes_in", "ROLES", "SCOPES"]

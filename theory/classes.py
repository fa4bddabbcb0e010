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
ROLES = ("gap", "dist", "grad_norm", "diam", "noise_sq", "noise_abs")
#: roles that are not a state's quantity (:func:`implied_hypotheses`)
META_ROLES = ("renyi_order", "probability", "conditional", "states", "random", "aggregates")


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
        if _have(roles, "gap", "diam") and not _have(roles, "dist"):
            out.append((sp.Le(roles["gap"], self.L / 2 * roles["diam"] ** 2),
                        f"L-smooth with a minimiser in K: f(θ) − f* ≤ (L/2)·diam(K)² "
                        f"(L = {self.L})"))
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
        if _have(roles, "gap", "grad_norm", "dist"):
            out.append((sp.Le(roles["gap"], roles["grad_norm"] * roles["dist"]
                              - self.mu / 2 * roles["dist"] ** 2),
                        "μ-strongly convex at θ*: f* ≥ f(θ) + ⟨∇f(θ), θ* − θ⟩ + (μ/2)‖θ − θ*‖²"))
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

    def implied(self, roles):
        if _have(roles, "noise_sq"):
            return [(sp.Le(roles["noise_sq"], self.sigma ** 2),
                     "bounded gradient noise: E‖∇l_ξ − ∇f‖² ≤ σ²")]
        return []


@dataclass(frozen=True)
class AffineGradNoise(ProblemClass):
    """Unbiased stochastic gradients whose deviation is bounded *almost surely* by an
    affine function of the gradient norm: E∇l_ξ(θ) = ∇f(θ) and
    ‖∇l_ξ(θ) − ∇f(θ)‖ ≤ τ0 + τ1‖∇f(θ)‖ for every θ and every ξ (for ERM: every record)."""

    tau0: sp.Expr
    tau1: sp.Expr

    def __post_init__(self):
        object.__setattr__(self, "of", "noise")
        super().__post_init__()

    def implied(self, roles):
        if _have(roles, "noise_abs", "grad_norm"):
            return [(sp.Le(roles["noise_abs"], self.tau0 + self.tau1 * roles["grad_norm"]),
                     "almost-sure affine noise bound: ‖∇l_ξ − ∇f‖ ≤ τ0 + τ1‖∇f‖")]
        return []


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


@dataclass(frozen=True)
class OriginBounds(ProblemClass):
    """The loss and its (sub)gradient at the origin: ``M = sup_ξ ‖∂l_ξ(0)‖`` and
    ``M0 = sup_ξ l_ξ(0)`` (constants of analyses on unbounded domains, where no global
    Lipschitz or range bound exists).  The symbols *are* these suprema: a truth provider
    computes them from its instance rather than sampling them."""

    M: sp.Expr
    M0: sp.Expr


@dataclass(frozen=True)
class MinimiserNorm(ProblemClass):
    """The objective (the population risk) has a minimiser w* over the domain with
    ‖w*‖ = ``r``."""

    r: sp.Expr

    def __post_init__(self):
        object.__setattr__(self, "of", "objective")
        super().__post_init__()


@dataclass(frozen=True)
class InitialGap(ProblemClass):
    """The objective's gap at the algorithm's starting point: f(θ_0) − inf f = ``gap``
    (the constant f(x_0) − f⋆ of non-convex rates).  The symbol *is* that gap: a truth
    provider places θ_0 so that its instance attains it."""

    gap: sp.Expr

    def __post_init__(self):
        object.__setattr__(self, "of", "objective")
        super().__post_init__()


def classes_in(assumptions) -> tuple[ProblemClass, ...]:
    """The class instances among assumptions (``Assumption.cls``) or bare instances."""
    out = []
    for a in assumptions or ():
        c = a if isinstance(a, ProblemClass) else getattr(a, "cls", None)
        if c is not None:
            out.append(c)
    return tuple(out)


IMPLIED_KINDS = ("class", "jensen", "order", "probability", "conditional", "law", "aggregate")

#: str() of SymPy relations, memoised: the same hypotheses are printed for every step of a
#: result, and printing dominated a warm (cached) verify
_TEXT: dict = {}


def _text(expr) -> str:
    try:
        t = _TEXT.get(expr)
    except TypeError:                   # unhashable: print it
        return str(expr)
    if t is None:
        if len(_TEXT) > 200_000:
            _TEXT.clear()
        t = _TEXT[expr] = str(expr)
    return t


def implied_hypotheses(assumptions, roles, present=None, orders=(), kinds=None) -> list:
    """The relations a reader grants beside the printed hypotheses, as
    :class:`~theory.model.Assumption` objects marked ``implied`` with their source:

    * every typed class in force (:meth:`ProblemClass.implied`) on the paper's state
      roles, and on each extra state (``roles["states"]``, with ``diam`` inherited);
    * Jensen on the noise moments: E‖a‖² ≥ (E‖a‖)² (``noise_abs``, ``noise_sq``);
    * a Rényi order is > 1 (``roles["renyi_order"]`` and ``orders``, the orders of the
      result's RDP bounds);
    * a probability lies in [0, 1] (``roles["probability"]``);
    * a conditional expectation is taken on an event of positive probability
      (``roles["conditional"]``: pairs (expectation symbol, event probability));
    * what holds for every law of a declared random variable (``roles["random"]``:
      support bounds transferred to moments, Jensen, Cauchy–Schwarz, moment ordering —
      :func:`theory.stochastic.law_relations`) and what the definition of a declared
      aggregate implies (``roles["aggregates"]``), tagged ``LAW``.

    ``present``: the symbols in play; a relation is granted only when every role symbol
    it involves is in play (the class parameters need not be).  None: no filter.
    ``kinds``: which of :data:`IMPLIED_KINDS` to grant (None: all)."""
    kinds = set(IMPLIED_KINDS if kinds is None else kinds)
    from theory.model import Assumption, Tag, thaw_roles
    roles = thaw_roles(roles or {})
    classes = classes_in(assumptions)
    have = {_text(a.expr) for a in assumptions or () if getattr(a, "expr", None) is not None}
    role_syms: set = set()
    main = {k: sp.sympify(v) for k, v in roles.items() if k in ROLES and v is not None}
    states = [main] + [dict({k: sp.sympify(v) for k, v in st.items() if v is not None},
                            **({"diam": main["diam"]} if "diam" in main and "diam" not in st
                               else {}))
                       for st in roles.get("states", ())]
    for st in states:
        for v in st.values():
            role_syms |= v.free_symbols
    listed = lambda key: [sp.sympify(x) for x in (roles.get(key) or ())]  # noqa: E731
    for x in listed("renyi_order") + listed("probability"):
        role_syms |= x.free_symbols
    conds = [(sp.sympify(e), sp.sympify(p)) for e, p in roles.get("conditional", ())]
    for e, _ in conds:
        role_syms |= e.free_symbols
    out: list = []

    def add(rel, source, tag=Tag.ROLE):
        rel = sp.sympify(rel)
        if rel in (sp.true, True) or _text(rel) in have:
            return
        if present is not None and not ((rel.free_symbols & role_syms) <= set(present)):
            return
        have.add(_text(rel))
        out.append(Assumption(name=_text(rel), expr=rel, where=source, tag=tag))

    smooth = [c for c in classes if isinstance(c, LSmooth)]
    convex = any(isinstance(c, (Convex, StronglyConvex)) for c in classes)
    for st in states:
        for c in (classes if "class" in kinds else ()):
            for rel, source in c.implied(st):
                add(rel, f"implied by {c.name}: {source}", Tag.CLASS)
        if "class" in kinds and convex and _have(st, "gap", "grad_norm", "dist"):
            for c in smooth:     # interpolation of smooth convex functions at (θ, θ*)
                add(sp.Le(st["gap"], st["grad_norm"] * st["dist"]
                          - st["grad_norm"] ** 2 / (2 * c.L)),
                    "implied by LSmooth + convexity: f* ≥ f(θ) + ⟨∇f(θ), θ* − θ⟩ + "
                    "‖∇f(θ)‖²/(2L)", Tag.CLASS)
        if "jensen" in kinds and _have(st, "noise_abs", "noise_sq"):
            add(sp.Le(st["noise_abs"] ** 2, st["noise_sq"]),
                "implied (Jensen): (E‖∇l_ξ − ∇f‖)² ≤ E‖∇l_ξ − ∇f‖²")
    for a in (listed("renyi_order") + [sp.sympify(o) for o in orders]
              if "order" in kinds else ()):
        if isinstance(a, sp.Symbol):
            if present is None or a in present:
                if str(a) not in have:
                    add(sp.Gt(a, 1), f"implied: {a} is a Rényi order (RDP needs order > 1)")
    for p in (listed("probability") if "probability" in kinds else ()):
        add(sp.Ge(p, 0), f"implied: {p} is a probability")
        add(sp.Le(p, 1), f"implied: {p} is a probability")
    if present is not None:
        from theory.stochastic import aggregate_relations, law_relations
        for rv in (roles.get("random", ()) if "law" in kinds else ()):
            for rel, source in law_relations(rv, present):
                add(rel, source, Tag.LAW)
        for ag in (roles.get("aggregates", ()) if "aggregate" in kinds else ()):
            for rel, source in aggregate_relations(ag, present):
                add(rel, source, Tag.LAW)
    for e, p in (conds if "conditional" in kinds else ()):
        if present is None or e.free_symbols <= set(present):
            rel = sp.Gt(p, 0)
            if str(rel) not in have:
                have.add(str(rel))
                out.append(Assumption(name=str(rel), expr=rel, tag=Tag.ROLE,
                                      where=f"implied: {e} is a conditional expectation "
                                            f"given an event of probability {p}, which "
                                            "must be positive"))
    return out


__all__ = ["implied_hypotheses", "META_ROLES", "ProblemClass", "LSmooth", "Convex", "StronglyConvex", "Holder", "Lipschitz",
           "BoundedDomain", "GradNoise", "AffineGradNoise", "BoundedGradient", "LowerBounded", "NonNegative",
           "GeneralizedSmooth", "OriginBounds", "MinimiserNorm", "classes_in", "ROLES",
           "SCOPES"]
__all__ += ["InitialGap"]

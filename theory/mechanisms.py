"""Typed mechanisms (DESIGN.md, *Data model*), the way dp_accounting types its DpEvents.

A privacy statement (:class:`theory.model.Bound`) says *what* is private as a mechanism
instance whose fields are SymPy expressions in the paper's own symbols::

    SampledGaussian(q=b / n, sigma=b * sp.sqrt(beta) * sigma_dp / (2 * C))
    NoisySGD(n=n, b=b, eta=eta, C=C, sigma=sigma_dp, T=T, domain=D)

Truth providers in ``checks.truth`` say which mechanism types they support and evaluate
the fields at a point; nothing here is numeric.  Adjacency is add/remove-one (both
orders of every adjacent pair) unless a mechanism says otherwise.  To analyse a new
algorithm, add a mechanism type here (one dataclass, with its update rule in the
docstring), then a provider and/or a simulator algorithm in ``checks`` — never a special
case for one paper.
"""
from __future__ import annotations

from dataclasses import dataclass, fields

import sympy as sp

RELEASES = ("last", "all")
SAMPLINGS = ("poisson", "fixed", "shuffle", "full")


@dataclass(frozen=True)
class Mechanism:
    """Base class: subclasses add their fields (SymPy expressions or small enums)."""

    def __post_init__(self):
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                object.__setattr__(self, f.name, sp.sympify(v))

    @property
    def name(self) -> str:
        return type(self).__name__

    def params(self) -> dict[str, sp.Expr]:
        """The numeric fields (SymPy expressions) by name; None fields are absent."""
        out = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, sp.Basic):
                out[f.name] = v
        return out

    @property
    def free_symbols(self) -> set:
        out: set = set()
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, sp.Basic):
                out |= v.free_symbols
            elif isinstance(v, Mechanism):
                out |= v.free_symbols
        return out

    def describe(self) -> str:
        parts = []
        for f in fields(self):
            v = getattr(self, f.name)
            if v is None or f.name == "note":
                continue
            parts.append(f"{f.name}={sp.sstr(v) if isinstance(v, sp.Basic) else v}")
        return f"{self.name}({', '.join(parts)})"

    def __str__(self) -> str:
        return self.describe()


@dataclass(frozen=True)
class GaussianMechanism(Mechanism):
    """M(D) = f(D) + N(0, σ² I) with ‖f(D) − f(D')‖₂ ≤ ``sensitivity`` for adjacent D, D'."""

    sensitivity: sp.Expr
    sigma: sp.Expr


@dataclass(frozen=True)
class SampledGaussian(Mechanism):
    """The sampled Gaussian mechanism: Σ_{i∈S} f(D_i) + N(0, σ² I), ‖f(·)‖ ≤ 1 (so ``sigma``
    is the noise multiplier).  ``sampling="poisson"``: S Poisson-sampled with rate ``q``,
    add/remove adjacency; ``"fixed"``: S a uniform subset of size qn drawn without
    replacement, substitution adjacency (one record replaced)."""

    q: sp.Expr
    sigma: sp.Expr
    sampling: str = "poisson"

    def __post_init__(self):
        super().__post_init__()
        if self.sampling not in ("poisson", "fixed"):
            raise ValueError(f"sampling must be 'poisson' or 'fixed', got {self.sampling!r}")


@dataclass(frozen=True)
class Composition(Mechanism):
    """``count`` adaptive compositions of ``mechanism`` (every output released)."""

    mechanism: Mechanism
    count: sp.Expr


@dataclass(frozen=True)
class _Iterative(Mechanism):
    """Base of the iterative SGD mechanisms: their ``release`` and ``sampling`` fields are
    checked here, once."""

    def __post_init__(self):
        super().__post_init__()
        if self.release not in RELEASES:
            raise ValueError(f"release must be one of {RELEASES}, got {self.release!r}")
        if self.sampling not in SAMPLINGS:
            raise ValueError(f"sampling must be one of {SAMPLINGS}, got {self.sampling!r}")


@dataclass(frozen=True)
class NoisySGD(_Iterative):
    """Noisy (projected) SGD with per-example gradient clipping, DP-SGD as most papers
    write it::

        θ_{t+1} = Π_K(θ_t − η((1/b) Σ_{ξ∈B_t} clip_C(∇l_ξ(θ_t)) + ζ_t)),  ζ_t ~ N(0, σ² I),

    t = 0, …, T−1, θ_0 fixed and equal on both datasets; ``sampling`` of the batch B_t
    (``"poisson"``: each example independently with probability b/n, the sum divided by
    the nominal b); K = R^d when ``domain`` is None, else a closed convex set of diameter
    ``domain``.  ``release="last"`` releases θ_T, ``"all"`` the whole trajectory.
    ``sigma`` is the standard deviation of the noise added to the *averaged* clipped
    gradient (a paper that adds N(0, σ²C²) to the sum writes ``sigma=sig * C / b``)."""

    n: sp.Expr
    b: sp.Expr
    eta: sp.Expr
    C: sp.Expr
    sigma: sp.Expr
    T: sp.Expr
    domain: sp.Expr | None = None
    sampling: str = "poisson"
    release: str = "last"


@dataclass(frozen=True)
class NormalizedSGD(_Iterative):
    """Noisy SGD with per-example *regularised normalisation* (DP-NSGD)::

        θ_{t+1} = θ_t − η ( (1/b) Σ_{ξ∈B_t} ∇l_ξ(θ_t) / (r + ‖∇l_ξ(θ_t)‖) + ζ_t ),
        ζ_t ~ N(0, σ² I),

    t = 0, …, T−1, θ_0 fixed, K = R^d; ``sampling`` of B_t as in :class:`NoisySGD` (the
    sum divided by the nominal b).  Each normalised gradient has norm < 1, so ``sigma``
    is the noise multiplier of the averaged update's sensitivity (up to 1/b)."""

    n: sp.Expr
    b: sp.Expr
    eta: sp.Expr
    r: sp.Expr
    sigma: sp.Expr
    T: sp.Expr
    sampling: str = "fixed"
    release: str = "last"


@dataclass(frozen=True)
class ErrorFeedbackSGD(_Iterative):
    """Noisy SGD with clipped error feedback (two clipping thresholds, a hidden error
    buffer e_t that is never released)::

        v_t     = (1/b) Σ_{ξ∈B_t} clip_{C1}(∇l_ξ(θ_t)) + clip_{C2}(e_t),
        θ_{t+1} = θ_t − η (v_t + ζ_t),                   ζ_t ~ N(0, σ² I),
        e_{t+1} = e_t + (1/b) Σ_{ξ∈B_t} ∇l_ξ(θ_t) − v_t,  e_0 = 0,

    t = 0, …, T−1, θ_0 fixed and equal on both datasets; ``sampling`` of B_t as in
    :class:`NoisySGD` (the sums divided by the nominal b); ``release="all"`` releases
    θ_0, …, θ_T (the hidden e_t never), ``"last"`` only θ_T.  ``sigma`` is the standard
    deviation of the noise added to v_t.  At T = 1 (e_0 = 0, clip(0) = 0) it is one step
    of :class:`NoisySGD` with threshold C1."""

    n: sp.Expr
    b: sp.Expr
    eta: sp.Expr
    C1: sp.Expr
    C2: sp.Expr
    sigma: sp.Expr
    T: sp.Expr
    sampling: str = "poisson"
    release: str = "all"


@dataclass(frozen=True)
class AveragedSGD(Mechanism):
    """SGD with one example drawn uniformly per step, optional Gaussian perturbation of
    every gradient and of the output, the average of the iterates released::

        w_1 = 0,  w_{t+1} = Π_K(w_t − η(∂l(w_t; z_{i_t}) + b_t)),  i_t ~ Unif([n]),
        b_t ~ N(0, σ_grad² I),   t = 1, …, T,
        released: (1/T) Σ_{t=1}^T w_t + b,  b ~ N(0, σ_out² I),

    K = R^d when ``radius`` is None, else the closed ball B(0, radius).  ``sigma_grad = 0``
    and ``sigma_out = 0`` give plain SGD with iterate averaging (output perturbation sets
    ``sigma_out``, gradient perturbation ``sigma_grad``).  Adjacency: one example
    replaced."""

    n: sp.Expr
    eta: sp.Expr
    T: sp.Expr
    sigma_grad: sp.Expr = sp.Integer(0)
    sigma_out: sp.Expr = sp.Integer(0)
    radius: sp.Expr | None = None


__all__ = ["Mechanism", "GaussianMechanism", "SampledGaussian", "Composition", "NoisySGD",
           "NormalizedSGD", "ErrorFeedbackSGD", "AveragedSGD", "RELEASES", "SAMPLINGS"]

"""Every paper quantity, once: a SymPy Symbol with its assumptions and its dimension.

Dimensions (DESIGN.md, *Units*): parameter Θ and loss F.  Gradients are F/Θ
(``C``, ``sigma_dp``, ``sigma_sgd``), step sizes Θ²/F (``eta``), smoothness and
strong convexity F/Θ² (``L``, ``mu``), domain sizes Θ (``D``, ``R``, shifts ``z``),
counts, orders and privacy losses are dimensionless.

A dimension is a SymPy monomial in the two base symbols :data:`THETA` and :data:`LOSS`
(``LOSS / THETA`` for a gradient); ``checks.units`` walks an expression and combines
them.  Symbol assumptions are kept minimal (``positive``, ``integer``, ``real``):
anything stronger (``alpha > 1``, ``beta < 1``) is a *hypothesis* and must be stated
where the paper states it, so that dropping it is visible.

Paper modules that need a quantity not listed here declare it with :func:`quantity`
(which registers its dimension), never with a bare ``sympy.Symbol``.
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

#: Base dimensions: parameter space (Θ) and loss value (F).
THETA = sp.Symbol("Θ", positive=True)
LOSS = sp.Symbol("F", positive=True)
DIMLESS = sp.Integer(1)

GRADIENT = LOSS / THETA
STEPSIZE = THETA**2 / LOSS
CURVATURE = LOSS / THETA**2


@dataclass(frozen=True)
class QuantityInfo:
    """What the registry knows about one symbol."""

    symbol: sp.Symbol
    dim: sp.Expr
    description: str
    latex: str


_REGISTRY: dict[str, QuantityInfo] = {}


def quantity(name: str, dim: sp.Expr, description: str, latex: str | None = None,
             **assumptions) -> sp.Symbol:
    """Create (or return the already declared) symbol ``name`` with dimension ``dim``.

    Declaring the same name twice with a different dimension or different assumptions
    is an error: a quantity has one meaning across all papers.
    """
    if not name or not isinstance(name, str):
        raise ValueError(f"name must be a non-empty string, got {name!r}")
    if not assumptions:
        assumptions = {"real": True}
    sym = sp.Symbol(name, **assumptions)
    old = _REGISTRY.get(name)
    if old is not None:
        if old.symbol != sym or sp.simplify(old.dim - dim) != 0:
            raise ValueError(
                f"quantity {name!r} already declared with dim {old.dim} and assumptions "
                f"{old.symbol.assumptions0}; got dim {dim} and {sym.assumptions0}")
        return old.symbol
    _REGISTRY[name] = QuantityInfo(sym, sp.sympify(dim), description, latex or sp.latex(sym))
    return sym


def info(sym: sp.Symbol | str) -> QuantityInfo:
    """The registered :class:`QuantityInfo` of a symbol (by symbol or name)."""
    name = sym if isinstance(sym, str) else sym.name
    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"symbol {name!r} has no declared dimension; declare it with "
                       "theory.symbols.quantity()") from None


def dimension_of_symbol(sym: sp.Symbol) -> sp.Expr:
    return info(sym).dim


def declared() -> dict[str, QuantityInfo]:
    """All declared quantities by name (a copy)."""
    return dict(_REGISTRY)


# --------------------------------------------------------------------------------------
# Privacy accounting (dimensionless)
alpha = quantity("alpha", DIMLESS, "Rényi order", r"\alpha", positive=True)
epsilon = quantity("epsilon", DIMLESS, "privacy loss", r"\varepsilon", positive=True)
delta = quantity("delta", DIMLESS, "DP failure probability", r"\delta", positive=True)
q = quantity("q", DIMLESS, "sampling rate b/n", "q", positive=True)
sigma = quantity("sigma", DIMLESS, "noise multiplier of the sampled Gaussian mechanism",
                 r"\sigma", positive=True)
beta = quantity("beta", DIMLESS, "noise split: fraction of the DP noise used by Lemma 3.2",
                r"\beta", positive=True)
gamma = quantity("gamma", DIMLESS, "RDP parameter of a mechanism (Def. 2.2)", r"\gamma",
                 positive=True)
K = quantity("K", DIMLESS, "K = log(1 + 1/(q(alpha-1))) of Lemma A.13", "K", positive=True)

# Counts (dimensionless integers)
n = quantity("n", DIMLESS, "dataset size", "n", positive=True, integer=True)
b = quantity("b", DIMLESS, "batch size", "b", positive=True, integer=True)
T = quantity("T", DIMLESS, "number of iterations", "T", positive=True, integer=True)
t = quantity("t", DIMLESS, "iteration index", "t", nonnegative=True, integer=True)
tau = quantity("tau", DIMLESS, "iteration where the induction stops (Thm 3.4)", r"\tau",
               nonnegative=True, integer=True)
d = quantity("d", DIMLESS, "parameter dimension", "d", positive=True, integer=True)
m = quantity("m", DIMLESS, "number of passes / epochs", "m", positive=True, integer=True)

# Optimisation constants
eta = quantity("eta", STEPSIZE, "step size", r"\eta", positive=True)
L = quantity("L", CURVATURE, "smoothness constant", "L", positive=True)
mu = quantity("mu", CURVATURE, "strong convexity constant", r"\mu", positive=True)
lam = quantity("lambda", CURVATURE, "strong convexity (lambda, as some papers write it)",
               r"\lambda", positive=True)

# Gradient scales
C = quantity("C", GRADIENT, "gradient clipping threshold", "C", positive=True)
sigma_dp = quantity("sigma_dp", GRADIENT, "DP noise scale (std of the averaged-gradient noise)",
                    r"\sigma_{\mathrm{DP}}", positive=True)
sigma_sgd = quantity("sigma_sgd", GRADIENT, "SGD gradient noise (std bound, Asm 3.6)",
                     r"\sigma_{\mathrm{SGD}}", positive=True)
G = quantity("G", GRADIENT, "Lipschitz constant of the loss (gradient bound)", "G",
             positive=True)

# Lengths in parameter space
D = quantity("D", THETA, "diameter of the parameter domain", "D", positive=True)
R = quantity("R", THETA, "radius of the parameter domain", "R", positive=True)
z = quantity("z", THETA, "shift of the shifted Rényi divergence", "z", nonnegative=True)
a_t = quantity("a_t", THETA, "auxiliary shift sequence a_t of the proofs", "a_t", real=True)
z_t = quantity("z_t", THETA, "shift z_t at iteration t", "z_t", nonnegative=True)
z_t1 = quantity("z_t1", THETA, "shift z_{t+1} at iteration t+1", "z_{t+1}", nonnegative=True)

# Optimisation state (scalar stand-ins for norms and gaps; utility analysis)
grad_norm = quantity("grad_norm", GRADIENT, "‖∇l(θ_t)‖", r"\|\nabla l(\theta_t)\|",
                     nonnegative=True)
dist = quantity("dist", THETA, "‖θ_t − θ*‖", r"\|\theta_t-\theta^*\|", nonnegative=True)
gap = quantity("gap", LOSS, "l(θ_t) − l(θ*)", r"l(\theta_t)-l^*", nonnegative=True)

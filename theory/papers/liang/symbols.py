"""The symbols of Liang et al. (both versions, ``liang-icml`` and ``liang-aaai``), with
their dimensions (:mod:`theory.quantities`).

Gradients are F/Θ (``C``, ``sigma_dp``, ``sigma_sgd``), step sizes Θ²/F (``eta``),
smoothness and strong convexity F/Θ² (``L``, ``mu``), domain sizes Θ (``D``, ``R``,
shifts ``z``); counts, orders and privacy losses are dimensionless.  ``alpha`` is the
Rényi order throughout this paper.  The base quantities (n, b, T, t, d, m, q, ε, δ, c_O)
come from :data:`theory.quantities.BASE`.
"""
from __future__ import annotations

from theory.quantities import (BASE, CURVATURE, DIMLESS, GRADIENT, LOSS, STEPSIZE, THETA,
                               b, c_O, d, delta, epsilon, m, n, q, t, T, table)

TABLE = table("liang", "Liang, Zhang, He, Wu, Xing (both versions)")
quantity = TABLE.quantity


def info(sym):
    return TABLE.info(sym)


def declared():
    return TABLE.declared()


# --------------------------------------------------------------------------------------
# Privacy accounting (dimensionless)
alpha = quantity("alpha", DIMLESS, "Rényi order", r"\alpha", positive=True)
sigma = quantity("sigma", DIMLESS, "noise multiplier of the sampled Gaussian mechanism",
                 r"\sigma", positive=True)
beta = quantity("beta", DIMLESS, "noise split: fraction of the DP noise used by Lemma 3.2",
                r"\beta", positive=True)
gamma = quantity("gamma", DIMLESS, "RDP parameter of a mechanism (Def. 2.2)", r"\gamma",
                 positive=True)
K = quantity("K", DIMLESS, "K = log(1 + 1/(q(alpha-1))) of Lemma A.13", "K", positive=True)

# Counts (dimensionless integers)
tau = quantity("tau", DIMLESS, "iteration where the induction stops (Thm 3.4)", r"\tau",
               nonnegative=True, integer=True)

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

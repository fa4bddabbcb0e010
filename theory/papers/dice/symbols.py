"""The symbols of Zhang, Bu, Wu, Hong, *Differentially Private SGD Without Clipping Bias:
An Error-Feedback Approach* (DiceSGD), with their dimensions (:mod:`theory.quantities`).

The paper's own names (Table 4): N, B dataset and batch size; x, e, w model, feedback
error, privacy noise; C1, C2 the two clipping thresholds (gradients, F/Θ); σ₁ the DP
noise standard deviation (a gradient: w_t ~ N(0, σ₁² I) is added to the update
direction v_t); σ the variance constant of Assumption 3.4 (a gradient); G the gradient
bound of Assumption 3.5; L, μ smoothness and strong convexity (F/Θ²); η the step size
(Θ²/F); α the Rényi order (Def. A.4); p = B/N the sub-sampling rate (Sec. A.2).

Scalar stand-ins for random quantities (expectations, norms, divergences) are declared
here too, each with the quantity it stands for in its description.
"""
from __future__ import annotations

from theory.quantities import (CURVATURE, DIMLESS, GRADIENT, LOSS, STEPSIZE, THETA, d,
                               delta, epsilon, t, T, table)

TABLE = table("dice", "Zhang, Bu, Wu, Hong (DiceSGD)")
quantity = TABLE.quantity

# ---- counts (Table 4) ----------------------------------------------------------------
N = quantity("N", DIMLESS, "dataset size", "N", positive=True, integer=True)
B = quantity("B", DIMLESS, "minibatch size", "B", positive=True, integer=True)
tau = quantity("tau", DIMLESS, "summation index τ", r"\tau", nonnegative=True, integer=True)
p = quantity("p", DIMLESS, "sub-sampling rate p = B/N (Sec. A.2)", "p", positive=True)
alpha = quantity("alpha", DIMLESS, "Rényi order (Def. A.4)", r"\alpha", positive=True)

# ---- gradient scales (F/Θ) -----------------------------------------------------------
C = quantity("C", GRADIENT, "clipping threshold (Alg. 1; the constant C of Thm 3.7)", "C",
             positive=True)
C1 = quantity("C1", GRADIENT, "per-sample gradient clipping threshold (Alg. 2)", "C_1",
              positive=True)
C2 = quantity("C2", GRADIENT, "feedback-error clipping threshold (Alg. 2)", "C_2",
              positive=True)
sigma1 = quantity("sigma1", GRADIENT, "DP noise standard deviation σ₁ (w_t ~ N(0, σ₁² I))",
                  r"\sigma_1", positive=True)
sigma = quantity("sigma", GRADIENT, "variance constant σ of Assumption 3.4", r"\sigma",
                 positive=True)
G = quantity("G", GRADIENT, "gradient bound sup‖∇f‖ of Assumption 3.5", "G", positive=True)
Gp = quantity("Gp", GRADIENT, "G' := max{0, G + σ − C1} (proof of (9))", "G'",
              nonnegative=True)
Delta_f = quantity("Delta_f", GRADIENT, "ℓ2 sensitivity Δ_f of f in Def. 2.2 (a gradient-"
                   "sized output, as the paper applies it)", r"\Delta_f", positive=True)
sigma_g = quantity("sigma_g", GRADIENT, "noise std σ of the Gaussian mechanism (Def. 2.2)",
                   r"\sigma", positive=True)
e_norm = quantity("e_norm", GRADIENT, "‖e_t‖ (proof of (9))", r"\|e_t\|", nonnegative=True)
e_prev = quantity("e_prev", GRADIENT, "‖e_{t−1}‖ (proof of (9))", r"\|e_{t-1}\|",
                  nonnegative=True)
gsum = quantity("gsum", GRADIENT, "(1/B)Σ_i max{0, ‖g_i^{t−1}‖ − C1} (proof of (9))",
                r"\frac1B\sum\max\{0,\|g_i\|-C_1\}", nonnegative=True)
e1 = quantity("e1", GRADIENT, "a 1-D feedback error e_t (Sec. A.2, first term of (20))",
              "e_t", real=True)
e1p = quantity("e1p", GRADIENT, "a 1-D feedback error e'_t (Sec. A.2, first term of (20))",
               "e'_t", real=True)
gnorm = quantity("gnorm", GRADIENT, "‖∇f(x_t)‖ (Case II of the proof of Thm 3.6)",
                 r"\|\nabla f(x_t)\|", positive=True)

# ---- optimisation constants ----------------------------------------------------------
L = quantity("L", CURVATURE, "smoothness constant (Assumption 3.2)", "L", positive=True)
mu = quantity("mu", CURVATURE, "strong convexity constant (Assumption 3.3)", r"\mu",
              positive=True)
eta = quantity("eta", STEPSIZE, "step size η", r"\eta", positive=True)
Delta0 = quantity("Delta0", LOSS, "f(x_0) − f⋆", r"f(x_0)-f^\star", positive=True)

# ---- stand-ins for expectations (proof of Thm 3.6) ------------------------------------
Et_grad = quantity("Et_grad", GRADIENT**2, "E_t‖∇f(x_t)‖², t drawn with probability "
                   "A_t / Σ A_t (Thm 3.6, eq. (4))", r"\mathbb E_t\|\nabla f(x_t)\|^2",
                   nonnegative=True)
SA = quantity("SA", DIMLESS, "Σ_{t=0}^{T−1} A_t, the weights of (12)", r"\sum_t A_t",
              positive=True)
SAX = quantity("SAX", GRADIENT**2, "Σ_{t=0}^{T−1} A_t ‖∇f(x_t)‖² (in expectation)",
               r"\sum_t A_t\|\nabla f(x_t)\|^2", nonnegative=True)
B_T = quantity("B_T", DIMLESS, "B_T := T + Σ_t A_t of (13)", "B_T", positive=True)
A_t = quantity("A_t", DIMLESS, "the weight A_t of (12)", "A_t", nonnegative=True)
alpha_e = quantity("alpha_e", DIMLESS, "clipping factor α_e^t = min{1, C2/‖e_t‖} of (8)",
                   r"\alpha_{\mathbf e}^t", positive=True)
alpha_e1 = quantity("alpha_e1", DIMLESS, "α_e^1 = min{1, C2/‖e_1‖}, the clipping factor of "
                    "the first feedback error (8)", r"\alpha_{\mathbf e}^1", positive=True)
e1_norm = quantity("e1_norm", GRADIENT, "‖e_1‖, the first feedback error (proof of (9))",
                   r"\|e_1\|", nonnegative=True)
g0 = quantity("g0", GRADIENT, "‖∇f(x_0)‖ at the starting point", r"\|\nabla f(x_0)\|",
              nonnegative=True)
ae1 = quantity("ae1", DIMLESS, "α_e^{t+1} (telescoping of A_t, three terms)", r"\alpha_1",
               positive=True)
ae2 = quantity("ae2", DIMLESS, "α_e^{t+2}", r"\alpha_2", positive=True)
ae3 = quantity("ae3", DIMLESS, "α_e^{t+3}", r"\alpha_3", positive=True)
Lg = quantity("Lg", DIMLESS, "log(1/δ)", r"\log(1/\delta)", positive=True)
c_rdp = quantity("c_rdp", DIMLESS, "RDP slope c: H_T is (α, cα)-RDP (Sec. A.2)", "c",
                 positive=True)
x_ = quantity("x_", GRADIENT, "a 1-D argument x of c(x) = x − clip(x, C) (Lemma A.1)", "x",
              real=True)
y_ = quantity("y_", GRADIENT, "a 1-D argument y of c(y) (Lemma A.1)", "y", real=True)
cO_grad = quantity("cO_grad", GRADIENT, "the constant hidden in Corollary 3.8's O(·): it "
                   "carries √(L(f(x_0) − f⋆)) and d, so it has a dimension", r"c_{\mathcal O}",
                   positive=True)
Var_cX = quantity("Var_cX", GRADIENT**2, "Var(c(X)) (Lemma A.1)", r"\mathrm{Var}(c(X))",
                  nonnegative=True)
Var_X = quantity("Var_X", GRADIENT**2, "Var(X) (Lemma A.1)", r"\mathrm{Var}(X)",
                 nonnegative=True)
D_mix = quantity("D_mix", DIMLESS, "the right side of (21): D_α of a two-component Gaussian "
                 "mixture against μ0", r"D_\alpha(\text{mix}\|\mu_0)", nonnegative=True)
Et_v = quantity("Et_v", GRADIENT**2, "E_t‖v_t‖² (proof of (10))", r"\mathbb E_t\|v_t\|^2",
                nonnegative=True)

# ---- privacy stand-ins ----------------------------------------------------------------
eps_dp = quantity("eps_dp", DIMLESS, "the smallest ε for which the mechanism is (ε, δ)-DP",
                  r"\epsilon_{DP}", positive=True)
D_rdp = quantity("D_rdp", DIMLESS, "a Rényi divergence D_α(·‖·)", r"D_\alpha",
                 nonnegative=True)
D_sgm = quantity("D_sgm", DIMLESS, "D_α(M(D)‖M(D')) of the sub-sampled Gaussian mechanism "
                 "(Lemma A.10)", r"D_\alpha^{SGM}", nonnegative=True)
D_gauss = quantity("D_gauss", DIMLESS, "D_α(N(a, s²)‖N(b, s²)) (Lemma A.7)",
                   r"D_\alpha(\mathcal N(a,s^2)\|\mathcal N(b,s^2))", nonnegative=True)
a_ = quantity("a_mean", GRADIENT, "mean a of Lemmas A.7-A.9", "a", real=True)
b_ = quantity("b_mean", GRADIENT, "mean b of Lemmas A.7-A.8", "b", real=True)
c_ = quantity("c_mean", GRADIENT, "mean c of Lemma A.8", "c", real=True)
s_ = quantity("s_std", GRADIENT, "common standard deviation σ of Lemmas A.7-A.9", r"\sigma",
              positive=True)
beta = quantity("beta", DIMLESS, "the β > 0 of (5) and Lemma A.8", r"\beta", positive=True)
eps_t = quantity("eps_t", DIMLESS, "per-step RDP ε_t of A_1^t given H_t (Sec. A.2)",
                 r"\epsilon_t", nonnegative=True)
mG = quantity("mG", GRADIENT, "min{C2, G'} (the reading of G̃, Thm 3.7)", r"\min\{C_2,G'\}",
              nonnegative=True)

# ---- Example B.1 ----------------------------------------------------------------------
Cb = quantity("Cb", DIMLESS, "the clipping threshold C of Example B.1 (a 1-D toy with "
              "dimensionless x, ξ and gradients)", "C", positive=True)
Cp = quantity("Cp", DIMLESS, "C' = ⌈C⌉ + 1 of Example B.1 (also a count: N = C' + 1)", "C'",
              positive=True)
x_tilde = quantity("x_tilde", DIMLESS, "the clipped-SGD stationary point x̃⋆ of Example B.1",
                   r"\tilde x^\star", real=True)

__all__ = [n_ for n_ in dir() if not n_.startswith("_")] + ["a_", "b_", "c_", "s_"]

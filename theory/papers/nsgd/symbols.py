"""nsgd: the symbol table of *Normalized/Clipped SGD with Perturbation for Differentially
Private Non-Convex Optimization* (DP-NSGD vs DP-SGD; text rendering
``004_a52a5530363ebbda.txt``).

The paper's own names are kept: N, B dataset and batch size, γ = B/N (App. E), r the
regulariser of DP-NSGD (3), c the clipping threshold of DP-SGD (2), σ the noise multiplier,
(L0, L1) the generalised smoothness of Definition 2.2, (τ0, τ1) the almost-sure gradient
noise bound of Assumption 2.2, α the scaling constant of Lemmas C.1/D.1 (α0 of (27)/(38)),
D_f = f(x_0) − f* (Assumption 2.1).  The Rényi order of App. E is also written α by the
paper; here it is ``alpha_r`` (LaTeX α kept).

Dimensions (Θ parameter length, F loss value): gradients, r, c, τ0 are F/Θ; τ1 is
dimensionless; L0 is F/Θ² and L1 is 1/Θ (L1‖∇f‖ must be F/Θ²).  DP-NSGD adds z ~ N(0, σ²I)
to the *normalised* gradient h g (dimensionless), so its step size η is a length Θ;
DP-SGD adds z̄ ~ N(0, c²σ²I) to the clipped gradient (F/Θ), so its step size ``etab`` is
Θ²/F; σ is dimensionless in both.  The learning rates the paper prints, (4) and (8), then
do not carry these dimensions: ``dpcheck`` lists that as a units finding.

The random quantities of one iteration are reduced to scalars at the current iterate
x_k: s = ‖∇f(x_k)‖, e_n = ‖g_k − ∇f(x_k)‖, ip = ⟨∇f(x_k), g_k − ∇f(x_k)⟩; then
‖g_k‖ = √(s² + 2 ip + e_n²) and |ip| ≤ s e_n (Cauchy–Schwarz).  Expectations E_k[·] over
the gradient noise are stand-in symbols (``E_*``) whose rows are judged by the worst-case
oracle (the exact worst case over finitely supported noise laws meeting the moment
constraints, a linear programme).
"""
import sympy as sp

from theory.quantities import DIMLESS, GRADIENT, LOSS, STEPSIZE, THETA, d, delta, epsilon, T, table

TABLE = table("nsgd", "DP-NSGD vs DP-SGD for non-convex ERM (normalised/clipped SGD)")
Q = TABLE.quantity

CURV = LOSS / THETA**2
INV_G = THETA / LOSS          # the dimension of h = 1/(r + ‖g‖)

# --- data, batches, privacy --------------------------------------------------------------
N = Q("N", DIMLESS, "number of samples", "N", positive=True, integer=True)
B = Q("B", DIMLESS, "mini-batch size", "B", positive=True, integer=True)
gamma = Q("gamma", DIMLESS, "sampling rate γ = B/N (App. E)", r"\gamma", positive=True)
sigma = Q("sigma", DIMLESS, "noise multiplier σ", r"\sigma", positive=True)
c1 = Q("c1", DIMLESS, "the absolute constant c₁ of Lemma 3.1", "c_1", positive=True)
c2 = Q("c2", DIMLESS, "the absolute constant c₂ of Lemma 3.1", "c_2", positive=True)
alpha_r = Q("alpha_r", DIMLESS, "Rényi order α of App. E (44)", r"\alpha", positive=True)
eps_M = Q("eps_M", DIMLESS, "ε_M(α), the RDP functional (44) of a mechanism", r"\epsilon_M",
          nonnegative=True)
eps_sum = Q("eps_sum", DIMLESS, "Σ_i ε_{M_i}(α) (Proposition E.2)", r"\sum\epsilon_{M_i}",
            nonnegative=True)
eps_dp = Q("eps_dp", DIMLESS, "the smallest ε' for which the mechanism is (ε', δ)-DP",
           r"\epsilon_{DP}", positive=True)
LOG = sp.log(1 / delta)

# --- smoothness and noise (Def. 2.2, Assumptions 2.1-2.2) ----------------------------------
L0 = Q("L0", CURV, "L₀ of (L0, L1)-generalised smoothness", "L_0", positive=True)
L1 = Q("L1", 1 / THETA, "L₁ of (L0, L1)-generalised smoothness", "L_1", positive=True)
tau0 = Q("tau0", GRADIENT, "τ₀ of Assumption 2.2", r"\tau_0", positive=True)
tau1 = Q("tau1", DIMLESS, "τ₁ of Assumption 2.2 (0 ≤ τ₁ < 1)", r"\tau_1", nonnegative=True)
D_f = Q("D_f", LOSS, "D_f = f(x_0) − f* (Assumption 2.1)", "D_f", positive=True)
L = Q("L", CURV, "smoothness constant of Assumption A.1", "L", positive=True)
G = Q("G", GRADIENT, "Lipschitz constant of Assumption A.1", "G", positive=True)

# --- algorithms (Algorithm 1, (2), (3)) ----------------------------------------------------
r = Q("r", GRADIENT, "regulariser r of DP-NSGD, h = 1/(r + ‖g‖) (3)", "r", positive=True)
c = Q("c", GRADIENT, "clipping threshold c of DP-SGD (2)", "c", positive=True)
eta = Q("eta", THETA, "step size η of DP-NSGD (the update moves η(hg + z), hg and z "
        "dimensionless)", r"\eta", positive=True)
etab = Q("etab", STEPSIZE, "step size η of DP-SGD (the update moves η(h̄g + z̄))", r"\eta",
         positive=True)
etap = Q("etap", THETA, "another step size η' (is (29) the minimiser?)", r"\eta'",
         positive=True)
etabp = Q("etabp", STEPSIZE, "another DP-SGD step size η' (is (40) the minimiser?)", r"\eta'",
          positive=True)
alpha = Q("alpha", DIMLESS, "the scaling constant α of Lemmas B.3, B.5, C.1, D.1 (0 < α < 1)",
          r"\alpha", positive=True)

# --- one iteration, reduced to scalars ------------------------------------------------------
s = Q("s", GRADIENT, "s = ‖∇f(x_k)‖", r"\|\nabla f(x_k)\|", nonnegative=True)
en = Q("en", GRADIENT, "e_n = ‖g_k − ∇f(x_k)‖", r"\|g_k-\nabla f(x_k)\|", nonnegative=True)
ip = Q("ip", GRADIENT**2, "ip = ⟨∇f(x_k), g_k − ∇f(x_k)⟩", r"\langle\nabla f,g-\nabla f\rangle",
       real=True)
gn = Q("gn", GRADIENT, "‖g_k‖", r"\|g_k\|", nonnegative=True)
v1 = Q("v1", DIMLESS, "a 1-D summand h⁽¹⁾g⁽¹⁾ (Cauchy–Schwarz in (14), B = 2)", "v_1", real=True)
v2 = Q("v2", DIMLESS, "a 1-D summand h⁽²⁾g⁽²⁾ (Cauchy–Schwarz in (14), B = 2)", "v_2", real=True)
a_ = Q("a_", GRADIENT, "component of g − ∇f along ∇f (2-D reduction)", "a", real=True)
b_ = Q("b_", GRADIENT, "component of g − ∇f orthogonal to ∇f (2-D reduction)", "b", real=True)

h_k = Q("h_k", INV_G, "h_k = 1/(r + ‖g_k‖) (3), a function of the draw g_k", "h_k",
        positive=True)
hb_k = Q("hb_k", DIMLESS, "h̄_k = min{1, c/‖g_k‖} (2), a function of the draw g_k", r"\bar h_k",
         positive=True)

#: ‖g_k‖ in terms of (s, ip, e_n)
GN = sp.sqrt(s**2 + 2 * ip + en**2)

# --- expectations E_k[·] at x_k (stand-ins) -------------------------------------------------
E_hg = Q("E_hg", GRADIENT, "E_k⟨h_k∇f(x_k), g_k⟩ (DP-NSGD)", r"\mathbb E_k\langle h\nabla f,g\rangle",
         real=True)
E_h = Q("E_h", INV_G, "E_k[h_k] (DP-NSGD)", r"\mathbb E_k[h_k]", positive=True)
E_hip = Q("E_hip", GRADIENT, "E_k[h_k⟨∇f, g_k − ∇f⟩] (DP-NSGD)",
          r"\mathbb E_k[h\langle\nabla f,g-\nabla f\rangle]", real=True)
E_hg2 = Q("E_hg2", DIMLESS, "E_k‖h_k g_k‖²", r"\mathbb E_k\|h_kg_k\|^2", nonnegative=True)
E_h2 = Q("E_h2", INV_G**2, "E_k[h_k²]", r"\mathbb E_k[h_k^2]", nonnegative=True)
E_h2ip = Q("E_h2ip", DIMLESS, "E_k[h_k²⟨g_k − ∇f, ∇f⟩]", r"\mathbb E_k[h^2\langle g-\nabla f,\nabla f\rangle]",
           real=True)
E_h2e2 = Q("E_h2e2", DIMLESS, "E_k[h_k²‖g_k − ∇f‖²]", r"\mathbb E_k[h^2\|g-\nabla f\|^2]",
           nonnegative=True)
E_sum2 = Q("E_sum2", DIMLESS, "E_k‖Σ_{i∈S_k} h_k⁽ⁱ⁾g_k⁽ⁱ⁾‖² (14)", r"\mathbb E_k\|\sum h g\|^2",
           nonnegative=True)
Eb_hg = Q("Eb_hg", GRADIENT**2, "E_k⟨h̄_k∇f(x_k), g_k⟩ (DP-SGD)", r"\mathbb E_k\langle\bar h\nabla f,g\rangle",
          real=True)
Eb_h = Q("Eb_h", DIMLESS, "E_k[h̄_k] (DP-SGD)", r"\mathbb E_k[\bar h_k]", positive=True)
Eb_hip = Q("Eb_hip", GRADIENT**2, "E_k[h̄_k⟨∇f, g_k − ∇f⟩]", r"\mathbb E_k[\bar h\langle\nabla f,g-\nabla f\rangle]",
           real=True)
Eb_hg2 = Q("Eb_hg2", GRADIENT**2, "E_k‖h̄_k g_k‖²", r"\mathbb E_k\|\bar h_kg_k\|^2", nonnegative=True)
Eb_h2 = Q("Eb_h2", DIMLESS, "E_k[h̄_k²]", r"\mathbb E_k[\bar h_k^2]", nonnegative=True)
Eb_h2ip = Q("Eb_h2ip", GRADIENT**2, "E_k[h̄_k²⟨g_k − ∇f, ∇f⟩]", r"\mathbb E_k[\bar h^2\langle g-\nabla f,\nabla f\rangle]",
            real=True)
Eb_h2e2 = Q("Eb_h2e2", GRADIENT**2, "E_k[h̄_k²‖g_k − ∇f‖²]", r"\mathbb E_k[\bar h^2\|g-\nabla f\|^2]",
            nonnegative=True)
Emv = Q("Emv", THETA**2, "E_k‖x_{k+1} − x_k‖² (DP-NSGD, (14))", r"\mathbb E_k\|x_{k+1}-x_k\|^2",
        nonnegative=True)
Emvb = Q("Emvb", THETA**2, "E_k‖x_{k+1} − x_k‖² (DP-SGD)", r"\mathbb E_k\|x_{k+1}-x_k\|^2",
         nonnegative=True)
dF = Q("dF", LOSS, "f(x_k) − E_k[f(x_{k+1})] (descent of one step)", r"f(x_k)-\mathbb E_kf(x_{k+1})",
       real=True)
A_ = Q("A_", GRADIENT, "A(‖∇f(x_k)‖) of (16)", r"A(\|\nabla f\|)", real=True)
B_ = Q("B_", GRADIENT**2, "B(‖∇f(x_k)‖) of (20)", r"B(\|\nabla f\|)", real=True)
gA = Q("gA", GRADIENT, "𝔄 = ηE⟨∇f, hg⟩ / η of Example 3.1 (the first-order term)", r"\mathfrak A/\eta",
       real=True)

# --- sums over iterations (telescoping of C.2 / D.2) ----------------------------------------
S_U = Q("S_U", GRADIENT, "E Σ_{k∈U} ‖∇f(x_k)‖", r"\sum_{k\in\mathcal U}\|\nabla f(x_k)\|",
        nonnegative=True)
S_Uc2 = Q("S_Uc2", GRADIENT**2, "E Σ_{k∉U} ‖∇f(x_k)‖²", r"\sum_{k\notin\mathcal U}\|\nabla f(x_k)\|^2",
          nonnegative=True)
nU = Q("nU", DIMLESS, "|U|", r"|\mathcal U|", nonnegative=True, integer=True)
nUc = Q("nUc", DIMLESS, "|U^c|", r"|\mathcal U^c|", nonnegative=True, integer=True)
Emin = Q("Emin", GRADIENT, "E[min_{0≤k<T} ‖∇f(x_k)‖]", r"\mathbb E\min_k\|\nabla f(x_k)\|",
         nonnegative=True)
Rsum = Q("Rsum", GRADIENT, "the right side of the summed inequality (after /Tη)", "R",
         real=True)
Delta = Q("Delta", GRADIENT, "Δ of the proofs of Theorems 3.2 and 3.4 ((41))", r"\Delta",
          positive=True)
s0 = Q("s0", GRADIENT, "‖∇f(x_0)‖ (a T = 2 instance of (30)/(42))", r"\|\nabla f(x_0)\|",
       nonnegative=True)
s1 = Q("s1", GRADIENT, "‖∇f(x_1)‖ (a T = 2 instance of (30)/(42))", r"\|\nabla f(x_1)\|",
       nonnegative=True)
C_ = Q("C_", DIMLESS, "the constant C of (5)/(9) (depends on τ, L only)", "C", positive=True)
Cp_ = Q("Cp_", DIMLESS, "the constant C' of (6)/(10)", "C'", positive=True)

# --- Example 2.3 -----------------------------------------------------------------------------
C_w = Q("C_w", DIMLESS, "bound ‖w‖ ≤ C_w of Example 2.3 (predictors, dimensionless)", "C_w",
        positive=True)
C_v = Q("C_v", DIMLESS, "bound |v| ≤ C_v of Example 2.3", "C_v", positive=True)
lam_min = Q("lam_min", DIMLESS, "λ_min(E[ww^T]) of Example 2.3", r"\lambda_{min}", positive=True)
xs_norm = Q("xs_norm", DIMLESS, "‖x*‖ (Example 2.3; x dimensionless there)", r"\|x^*\|",
            nonnegative=True)
dx = Q("dx", DIMLESS, "‖x − x*‖ (Example 2.3)", r"\|x-x^*\|", nonnegative=True)
wdx = Q("wdx", DIMLESS, "|w^T(x − x*)| (Example 2.3, 1-D reduction)", r"|w^T(x-x^*)|",
        nonnegative=True)
u_ = Q("u_", DIMLESS, "|v|, the response (Example 2.3)", "|v|", nonnegative=True)
wn = Q("wn", DIMLESS, "‖w‖ (Example 2.3)", r"\|w\|", nonnegative=True)
gradL = Q("gradL", DIMLESS, "‖∇L(x)‖ = ‖E[ww^T](x − x*)‖ (Example 2.3)", r"\|\nabla L(x)\|",
          nonnegative=True)

__all__ = [n_ for n_ in dir() if not n_.startswith("_")] + ["a_", "b_", "A_", "B_", "C_", "Cp_", "u_"]

E_fg = Q("E_fg", GRADIENT**2, "E_k⟨∇f(x_k), g_k⟩ (= ‖∇f‖² by unbiasedness)", r"\mathbb E_k\langle\nabla f,g\rangle",
         real=True)
Eb_cK = Q("Eb_cK", GRADIENT**2, "E_k[c⟨∇f, g_k⟩/(c + ‖g_k‖)] (proof of Lemma B.5)",
          r"\mathbb E_k\frac{c\langle\nabla f,g\rangle}{c+\|g\|}", real=True)
E_ig = Q("E_ig", INV_G, "E_k[1/‖g_k‖] (proof of Lemma B.5)", r"\mathbb E_k\|g_k\|^{-1}",
         positive=True)
eps_p = Q("eps_p", DIMLESS, "the ε = c1γ²T of the last sentence of Lemma 3.1's proof", r"\epsilon",
          positive=True)
sigma_p = Q("sigma_p", DIMLESS, "the σ = c2γ√(T log(1/δ))/(Bε) of the last sentence of Lemma 3.1's "
            "proof", r"\sigma", positive=True)

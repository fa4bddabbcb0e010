"""holder: the symbol table of Wang, Lei, Ying, Zhang — *Differentially Private SGD with
Non-Smooth Losses* (text rendering ``003_ae9d1ed971b16d33.txt``).

The paper's own names are kept: α is the **Hölder exponent** (α ∈ [0, 1]), L the Hölder
constant, λ the **Rényi order**, β the **split of the privacy budget** of Algorithm 2,
γ a confidence level, p the free parameter of the elementary inequality
(a+b)² ≤ (1+p)a² + (1+1/p)b² in the proof of Theorem 7.

Dimensions (base Θ = parameter length, F = loss value): ‖∂l(w) − ∂l(w')‖ ≤ L‖w − w'‖^α
gives L the dimension F/Θ^(1+α); c_{α,1} (eq. (2)) has F^(1/(1+α))/Θ (Lemma 19:
‖∂l‖ ≤ c_{α,1} l^(α/(1+α))); c_{α,2}² η^(2/(1−α)) is a squared distance, so c_{α,2} has
Θ/(Θ²/F)^(1/(1−α)), the dimension of L^(1/(1−α)); C_α (Lemma 20) has F.

Where the paper gives one letter two meanings, the second one gets a suffix (with the
paper's LaTeX kept): σ is the output noise (Θ) of Algorithm 1 and the gradient noise
(F/Θ) of Algorithm 2 (``sigma_g``); p is the Young parameter of Theorem 7's proof and the
subsampling rate of Lemma 3 (``p_s``); Δ is the sensitivity of a released point (Θ,
Lemma 2, Algorithm 1) and of a released gradient (F/Θ, Lemma 3 applied in Theorem 11,
``Delta_g``).
"""
import sympy as sp

from theory.quantities import DIMLESS, GRADIENT, LOSS, STEPSIZE, THETA, table

TABLE = table("holder", "Wang, Lei, Ying, Zhang: DP-SGD with non-smooth (Hölder) losses")
Q = TABLE.quantity

# --- the loss class (Sec. 1, Sec. 2.1) ------------------------------------------------
alpha = Q("alpha", DIMLESS, "Hölder exponent of the (sub)gradient, alpha in [0, 1]",
          r"\alpha", nonnegative=True)
L = Q("L", LOSS / THETA ** (1 + alpha), "Hölder constant: ||dl(w)-dl(w')|| <= L||w-w'||^alpha",
      "L", positive=True)
M = Q("M", GRADIENT, "M = sup_z ||dl(0, z)||_2", "M", nonnegative=True)
M0 = Q("M0", LOSS, "M_0 = sup_z l(0, z)", "M_0", nonnegative=True)
R = Q("R", THETA, "radius of the ball B(0, R) containing W", "R", positive=True)
G = Q("G", THETA, "bound on the output of A (Lemma 1)", "G", positive=True)

# --- SGD (Definition 1, Algorithms 1-2) ----------------------------------------------
eta = Q("eta", STEPSIZE, "constant step size eta_t = eta", r"\eta", positive=True)
# T, n, d, t, epsilon, delta come from the base table

# --- constants of Sec. 2.2.1 ----------------------------------------------------------
c_a1 = Q("c_a1", LOSS ** (1 / (1 + alpha)) / THETA, "c_{alpha,1} of eq. (2)", r"c_{\alpha,1}",
         positive=True)
c_a2 = Q("c_a2", THETA ** (1 - 2 / (1 - alpha)) * LOSS ** (1 / (1 - alpha)), "c_{alpha,2} (Sec. 2.2.1)", r"c_{\alpha,2}",
         nonnegative=True)
C_a = Q("C_a", LOSS, "C_alpha of Lemma 20", r"C_{\alpha}", positive=True)
c_gT = Q("c_gT", DIMLESS, "c_{gamma,T} of Theorem 7", r"c_{\gamma,T}", nonnegative=True)
c_at = Q("c_at", GRADIENT, "c_{alpha,t} of eq. (9): bound on ||dl(w_t, z)||", r"c_{\alpha,t}",
         positive=True)

# --- stability, privacy ---------------------------------------------------------------
gamma = Q("gamma", DIMLESS, "confidence level", r"\gamma", positive=True)
gamma0 = Q("gamma0", DIMLESS, "failure probability of the UAS bound (Lemma 1)",
           r"\gamma_0", positive=True)
Delta = Q("Delta", THETA, "l2-sensitivity of a released point (Def. 4, Lemma 2)", r"\Delta",
          positive=True)
Delta_A = Q("Delta_A", THETA, "UAS bound Delta_A (Def. 2)", r"\Delta_{\mathcal A}",
            positive=True)
Delta_sgd = Q("Delta_sgd", THETA, "Delta_SGD(gamma) of Theorem 7(a)", r"\Delta_{SGD}",
              positive=True)
Delta_sgd_b = Q("Delta_sgd_b", THETA, "tilde Delta_SGD(gamma) of Theorem 7(b)",
                r"\tilde\Delta_{SGD}", positive=True)
sup_delta = Q("sup_delta", THETA, "sup_{S~S'} delta_A(S, S') = sup ||A(S) - A(S')||",
              r"\sup_{S\simeq S'}\delta_{\mathcal A}", nonnegative=True)
sigma = Q("sigma", THETA, "output-perturbation noise standard deviation (Lemma 2, Alg. 1)",
          r"\sigma", positive=True)
sigma_g = Q("sigma_g", GRADIENT, "gradient-perturbation noise standard deviation (Alg. 2)",
            r"\sigma", positive=True)
Delta_g = Q("Delta_g", GRADIENT, "l2-sensitivity of a released gradient (Lemma 3)",
            r"\Delta", positive=True)
p_s = Q("p_s", DIMLESS, "subsampling rate p of Lemma 3", "p", positive=True)
lam = Q("lam", DIMLESS, "Renyi order lambda", r"\lambda", positive=True)
rho = Q("rho", DIMLESS, "RDP level rho", r"\rho", nonnegative=True)
beta = Q("beta", DIMLESS, "privacy-budget split beta of Algorithm 2", r"\beta", positive=True)
k = Q("k", DIMLESS, "number of composed mechanisms (Lemma 4)", "k", positive=True,
      integer=True)

# --- proof stand-ins (scalar values of random or sup quantities) -----------------------
p = Q("p", DIMLESS, "free parameter of (a+b)^2 <= (1+p)a^2 + (1+1/p)b^2 (proof of Thm 7)",
      "p", positive=True)
D_lam = Q("D_lam", DIMLESS, "D_lambda(A(S) || A(S')) (Def. 5)", r"D_\lambda", nonnegative=True)
eps_dp = Q("eps_dp", DIMLESS, "smallest eps of (eps, delta)-DP", r"\epsilon_{DP}",
           positive=True)
X_cnt = Q("X_cnt", DIMLESS, "sum_j I[i_j = i] (number of draws of the differing index)",
          "X", nonnegative=True)
wnorm2 = Q("wnorm2", THETA ** 2, "||w_t||_2^2", r"\|w_t\|^2", nonnegative=True)
wnext2 = Q("wnext2", THETA ** 2, "||w_{t+1}||_2^2", r"\|w_{t+1}\|^2", nonnegative=True)
gnorm = Q("gnorm", GRADIENT, "||dl(w_t, z_{i_t})||_2", r"\|\partial\ell\|", nonnegative=True)
inner = Q("inner", LOSS, "<w_t, dl(w_t, z_{i_t})>", r"\langle w_t,\partial\ell\rangle",
          real=True)
lw = Q("lw", LOSS, "l(w_t, z_{i_t})", r"\ell(w_t,z)", nonnegative=True)
l0 = Q("l0", LOSS, "l(0, z_{i_t})", r"\ell(0,z)", nonnegative=True)
diff2 = Q("diff2", THETA ** 2, "||w_t - w'_t||_2^2", r"\|w_t-w'_t\|^2", nonnegative=True)
diff2_next = Q("diff2_next", THETA ** 2, "||w_{t+1} - w'_{t+1}||_2^2",
               r"\|w_{t+1}-w'_{t+1}\|^2", nonnegative=True)
gdiff = Q("gdiff", GRADIENT, "||dl(w'_t, z'_i) - dl(w_t, z_i)||_2", r"\|\partial\ell'-\partial\ell\|",
          nonnegative=True)
bnorm = Q("bnorm", THETA, "||b||_2 (output noise)", r"\|b\|", nonnegative=True)
wbar = Q("wbar", THETA, "||bar w||_2", r"\|\bar w\|", nonnegative=True)
a_el = Q("a_el", THETA, "a in (a+b)^2 <= (1+p)a^2 + (1+1/p)b^2", "a", real=True)
b_el = Q("b_el", THETA, "b in (a+b)^2 <= (1+p)a^2 + (1+1/p)b^2", "b", real=True)
growth = Q("growth", DIMLESS, "(1+p)^{sum_j I[i_j = i]} (proof of Theorem 7)",
           r"(1+p)^{\sum\mathbb I}", positive=True)
wstar = Q("wstar", THETA, "||w*||_2", r"\|w^*\|", nonnegative=True)

# --- the (ε, δ) display in the proof of Theorem 8 (probabilities of one event E) -------
P_E = Q("P_E", DIMLESS, "P(w_priv in E)", r"\mathbb P(w_{priv}\in E)", nonnegative=True)
P_Ep = Q("P_Ep", DIMLESS, "P(w'_priv in E)", r"\mathbb P(w'_{priv}\in E)", nonnegative=True)
P_B = Q("P_B", DIMLESS, "P(I in B)", r"\mathbb P(I\in\mathcal B)", nonnegative=True)
P_EBc = Q("P_EBc", DIMLESS, "P(w_priv in E, I in B^c)", r"\mathbb P(w_{priv}\in E\cap I\in\mathcal B^c)",
          nonnegative=True)
P_EpB = Q("P_EpB", DIMLESS, "P(w'_priv in E, I in B)", r"\mathbb P(w'_{priv}\in E\cap I\in\mathcal B)",
          nonnegative=True)
a_B = Q("a_B", DIMLESS, "P(w_priv in E | I in B)", r"\mathbb P(w_{priv}\in E|I\in\mathcal B)",
        nonnegative=True)
a_Bp = Q("a_Bp", DIMLESS, "P(w'_priv in E | I in B)", r"\mathbb P(w'_{priv}\in E|I\in\mathcal B)",
         nonnegative=True)

# --- generalisation (Lemma 1 / Lemma 27) -----------------------------------------------
gen_gap = Q("gen_gap", LOSS, "|R(A(S)) - R_S(A(S))|", r"|\mathcal R(A(S))-\mathcal R_S(A(S))|",
            nonnegative=True)
c_gen = Q("c_gen", DIMLESS, "the constant c of Lemma 1 / Lemma 27 (not given)", "c",
          positive=True)
lA = Q("lA", LOSS, "l(A(S), z)", r"\ell(A(S),z)", nonnegative=True)
gA = Q("gA", GRADIENT, "||dl(A(S), z)||_2", r"\|\partial\ell(A(S),z)\|", nonnegative=True)
inner_A = Q("inner_A", LOSS, "<dl(A(S), z), A(S)>", r"\langle\partial\ell(A(S),z),A(S)\rangle",
            real=True)
nA = Q("nA", THETA, "||A(S)||_2", r"\|A(S)\|", nonnegative=True)

# --- misc. stand-ins of Sec. 3 -----------------------------------------------------------
wn = Q("wn", THETA, "||w_t||_2", r"\|w_t\|", nonnegative=True)
gt_ = Q("gt_", DIMLESS, "tilde gamma of Lemma 14", r"\tilde\gamma", positive=True)
kap = Q("kap", DIMLESS, "(t/n)(1 + c_{gamma,t})", r"\frac tn(1+c_{\gamma,t})", positive=True)

# --- risks (error decompositions (3), (4), (12)) -----------------------------------------
R_priv = Q("R_priv", LOSS, "R(w_priv)", r"\mathcal R(w_{priv})", real=True)
R_bar = Q("R_bar", LOSS, "R(bar w)", r"\mathcal R(\bar w)", real=True)
RS_bar = Q("RS_bar", LOSS, "R_S(bar w)", r"\mathcal R_S(\bar w)", real=True)
RS_priv = Q("RS_priv", LOSS, "R_S(w_priv)", r"\mathcal R_S(w_{priv})", real=True)
RS_star = Q("RS_star", LOSS, "R_S(w*)", r"\mathcal R_S(w^*)", real=True)
R_star = Q("R_star", LOSS, "R(w*)", r"\mathcal R(w^*)", real=True)
excess = Q("excess", LOSS, "R(w_priv) - R(w*)", r"\mathcal R(w_{priv})-\mathcal R(w^*)", real=True)
Xin = Q("Xin", LOSS, "<w_t, dl(w_t, z_{i_t})> + l(0, z_{i_t}) (>= l(w_t, z_{i_t}) >= 0 by convexity)",
        r"\langle w_t,\partial\ell\rangle+\ell(0,z)", nonnegative=True)
Yv = Q("Yv", DIMLESS, "a >= 0 in Young's inequality ab <= a^p/p + b^q/q", "a", nonnegative=True)
Bv = Q("Bv", DIMLESS, "b >= 0 in Young's inequality", "b", nonnegative=True)
tch = Q("tch", DIMLESS, "t of Lemma 15 (Gaussian norm Chernoff)", "t", positive=True)
Xsq = Q("Xsq", DIMLESS, "||X||_2^2 of Lemma 15 (X standard Gaussian in R^k)", r"\|X\|^2",
        nonnegative=True)
mu_ = Q("mu_", DIMLESS, "mu = E[X] (Lemma 14)", r"\mu", positive=True)
X_sum = Q("X_sum", DIMLESS, "X = sum_i X_i (Lemma 14)", "X", nonnegative=True)
X_dev = Q("X_dev", DIMLESS, "X - E[X] (Lemmas 16-18) or sum xi_i - sum E xi_i", r"X-\mathbb E X",
          real=True)
t_dev = Q("t_dev", DIMLESS, "deviation t of Lemmas 16-18", "t", positive=True)

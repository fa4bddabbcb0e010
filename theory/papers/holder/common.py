"""holder: the paper's recurring expressions, written once (Sec. 2.2.1 and Sec. 3).

Readings chosen where the text rendering is ambiguous (the LaTeX form is authoritative):

* eq. (2): c_{α,1} = (1 + 1/α)^{α/(1+α)} L^{1/(1+α)} for α ∈ (0, 1], M + L for α = 0;
* c_{α,2} = √((1−α)/(1+α)) (2^{−α} L)^{1/(1−α)} (so c_{α,2}² = (1−α)/(1+α)(2^{−α}L)^{2/(1−α)},
  as restated in the proof of Theorem 7);
* C_α = (1−α)/(1+α) c_{α,1}^{2(1+α)/(1−α)} (α/(1+α))^{2α/(1−α)} + 2 sup_z l(0; z)
  (``M0`` = sup_z l(0, z), the paper's M_0 of Lemma 1);
* c_{γ,T} = max{(3n log(n/γ)/T)^{1/2}, 3n log(n/γ)/T};
* Δ_SGD(γ) = (e(c_{α,2}² T η^{2/(1−α)} + 4(M + L(C_α T η)^{α/2})² η² (1 + (T/n)(1 + c_{γ,T}))
  (T/n)(1 + c_{γ,T})))^{1/2}; Δ̃_SGD the same with M + L R^α.
"""
import sympy as sp

from theory.papers.holder.symbols import (C_a, L, M, M0, R, alpha, beta, c_a1, c_a2, c_gT,
                                          eta, gamma, lam)
from theory.quantities import T, delta, epsilon, n

E = sp.E
LOG_D = sp.log(1 / delta)

# eq. (2) and the constants after it
C_A1_POS = (1 + 1 / alpha) ** (alpha / (1 + alpha)) * L ** (1 / (1 + alpha))   # α ∈ (0, 1]
C_A1_ZERO = M + L                                                            # α = 0
C_A2 = sp.sqrt((1 - alpha) / (1 + alpha)) * (2 ** (-alpha) * L) ** (1 / (1 - alpha))
C_A2_SQ = (1 - alpha) / (1 + alpha) * (2 ** (-alpha) * L) ** (2 / (1 - alpha))
C_ALPHA = ((1 - alpha) / (1 + alpha) * c_a1 ** (2 * (1 + alpha) / (1 - alpha))
           * (alpha / (1 + alpha)) ** (2 * alpha / (1 - alpha)) + 2 * M0)


#: c_{α,1} of (2) with its two cases, and C_α written with it
C_A1 = sp.Piecewise((C_A1_ZERO, sp.Eq(alpha, 0)), (C_A1_POS, True))
C_ALPHA_FULL = C_ALPHA.subs(c_a1, C_A1)


def c_gamma(g, t=T):
    """c_{γ,t} = max{(3n log(n/γ)/t)^{1/2}, 3n log(n/γ)/t} (Theorem 7)."""
    x = 3 * n * sp.log(n / g) / t
    return sp.Max(sp.sqrt(x), x)


KAPPA = T / n * (1 + c_gT)                        # (T/n)(1 + c_{γ,T})
GRAD_UNB = M + L * (C_a * T * eta) ** (alpha / 2)  # the gradient bound of (9) at t = T
GRAD_B = M + L * R ** alpha                       # the gradient bound on B(0, R)


def delta_sgd_sq(grad):
    """Δ_SGD(γ)² (grad = M + L(C_α Tη)^{α/2}) or Δ̃_SGD(γ)² (grad = M + L R^α), c_{γ,T}
    kept as the symbol ``c_gT``."""
    return E * (c_a2 ** 2 * T * eta ** (2 / (1 - alpha))
                + 4 * grad ** 2 * eta ** 2 * (1 + KAPPA) * KAPPA)


DSGD = sp.sqrt(delta_sgd_sq(GRAD_UNB))
DSGD_B = sp.sqrt(delta_sgd_sq(GRAD_B))

# Algorithm 2 / Theorem 11
LAM_ALG2 = LOG_D / ((1 - beta) * epsilon) + 1                    # λ of Theorem 11
SIGMA_G_SQ = 14 * GRAD_B ** 2 * T / (beta * n ** 2 * epsilon) * LAM_ALG2   # Alg. 2, line 3

# Lemma 13 (T = n, δ = 1/n²): λ = 2 log(n)/((1 − β)ε) + 1 and σ² = 14(M + LR^α)² λ/(βnε)
LAM_13 = 2 * sp.log(n) / ((1 - beta) * epsilon) + 1
S_13 = sp.Rational(7, 2) * lam / (beta * n * epsilon)      # σ²/(4(M+LR^α)²) at σ² of Lemma 13
COND_32 = S_13 - sp.Rational(67, 100)                      # (32): ≥ 0
COND_33 = sp.Rational(2, 3) * S_13 * sp.log(n / (lam * (1 + S_13))) - (lam - 1)  # (33): ≥ 0
N3 = sp.cbrt(n) - 1                                        # n^{1/3} − 1
EPS_13 = (7 * N3 + 4 * sp.log(n) * n + 7) / (2 * n * N3)   # the threshold of Lemma 13
B39 = 1 + 7 / (sp.Rational(134, 100) * n * epsilon)
C39 = 7 * (2 * sp.log(n) + epsilon) / (sp.Rational(134, 100) * n * epsilon ** 2)
F39 = beta ** 2 - B39 * beta + C39                          # f(β) of (39)
B44 = 1 + 7 / (2 * n * N3 * epsilon)
C44 = 7 * (2 * sp.log(n) + epsilon) / (2 * n * N3 * epsilon ** 2)
G44 = beta ** 2 - B44 * beta + C44                          # g(β) of (44)
DISC44 = B44 ** 2 - 14 * (2 * sp.log(n) + epsilon) / (n * N3 * epsilon ** 2)
BETA3 = (B44 - sp.sqrt(DISC44)) / 2
BETA4 = (B44 + sp.sqrt(DISC44)) / 2
DISC39 = B39 ** 2 - 28 * (2 * sp.log(n) + epsilon) / (sp.Rational(134, 100) * n * epsilon ** 2)
BETA1 = (B39 - sp.sqrt(DISC39)) / 2
EPS_DISC44 = 7 / (2 * n * N3) + 2 * sp.sqrt(7 * sp.log(n) / (n * N3))
EPS_SECOND = (sp.log(n) * (14 * sp.log(n) * N3 + 162 * n - 63)
              / (9 * n * (2 * sp.log(n) * N3 - 9)))

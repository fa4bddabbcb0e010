"""Shared vocabulary of the two versions of Liang, Zhang, He, Wu, Xing — *An Improved
Privacy and Utility Analysis of Differentially Private SGD with Bounded Domain and Smooth
Losses* (``liang-icml``, ``liang-aaai``): the opaque divergence quantities of the privacy
proofs, the two conditions defining α*(q, σ) (Table 1 / Lemma A.12 ICML / A.13 AAAI),
the sort key that keeps results in paper order, and small helpers.

Divergences are *opaque* non-negative dimensionless symbols, one per printed quantity,
so that the scalar algebra between them (``(1−q)X + q(2αC²/(βb²σ²) + X) = X + …``) is
checked by the engine while the probabilistic steps that relate them are recorded with
their justification (post-processing, convexity, composition, ...).
"""
from __future__ import annotations

import re
from functools import lru_cache

import sympy as sp

from theory.model import Assumption, ImplicitBound, asm
from theory.papers.liang.symbols import DIMLESS, GRADIENT, CURVATURE, THETA, quantity
from theory.papers.liang.symbols import C, D, L, alpha, b, beta, eta, n, q, sigma, sigma_dp

# --------------------------------------------------------------------------------------
# liang privacy (helper B): opaque divergences and auxiliary quantities
_NN = dict(nonnegative=True)


def _div(name: str, description: str, latex: str) -> sp.Symbol:
    return quantity(name, DIMLESS, description, latex, **_NN)


# Lemma 3.2 / B.1
D_psi_shift = _div("D_psi_shift", "D_α^{((1+ηL)z)}(P_ψ(μ) ‖ P_ψ'(ν)) (Lemma 3.2, lhs)",
                   r"\mathcal D_\alpha^{((1+\eta L)z)}(\mathbb P_{\psi(\mu)}\|\mathbb P_{\psi'(\nu)})")
D_shift_z = _div("D_shift_z", "D_α^{(z)}(P_μ ‖ P_ν) (Lemma 3.2, rhs)",
                 r"\mathcal D_\alpha^{(z)}(\mathbb P_\mu\|\mathbb P_\nu)")
D_psi1_psi1 = _div("D_psi1_psi1", "D_α(P_ψ(μ') ‖ P_ψ'(ν))",
                   r"\mathcal D_\alpha(\mathbb P_{\psi(\mu')}\|\mathbb P_{\psi'(\nu)})")
D_psi1_mix = _div("D_psi1_mix", "D_α(P_ψ(μ') ‖ P_{(1−q)ψ(ν)+qψ''(ν)})",
                  r"\mathcal D_\alpha(\mathbb P_{\psi(\mu')}\|\mathbb P_{(1-q)\psi(\nu)+q\psi''(\nu)})")
D_psi1_psi = _div("D_psi1_psi", "D_α(P_ψ(μ') ‖ P_ψ(ν))",
                  r"\mathcal D_\alpha(\mathbb P_{\psi(\mu')}\|\mathbb P_{\psi(\nu)})")
D_psi1_psi2 = _div("D_psi1_psi2", "D_α(P_ψ(μ') ‖ P_ψ''(ν))",
                   r"\mathcal D_\alpha(\mathbb P_{\psi(\mu')}\|\mathbb P_{\psi''(\nu)})")
D_mu1_nu = _div("D_mu1_nu", "D_α(P_μ' ‖ P_ν), μ' the W∞-coupled shift of μ",
                r"\mathcal D_\alpha(\mathbb P_{\mu'}\|\mathbb P_\nu)")
D_joint2 = _div("D_joint2", "D_α(P_{ψ(μ'),μ'} ‖ P_{ψ''(ν),ν}) (joint laws)",
                r"\mathcal D_\alpha(\mathbb P_{\psi(\mu'),\mu'}\|\mathbb P_{\psi''(\nu),\nu})")
D_cond2 = _div("D_cond2", "sup_v D_α(P_{ψ(μ')|μ'=v} ‖ P_{ψ''(ν)|ν=v})",
               r"\sup_v\mathcal D_\alpha(\mathbb P_{\psi(\mu')|\mu'=v}\|\mathbb P_{\psi''(\nu)|\nu=v})")
D_joint1 = _div("D_joint1", "D_α(P_{ψ(μ'),μ'} ‖ P_{ψ'(ν),ν}) (joint laws)",
                r"\mathcal D_\alpha(\mathbb P_{\psi(\mu'),\mu'}\|\mathbb P_{\psi'(\nu),\nu})")
D_cond1 = _div("D_cond1", "sup_v D_α(P_{ψ(μ')|μ'=v} ‖ P_{ψ'(ν)|ν=v})",
               r"\sup_v\mathcal D_\alpha(\mathbb P_{\psi(\mu')|\mu'=v}\|\mathbb P_{\psi'(\nu)|\nu=v})")
D_sgm_step = _div("D_sgm_step", "D_α^SGM(b/n, b√β σ_DP/(2C)) (Lemma 3.2 part 2)",
                  r"\mathcal D_\alpha^{\mathrm{SGM}}(\tfrac bn,\tfrac{b\sqrt\beta\sigma_{\mathrm{DP}}}{2C})")
psi_gap = quantity("psi_gap", THETA, "‖ψ(μ) − ψ(μ')‖ under the W∞ coupling", r"\|\psi(\mu)-\psi(\mu')\|",
                   **_NN)
mu_gap = quantity("mu_gap", THETA, "‖μ − μ'‖ under the W∞ coupling", r"\|\mu-\mu'\|", **_NN)
mean_gap = quantity("mean_gap", THETA,
                    "‖u‖: distance of the means of ψ(μ')|μ'=v and ψ''(ν)|ν=v", r"\|\mathbf u\|", **_NN)

# Theorem 3.3 / 3.4 recursions
D_next = _div("D_next", "D_α^{(z_{t+1})}(P_θ_{t+1} ‖ P_θ'_{t+1})",
              r"\mathcal D_\alpha^{(z_{t+1})}(\mathbb P_{\theta_{t+1}}\|\mathbb P_{\theta'_{t+1}})")
D_next_split = _div("D_next_split", "D_α^{(z_{t+1})}(P_{ψ(θ_t)+ς_t} ‖ P_{ψ'(θ'_t)+ς_t})",
                    r"\mathcal D_\alpha^{(z_{t+1})}(\mathbb P_{\psi(\theta_t)+\varsigma_t}\|"
                    r"\mathbb P_{\psi'(\theta'_t)+\varsigma_t})")
D_psi_za = _div("D_psi_za", "D_α^{(z_{t+1}+a_t)}(P_ψ(θ_t) ‖ P_ψ'(θ'_t))",
                r"\mathcal D_\alpha^{(z_{t+1}+a_t)}(\mathbb P_{\psi(\theta_t)}\|\mathbb P_{\psi'(\theta'_t)})")
D_psi_zs = _div("D_psi_zs", "D_α^{((1+ηL)z_t)}(P_ψ(θ_t) ‖ P_ψ'(θ'_t))",
                r"\mathcal D_\alpha^{((1+\eta L)z_t)}(\mathbb P_{\psi(\theta_t)}\|\mathbb P_{\psi'(\theta'_t)})")
D_cur = _div("D_cur", "D_α^{(z_t)}(P_θ_t ‖ P_θ'_t)",
             r"\mathcal D_\alpha^{(z_t)}(\mathbb P_{\theta_t}\|\mathbb P_{\theta'_t})")
D_last = _div("D_last", "D_α(P_θ_T ‖ P_θ'_T): the privacy loss of the last iterate",
              r"\mathcal D_\alpha(\mathbb P_{\theta_T}\|\mathbb P_{\theta'_T})")
D_init = _div("D_init", "D_α^{(z_0)}(P_θ_0 ‖ P_θ'_0)",
              r"\mathcal D_\alpha^{(z_0)}(\mathbb P_{\theta_0}\|\mathbb P_{\theta'_0})")
D_tau = _div("D_tau", "D_α^{(z_τ)}(P_θ_τ ‖ P_θ'_τ)",
             r"\mathcal D_\alpha^{(z_\tau)}(\mathbb P_{\theta_\tau}\|\mathbb P_{\theta'_\tau})")
sum_a2 = quantity("sum_a2", THETA**2, "Σ_{t=0}^{T−1} a_t²", r"\sum_{t=0}^{T-1}a_t^2", **_NN)
sum_a2_tau = quantity("sum_a2_tau", THETA**2, "Σ_{t=τ}^{T−1} a_t²", r"\sum_{t=\tau}^{T-1}a_t^2", **_NN)
a_tau = quantity("a_tau", THETA, "the auxiliary shift a_τ of Theorem 3.4's proof", r"a_\tau", real=True)
sigma_split = quantity("sigma_split", THETA,
                       "per-coordinate std of ς_t ~ N(0, (1−β)η²σ_DP² I) (Lemma 2.6's σ)",
                       r"\sigma_{\varsigma}", positive=True)
diam_K = quantity("diam_K", THETA, "diameter of the parameter domain K as defined in Sec. 2.2",
                  r"\operatorname{diam}\mathcal K", positive=True)
c_O = quantity("c_O", DIMLESS, "the constant hidden in a printed O(·)", r"c_{\mathcal O}",
               positive=True)

# Lemma 2.4, 2.6, 2.7 / A.1
eps_dp = quantity("eps_dp", DIMLESS, "the DP ε of Lemma 2.4 (ε_DP at level δ)", r"\epsilon", **_NN)
sigma_zeta = quantity("sigma_zeta", THETA, "std of the Gaussian ζ of Lemma 2.6", r"\sigma",
                      positive=True)
a_shift = quantity("a_shift", THETA, "the shift increment a of Lemma 2.6", "a", **_NN)
s_shift = quantity("s_shift", THETA, "sup_x ‖φ(x) − φ'(x)‖ bound s of the contraction lemma", "s",
                   **_NN)
D_conv = _div("D_conv", "D_α^{(z)}(P_μ * P_ζ ‖ P_ν * P_ζ)",
              r"\mathcal D_\alpha^{(z)}(\mathbb P_\mu*\mathbb P_\zeta\|\mathbb P_\nu*\mathbb P_\zeta)")
D_shift_za = _div("D_shift_za", "D_α^{(z+a)}(P_μ ‖ P_ν)",
                  r"\mathcal D_\alpha^{(z+a)}(\mathbb P_\mu\|\mathbb P_\nu)")
D_contr = _div("D_contr", "D_α^{(z+s)}(P_φ(μ) ‖ P_φ'(ν))",
               r"\mathcal D_\alpha^{(z+s)}(\mathbb P_{\phi(\mu)}\|\mathbb P_{\phi'(\nu)})")
D_rdp = _div("D_rdp", "D_α(P_M(D) ‖ P_M(D')) of a mechanism (Def. 2.3)",
             r"\mathcal D_\alpha(\mathbb P_{\mathcal M(\mathcal D)}\|\mathbb P_{\mathcal M(\mathcal D')})")

# Appendix A standard facts and privacy lemmas
fact_a = quantity("fact_a", DIMLESS, "the real a of the standard facts (Appendix A)", "a", real=True)
fact_b = quantity("fact_b", DIMLESS, "the real b of the standard facts (Appendix A)", "b", real=True)
markov_x_mean = quantity("markov_x_mean", DIMLESS, "E(x) of Markov's inequality", r"\mathbb E(x)", **_NN)
markov_prob = quantity("markov_prob", DIMLESS, "Pr(x ≥ a) of Markov's inequality", r"\Pr(x\ge a)", **_NN)
proj_gap = quantity("proj_gap", THETA, "‖Π_K(x) − Π_K(y)‖", r"\|\Pi_K(x)-\Pi_K(y)\|", **_NN)
xy_gap = quantity("xy_gap", THETA, "‖x − y‖", r"\|x-y\|", **_NN)
D_post = _div("D_post", "D_α(P_ψ(μ) ‖ P_ψ(ν)) (post-processing)",
              r"\mathcal D_\alpha(\mathbb P_{\psi(\mu)}\|\mathbb P_{\psi(\nu)})")
D_pre = _div("D_pre", "D_α(P_μ ‖ P_ν)", r"\mathcal D_\alpha(\mathbb P_\mu\|\mathbb P_\nu)")
lam_mix = quantity("lam_mix", DIMLESS, "mixture weight λ of the convexity lemma", r"\lambda", **_NN)
D_mixture = _div("D_mixture", "D_α(P_μ ‖ (1−λ)P_ν1 + λP_ν2)",
                 r"\mathcal D_\alpha(\mathbb P_\mu\|(1-\lambda)\mathbb P_{\nu_1}+\lambda\mathbb P_{\nu_2})")
D_nu1 = _div("D_nu1", "D_α(P_μ ‖ P_ν1)", r"\mathcal D_\alpha(\mathbb P_\mu\|\mathbb P_{\nu_1})")
D_nu2 = _div("D_nu2", "D_α(P_μ ‖ P_ν2)", r"\mathcal D_\alpha(\mathbb P_\mu\|\mathbb P_{\nu_2})")
D_comp = _div("D_comp", "D_α(P_M(D) ‖ P_M(D')) of M = [M1, M2]",
              r"\mathcal D_\alpha(\mathbb P_{\mathcal M(\mathcal D)}\|\mathbb P_{\mathcal M(\mathcal D')})")
D_comp_cond = _div("D_comp_cond", "sup_v D_α(P_{M2(D)|M1(D)=v} ‖ P_{M2(D')|M1(D')=v})",
                   r"\sup_v\mathcal D_\alpha(\mathbb P_{\mathcal M_2(\mathcal D)|\cdot}\|"
                   r"\mathbb P_{\mathcal M_2(\mathcal D')|\cdot})")
D_comp_first = _div("D_comp_first", "D_α(P_M1(D) ‖ P_M1(D'))",
                    r"\mathcal D_\alpha(\mathbb P_{\mathcal M_1(\mathcal D)}\|\mathbb P_{\mathcal M_1(\mathcal D')})")
D_sgm = _div("D_sgm", "D_α^SGM(q, σ) of the sampled Gaussian mechanism (Def. A.11/A.12)",
             r"\mathcal D_\alpha^{\mathrm{SGM}}(q,\sigma)")
M_lip = quantity("M", GRADIENT, "Lipschitz constant M of the loss (Table 1, other works)", "M",
                 positive=True)

# --------------------------------------------------------------------------------------
# The noise multiplier and sampling rate of Lemma 3.2 part 2, as printed
Q_STEP = b / n                                        # q = b/n
SIGMA_STEP = b * sp.sqrt(beta) * sigma_dp / (2 * C)   # σ = b√β σ_DP / (2C)

#: the two blocks of (51)/(52): g(β) = A/β + B/(1−β)
A_BLOCK = 2 * alpha * C**2 / (n * b * sigma_dp**2)
B_BLOCK = alpha * (1 + eta * L)**2 * D**2 / (2 * eta**2 * sigma_dp**2)


def K_of(alpha_, q_) -> sp.Expr:
    """K = log(1 + 1/(q(α−1))) of Lemma A.13 (AAAI) / A.12 (ICML) and Table 1."""
    return sp.log(1 + 1 / (q_ * (alpha_ - 1)))


@lru_cache(maxsize=64)
def alpha_star_conditions(alpha_=alpha, q_=q, sigma_=sigma):
    """The two conditions defining α*(q, σ), exactly as Table 1 and Lemma A.13 (AAAI,
    eq. 33) / Lemma A.12 (ICML, eq. 36) print them::

        α ≤ Kσ²/2 − 2 log σ,
        α ≤ (K²σ²/2 − log 5 − 2 log σ) / (K + log(qα) + 1/(2σ²)),
        K = log(1 + 1/(q(α − 1))).

    α*(q, σ) is "the largest α satisfying both" (Table 1's caption).  K depends on α
    itself, so the conditions are implicit in α; callers compute α* numerically (the
    set of α satisfying both need not be an interval, hence "largest").

    Returns ``(cond1, cond2)`` as SymPy relationals (``sympy.Le``), unevaluated.
    """
    K_ = K_of(alpha_, q_)
    cond1 = sp.Le(alpha_, K_ * sigma_**2 / 2 - 2 * sp.log(sigma_), evaluate=False)
    cond2 = sp.Le(alpha_, (K_**2 * sigma_**2 / 2 - sp.log(5) - 2 * sp.log(sigma_))
                  / (K_ + sp.log(q_ * alpha_) + 1 / (2 * sigma_**2)), evaluate=False)
    return cond1, cond2


def alpha_star_hypothesis(q_expr, sigma_expr, where: str) -> Assumption:
    """"α ≤ α*(q, σ)": α* is "the largest α satisfying both" conditions of
    :func:`alpha_star_conditions` (Table 1's caption) — an :class:`ImplicitBound`, not a
    scalar relation the algebra can use; the statement checks evaluate it numerically."""
    label = f"alpha_star({sp.sstr(q_expr)}, {sp.sstr(sigma_expr)})"
    return asm(ImplicitBound(alpha, alpha_star_conditions(alpha, q_expr, sigma_expr), label,
                             lower=1), where)


def beta_interval(where: str) -> list[Assumption]:
    return [asm(sp.Gt(beta, 0), where), asm(sp.Lt(beta, 1), where)]


def part2_hypotheses(where: str) -> list[Assumption]:
    """b ≤ n/5, α ≤ α*(b/n, b√βσ_DP/(2C)), σ_DP > 8C/(b√β) — as printed."""
    return [asm(sp.Le(b, n / 5), where),
            alpha_star_hypothesis(Q_STEP, SIGMA_STEP, where),
            asm(sp.Gt(sigma_dp, 8 * C / (b * sp.sqrt(beta))), where)]


# --------------------------------------------------------------------------------------
# paper order
_NUM = re.compile(r"^(?P<head>[a-z]|\d+)(?P<rest>(\.\d+)*)$")


def order_key(result, positions: dict[str, str] | None = None):
    """Sort key putting results in paper order: main-text sections first by number,
    then appendices A, B, C, ... by letter and number.  Tables/figures are numbered on
    their own, so ``positions`` maps e.g. ``"tab-1"`` to the section number where the
    table appears (``"1.0"``).  A ``+variant`` follows its base result."""
    positions = positions or {}
    local = result.id.split(":", 1)[1]
    base, _, variant = local.partition("+")
    kind, _, number = base.partition("-")
    number = positions.get(base, number)
    m = _NUM.match(number)
    if not m:
        return (2, number, variant)
    head = m["head"]
    rest = tuple(int(x) for x in m["rest"].split(".") if x)
    if head.isdigit():
        return (0, (int(head),) + rest, variant)
    return (1, (ord(head),) + rest, variant)


def sort_results(results, positions: dict[str, str] | None = None) -> list:
    return sorted(results, key=lambda r: order_key(r, positions))


__all__ = [name for name in dir() if not name.startswith("_")]
_ = (CURVATURE, sigma)  # re-exported names used by the paper modules

"""The privacy half of Liang et al. (both versions), encoded once and numbered per version.

The ICML and AAAI versions print the same privacy lemmas and proofs with different
lemma and equation numbers (and a few different statements: explicit constants in the
ICML Theorems 3.3/3.4, O-forms in the AAAI ones; the β optimisation (52)–(54) and the
trivial bound of E.1 exist only in the AAAI version).  ``liang_icml/privacy.py`` and
``liang_aaai/privacy.py`` call the builders below with their own :class:`Numbering` and
add what is version-specific; they are the modules to hold beside the PDFs.

Readings chosen where the text renderings are ambiguous are stated in the docstrings of
the two version modules.
"""
from __future__ import annotations

import sympy as sp

from theory.classes import BoundedDomain, LSmooth
from theory.mechanisms import NoisySGD, SampledGaussian
from theory.model import Bound, Chain, Reading, Result, Step, StepKind, asm, with_given
from theory.papers.liang import common as lc
from theory.papers.liang.numbering import Numbering
from theory.papers.liang.symbols import (C, D, L, alpha, a_t, b, beta, delta, epsilon, eta, n, q,
                            sigma, sigma_dp, T, tau, z, z_t, z_t1)

ALG, SCA, PRO, CIT = StepKind.ALGEBRA, StepKind.SCALAR, StepKind.PROBABILISTIC, StepKind.CITED

SMOOTH = LSmooth(L)   # Assumption 3.1: every l_ξ is L-smooth


def dpsgd(T_=T, domain=None) -> NoisySGD:
    """Algorithm 1 (Sec. 2.2): DPSGD-GC (no domain) or DPSGD-DC (domain of diameter D), the
    noise ζ_t ~ N(0, σ_DP²) added to the averaged clipped gradient, θ_T released."""
    return NoisySGD(n=n, b=b, eta=eta, C=C, sigma=sigma_dp, T=T_, domain=domain)


GC = dpsgd()
DC = dpsgd(domain=D)
ONE_STEP = dpsgd(T_=1)   # Lemma 3.2: one noisy step from a common start

#: per-step increments of the recursions
STEP_GC = 2 * alpha * C**2 / (beta * n * b * sigma_dp**2)         # 2αC²/(βnbσ²)
STEP_GC2 = 8 * alpha * C**2 / (beta * n**2 * sigma_dp**2)         # 8αC²/(βn²σ²)
SHIFT_COST_T = alpha * a_t**2 / (2 * eta**2 * sigma_dp**2 * (1 - beta))
DOMAIN_COST = alpha * (1 + eta * L)**2 * D**2 / (2 * eta**2 * sigma_dp**2 * (1 - beta))


def common_hypotheses(where: str) -> list:
    """α > 1, β ∈ (0, 1), q = b/n ≤ 1, and the smoothness predicate."""
    return [asm(sp.Gt(alpha, 1), where), *lc.beta_interval(where),
            asm(sp.Eq(q, b / n), "Algorithm 1: q = b/n"), asm(sp.Le(b, n), "Algorithm 1: b ≤ n"),
            asm(SMOOTH, where)]


# ======================================================================================
# Section 2: definitions and cited lemmas
def definitions(v: Numbering) -> list[Result]:
    p = v.paper
    return [
        Result(f"{p}:def-2.1", "Differential privacy (Dwork et al. 2006)", "Sec. 2.1, eq. (1)",
               note="M is (ϵ,δ)-DP if Pr[M(D)∈S] ≤ exp(ϵ) Pr[M(D')∈S] + δ for all adjacent D, D' "
                    "and all S; ϵ ≥ 0, δ ∈ [0,1]."),
        Result(f"{p}:def-2.2", "Rényi divergence (Rényi 1961)", "Sec. 2.1, eq. (2)",
               note="D_α(P‖Q) = 1/(α−1) log E_{s∼Q}[(P(s)/Q(s))^α], α ≠ 1."),
        Result(f"{p}:def-2.3", "Rényi differential privacy (Mironov 2017)", "Sec. 2.1, eq. (3)",
               note="M is (α,ε)-RDP (α > 1, ε ≥ 0) if D_α(P_M(D) ‖ P_M(D')) ≤ ε for all adjacent "
                    "D, D'."),
        Result(f"{p}:def-2.5", "Shifted Rényi divergence (Feldman et al. 2018)",
               "Sec. 2.1, eq. (4)",
               note="D_α^{(z)}(P_μ‖P_ν) = inf_{P_μ': W∞(P_μ,P_μ') ≤ z} D_α(P_μ'‖P_ν), z ≥ 0, α > 1."),
    ]


def lemma_2_4(v: Numbering) -> Result:
    w = "Lemma 2.4"
    return Result(
        f"{v.paper}:lem-2.4", "From (α, ε)-RDP to (ϵ, δ)-DP (Mironov 2017)", "Sec. 2.1",
        hypotheses=[asm(sp.Gt(alpha, 1), w), asm(sp.Gt(delta, 0), w), asm(sp.Lt(delta, 1), w),
                    asm(sp.Le(lc.D_rdp, epsilon), "M is (α, ε)-RDP")],
        statement=[Step("statement", lc.eps_dp, "<=", epsilon + sp.log(1 / delta) / (alpha - 1), CIT,
                      because="Mironov 2017, Proposition 3",
                      note="eps_dp: the smallest ϵ for which M is (ϵ, δ)-DP")],
    )


def lemma_2_6(v: Numbering) -> Result:
    w = "Lemma 2.6"
    return Result(
        f"{v.paper}:lem-2.6", "Shift-reduction (Feldman et al. 2018)", f"Sec. 2.1, eq. ({v.eq('shift-reduction')})",
        hypotheses=[asm(sp.Gt(alpha, 1), w), asm(sp.Ge(lc.a_shift, 0), w), asm(sp.Ge(z, 0), w)],
        statement=[Step("statement", lc.D_conv, "<=",
                      lc.D_shift_za + alpha * lc.a_shift**2 / (2 * lc.sigma_zeta**2), CIT,
                      because="Feldman et al. 2018, Lemma 20", eq=v.eq("shift-reduction"),
                      note="ζ ~ N(0, σ² I_d); P_μ * P_ζ is the law of μ + ζ")],
    )


def contraction_reduction(v: Numbering, where: str) -> Result:
    w = where
    return Result(
        v.rid("contraction-reduction"), "Contraction-reduction (Feldman et al. 2018)", where,
        hypotheses=[asm(sp.Gt(alpha, 1), w), asm(sp.Ge(z, 0), w),
                    asm("phi, phi' are contractive (1-Lipschitz)", w),
                    asm("sup_x ||phi(x) - phi'(x)|| <= s", w)],
        statement=[Step("statement", lc.D_contr, "<=", lc.D_shift_z, CIT,
                      because="Feldman et al. 2018, Theorem 22", eq=v.eq("contraction-reduction"))],
    )


# ======================================================================================
# Appendix A: standard facts and privacy lemmas
def standard_facts(v: Numbering, section: str) -> list[Result]:
    """Markov, projection non-expansive, (a+b)² ≤ 2a²+2b², a ≤ a²/(2b)+b/2, √(a+b) ≤ √a+√b."""
    a_, b_ = lc.fact_a, lc.fact_b
    e1, e2, e3, e4, e5 = (v.eq(r) for r in ("markov", "projection", "square-sum", "half-square",
                                            "root-sum"))
    return [
        Result(v.rid("markov"), "Markov inequality", f"{section}, eq. ({e1})",
               hypotheses=[asm(sp.Gt(a_, 0), "a > 0"), asm("x is a non-negative random variable")],
               statement=[Step("statement", lc.markov_prob, "<=", lc.markov_x_mean / a_, CIT,
                             because="Markov's inequality", eq=e1)]),
        Result(v.rid("projection"), "Projection operator is non-expansive", f"{section}, eq. ({e2})",
               hypotheses=[asm("K is closed and convex")],
               statement=[Step("statement", lc.proj_gap, "<=", lc.xy_gap, CIT,
                             because="non-expansiveness of projections onto convex sets",
                             eq=e2)]),
        Result(v.rid("square-sum"), "(a + b)² ≤ 2a² + 2b²", f"{section}, eq. ({e3})",
               statement=[Step("statement", (a_ + b_)**2, "<=", 2 * a_**2 + 2 * b_**2, ALG, eq=e3)]),
        Result(v.rid("half-square"), "a ≤ a²/(2b) + b/2", f"{section}, eq. ({e4})",
               hypotheses=[asm(sp.Ge(a_, 0), "a ≥ 0"), asm(sp.Ge(b_, 0), "b ≥ 0")],
               statement=[Step("statement", a_, "<=", a_**2 / (2 * b_) + b_ / 2, SCA, eq=e4,
                             note="printed for a, b ≥ 0; at b = 0 the right-hand side is "
                                  "undefined (the fact needs b > 0)")]),
        Result(v.rid("root-sum"), "√(a + b) ≤ √a + √b", f"{section}, eq. ({e5})",
               hypotheses=[asm(sp.Ge(a_, 0), "a ≥ 0"), asm(sp.Ge(b_, 0), "b ≥ 0")],
               statement=[Step("statement", sp.sqrt(a_ + b_), "<=", sp.sqrt(a_) + sp.sqrt(b_), SCA,
                             eq=e5)]),
    ]


def privacy_lemmas(v: Numbering, section: str) -> list[Result]:
    """W∞ (definition), its equivalent forms, post-processing, convexity, composition,
    the SGM (definition) and its RDP bound."""
    return [
        Result(v.rid("winf"), "∞-Wasserstein distance (Villani et al. 2009)",
               f"{section}, eq. ({v.eq('winf')})",
               note="W∞(P_μ, P_ν) = inf over couplings γ of ess sup_{(x,y)∼γ} ‖x − y‖."),
        Result(v.rid("weq"), "Equivalent definitions of W∞ (Feldman et al. 2018)", section,
               hypotheses=[asm("W_inf(P_mu, P_nu) <= s  <=>  exists coupling (u, v) with "
                               "Pr[||u - v|| <= s] = 1  <=>  exists (u, w), u + w ~ P_nu, "
                               "Pr[||w|| <= s] = 1")],
               note="a characterisation of W∞; no scalar content (recorded for citations)"),
        Result(v.rid("post"), "Post-processing inequality (Van Erven and Harremos 2014)",
               f"{section}, eq. ({v.eq('post')})",
               hypotheses=[asm(sp.Ge(alpha, 0), "α ≥ 0 (as printed)")],
               statement=[Step("statement", lc.D_post, "<=", lc.D_pre, CIT,
                             because="Van Erven and Harremos 2014, Theorem 9",
                             eq=v.eq("post"))]),
        Result(v.rid("conv"), "Partial convexity in the second argument (Van Erven and Harremos 2014)",
               f"{section}, eq. ({v.eq('conv')})",
               hypotheses=[asm(sp.Ge(alpha, 0), "α ≥ 0 (as printed)"),
                           asm(sp.Ge(lc.lam_mix, 0), "0 ≤ λ"), asm(sp.Le(lc.lam_mix, 1), "λ ≤ 1")],
               statement=[Step("statement", lc.D_mixture, "<=",
                             (1 - lc.lam_mix) * lc.D_nu1 + lc.lam_mix * lc.D_nu2, CIT,
                             because="Van Erven and Harremos 2014, Theorem 12",
                             eq=v.eq("conv"),
                             note="Van Erven–Harremos prove joint convexity for α ∈ [0, 1] and "
                                  "convexity in the second argument for all α ∈ [0, ∞]")]),
        Result(v.rid("comp"), "Strong composition for Rényi divergence (Mironov 2017)",
               f"{section}, eq. ({v.eq('comp')})",
               hypotheses=[asm(sp.Gt(alpha, 1), "α > 1")],
               statement=[Step("statement", lc.D_comp, "<=", lc.D_comp_cond + lc.D_comp_first, CIT,
                             because="Mironov 2017, Proposition 1", eq=v.eq("comp"))]),
        Result(v.rid("sgm-def"), "Sampled Gaussian mechanism", f"{section}, eq. ({v.eq('sgm-def')})",
               note="M_SGM(D) = Σ_{i∈S} f(D_i) + N(0, σ² I_d), S Poisson-sampled with rate q; "
                    "D_α^SGM(q, σ) = D_α(N(0,σ²) ‖ (1−q)N(0,σ²) + qN(1,σ²))."),
        sgm_bound(v, section),
    ]


def sgm_bound(v: Numbering, section: str) -> Result:
    """Lemma A.13 (AAAI) / A.12 (ICML): D_α^SGM(q, σ) ≤ 2αq²/σ² under q ≤ 1/5, σ > 4,
    α ≤ α*(q, σ) — α* from :func:`theory.papers.liang.common.alpha_star_conditions`."""
    w = v.name("sgm")
    d = f"Def. {v.number('sgm-def')}"
    hyps = [asm(sp.Gt(alpha, 1), f"{d}: α > 1"), asm(sp.Gt(q, 0), f"{d}: 0 < q"),
            asm(sp.Le(q, sp.Rational(1, 5)), w), asm(sp.Gt(sigma, 4), w),
            lc.alpha_star_hypothesis(q, sigma, w)]
    c1, c2 = lc.alpha_star_conditions(alpha, q, sigma)
    hyps += [asm(c1, f"{w}, ({v.eq('sgm')}) first condition", name="alpha-star-condition-1"),
             asm(c2, f"{w}, ({v.eq('sgm')}) second condition", name="alpha-star-condition-2")]
    return Result(
        v.rid("sgm"), "Upper bound on Rényi divergence of the SGM (Mironov, Talwar, and Zhang 2019)",
        f"{section}, eq. ({v.eq('sgm')})",
        hypotheses=hyps,
        statement=[Step("statement", lc.D_sgm, "<=", 2 * alpha * q**2 / sigma**2, CIT,
                      because="Mironov, Talwar, and Zhang 2019, Theorem 11", eq=v.eq("sgm"),
                      note="α*(q, σ): the largest α satisfying both conditions of "
                           f"({v.eq('sgm')}), K = log(1 + 1/(q(α−1)))")],
        bounds=[Bound("sgm", 2 * alpha * q**2 / sigma**2, mechanism=SampledGaussian(q, sigma), problem_class=(),
                      hypotheses=hyps, form="explicit", order=alpha,
                      note=f"D_α^SGM(q, σ) of {d} (unit sensitivity, noise σ)")],
        note="α*(q, σ) is defined by alpha_star_conditions() in theory.papers.liang.common",
    )


# ======================================================================================
# Lemma 3.2 (B.1): noisy smooth-reduction

def other_order_note(v: Numbering) -> str:
    """Why the step ``other-order`` checks the remove order, and its instance."""
    return (
        f"A check of the statement in the order the proof leaves out: ({v.eq('sampling-mixture')}) "
        "writes P_ψ'(ν) = (1−q)P_ψ(ν) + qP_ψ''(ν), i.e. only D' = D ∪ {D̄}. For D' = D \\ {x} the "
        f"mixture is in the FIRST argument and convexity in the second argument ({v.name('conv')}) "
        "does not apply. Instance: the loss of x is −C⟨e₁, θ⟩ (L-smooth for every L), all "
        "other losses 0, μ = ν = θ: then P_ψ(θ) = (1−q)N(m, s²I) + qN(m − u, s²I), "
        "P_ψ'(θ) = N(m, s²I), ‖u‖ = ηC/b, s² = (noise variance). Since the mixture density "
        "≥ q·N(m − u, s²I) pointwise, E[(P/Q)^α] ≥ q^α exp(α(α−1)‖u‖²/(2s²)), so "
        "D_α ≥ α log q/(α−1) + α‖u‖²/(2s²): the left-hand side here. The step claims this "
        "lower bound stays below the printed bound; a counterexample is a genuine violation "
        "of the statement (confirmed by hand at α = 128, b = 1, n = 10⁴, C = σ_DP = 1, "
        "β → 1: lower bound ≈ 54.7 > 0.0256; checks.statements finds the same number "
        "from the exact SGM divergence).")


def other_order_lower(noise_fraction):
    """α log q/(α−1) + αC²/(2·f·b²σ_DP²): lower bound of D_α(mixture ‖ pure) for one
    step with noise variance f·η²σ_DP² and a canary gradient of norm C (see the note)."""
    return (alpha * sp.log(q) / (alpha - 1)
            + alpha * C**2 / (2 * noise_fraction * b**2 * sigma_dp**2))

#: the divergence-row oracle (checks/truth/divergence_rows.py): what each opaque divergence
#: of Lemma 3.2 is in its one-step experiment, and the experiment's parameters — the noise
#: on θ of ψ is ηϱ_t, ϱ_t ~ N(0, βσ_DP² I) (sd η√βσ_DP); the output shift is (1+ηL)z;
#: the SGM of (40) is taken at q = b/n, σ = b√βσ_DP/(2C) as printed
ROW_ORACLE = "divergence-row"
ROW_ARGS = {
    "quantities": "D_psi_shift=out_shift; D_shift_z=in_shift; D_psi1_psi1=out_coupled; "
                  "D_psi1_mix=out_mix; D_psi1_psi=out_same; D_psi1_psi2=out_cond; "
                  "D_mu1_nu=in_coupled; D_joint2=joint_cond; D_cond2=cond_sup_cond; "
                  "D_joint1=joint; D_cond1=cond_sup; D_sgm_step=sgm",
    "params": "alpha=alpha; eta=eta; C=C; L=L; b=b; n=n; q=q; s=eta*sqrt(beta)*sigma_dp; "
              "z=z; w=(1+eta*L)*z; sgm_q=b/n; sgm_sigma=b*sqrt(beta)*sigma_dp/(2*C)",
}
ROW = dict(oracle=ROW_ORACLE, oracle_args=ROW_ARGS)
#: (44), third line: the same shifted divergence of ψ's outputs at the shifts z_{t+1} + a_t
#: and (1+ηL)z_t, each side from its own expression
SHIFT_ARGS = {
    "quantities": "D_psi_zs=out_shift; D_psi_za=out_shift@w_za",
    "params": "alpha=alpha; eta=eta; C=C; L=L; b=b; n=n; q=q; s=eta*sqrt(beta)*sigma_dp; "
              "z=z_t; w=(1+eta*L)*z_t; w_za=z_t1+a_t",
}
#: one step of DPSGD-DC in the recursion (49): θ_{t+1} = Π_K(ψ(θ_t) + ς_t), the whole noise
#: ηζ_t of sd ησ_DP, the shifts z_t and z_{t+1} = (1+ηL)z_t − a_t, K of diameter D
NEXT_ARGS = {
    "quantities": "D_next=next_shift; D_cur=in_shift",
    "params": "alpha=alpha; eta=eta; C=C; L=L; b=b; n=n; q=q; s=eta*sqrt(beta)*sigma_dp; "
              "z=z_t; w=(1+eta*L)*z_t; s_next=eta*sigma_dp; w_next=(1+eta*L)*z_t-a_t; D=D",
}


def typed(like: str, at: str = "", constant: str = "") -> dict:
    """A row 'D_last ≤ rhs' checked as a typed statement of its result (the typed-bound
    oracle, checks/truth/bound_rows.py): ``like`` names the Bound giving the mechanism,
    ``at`` the proof's own values of the row's other quantities."""
    args = {"like": like}
    if at:
        args["at"] = at
    if constant:
        args["constant"] = constant
    return dict(oracle="typed-bound", oracle_args=args)


def lemma_3_2(v: Numbering, where: str, note: str = "") -> Result:
    w = "Lemma 3.2"
    hyps = common_hypotheses(w) + [asm(sp.Ge(z, 0), "Def. 2.5: z ≥ 0")]
    p2 = lc.part2_hypotheses(f"{w}, second part")
    lhs = lc.D_psi_shift
    X = lc.D_mu1_nu
    per_b2 = 2 * alpha * C**2 / (beta * b**2 * sigma_dp**2)
    mu_choice = asm(sp.Eq(lc.D_mu1_nu, lc.D_shift_z),
                    f"choice of μ' ({v.rid('weq')}): D_α^(z)(P_μ‖P_ν) = D_α(P_μ'‖P_ν)")

    eq36 = Chain(v.lbl("coupled-gap"), (
        Step(v.lbl("coupled-gap", 1), lc.psi_gap, "<=", lc.mu_gap + eta * L * lc.mu_gap, CIT,
           because="triangle inequality and Assumption 3.1 (clip_C is 1-Lipschitz)",
           eq=v.eq("coupled-gap"),
           note="same batch and same noise ϱ_t in ψ(μ) and ψ(μ') (synchronous coupling)"),
        Step(v.lbl("coupled-gap", 2), lc.mu_gap + eta * L * lc.mu_gap, "<=", (1 + eta * L) * z, ALG,
           given=[asm(sp.Le(lc.mu_gap, z), f"{v.rid('weq')}: Pr[‖μ − μ'‖ ≤ z] = 1")],
           because="definition of μ'", eq=v.eq("coupled-gap")),
    ))
    eq37 = Chain(v.lbl("sampling-mixture"), (
        Step(v.lbl("sampling-mixture", 1), lhs, "<=", lc.D_psi1_psi1, PRO, **ROW,
           because=f"{v.rid('shifted-divergence')} with ({v.eq('coupled-gap')}): W∞(P_ψ(μ), P_ψ(μ')) ≤ (1+ηL)z",
           eq=v.eq("sampling-mixture"),
           readings=[Reading(
               "fixed-batch", lhs, "<=", lc.D_psi1_psi1,
               "Algorithm 1 samples B_t 'with sampling probability q = b/n' (Poisson, the "
               "primary reading) while Sec. 2 writes b = |B_t|: a batch of exactly b "
               "records drawn uniformly", oracle_args={"sampling": "fixed"})]),
        Step(v.lbl("sampling-mixture", 2), lc.D_psi1_psi1, "=", lc.D_psi1_mix, PRO,
           oracle=ROW_ORACLE, oracle_args=dict(ROW_ARGS, orders="add"),
           because="SGD sampling: P_ψ'(ν) = (1−q) P_ψ(ν) + q P_ψ''(ν), ψ'' = ψ'(·| D̄ ∈ B_t)",
           eq=v.eq("sampling-mixture"),
           note="written for D' = D ∪ {x̄} (ψ' the update of the dataset holding x̄), the "
                "case the paper treats: judged in the add order; the remove order is the "
                "proof's missing case (the row other-order)"),
        Step(v.lbl("sampling-mixture", 3), lc.D_psi1_mix, "<=",
           (1 - q) * lc.D_psi1_psi + q * lc.D_psi1_psi2, PRO, because=v.rid("conv"), **ROW,
           eq=v.eq("sampling-mixture")),
        Step(v.lbl("sampling-mixture", 4), (1 - q) * lc.D_psi1_psi + q * lc.D_psi1_psi2, "<=",
           (1 - q) * X + q * lc.D_psi1_psi2, ALG,
           given=[asm(sp.Le(lc.D_psi1_psi, X), f"{v.rid('post')} (post-processing by ψ)")],
           because=v.rid("post"), eq=v.eq("sampling-mixture")),
    ))
    eq38 = Chain(v.lbl("sampled-record"), (
        Step(v.lbl("sampled-record", 1), lc.D_psi1_psi2, "<=", lc.D_joint2, PRO, because=v.rid("post"), **ROW,
           eq=v.eq("sampled-record")),
        Step(v.lbl("sampled-record", 2), lc.D_joint2, "<=", lc.D_cond2 + X, PRO, because=v.rid("comp"), **ROW,
           eq=v.eq("sampled-record")),
        Step(v.lbl("sampled-record", 3), lc.D_cond2 + X, "<=", per_b2 + X, ALG,
           given=[asm(sp.Le(lc.D_cond2, alpha * lc.mean_gap**2 / (2 * beta * eta**2 * sigma_dp**2)),
                      "D_α(N(0,s²I)‖N(u,s²I)) = α‖u‖²/(2s²) with s² = βη²σ_DP² (noise ηϱ_t)"),
                  asm(sp.Le(lc.mean_gap, 2 * eta * C / b),
                      "‖u‖ ≤ 2ηC/b: the sensitivity the printed constant corresponds to")],
           because="Gaussian Rényi divergence (well-known result)", eq=v.eq("sampled-record"),
           note="the paper does not print ‖u‖; 2αC²/(βb²σ²) is α‖u‖²/(2βη²σ²) at "
                "‖u‖ = 2ηC/b (replace-one sensitivity). With add/remove adjacency as defined "
                "in Sec. 2, ‖u‖ ≤ ηC/b already, so the printed constant is conservative."),
    ))
    eq39 = Chain(v.lbl("combine-part-1"), (
        Step(v.lbl("combine-part-1", 1), lhs, "<=", (1 - q) * X + STEP_GC + q * X, ALG,
           given=[asm(sp.Le(lhs, (1 - q) * X + q * lc.D_psi1_psi2), f"({v.eq('sampling-mixture')})"),
                  asm(sp.Le(lc.D_psi1_psi2, per_b2 + X), f"({v.eq('sampled-record')})")],
           because=f"({v.eq('sampling-mixture')}) and ({v.eq('sampled-record')}) with q = b/n", eq=v.eq("combine-part-1")),
        Step(v.lbl("combine-part-1", 2), (1 - q) * X + STEP_GC + q * X, "<=", lc.D_shift_z + STEP_GC, ALG,
           given=[mu_choice], because="definition of μ'", eq=v.eq("combine-part-1")),
    ), concludes="part-1")

    part2_steps = [
        Step(v.lbl("sgm-part-2", 1), lhs, "<=", lc.D_joint1, PRO, **ROW,
           because=f"({v.eq('sampling-mixture')}) first line and {v.rid('post')}", eq=v.eq("sgm-part-2")),
        Step(v.lbl("sgm-part-2", 2), lc.D_joint1, "<=", lc.D_cond1 + X, PRO, because=v.rid("comp"), **ROW,
           eq=v.eq("sgm-part-2"), note=v.note("sgm-part-2")),
        Step(v.lbl("sgm-part-2", 3), lc.D_cond1 + X, "<=", lc.D_sgm_step + X, PRO, **ROW,
           because="the conditional law is a sampled Gaussian mechanism with q = b/n and "
                   "noise multiplier b√β σ_DP/(2C)", eq=v.eq("sgm-part-2")),
        Step(v.lbl("sgm-part-2", 4), lc.D_sgm_step + X, "<=", lc.D_shift_z + STEP_GC2, ALG,
           given=[asm(sp.Le(lc.D_sgm_step, 2 * alpha * lc.Q_STEP**2 / lc.SIGMA_STEP**2),
                      f"{v.rid('sgm')} at q = b/n, σ = b√βσ_DP/(2C)"), mu_choice],
           because=v.rid("sgm"), eq=v.eq("sgm-part-2")),
    ]
    eq40 = Chain(v.lbl("sgm-part-2"), tuple(with_given(p2, part2_steps)), concludes="part-2")
    side = with_given(p2, [
        Step("sgm-hyp-q", lc.Q_STEP, "<=", sp.Rational(1, 5), ALG,
           because=f"hypothesis q ≤ 1/5 of {v.rid('sgm')} from b ≤ n/5"),
        Step("sgm-hyp-sigma", lc.SIGMA_STEP, ">", 4, ALG,
           because=f"hypothesis σ > 4 of {v.rid('sgm')} from σ_DP > 8C/(b√β)"),
    ])

    other = Step("other-order", other_order_lower(beta), "<=", STEP_GC, SCA,
               because="part 1 with μ = ν = θ (z = 0) for D' = D \\ {x}: adjacency is adding "
                       "OR removing a point (Sec. 2), and RDP needs every adjacent pair",
               note=other_order_note(v))
    bound_h = hyps
    return Result(
        f"{v.paper}:lem-3.2", "Noisy smooth-reduction", where,
        hypotheses=hyps,
        statement=[
            Step("part-1", lhs, "<=", lc.D_shift_z + STEP_GC, PRO, eq=v.eq("smooth-reduction-1"), **ROW,
               because="proved below", note="for any random variables μ, ν"),
            Step("part-2", lhs, "<=", lc.D_shift_z + STEP_GC2, PRO, given=p2, eq=v.eq("smooth-reduction-2"), **ROW,
               because="proved below"),
        ],
        proof=[eq36, eq37, eq38, eq39, eq40, *side, other],
        bounds=[
            Bound("part-1", STEP_GC, mechanism=ONE_STEP, problem_class=[LSmooth(L)],
                  hypotheses=bound_h, form="explicit", order=alpha,
                  note="μ = ν (same start, z = 0): D_α(P_ψ(μ) ‖ P_ψ'(μ)) ≤ ε"),
            Bound("part-2", STEP_GC2, mechanism=ONE_STEP, problem_class=[LSmooth(L)],
                  hypotheses=bound_h + p2, form="explicit", order=alpha),
        ],
        note=note,
    )


# ======================================================================================
# Theorem 3.3 (B.2): DPSGD-GC
def theorem_3_3(v: Numbering, where: str, *, o_form: bool, note: str = "") -> Result:
    w = "Theorem 3.3"
    hyps = common_hypotheses(w)
    p2 = lc.part2_hypotheses(f"{w}, second part")
    lemma = v.rid("smooth-reduction")
    B = STEP_GC
    rhs1 = 2 * alpha * C**2 * T / (beta * n * b * sigma_dp**2)
    rhs2 = 8 * alpha * C**2 * T / (beta * n**2 * sigma_dp**2)
    if o_form:
        st1 = c_O_bound(alpha * C**2 * T / (n * b * sigma_dp**2))
        st2 = c_O_bound(alpha * C**2 * T / (n**2 * sigma_dp**2))
    else:
        st1, st2 = rhs1, rhs2
    split = Step(v.lbl("noise-split"), beta * eta**2 * sigma_dp**2 + (1 - beta) * eta**2 * sigma_dp**2, "=",
               eta**2 * sigma_dp**2, ALG, eq=v.eq("noise-split"),
               because="ϱ_t ~ N(0, βη²σ_DP² I) and ς_t ~ N(0, (1−β)η²σ_DP² I) add up to ηζ_t",
               note=f"variance bookkeeping of the noise split ({v.eq('noise-split')})")
    recursion = Chain(v.lbl("gc-one-step"), (
        Step(v.lbl("gc-one-step", 1), lc.D_next, "=", lc.D_next_split, PRO,
           because=f"({v.eq('noise-split')}): θ_{{t+1}} = ψ(θ_t) + ς_t", eq=v.eq("gc-one-step"),
           oracle="no-instance", oracle_args={"reason": (
               "both sides are the shifted divergence of the same pair of laws (ϱ_t and ς_t "
               f"independent, their variances adding up to η²σ_DP² — ({v.eq('noise-split')}), PROVED as "
               "variance bookkeeping): on every instance the two sides are one number, so an "
               "instance can neither support nor refute more than that bookkeeping")}),
        Step(v.lbl("gc-one-step", 2), lc.D_next_split, "<=", lc.D_psi_za + SHIFT_COST_T, ALG,
           given=[asm(sp.Le(lc.D_next_split,
                            lc.D_psi_za + alpha * a_t**2 / (2 * lc.sigma_split**2)),
                      f"{v.rid('shift-reduction')} with ζ = ς_t, a = a_t, z = z_{{t+1}}"),
                  asm(sp.Eq(lc.sigma_split**2, (1 - beta) * eta**2 * sigma_dp**2),
                      f"({v.eq('noise-split')}): ς_t ~ N(0, (1−β)η²σ_DP² I)")],
           because=v.rid("shift-reduction"), eq=v.eq("gc-one-step")),
        Step(v.lbl("gc-one-step", 3), lc.D_psi_za + SHIFT_COST_T, "=", lc.D_psi_zs + SHIFT_COST_T, PRO,
           given=[asm(sp.Eq(z_t1, (1 + eta * L) * z_t - a_t),
                      f"definition of z_{{t+1}} (the text before ({v.eq('gc-one-step')}))")],
           because="definition of z_{t+1}: z_{t+1} + a_t = (1+ηL) z_t (see shift-recursion)",
           eq=v.eq("gc-one-step"), oracle=ROW_ORACLE, oracle_args=SHIFT_ARGS),
        Step(v.lbl("gc-one-step", 4), lc.D_psi_zs + SHIFT_COST_T, "<=", lc.D_cur + B + SHIFT_COST_T, ALG,
           given=[asm(sp.Le(lc.D_psi_zs, lc.D_cur + B),
                      f"{lemma} part 1 with μ = θ_t, ν = θ'_t, z = z_t")],
           because=lemma, eq=v.eq("gc-one-step")),
    ))
    shift_rec = Step("shift-recursion", z_t1 + a_t, "=", (1 + eta * L) * z_t, ALG,
                   given=[asm(sp.Eq(z_t1, (1 + eta * L) * z_t - a_t),
                              "z_{t+1} = (1+ηL) z_t − a_t")],
                   because="definition of z_t from the sequence a_t")
    induct = [
        Step(v.lbl("gc-induction", 1), lc.D_last, "<=",
           lc.D_init + alpha * lc.sum_a2 / (2 * eta**2 * sigma_dp**2 * (1 - beta)) + T * B, PRO,
           because=f"({v.eq('gc-one-step')}) for t = T−1, …, 0 (induction) and z_T = 0", eq=v.eq("gc-induction"),
           **typed("part-1", at="D_init=0; sum_a2=0")),
        Step(v.lbl("gc-induction", 2),
           lc.D_init + alpha * lc.sum_a2 / (2 * eta**2 * sigma_dp**2 * (1 - beta)) + T * B, "=",
           alpha * lc.sum_a2 / (2 * eta**2 * sigma_dp**2 * (1 - beta)) + T * B, ALG,
           given=[asm(sp.Eq(lc.D_init, 0), "θ_0 = θ'_0, z_0 = 0")],
           because="the initialisations coincide", eq=v.eq("gc-induction")),
        Step(v.lbl("gc-no-shift"), alpha * lc.sum_a2 / (2 * eta**2 * sigma_dp**2 * (1 - beta)) + T * B, "=",
           rhs1, ALG, given=[asm(sp.Eq(lc.sum_a2, 0), "a_t = 0 for all t")],
           because="a_t = 0 for all t", eq=v.eq("gc-no-shift")),
    ]
    if o_form:
        induct.append(Step("o-form-1", rhs1, "<=", st1, ALG,
                         given=[asm(sp.Ge(lc.c_O, 2 / beta), "O(·) hides the constant 2/β "
                                    "(β ∈ (0,1) a constant)")],
                         because="definition of O(·)"))
    chain1 = Chain("part-1-proof", tuple(induct), concludes="part-1")
    p2steps = [Step("part-2-omitted", lc.D_last, "<=", rhs2, PRO,
                  because=f"as ({v.eq('gc-one-step')})–({v.eq('gc-no-shift')}) with {lemma} part 2 "
                          "(the paper omits this proof)", **typed("part-2"))]
    if o_form:
        p2steps.append(Step("o-form-2", rhs2, "<=", st2, ALG,
                          given=[asm(sp.Ge(lc.c_O, 8 / beta), "O(·) hides the constant 8/β")],
                          because="definition of O(·)"))
    chain2 = Chain("part-2-proof", tuple(with_given(p2, p2steps)), concludes="part-2")

    bound_h = hyps
    form = "O" if o_form else "explicit"
    eps1 = alpha * C**2 * T / (n * b * sigma_dp**2) if o_form else rhs1
    eps2 = alpha * C**2 * T / (n**2 * sigma_dp**2) if o_form else rhs2
    return Result(
        f"{v.paper}:thm-3.3", "Privacy guarantee for DPSGD-GC", where,
        hypotheses=hyps,
        statement=[
            Step("part-1", lc.D_last, "<=", st1, PRO, eq=v.eq("gc-privacy-1"), because="proved below",
               note="O-form: c_O is the constant hidden in O(·)" if o_form else ""),
            Step("part-2", lc.D_last, "<=", st2, PRO, given=p2, eq=v.eq("gc-privacy-2"),
               because="proof omitted in the paper"),
        ],
        proof=[split, recursion, shift_rec, chain1, chain2],
        bounds=[Bound("part-1", eps1, mechanism=GC, problem_class=[LSmooth(L)],
                      hypotheses=bound_h, form=form, order=alpha),
                Bound("part-2", eps2, mechanism=GC, problem_class=[LSmooth(L)],
                      hypotheses=bound_h + p2, form=form, order=alpha)],
        note=note,
    )


def c_O_bound(expr):
    return lc.c_O * expr


# ======================================================================================
# Theorem 3.4 (B.3): DPSGD-DC
def theorem_3_4_common(v: Numbering) -> dict:
    """The proof items shared by both versions: ICML (46)–(48), AAAI (49)–(51)."""
    B = STEP_GC
    sum_cost = alpha * lc.sum_a2_tau / (2 * eta**2 * sigma_dp**2 * (1 - beta))
    items = {}
    items["z-tau"] = Step("z-tau", lc.D_tau, "=", 0, PRO,
                        because="bounded domain of diameter D: W∞(P_θτ, P_θ'τ) ≤ D = z_τ",
                        oracle="no-instance", oracle_args={"reason": (
                            "a fact about W∞ on a set of diameter D (any two laws on K are "
                            "within W∞ distance diam K, so P' = P_θ'τ is admissible and the "
                            "shifted divergence is 0): true exactly when diam K ≤ D, which is "
                            "a property of K, not of an instance's laws — the AAAI row diam-k "
                            "records that Sec. 2.2's K = {‖θ‖ ≤ D} has diameter 2D")})
    items["a-tau"] = Step("z-tau-next", (1 + eta * L) * D - lc.a_tau, "=", 0, ALG,
                        given=[asm(sp.Eq(lc.a_tau, (1 + eta * L) * D), "a_τ = (1+ηL)D")],
                        because="z_{τ+1} = (1+ηL) z_τ − a_τ with z_τ = D; then z_t = 0 for "
                                "t > τ (a_t = 0) and z_T = 0")
    items["one-step"] = Step(v.lbl("dc-one-step"), lc.D_next, "<=", lc.D_cur + B + SHIFT_COST_T, PRO,
                     because=f"as ({v.eq('gc-one-step')})", eq=v.eq("dc-one-step"),
                     oracle=ROW_ORACLE, oracle_args=NEXT_ARGS,
                     note="DPSGD-DC adds the projection Π_K after the noise; the paper does "
                          "not say so, but Π_K is 1-Lipschitz, so the contraction-reduction "
                          f"lemma with s = 0 carries ({v.eq('gc-one-step')}) over")
    items["chain"] = [
        Step(v.lbl("dc-induction", 1), lc.D_last, "<=", lc.D_tau + sum_cost + (T - tau) * B, PRO,
           because=f"({v.eq('dc-one-step')}) for t = T−1, …, τ (induction)", eq=v.eq("dc-induction"),
           given=[asm(sp.Le(tau, T - 1), "τ ∈ {0, …, T−1}")],
           **typed("part-1", at="D_tau=0; sum_a2_tau=(1+eta*L)**2*D**2; tau=T-1")),
        Step(v.lbl("dc-induction", 2), lc.D_tau + sum_cost + (T - tau) * B, "=", sum_cost + (T - tau) * B, ALG,
           given=[asm(sp.Eq(lc.D_tau, 0), "z_τ = D (see z-tau)")], because="z_τ = D",
           eq=v.eq("dc-induction")),
        Step(v.lbl("dc-shift-choice", 1), sum_cost + (T - tau) * B, "=", B * (T - tau) + DOMAIN_COST, ALG,
           given=[asm(sp.Eq(lc.sum_a2_tau, (1 + eta * L)**2 * D**2),
                      "a_τ = (1+ηL)D, a_t = 0 for t > τ")],
           because="choice of a_t", eq=v.eq("dc-shift-choice"),
           note="printed as '≤ min_τ …'; this line holds for every τ ∈ {0, …, T−1}, the "
                "minimum is taken in the next line"),
        Step(v.lbl("dc-shift-choice", 2), B * (T - tau) + DOMAIN_COST, "=", B + DOMAIN_COST, ALG,
           given=[asm(sp.Eq(tau, T - 1), "the minimising τ = T − 1 (see min-tau)")],
           because="minimum over τ ∈ {0, …, T−1}", eq=v.eq("dc-shift-choice")),
    ]
    items["min-tau"] = Step("min-tau", B + DOMAIN_COST, "<=", B * (T - tau) + DOMAIN_COST, ALG,
                          given=[asm(sp.Le(tau, T - 1), "τ ≤ T − 1")],
                          because="τ = T − 1 minimises (T − τ)·2αC²/(βnbσ²) over {0, …, T−1}")
    return items


def theorem_3_4_hypotheses(w: str) -> list:
    return common_hypotheses(w) + [asm(BoundedDomain(D), w)]

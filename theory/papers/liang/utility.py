"""Utility half of Liang et al. (``liang-icml`` Section 3.2 / A.3 / C.1 and ``liang-aaai``
Section 3.2 / A.4 / C.1–C.3): the quantities and the shared builder of both versions.

Both versions print the same proof of the DPSGD-DC utility theorem (ICML Theorem 3.9,
equations (50)–(70); AAAI Theorem 3.10, equations (58)–(79)), with a different
numbering and lemma names.  :func:`build_theorem` encodes it once from a
:class:`Version` table, line by line, as printed.

Scalar stand-ins
----------------
The proof manipulates vectors and expectations.  Every printed expression is written
in named scalar quantities (declared below with their dimensions):

* the state at θ_t: ``grad_norm`` = ‖∇l(θ_t)‖, ``dist`` = ‖θ_t − θ*‖,
  ``gap`` = l(θ_t) − l(θ*), ``inner`` = ∇l(θ_t)ᵀ(θ_t − θ*);
* per sample ξ: ``dev`` = ‖∇l_ξ − ∇l‖, ``sgrad`` = ‖∇l_ξ‖, ``clip_inner`` = g_ξᵀ(θ_t − θ*),
  the clipping factors ``gamma_xi`` = γ_ξ and ``gamma_clip`` = γ;
* expectations and probabilities over ξ: ``E_clip_inner``, ``E_dev``, ``E_sgrad``,
  ``Pr_kxi1`` = Pr(κ_ξ = 1), ``Pr_k1`` = Pr(κ = 1), ``bias_norm``, ...

How a line is checked follows from what justifies it (``because``):

* ALGEBRA — the line follows from the hypotheses in force plus the *scalar* facts it
  cites, listed in ``given`` (Lemma A.13/A.14 implications such as ‖∇l‖² ≤ 2L(l − l*),
  an earlier line re-declared, a definition);
* PROBABILISTIC — the line is a fact about vectors or random variables (Cauchy–Schwarz
  on g_ξ, clipping, Markov, Jensen, law of total expectation); it names the step oracle
  ``dpsgd-dc-instance`` (``checks.probabilistic``), which evaluates both sides on concrete
  quadratic losses and discrete (exact) or Gaussian gradient-noise distributions that
  satisfy Assumption 3.6 and every hypothesis in force;
* CITED — the projection step (Lemma A.2/A.3), Lemma 3.7.

Readings chosen where the rendering is ambiguous (said once here, and in the notes):

* (56)/(64) print a lower-case ``c`` in ``22ηc/(25√(2L))``; it is read as the clipping
  threshold ``C`` (the same symbol), because no other ``c`` is defined.
* (65)/(74) line 1 prints ``‖g_ξ − ∇l(θ_t) + l(θ_t)‖²`` (a vector plus a scalar); it is
  read as ``‖g_ξ − ∇l + ∇l‖² = ‖g_ξ‖²`` — the only reading that is well typed.
* O(·) steps are encoded with the explicit constant that the proof's own algebra gives
  (``25√2/12`` for (57), ``35/√2`` for (1.2), ``5√2`` for (61), ``50`` for (69)), and
  the final "summing up all the cases" with ``K_SUM = 50``, the largest of them.
* AAAI (65)/(70) print ``√(LD²)/(ηCT)`` where ICML (57)/(61) and AAAI's own (17)/(79) print
  ``√L D²/(ηCT)``; encoded as printed in each version (√(LD²) = √L·D is not even
  dimensionally a √loss).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from theory.classes import BoundedDomain, GradNoise, LSmooth, StronglyConvex
from theory.mechanisms import NoisySGD
from theory.metrics import MIN_EXPECTED_SQRT_GAP
from theory.model import Case, CaseSplit, Chain, Rate, Result, Step, StepKind, asm
from theory.papers.liang.symbols import (DIMLESS, GRADIENT, LOSS, THETA, C, D, L, T, alpha, b, d, n,
                            dist, epsilon, eta, gap, grad_norm, mu, n, quantity,
                            sigma_dp, sigma_sgd, delta, beta)

A, P, S, CI = StepKind.ALGEBRA, StepKind.PROBABILISTIC, StepKind.SCALAR, StepKind.CITED
R = sp.Rational
sqrt = sp.sqrt
_NN = dict(nonnegative=True)
_RE = dict(real=True)
GRAD2 = GRADIENT ** 2

# --------------------------------------------------------------------------------------
# utility (helper C): scalar stand-ins of the proof of Theorem 3.9 / 3.10
inner = quantity("inner", LOSS, "∇l(θ_t)ᵀ(θ_t − θ*)", r"\nabla l(\theta_t)^\top(\theta_t-\theta^*)",
                 **_RE)
dev = quantity("dev", GRADIENT, "‖∇l_ξ(θ_t) − ∇l(θ_t)‖ (one sample ξ)",
               r"\|\nabla l_\xi(\theta_t)-\nabla l(\theta_t)\|", **_NN)
sgrad = quantity("sgrad", GRADIENT, "‖∇l_ξ(θ_t)‖ (one sample ξ)", r"\|\nabla l_\xi(\theta_t)\|",
                 **_NN)
clip_inner = quantity("clip_inner", LOSS, "g_ξ(θ_t)ᵀ(θ_t − θ*), g_ξ = clip_C(∇l_ξ)",
                      r"g_\xi(\theta_t)^\top(\theta_t-\theta^*)", **_RE)
gclip_norm = quantity("gclip_norm", GRADIENT, "‖g_ξ(θ_t)‖", r"\|g_\xi(\theta_t)\|", **_NN)
gamma_xi = quantity("gamma_xi", DIMLESS, "γ_ξ = min(1, C/‖∇l_ξ(θ_t)‖)", r"\gamma_\xi", **_NN)
gamma_clip = quantity("gamma_clip", DIMLESS, "γ = min(1, C/‖∇l(θ_t)‖)", r"\gamma", **_NN)
E_clip_inner = quantity("E_clip_inner", LOSS, "E_ξ[g_ξ(θ_t)ᵀ(θ_t − θ*)]",
                        r"\mathbb E_\xi[g_\xi^\top(\theta_t-\theta^*)]", **_RE)
E_dev = quantity("E_dev", GRADIENT, "E_ξ‖∇l_ξ − ∇l‖", r"\mathbb E_\xi\|\nabla l_\xi-\nabla l\|",
                 **_NN)
E_dev_sq = quantity("E_dev_sq", GRAD2, "E_ξ‖∇l_ξ − ∇l‖² (Assumption 3.6)",
                    r"\mathbb E_\xi\|\nabla l_\xi-\nabla l\|^2", **_NN)
E_sgrad = quantity("E_sgrad", GRADIENT, "E_ξ‖∇l_ξ − ∇l + ∇l‖ = E_ξ‖∇l_ξ‖",
                   r"\mathbb E_\xi\|\nabla l_\xi\|", **_NN)
Pr_kxi1 = quantity("Pr_kxi1", DIMLESS, "Pr(κ_ξ = 1), κ_ξ = 1{‖∇l_ξ − ∇l‖ > 5σ(L/μ)^{1/4}}",
                   r"\Pr(\kappa_\xi=1)", **_NN)
Pr_kxi0 = quantity("Pr_kxi0", DIMLESS, "Pr(κ_ξ = 0)", r"\Pr(\kappa_\xi=0)", **_NN)
Pr_dev_xi = quantity("Pr_dev_xi", DIMLESS, "Pr(‖∇l_ξ − ∇l‖² > 25σ²√(L/μ))",
                     r"\Pr(\|\nabla l_\xi-\nabla l\|^2>25\sigma^2\sqrt{L/\mu})", **_NN)
Pr_k1 = quantity("Pr_k1", DIMLESS, "Pr(κ = 1), κ = 1{‖∇l_ξ‖ > C}", r"\Pr(\kappa=1)", **_NN)
Pr_dev_half = quantity("Pr_dev_half", DIMLESS, "Pr(‖∇l_ξ − ∇l‖² > C²/4)",
                       r"\Pr(\|\nabla l_\xi-\nabla l\|^2>C^2/4)", **_NN)
bias_norm = quantity("bias_norm", GRADIENT, "‖E_ξ[g_ξ] − ∇l‖",
                     r"\|\mathbb E_\xi[g_\xi]-\nabla l\|", **_NN)
cond_bias = quantity("cond_bias", GRADIENT, "‖E_ξ[g_ξ − ∇l_ξ | κ = 1]‖",
                     r"\|\mathbb E_\xi[g_\xi-\nabla l_\xi\mid\kappa=1]\|", **_NN)
unc_bias = quantity("unc_bias", GRADIENT, "‖E_ξ[(1 − C/‖∇l_ξ‖)∇l_ξ]‖ (unconditional, as printed)",
                    r"\|\mathbb E_\xi[(1-\tfrac{C}{\|\nabla l_\xi\|})\nabla l_\xi]\|", **_NN)
E_gbar_sq = quantity("E_gbar_sq", GRAD2, "E‖g(θ_t)‖², g the mini-batch mean of b clipped gradients",
                     r"\mathbb E\|g(\theta_t)\|^2", **_NN)
E_gxi_sq = quantity("E_gxi_sq", GRAD2, "E_ξ‖g_ξ − ∇l + ∇l‖² = E_ξ‖g_ξ‖²",
                    r"\mathbb E_\xi\|g_\xi\|^2", **_NN)
E_gdev_sq = quantity("E_gdev_sq", GRAD2, "E_ξ‖g_ξ − ∇l‖²", r"\mathbb E_\xi\|g_\xi-\nabla l\|^2",
                     **_NN)
gbar_norm = quantity("gbar_norm", GRADIENT, "‖g(θ_t)‖ (one mini-batch)", r"\|g(\theta_t)\|", **_NN)
ip_batch = quantity("ip_batch", LOSS, "(1/b)Σ_{ξ∈B_t} g_ξᵀ(θ_t − θ*)",
                    r"\tfrac1b\sum_{\xi\in\mathcal B_t}g_\xi^\top(\theta_t-\theta^*)", **_RE)
E_next_zeta = quantity("E_next_zeta", THETA ** 2, "E_ζ‖θ_{t+1} − θ*‖²",
                       r"\mathbb E_{\zeta_t}\|\theta_{t+1}-\theta^*\|^2", **_NN)
E_preproj = quantity("E_preproj", THETA ** 2, "E_ζ‖θ_t − ηg(θ_t) + ζ_t − θ*‖²",
                     r"\mathbb E_{\zeta_t}\|\theta_t-\eta g+\zeta_t-\theta^*\|^2", **_NN)
step_sq = quantity("step_sq", THETA ** 2, "‖θ_t − ηg(θ_t) − θ*‖²",
                   r"\|\theta_t-\eta g(\theta_t)-\theta^*\|^2", **_NN)
E_next = quantity("E_next", THETA ** 2, "E_{ζ,ξ}‖θ_{t+1} − θ*‖²",
                  r"\mathbb E_{\zeta_t,\xi}\|\theta_{t+1}-\theta^*\|^2", **_NN)
avg_sqrt_gap = quantity("avg_sqrt_gap", LOSS ** R(1, 2), "(1/(T+1)) Σ_t E√(l(θ_t) − l*)",
                        r"\frac1{T+1}\sum_t\mathbb E\sqrt{l(\theta_t)-l^*}", **_NN)
avg_gap = quantity("avg_gap", LOSS, "(1/(T+1)) Σ_t E[l(θ_t) − l*]",
                   r"\frac1{T+1}\sum_t\mathbb E[l(\theta_t)-l^*]", **_NN)
min_sqrt_gap = quantity("min_sqrt_gap", LOSS ** R(1, 2), "min_{t∈[0,T]} E√(l(θ_t) − l*)",
                        r"\min_t\mathbb E\sqrt{l(\theta_t)-l^*}", **_NN)
min_grad = quantity("min_grad", GRADIENT, "min_{t∈[0,T]} E‖∇l(θ_t)‖",
                    r"\min_t\mathbb E\|\nabla l(\theta_t)\|", **_NN)
dist0 = quantity("dist0", THETA, "‖θ_0 − θ*‖", r"\|\theta_0-\theta^*\|", **_NN)
eps_dp = quantity("eps_dp", DIMLESS, "the DP ε of Lemma 2.4 (ε_DP at level δ)", r"\epsilon", **_NN)

# --------------------------------------------------------------------------------------
r = L / mu                      # the condition number L/μ as printed
r14, r12, r34 = r ** R(1, 4), r ** R(1, 2), r ** R(3, 4)
sg = sqrt(gap)                  # √(l(θ_t) − l(θ*))
INSTANCE = "dpsgd-dc-instance"
GAUSS = "gaussian-perturbation"
K_SUM = 50                      # explicit constant read into O(·) when summing up the cases


def _o(**kw):
    return tuple(sorted(kw.items()))


@dataclass(frozen=True)
class Version:
    """How one version prints the utility proof: keys, numbers, lemma names."""

    paper: str
    thm: str                      # theorem number of the DPSGD-DC utility bound
    asm_sc: str                   # number of the strong-convexity assumption
    lem_smooth: str               # "Implications of smoothness"
    lem_sc: str                   # "Implications of strong convexity"
    lem_markov: str
    lem_proj: str
    lem_sq: str                   # ‖a + b‖² ≤ 2‖a‖² + 2‖b‖²
    lem_sqrt: str                 # the two square-root facts
    eqs: dict = field(default_factory=dict)  # ICML equation number -> this version's

    def eq(self, icml: int | str) -> str:
        return str(self.eqs.get(icml, icml))


ICML = Version("liang-icml", "3.9", "3.8", "A.13", "A.14", "A.1", "A.2", "A.3",
               "A.4 and A.5", {k: k for k in range(48, 71)})
AAAI = Version("liang-aaai", "3.10", "3.9", "A.14", "A.15", "A.2", "A.3", "A.4",
               "A.5 and A.6",
               {**{k: k + 8 for k in range(48, 58)}, "1.2": 66,
                **{k: k + 9 for k in range(58, 71)}})


# --------------------------------------------------------------------------------------
def theorem_bound(c=1):
    """The O(·) bound of Theorem 3.9 (ICML (19)) / 3.10 (AAAI (17)) with constant ``c``."""
    return c * (sqrt(L) * D ** 2 / (eta * C * T) + D / sqrt(eta * T)
                + sp.Min(L ** R(3, 4) / mu ** R(5, 4) * sigma_sgd, sqrt(sigma_sgd ** 3 / (mu * C)))
                + sqrt(eta) * sigma_sgd / sqrt(b) + d * eta * sigma_dp ** 2 * sqrt(L) / C
                + sqrt(d * eta) * sigma_dp)


def _facts(v: Version):
    """Scalar implications of the two Beck lemmas, as the proof uses them."""
    sm, sc = f"Lemma {v.lem_smooth}", f"Lemma {v.lem_sc}"
    return {
        "smooth": asm(grad_norm <= sqrt(2 * L * gap), sm, "‖∇l‖² ≤ 2L(l − l*)"),
        "sc_dist": asm(dist <= sqrt(2 * gap / mu), sc, "‖θ − θ*‖² ≤ (2/μ)(l − l*)"),
        "sc_pl": asm(gap <= grad_norm ** 2 / (2 * mu), sc, "l − l* ≤ ‖∇l‖²/(2μ)"),
        "sc_grad": asm(mu * dist <= grad_norm, sc, "μ‖θ − θ*‖ ≤ ‖∇l‖"),
        "convex": asm(inner >= gap, f"convexity ({sm})", "∇lᵀ(θ − θ*) ≥ l − l*"),
    }


def lemma_results(v: Version) -> list[Result]:
    """Lemma A.13/A.14 (ICML) = A.14/A.15 (AAAI) in the scalar form the proof uses them."""
    base = [asm("l convex, differentiable; θ* = argmin l ∈ int K, so ∇l(θ*) = 0", "Thm")]
    inst = dict(kind=CI, oracle=INSTANCE, oracle_args=_o(mode="state"))
    smooth = Result(
        id=f"{v.paper}:lem-{v.lem_smooth.lower()}",
        title="Implications of smoothness (Beck, 2017)",
        where=f"Appendix A, Lemma {v.lem_smooth}",
        hypotheses=base + [asm(LSmooth(L), "Asm 3.1")],
        statement=[
            Step("part-1", grad_norm ** 2, "<=", 2 * L * gap, because="third claim at x = θ*", **inst),
            Step("part-2", gap, "<=", L / 2 * dist ** 2, because="second claim at x = θ*", **inst),
            Step("part-3", grad_norm, "<=", L * dist, because="L-Lipschitz gradient", **inst),
        ],
        note="Scalar consequences at (θ_t, θ*) of the three equivalent claims; checked on "
             "quadratic losses by the dpsgd-dc-instance oracle.")
    sc = Result(
        id=f"{v.paper}:lem-{v.lem_sc.lower()}",
        title="Implications of strong convexity (Beck, 2017)",
        where=f"Appendix A, Lemma {v.lem_sc}",
        hypotheses=base + [asm(StronglyConvex(mu), f"Asm {v.asm_sc}")],
        statement=[
            Step("part-1", mu / 2 * dist ** 2, "<=", gap, because="second claim at x = θ*", **inst),
            Step("part-2", gap, "<=", grad_norm ** 2 / (2 * mu), because="PL inequality", **inst),
            Step("part-3", mu * dist, "<=", grad_norm, because="strong monotonicity", **inst),
            Step("part-4", gap, "<=", inner, because="convexity (first-order condition)", **inst),
        ],
        note="Scalar consequences used in C.1; checked on quadratic losses.")
    return [smooth, sc]


def assumption_results(v: Version) -> list[Result]:
    return [
        Result(id=f"{v.paper}:asm-3.6", title="Bounded SGD variance",
               where="Section 3.2, Assumption 3.6, eq. (16)" if v is ICML else
               "Section 3.2, Assumption 3.6, eq. (13)",
               hypotheses=[asm(E_dev_sq <= sigma_sgd ** 2, "Asm 3.6",
                               "E‖∇l_ξ(θ) − ∇l(θ)‖² ≤ σ_SGD² for all θ")]),
        Result(id=f"{v.paper}:asm-{v.asm_sc}", title="μ-strong convexity",
               where=f"Section 3.2, Assumption {v.asm_sc}",
               hypotheses=[asm("[∇l(θ) − ∇l(θ')]ᵀ(θ − θ') ≥ μ‖θ − θ'‖² for all θ, θ'",
                               f"Asm {v.asm_sc}")]),
    ]


def lemma37(v: Version) -> Result:
    bound = (1 / (eta * C * T) + 1 / sqrt(eta * T) + sp.Min(sigma_sgd, sigma_sgd ** 2 / C)
             + sqrt(eta * L) * sigma_sgd / sqrt(b) + d * L * eta / C * sigma_dp ** 2
             + sqrt(d * L * eta) * sigma_dp)
    return Result(
        id=f"{v.paper}:lem-3.7",
        title="Convergence of DPSGD-GC (Koloskova et al., 2023)",
        where="Section 3.2, Lemma 3.7, eq. (17)" if v is ICML else "Section 3.2, Lemma 3.7, eq. (14)",
        hypotheses=[asm(eta <= 1 / (9 * L), "Lemma 3.7"), asm(LSmooth(L), "Asm 3.1"),
                    asm(E_dev_sq <= sigma_sgd ** 2, "Asm 3.6")],
        statement=[Step("statement", min_grad, "<=", bound, kind=CI,
                        because="Koloskova, Hendrikx & Stich (2023)",
                        note="O(·) with constant 1; the O hides problem constants: 1/(ηCT) "
                             "and 1/√(ηT) are not gradients (units), the initial gap is dropped")],
        note="Cited result; its O(·) terms are dimensionally inconsistent with ‖∇l‖ as printed.")


# --------------------------------------------------------------------------------------
def _proof(v: Version):
    """C.1 of both versions, line by line."""
    F = _facts(v)
    E = v.eq
    lem = lambda x: f"Lemma {x}"  # noqa: E731
    eta_choice = asm(eta <= R(7, 10) / L * r14, f"C.1 case (1.1): 'we choose η ≤ (7/(10L))(L/μ)^{{1/4}}'",
                     "η ≤ (7/(10L))(L/μ)^{1/4}")
    clip_le_C = asm(gbar_norm <= C, "g is a mean of vectors clipped to norm C", "‖g‖ ≤ C")
    expand = asm(sp.Eq(step_sq, dist ** 2 - 2 * eta * ip_batch + eta ** 2 * gbar_norm ** 2),
                 "expansion of the square", "‖θ−ηg−θ*‖² = ‖θ−θ*‖² − 2η gᵀ(θ−θ*) + η²‖g‖²")
    every_t = lambda c: asm(f"case ({c}) holds at every t = 0..T (needed to average (over t))",  # noqa: E731
                            "C.1 'averaging over t'")

    def opening(eqn: int, tag: str, keep_g: bool):
        """(50): projection, Gaussian noise, expansion with ‖g‖ ≤ C (three lines);
        (58): projection, then noise and expansion in one line (two lines)."""
        first = Step(f"eq-{E(eqn)}", E_next_zeta, "<=", E_preproj, kind=CI, eq=E(eqn),
                     because=f"{lem(v.lem_proj)} (projection is non-expansive), θ* ∈ int K",
                     given=[asm("θ* ∈ K, θ_{t+1} = Π_K(θ_t − ηg + ζ_t)", "(49)")])
        if keep_g:
            return Chain(f"chain-{E(eqn)}", [first, Step(
                f"eq-{E(eqn)}-line-2", E_preproj, "<=",
                dist ** 2 - 2 * eta * ip_batch + eta ** 2 * gbar_norm ** 2 + d * eta ** 2 * sigma_dp ** 2,
                kind=P, eq=E(eqn), because="independence of the noise; expand the square",
                oracle=GAUSS)], note=tag)
        return Chain(f"chain-{E(eqn)}", [
            first,
            Step(f"eq-{E(eqn)}-line-2", E_preproj, "<=", step_sq + d * eta ** 2 * sigma_dp ** 2,
                 kind=P, eq=E(eqn), because="independence of the noise ζ_t ~ N(0, η²σ_DP² I_d)",
                 oracle=GAUSS),
            Step(f"eq-{E(eqn)}-line-3", step_sq + d * eta ** 2 * sigma_dp ** 2, "<=",
                 dist ** 2 - 2 * eta * ip_batch + eta ** 2 * C ** 2 + d * eta ** 2 * sigma_dp ** 2,
                 eq=E(eqn), because="expand the square; ‖g‖ ≤ C", given=[expand, clip_le_C]),
        ], note=tag)

    # ---------------- case (1.1)
    per_in = dict(per_sample=True, where="dev <= 5*sigma_sgd*(L/mu)**(1/4)")
    per_out = dict(per_sample=True, where="dev > 5*sigma_sgd*(L/mu)**(1/4)")
    g_up = C / (35 * sigma_sgd * r34 - 5 * sigma_sgd * r14)
    Q = inner
    l3 = -7 * eta * C / (4 * grad_norm) * gap + 2 * eta * gamma_xi * dev * dist
    l4 = -7 * eta * C / (4 * sqrt(2 * L)) * sg \
        + 2 * eta * C * sigma_sgd * r14 / (7 * sigma_sgd * r34 - sigma_sgd * r14) * sqrt(2 / mu) * sg
    l5 = -7 * eta * C / (4 * sqrt(2 * L)) * sg + 4 * eta * C / (sqrt(2) * (7 * sqrt(L) - sqrt(mu))) * sg
    l6 = -13 * eta * C / (12 * sqrt(2 * L)) * sg
    e51 = E(51)
    case11 = [
        opening(50, "(50): the opening inequality of case (1.1)", keep_g=False),
        Step("gamma-xi-upper", gamma_xi, "<=", g_up, kind=P, eq=None,
             because="γ_ξ = min(1, C/‖∇l_ξ‖), ‖∇l_ξ‖ ≥ ‖∇l‖ − ‖∇l_ξ − ∇l‖ ≥ 35σ(L/μ)^{3/4} − 5σ(L/μ)^{1/4}",
             oracle=INSTANCE, oracle_args=_o(**per_in),
             note="text before (51): 'we immediate get γ_ξ ≤ C/(35σ(L/μ)^{3/4} − 5σ(L/μ)^{1/4})'"),
        Step("gamma-xi-lower", gamma_xi, ">=", 7 * C / (8 * grad_norm), kind=P,
             because="γ_ξ = min(1, C/‖∇l_ξ‖), ‖∇l_ξ‖ ≤ ‖∇l‖ + 5σ(L/μ)^{1/4} ≤ (8/7)‖∇l‖",
             oracle=INSTANCE, oracle_args=_o(**per_in),
             note="text before (51): 'and γ_ξ ≥ 7C/(8‖∇l(θ_t)‖)'"),
        Chain(f"chain-{e51}", [
            Step(f"eq-{e51}", -2 * eta * clip_inner, "=",
                 -2 * eta * ((clip_inner - gamma_xi * Q) + gamma_xi * Q), eq=e51,
                 because="add and subtract γ_ξ∇l"),
            Step(f"eq-{e51}-line-2", -2 * eta * ((clip_inner - gamma_xi * Q) + gamma_xi * Q), "<=",
                 -2 * eta * gamma_xi * Q - 2 * eta * (clip_inner - gamma_xi * Q), eq=e51,
                 because="linearity"),
            Step(f"eq-{e51}-line-3", -2 * eta * gamma_xi * Q - 2 * eta * (clip_inner - gamma_xi * Q),
                 "<=", l3, kind=P, eq=e51,
                 because="convexity (∇lᵀ(θ−θ*) ≥ l − l*), γ_ξ ≥ 7C/(8‖∇l‖), Cauchy–Schwarz with "
                         "g_ξ − γ_ξ∇l = γ_ξ(∇l_ξ − ∇l)",
                 oracle=INSTANCE, oracle_args=_o(**per_in)),
            Step(f"eq-{e51}-line-4", l3, "<=", l4, eq=e51,
                 because=f"{lem(v.lem_smooth)} and {lem(v.lem_sc)}; γ_ξ bound; ‖∇l_ξ − ∇l‖ ≤ 5σ(L/μ)^{{1/4}}",
                 given=[F["smooth"], F["sc_dist"], asm(gamma_xi <= g_up, "text before (51)"),
                        asm(dev <= 5 * sigma_sgd * r14, "sub-case κ_ξ = 0")]),
            Step(f"eq-{e51}-line-5", l4, "<=", l5, eq=e51, because="simplify"),
            Step(f"eq-{e51}-line-6", l5, "<=", l6, eq=e51, because="μ ≤ L"),
        ], note="(51): sub-case ‖∇l_ξ − ∇l‖ ≤ 5σ(L/μ)^{1/4}, one sample ξ"),
        Chain(f"chain-{E(52)}", [
            Step(f"eq-{E(52)}", -2 * eta * clip_inner, "<=", 2 * eta * C * dist, kind=P, eq=E(52),
                 because="Cauchy–Schwarz, ‖g_ξ‖ ≤ C", oracle=INSTANCE, oracle_args=_o(**per_out)),
            Step(f"eq-{E(52)}-line-2", 2 * eta * C * dist, "<=", 4 * eta * C / sqrt(2 * mu) * sg,
                 eq=E(52), because=f"{lem(v.lem_sc)}", given=[F["sc_dist"]]),
        ], note="(52): sub-case ‖∇l_ξ − ∇l‖ > 5σ(L/μ)^{1/4}"),
        Chain(f"chain-{E(53)}", [
            Step(f"eq-{E(53)}", Pr_kxi1, "=", Pr_dev_xi, kind=P, eq=E(53), because="definition of κ_ξ",
                 oracle=INSTANCE),
            Step(f"eq-{E(53)}-line-2", Pr_dev_xi, "<=", sigma_sgd ** 2 / (25 * sigma_sgd ** 2 * sqrt(L / mu)),
                 kind=P, eq=E(53), because=f"{lem(v.lem_markov)} (Markov) and Assumption 3.6",
                 oracle=INSTANCE, oracle_args=_o(families="discrete,gaussian")),
            Step(f"eq-{E(53)}-line-3", sigma_sgd ** 2 / (25 * sigma_sgd ** 2 * sqrt(L / mu)), "=",
                 R(1, 25) * sqrt(mu / L), eq=E(53), because="simplify"),
        ]),
        Chain(f"chain-{E(53)}-kappa0", [
            Step(f"eq-{E(53)}-line-4", Pr_kxi0, ">=", 1 - R(1, 25) * sqrt(mu / L), kind=P, eq=E(53),
                 because="complement of the previous line", oracle=INSTANCE,
                 oracle_args=_o(families="discrete,gaussian")),
            Step(f"eq-{E(53)}-line-5", 1 - R(1, 25) * sqrt(mu / L), ">=", R(24, 25), eq=E(53),
                 because="μ ≤ L"),
        ]),
        Chain(f"chain-{E(54)}", [
            Step(f"eq-{E(54)}", -2 * eta * E_clip_inner, "<=",
                 l6 * R(24, 25) + 4 * eta * C / sqrt(2 * mu) * sg * R(1, 25) * sqrt(mu / L), kind=P,
                 eq=E(54), because=f"({e51}) on κ_ξ = 0, ({E(52)}) on κ_ξ = 1, ({E(53)})",
                 oracle=INSTANCE),
            Step(f"eq-{E(54)}-line-2",
                 l6 * R(24, 25) + 4 * eta * C / sqrt(2 * mu) * sg * R(1, 25) * sqrt(mu / L), "<=",
                 -22 * eta * C / (25 * sqrt(2 * L)) * sg, eq=E(54), because="simplify"),
        ]),
        _eq55(v, [eta_choice, F["smooth"]], "(55) in case (1.1), with the choice of η"),
        Chain(f"chain-{E(56)}", [
            Step(f"eq-{E(56)}", E_next, "<=",
                 dist ** 2 - 22 * eta * C / (25 * sqrt(2 * L)) * sg
                 + eta * C / sqrt(2 * L) * 2 * sg / 5 + d * eta ** 2 * sigma_dp ** 2, eq=E(56),
                 because=f"substitute ({E(54)}) and ({E(55)}) into ({E(50)})",
                 note="printed with lower-case c; read as C",
                 given=[asm(E_next <= dist ** 2 - 2 * eta * E_clip_inner + eta ** 2 * C ** 2
                            + d * eta ** 2 * sigma_dp ** 2, f"({E(50)}) in expectation over the batch"),
                        asm(-2 * eta * E_clip_inner <= -22 * eta * C / (25 * sqrt(2 * L)) * sg, f"({E(54)})"),
                        asm(eta ** 2 * C ** 2 <= eta * C / sqrt(2 * L) * 2 * sg / 5, f"({E(55)})")]),
            Step(f"eq-{E(56)}-line-2",
                 dist ** 2 - 22 * eta * C / (25 * sqrt(2 * L)) * sg
                 + eta * C / sqrt(2 * L) * 2 * sg / 5 + d * eta ** 2 * sigma_dp ** 2, "<=",
                 dist ** 2 - 12 * eta * C / (25 * sqrt(2 * L)) * sg + d * eta ** 2 * sigma_dp ** 2,
                 eq=E(56), because="simplify"),
        ]),
        _averaging(E(57), R(12, 25), "1.1", every_t("1.1"), v),
    ]

    # ---------------- case (1.2)
    case12 = [Chain(f"chain-{E('1.2')}", [
        Step(f"eq-{E('1.2')}" if v is AAAI else "inline-1.2", sg, "<=", sqrt(1 / (2 * mu)) * grad_norm,
             eq=E("1.2") if v is AAAI else None, because=f"{lem(v.lem_sc)}", given=[F["sc_pl"]]),
        Step((f"eq-{E('1.2')}" if v is AAAI else "inline-1.2") + "-line-2", sqrt(1 / (2 * mu)) * grad_norm,
             "<=", 35 / sqrt(2) * L ** R(3, 4) / mu ** R(5, 4) * sigma_sgd,
             eq=E("1.2") if v is AAAI else None,
             because="case (1.2); O(·) read with the constant 35/√2 the algebra gives"),
    ])]

    # ---------------- case (2.1)
    gl = 2 * eta * gamma_clip * Q
    c21 = [
        opening(58, "(58): the opening inequality of case (2.1)", keep_g=True),
        Step("gamma-lower", sp.Min(1, C / grad_norm), ">=", sp.Min(1, C / (2 * grad_norm)), kind=S,
             because="C/‖∇l‖ ≥ C/(2‖∇l‖)", note="text before (59): γ ≥ min(1, C/(2‖∇l‖))"),
        Step("gamma-lower-2", sp.Min(1, C / (2 * grad_norm)), "=", C / (2 * grad_norm), kind=S,
             because="case (2.1): ‖∇l‖ > C/2", note="text before (59): … = C/(2‖∇l‖)"),
        Chain(f"chain-{E(59)}", [
            Step(f"eq-{E(59)}", -2 * eta * E_clip_inner, "=",
                 -2 * eta * ((E_clip_inner - gamma_clip * Q) + gamma_clip * Q), eq=E(59),
                 because="add and subtract γ∇l"),
            Step(f"eq-{E(59)}-line-2", -2 * eta * ((E_clip_inner - gamma_clip * Q) + gamma_clip * Q), "<=",
                 -gl - 2 * eta * (E_clip_inner - gamma_clip * Q), eq=E(59), because="linearity"),
            Step(f"eq-{E(59)}-line-3", -gl - 2 * eta * (E_clip_inner - gamma_clip * Q), "<=",
                 -eta * C / grad_norm * gap + 2 * eta * E_dev * dist, kind=P, eq=E(59),
                 because="convexity, γ ≥ C/(2‖∇l‖), Cauchy–Schwarz, clipping is 1-Lipschitz",
                 oracle=INSTANCE),
            Step(f"eq-{E(59)}-line-4", -eta * C / grad_norm * gap + 2 * eta * E_dev * dist, "<=",
                 -eta * C / sqrt(2 * L) * sg + 2 * eta * sigma_sgd * sqrt(2 / mu) * sg, eq=E(59),
                 because=f"{lem(v.lem_smooth)} and {lem(v.lem_sc)}; E‖∇l_ξ − ∇l‖ ≤ σ_SGD",
                 given=[F["smooth"], F["sc_dist"],
                        asm(E_dev <= sigma_sgd, "Jensen + Asm 3.6", "E‖∇l_ξ − ∇l‖ ≤ σ_SGD")]),
            Step(f"eq-{E(59)}-line-5", -eta * C / sqrt(2 * L) * sg + 2 * eta * sigma_sgd * sqrt(2 / mu) * sg,
                 "<=", -eta * C / sqrt(2 * L) * sg + 2 * eta * C / (5 * sqrt(2 * L)) * sg, eq=E(59),
                 because="case (2): C ≥ 10σ(L/μ)^{1/2}"),
            Step(f"eq-{E(59)}-line-6", -eta * C / sqrt(2 * L) * sg + 2 * eta * C / (5 * sqrt(2 * L)) * sg,
                 "<=", -3 * eta * C / (5 * sqrt(2 * L)) * sg, eq=E(59), because="simplify"),
        ]),
        _eq55(v, [eta_choice, F["smooth"]],
              f"({E(55)}) re-declared in case (2.1) ('Combined with ({E(55)})'): only case (2.1)'s "
              "hypotheses and the proof's choice of η"),
        Chain(f"chain-{E(60)}", [
            Step(f"eq-{E(60)}", E_next, "<=",
                 dist ** 2 - 3 * eta * C / (5 * sqrt(2 * L)) * sg + eta * C / sqrt(2 * L) * 2 * sg / 5
                 + eta ** 2 * sigma_dp ** 2, eq=E(60),
                 because=f"({E(58)}), ({E(59)}) and ({E(55)})",
                 note="printed '+ η²σ_DP²' (no d) on this line, '+ dη²σ_DP²' on the next",
                 given=[asm(E_next <= dist ** 2 - 2 * eta * E_clip_inner + eta ** 2 * C ** 2
                            + d * eta ** 2 * sigma_dp ** 2, f"({E(58)}) in expectation, ‖g‖ ≤ C"),
                        asm(-2 * eta * E_clip_inner <= -3 * eta * C / (5 * sqrt(2 * L)) * sg, f"({E(59)})"),
                        asm(eta ** 2 * C ** 2 <= eta * C / sqrt(2 * L) * 2 * sg / 5, f"({E(55)})")]),
            Step(f"eq-{E(60)}-line-2",
                 dist ** 2 - 3 * eta * C / (5 * sqrt(2 * L)) * sg + eta * C / sqrt(2 * L) * 2 * sg / 5
                 + eta ** 2 * sigma_dp ** 2, "<=",
                 dist ** 2 - eta * C / (5 * sqrt(2 * L)) * sg + d * eta ** 2 * sigma_dp ** 2, eq=E(60),
                 because="simplify"),
        ]),
        _averaging(E(61), R(1, 5), "2.1", every_t("2.1"), v),
    ]

    # ---------------- case (2.2)
    ub = R(8) * eta * sigma_sgd ** 2 / C ** 2
    c22 = [
        opening(58, f"({E(58)}) re-declared in case (2.2), where it is used ('Substituting … into "
                    f"({E(58)})')", keep_g=True),
        Step(f"eq-{E(62)}", sgrad, "<=", dev + C / 2, eq=E(62), because="triangle inequality, case (2.2)",
             given=[asm(sgrad <= dev + grad_norm, "triangle inequality", "‖∇l_ξ‖ ≤ ‖∇l_ξ − ∇l‖ + ‖∇l‖")]),
        Chain(f"chain-{E(63)}", [
            Step(f"eq-{E(63)}", Pr_k1, "<=", Pr_dev_half, kind=P, eq=E(63), because=f"({E(62)})",
                 oracle=INSTANCE, oracle_args=_o(families="discrete,gaussian")),
            Step(f"eq-{E(63)}-line-2", Pr_dev_half, "<=", 4 * sigma_sgd ** 2 / C, kind=P, eq=E(63),
                 because=f"{lem(v.lem_markov)} (Markov) and Assumption 3.6",
                 note="as printed: 4σ²/C (Markov gives 4σ²/C²)",
                 oracle=INSTANCE, oracle_args=_o(families="discrete,gaussian")),
        ]),
        Chain(f"chain-{E(64)}", [
            Step(f"eq-{E(64)}", -2 * eta * E_clip_inner, "=", -2 * eta * ((E_clip_inner - Q) + Q), eq=E(64),
                 because="add and subtract ∇l"),
            Step(f"eq-{E(64)}-line-2", -2 * eta * ((E_clip_inner - Q) + Q), "<=",
                 2 * eta * bias_norm * dist - 2 * eta * Q, kind=P, eq=E(64),
                 because="Cauchy–Schwarz", oracle=INSTANCE),
            Step(f"eq-{E(64)}-line-3", 2 * eta * bias_norm * dist - 2 * eta * Q, "<=",
                 2 * eta * cond_bias * Pr_k1 * dist - 2 * eta * gap, kind=P, eq=E(64),
                 because="law of total expectation; convexity", oracle=INSTANCE),
            Step(f"eq-{E(64)}-line-4", 2 * eta * cond_bias * Pr_k1 * dist - 2 * eta * gap, "<=",
                 ub * unc_bias * dist - 2 * eta * gap, kind=P, eq=E(64),
                 because=f"({E(63)}); g_ξ − ∇l_ξ = (C/‖∇l_ξ‖ − 1)∇l_ξ on κ = 1",
                 note="as printed: the unconditional E_ξ[(1 − C/‖∇l_ξ‖)∇l_ξ] replaces the conditional one",
                 oracle=INSTANCE),
            Step(f"eq-{E(64)}-line-5", ub * unc_bias * dist - 2 * eta * gap, "<=",
                 ub * E_sgrad * dist - 2 * eta * gap, kind=P, eq=E(64), because="Jensen's inequality",
                 oracle=INSTANCE),
            Step(f"eq-{E(64)}-line-6", ub * E_sgrad * dist - 2 * eta * gap, "<=",
                 4 * eta * sigma_sgd ** 3 / (mu * C) + 16 * eta * sigma_sgd ** 2 / C ** 2 * sqrt(L / mu) * gap
                 - 2 * eta * gap, eq=E(64),
                 because=f"{lem(v.lem_smooth)} and {lem(v.lem_sc)}",
                 given=[F["smooth"], F["sc_dist"], F["sc_grad"],
                        asm(E_sgrad <= sigma_sgd + grad_norm, "triangle + Jensen + Asm 3.6",
                            "E‖∇l_ξ‖ ≤ σ_SGD + ‖∇l‖")]),
            Step(f"eq-{E(64)}-line-7",
                 4 * eta * sigma_sgd ** 3 / (mu * C) + 16 * eta * sigma_sgd ** 2 / C ** 2 * sqrt(L / mu) * gap
                 - 2 * eta * gap, "<=",
                 4 * eta * sigma_sgd ** 3 / (mu * C) - (2 * eta - R(4, 25) * eta * sqrt(mu / L)) * gap,
                 eq=E(64), because="case (2): C ≥ 10σ(L/μ)^{1/2}"),
            Step(f"eq-{E(64)}-line-8",
                 4 * eta * sigma_sgd ** 3 / (mu * C) - (2 * eta - R(4, 25) * eta * sqrt(mu / L)) * gap, "<=",
                 4 * eta * sigma_sgd ** 3 / (mu * C) - R(46, 25) * eta * gap, eq=E(64), because="μ ≤ L"),
        ]),
        Chain(f"chain-{E(65)}", [
            Step(f"eq-{E(65)}", eta ** 2 * E_gbar_sq, "<=", eta ** 2 / b ** 2 * (b * E_gxi_sq), kind=P,
                 eq=E(65), because="(as printed) the mean of b clipped gradients",
                 note="printed ‖g_ξ − ∇l + l(θ_t)‖², read as ‖g_ξ − ∇l + ∇l‖²; Σ over the b batch "
                      "members of equal expectations = b·E_ξ",
                 oracle=INSTANCE),
            Step(f"eq-{E(65)}-line-2", eta ** 2 / b ** 2 * (b * E_gxi_sq), "<=",
                 2 * eta ** 2 / b ** 2 * (b * E_gdev_sq) + 2 * eta ** 2 * grad_norm ** 2, kind=P, eq=E(65),
                 because=f"{lem(v.lem_sq)}", oracle=INSTANCE),
            Step(f"eq-{E(65)}-line-3", 2 * eta ** 2 / b ** 2 * (b * E_gdev_sq) + 2 * eta ** 2 * grad_norm ** 2,
                 "<=", 2 * eta ** 2 * sigma_sgd ** 2 / b + R(9, 5) * eta * gap, kind=P, eq=E(65),
                 because=f"{lem(v.lem_smooth)}, η ≤ 9/(20L), Assumption 3.6", oracle=INSTANCE),
        ]),
        Chain(f"chain-{E(66)}", [
            Step(f"eq-{E(66)}", E_next, "<=",
                 dist ** 2 + 4 * eta * sigma_sgd ** 3 / (mu * C) - R(46, 25) * eta * gap
                 + 2 * eta ** 2 * sigma_sgd ** 2 / b + R(9, 5) * eta * gap + d * eta ** 2 * sigma_dp ** 2,
                 eq=E(66), because=f"substitute ({E(64)}) and ({E(65)}) into ({E(58)})",
                 given=[asm(E_next <= dist ** 2 - 2 * eta * E_clip_inner + eta ** 2 * E_gbar_sq
                            + d * eta ** 2 * sigma_dp ** 2, f"({E(58)}) in expectation"),
                        asm(-2 * eta * E_clip_inner <= 4 * eta * sigma_sgd ** 3 / (mu * C)
                            - R(46, 25) * eta * gap, f"({E(64)})"),
                        asm(eta ** 2 * E_gbar_sq <= 2 * eta ** 2 * sigma_sgd ** 2 / b + R(9, 5) * eta * gap,
                            f"({E(65)})")]),
            Step(f"eq-{E(66)}-line-2",
                 dist ** 2 + 4 * eta * sigma_sgd ** 3 / (mu * C) - R(46, 25) * eta * gap
                 + 2 * eta ** 2 * sigma_sgd ** 2 / b + R(9, 5) * eta * gap + d * eta ** 2 * sigma_dp ** 2,
                 "<=", dist ** 2 + 4 * eta * sigma_sgd ** 3 / (mu * C) - eta / 25 * gap
                 + 2 * eta ** 2 * sigma_sgd ** 2 / b + d * eta ** 2 * sigma_dp ** 2, eq=E(66),
                 because="simplify"),
        ]),
        _case22_tail(v, every_t("2.2")),
    ]

    split = CaseSplit("cases", [
        Case("case-1", [asm(C <= 10 * sigma_sgd * r12, "C.1 case (1)")], [
            CaseSplit("cases-1", [
                Case("case-1.1", [asm(grad_norm >= 35 * sigma_sgd * r34, "C.1 case (1.1)")], case11),
                Case("case-1.2", [asm(grad_norm < 35 * sigma_sgd * r34, "C.1 case (1.2)")], case12),
            ]),
        ]),
        Case("case-2", [asm(C >= 10 * sigma_sgd * r12, "C.1 case (2)")], [
            CaseSplit("cases-2", [
                Case("case-2.1", [asm(grad_norm > C / 2, "C.1 case (2.1)")], c21),
                Case("case-2.2", [asm(grad_norm <= C / 2, "C.1 case (2.2)")], c22),
            ]),
        ]),
    ], note="per iteration t: the conditions on ‖∇l(θ_t)‖ are about the current iterate")
    return [split, _summing_up(v)]


def _eq55(v: Version, given, note: str, tag: str = "") -> Chain:
    E = v.eq
    lab = f"{tag}eq-{E(55)}"
    a = eta ** 2 * C ** 2
    b_ = R(7, 10) * eta * C ** 2 / L * r14
    c_ = eta * C ** 2 / (2 * L) * (4 * grad_norm / (10 * C))
    d_ = eta * C / sqrt(2 * L) * 2 * sg / 5
    return Chain(f"chain-{lab}", [
        Step(lab, a, "<=", b_, eq=E(55), because="η ≤ (7/(10L))(L/μ)^{1/4}", given=given),
        Step(f"{lab}-line-2", b_, "<=", c_, eq=E(55), because="the case hypotheses on C and ‖∇l‖",
             given=given),
        Step(f"{lab}-line-3", c_, "<=", d_, eq=E(55), because=f"Lemma {v.lem_smooth}", given=given),
    ], note=note)


def _averaging(eqn: str, coef, case: str, every, v: Version) -> Chain:
    """(57)/(61): telescoping the recursion E‖θ_{t+1}−θ*‖² ≤ ‖θ_t−θ*‖² − a√gap_t + dη²σ²."""
    a = coef * eta * C / sqrt(2 * L)
    explicit = (D ** 2 / (T + 1) + d * eta ** 2 * sigma_dp ** 2) / a
    K = sqrt(2) / coef          # explicit = K*(√L D²/(ηC(T+1)) + dησ²√L/C)
    # the first O-term as printed: √L D²/(ηCT) (ICML), √(LD²)/(ηCT) (AAAI (65)/(70))
    first = (sqrt(L * D ** 2, evaluate=False) if v is AAAI else sqrt(L) * D ** 2) / (eta * C * T)
    return Chain(f"chain-{eqn}", [
        Step(f"eq-{eqn}-explicit", avg_sqrt_gap, "<=", explicit, eq=eqn,
             because="sum the recursion over t = 0..T, ‖θ_0 − θ*‖ ≤ D, E‖θ_{T+1} − θ*‖² ≥ 0",
             given=[asm(a * (T + 1) * avg_sqrt_gap <= dist0 ** 2 + (T + 1) * d * eta ** 2 * sigma_dp ** 2,
                        f"case ({case}) recursion summed over t"),
                    asm(dist0 <= D, "θ_0, θ* ∈ K"), every],
             note="explicit form behind the O(·) (not printed)"),
        Step(f"eq-{eqn}", explicit, "<=",
             K * (first + d * eta * sigma_dp ** 2 * sqrt(L) / C), eq=eqn,
             because=f"O(·) read with the constant {sp.nsimplify(K)} the averaging gives; T + 1 > T",
             note="AAAI prints √(LD²)/(ηCT) here" if v is AAAI else "",
             readings=((("sqrt-l-times-d-squared", explicit, "<=",
                         K * (sqrt(L) * D ** 2 / (eta * C * T) + d * eta * sigma_dp ** 2 * sqrt(L) / C),
                         "the rendering's √(LD²) may end after L: √L·D², as ICML (57)/(61) and "
                         "AAAI's own (17)/(79) print it"),) if v is AAAI else ())),
    ])


def _case22_tail(v: Version, every) -> Chain:
    E = v.eq
    R67 = D ** 2 / (eta * (T + 1)) + 4 * sigma_sgd ** 3 / (mu * C) + 2 * eta * sigma_sgd ** 2 / b \
        + d * eta * sigma_dp ** 2
    R68 = D / sqrt(eta * (T + 1)) + 2 * sigma_sgd ** R(3, 2) / sqrt(mu * C) + sqrt(2 * eta) * sigma_sgd / sqrt(b) \
        + sqrt(d * eta) * sigma_dp
    return Chain(f"chain-{E(67)}", [
        Step(f"eq-{E(67)}", avg_gap / 25, "<=", R67, eq=E(67),
             because=f"sum ({E(66)}) over t = 0..T, divide by η(T+1)",
             given=[asm(eta / 25 * (T + 1) * avg_gap <= dist0 ** 2 + (T + 1) * (
                 4 * eta * sigma_sgd ** 3 / (mu * C) + 2 * eta ** 2 * sigma_sgd ** 2 / b
                 + d * eta ** 2 * sigma_dp ** 2), f"({E(66)}) summed over t"),
                    asm(dist0 <= D, "θ_0, θ* ∈ K"), every]),
        Step(f"eq-{E(68)}", avg_sqrt_gap / 25, "<=", sqrt(R67), eq=E(68),
             because=f"Lemma {v.lem_sqrt} (Jensen: E√X ≤ √(EX))",
             given=[asm(avg_sqrt_gap ** 2 <= avg_gap, "Jensen", "(avg E√gap)² ≤ avg E[gap]"),
                    asm(avg_gap / 25 <= R67, f"({E(67)})")],
             note="the chain restarts: the lhs is the average of E√gap, not of E gap"),
        Step(f"eq-{E(68)}-line-2", sqrt(R67), "<=", R68, eq=E(68), because="√(a+b) ≤ √a + √b"),
        Step(f"eq-{E(69)}", R68, "<=",
             50 * (D / sqrt(eta * T) + sqrt(sigma_sgd ** 3 / (mu * C)) + sqrt(eta) * sigma_sgd / sqrt(b)
                   + sqrt(d * eta) * sigma_dp) / 25, eq=E(69),
             because="O(·) read with constant 50 (= 25 × 2) for (1/(T+1))ΣE√gap; T + 1 > T",
             note="both sides divided by 25, as in (68)"),
    ], links=False, note="(67)–(69); (67)→(68) changes the averaged quantity, so links are not checked")


def _summing_up(v: Version) -> CaseSplit:
    """(70)/(79): 'Finally, summing up all the cases' — each case's bound against the min(·,·)."""
    E = v.eq
    fin = theorem_bound(K_SUM)
    bounds = {
        "1.1": (25 * sqrt(2) / 12) * (sqrt(L) * D ** 2 / (eta * C * T) + d * eta * sigma_dp ** 2 * sqrt(L) / C),
        "1.2": 35 / sqrt(2) * L ** R(3, 4) / mu ** R(5, 4) * sigma_sgd,
        "2.1": 5 * sqrt(2) * (sqrt(L) * D ** 2 / (eta * C * T) + d * eta * sigma_dp ** 2 * sqrt(L) / C),
        "2.2": 50 * (D / sqrt(eta * T) + sqrt(sigma_sgd ** 3 / (mu * C)) + sqrt(eta) * sigma_sgd / sqrt(b)
                     + sqrt(d * eta) * sigma_dp),
    }
    conds = {
        "1.1": [asm(C <= 10 * sigma_sgd * r12, "case (1)"), asm(grad_norm >= 35 * sigma_sgd * r34, "case (1.1)")],
        "1.2": [asm(C <= 10 * sigma_sgd * r12, "case (1)"), asm(grad_norm < 35 * sigma_sgd * r34, "case (1.2)")],
        "2.1": [asm(C >= 10 * sigma_sgd * r12, "case (2)"), asm(grad_norm > C / 2, "case (2.1)")],
        "2.2": [asm(C >= 10 * sigma_sgd * r12, "case (2)"), asm(grad_norm <= C / 2, "case (2.2)")],
    }
    cases = []
    for k in ("1.1", "1.2", "2.1", "2.2"):
        cases.append(Case(f"sum-{k}", conds[k], [
            Step(f"eq-{E(70)}", min_sqrt_gap, "<=", fin, eq=E(70),
                 because=f"case ({k}) bound; min_t ≤ average",
                 given=[asm(min_sqrt_gap <= bounds[k], f"case ({k}) of C.1 (explicit constants)")],
                 note=f"O(·) of (70) read with constant {K_SUM}")]))
    return CaseSplit("summing-up", cases,
                     note="'Finally, summing up all the cases': each case's bound must be within the "
                          "final O(·) with its min(L^{3/4}σ/μ^{5/4}, √(σ³/(μC)))")


def build_theorem(v: Version) -> Result:
    return Result(
        id=f"{v.paper}:thm-{v.thm}",
        title="Convergence (utility) of DPSGD-DC",
        where=(f"Section 3.2, Theorem {v.thm}, eq. ({'19' if v is ICML else '17'}); "
               f"proof Appendix C.1, eqs. ({v.eq(50)})–({v.eq(70)})"),
        hypotheses=[
            asm(eta <= R(9, 20) / L, f"Theorem {v.thm}", "η ≤ 9/(20L)"),
            asm(mu <= L, f"Asm 3.1 + {v.asm_sc}", "μ ≤ L"),
            asm(dist <= D, "θ_t, θ* ∈ K, diam K = D"),
            asm(E_dev_sq <= sigma_sgd ** 2, "Asm 3.6"),
            asm(LSmooth(L), "Asm 3.1"),
            asm(StronglyConvex(mu), f"Asm {v.asm_sc}"),
            asm("theta* = argmin l in int K", f"Theorem {v.thm}"),
        ],
        statement=[Step("statement", min_sqrt_gap, "<=", theorem_bound(1), kind=P,
                        because="C.1",
                        note="O(·) printed; constant 1 here. The typed statement (rates) is "
                             "checked by simulating DPSGD-DC on quadratics against the explicit "
                             f"(pre-O) constant {K_SUM} of C.1")],
        proof=_proof(v),
        rates=[Rate("statement", MIN_EXPECTED_SQRT_GAP, theorem_bound(K_SUM),
                    mechanism=NoisySGD(n=n, b=b, eta=eta, C=C, sigma=sigma_dp, T=T, domain=D),
                    problem_class=[LSmooth(L), StronglyConvex(mu), GradNoise(sigma_sgd),
                                   BoundedDomain(D)],
                    hypotheses=[asm(eta <= R(9, 20) / L, f"Theorem {v.thm}"),
                                asm(mu <= L, "Asm 3.1 + strong convexity")],
                    note=f"the O(·) of ({'19' if v is ICML else '17'}) with the constant "
                         f"{K_SUM} that C.1's case analysis produces (d = the dimension)")],
        note="Cases are per iteration t; averaging over t assumes the case holds at every t "
             "(recorded as a predicate on the averaging steps).")


# --------------------------------------------------------------------------------------
# trade-off statements (Corollaries 3.11/3.12 ICML; Propositions 3.8/3.12, C.1/C.3 AAAI)
def _sub(label, lhs, rhs, sig2, where, extra=(), alt=None):
    readings = ()
    if alt is not None:
        name, alt_rhs, why = alt
        readings = ((name, lhs, "=", alt_rhs, why),)
    return Step(label, lhs, "=", rhs, because=f"substitute σ_DP² = {sig2} ({where})",
                given=[asm(sp.Eq(sigma_dp ** 2, sig2), where), *extra], readings=readings)


def _part2(where):
    """Part (ii)'s extra conditions.  b ≤ n/5 and σ_DP > 8C/(b√β), β ∈ (0, 1) are relations,
    so a witness of a failing substitution meets them too; α ≤ α*(…) stays a predicate (the
    substitution does not use it)."""
    return [asm(sp.Le(b, n / 5), where), asm(sp.Gt(sigma_dp, 8 * C / (b * sp.sqrt(beta))), where),
            asm(sp.Gt(beta, 0), where), asm(sp.Lt(beta, 1), where),
            asm("alpha <= alpha*(b/n, b sqrt(beta) sigma_dp/(2C))", where)]


def tradeoff(rid: str, title: str, where: str, base_hyp, lhs5, lhs6, parts) -> Result:
    """σ_DP² substituted into the two DP-noise terms ``lhs5``, ``lhs6`` of a utility bound.

    ``parts``: list of (label, σ_DP² as printed, printed term 5, printed term 6, where, part-2?
    [, alternative reading of term 6: (name, term, why)]).
    Each printed term is compared with the substitution read with O-constant 1.
    """
    chains = []
    for label, sig2, t5, t6, pwhere, p2, *alt in parts:
        extra = _part2(pwhere) if p2 else []
        chains.append(Chain(label, [
            _sub(f"{label}-term-5", lhs5, t5, sig2, pwhere, extra),
            _sub(f"{label}-term-6", lhs6, t6, sig2, pwhere, extra, alt[0] if alt else None),
        ], links=False, note=pwhere))
    return Result(id=rid, title=title, where=where, hypotheses=[base_hyp], proof=chains,
                  note="Only the two DP-noise terms change when σ_DP² is substituted; O-constants 1.")


def tradeoff_gc(rid, where, parts) -> Result:
    return tradeoff(rid, "Privacy-utility trade-off for DPSGD-GC", where,
                    asm(eta <= 1 / (9 * L), "Lemma 3.7"),
                    d * L * eta / C * sigma_dp ** 2, sqrt(d * L * eta) * sigma_dp, parts)


def tradeoff_dc(rid, where, parts) -> Result:
    return tradeoff(rid, "Privacy-utility trade-off for DPSGD-DC", where,
                    asm(eta <= R(9, 20) / L, "Theorem 3.9/3.10"),
                    d * eta * sigma_dp ** 2 * sqrt(L) / C, sqrt(d * eta) * sigma_dp, parts)


def conversion_steps(prefix: str, eqn: str, terms: list[tuple]) -> Chain:
    """RDP → (ϵ, δ)-DP: α = 1 + 2log(1/δ)/ϵ, ε = ϵ/2, under ϵ ≤ 2log(1/δ): α/ε ≤ 8log(1/δ)/ϵ²."""
    lg = sp.log(1 / delta)
    given = [asm(sp.Eq(alpha, 1 + 2 * lg / eps_dp), "Lemma 2.4 choice"),
             asm(sp.Eq(epsilon, eps_dp / 2), "Lemma 2.4 choice"),
             asm(eps_dp <= 2 * lg, "C.2: ϵ ≤ 2 log(1/δ)"), asm(delta < 1, "C.2")]
    steps = []
    for i, (lhs, rhs, k) in enumerate(terms, 1):
        steps.append(Step(f"{prefix}-term-{i}", lhs, "<=", k * rhs, kind=S, eq=eqn, given=given,
                          because=f"α/ε ≤ 8 log(1/δ)/ϵ² (O-constant {k})"))
    return Chain(f"{prefix}-conversion", steps, links=False)


# --------------------------------------------------------------------------------------
#: the roles of this paper's symbols (``Paper.roles``, both versions): the engine grants
#: the relations the typed classes in force imply between them (gap ≤ (L/2)·dist², …),
#: α > 1, probabilities in [0, 1], Pr(κ = 1) > 0 where E[· | κ = 1] is used, and
#: builds instances realising a witness over them (``checks.realise``)
ROLES = {
    "gap": gap, "dist": dist, "grad_norm": grad_norm, "diam": D,
    "noise_sq": E_dev_sq, "noise_abs": E_dev,
    "renyi_order": (alpha,),
    "probability": (Pr_kxi1, Pr_kxi0, Pr_dev_xi, Pr_k1, Pr_dev_half),
    # E[g_ξ − ∇l_ξ | κ = 1] and, continuing it in (64)/(73) line 4–5, E[(1 − C/‖∇l_ξ‖)∇l_ξ]
    # on κ = 1: both condition on κ = 1, which must have positive probability
    "conditional": ((cond_bias, Pr_k1), (unc_bias, Pr_k1)),
    # min_t E√(l(θ_t) − l*): each θ_t lies in K with θ*, so E√gap_t is at most √((L/2)·D²)
    "states": ({"gap": min_sqrt_gap ** 2},),
}

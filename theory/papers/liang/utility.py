"""Utility half of Liang et al. (``liang-icml`` Section 3.2 / A.3 / C.1 and ``liang-aaai``
Section 3.2 / A.4 / C.1–C.3): the quantities and the shared builder of both versions.

Both versions print the same proof of the DPSGD-DC utility theorem (ICML Theorem 3.9,
equations (50)–(70); AAAI Theorem 3.10, equations (58)–(79)), with a different
numbering and lemma names.  :func:`build_theorem` encodes it once, one function per
printed case (:func:`case_1_1`, :func:`case_1_2`, :func:`case_2_1`, :func:`case_2_2`,
then :func:`summing_up`), line by line, as printed; every equation and lemma is named
by its role, and :mod:`theory.papers.liang.numbering` gives its number in each version.

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
  cites, listed in ``given`` (the implications of smoothness and strong convexity, ICML
  Lemmas A.13/A.14, AAAI Lemmas A.14/A.15, such as ‖∇l‖² ≤ 2L(l − l*), an earlier line
  re-declared, a definition);
* PROBABILISTIC — the line is a fact about vectors or random variables (Cauchy–Schwarz
  on g_ξ, clipping, Markov, Jensen, law of total expectation); it names the step oracle
  ``dpsgd-dc-instance`` (``checks.probabilistic``), which evaluates both sides on concrete
  quadratic losses and discrete (exact) or Gaussian gradient-noise distributions that
  satisfy Assumption 3.6 and every hypothesis in force;
* CITED — the projection step (ICML Lemma A.2, AAAI Lemma A.3), Lemma 3.7.

Readings chosen where the rendering is ambiguous (said once here, and in the notes):

* ICML (56), AAAI (64) print a lower-case ``c`` in ``22ηc/(25√(2L))``; it is read as the
  clipping threshold ``C`` (the same symbol), because no other ``c`` is defined.
* ICML (65), AAAI (74) line 1 print ``‖g_ξ − ∇l(θ_t) + l(θ_t)‖²`` (a vector plus a
  scalar); it is read as ``‖g_ξ − ∇l + ∇l‖² = ‖g_ξ‖²`` — the only reading that is well typed.
* O(·) steps are encoded with the explicit constant that the proof's own algebra gives
  (``25√2/12`` for ICML (57) / AAAI (65), ``35/√2`` for case (1.2), ``5√2`` for ICML (61) /
  AAAI (70), ``50`` for ICML (69) / AAAI (78)), and the final "summing up all the cases"
  with ``K_SUM = 50``, the largest of them.
* AAAI (65)/(70) print ``√(LD²)/(ηCT)`` where ICML (57)/(61) and AAAI's own (17)/(79) print
  ``√L D²/(ηCT)``; encoded as printed in each version (√(LD²) = √L·D is not even
  dimensionally a √loss).
"""
from __future__ import annotations

import sympy as sp

from theory.classes import BoundedDomain, GradNoise, LSmooth, StronglyConvex
from theory.mechanisms import NoisySGD
from theory.metrics import MIN_EXPECTED_SQRT_GAP
from theory.model import Case, CaseSplit, Chain, Rate, Result, Step, StepKind, asm
from theory.papers.liang.numbering import AAAI, Numbering
from theory.papers.liang.symbols import (DIMLESS, GRADIENT, LOSS, THETA, C, D, L, T, alpha, b, d, n,
                            dist, epsilon, eta, gap, grad_norm, mu, quantity,
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


NOISE = d * eta ** 2 * sigma_dp ** 2            # dη²σ_DP²: E‖ζ_t‖², ζ_t ~ N(0, η²σ_DP² I_d)
STEP_SQ_BOUND = eta * C / sqrt(2 * L) * 2 * sg / 5  # η²C² ≤ this: the last line of the choice of η

#: "we choose η ≤ (7/(10L))(L/μ)^{1/4}" (case (1.1); case (2.1) re-uses it)
ETA_CHOICE = asm(eta <= R(7, 10) / L * r14, "C.1 case (1.1): 'we choose η ≤ (7/(10L))(L/μ)^{1/4}'",
                 "η ≤ (7/(10L))(L/μ)^{1/4}")
CLIP_LE_C = asm(gbar_norm <= C, "g is a mean of vectors clipped to norm C", "‖g‖ ≤ C")
EXPAND = asm(sp.Eq(step_sq, dist ** 2 - 2 * eta * ip_batch + eta ** 2 * gbar_norm ** 2),
             "expansion of the square", "‖θ−ηg−θ*‖² = ‖θ−θ*‖² − 2η gᵀ(θ−θ*) + η²‖g‖²")


# --------------------------------------------------------------------------------------
def theorem_bound(c=1):
    """The O(·) bound of Theorem 3.9 (ICML (19)) / 3.10 (AAAI (17)) with constant ``c``."""
    return c * (sqrt(L) * D ** 2 / (eta * C * T) + D / sqrt(eta * T)
                + sp.Min(L ** R(3, 4) / mu ** R(5, 4) * sigma_sgd, sqrt(sigma_sgd ** 3 / (mu * C)))
                + sqrt(eta) * sigma_sgd / sqrt(b) + d * eta * sigma_dp ** 2 * sqrt(L) / C
                + sqrt(d * eta) * sigma_dp)


def _facts(v: Numbering):
    """Scalar implications of the two Beck lemmas, as the proof uses them."""
    sm, sc = v.name("smoothness-facts"), v.name("strong-convexity-facts")
    return {
        "smooth": asm(grad_norm <= sqrt(2 * L * gap), sm, "‖∇l‖² ≤ 2L(l − l*)"),
        "sc_dist": asm(dist <= sqrt(2 * gap / mu), sc, "‖θ − θ*‖² ≤ (2/μ)(l − l*)"),
        "sc_pl": asm(gap <= grad_norm ** 2 / (2 * mu), sc, "l − l* ≤ ‖∇l‖²/(2μ)"),
        "sc_grad": asm(mu * dist <= grad_norm, sc, "μ‖θ − θ*‖ ≤ ‖∇l‖"),
        "convex": asm(inner >= gap, f"convexity ({sm})", "∇lᵀ(θ − θ*) ≥ l − l*"),
    }


def lemma_results(v: Numbering) -> list[Result]:
    """Lemma A.13/A.14 (ICML) = A.14/A.15 (AAAI) in the scalar form the proof uses them."""
    base = [asm("l convex, differentiable; θ* = argmin l ∈ int K, so ∇l(θ*) = 0", "Thm")]
    inst = dict(kind=CI, oracle=INSTANCE, oracle_args=_o(mode="state"))
    smooth = Result(
        id=v.rid("smoothness-facts"),
        title="Implications of smoothness (Beck, 2017)",
        where=f"Appendix A, {v.name('smoothness-facts')}",
        hypotheses=base + [asm(LSmooth(L), "Asm 3.1")],
        statement=[
            Step("part-1", grad_norm ** 2, "<=", 2 * L * gap, because="third claim at x = θ*", **inst),
            Step("part-2", gap, "<=", L / 2 * dist ** 2, because="second claim at x = θ*", **inst),
            Step("part-3", grad_norm, "<=", L * dist, because="L-Lipschitz gradient", **inst),
        ],
        note="Scalar consequences at (θ_t, θ*) of the three equivalent claims; checked on "
             "quadratic losses by the dpsgd-dc-instance oracle.")
    sc = Result(
        id=v.rid("strong-convexity-facts"),
        title="Implications of strong convexity (Beck, 2017)",
        where=f"Appendix A, {v.name('strong-convexity-facts')}",
        hypotheses=base + [asm(StronglyConvex(mu), f"Asm {v.number('strong-convexity')}")],
        statement=[
            Step("part-1", mu / 2 * dist ** 2, "<=", gap, because="second claim at x = θ*", **inst),
            Step("part-2", gap, "<=", grad_norm ** 2 / (2 * mu), because="PL inequality", **inst),
            Step("part-3", mu * dist, "<=", grad_norm, because="strong monotonicity", **inst),
            Step("part-4", gap, "<=", inner, because="convexity (first-order condition)", **inst),
        ],
        note="Scalar consequences used in C.1; checked on quadratic losses.")
    return [smooth, sc]


def assumption_results(v: Numbering) -> list[Result]:
    """Assumption 3.6 (ICML eq. (16), AAAI eq. (13)) and the strong-convexity assumption
    (ICML Assumption 3.8, AAAI Assumption 3.9)."""
    sc = v.number("strong-convexity")
    return [
        Result(id=v.rid("sgd-variance"), title="Bounded SGD variance",
               where=f"Section 3.2, Assumption 3.6, eq. ({v.eq('sgd-variance')})",
               hypotheses=[asm(E_dev_sq <= sigma_sgd ** 2, "Asm 3.6",
                               "E‖∇l_ξ(θ) − ∇l(θ)‖² ≤ σ_SGD² for all θ")]),
        Result(id=v.rid("strong-convexity"), title="μ-strong convexity",
               where=f"Section 3.2, Assumption {sc}",
               hypotheses=[asm("[∇l(θ) − ∇l(θ')]ᵀ(θ − θ') ≥ μ‖θ − θ'‖² for all θ, θ'",
                               f"Asm {sc}")]),
    ]


def lemma37(v: Numbering) -> Result:
    """Lemma 3.7, the cited DPSGD-GC rate (ICML eq. (17), AAAI eq. (14))."""
    bound = (1 / (eta * C * T) + 1 / sqrt(eta * T) + sp.Min(sigma_sgd, sigma_sgd ** 2 / C)
             + sqrt(eta * L) * sigma_sgd / sqrt(b) + d * L * eta / C * sigma_dp ** 2
             + sqrt(d * L * eta) * sigma_dp)
    return Result(
        id=v.rid("gc-utility"),
        title="Convergence of DPSGD-GC (Koloskova et al., 2023)",
        where=f"Section 3.2, Lemma 3.7, eq. ({v.eq('gc-utility')})",
        hypotheses=[asm(eta <= 1 / (9 * L), "Lemma 3.7"), asm(LSmooth(L), "Asm 3.1"),
                    asm(E_dev_sq <= sigma_sgd ** 2, "Asm 3.6")],
        statement=[Step("statement", min_grad, "<=", bound, kind=CI,
                        because="Koloskova, Hendrikx & Stich (2023)",
                        note="O(·) with constant 1; the O hides problem constants: 1/(ηCT) "
                             "and 1/√(ηT) are not gradients (units), the initial gap is dropped")],
        note="Cited result; its O(·) terms are dimensionally inconsistent with ‖∇l‖ as printed.")


# --------------------------------------------------------------------------------------
# Appendix C.1, as printed: a display "lhs ≤ e₁ ≤ e₂ …" is written as its first lhs and
# then one _to(rel, rhs) per printed line; each line's lhs is the line before's rhs.
def _to(rel: str, rhs, **kw) -> tuple:
    """One printed line ``rel rhs`` of a display, with its justification (Step's keywords)."""
    return rel, rhs, kw


def _display(label: str, eq: str | None, lhs, *lines: tuple, first: int = 1) -> list[Step]:
    """The lines of one display as steps ``label``, ``label-line-2``, … (``first`` is the
    number of the display's first line here, when a display is split between chains)."""
    steps = []
    for k, (rel, rhs, kw) in enumerate(lines, first):
        steps.append(Step(label if k == 1 else f"{label}-line-{k}", lhs, rel, rhs, eq=eq, **kw))
        lhs = rhs
    return steps


def _lines(v: Numbering, role: str, lhs, *lines: tuple, first: int = 1) -> list[Step]:
    """The printed equation ``role`` of this version, as :func:`_display` steps ``eq-N…``."""
    return _display(f"eq-{v.eq(role)}", v.eq(role), lhs, *lines, first=first)


def _chain(v: Numbering, role: str, steps, **kw) -> Chain:
    return Chain(f"chain-{v.eq(role)}", steps, **kw)


def _every_t(case: str):
    return asm(f"case ({case}) holds at every t = 0..T (needed to average (over t))",
               "C.1 'averaging over t'")


def _proof(v: Numbering) -> list:
    """Appendix C.1 (ICML eqs. (49)–(70), AAAI eqs. (56)–(79)): case (1) C ≤ 10σ(L/μ)^{1/2}
    splits on ‖∇l(θ_t)‖ against 35σ(L/μ)^{3/4}, case (2) C ≥ 10σ(L/μ)^{1/2} on ‖∇l(θ_t)‖
    against C/2; then "Finally, summing up all the cases"."""
    split = CaseSplit("cases", [
        Case("case-1", [asm(C <= 10 * sigma_sgd * r12, "C.1 case (1)")], [
            CaseSplit("cases-1", [
                Case("case-1.1", [asm(grad_norm >= 35 * sigma_sgd * r34, "C.1 case (1.1)")],
                     case_1_1(v)),
                Case("case-1.2", [asm(grad_norm < 35 * sigma_sgd * r34, "C.1 case (1.2)")],
                     case_1_2(v)),
            ]),
        ]),
        Case("case-2", [asm(C >= 10 * sigma_sgd * r12, "C.1 case (2)")], [
            CaseSplit("cases-2", [
                Case("case-2.1", [asm(grad_norm > C / 2, "C.1 case (2.1)")], case_2_1(v)),
                Case("case-2.2", [asm(grad_norm <= C / 2, "C.1 case (2.2)")], case_2_2(v)),
            ]),
        ]),
    ], note="per iteration t: the conditions on ‖∇l(θ_t)‖ are about the current iterate")
    return [split, summing_up(v)]


def _step_expansion(v: Numbering, role: str, note: str, *, keep_g: bool) -> Chain:
    """The opening inequality of a case: E_ζ‖θ_{t+1} − θ*‖² through the projection, the
    noise and the expanded square.  Case (1.1) (ICML (50), AAAI (58)) prints three lines
    and bounds η²‖g‖² by η²C²; case (2.1) (ICML (58), AAAI (67)) prints two, noise and
    expansion in one line, and keeps η²‖g‖²."""
    projection = _to("<=", E_preproj, kind=CI,
                     because=f"{v.name('projection')} (projection is non-expansive), θ* ∈ int K",
                     given=[asm("θ* ∈ K, θ_{t+1} = Π_K(θ_t − ηg + ζ_t)", f"({v.eq('dc-update')})")])
    if keep_g:
        lines = [projection,
                 _to("<=", dist ** 2 - 2 * eta * ip_batch + eta ** 2 * gbar_norm ** 2 + NOISE, kind=P,
                     because="independence of the noise; expand the square", oracle=GAUSS)]
    else:
        lines = [projection,
                 _to("<=", step_sq + NOISE, kind=P,
                     because="independence of the noise ζ_t ~ N(0, η²σ_DP² I_d)", oracle=GAUSS),
                 _to("<=", dist ** 2 - 2 * eta * ip_batch + eta ** 2 * C ** 2 + NOISE,
                     because="expand the square; ‖g‖ ≤ C", given=[EXPAND, CLIP_LE_C])]
    return _chain(v, role, _lines(v, role, E_next_zeta, *lines), note=note)


def _step_size_choice(v: Numbering, note: str) -> Chain:
    """ICML (55), AAAI (63): "we choose η ≤ (7/(10L))(L/μ)^{1/4}, yielding η²C² ≤ …"."""
    given = [ETA_CHOICE, _facts(v)["smooth"]]
    n = v.eq("step-size-choice")
    return Chain(f"chain-eq-{n}", _lines(
        v, "step-size-choice", eta ** 2 * C ** 2,
        _to("<=", R(7, 10) * eta * C ** 2 / L * r14, because="η ≤ (7/(10L))(L/μ)^{1/4}", given=given),
        _to("<=", eta * C ** 2 / (2 * L) * (4 * grad_norm / (10 * C)),
            because="the case hypotheses on C and ‖∇l‖", given=given),
        _to("<=", STEP_SQ_BOUND, because=v.name("smoothness-facts"), given=given),
    ), note=note)


def _averaging(v: Numbering, role: str, coef, case: str) -> Chain:
    """"Thus, averaging over t" (ICML (57)/(61), AAAI (65)/(70)): telescoping the recursion
    E‖θ_{t+1} − θ*‖² ≤ ‖θ_t − θ*‖² − a√gap_t + dη²σ² of the case, a = coef·ηC/√(2L)."""
    eqn = v.eq(role)
    a = coef * eta * C / sqrt(2 * L)
    explicit = (D ** 2 / (T + 1) + NOISE) / a
    K = sqrt(2) / coef          # explicit = K*(√L D²/(ηC(T+1)) + dησ²√L/C)
    noise_term = d * eta * sigma_dp ** 2 * sqrt(L) / C
    if v is AAAI:
        # AAAI (65)/(70) print the first O-term as √(LD²)/(ηCT); ICML (57)/(61) and AAAI's
        # own (17)/(79) print √L D²/(ηCT)
        first = sqrt(L * D ** 2, evaluate=False) / (eta * C * T)
        note = "AAAI prints √(LD²)/(ηCT) here"
        readings = (("sqrt-l-times-d-squared", explicit, "<=",
                     K * (sqrt(L) * D ** 2 / (eta * C * T) + noise_term),
                     "the rendering's √(LD²) may end after L: √L·D², as ICML (57)/(61) and "
                     "AAAI's own (17)/(79) print it"),)
    else:
        first, note, readings = sqrt(L) * D ** 2 / (eta * C * T), "", ()
    return Chain(f"chain-{eqn}", [
        Step(f"eq-{eqn}-explicit", avg_sqrt_gap, "<=", explicit, eq=eqn,
             because="sum the recursion over t = 0..T, ‖θ_0 − θ*‖ ≤ D, E‖θ_{T+1} − θ*‖² ≥ 0",
             given=[asm(a * (T + 1) * avg_sqrt_gap <= dist0 ** 2 + (T + 1) * NOISE,
                        f"case ({case}) recursion summed over t"),
                    asm(dist0 <= D, "θ_0, θ* ∈ K"), _every_t(case)],
             note="explicit form behind the O(·) (not printed)"),
        Step(f"eq-{eqn}", explicit, "<=", K * (first + noise_term), eq=eqn,
             because=f"O(·) read with the constant {sp.nsimplify(K)} the averaging gives; T + 1 > T",
             note=note, readings=readings),
    ])


def case_1_1(v: Numbering) -> list:
    """Case (1.1), ‖∇l(θ_t)‖ ≥ 35σ(L/μ)^{3/4} (ICML (50)–(57), AAAI (58)–(65)).

    The opening inequality; the bounds on γ_ξ; one sample ξ, "if ‖∇l_ξ − ∇l‖ ≤
    5σ(L/μ)^{1/4}" (ICML (51), AAAI (59)) "else" (ICML (52), AAAI (60)); Markov on κ_ξ
    (ICML (53), AAAI (61)); "Hence" (ICML (54), AAAI (62)); the choice of η (ICML (55),
    AAAI (63)); "Substituting" (ICML (56), AAAI (64)); averaging over t (ICML (57),
    AAAI (65))."""
    F = _facts(v)
    sm, sc = v.name("smoothness-facts"), v.name("strong-convexity-facts")
    kappa0 = _o(per_sample=True, where="dev <= 5*sigma_sgd*(L/mu)**(1/4)")
    kappa1 = _o(per_sample=True, where="dev > 5*sigma_sgd*(L/mu)**(1/4)")
    markov = _o(families="discrete,gaussian")
    Q = inner
    g_up = C / (35 * sigma_sgd * r34 - 5 * sigma_sgd * r14)
    small = -13 * eta * C / (12 * sqrt(2 * L)) * sg         # (51)'s last line
    large = 4 * eta * C / sqrt(2 * mu) * sg                  # (52)'s last line
    inner_mean = -22 * eta * C / (25 * sqrt(2 * L)) * sg     # (54)'s last line
    e51, e52, e53 = (v.eq(r) for r in ("inner-small-deviation", "inner-large-deviation",
                                      "markov-deviation"))
    e50, e54, e55 = (v.eq(r) for r in ("step-expansion-C", "inner-mean-1.1", "step-size-choice"))
    return [
        _step_expansion(v, "step-expansion-C", f"({e50}): the opening inequality of case (1.1)",
                        keep_g=False),
        Step("gamma-xi-upper", gamma_xi, "<=", g_up, kind=P, eq=None,
             because="γ_ξ = min(1, C/‖∇l_ξ‖), ‖∇l_ξ‖ ≥ ‖∇l‖ − ‖∇l_ξ − ∇l‖ ≥ 35σ(L/μ)^{3/4} − 5σ(L/μ)^{1/4}",
             oracle=INSTANCE, oracle_args=kappa0,
             note=f"text before ({e51}): 'we immediate get γ_ξ ≤ C/(35σ(L/μ)^{{3/4}} − "
                  "5σ(L/μ)^{1/4})'"),
        Step("gamma-xi-lower", gamma_xi, ">=", 7 * C / (8 * grad_norm), kind=P,
             because="γ_ξ = min(1, C/‖∇l_ξ‖), ‖∇l_ξ‖ ≤ ‖∇l‖ + 5σ(L/μ)^{1/4} ≤ (8/7)‖∇l‖",
             oracle=INSTANCE, oracle_args=kappa0,
             note=f"text before ({e51}): 'and γ_ξ ≥ 7C/(8‖∇l(θ_t)‖)'"),
        _chain(v, "inner-small-deviation", _lines(
            v, "inner-small-deviation", -2 * eta * clip_inner,
            _to("=", -2 * eta * ((clip_inner - gamma_xi * Q) + gamma_xi * Q),
                because="add and subtract γ_ξ∇l"),
            _to("<=", -2 * eta * gamma_xi * Q - 2 * eta * (clip_inner - gamma_xi * Q),
                because="linearity"),
            _to("<=", -7 * eta * C / (4 * grad_norm) * gap + 2 * eta * gamma_xi * dev * dist, kind=P,
                because="convexity (∇lᵀ(θ−θ*) ≥ l − l*), γ_ξ ≥ 7C/(8‖∇l‖), Cauchy–Schwarz with "
                        "g_ξ − γ_ξ∇l = γ_ξ(∇l_ξ − ∇l)",
                oracle=INSTANCE, oracle_args=kappa0),
            _to("<=", -7 * eta * C / (4 * sqrt(2 * L)) * sg
                + 2 * eta * C * sigma_sgd * r14 / (7 * sigma_sgd * r34 - sigma_sgd * r14)
                * sqrt(2 / mu) * sg,
                because=f"{sm} and {sc}; γ_ξ bound; ‖∇l_ξ − ∇l‖ ≤ 5σ(L/μ)^{{1/4}}",
                given=[F["smooth"], F["sc_dist"], asm(gamma_xi <= g_up, f"text before ({e51})"),
                       asm(dev <= 5 * sigma_sgd * r14, "sub-case κ_ξ = 0")]),
            _to("<=", -7 * eta * C / (4 * sqrt(2 * L)) * sg
                + 4 * eta * C / (sqrt(2) * (7 * sqrt(L) - sqrt(mu))) * sg, because="simplify"),
            _to("<=", small, because="μ ≤ L"),
        ), note=f"({e51}): sub-case ‖∇l_ξ − ∇l‖ ≤ 5σ(L/μ)^{{1/4}}, one sample ξ"),
        _chain(v, "inner-large-deviation", _lines(
            v, "inner-large-deviation", -2 * eta * clip_inner,
            _to("<=", 2 * eta * C * dist, kind=P, because="Cauchy–Schwarz, ‖g_ξ‖ ≤ C",
                oracle=INSTANCE, oracle_args=kappa1),
            _to("<=", large, because=sc, given=[F["sc_dist"]]),
        ), note=f"({e52}): sub-case ‖∇l_ξ − ∇l‖ > 5σ(L/μ)^{{1/4}}"),
        _chain(v, "markov-deviation", _lines(
            v, "markov-deviation", Pr_kxi1,
            _to("=", Pr_dev_xi, kind=P, because="definition of κ_ξ", oracle=INSTANCE),
            _to("<=", sigma_sgd ** 2 / (25 * sigma_sgd ** 2 * sqrt(L / mu)), kind=P,
                because=f"{v.name('markov')} (Markov) and Assumption 3.6",
                oracle=INSTANCE, oracle_args=markov),
            _to("=", R(1, 25) * sqrt(mu / L), because="simplify"),
        )),
        Chain(f"chain-{e53}-kappa0", _lines(
            v, "markov-deviation", Pr_kxi0,
            _to(">=", 1 - R(1, 25) * sqrt(mu / L), kind=P,
                because="complement of the previous line", oracle=INSTANCE, oracle_args=markov),
            _to(">=", R(24, 25), because="μ ≤ L"),
            first=4)),
        _chain(v, "inner-mean-1.1", _lines(
            v, "inner-mean-1.1", -2 * eta * E_clip_inner,
            _to("<=", small * R(24, 25) + large * R(1, 25) * sqrt(mu / L), kind=P,
                because=f"({e51}) on κ_ξ = 0, ({e52}) on κ_ξ = 1, ({e53})", oracle=INSTANCE),
            _to("<=", inner_mean, because="simplify"),
        )),
        _step_size_choice(v, f"({e55}) in case (1.1), with the choice of η"),
        _chain(v, "recursion-1.1", _lines(
            v, "recursion-1.1", E_next,
            _to("<=", dist ** 2 + inner_mean + STEP_SQ_BOUND + NOISE,
                because=f"substitute ({e54}) and ({e55}) into ({e50})",
                note="printed with lower-case c; read as C",
                given=[asm(E_next <= dist ** 2 - 2 * eta * E_clip_inner + eta ** 2 * C ** 2 + NOISE,
                           f"({e50}) in expectation over the batch"),
                       asm(-2 * eta * E_clip_inner <= inner_mean, f"({e54})"),
                       asm(eta ** 2 * C ** 2 <= STEP_SQ_BOUND, f"({e55})")]),
            _to("<=", dist ** 2 - 12 * eta * C / (25 * sqrt(2 * L)) * sg + NOISE, because="simplify"),
        )),
        _averaging(v, "average-1.1", R(12, 25), "1.1"),
    ]


def case_1_2(v: Numbering) -> list:
    """Case (1.2), ‖∇l(θ_t)‖ < 35σ(L/μ)^{3/4}: "we immediate obtain √(l(θ_t) − l(θ*)) ≤
    √(1/(2μ))‖∇l(θ_t)‖ ≤ O(L^{3/4}σ/μ^{5/4})" — inline in ICML, AAAI eq. (66)."""
    if v.numbered("bound-1.2"):
        label, eq = f"eq-{v.eq('bound-1.2')}", v.eq("bound-1.2")
    else:       # ICML prints the line inline, without an equation number
        label, eq = "inline-1.2", None
    return [Chain(f"chain-{eq or '1.2'}", _display(
        label, eq, sg,
        _to("<=", sqrt(1 / (2 * mu)) * grad_norm, because=v.name("strong-convexity-facts"),
            given=[_facts(v)["sc_pl"]]),
        _to("<=", 35 / sqrt(2) * L ** R(3, 4) / mu ** R(5, 4) * sigma_sgd,
            because="case (1.2); O(·) read with the constant 35/√2 the algebra gives"),
    ))]


def case_2_1(v: Numbering) -> list:
    """Case (2.1), ‖∇l(θ_t)‖ > C/2 (ICML (58)–(61), AAAI (67)–(70)).

    The opening inequality keeping η²‖g‖²; γ = min(1, C/‖∇l‖) ≥ C/(2‖∇l‖); the expected
    inner product (ICML (59), AAAI (68)); "Combined with" the choice of η (ICML (55), AAAI
    (63)); the recursion (ICML (60), AAAI (69)); averaging over t (ICML (61), AAAI (70))."""
    F = _facts(v)
    sm, sc = v.name("smoothness-facts"), v.name("strong-convexity-facts")
    Q = inner
    gl = 2 * eta * gamma_clip * Q
    inner_mean = -3 * eta * C / (5 * sqrt(2 * L)) * sg      # (59)'s last line
    e55, e58, e59 = (v.eq(r) for r in ("step-size-choice", "step-expansion-g", "inner-mean-2.1"))
    return [
        _step_expansion(v, "step-expansion-g", f"({e58}): the opening inequality of case (2.1)",
                        keep_g=True),
        Step("gamma-lower", sp.Min(1, C / grad_norm), ">=", sp.Min(1, C / (2 * grad_norm)), kind=S,
             because="C/‖∇l‖ ≥ C/(2‖∇l‖)", note=f"text before ({e59}): γ ≥ min(1, C/(2‖∇l‖))"),
        Step("gamma-lower-2", sp.Min(1, C / (2 * grad_norm)), "=", C / (2 * grad_norm), kind=S,
             because="case (2.1): ‖∇l‖ > C/2", note=f"text before ({e59}): … = C/(2‖∇l‖)"),
        _chain(v, "inner-mean-2.1", _lines(
            v, "inner-mean-2.1", -2 * eta * E_clip_inner,
            _to("=", -2 * eta * ((E_clip_inner - gamma_clip * Q) + gamma_clip * Q),
                because="add and subtract γ∇l"),
            _to("<=", -gl - 2 * eta * (E_clip_inner - gamma_clip * Q), because="linearity"),
            _to("<=", -eta * C / grad_norm * gap + 2 * eta * E_dev * dist, kind=P,
                because="convexity, γ ≥ C/(2‖∇l‖), Cauchy–Schwarz, clipping is 1-Lipschitz",
                oracle=INSTANCE),
            _to("<=", -eta * C / sqrt(2 * L) * sg + 2 * eta * sigma_sgd * sqrt(2 / mu) * sg,
                because=f"{sm} and {sc}; E‖∇l_ξ − ∇l‖ ≤ σ_SGD",
                given=[F["smooth"], F["sc_dist"],
                       asm(E_dev <= sigma_sgd, "Jensen + Asm 3.6", "E‖∇l_ξ − ∇l‖ ≤ σ_SGD")]),
            _to("<=", -eta * C / sqrt(2 * L) * sg + 2 * eta * C / (5 * sqrt(2 * L)) * sg,
                because="case (2): C ≥ 10σ(L/μ)^{1/2}"),
            _to("<=", inner_mean, because="simplify"),
        )),
        _step_size_choice(v, f"({e55}) re-declared in case (2.1) ('Combined with ({e55})'): only "
                             "case (2.1)'s hypotheses and the proof's choice of η"),
        _chain(v, "recursion-2.1", _lines(
            v, "recursion-2.1", E_next,
            _to("<=", dist ** 2 + inner_mean + STEP_SQ_BOUND + eta ** 2 * sigma_dp ** 2,
                because=f"({e58}), ({e59}) and ({e55})",
                note="printed '+ η²σ_DP²' (no d) on this line, '+ dη²σ_DP²' on the next",
                given=[asm(E_next <= dist ** 2 - 2 * eta * E_clip_inner + eta ** 2 * C ** 2 + NOISE,
                           f"({e58}) in expectation, ‖g‖ ≤ C"),
                       asm(-2 * eta * E_clip_inner <= inner_mean, f"({e59})"),
                       asm(eta ** 2 * C ** 2 <= STEP_SQ_BOUND, f"({e55})")]),
            _to("<=", dist ** 2 - eta * C / (5 * sqrt(2 * L)) * sg + NOISE, because="simplify"),
        )),
        _averaging(v, "average-2.1", R(1, 5), "2.1"),
    ]


def case_2_2(v: Numbering) -> list:
    """Case (2.2), ‖∇l(θ_t)‖ ≤ C/2 (ICML (62)–(69), AAAI (71)–(78)).

    The opening inequality of case (2.1) (ICML (58), AAAI (67)), re-used here; the triangle
    inequality (ICML (62), AAAI (71)); Markov on κ = 1{‖∇l_ξ‖ > C} (ICML (63), AAAI (72));
    "Hence" (ICML (64), AAAI (73)); E‖g‖² for η ≤ 9/(20L) (ICML (65), AAAI (74));
    "Substituting" (ICML (66), AAAI (75)); the averages (ICML (67)–(69), AAAI (76)–(78))."""
    F = _facts(v)
    sm, sc = v.name("smoothness-facts"), v.name("strong-convexity-facts")
    Q = inner
    ub = R(8) * eta * sigma_sgd ** 2 / C ** 2
    markov = _o(families="discrete,gaussian")
    inner_mean = 4 * eta * sigma_sgd ** 3 / (mu * C) - R(46, 25) * eta * gap     # (64)'s last line
    second_moment = 2 * eta ** 2 * sigma_sgd ** 2 / b + R(9, 5) * eta * gap      # (65)'s last line
    e58, e62, e63, e64, e65 = (v.eq(r) for r in ("step-expansion-g", "triangle-2.2",
                                                 "markov-clipping", "inner-mean-2.2",
                                                 "batch-second-moment"))
    return [
        _step_expansion(v, "step-expansion-g", f"({e58}) re-declared in case (2.2), where it is "
                                               f"used ('Substituting … into ({e58})')", keep_g=True),
        *_lines(v, "triangle-2.2", sgrad,
                _to("<=", dev + C / 2, because="triangle inequality, case (2.2)",
                    given=[asm(sgrad <= dev + grad_norm, "triangle inequality",
                               "‖∇l_ξ‖ ≤ ‖∇l_ξ − ∇l‖ + ‖∇l‖")])),
        _chain(v, "markov-clipping", _lines(
            v, "markov-clipping", Pr_k1,
            _to("<=", Pr_dev_half, kind=P, because=f"({e62})", oracle=INSTANCE, oracle_args=markov),
            _to("<=", 4 * sigma_sgd ** 2 / C, kind=P,
                because=f"{v.name('markov')} (Markov) and Assumption 3.6",
                note="as printed: 4σ²/C (Markov gives 4σ²/C²)", oracle=INSTANCE, oracle_args=markov),
        )),
        _chain(v, "inner-mean-2.2", _lines(
            v, "inner-mean-2.2", -2 * eta * E_clip_inner,
            _to("=", -2 * eta * ((E_clip_inner - Q) + Q), because="add and subtract ∇l"),
            _to("<=", 2 * eta * bias_norm * dist - 2 * eta * Q, kind=P, because="Cauchy–Schwarz",
                oracle=INSTANCE),
            _to("<=", 2 * eta * cond_bias * Pr_k1 * dist - 2 * eta * gap, kind=P,
                because="law of total expectation; convexity", oracle=INSTANCE),
            _to("<=", ub * unc_bias * dist - 2 * eta * gap, kind=P,
                because=f"({e63}); g_ξ − ∇l_ξ = (C/‖∇l_ξ‖ − 1)∇l_ξ on κ = 1",
                note="as printed: the unconditional E_ξ[(1 − C/‖∇l_ξ‖)∇l_ξ] replaces the "
                     "conditional one",
                oracle=INSTANCE),
            _to("<=", ub * E_sgrad * dist - 2 * eta * gap, kind=P, because="Jensen's inequality",
                oracle=INSTANCE),
            _to("<=", 4 * eta * sigma_sgd ** 3 / (mu * C)
                + 16 * eta * sigma_sgd ** 2 / C ** 2 * sqrt(L / mu) * gap - 2 * eta * gap,
                because=f"{sm} and {sc}",
                given=[F["smooth"], F["sc_dist"], F["sc_grad"],
                       asm(E_sgrad <= sigma_sgd + grad_norm, "triangle + Jensen + Asm 3.6",
                           "E‖∇l_ξ‖ ≤ σ_SGD + ‖∇l‖")]),
            _to("<=", 4 * eta * sigma_sgd ** 3 / (mu * C)
                - (2 * eta - R(4, 25) * eta * sqrt(mu / L)) * gap,
                because="case (2): C ≥ 10σ(L/μ)^{1/2}"),
            _to("<=", inner_mean, because="μ ≤ L"),
        )),
        _chain(v, "batch-second-moment", _lines(
            v, "batch-second-moment", eta ** 2 * E_gbar_sq,
            _to("<=", eta ** 2 / b ** 2 * (b * E_gxi_sq), kind=P,
                because="(as printed) the mean of b clipped gradients",
                note="printed ‖g_ξ − ∇l + l(θ_t)‖², read as ‖g_ξ − ∇l + ∇l‖²; Σ over the b batch "
                     "members of equal expectations = b·E_ξ",
                oracle=INSTANCE),
            _to("<=", 2 * eta ** 2 / b ** 2 * (b * E_gdev_sq) + 2 * eta ** 2 * grad_norm ** 2, kind=P,
                because=v.name("square-sum"), oracle=INSTANCE),
            _to("<=", second_moment, kind=P,
                because=f"{sm}, η ≤ 9/(20L), Assumption 3.6", oracle=INSTANCE),
        )),
        _chain(v, "recursion-2.2", _lines(
            v, "recursion-2.2", E_next,
            _to("<=", dist ** 2 + inner_mean + second_moment + NOISE,
                because=f"substitute ({e64}) and ({e65}) into ({e58})",
                given=[asm(E_next <= dist ** 2 - 2 * eta * E_clip_inner + eta ** 2 * E_gbar_sq + NOISE,
                           f"({e58}) in expectation"),
                       asm(-2 * eta * E_clip_inner <= inner_mean, f"({e64})"),
                       asm(eta ** 2 * E_gbar_sq <= second_moment, f"({e65})")]),
            _to("<=", dist ** 2 + 4 * eta * sigma_sgd ** 3 / (mu * C) - eta / 25 * gap
                + 2 * eta ** 2 * sigma_sgd ** 2 / b + NOISE, because="simplify"),
        )),
        _case_2_2_averages(v),
    ]


def _case_2_2_averages(v: Numbering) -> Chain:
    """"Hence, one may obtain" (ICML (67), AAAI (76)), "Exploiting Lemma A.4 and Lemma A.5"
    (ICML (68); AAAI (77), Lemma A.5 and A.6), "Therefore" (ICML (69), AAAI (78))."""
    e66, e67, e68, e69 = (v.eq(r) for r in ("recursion-2.2", "average-gap-2.2",
                                            "average-root-gap-2.2", "average-2.2"))
    R67 = D ** 2 / (eta * (T + 1)) + 4 * sigma_sgd ** 3 / (mu * C) + 2 * eta * sigma_sgd ** 2 / b \
        + d * eta * sigma_dp ** 2
    R68 = D / sqrt(eta * (T + 1)) + 2 * sigma_sgd ** R(3, 2) / sqrt(mu * C) \
        + sqrt(2 * eta) * sigma_sgd / sqrt(b) + sqrt(d * eta) * sigma_dp
    return Chain(f"chain-{e67}", [
        *_lines(v, "average-gap-2.2", avg_gap / 25, _to(
            "<=", R67, because=f"sum ({e66}) over t = 0..T, divide by η(T+1)",
            given=[asm(eta / 25 * (T + 1) * avg_gap <= dist0 ** 2 + (T + 1) * (
                4 * eta * sigma_sgd ** 3 / (mu * C) + 2 * eta ** 2 * sigma_sgd ** 2 / b + NOISE),
                f"({e66}) summed over t"),
                asm(dist0 <= D, "θ_0, θ* ∈ K"), _every_t("2.2")])),
        *_lines(v, "average-root-gap-2.2", avg_sqrt_gap / 25,
                _to("<=", sqrt(R67),
                    because=f"Lemma {v.number('half-square')} and {v.number('root-sum')} (Jensen: "
                            "E√X ≤ √(EX))",
                    given=[asm(avg_sqrt_gap ** 2 <= avg_gap, "Jensen", "(avg E√gap)² ≤ avg E[gap]"),
                           asm(avg_gap / 25 <= R67, f"({e67})")],
                    note="the chain restarts: the lhs is the average of E√gap, not of E gap"),
                _to("<=", R68, because="√(a+b) ≤ √a + √b")),
        *_lines(v, "average-2.2", R68, _to(
            "<=", 50 * (D / sqrt(eta * T) + sqrt(sigma_sgd ** 3 / (mu * C))
                        + sqrt(eta) * sigma_sgd / sqrt(b) + sqrt(d * eta) * sigma_dp) / 25,
            because="O(·) read with constant 50 (= 25 × 2) for (1/(T+1))ΣE√gap; T + 1 > T",
            note=f"both sides divided by 25, as in ({e68})")),
    ], links=False, note=f"({e67})–({e69}); ({e67})→({e68}) changes the averaged quantity, so "
                         "links are not checked")


def summing_up(v: Numbering) -> CaseSplit:
    """"Finally, summing up all the cases" (ICML (70), AAAI (79)): each case's bound against
    the final O(·), with its min(L^{3/4}σ/μ^{5/4}, √(σ³/(μC)))."""
    n = v.eq("summing-up")
    fin = theorem_bound(K_SUM)
    rate_dp = sqrt(L) * D ** 2 / (eta * C * T) + d * eta * sigma_dp ** 2 * sqrt(L) / C
    bounds = {      # each case's last line, with the constant its algebra gives
        "1.1": (25 * sqrt(2) / 12) * rate_dp,
        "1.2": 35 / sqrt(2) * L ** R(3, 4) / mu ** R(5, 4) * sigma_sgd,
        "2.1": 5 * sqrt(2) * rate_dp,
        "2.2": 50 * (D / sqrt(eta * T) + sqrt(sigma_sgd ** 3 / (mu * C)) + sqrt(eta) * sigma_sgd / sqrt(b)
                     + sqrt(d * eta) * sigma_dp),
    }
    conds = {
        "1.1": [asm(C <= 10 * sigma_sgd * r12, "case (1)"), asm(grad_norm >= 35 * sigma_sgd * r34, "case (1.1)")],
        "1.2": [asm(C <= 10 * sigma_sgd * r12, "case (1)"), asm(grad_norm < 35 * sigma_sgd * r34, "case (1.2)")],
        "2.1": [asm(C >= 10 * sigma_sgd * r12, "case (2)"), asm(grad_norm > C / 2, "case (2.1)")],
        "2.2": [asm(C >= 10 * sigma_sgd * r12, "case (2)"), asm(grad_norm <= C / 2, "case (2.2)")],
    }
    return CaseSplit("summing-up", [
        Case(f"sum-{k}", conds[k], [
            Step(f"eq-{n}", min_sqrt_gap, "<=", fin, eq=n, because=f"case ({k}) bound; min_t ≤ average",
                 given=[asm(min_sqrt_gap <= bounds[k], f"case ({k}) of C.1 (explicit constants)")],
                 note=f"O(·) of ({n}) read with constant {K_SUM}")])
        for k in ("1.1", "1.2", "2.1", "2.2")
    ], note="'Finally, summing up all the cases': each case's bound must be within the "
            "final O(·) with its min(L^{3/4}σ/μ^{5/4}, √(σ³/(μC)))")


def build_theorem(v: Numbering) -> Result:
    """Theorem 3.9 (ICML, eq. (19)) / Theorem 3.10 (AAAI, eq. (17)), proved in Appendix C.1."""
    thm = v.name("dc-utility")
    sc = v.number("strong-convexity")
    return Result(
        id=v.rid("dc-utility"),
        title="Convergence (utility) of DPSGD-DC",
        where=(f"Section 3.2, {thm}, eq. ({v.eq('dc-utility')}); "
               f"proof Appendix C.1, eqs. ({v.eq('step-expansion-C')})–({v.eq('summing-up')})"),
        hypotheses=[
            asm(eta <= R(9, 20) / L, thm, "η ≤ 9/(20L)"),
            asm(mu <= L, f"Asm 3.1 + {sc}", "μ ≤ L"),
            asm(dist <= D, "θ_t, θ* ∈ K, diam K = D"),
            asm(E_dev_sq <= sigma_sgd ** 2, "Asm 3.6"),
            asm(LSmooth(L), "Asm 3.1"),
            asm(StronglyConvex(mu), f"Asm {sc}"),
            asm("theta* = argmin l in int K", thm),
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
                    hypotheses=[asm(eta <= R(9, 20) / L, thm),
                                asm(mu <= L, "Asm 3.1 + strong convexity")],
                    embodies=["theta* = argmin l in int K"],
                    note=f"the O(·) of ({v.eq('dc-utility')}) with the constant "
                         f"{K_SUM} that C.1's case analysis produces (d = the dimension); "
                         "θ* ∈ int K holds on every simulated problem (the quadratics put θ* "
                         "at radius D/4 inside K)")],
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

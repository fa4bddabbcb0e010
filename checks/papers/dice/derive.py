"""``dpcheck derive dice-stepsize`` and ``dpcheck derive dice-privacy``: SymPy programs that
re-derive, from the paper's own lines, the step size of Theorem 3.6 (with the rate it gives
and Corollary 3.8's limit) and the noise Theorem 3.7 needs through Lemma A.5.

Both print the derivation and compare it with what the paper prints; the encoding's rows
(``dice:thm-3.6/eta-choice``, ``dice:thm-a.3/rdp-to-dp`` …) are the checked versions."""
from __future__ import annotations

import sympy as sp

from checks.plugins import derive_command

PAPERS = ("dice",)


def stepsize_report() -> dict:
    """Minimise the last line of (17), 2Δ/(ηT) + ηLK, over η > 0; then put σ₁² of Theorem 3.7
    into K and let T → ∞ (Corollary 3.8)."""
    from theory.papers.dice import sec3
    from theory.papers.dice.symbols import Delta0, L, N, T, d, delta, epsilon, eta, sigma1
    K = sec3.K36
    f = 2 * Delta0 / (eta * T) + eta * L * K
    crit = sp.solve(sp.Eq(sp.diff(f, eta), 0), eta)
    eta_star = [c for c in crit if c.is_positive is not False][0]
    value = sp.simplify(f.subs(eta, eta_star))
    out = {"eta_star": eta_star, "value": value,
           "eta_matches": sp.simplify(eta_star - sec3.ETA36) == 0,
           "value_matches": sp.simplify(value - sec3.RATE36) == 0}
    rate_priv = sec3.RATE36.subs(sigma1**2, sec3.SIGMA1_SQ_37)
    out["rate_with_theorem_3_7_noise"] = sp.simplify(rate_priv)
    out["limit_T_to_infinity"] = sp.simplify(sp.limit(rate_priv, T, sp.oo))
    return out


def privacy_report() -> dict:
    """H_T is (α, cα)-RDP with c = 16TG̃/(σ₁²N²) (A.2, last display); Lemma A.5 gives
    ϵ(α) = cα + log(1/δ)/(α−1), minimised at α* = 1 + √(log(1/δ)/c) to c + 2√(c log(1/δ)).
    At the printed σ₁² = 32TG̃ log(1/δ)/(N²ϵ²) this is ϵ²/(2 log(1/δ)) + √2 ϵ > ϵ; the noise
    that does give ϵ solves c + 2√(c log(1/δ)) = ϵ."""
    from theory.papers.dice import sec3
    from theory.papers.dice.symbols import Lg, N, T, alpha, delta, epsilon, sigma1
    c = sp.Symbol("c", positive=True)
    e_alpha = c * alpha + Lg / (alpha - 1)
    a_star = [s for s in sp.solve(sp.diff(e_alpha, alpha), alpha)
              if sp.simplify(s - 1).is_positive is not False]
    a_star = max(a_star, key=lambda s: sp.N(s.subs({c: 1, Lg: 10})))
    e_min = sp.simplify(e_alpha.subs(alpha, a_star))
    c_printed = sp.simplify((16 * T * sec3.GT / (sigma1**2 * N**2)).subs(
        sigma1**2, sec3.SIGMA1_SQ_37.subs(sp.log(1 / delta), Lg)))
    eps_printed = sp.simplify(e_min.subs(c, c_printed))
    c_needed = (sp.sqrt(Lg + epsilon) - sp.sqrt(Lg))**2
    sigma1_sq_needed = sp.simplify(16 * T * sec3.GT / (N**2 * c_needed))
    # Lg stands for log(1/δ) > 0
    return {"alpha_star": a_star, "eps_min": e_min, "c_at_printed_noise": c_printed,
            "eps_at_printed_noise": eps_printed,
            "excess_over_eps": sp.simplify(eps_printed - epsilon),
            "sigma1_sq_needed": sigma1_sq_needed,
            "check_needed": sp.simplify(e_min.subs(c, c_needed) - epsilon)}


def _render(d: dict) -> str:
    return "\n".join(f"{k}: {sp.sstr(v) if isinstance(v, sp.Basic) else v}" for k, v in d.items())


@derive_command("dice-stepsize", help="DiceSGD Thm 3.6: the η minimising (17), the rate (4), "
                "and Cor. 3.8's limit with the noise of Thm 3.7", papers=PAPERS)
def dice_stepsize(args) -> str:
    return _render(stepsize_report())


@derive_command("dice-privacy", help="DiceSGD Thm 3.7: the ϵ Lemma A.5 gives at the printed "
                "noise, and the noise that would give (ϵ, δ)-DP", papers=PAPERS)
def dice_privacy(args) -> str:
    return _render(privacy_report())

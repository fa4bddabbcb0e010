"""``dpcheck derive nsgd-stepsize`` and ``dpcheck derive nsgd-privacy``: SymPy programs that
re-derive from the paper's own lines the step sizes (29)/(40), the T₀ of Lemmas C.2/D.2,
the rates of Theorems 3.2/3.4 with their non-vanishing term, Corollaries 3.3/3.5 at the
noise of Lemma 3.1, and the α the proof of Lemma 3.1 needs.

Each prints the derivation next to what the paper prints; the encoding's rows
(``nsgd:thm-3.2/eq-29``, ``nsgd:lem-c.2/part-2``, ``nsgd:lem-3.1/constants`` …) are the
checked versions."""
from __future__ import annotations

import sympy as sp

from checks.plugins import derive_command

PAPERS = ("nsgd",)


def stepsize_report() -> dict:
    """Minimise D_f/(Tη) + ηX over η > 0 (the two terms (29) and (40) 'optimise'), compare
    with the printed η (which drops D_f); the T making each condition of (22) hold at the
    printed η of Lemma C.2; the bound (30) re-derived branch by branch."""
    from theory.papers.nsgd import common as cm
    from theory.papers.nsgd.appendix_c import BIASC, COND_C2, T_C2, X_R
    from theory.papers.nsgd.appendix_d import X_C
    from theory.papers.nsgd.symbols import D_f, Delta, T, eta, etab, r, tau0, tau1
    out = {}
    for name, X, e, printed in (("nsgd", X_R, eta, cm.ETA_4), ("sgd", X_C, etab, cm.ETA_8)):
        f = D_f / (T * e) + e * X
        crit = [c for c in sp.solve(sp.Eq(sp.diff(f, e), 0), e) if c.is_positive is not False]
        star = crit[0]
        out[f"{name}_eta_star"] = star
        out[f"{name}_eta_printed"] = printed
        out[f"{name}_ratio_printed_over_star"] = sp.simplify(printed / star)
        out[f"{name}_value_at_printed"] = sp.simplify(f.subs(e, printed))
        out[f"{name}_value_at_star"] = sp.simplify(f.subs(e, star))
    # T₀ of Lemma C.2: η_C2 ≤ cond_i  ⟺  T ≥ 2/(L1(r + τ0)dσ² cond_i²)
    from theory.papers.nsgd.symbols import L1, d, sigma
    needed = [sp.simplify(2 / (L1 * (r + tau0) * d * sigma**2 * cond**2)) for cond in COND_C2]
    out["c2_T_needed"] = needed
    out["c2_T_printed"] = T_C2
    out["c2_T_matches"] = [sp.simplify(a - b) == 0 for a, b in zip(needed, T_C2)]
    # (30): |U| ≥ T/2 gives min ≤ 2 S_U/T ≤ 4(r + 2τ0)Δ/τ0; |U^c| ≥ T/2 gives
    # min² ≤ 2 S_Uc²/T ≤ 8(r + 2τ0)Δ/(3(1 − τ1))
    out["eq30_u_derived"] = 4 * (r + 2 * tau0) / tau0 * Delta
    out["eq30_u_printed"] = 2 * (r + 2 * tau0) / tau0 * Delta
    out["eq30_uc_derived"] = sp.sqrt(8 * (r + 2 * tau0) * Delta / (3 * (1 - tau1)))
    out["bias_derived_u"] = sp.simplify(4 * (r + 2 * tau0) / tau0 * BIASC)
    out["bias_derived_uc"] = sp.sqrt(8 * (r + 2 * tau0) / (3 * (1 - tau1)) * BIASC)
    out["bias_printed_5"] = cm.BIAS_5
    return out


def privacy_report() -> dict:
    """The proof of Lemma 3.1 at ε = c1γ²T and the smallest σ: 7Tγ²α/(B²σ²) ≤ ε/2 is
    α ≤ c2²L/(14c1γ²T) and exp(−(α − 1)ε/2) ≤ δ is α ≥ 1 + 2L/(c1γ²T) (L = log(1/δ));
    an α exists iff c1γ²T + 2L ≤ c2²L/14 — false for every (c1, c2) as L → 0."""
    from theory.papers.nsgd.symbols import B, T, alpha_r, c1, c2, gamma
    L = sp.Symbol("L", positive=True)      # log(1/δ)
    eps = c1 * gamma**2 * T
    sig = c2 * gamma * sp.sqrt(T * L) / (B * eps)
    cond1 = sp.solve(sp.Eq(7 * T * gamma**2 * alpha_r / (B**2 * sig**2), eps / 2), alpha_r)[0]
    cond2 = sp.solve(sp.Eq(-(alpha_r - 1) * eps / 2, -L), alpha_r)[0]
    gap = sp.simplify(cond1 - cond2)                 # ≥ 0 iff an α exists (both conditions)
    top = sp.simplify(B**2 * sig**2 / 2 * sp.log(1 / gamma))
    return {"alpha_max_condition_1": sp.simplify(cond1),
            "alpha_min_condition_2": sp.simplify(cond2),
            "alpha_range_top": top,
            "feasibility_gap": gap,
            "gap_as_L_to_0": sp.limit(gap, L, 0),
            "noise_multiplier_B_sigma": sp.simplify(B * sig)}


def _render(d: dict) -> str:
    return "\n".join(f"{k}: {sp.sstr(v) if isinstance(v, sp.Basic) else v}" for k, v in d.items())


@derive_command("nsgd-stepsize", help="DP-NSGD/DP-SGD: the η minimising D_f/(Tη) + ηX vs (29)/(40), "
                "the T of Lemma C.2, the branches of (30) and the non-vanishing term",
                papers=PAPERS)
def nsgd_stepsize(args) -> str:
    return _render(stepsize_report())


@derive_command("nsgd-privacy", help="Lemma 3.1's proof: the α range its conditions leave at "
                "ε = c1γ²T, and why no constants (c1, c2) work as δ → 1", papers=PAPERS)
def nsgd_privacy(args) -> str:
    return _render(privacy_report())

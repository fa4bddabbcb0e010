"""Shared declarations of the nsgd encoding: the hypotheses of Assumptions 2.1-2.2, the
2-D reduction of one iteration's gradient noise for the worst-case oracle, and the
printed learning rates and constants.

**The 2-D reduction.**  At an iterate with s = ‖∇f(x_k)‖ > 0, write the noise
e = g_k − ∇f(x_k) = a u + b w (u = ∇f/‖∇f‖, w a unit vector ⟂ u, b ≥ 0 after a rotation
about u).  Every quantity of Lemmas B.3, B.5 and (21)/(32) depends on (a, b) only:
⟨∇f, g⟩ = s² + s a, ‖g‖ = √((s + a)² + b²), ⟨∇f, e⟩ = s a.  Assumption 2.2 is the support
a² + b² ≤ (τ0 + τ1 s)² and E[e] = 0 is E[a] = 0 together with E[b w] = 0, which a law on
(a, b) meets in d ≥ 2 by drawing ±w with probability 1/2 each.  So the worst case over
noise laws in R^d (d ≥ 2) is the worst case over laws on this half-disc with E[a] = 0 —
what the ``worst-case`` oracle computes (a witness is an instance in d = 2; the lemmas
claim every d).
"""
from __future__ import annotations

import sympy as sp

from theory.model import asm
from theory.papers.nsgd.symbols import (L0, L1, a_, alpha, b_, c, d, en, gn, ip, r, s, sigma,
                                        tau0, tau1, T, D_f, eta, etab, GN, h_k, hb_k, E_h,
                                        E_h2, E_hip, E_hg, E_hg2, E_h2ip, E_h2e2, E_fg, Eb_h,
                                        Eb_h2, Eb_hip, Eb_hg, Eb_hg2, Eb_h2ip, Eb_h2e2)
from theory.stochastic import RandomVariable

# --- hypotheses ------------------------------------------------------------------------------
ASM_22 = [asm(sp.Gt(tau0, 0), "Assumption 2.2: τ0 > 0"),
          asm(sp.Lt(tau1, 1), "Assumption 2.2: 0 ≤ τ1 < 1")]
ALPHA_01 = [asm(sp.Lt(alpha, 1), "Lemmas B.3/C.1: 0 < α < 1")]
#: the pointwise content of Assumption 2.2 and Cauchy–Schwarz at one iterate
POINT = [asm(sp.Le(en, tau0 + tau1 * s), "Assumption 2.2: ‖g_k − ∇f‖ ≤ τ0 + τ1‖∇f‖ a.s."),
         asm(sp.Le(ip, s * en), "Cauchy–Schwarz: ⟨∇f, e⟩ ≤ ‖∇f‖‖e‖"),
         asm(sp.Ge(ip, -s * en), "Cauchy–Schwarz: ⟨∇f, e⟩ ≥ −‖∇f‖‖e‖")]
THM32 = [asm(sp.Gt(r, tau0), "Theorem 3.2: r > τ0")]
THM34 = [asm(sp.Gt(c, 2 * tau0 / (1 - tau1)), "Theorem 3.4: c > 2τ0/(1 − τ1)")]

#: h_k = 1/(r + ‖g_k‖) (3) and h̄_k = min{1, c/‖g_k‖}, pointwise
H = 1 / (r + GN)
HB = sp.Min(1, c / GN)

# --- the law of e = g − ∇f for the worst-case oracle ---------------------------------------
R_NOISE = tau0 + tau1 * s
G2D = sp.sqrt((s + a_)**2 + b_**2)


def law(expect: dict) -> dict:
    """oracle_args of the worst-case oracle for expectations over e = a u + b w."""
    return {"coords": ("a_", "b_"),
            "box": (("a_", -R_NOISE, R_NOISE), ("b_", 0, R_NOISE)),
            "support": sp.Le(a_**2 + b_**2, R_NOISE**2),
            "moments": (a_,),
            "expect": tuple(sorted(expect.items()))}


#: the gradient noise of one iteration as a typed random variable: the stand-ins E_* are
#: its moments (E_k over g_k at the current iterate, in the 2-D reduction above), so the
#: engine grants what holds for every law (h ≤ 1/r ⇒ E[h] ≤ 1/r, Jensen E[h]² ≤ E[h²], …)
#: and realises a witness over them by a finitely supported law
NOISE = RandomVariable(
    "the gradient noise e_k = g_k − ∇f(x_k) = a·u + b·w at x_k",
    coords=(a_, b_),
    support=[a_**2 + b_**2 <= R_NOISE**2, -R_NOISE <= a_, a_ <= R_NOISE, 0 <= b_,
             b_ <= R_NOISE,
             # ‖e_k‖ ≤ τ0 + τ1‖∇f‖ (Assumption 2.2), so s − ‖e‖ ≤ ‖g_k‖ ≤ s + ‖e‖
             0 <= en, en <= R_NOISE, 0 <= gn, s - R_NOISE <= gn, gn <= s + R_NOISE,
             # h_k = 1/(r + ‖g_k‖) (3), h̄_k = min{1, c/‖g_k‖} (2)
             h_k <= 1 / r, 1 / (r + s + R_NOISE) <= h_k,
             hb_k <= 1, sp.Min(1, c / (s + R_NOISE)) <= hb_k],
    functions={en: sp.sqrt(a_**2 + b_**2), gn: sp.sqrt((s + a_)**2 + b_**2),
               h_k: 1 / (r + sp.sqrt((s + a_)**2 + b_**2)),
               hb_k: c / sp.Max(c, sp.sqrt((s + a_)**2 + b_**2))},
    constraints={a_: 0},
    moments={E_h: h_k, E_h2: h_k**2, E_hip: h_k * s * a_, E_hg: h_k * (s**2 + s * a_),
             E_hg2: h_k**2 * gn**2, E_h2ip: h_k**2 * s * a_, E_h2e2: h_k**2 * en**2,
             E_fg: s**2 + s * a_,
             Eb_h: hb_k, Eb_h2: hb_k**2, Eb_hip: hb_k * s * a_, Eb_hg: hb_k * (s**2 + s * a_),
             Eb_hg2: hb_k**2 * gn**2, Eb_h2ip: hb_k**2 * s * a_, Eb_h2e2: hb_k**2 * en**2},
    where="Assumption 2.2 (E[e] = 0, ‖e‖ ≤ τ0 + τ1‖∇f‖ a.s.), (2), (3)")

#: integrands (DP-NSGD)
PHI_HG = (s**2 + s * a_) / (r + G2D)
PHI_H = 1 / (r + G2D)
PHI_HIP = s * a_ / (r + G2D)
#: integrands (DP-SGD)
PHIB_H = sp.Min(1, c / G2D)
PHIB_HG = PHIB_H * (s**2 + s * a_)
PHIB_HIP = PHIB_H * s * a_

# --- learning rates and constants as printed --------------------------------------------------
K_R = L1 * (r + tau0) + L0
K_C = L1 * (c + tau0) + L0
ETA_4 = sp.sqrt(2 / (K_R * T * d * sigma**2))                     # (4) = (29)
ETA_8 = sp.sqrt(2 / (K_C * T * d * c**2 * sigma**2))              # (8) = (40)
ETA_C2 = sp.sqrt(2 / (L1 * (r + tau0) * T * d * sigma**2))        # Lemma C.2 (no L0)
ALPHA0_C = tau0 * (1 - tau1) / (2 * r * (1 - tau1) + 4 * tau0)    # (27)
ALPHA0_D = tau0 * (1 - tau1) / (c * (1 - tau1) + 2 * tau0)        # (38)
BIAS_5 = 8 * (r + 2 * tau0) * tau0**2 / (r * (r + tau0) * (1 - tau1)**3)

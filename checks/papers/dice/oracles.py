"""Step oracle for Lemma A.6 of DiceSGD (21): the Rényi divergence of the error-state
difference, on concrete 1-D instances where both sides are exact.

Instance (Algorithm 2 with linear losses, d = 1): D has N − 1 examples of loss 0, D' = D ∪
{ξ'} with the canary's loss l(x) = s·x; B = 1 so p = 1/N; C1 = C2 = 1 (C1 ≤ C2); s = C1 + B·u
(the excess u enters the buffer when ξ' is sampled).  The history H_t: ξ' sampled at the K
steps before t (a history of positive probability), so the D' buffer holds e'_t > C2 while
the D buffer is e_t = 0.  Assumptions 3.4-3.5 on D': G = ‖∇f‖ = s/N and the smallest σ with
E‖∇f − g_i‖² ≤ σ²/N, σ = s√((N−1)/N), so G' = max{0, G + σ − C1}.

Given H_t the update of (8) makes Δe_{t+1} = e_{t+1} − e'_{t+1} = −(e'_t − clip(e'_t, C2)) − S·u
with S ~ Bernoulli(p) (ξ' sampled), so the left side of (21) is D_α of the mixture
(1−p)N(−(e'_t − C2), σ₁²) + pN(−(e'_t − C2) − u, σ₁²) against μ0 = N(0, σ₁²); the right side,
with α_e^t = min{1, C2/‖e_t‖} = 1 (e_t = 0, the factor (8) defines for e_t), is D_α of
(1−p)N(0, σ₁²) + pN(2G'/B, σ₁²).  At α = 2 both are closed forms,
D_2(Σ w_i N(m_i, σ²) ‖ N(0, σ²)) = log Σ_{i,j} w_i w_j exp(m_i m_j/σ²), evaluated with mpmath at
50 digits from exact rationals.  The other reading (the factor of the larger buffer e'_t) is
the mean shift (c) that ``c-shift`` refutes; it is said in the detail."""
from __future__ import annotations

import time
from fractions import Fraction

import mpmath

from checks.plugins import step_oracle
from checks.verdict import StepReport, Verdict
from theory.model import Located, StepKind

DPS = 50


def _mp(x) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator if isinstance(x, Fraction) else mpmath.mpf(x)


def d2_vs_zero(weights, means, sigma) -> mpmath.mpf:
    """D_2(Σ w_i N(m_i, σ²) ‖ N(0, σ²)) = log Σ_{i,j} w_i w_j exp(m_i m_j/σ²) (mpmath)."""
    s2 = _mp(sigma) ** 2
    return mpmath.log(mpmath.fsum(wi * wj * mpmath.exp(mi * mj / s2)
                                  for wi, mi in zip(weights, means)
                                  for wj, mj in zip(weights, means)))


def instance(K: int, u: Fraction, N: int, sigma1: Fraction = Fraction(1)):
    """Both sides of (21) at α = 2 on the instance of the module docstring, at 50 digits:
    (left, right, description)."""
    C1 = C2 = Fraction(1)
    B = 1
    s = C1 + B * u
    e = Fraction(0)                               # e'_t after K consecutive samplings
    for _ in range(K):
        e = e - min(e, C2) + u
    with mpmath.workdps(DPS):
        p = mpmath.mpf(B) / N
        G = mpmath.mpf(s.numerator) / s.denominator / N
        sig = mpmath.mpf(s.numerator) / s.denominator * mpmath.sqrt(mpmath.mpf(N - 1) / N)
        Gp = max(mpmath.mpf(0), G + sig - 1)
        common = -_mp(e - min(e, C2))
        um = mpmath.mpf(u.numerator) / u.denominator
        left = d2_vs_zero([1 - p, p], [common, common - um], sigma1)
        right = d2_vs_zero([1 - p, p], [mpmath.mpf(0), 2 * Gp / B], sigma1)
    desc = {"alpha": "2", "N": str(N), "B": "1", "p": f"1/{N}", "C1": "1", "C2": "1",
            "s": str(s), "u": str(u), "K": str(K), "e_t": "0", "e'_t": str(e),
            "sigma1": str(sigma1), "G": f"{s}/{N}", "sigma": f"{s}*sqrt({N - 1}/{N})",
            "G'": mpmath.nstr(Gp, 20)}
    return left, right, desc


@step_oracle("error-buffer-shift", arguments={},
             supports="Lemma A.6 (21) of the error-feedback paper: D_α of the error-state "
                      "difference against its printed two-component mixture bound, on 1-D "
                      "linear-loss instances at α = 2 (exact, 50 digits)")
def error_buffer_shift(loc: Located, *, budget: int, seed: int) -> StepReport:
    """Search K (consecutive samplings of ξ'), u (excess per sampling), N for a history where
    the left side of (21) exceeds its right side."""
    if budget < 1:
        raise ValueError(f"budget must be >= 1, got {budget}")
    t0 = time.perf_counter()
    st = loc.step
    best, seen = None, 0
    for N in (5, 10):                       # the first violation in this order: the smallest
        for u in (Fraction(1, 2), Fraction(1), Fraction(2), Fraction(4)):
            for K in range(1, 13):
                left, right, desc = instance(K, u, N)
                seen += 1
                with mpmath.workdps(DPS):
                    gap = left - right
                if best is None or gap > best[0] or (gap > 0 >= best[0]):
                    best = (gap, left, right, desc)
                if gap > 0:
                    break
            if best[0] > 0:
                break
        if best[0] > 0:
            break
    gap, left, right, desc = best
    if gap > 0:
        desc = dict(desc, D_rdp=mpmath.nstr(left, 20), D_mix=mpmath.nstr(right, 20))
        ep = desc["e'_t"]
        return StepReport(loc.id, st.eq, st.kind.value, Verdict.REFUTED,
                          "oracle:error-buffer-shift", counterexample=desc,
                          slack=float(right - left), samples=seen,
                          seconds=time.perf_counter() - t0,
                          detail=f"D_2 of N_σ(Δe_{{t+1}}) given H_t = {mpmath.nstr(left, 12)} > "
                                 f"the printed mixture's {mpmath.nstr(right, 12)} (50 digits) on "
                                 f"a 1-D linear-loss instance: ξ' sampled {desc['K']} times "
                                 f"before t, e'_t = {ep}, e_t = 0 "
                                 "(α_e^t = 1, the factor (8) defines for e_t; with the factor "
                                 "of e'_t instead the shift (c) is the one c-shift refutes); "
                                 "both orders of adjacency must hold")
    verdict = Verdict.CITED if st.kind is StepKind.CITED else Verdict.SUPPORTED
    return StepReport(loc.id, st.eq, st.kind.value, verdict, "oracle:error-buffer-shift",
                      slack=float(right - left), samples=seen, seconds=time.perf_counter() - t0,
                      detail=f"no violation on {seen} instances (α = 2)")

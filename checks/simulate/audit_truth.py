"""The simulator's membership-inference audit as a measured lower bound of the
``error-feedback-sgd`` provider's truth where the exact law is out of reach (feedback and
T beyond the provider's dynamic programme, (ε, δ) statements): registered with
:func:`checks.truth.base.lower_bound_source`, so that the truth package never imports the
simulator.  The audit runs the batched ``ef-clip-sgd`` on D' (the linear canary of slope s,
n − 1 zero-loss examples) and on D, chooses a threshold test on θ_T on a calibration half
for the claimed δ (:func:`checks.simulate.audit.threshold_audit`), and turns the
Clopper–Pearson upper bounds of its error rates on the evaluation half into lower bounds
of δ(ε) in both orders, each holding with probability ≥ 95 %:
δ(D'‖D) ≥ 1 − FNR⁺ − e^ε FPR⁺ and δ(D‖D') ≥ 1 − FPR⁺ − e^ε FNR⁺."""
from __future__ import annotations

import dataclasses
import math

import mpmath

from checks.truth.base import Truth, Unavailable, evaluate, lower_bound_source

AUDIT_RUNS = 4000
AUDIT_CONFIDENCE = 0.95
#: steps the audit simulates at most in a default run
AUDIT_T_MAX = 512
#: records the audit needs: its D is the n − 1 records other than the canary
AUDIT_N_MIN = 2


def audit_delta_lower(n: int, b: int, T: int, s: float, C1: float, C2: float, sigma: float,
                      eps: float, delta: float, *, runs: int = AUDIT_RUNS, seed: int = 0,
                      confidence: float = AUDIT_CONFIDENCE):
    """Lower bounds of δ(ε) in both orders, each holding with probability ≥ ``confidence``
    (module docstring).  Returns ``(forward, backward, audit)``; deterministic for a
    seed."""
    # lazy: torch (seconds to import) only where an audit is run
    from checks.simulate.algorithms import Hyper, make_algorithm
    from checks.simulate.audit import threshold_audit  # lazy: torch, only where an audit runs
    from checks.simulate.problems import Canary, gradient_canary
    from checks.simulate.runner import simulate_pair  # lazy: torch, only where an audit runs
    prob = gradient_canary(d=1, n=n)
    prob = dataclasses.replace(prob, canary=Canary("gradient", 1, gradient_norm=s))
    hp = Hyper(eta=1.0, C=C1, sigma_dp=sigma, b=b, C2=C2)
    r_in, r_out = simulate_pair(prob, make_algorithm("ef-clip-sgd"), hp, runs=runs, T=T,
                                seed=seed, device="cpu", dtype="float64")
    a = threshold_audit(r_in.final[:, 0].numpy(), r_out.final[:, 0].numpy(), delta=delta,
                        confidence=confidence, seed=seed)
    # a side −1 test flags "member" for small scores: its region E, the complement E^c
    fwd = 1.0 - a.fnr_upper - math.exp(eps) * a.fpr_upper
    bwd = 1.0 - a.fpr_upper - math.exp(eps) * a.fnr_upper
    return max(fwd, 0.0), max(bwd, 0.0), a


@lower_bound_source("error-feedback-sgd")
def audited(provider, stmt, v, *, n, b, T, s, C1, C2, sigma, scenario):
    """The audit at one point: a :class:`Truth` of lower bounds (error 0), or the reason
    there is none."""
    if not stmt.profile:
        return "no audit: RDP is not audited"
    if T > AUDIT_T_MAX:
        return f"no audit: T = {T} > {AUDIT_T_MAX}"
    if n < AUDIT_N_MIN:
        return (f"no audit: n = {n} < {AUDIT_N_MIN} (the audit's D holds the n - 1 other "
                "records and needs one)")
    eps = evaluate(stmt.expr, v)
    dl = evaluate(stmt.delta, v) if stmt.delta is not None else 1e-5
    if not 0 <= dl < 1:
        raise Unavailable(f"delta = {dl!r} outside [0, 1)")
    f, r, a = audit_delta_lower(n, b, T, s, C1, C2, sigma, eps, dl)
    t = Truth(f, r, 0.0, f"membership-inference audit of θ_T (exact law out of reach): "
              f"lower bounds holding with probability ≥ {a.confidence:g} (Clopper–"
              f"Pearson, Bonferroni): FNR = {round(a.fnr * a.n_in_eval)}/{a.n_in_eval}, "
              f"FPR = {round(a.fpr * a.n_out_eval)}/{a.n_out_eval} on the evaluation "
              f"half ({AUDIT_RUNS} runs per side, threshold {a.threshold:.6g}, side "
              f"{a.side:+d}, fixed seed)", scenario)
    t.extra["lower_mp"] = mpmath.mpf(max(f, r))
    t.extra["audit"] = a.as_dict()
    return t

"""Privacy truth of clipped error-feedback SGD (:class:`~theory.mechanisms.ErrorFeedbackSGD`):
provider ``error-feedback-sgd`` for (ε, δ) statements (``Bound(profile=True)``) and RDP
statements, both orders of the adjacent pair.

**Scenarios.**  d = 1, linear losses: D holds n − 1 examples of loss 0 (gradient 0), D' =
D ∪ {canary} with the canary's loss l(θ) = s·θ (gradient s > 0).  On D the error buffer
stays 0 and θ_t is a Gaussian random walk; on D' the canary's gradient is clipped to C1
when it is sampled (Poisson, rate q = b/n) and its excess (s − C1)/b enters the hidden
buffer e_t, which is released at most C2 per step through clip(e_t, C2).  Every gradient
is constant, so given the sampling pattern the released increments are deterministic plus
N(0, η²σ²) noise: the laws are Gaussian mixtures and the truth is exact:

* **last iterate** θ_T: N(θ_0, η²Tσ²) on D against Σ_S w_S N(θ_0 − η M(S), η²Tσ²) on D',
  M(S) = Σ_t v_t = k(S)·s/b − e_T(S) (k the number of times the canary is sampled), whose
  law is computed by dynamic programming over (e_t, k) (exact; merged states, capped).
  The log-likelihood ratio is increasing in θ_0 − θ_T, so the optimal event of δ(ε) in each
  order is a half-line: δ(ε) = sup_x Q(E_x) − e^ε P(E_x) is evaluated at the root of the
  log-ratio (mpmath at 50 digits for a confirmation), RDP by 1-D quadrature of the
  mixtures (:func:`~checks.truth.divergences.mixture_rdp_1d`);
* **whole trajectory** (``release="all"``): when s ≤ C1 the buffer stays 0 and the
  trajectory is T compositions of the sampled Gaussian mechanism SGM(q, bσ/s): exact
  profiles by privacy-loss distributions (dp-accounting, a certified optimistic/pessimistic
  enclosure; at T = 1 the exact mixture below), exact RDP T·D_α^SGM; with feedback (s > C1) the last iterate is a
  post-processing of the trajectory, so its δ(ε) and D_α are lower bounds of the
  trajectory's;
* **out of reach** (feedback and T > :data:`T_MAX`, (ε, δ) statements): a
  membership-inference audit of θ_T on the batched simulator (``ef-clip-sgd``), whose
  Clopper–Pearson bounds give δ(ε) from below with probability ≥ 95 %
  (:func:`audit_delta_lower`); the method names the confidence and the counts.

The slopes tried: the largest slope every class of the statement admits (``s_max``), C1
(no feedback, when s_max ≥ C1) and C1 + b·j·C2 (j = 1, 2, 4, …: the buffer released in
whole C2 steps).  The truth is the largest certified value over them: a lower bound of the
mechanism's δ(ε) (whose supremum runs over every pair of datasets), exact for the pair it
names; a VIOLATED is a member and a pair that break the claim, a HOLDS is on those pairs.

**Membership.**  The linear canary is L-smooth (every L), convex, Hölder-smooth and
(L0, L1)-smooth; ``Lipschitz(M)`` and ``BoundedGradient(G)`` of each loss need s ≤ M, G;
``BoundedGradient(G, of="objective")`` (a bound on ∇f, the average over D') needs
s/n ≤ G; ``GradNoise(σ)`` needs the per-example gradient variance on D', s²(n−1)/n², to be
≤ σ².  Not lower bounded (no domain): a statement assuming ``LowerBounded`` or
``NonNegative`` is not supported.
"""
from __future__ import annotations

import math

import mpmath
import numpy as np

from checks.plugins import truth_provider
from checks.truth.base import (NotMember, batch_counts, Support, Truth, TruthProvider, Unavailable,
                               all_classes, evaluate)
from theory.classes import (BoundedGradient, Convex, GeneralizedSmooth, GradNoise, Holder,
                            Lipschitz, LSmooth)
from theory.mechanisms import ErrorFeedbackSGD

#: iterations reachable by the (e, k) dynamic programme in a default run
T_MAX = 64
#: mixture states at most (after merging equal means)
STATES_MAX = 200_000
#: compositions reachable by the privacy-loss distributions in a default run
T_MAX_PLD = 2000
#: loss discretisation of the privacy-loss distributions (coarser than the sampled-Gaussian
#: provider's 1e-4: small noise multipliers are common here; the enclosure stays certified)
PLD_INTERVAL = 1e-3
#: the membership-inference audit where the exact law is out of reach (feedback, T > T_MAX)
AUDIT_RUNS = 4000
AUDIT_CONFIDENCE = 0.95
AUDIT_T_MAX = 512
#: records the audit needs: its D is the n − 1 records other than the canary
AUDIT_N_MIN = 2
#: feedback multiples j tried (slopes C1 + b·j·C2)
J_MAX = 8
ORDER_MIN, ORDER_MAX = 1.0 + 1e-6, 256.0


# --------------------------------------------------------------------------------------
# the exact laws on D' (linear canary)
def released_sum_law(T: int, q: float, s: float, b: int, C1: float, C2: float, *,
                     precise: bool = False, states_max: int = STATES_MAX):
    """The law of M = Σ_{t<T} v_t on D' (the canary of slope s, the others 0), as
    ``(means, weights)``: M = k·s/b − e_T over the (e_T, k) states of the error buffer,
    e_{t+1} = e_t − clip(e_t, C2) + 1[sampled]·(s − clip(s, C1))/b, e_0 = 0.  Weights are
    mpmath numbers with ``precise`` (exact probabilities at the working precision), else
    floats.  Raises :class:`Unavailable` beyond ``states_max`` states."""
    for nm, x in (("s", s), ("C1", C1), ("C2", C2)):
        if not (x > 0 and math.isfinite(x)):
            raise ValueError(f"{nm} must be a positive finite number, got {x!r}")
    if not (0 < q <= 1):
        raise ValueError(f"q must be in (0, 1], got {q!r}")
    if T < 1 or b < 1:
        raise ValueError(f"T and b must be >= 1, got T={T}, b={b}")
    one = mpmath.mpf(1) if precise else 1.0
    qq = mpmath.mpf(q) if precise else q
    u = (s - min(s, C1)) / b                 # excess entering the buffer per sampling
    # e is kept in units of C2 when u is a whole multiple of C2 (no rounding drift)
    j = u / C2
    whole = u > 0 and abs(j - round(j)) <= 1e-12 * max(1.0, j)
    unit = C2 if whole else 1.0
    du = float(round(j)) if whole else u
    cap = 1.0 if whole else C2
    states = {(0.0, 0): one}
    for _ in range(T):
        nxt: dict = {}
        for (e, k), w in states.items():
            e0 = e - min(e, cap)                        # e − clip(e, C2)
            if whole:
                e0 = float(round(e0))
            for sampled, pw in ((0, one - qq), (1, qq)):
                if pw == 0:
                    continue
                e1 = e0 + du * sampled if u > 0 else 0.0
                if not whole and u > 0:
                    e1 = float(f"{e1:.15g}")            # merge rounding twins
                key = (e1, k + sampled)
                nxt[key] = nxt.get(key, 0) + w * pw
        states = nxt
        if len(states) > states_max:
            raise Unavailable(f"{len(states)} buffer states after {_ + 1} steps "
                              f"(> {states_max})")
    merged: dict = {}
    for (e, k), w in states.items():
        if precise:
            m = mpmath.mpf(k) * mpmath.mpf(s) / b - mpmath.mpf(e) * unit
            key = mpmath.nstr(m, 40)
        else:
            m = k * s / b - e * unit
            key = f"{m:.15g}"
        if key in merged:
            merged[key] = (merged[key][0], merged[key][1] + w)
        else:
            merged[key] = (m, w)
    vals = sorted(merged.values(), key=lambda x: x[0])
    return [m for m, _ in vals], [w for _, w in vals]


def _logsumexp(a: np.ndarray) -> float:
    m = float(np.max(a))
    return m + math.log(float(np.sum(np.exp(a - m))))


def halfline_profile(means, weights, tau: float, eps: float):
    """δ(ε) in both orders between P = N(0, τ²) and Q = Σ w_i N(μ_i, τ²), μ_i ≥ 0, as
    ``(δ(Q‖P), δ(P‖Q), error, roots)``.  The log-ratio ℓ = log q/p is increasing, so the
    optimal events are {x > x₊} (ℓ(x₊) = ε) and {x < x₋} (ℓ(x₋) = −ε); each value is that of
    a valid event (a lower bound), and ``error`` bounds its distance to the supremum and
    the rounding (first order in the root's bracket width)."""
    from scipy.optimize import brentq
    from scipy.special import log_ndtr
    w = np.asarray(weights, dtype=float)
    mu = np.asarray(means, dtype=float)[w > 0]
    lw = np.log(w[w > 0])
    if np.any(mu < 0):
        raise ValueError("means must be >= 0")

    def ell(x):
        return _logsumexp(lw + (mu * x - mu * mu / 2) / tau**2)

    def find(level):
        lo, hi = -tau, tau
        if mu.max() == 0:
            return None
        k = 0
        while ell(lo) >= level:
            lo = lo * 2 - tau
            k += 1
            if k > 200:
                return None                  # ℓ(−∞) ≥ level: the event is empty
        while ell(hi) <= level:
            hi = hi * 2 + tau
        r, res = brentq(lambda x: ell(x) - level, lo, hi, xtol=1e-14 * tau, rtol=1e-15,
                        full_output=True)
        return r

    out, roots, err = [], [], 0.0
    for side, level in ((">", eps), ("<", -eps)):
        x = find(level)
        roots.append(x)
        if x is None:
            out.append(0.0)
            continue
        sgn = 1.0 if side == ">" else -1.0
        lq = _logsumexp(lw + log_ndtr(sgn * (mu - x) / tau))
        lp = float(log_ndtr(sgn * (0.0 - x) / tau))
        if side == ">":                      # Q(E) − e^ε P(E)
            la, lb = lq, lp + eps
        else:                                # P(E) − e^ε Q(E)
            la, lb = lp, lq + eps
        d = math.exp(la) * -math.expm1(lb - la) if lb < la else 0.0
        out.append(max(d, 0.0))
        scale = math.exp(la) + math.exp(lb)
        # densities at the root bound |d(value)/dx| near it; bracket width ≤ 1e-13·(|x| + τ)
        dens = (math.exp(_logsumexp(lw - (mu - x) ** 2 / (2 * tau**2)))
                + math.exp(eps - x * x / (2 * tau**2))) / (tau * math.sqrt(2 * math.pi))
        err = max(err, 1e-11 * scale + 2e-13 * (abs(x) + tau) * dens * 1.01)
    return out[0], out[1], err, roots


def halfline_profile_mp(means, weights, tau, eps, roots, dps: int = 50):
    """The two event values of :func:`halfline_profile` at ``dps`` digits, at roots refined
    in mpmath (each is P(E) − e^ε Q(E) of a valid event: a lower bound of δ)."""
    out = []
    with mpmath.workdps(dps):
        t, e = mpmath.mpf(tau), mpmath.mpf(eps)
        mu = [mpmath.mpf(m) for m in means]
        w = [mpmath.mpf(x) for x in weights]

        def ell(x):
            return mpmath.log(mpmath.fsum(wi * mpmath.exp((mi * x - mi * mi / 2) / t**2)
                                          for wi, mi in zip(w, mu)))

        for side, level, x0 in ((">", e, roots[0]), ("<", -e, roots[1])):
            if x0 is None:
                out.append(mpmath.mpf(0))
                continue
            try:
                x = mpmath.findroot(lambda z: ell(z) - level, mpmath.mpf(x0))
            except (ValueError, ZeroDivisionError):
                x = mpmath.mpf(x0)           # any x gives a valid event
            sgn = 1 if side == ">" else -1
            Q = mpmath.fsum(wi * mpmath.ncdf(sgn * (mi - x) / t) for wi, mi in zip(w, mu))
            P = mpmath.ncdf(sgn * (0 - x) / t)
            out.append(Q - mpmath.exp(e) * P if side == ">" else P - mpmath.exp(e) * Q)
    return out


# --------------------------------------------------------------------------------------
class ErrorFeedbackSGDProvider(TruthProvider):
    name = "error-feedback-sgd"
    mechanisms = (ErrorFeedbackSGD,)
    classes = (LSmooth, Convex, Holder, GeneralizedSmooth, Lipschitz, BoundedGradient,
               GradNoise)
    profiles = True

    def supports(self, stmt):
        got = super().supports(stmt)
        if not got:
            return got
        if hasattr(stmt, "metric"):
            return Support(False, f"{self.name}: privacy statements only")
        if stmt.mechanism.sampling != "poisson":
            return Support(False, f"{self.name}: only Poisson sampling "
                                  f"(got {stmt.mechanism.sampling})")
        return Support(True)

    def derived(self, stmt):
        m = stmt.mechanism
        out = {}
        if stmt.profile:
            if stmt.delta is not None:
                out["delta"] = stmt.delta
            out["eps"] = stmt.expr
        else:
            out["order"] = stmt.order
        out.update({"T": m.T, "n": m.n, "q": m.b / m.n, "C1": m.C1, "C2/C1": m.C2 / m.C1,
                    "eta": m.eta})
        for c in all_classes(stmt):
            for k, e in c.params().items():
                out.setdefault(f"{c.name}.{k}", e)
        out["z1"] = m.b * m.sigma / m.C1           # noise multiplier of the clipped part
        return out

    def anchors(self, stmt):
        """Across the regimes: the largest sampling rate a statement usually admits (1/5)
        and smaller ones, few and many steps, the buffer equal to / three times the
        per-example threshold, class constants that admit a large canary (feedback) or
        only one below C1 (no feedback), and a ladder of noise multipliers z1 = bσ/C1
        (×2 apart) so that one lands near the smallest noise the statement admits."""
        out = []
        C1 = 1e-3
        for q, n, T, ratio, big, e in ((0.2, 50, 8, 1.0, True, 1.0),
                                       (0.2, 20, 16, 3.0, True, 0.5),
                                       (0.05, 400, 32, 1.0, True, 1.0),
                                       (0.2, 50, 1, 1.0, False, 10.0),
                                       (0.2, 50, 3, 1.0, False, 8.0)):
            for k in range(-2, 9):
                t = {"T": T, "n": n, "q": q, "C1": C1, "C2/C1": ratio, "eta": 0.1}
                if stmt.profile:
                    t.update({"delta": 1e-5, "eps": e})
                else:
                    t["order"] = 8.0
                cls = (1e3 * C1, 1e3 * C1) if big else (C1 / (4 * n), C1 / (4 * n**0.5))
                t.update({"BoundedGradient.G": cls[0], "Lipschitz.M": 1e3 * C1 if big else C1,
                          "GradNoise.sigma": cls[1], "z1": 2.0 ** k})
                out.append(t)
        return out

    # ---- scenario
    def slope_cap(self, stmt, v) -> float:
        """The largest canary slope every class of the statement admits (inf: none binds)."""
        m = stmt.mechanism
        n = evaluate(m.n, v)
        cap = math.inf
        for c in all_classes(stmt):
            if isinstance(c, Lipschitz):
                cap = min(cap, evaluate(c.M, v))
            elif isinstance(c, BoundedGradient):
                G = evaluate(c.G, v)
                cap = min(cap, G * n if c.of == "objective" else G)
            elif isinstance(c, GradNoise):
                sg = evaluate(c.sigma, v)
                cap = min(cap, math.inf if n <= 1 else sg * n / math.sqrt(n - 1))
        return cap

    def member(self, stmt, v):
        try:
            cap = self.slope_cap(stmt, v)
        except Unavailable as exc:
            raise NotMember(f"class constants not evaluable: {exc}") from None
        if not cap > 0:
            raise NotMember("no positive canary slope is admitted by the classes")

    def slopes(self, stmt, v, T: int) -> list[tuple[float, str]]:
        m = stmt.mechanism
        C1, C2, b = evaluate(m.C1, v), evaluate(m.C2, v), int(evaluate(m.b, v))
        cap = self.slope_cap(stmt, v)
        out = []
        if cap <= C1:
            return [(cap, "s_max ≤ C1: no feedback")]
        out.append((C1, "s = C1: no feedback"))
        j = 1
        while j <= min(J_MAX, T) and C1 + b * j * C2 <= cap:
            out.append((C1 + b * j * C2, f"s = C1 + b·{j}·C2"))
            j *= 2
        if math.isfinite(cap) and all(abs(cap - s) > 1e-12 * cap for s, _ in out):
            out.append((cap, "s = s_max"))
        return out

    def _params(self, stmt, v):
        m = stmt.mechanism
        n, b, T = batch_counts(m, v)
        C1, C2, sig = evaluate(m.C1, v), evaluate(m.C2, v), evaluate(m.sigma, v)
        if not (C1 > 0 and C2 > 0 and sig > 0):
            raise Unavailable("C1, C2 and sigma must be > 0")
        return n, b, T, C1, C2, sig

    def truth(self, stmt, v, *, precise=False):
        n, b, T, C1, C2, sig = self._params(stmt, v)
        q = b / n
        rel = stmt.mechanism.release
        cands: list[Truth] = []
        why, audit = [], []
        for s, label in self.slopes(stmt, v, T):
            scen = (f"linear canary l(θ) = {s:.6g}·θ ({label}) vs {n - 1} zero-loss examples, "
                    f"q = {q:.6g}, T = {T}")
            if rel == "all" and s <= C1 * (1 + 1e-15) and T > 1:
                try:
                    cands.append(self._composition(stmt, v, q, b * sig / s, T, scen, precise))
                except Unavailable as exc:
                    why.append(str(exc))
            try:
                cands.append(self._last(stmt, v, q, s, b, C1, C2, sig, T, scen, precise,
                                        lower_only=(rel == "all" and T > 1)))
            except Unavailable as exc:
                why.append(str(exc))
                if stmt.profile and s > C1 and T <= AUDIT_T_MAX:
                    if n >= AUDIT_N_MIN:
                        audit.append((s, scen))
                    else:
                        why.append(f"no audit: n = {n} < {AUDIT_N_MIN} (the audit's D holds "
                                   "the n - 1 other records and needs one)")
        if audit:
            # only where the exact candidates do not already exceed the claimed δ (the
            # audit costs seconds), and once per point: the largest slope
            try:
                claim = evaluate(stmt.delta, v) if stmt.delta is not None else 0.0
            except Unavailable:
                claim = 0.0
            if not any(t.lower > claim for t in cands):
                s, scen = audit[-1]
                cands.append(self._audit(stmt, v, n, b, T, s, C1, C2, sig, scen))
        if not cands:
            raise Unavailable("; ".join(why) or "no slope admitted")
        best = max(cands, key=lambda t: t.lower)
        if precise:
            lows = [t.extra.get("lower_mp") for t in cands if t.extra.get("lower_mp") is not None]
            if lows:
                best.extra["lower_mp"] = max(lows)
        return best

    # ---- whole trajectory without feedback: T compositions of the SGM
    def _composition(self, stmt, v, q, z, T, scen, precise):
        from checks.truth.divergences import sgm_rdp
        if stmt.profile:
            if T > T_MAX_PLD:
                raise Unavailable(f"T = {T} > {T_MAX_PLD} compositions (PLD in a default run)")
            eps = evaluate(stmt.expr, v)
            lo_r, lo_a = _pld(q, z, T, eps, pessimistic=False)
            hi_r, hi_a = _pld(q, z, T, eps, pessimistic=True)
            # dp-accounting's "remove" pair is (mixture ‖ Gaussian): this module's forward
            # (add: D' holds the canary); its "add" pair is the backward order
            fwd, bwd = (lo_r + hi_r) / 2, (lo_a + hi_a) / 2
            err = max(hi_a - lo_a, hi_r - lo_r) / 2 + 1e-12 * max(hi_a, hi_r)
            t = Truth(fwd, bwd, err, f"whole trajectory = {T}·SGM(q, bσ/s) (buffer stays 0): "
                      "privacy-loss distributions (dp-accounting, optimistic/pessimistic "
                      "enclosure)", scen)
            t.extra["lower_mp"] = mpmath.mpf(max(lo_r, lo_a))
            return t
        a = _order(stmt, v)
        f = sgm_rdp(q, z, a, "add", precise=precise)
        r = sgm_rdp(q, z, a, "remove", precise=precise)
        t = Truth(T * f, T * r, 1e-9 * T * max(f, r),
                  f"whole trajectory = {T}·SGM(q, bσ/s) (buffer stays 0), exact RDP", scen)
        if precise:
            t.extra["lower_mp"] = mpmath.mpf(T) * mpmath.mpf(max(f, r)) * (1 - mpmath.mpf(2) ** -50)
        return t

    # ---- the audit where the exact law is out of reach
    def _audit(self, stmt, v, n, b, T, s, C1, C2, sig, scen):
        eps = evaluate(stmt.expr, v)
        dl = evaluate(stmt.delta, v) if stmt.delta is not None else 1e-5
        if not 0 <= dl < 1:
            raise Unavailable(f"delta = {dl!r} outside [0, 1)")
        f, r, a = audit_delta_lower(n, b, T, s, C1, C2, sig, eps, dl)
        t = Truth(f, r, 0.0, f"membership-inference audit of θ_T (exact law out of reach): "
                  f"lower bounds holding with probability ≥ {a.confidence:g} (Clopper–"
                  f"Pearson, Bonferroni): FNR = {round(a.fnr * a.n_in_eval)}/{a.n_in_eval}, "
                  f"FPR = {round(a.fpr * a.n_out_eval)}/{a.n_out_eval} on the evaluation "
                  f"half ({AUDIT_RUNS} runs per side, threshold {a.threshold:.6g}, side "
                  f"{a.side:+d}, fixed seed)", scen)
        t.extra["lower_mp"] = mpmath.mpf(max(f, r))
        t.extra["audit"] = a.as_dict()
        return t

    # ---- last iterate (exact), a lower bound for the trajectory
    def _last(self, stmt, v, q, s, b, C1, C2, sig, T, scen, precise, lower_only):
        if T > T_MAX:
            raise Unavailable(f"T = {T} > {T_MAX} (last-iterate mixture in a default run)")
        means, weights = released_sum_law(T, q, s, b, C1, C2)
        tau = sig * math.sqrt(T)            # η cancels: the law of (θ_0 − θ_T)/η
        what = ("last iterate θ_T (a post-processing: a lower bound of the trajectory's)"
                if lower_only else "last iterate θ_T")
        if stmt.profile:
            eps = evaluate(stmt.expr, v)
            f, r, err, roots = halfline_profile(means, weights, tau, eps)
            t = Truth(f, r, err, f"{what}: exact {len(means)}-component Gaussian mixture, "
                      "half-line optimal events", scen)
            if precise:
                mw, ww = released_sum_law(T, q, s, b, C1, C2, precise=True)
                vals = halfline_profile_mp(mw, ww, tau, eps, roots)
                with mpmath.workdps(50):
                    t.extra["lower_mp"] = max(vals)
                t.method += ", event values re-evaluated with mpmath at 50 digits"
            return t
        from checks.truth.divergences import Mixture1D, mixture_rdp_1d
        a = _order(stmt, v)
        P = Mixture1D((1.0,), (0.0,), (tau,))
        Q = Mixture1D(tuple(weights), tuple(means), (tau,))
        d = mixture_rdp_1d(Q, P, a, precise=precise, dps=50)
        t = Truth(d.forward, d.backward, 1e-9 * max(1.0, d.max),
                  f"{what}: exact {len(means)}-component Gaussian mixture, 1-D quadrature", scen)
        if precise:
            t.extra["lower_mp"] = mpmath.mpf(d.max) * (1 - mpmath.mpf(10) ** -8)
        return t


def audit_delta_lower(n: int, b: int, T: int, s: float, C1: float, C2: float, sigma: float,
                      eps: float, delta: float, *, runs: int = AUDIT_RUNS, seed: int = 0,
                      confidence: float = AUDIT_CONFIDENCE):
    """Lower bounds of δ(ε) in both orders, each holding with probability ≥ ``confidence``,
    from a membership-inference audit of θ_T: ``runs`` runs of the batched ``ef-clip-sgd``
    simulator on D' (the linear canary of slope s, n − 1 zero-loss examples) and on D, a
    threshold test on θ_T chosen on a calibration half for the claimed ``delta``
    (:func:`checks.simulate.audit.threshold_audit`), Clopper–Pearson upper bounds of its
    error rates on the evaluation half: δ(D'‖D) ≥ 1 − FNR⁺ − e^ε FPR⁺ and
    δ(D‖D') ≥ 1 − FPR⁺ − e^ε FNR⁺ (the test's region and its complement).  Returns
    ``(forward, backward, audit)``; deterministic for a seed."""
    import dataclasses

    from checks.simulate.algorithms import Hyper, make_algorithm
    from checks.simulate.audit import threshold_audit
    from checks.simulate.problems import Canary, gradient_canary
    from checks.simulate.runner import simulate_pair
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


def _pld(q, z, count, eps, *, pessimistic):
    """(δ remove, δ add) at ε of ``count`` compositions of SGM(q, z), dp-accounting's PLD
    (dp-accounting's names of the pair) at a loss discretisation of
    :data:`PLD_INTERVAL`: optimistic privacy buckets below, pessimistic connect-the-dots
    above, so the pair of calls encloses δ(ε)."""
    from checks.truth.pld import composed_deltas
    # small noise multipliers spread the loss widely: a coarser grid there (the enclosure
    # widens, it stays certified)
    return composed_deltas(z, q, count, eps, pessimistic=pessimistic,
                           interval=PLD_INTERVAL * max(1.0, (0.5 / z) ** 2))


def _order(stmt, v) -> float:
    a = evaluate(stmt.order, v)
    if not (ORDER_MIN <= a <= ORDER_MAX):
        raise Unavailable(f"Rényi order {a!r} outside [1 + 1e-6, {ORDER_MAX:g}]")
    return a


truth_provider(ErrorFeedbackSGDProvider())

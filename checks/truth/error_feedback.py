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
* **out of reach** (feedback and T > :data:`T_MAX`, (ε, δ) statements): the measured
  lower bounds other parts of the engine register for this provider
  (:func:`~checks.truth.base.lower_bound_source`) — the simulator's membership-inference
  audit of θ_T (:mod:`checks.simulate.audit_truth`), whose Clopper–Pearson bounds give
  δ(ε) from below with probability ≥ 95 %; the method names the confidence and the counts.

A canary known only from below (the last iterate of a trajectory with feedback, an audit)
makes the truth's upper end +∞: such a point can show a violation, never that the claim
holds.

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
from scipy.optimize import brentq
from scipy.special import log_ndtr

from checks.plugins import truth_provider
from checks.truth.base import (
    NotMember,
    Support,
    Truth,
    TruthProvider,
    Unavailable,
    all_classes,
    batch_counts,
    evaluate,
    lower_bound_sources,
)
from checks.truth.divergences import Mixture1D, lse, mixture_rdp_1d, sgm_rdp
from checks.truth.pld import PLD_INTERVAL_SMALL_NOISE, composed_deltas
from theory.classes import (
    BoundedGradient,
    Convex,
    GeneralizedSmooth,
    GradNoise,
    Holder,
    Lipschitz,
    LSmooth,
)
from theory.mechanisms import ErrorFeedbackSGD

#: iterations reachable by the (e, k) dynamic programme in a default run
T_MAX = 64
#: mixture states at most (after merging equal means)
STATES_MAX = 200_000
#: compositions reachable by the privacy-loss distributions in a default run
T_MAX_PLD = 2000
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


def halfline_profile(means, weights, tau: float, eps: float):
    """δ(ε) in both orders between P = N(0, τ²) and Q = Σ w_i N(μ_i, τ²), μ_i ≥ 0, as
    ``(δ(Q‖P), δ(P‖Q), error, roots)``.  The log-ratio ℓ = log q/p is increasing, so the
    optimal events are {x > x₊} (ℓ(x₊) = ε) and {x < x₋} (ℓ(x₋) = −ε); each value is that of
    a valid event (a lower bound), and ``error`` bounds its distance to the supremum and
    the rounding (first order in the root's bracket width)."""
    w = np.asarray(weights, dtype=float)
    mu = np.asarray(means, dtype=float)[w > 0]
    lw = np.log(w[w > 0])
    if np.any(mu < 0):
        raise ValueError("means must be >= 0")

    def ell(x):
        return float(lse(lw + (mu * x - mu * mu / 2) / tau**2))

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
        lq = float(lse(lw + log_ndtr(sgn * (mu - x) / tau)))
        lp = float(log_ndtr(sgn * (0.0 - x) / tau))
        if side == ">":                      # Q(E) − e^ε P(E)
            la, lb = lq, lp + eps
        else:                                # P(E) − e^ε Q(E)
            la, lb = lp, lq + eps
        d = math.exp(la) * -math.expm1(lb - la) if lb < la else 0.0
        out.append(max(d, 0.0))
        scale = math.exp(la) + math.exp(lb)
        # densities at the root bound |d(value)/dx| near it; bracket width ≤ 1e-13·(|x| + τ)
        dens = (math.exp(float(lse(lw - (mu - x) ** 2 / (2 * tau**2))))
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
        """The largest value over the canaries: an exact truth for each canary whose law is
        computed (the last iterate; the whole trajectory as T SGM compositions where the
        buffer stays 0), a lower bound for the others (the last iterate of a trajectory
        with feedback; where even that is out of reach, a registered measured lower bound:
        the simulator's membership-inference audit).  Where any canary is known only from
        below, the truth's upper end is +∞: the point can show a violation, never that
        the claim holds."""
        n, b, T, C1, C2, sig = self._params(stmt, v)
        q = b / n
        rel = stmt.mechanism.release
        cands: list[Truth] = []
        lower_only = False
        why, unreached = [], []
        for s, label in self.slopes(stmt, v, T):
            scen = (f"linear canary l(θ) = {s:.6g}·θ ({label}) vs {n - 1} zero-loss examples, "
                    f"q = {q:.6g}, T = {T}")
            partial = rel == "all" and T > 1
            if partial and s <= C1 * (1 + 1e-15):
                try:
                    cands.append(self._composition(stmt, v, q, b * sig / s, T, scen, precise))
                    partial = False          # the trajectory's law is known: exact
                except Unavailable as exc:
                    why.append(str(exc))
            try:
                cands.append(self._last(stmt, v, q, s, b, C1, C2, sig, T, scen, precise,
                                        lower_only=partial))
                lower_only |= partial
            except Unavailable as exc:
                why.append(str(exc))
                if s > C1:
                    unreached.append((s, scen))
        if unreached and stmt.profile:
            # only where the computed candidates do not already exceed the claimed δ (a
            # measured bound costs seconds), and once per point: the largest slope
            try:
                claim = evaluate(stmt.delta, v) if stmt.delta is not None else 0.0
            except Unavailable:
                claim = 0.0
            if not any(t.lower > claim for t in cands):
                s, scen = unreached[-1]
                for src in lower_bound_sources(self.name):
                    got = src(self, stmt, v, n=n, b=b, T=T, s=s, C1=C1, C2=C2, sigma=sig,
                              scenario=scen)
                    if isinstance(got, Truth):
                        cands.append(got)
                        lower_only = True
                    elif got:
                        why.append(str(got))
        if not cands:
            raise Unavailable("; ".join(why) or "no slope admitted")
        best = max(cands, key=lambda t: t.lower)
        if precise:
            lows = [t.extra.get("lower_mp") for t in cands if t.extra.get("lower_mp") is not None]
            if lows:
                best.extra["lower_mp"] = max(lows)
        if lower_only:
            best = Truth(best.forward, best.backward, best.error, best.method, best.scenario,
                         dict(best.extra, upper_unknown=True), lo=best.lower, hi=math.inf)
        return best

    # ---- whole trajectory without feedback: T compositions of the SGM
    def _composition(self, stmt, v, q, z, T, scen, precise):
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
        a = _order(stmt, v)
        P = Mixture1D((1.0,), (0.0,), (tau,))
        Q = Mixture1D(tuple(weights), tuple(means), (tau,))
        d = mixture_rdp_1d(Q, P, a, precise=precise, dps=50)
        t = Truth(d.forward, d.backward, 1e-9 * max(1.0, d.max),
                  f"{what}: exact {len(means)}-component Gaussian mixture, 1-D quadrature", scen)
        if precise:
            t.extra["lower_mp"] = mpmath.mpf(d.max) * (1 - mpmath.mpf(10) ** -8)
        return t


def _pld(q, z, count, eps, *, pessimistic):
    """(δ remove, δ add) at ε of ``count`` compositions of SGM(q, z), dp-accounting's PLD
    (dp-accounting's names of the pair) at a loss discretisation of
    :data:`~checks.truth.pld.PLD_INTERVAL_SMALL_NOISE`: optimistic privacy buckets below,
    pessimistic connect-the-dots above, so the pair of calls encloses δ(ε)."""
    # small noise multipliers spread the loss widely: a coarser grid there (the enclosure
    # widens, it stays certified)
    return composed_deltas(z, q, count, eps, pessimistic=pessimistic,
                           interval=PLD_INTERVAL_SMALL_NOISE * max(1.0, (0.5 / z) ** 2))


def _order(stmt, v) -> float:
    a = evaluate(stmt.order, v)
    if not (ORDER_MIN <= a <= ORDER_MAX):
        raise Unavailable(f"Rényi order {a!r} outside [1 + 1e-6, {ORDER_MAX:g}]")
    return a


truth_provider(ErrorFeedbackSGDProvider())

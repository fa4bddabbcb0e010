"""The generic truth providers for privacy statements (:class:`~theory.model.Bound`).

====================  =======================================================================
provider              supports (mechanism, problem classes) → truth
====================  =======================================================================
``gaussian``          :class:`~theory.mechanisms.GaussianMechanism` — RDP in closed form
                      (λΔ²/(2σ²), both orders), the exact (ε, δ) profile (Balle & Wang 2018:
                      δ(ε) = Φ(Δ/2σ − εσ/Δ) − e^ε Φ(−Δ/2σ − εσ/Δ)); no class needed.
``sampled-gaussian``  :class:`~theory.mechanisms.SampledGaussian` and its
                      :class:`~theory.mechanisms.Composition` — exact RDP both orders
                      (:func:`~checks.truth.divergences.sgm_rdp`; RDP of a product is the
                      sum), exact profiles through privacy-loss distributions (dp-accounting,
                      optimistic and pessimistic: a certified enclosure of δ(ε), both orders).
                      With ``sampling="fixed"`` (a uniform batch without replacement,
                      substitution adjacency) the same numbers are the exact truth of ONE
                      adjacent pair — a record of contribution 1 replaced by one of
                      contribution 0, every other record contributing 0: the batch holds the
                      record with probability q exactly, so each step is the Poisson pair's
                      mixture — hence a lower bound of the mechanism's divergence (a
                      violation is real; "holds" is on that pair only).
``noisy-sgd``         :class:`~theory.mechanisms.NoisySGD` — the linear canary l(θ) = −sθ
                      against zero-loss data (slope s = C, or the Lipschitz / gradient bound
                      of the statement's classes when smaller): θ_T is a Binomial(T, q)
                      Gaussian mixture without a domain (closed form), the grid accountant
                      with a domain, T·SGM for the released trajectory.
====================  =======================================================================

The linear canary is a member of: L-smooth (every L), convex, Hölder-smooth (every ν, L),
(L0, L1)-smooth, M-Lipschitz and G-bounded-gradient (with the slope above), a bounded
domain of the mechanism's diameter, and — with a domain — non-negative and lower bounded
(a constant added to the loss); gradient noise of variance ≤ σ² when s²(n−1)/n² ≤ σ².
It is not strongly convex: a statement assuming strong convexity is NOT-TESTED here.
"""
from __future__ import annotations

import functools
import math

import mpmath
import numpy as np
import sympy as sp

from checks.plugins import truth_provider
from checks.truth.accountant import CERT_REL_TOL, AccountantError, certified_rdp
from checks.truth.accountant_fft import linear_canary_exact, linear_canary_mixtures
from checks.truth.base import (
    NotMember,
    Support,
    Truth,
    TruthProvider,
    Unavailable,
    all_classes,
    batch_counts,
    evaluate,
)
from checks.truth.divergences import mixture_rdp_1d, mixture_vs_gaussian_int, sgm_rdp
from checks.truth.losses import linear_canary
from checks.truth.pld import PLD_INTERVAL, PLD_INTERVAL_COARSE, composed_deltas
from theory.classes import (
    BoundedDomain,
    BoundedGradient,
    Convex,
    GeneralizedSmooth,
    GradNoise,
    Holder,
    Lipschitz,
    LowerBounded,
    LSmooth,
    NonNegative,
)
from theory.mechanisms import Composition, GaussianMechanism, NoisySGD, SampledGaussian

#: orders above this are out of reach of the double-precision evaluations
ORDER_MAX = 256.0
#: orders closer to 1 than this are refused: there D_α ≈ KL and the quadratures' relative
#: error is no longer certified (a run once met α = 1 + 2e-16, where rounding alone decides)
ORDER_MIN = 1.0 + 1e-6
#: iterations reachable by the closed form / grid accountant in a default run
T_MAX_CLOSED = 64
T_MAX_GRID = 16
N_MAX_GRID = 10**5
#: cost cap (grid points × components) of one mixture quadrature
MIX_COST = 1e7
DC_GRID = 128
DC_GRID_MAX = 512
#: largest grid of the certified (dense, log-domain) accountant in a default run
DC_GRID_CERT_MAX = 1024
#: cells of one grid-accountant law at most (margins for the pre-projection mass included)
GRID_CELLS_MAX = 2**16


def _order(stmt, v) -> float:
    a = evaluate(stmt.order, v)
    if not (ORDER_MIN <= a <= ORDER_MAX):
        raise Unavailable(f"Rényi order {a!r} outside [1 + 1e-6, {ORDER_MAX:g}]: not evaluated")
    return a


# --------------------------------------------------------------------------------------
class GaussianProvider(TruthProvider):
    name = "gaussian"
    mechanisms = (GaussianMechanism, Composition)
    classes = ()
    profiles = True

    def supports(self, stmt):
        got = super().supports(stmt)
        if got and _inner(stmt.mechanism)[0] is None:
            return Support(False, f"{self.name}: only Gaussian mechanisms and their "
                                  "compositions")
        return got

    @staticmethod
    def effective(mech) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
        """(sensitivity, σ, count) of a Gaussian mechanism or a composition of one: a
        k-fold composition of N(f(D), σ²I) is exactly one Gaussian mechanism of sensitivity
        √k·Δ (the outputs stacked: ‖(f(D) − f(D'))×k‖ = √k·Δ) — its RDP, its profile and its
        privacy-loss distribution are closed forms."""
        m, count = _inner(mech)
        return sp.sqrt(count) * m.sensitivity, m.sigma, count

    def derived(self, stmt):
        sens, sig, count = self.effective(stmt.mechanism)
        out = {"sensitivity": sens, "sigma": sig, "ratio": sig / sens}
        if count != 1:
            out["count"] = count
        if stmt.order is not None:
            out["order"] = stmt.order
        return out

    def anchors(self, stmt):
        return [{"ratio": r, "order": a} for r, a in ((0.5, 2.0), (1.0, 8.0), (4.0, 64.0))]

    def truth(self, stmt, v, *, precise=False):
        sens_e, sig_e, count = self.effective(stmt.mechanism)
        sig = evaluate(sig_e, v)
        if count != 1:
            k = evaluate(count, v)
            if k != int(k) or k < 1:
                raise Unavailable(f"count = {k:g} is not a positive integer")
        sens = abs(evaluate(sens_e, v))
        if not sig > 0:
            raise Unavailable("sigma must be > 0")
        scen = "f(D) − f(D') = Δ" + (" at each of the composed mechanisms" if count != 1
                                     else "")
        what = "" if count == 1 else " (a composition: one Gaussian of sensitivity √k·Δ)"
        if stmt.profile:
            eps = evaluate(stmt.expr, v)
            d, err = gaussian_delta_enclosure(eps, sens, sig)
            # the mpmath error bound plus the rounding to a double (issue 16: every truth
            # carries an honest error, never a bare 0), summed at working precision: the
            # error of the double value: the enclosure's plus its own rounding
            with mpmath.workdps(max(60, mpmath.mp.dps)):
                err = _up(err + abs(mpmath.mpf(float(d)) - d))
            t = Truth(float(d), float(d), err,
                      "analytic Gaussian profile (Balle & Wang 2018), mpmath" + what, scen)
            if precise:
                t.extra["lower_mp"] = d - err
            return t
        a = _order(stmt, v)
        val = a * sens**2 / (2 * sig**2)
        t = Truth(val, val, 8 * 2.0**-52 * val, "closed form λΔ²/(2σ²)" + what, scen)
        if precise:
            with mpmath.workdps(60):
                t.extra["lower_mp"] = (mpmath.mpf(a) * mpmath.mpf(sens)**2
                                       / (2 * mpmath.mpf(sig)**2))
        return t

    def closed_form(self, stmt):
        sens, sig, _ = self.effective(stmt.mechanism)
        if stmt.profile:
            return gaussian_profile_expr(stmt.expr, sens, sig)
        return stmt.order * sens**2 / (2 * sig**2)


def _inner(mech) -> tuple[object, sp.Expr]:
    """(the Gaussian mechanism, the number of compositions) of a Gaussian mechanism or of
    (nested) compositions of one; (None, count) otherwise."""
    count = sp.Integer(1)
    while isinstance(mech, Composition):
        count, mech = count * mech.count, mech.mechanism
    return (mech if isinstance(mech, GaussianMechanism) else None), count


def gaussian_profile_expr(eps, sens, sigma) -> sp.Expr:
    """δ(ε) of the Gaussian mechanism as a SymPy expression: Φ(Δ/2σ − εσ/Δ) −
    e^ε Φ(−Δ/2σ − εσ/Δ), Φ(x) = (1 + erf(x/√2))/2 (Balle & Wang 2018)."""
    def Phi(x):
        return (1 + sp.erf(x / sp.sqrt(2))) / 2
    return Phi(sens / (2 * sigma) - eps * sigma / sens) \
        - sp.exp(eps) * Phi(-sens / (2 * sigma) - eps * sigma / sens)


# remembered per process (a pure function of three numbers): a truth that averages the
# profile over the shifts of many index sequences meets each shift ~20 times
@functools.lru_cache(maxsize=1 << 16)
def gaussian_delta_enclosure(eps, sens, sigma):
    """δ(ε) of the Gaussian mechanism with sensitivity Δ and noise σ (both orders agree),
    as ``(value, error)``: an mpmath value and a bound on its absolute error.

    δ(ε) = Φ(a) − e^ε Φ(b), a = Δ/2σ − εσ/Δ, b = −Δ/2σ − εσ/Δ (Balle & Wang 2018).  The
    two terms nearly cancel where δ is far below Φ(a) (a double evaluation through
    log_ndtr lost up to all of its digits there), so the difference is taken in mpmath at
    a working precision raised by the digits the cancellation costs: each term is good to
    a few units in 10^-dps, so |error| ≤ 2·Φ(a)·10^(5−dps), reported relative to δ."""
    if sens == 0:
        return mpmath.mpf(0), 0.0
    dps = 40
    for _ in range(6):
        with mpmath.workdps(dps):
            e, s, d = mpmath.mpf(eps), mpmath.mpf(sigma), mpmath.mpf(sens)
            A = mpmath.ncdf(d / (2 * s) - e * s / d)
            v = A - mpmath.exp(e) * mpmath.ncdf(-d / (2 * s) - e * s / d)
            lost = float(mpmath.log10(A / v)) if v > 0 else float(dps)
            if v > 0 and lost < dps - 25:
                return +v, _up(2 * A * mpmath.mpf(10) ** (5 - dps))
        dps = int(dps + lost + 30)
    raise Unavailable(f"delta(eps) of the Gaussian mechanism at eps={eps!r}, "
                      f"sigma/sensitivity={sigma / sens!r}: cancellation beyond {dps} digits")


def _up(x) -> float:
    """A double ≥ the non-negative mpmath number ``x``."""
    f = float(x)
    return f if mpmath.mpf(f) >= x else math.nextafter(f, math.inf)


def gaussian_delta(eps, sens, sigma, *, precise=False):
    """δ(ε) of the Gaussian mechanism (:func:`gaussian_delta_enclosure`'s value): an mpmath
    number with ``precise``, else the nearest double."""
    v, _ = gaussian_delta_enclosure(eps, sens, sigma)
    return v if precise else float(v)


# --------------------------------------------------------------------------------------


class SampledGaussianProvider(TruthProvider):
    name = "sampled-gaussian"
    mechanisms = (SampledGaussian, Composition)
    classes = ()
    profiles = True
    takes_hints = True          # a profile is first discretised coarsely where that decides

    def supports(self, stmt):
        got = super().supports(stmt)
        m = getattr(stmt, "mechanism", None)
        if got and isinstance(m, Composition) and not isinstance(m.mechanism, SampledGaussian):
            return Support(False, f"{self.name}: only compositions of the sampled Gaussian")
        return got

    @staticmethod
    def _parts(m):
        if isinstance(m, Composition):
            return m.mechanism, m.count
        return m, 1

    def derived(self, stmt):
        base, count = self._parts(stmt.mechanism)
        out = {"q": base.q, "sigma": base.sigma}
        if count != 1:
            out["count"] = count
        if stmt.order is not None:
            out["order"] = stmt.order
        return out

    def anchors(self, stmt):
        return [{"q": q, "sigma": s, "order": a} for q, s, a in
                ((0.2, 4.01, 2.0), (0.01, 5.0, 8.0), (1e-3, 1.0, 64.0), (0.5, 0.8, 32.0))]

    def paths(self, stmt):
        return {"q = 10^-k, order = 8k": [{"q": 10.0**-k, "sigma": 1.0, "order": 8.0 * k}
                                         for k in range(1, 8)]}

    def reach(self, stmt, v):
        q, s, k = self._values(stmt, v)
        if stmt.profile and q < 1:
            buckets = _pld_buckets(q, s, k)
            if buckets > PLD_BUCKETS_MAX:
                raise Unavailable(
                    f"{k:g} compositions of SGM(q = {q:.3g}, σ = {s:.3g}): the composed "
                    f"privacy-loss distribution would hold ~{buckets:.2g} buckets "
                    f"(> {PLD_BUCKETS_MAX:.0e}): out of reach")

    def _values(self, stmt, v):
        base, count = self._parts(stmt.mechanism)
        q, s = evaluate(base.q, v), evaluate(base.sigma, v)
        k = evaluate(count, v) if count != 1 else 1.0
        if not (0 < q <= 1) or not s > 0 or not k >= 1:
            raise Unavailable(f"q = {q:g} must be in (0, 1], sigma = {s:g} > 0, count >= 1")
        return q, s, k

    def truth(self, stmt, v, *, precise=False, enough=None, rel_tol=None):
        base, count = self._parts(stmt.mechanism)
        q, s, k = self._values(stmt, v)
        if q == 1:
            # no subsampling: k compositions of N(f(D), s²) with ‖f(D) − f(D')‖ ≤ 1 are one
            # Gaussian mechanism of sensitivity √k — a closed form, both orders alike
            return self._gaussian(stmt, v, s, k, precise, base)
        if stmt.profile:
            eps, k = evaluate(stmt.expr, v), int(round(k))
            if enough is not None and not precise and max(_pld_delta(
                    q, s, k, eps, pessimistic=True, interval=PLD_INTERVAL_COARSE)) <= enough:
                # the coarse upper end decides: only then is its (remembered) bracket built
                got = self._profile(stmt, eps, q, s, k, PLD_INTERVAL_COARSE)
                if got.upper <= enough:
                    got.extra["coarse"] = True
                    got.method += (f", discretised at {PLD_INTERVAL_COARSE:g} (enough to show "
                                   f"δ ≤ {enough:.6g})")
                    return got
            return self._profile(stmt, eps, q, s, k)
        a = _order(stmt, v)
        f = sgm_rdp(q, s, a, "add", precise=precise)
        r = sgm_rdp(q, s, a, "remove", precise=precise)
        # sgm_rdp in double: measured within 6e-12 relative of the 40-digit evaluation over
        # q ∈ [1e-3, 0.5], σ ∈ [0.5, 5], α ∈ [1.5, 256]; 1e-9 relative is the claimed error
        t = Truth(k * f, k * r, 1e-9 * k * max(f, r),
                  ("exact SGM divergence" + (f" × {k:g} (composition)"
                                                               if k != 1 else "")
                                      + (", mpmath 50 digits" if precise else "")),
                  _pair(base))
        if precise:
            t.extra["lower_mp"] = mpmath.mpf(k) * mpmath.mpf(max(f, r)) * (1 - mpmath.mpf(2) ** -50)
        return t

    def _gaussian(self, stmt, v, s, k, precise, base):
        if k != int(k):
            raise Unavailable(f"count = {k:g} is not an integer")
        sens = math.sqrt(k)
        what = " (q = 1: one Gaussian of sensitivity √k)" if k != 1 else " (q = 1)"
        if stmt.profile:
            eps = evaluate(stmt.expr, v)
            d, err = gaussian_delta_enclosure(eps, sens, s)
            with mpmath.workdps(max(60, mpmath.mp.dps)):
                err = _up(err + abs(mpmath.mpf(float(d)) - d))
            t = Truth(float(d), float(d), err, "analytic Gaussian profile (Balle & Wang "
                      "2018), mpmath" + what, _pair(base))
            if precise:
                t.extra["lower_mp"] = d - err
            return t
        a = _order(stmt, v)
        val = k * a / (2 * s * s)
        t = Truth(val, val, 8 * 2.0**-52 * val, "closed form kα/(2σ²)" + what, _pair(base))
        if precise:
            with mpmath.workdps(60):
                t.extra["lower_mp"] = mpmath.mpf(k) * mpmath.mpf(a) / (2 * mpmath.mpf(s)**2)
        return t

    def closed_form(self, stmt):
        """Where the sampling rate is 1 as printed: the composition of Gaussians."""
        base, count = self._parts(stmt.mechanism)
        if base.q != 1:
            return None
        if stmt.profile:
            return gaussian_profile_expr(stmt.expr, sp.sqrt(count), base.sigma)
        return count * stmt.order / (2 * base.sigma**2)

    def _profile(self, stmt, eps, q, s, k, interval=PLD_INTERVAL):
        hi_r, hi_a = _pld_delta(q, s, k, eps, pessimistic=True, interval=interval)
        lo_r, lo_a = _pld_delta(q, s, k, eps, pessimistic=False, interval=interval)
        # dp-accounting's REMOVE pair is (mixture ‖ Gaussian): the law *with* the example
        # against the law without it, which is this project's forward ("add") order
        # (sgm_rdp(..., "add") = D_α(mixture ‖ N)); its ADD pair is our backward order
        fwd, bwd = (lo_r + hi_r) / 2, (lo_a + hi_a) / 2
        # half the enclosure width, plus the double rounding of the PLD sums
        err = max(hi_a - lo_a, hi_r - lo_r) / 2 + 1e-12 * max(hi_a, hi_r)
        t = Truth(fwd, bwd, err, "privacy-loss distributions (dp-accounting: optimistic "
                  "privacy buckets and pessimistic connect-the-dots, a certified enclosure)",
                  _pair(self._parts(stmt.mechanism)[0]))
        t.extra["lower_mp"] = max(lo_r, lo_a)
        return t


#: buckets of a composed privacy-loss distribution at most (dp-accounting holds ~100 bytes a
#: bucket while composing: ~1 GB at the cap)
PLD_BUCKETS_MAX = 1e7


@functools.lru_cache(maxsize=4096)
def _pld_buckets(q: float, s: float, k: float) -> float:
    """The length of the k-fold composed privacy-loss distribution of SGM(q, s) at the finest
    interval, estimated before anything is built: the composed loss spreads over k·|μ| +
    20√k·σ_ℓ + R (μ, σ_ℓ the mean and spread of one step's loss log(1 − q +
    q·e^{(2x − 1)/(2s²)}) under the law with the example, R its range within 10 s of the two
    means) — within a factor 2 of dp-accounting's truncated length over q ∈ [10⁻³, 0.5],
    s ∈ [0.5, 4], k up to 10⁵ (measured), and far beyond the cap where the noise is small."""
    x = np.linspace(-10 * s, 1 + 10 * s, 4001)
    z = (2 * x - 1) / (2 * s * s)
    with np.errstate(over="ignore"):
        loss = np.log1p(-q + q * np.exp(z)) if q < 1 else z
    loss = np.where(np.isfinite(loss), loss, z + math.log(q))
    w = (1 - q) * np.exp(-x**2 / (2 * s * s)) + q * np.exp(-(x - 1)**2 / (2 * s * s))
    w /= w.sum()
    mu = float((w * loss).sum())
    sd = math.sqrt(max(float((w * (loss - mu)**2).sum()), 0.0))
    width = k * abs(mu) + 20 * math.sqrt(k) * sd + float(loss.max() - loss.min())
    return width / PLD_INTERVAL


def _pair(base) -> str:
    if getattr(base, "sampling", "poisson") == "fixed":
        return ("one adjacent pair (substitution): a record of contribution 1 replaced by one "
                "of contribution 0, the others 0 — a lower bound of the mechanism's truth")
    return "the worst-case pair: one example of contribution 1"


@functools.lru_cache(maxsize=1 << 10)
def _pld_delta(q, sigma, count, eps, *, pessimistic, interval=PLD_INTERVAL):
    """(δ remove, δ add) at ε of ``count`` compositions of the SGM, in dp-accounting's names
    of the pair (its REMOVE = our forward order D(mixture ‖ N), its ADD = our backward);
    the privacy loss discretised at ``interval``.  Remembered per process (a violation's
    confirmation asks again for the point the search found)."""
    if count > 10**5:
        raise Unavailable(f"{count} compositions: out of reach of the PLD in a default run")
    # connect-the-dots has no optimistic estimate: the lower end is dp-accounting's
    # optimistic privacy buckets (what it falls back to anyway, with a log warning)
    return composed_deltas(sigma, q, count, eps, pessimistic=pessimistic, interval=interval)


# --------------------------------------------------------------------------------------
class NoisySGDProvider(TruthProvider):
    name = "noisy-sgd"
    mechanisms = (NoisySGD,)
    classes = (LSmooth, Convex, Holder, GeneralizedSmooth, Lipschitz, BoundedGradient,
               BoundedDomain, NonNegative, LowerBounded, GradNoise)
    profiles = False
    takes_hints = True          # the grid accountant refines only as far as asked

    def supports(self, stmt):
        got = super().supports(stmt)
        if not got:
            return got
        m = stmt.mechanism
        if m.sampling != "poisson":
            return Support(False, f"{self.name}: only Poisson sampling (got {m.sampling})")
        for c in all_classes(stmt):
            if isinstance(c, (NonNegative, LowerBounded)) and m.domain is None:
                return Support(False, f"{self.name}: the linear canary is not {c.name} without "
                                      "a bounded domain")
        return Support(True)

    def derived(self, stmt):
        m = stmt.mechanism
        out = {"n": m.n, "b": m.b, "q": m.b / m.n, "s": m.b * m.sigma / m.C, "T": m.T,
               "C": m.C, "eta": m.eta}
        if m.domain is not None:
            out["domain/step"] = m.domain / (m.eta * m.sigma)
        if stmt.order is not None:
            out["order"] = stmt.order
        for c in all_classes(stmt):
            for k, e in c.params().items():
                out.setdefault(f"{c.name}.{k}", e)
        return out

    def _slope(self, stmt, v) -> float:
        s = evaluate(stmt.mechanism.C, v)
        for c in all_classes(stmt):
            if isinstance(c, Lipschitz):
                s = min(s, evaluate(c.M, v))
            elif isinstance(c, BoundedGradient):
                s = min(s, evaluate(c.G, v))
        return s

    def member(self, stmt, v):
        m = stmt.mechanism
        n = evaluate(m.n, v)
        for c in all_classes(stmt):
            if isinstance(c, BoundedDomain):
                if m.domain is None:
                    raise NotMember("the statement assumes a bounded domain; the mechanism has "
                                    "none")
                if abs(evaluate(c.diameter, v) - evaluate(m.domain, v)) > 1e-12 * max(
                        1.0, evaluate(m.domain, v)):
                    raise NotMember("the class's domain is not the mechanism's domain")
            if isinstance(c, GradNoise):
                s = self._slope(stmt, v)
                if s * s * (n - 1) / (n * n) > evaluate(c.sigma, v) ** 2:
                    raise NotMember("the canary's gradient variance exceeds the noise bound")

    def anchors(self, stmt):
        m = stmt.mechanism
        out = []
        for n, b, s, a, T in ((1000, 10, 1.0, 64.0, 1), (100, 20, 2.0, 8.0, 4),
                              (10000, 1, 1.0, 128.0, 2), (50, 10, 40.0, 2.0, 3)):
            t = {"C": 1.0, "eta": 0.1, "n": n, "b": b, "s": s, "order": a, "T": T,
                 "LSmooth.L": 1.0, "Lipschitz.M": 1.0}
            if m.domain is not None:
                t["domain/step"] = 2.0
            out.append(t)
        if m.domain is not None:
            # a small step size and a domain smaller than one step (ηC/b): where a bound that
            # is missing its 1/η² breaks
            out.append({"C": 1.0, "eta": 0.01, "n": 10, "b": 2, "s": 2.0, "order": 8.0, "T": 4,
                        "domain/step": 0.1, "LSmooth.L": 1.0})
        return out

    def paths(self, stmt):
        m = stmt.mechanism
        base = {"C": 1.0, "eta": 0.1, "LSmooth.L": 1.0, "Lipschitz.M": 1.0}
        if m.domain is not None:
            base["domain/step"] = 2.0
            return {"T up": [dict(base, n=100, b=10, s=1.0, order=8.0, T=T) for T in (1, 4, 12)],
                    "order up": [dict(base, n=100, b=10, s=1.0, order=a, T=4)
                                 for a in (2.0, 16.0, 128.0)]}
        return {"n = 10^k (q ↓), order = 8k": [dict(base, n=10**k, b=1, s=1.0, order=8.0 * k, T=1)
                                             for k in range(1, 8)],
                "order up": [dict(base, n=100, b=1, s=1.0, order=a, T=1)
                             for a in (2.0, 8.0, 32.0, 128.0, 256.0)],
                "noise down": [dict(base, n=100, b=1, s=s, order=8.0, T=1)
                               for s in (10.0, 3.0, 1.0, 0.5, 0.25, 0.1)]}

    def lower_truth(self, stmt, v, *, precise=False):
        return _sign_lower(stmt, v, self)

    def _composed(self, stmt, v, a, q, s_eff, T, enough, scen) -> Truth | None:
        """Where only ``D_α ≤ enough`` is asked: a certified bracket without the grid —
        the sign of θ_T below (:func:`_sign_lower`), the T-fold per-step bound above
        (:func:`_composed_upper`) — when its upper end is already ≤ ``enough``."""
        if not a > 1:
            return None
        up = _composed_upper(q, s_eff, a, T)
        if not up <= enough:
            return None
        lo = _sign_lower(stmt, v, self)
        lf, lb = (lo.forward, lo.backward) if lo is not None else (0.0, 0.0)
        lf, lb = min(max(lf, 0.0), up), min(max(lb, 0.0), up)
        t = Truth((lf + up) / 2, (lb + up) / 2, max(up - lf, up - lb) / 2,
                  f"certified bracket without the grid: the sign of θ_T below, {T}× the "
                  "per-step bound log(1 − q + q·e^{α(α−1)/2s²})/(α−1) above (enough to "
                  f"show D_α ≤ {enough:.6g})", scen + ", projected onto K", {"coarse": True})
        return t if t.upper <= enough else None

    def truth(self, stmt, v, *, precise=False, enough=None, rel_tol=None):
        m = stmt.mechanism
        a = _order(stmt, v)
        n, b, T = batch_counts(m, v)
        eta, _, sig = evaluate(m.eta, v), evaluate(m.C, v), evaluate(m.sigma, v)
        slope = self._slope(stmt, v)
        if not (slope > 0 and eta > 0 and sig > 0):
            raise Unavailable("slope, eta and sigma must be > 0")
        q, s_eff = b / n, b * sig / slope
        scen = f"linear canary l(θ) = −{slope:.6g}·θ vs zero-loss data"
        if m.release == "all" or (T == 1 and m.domain is None):
            f = sgm_rdp(q, s_eff, a, "add", precise=precise)
            r = sgm_rdp(q, s_eff, a, "remove", precise=precise)
            k = T if m.release == "all" else 1
            t = Truth(k * f, k * r, 1e-9 * k * max(f, r),
                      (f"{k}·SGM(b/n, b·σ/s) (exact composition)" if k > 1 else
                       "θ_1 is the SGM(b/n, b·σ/s) (exact)") + (", mpmath 50 digits"
                                                                 if precise else ""), scen)
            if precise:
                t.extra["lower_mp"] = mpmath.mpf(k) * mpmath.mpf(max(f, r)) * (1 - mpmath.mpf(2) ** -50)
            return t
        if m.domain is None:
            if T > T_MAX_CLOSED:
                raise Unavailable(f"T = {T} > {T_MAX_CLOSED} (closed form cost)")
            sc = linear_canary(n=n, b=b, eta=eta, C=slope, sigma_dp=sig, T=T)
            if not precise:
                d = linear_canary_exact(sc, a, max_cost=MIX_COST)
                return Truth(d.forward, d.backward, 1e-9 * max(1.0, d.max),
                             "Binomial(T, q) Gaussian mixture vs Gaussian, log-space quadrature",
                             scen)
            P, Q = linear_canary_mixtures(sc)
            if float(a).is_integer() and math.comb(int(a) + T, T) <= 200_000:
                fw = mixture_vs_gaussian_int(P, sc.theta0, int(a), dps=50)
                d = linear_canary_exact(sc, a, max_cost=MIX_COST)
                t = Truth(d.forward, d.backward, 1e-9 * max(1.0, d.max),
                          "exact multinomial series at 50 digits (add order)", scen)
                t.extra["lower_mp"] = fw
                return t
            d = mixture_rdp_1d(P, Q, a, precise=True, dps=50)
            t = Truth(d.forward, d.backward, 1e-12 * max(1.0, d.max),
                      "mpmath quadrature of the mixtures at 50 digits", scen)
            return t
        # a bounded domain: the grid accountant
        D = evaluate(m.domain, v)
        if n > N_MAX_GRID:
            raise Unavailable(f"n = {n} > {N_MAX_GRID} (the grid accountant's batch mixture "
                              "costs O(n))")
        if T > T_MAX_GRID:
            raise Unavailable(f"T = {T} > {T_MAX_GRID} (grid accountant in a default run)")
        tau = eta * sig
        if not (D / tau < 1e4):
            raise Unavailable("domain too wide relative to the noise for the grid")
        G = int(min(DC_GRID_MAX, max(DC_GRID, 2 ** math.ceil(math.log2(max(2.0, 2 * D / tau))))))
        h = D / G
        cells = G + 2 * (eta * slope / b + 12 * tau) / h + 26 * tau / h
        if not cells <= GRID_CELLS_MAX:
            raise Unavailable(f"the grid would need {cells:.3g} cells (> {GRID_CELLS_MAX:g}): "
                              "step or noise far larger than the domain")
        if enough is not None and not precise:
            got = self._composed(stmt, v, a, q, s_eff, T, enough, scen)
            if got is not None:
                return got
        sc = linear_canary(n=n, b=b, eta=eta, C=slope, sigma_dp=sig, T=T, D=D)
        # the certified log-domain accountant (issue 16: the FFT grid under-reported the
        # far tail at large orders); it raises rather than return a value whose error
        # bound is large, and that becomes Unavailable (the scenario is out of reach)
        G = int(min(DC_GRID_CERT_MAX, 2 * G))
        try:
            if precise:
                g = certified_rdp(sc, a, G=G)
            else:
                g = certified_rdp(sc, a, G=G, enough=enough,
                                  rel_tol=max(CERT_REL_TOL, rel_tol or 0.0))
        except AccountantError as e:
            raise Unavailable(f"grid accountant: {e}") from None
        coarse = g.error > CERT_REL_TOL * max(g.max, 1e-6)
        t = Truth(g.forward, g.backward, g.error,
                  f"{g.method}, K = [−D/2, D/2]"
                  + (", bracket refined only as far as asked" if coarse else ""),
                  scen + ", projected onto K", {"coarse": True} if coarse else {},
                  forward_error=g.forward_error, backward_error=g.backward_error)
        return t


def _composed_upper(q: float, s_eff: float, a: float, T: int) -> float:
    """A certified upper bound of D_α(θ_T ‖ θ'_T), both orders, for noisy SGD on the linear
    canary (projected or not): T times the per-step bound.  One step is θ + uB + sZ given
    θ (B ~ Bernoulli(q) with the canary, 0 without; s/u = s_eff), so with x = α(α−1)/(2
    s_eff²), ∫p^α r^{1−α} is jointly convex and ∫N(u, s²)^α N(0, s²)^{1−α} = e^x give
    e^{(α−1)D} ≤ 1 − q + q·e^x in both orders; adaptive composition over the released
    steps, then post-processing (projection, last iterate) give the T-fold sum.  Rounded
    up by a 1e-9 relative margin (and 1e-300 against underflow).  α > 1."""
    x = a * (a - 1) / (2 * s_eff ** 2)
    if q >= 1.0:
        per = x
    elif x < 30:
        per = math.log1p(q * math.expm1(x))
    else:
        per = x + math.log(q) + math.log1p((1 - q) / q * math.exp(-x))
    return T * per / (a - 1) * (1 + 1e-9) + 1e-300


def _binary_rdp_lower(P: tuple, Q: tuple, a) -> mpmath.mpf:
    """The least D_α(Bern(p) ‖ Bern(p')) over p ∈ [P₀, P₁], p' ∈ [Q₀, Q₁] (α > 1): zero
    when the intervals meet, else at their nearest ends — D_α of two Bernoulli laws grows
    as they move apart (convex in each argument, zero where they are equal)."""
    if P[0] > Q[1]:
        p, r = P[0], Q[1]
    elif P[1] < Q[0]:
        p, r = P[1], Q[0]
    else:
        return mpmath.mpf(0)
    a = mpmath.mpf(a)
    return mpmath.log(p ** a * r ** (1 - a) + (1 - p) ** a * (1 - r) ** (1 - a)) / (a - 1)


def _sign_lower(stmt, v, prov) -> Truth | None:
    """Noisy SGD on the linear canary projected onto K = [−D/2, D/2]: a certified lower
    bound of D_α(θ_T ‖ θ'_T) in both orders from one post-processing, the sign of θ_T.
    The last step is θ_T = Π_K(x + uB + sZ) with x = θ_{T−1} ∈ K (x = θ₀ = 0 at T = 1),
    u = η·slope/b, B ~ Bernoulli(q) with the canary and B = 0 without, s = ησ; the
    projection keeps the sign, so Pr(θ_T > 0 | x, B) = Φ((x + uB)/s) lies between its values
    at x = ±D/2.  By data processing D_α(θ_T ‖ θ'_T) ≥ D_α(sign ‖ sign') ≥ the least binary
    divergence over those brackets (mpmath, 40 digits, less a 10⁻²⁰ relative margin).  It
    stays bounded away from 0 as D → 0: the last step's noise is never projected away."""
    m = stmt.mechanism
    if m.domain is None or m.release != "last":
        return None
    a = _order(stmt, v)
    n, b, T = batch_counts(m, v)
    eta, sig = evaluate(m.eta, v), evaluate(m.sigma, v)
    slope, D = prov._slope(stmt, v), evaluate(m.domain, v)
    if not (slope > 0 and eta > 0 and sig > 0 and D > 0 and a > 1):
        return None
    with mpmath.workdps(40):
        q = mpmath.mpf(b) / n
        u, s = mpmath.mpf(eta) * slope / b, mpmath.mpf(eta) * sig
        h = mpmath.mpf(0) if T == 1 else mpmath.mpf(D) / 2
        Phi = mpmath.ncdf
        with_c = ((1 - q) * Phi(-h / s) + q * Phi((u - h) / s),
                  (1 - q) * Phi(h / s) + q * Phi((u + h) / s))
        without = (Phi(-h / s), Phi(h / s))
        keep = 1 - mpmath.mpf(10) ** -20
        add = _binary_rdp_lower(with_c, without, a) * keep
        rem = _binary_rdp_lower(without, with_c, a) * keep
    return Truth(float(add), float(rem), 0.0,
                 "certified lower bound: the sign of θ_T (data processing; the last step's "
                 "noise is never projected away), 40 digits",
                 f"linear canary l(θ) = −{slope:.6g}·θ vs zero-loss data, projected onto K",
                 {"lower_only": True})


for _p in (GaussianProvider(), SampledGaussianProvider(), NoisySGDProvider()):
    truth_provider(_p)

"""Rate checks of averaged SGD (with output or gradient perturbation) on convex,
non-negative, Hölder-smooth losses: provider ``power-loss-sgd``.

The algorithm is :class:`~theory.mechanisms.AveragedSGD` (one uniformly drawn example per
step, the average of the iterates released, Gaussian noise on the gradients and/or the
output); the problems are members of :mod:`checks.truth.power_loss` (c‖w − z‖^{1+ν}/(1+ν)
on 2d points, ‖w*‖ = r, population risk known exactly).  A statement is supported when
its classes are among Holder(ν, L) (required: it picks the member), Convex, NonNegative,
LowerBounded, OriginBounds(M, M0) (M, M0 are *computed* from the member, as the suprema
they are), MinimiserNorm(r) (else r = 1) and a ball BoundedDomain (the algorithm's
radius), and its metric is one of the random quantities of :mod:`theory.metrics`
(excess risk, output-noise risk, generalisation gap, empirical gap at w*).

**What is measured.**  ``runs`` independent samples S ~ D^n each with its own run of the
algorithm (numpy, vectorised over runs, seeded); for a high-probability claim
(``Rate.confidence`` = γ') the (1 − γ')-quantile of the metric with a distribution-free
order-statistic interval (confidence 0.999 each side), otherwise the mean with 4
standard errors.

**A certified floor** (excess risk only).  From w_1 = 0 with 0 ∈ K, ‖w_{t+1}‖ ≤ ‖w_t‖ +
η(‖∂l‖ + ‖b_t‖) and ‖∂l(w, z)‖ ≤ c(‖w‖ + r + s)^ν, so max_t ‖w_t‖ ≤ ρ with ρ the root of
ρ = η(T−1)c(ρ + r + s)^ν + ηN, N = Σ‖b_t‖ ≤ (T−1)σ_grad√d + σ_grad√(T−1)·u except with
probability e^{−u²/2} (Gaussian concentration of a √(T−1)σ-Lipschitz function), and the
output noise adds σ_out(√d + u) except with probability e^{−u²/2}.  With e^{−u²/2} =
(1 − γ')/4 the excess risk is ≥ F(ρ* e_1) − F* (:meth:`PowerLoss.risk_floor`) with
probability > γ', so its (1 − γ')-quantile is at least that: a deterministic lower bound
evaluated at 50 digits, decisive where the algorithm cannot move far (a step size that
makes Tη vanish).

**The search** is the statement driver's (:mod:`checks.statements`); this provider's plan:
base points spread over ν ∈ {0, 1/2, 1} (its anchors, n = 8), moved to plain values; paths
that move each *rate variable* (a free symbol of the claimed expression or the confidence
that is not a class constant: the unknown constant may depend on the class constants ν,
L, M, M0, r …) toward both ends of its admissible range, 8 steps of ×10; simulations where
in reach (runs × n, runs × T × d and T capped), the certified floor everywhere (it is
cheap).  O-forms: VIOLATED only when the ratio grows without bound along an admissible
path (×≥2 at each of its last three steps, above 1 at the end), a floor's growth re-checked
at 50 digits.  Explicit forms: VIOLATED when the certified floor or the lower end of the
measured interval exceeds the bound, re-checked at 50 digits (the order statistic's run
re-evaluated exactly for the excess risk).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import mpmath
import numpy as np
import sympy as sp

from checks.plugins import truth_provider
from checks.truth.base import (
    SearchPlan,
    Support,
    Truth,
    TruthProvider,
    Unavailable,
    all_classes,
    evaluate,
)
from checks.truth.power_loss import PowerLoss, family_for
from theory.classes import (
    BoundedDomain,
    Convex,
    Holder,
    LowerBounded,
    MinimiserNorm,
    NonNegative,
    OriginBounds,
)
from theory.mechanisms import AveragedSGD
from theory.metrics import (
    EMPIRICAL_GAP_AT_MINIMISER,
    EXCESS_RISK,
    GENERALISATION_GAP,
    OUTPUT_NOISE_RISK,
)

RUNS = 48
#: simulation caps: steps, runs × steps × d, runs × n (the samples drawn)
T_CAP = 4096
COST_CAP = 6e6
N_CAP = 2e7
D_CAP = 64
#: the n of the base points (the paths start there)
N0 = 8
#: steps of ×10 per path (the certified floor is cheap; simulations stop at the caps)
CERT_STEPS = 8
CONF = 0.999
#: random points of an explicit form's search
BASE_TRIES = 6
Z_SE = 4.0
DPS = 50


@dataclass
class Measured:
    """The metric at one scenario: point estimate and interval (lo, hi)."""

    value: float
    lo: float
    hi: float
    runs: int
    what: str
    sample: np.ndarray | None = None       # the per-run values (for the 50-digit re-check)
    points: np.ndarray | None = None       # the released points (excess risk re-check)


def simulate(fam: PowerLoss, *, n: int, T: int, eta: float, sigma_grad: float = 0.0,
             sigma_out: float = 0.0, radius: float | None = None, runs: int,
             seed: int) -> dict[str, np.ndarray]:
    """Per-run values of every metric of :data:`METRICS` (and the released points) for
    averaged SGD on ``runs`` independent samples S ~ D^n."""
    for nm, v in (("n", n), ("T", T), ("runs", runs)):
        if not (isinstance(v, int) and v >= 1):
            raise ValueError(f"{nm} must be an integer >= 1, got {v!r}")
    if not (eta > 0 and math.isfinite(eta)):
        raise ValueError(f"eta must be a positive finite number, got {eta!r}")
    for nm, v in (("sigma_grad", sigma_grad), ("sigma_out", sigma_out)):
        if not (v >= 0 and math.isfinite(v)):
            raise ValueError(f"{nm} must be a finite number >= 0, got {v!r}")
    if radius is not None and not (radius > 0 and math.isfinite(radius)):
        raise ValueError(f"radius must be a positive finite number or None, got {radius!r}")
    rng = np.random.default_rng(seed)
    d, Z = fam.d, fam.points()
    S = rng.integers(0, 2 * d, size=(runs, n))
    counts = np.zeros((runs, 2 * d))
    np.add.at(counts, (np.arange(runs)[:, None], S), 1.0)
    rows = np.arange(runs)
    w = np.zeros((runs, d))
    acc = np.zeros((runs, d))          # Σ_{t=1}^T w_t, w_1 = 0
    for _ in range(T - 1):
        k = S[rows, rng.integers(0, n, runs)]
        g = fam.grad(w - Z[k])
        if sigma_grad > 0:
            g = g + sigma_grad * rng.standard_normal((runs, d))
        w = w - eta * g
        if radius is not None:
            nr = np.linalg.norm(w, axis=1, keepdims=True)
            w = w * np.minimum(1.0, radius / np.maximum(nr, 1e-300))
        acc += w
    wbar = acc / T
    wpriv = wbar + sigma_out * rng.standard_normal((runs, d)) if sigma_out > 0 else wbar
    f_priv, f_bar = fam.risk(wpriv), fam.risk(wbar)
    fs_priv = fam.empirical_risk(wpriv, counts)
    return {EXCESS_RISK.key: f_priv - fam.f_star, OUTPUT_NOISE_RISK.key: f_priv - f_bar,
            GENERALISATION_GAP.key: f_priv - fs_priv,
            EMPIRICAL_GAP_AT_MINIMISER.key: fs_priv - fam.f_star, "points": wpriv}


def quantile_interval(x: np.ndarray, p: float, conf: float = CONF) -> tuple[float, float, float]:
    """(estimate, lower, upper) of the p-quantile of the law of ``x`` (i.i.d.): order
    statistics X_(k) with P(Bin(m, p) ≥ k) ≥ conf (lower) and P(Bin(m, p) ≤ k − 1) ≥ conf
    (upper; +inf when no k ≤ m qualifies)."""
    if not (0 < p < 1):
        raise ValueError(f"p must be in (0, 1), got {p!r}")
    xs = np.sort(np.asarray(x, dtype=float))
    m = len(xs)
    est = float(xs[min(m - 1, max(0, math.ceil(p * m) - 1))])
    pmf = _binom_pmf(m, p)
    cdf = np.cumsum(pmf)                       # cdf[j] = P(Bin ≤ j)
    ks = np.arange(1, m + 1)
    sf = 1.0 - np.concatenate([[0.0], cdf[:-1]])[ks]   # P(Bin ≥ k)
    lo_ok = ks[sf >= conf]
    hi_ok = ks[cdf[ks - 1] >= conf]
    lo = float(xs[lo_ok.max() - 1]) if len(lo_ok) else -math.inf
    hi = float(xs[hi_ok.min() - 1]) if len(hi_ok) else math.inf
    return est, lo, hi


def _binom_pmf(m: int, p: float) -> np.ndarray:
    """P(Bin(m, p) = j), j = 0..m (log-space, exact enough for m ≤ 10^5)."""
    j = np.arange(m + 1)
    lg = np.array([math.lgamma(m + 1) - math.lgamma(i + 1) - math.lgamma(m - i + 1)
                   for i in j])
    return np.exp(lg + j * math.log(p) + (m - j) * math.log1p(-p))


def excess_floor(fam: PowerLoss, *, T: int, eta: float, sigma_grad: float, sigma_out: float,
                 radius: float | None, gamma: float, dps: int = DPS) -> mpmath.mpf:
    """A deterministic lower bound of the (1 − gamma)-quantile of the excess risk (module
    docstring), at ``dps`` digits; 0 when the algorithm can reach w*."""
    if not (0 < gamma < 1):
        raise ValueError(f"gamma must be in (0, 1), got {gamma!r}")
    if dps <= 15:
        return _excess_floor_float(fam, T=T, eta=eta, sigma_grad=sigma_grad,
                                   sigma_out=sigma_out, radius=radius, gamma=gamma)
    guess = _movement_root_float(fam, T, eta, sigma_grad, gamma)
    with mpmath.workdps(dps + 10):
        u = mpmath.sqrt(2 * mpmath.log(4 / (1 - mpmath.mpf(gamma))))
        T1 = mpmath.mpf(T - 1)
        sg, so = mpmath.mpf(sigma_grad), mpmath.mpf(sigma_out)
        d = mpmath.mpf(fam.d)
        E = mpmath.mpf(eta) * (T1 * sg * mpmath.sqrt(d) + sg * mpmath.sqrt(T1) * u)
        A = mpmath.mpf(eta) * T1 * mpmath.mpf(fam.c)
        B = mpmath.mpf(fam.r) + mpmath.mpf(fam.s)
        nu = mpmath.mpf(fam.nu)

        def phi(rho):
            return rho - A * (rho + B) ** nu - E

        if nu == 1:
            if A >= 1:
                return mpmath.mpf(0)
            root = (A * B + E) / (1 - A)
        else:
            lo, hi = mpmath.mpf(0), mpmath.mpf(1)
            if guess is not None and guess > 0:
                # bracket the float root, then bisect at full precision
                a, b = mpmath.mpf(guess) * (1 - mpmath.mpf(10) ** -9), \
                    mpmath.mpf(guess) * (1 + mpmath.mpf(10) ** -9)
                if phi(a) <= 0 < phi(b):
                    lo, hi = a, b
            while phi(hi) <= 0:
                hi *= 2
                if hi > 1e30:
                    return mpmath.mpf(0)
            for _ in range(200 if hi - lo > 1e-6 * hi else 2 * dps + 20):
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if phi(mid) <= 0 else (lo, mid)
            root = hi
        if radius is not None:
            root = min(root, mpmath.mpf(radius))
        rho = root + so * (mpmath.sqrt(d) + u)
        return fam.risk_floor(rho, dps)


def _movement_root_float(fam: PowerLoss, T, eta, sigma_grad, gamma) -> float | None:
    """The root ρ of ρ = η(T−1)c(ρ + r + s)^ν + ηN_hi in double precision (None: no
    bound, ν = 1 with η(T−1)c ≥ 1)."""
    u = math.sqrt(2 * math.log(4 / (1 - gamma)))
    T1 = T - 1
    E = eta * (T1 * sigma_grad * math.sqrt(fam.d) + sigma_grad * math.sqrt(T1) * u)
    A = eta * T1 * fam.c
    B = fam.r + fam.s
    if fam.nu == 1:
        return None if A >= 1 else (A * B + E) / (1 - A)

    def phi(rho):
        return rho - A * (rho + B) ** fam.nu - E

    hi = 1.0
    while phi(hi) <= 0:
        hi *= 2
        if hi > 1e300:
            return None
    lo = 0.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if phi(mid) <= 0:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-15 * hi:
            break
    return hi


def _excess_floor_float(fam, *, T, eta, sigma_grad, sigma_out, radius, gamma) -> float:
    """:func:`excess_floor` in double precision (the scan; decisions re-check at 50 digits)."""
    root = _movement_root_float(fam, T, eta, sigma_grad, gamma)
    if root is None:
        return 0.0
    if radius is not None:
        root = min(root, radius)
    u = math.sqrt(2 * math.log(4 / (1 - gamma)))
    rho = root * (1 + 1e-12) + sigma_out * (math.sqrt(fam.d) + u)
    if rho >= fam.r:
        return 0.0
    w = np.zeros((1, fam.d))
    w[0, 0] = rho
    return float(fam.risk(w)[0] - fam.f_star)


# --------------------------------------------------------------------------------------
METRICS = (EXCESS_RISK, OUTPUT_NOISE_RISK, GENERALISATION_GAP, EMPIRICAL_GAP_AT_MINIMISER)
CLASSES = (Holder, Convex, NonNegative, LowerBounded, OriginBounds, MinimiserNorm,
           BoundedDomain)


@dataclass
class _Setup:
    """The statement's symbols that pick the member and run the algorithm."""

    nu: sp.Expr
    L: sp.Expr
    r: sp.Expr | None
    M: sp.Symbol | None
    M0: sp.Symbol | None
    dom: BoundedDomain | None
    constants: set = field(default_factory=set)


@lru_cache(maxsize=256)
def _setup(stmt) -> _Setup:
    hcls = origin = mnorm = dom = None
    for c in all_classes(stmt):
        if isinstance(c, Holder):
            hcls = c
        elif isinstance(c, OriginBounds):
            origin = c
        elif isinstance(c, MinimiserNorm):
            mnorm = c
        elif isinstance(c, BoundedDomain):
            dom = c
    consts: set = set()
    for c in all_classes(stmt):
        consts |= c.free_symbols
    sym = lambda e: e if isinstance(e, sp.Symbol) else None  # noqa: E731
    return _Setup(hcls.nu, hcls.L, None if mnorm is None else mnorm.r,
                  None if origin is None else sym(origin.M),
                  None if origin is None else sym(origin.M0), dom, consts)


class PowerLossSGDProvider(TruthProvider):
    name = "power-loss-sgd"
    mechanisms = (AveragedSGD,)
    classes = CLASSES
    metrics = METRICS

    stochastic = True

    def supports(self, stmt):
        got = super().supports(stmt)
        if not got:
            return got
        cls = all_classes(stmt)
        for c in cls:
            if isinstance(c, BoundedDomain) and c.measure != "radius" and \
                    stmt.mechanism.radius is not None:
                return Support(False, f"{self.name}: a domain given by its diameter")
        if not any(isinstance(c, Holder) for c in cls):
            return Support(False, f"{self.name}: needs Holder(nu, L) to pick a member")
        if any(isinstance(c, BoundedDomain) for c in cls) and stmt.mechanism.radius is None:
            return Support(False, f"{self.name}: the statement assumes a bounded domain, the "
                                  "algorithm projects on none")
        return Support(True)

    def plan(self, stmt, budget):
        st = _setup(stmt)
        variables = tuple(self._variables(stmt))
        n = {s.name for s in stmt.mechanism.n.free_symbols} & set(variables)
        # simulated along n where the claim involves it (the other rate variables: the
        # certified floor only), along every rate variable otherwise
        return SearchPlan(random=BASE_TRIES, anchor_bases=1, base_tries=BASE_TRIES,
                          targeted=False, bases=3 if isinstance(st.nu, sp.Symbol) else 1,
                          variables=variables, measured=tuple(n) or None,
                          path_steps=CERT_STEPS, path_factor=10.0, explicit_paths=True,
                          simple_bases=True)

    def reads(self, stmt):
        return set(_d_symbol(stmt))

    def describe(self, stmt):
        conf = ("" if stmt.confidence is None
                else f" at probability 1 − {sp.sstr(stmt.confidence)}")
        return (f"power-loss family c‖w − z‖^(1+ν)/(1+ν) in R^d, ‖w*‖ = r, {RUNS} runs per "
                f"scenario, T ≤ {T_CAP} and runs × n ≤ {N_CAP:g} simulated, the certified "
                f"floor elsewhere; metric {stmt.metric.key}{conf}")

    def derived(self, stmt):
        out = {"n": stmt.mechanism.n}
        st = _setup(stmt)
        if isinstance(st.nu, sp.Symbol):
            out["nu"] = st.nu
        return out

    def anchors(self, stmt):
        """ν ∈ {0, 1/2, 1} where ν is free (the three regimes of the Hölder class), n = 8."""
        if isinstance(_setup(stmt).nu, sp.Symbol):
            return [{"nu": nu, "n": float(N0)} for nu in (0.0, 0.5, 1.0)]
        return [{"n": float(N0)}]

    def complete(self, stmt, v: dict) -> dict:
        """``v`` with M, M0 set to the member's suprema (they are computed, not free)."""
        st = _setup(stmt)
        fam = self.family(stmt, v)
        w = dict(v)
        if st.M is not None:
            w[st.M.name] = fam.M
        if st.M0 is not None:
            w[st.M0.name] = fam.M0
        return w

    def reach(self, stmt, v):
        fam = self.family(stmt, v)
        al = self.algorithm_at(stmt, v)
        if al["T"] > T_CAP or fam.d > D_CAP or RUNS * al["T"] * fam.d > COST_CAP \
                or RUNS * al["n"] > N_CAP:
            raise Unavailable(f"T = {al['T']}, n = {al['n']}, d = {fam.d}: beyond the "
                              "simulation budget")

    def truth(self, stmt, v, *, precise=False, seed: int = 0):
        m = self.measure(stmt, v, runs=RUNS, seed=seed, t_cap=T_CAP, cost_cap=COST_CAP)
        t = Truth.interval(m.lo, m.hi, m.what, "power-loss family", estimate=m.value)
        if precise:
            t.extra["lower_mp"] = self._lower_mp(stmt, v, m)
        return t

    def lower_truth(self, stmt, v, *, precise=False):
        f = self.floor(stmt, v, dps=DPS if precise else 15)
        if f is None or not f > 0:
            return None
        t = Truth(float(f), float(f), 0.0, "certified floor of the quantile (movement bound "
                  "from w_1 = 0, Gaussian concentration)" + (", 50 digits" if precise else ""),
                  "power-loss family", {"lower_only": True})
        if precise:
            t.extra["lower_mp"] = f
        return t

    # ---- points
    def family(self, stmt, v: dict) -> PowerLoss:
        """The member at ``v``; raises Unavailable when none fits (ν outside [0, 1], ‖w*‖
        outside the domain)."""
        st = _setup(stmt)
        nu, L = evaluate(st.nu, v), evaluate(st.L, v)
        r = evaluate(st.r, v) if st.r is not None else 1.0
        if not (0 <= nu <= 1):
            raise Unavailable(f"nu = {nu:g} outside [0, 1]")
        if not (r > 0):
            raise Unavailable(f"‖w*‖ = {r:g} must be > 0 for this family")
        a = stmt.mechanism
        if a.radius is not None and r > evaluate(a.radius, v):
            raise Unavailable("‖w*‖ exceeds the domain's radius")
        d = self._dim(stmt, v)
        return family_for(nu, L, r, d)

    @staticmethod
    def _dim(stmt, v) -> int:
        ds = _d_symbol(stmt)
        if not ds:
            return 2
        x = evaluate(ds[0], v)
        if x != int(x) or x < 1:
            raise Unavailable(f"d = {x:g} is not a positive integer")
        return int(x)

    def algorithm_at(self, stmt, v) -> dict:
        a = stmt.mechanism
        out = {}
        for nm in ("n", "T"):
            x = evaluate(getattr(a, nm), v)
            if x != int(x) or x < 1:
                raise Unavailable(f"{nm} = {x:g} is not a positive integer")
            out[nm] = int(x)
        out["eta"] = evaluate(a.eta, v)
        out["sigma_grad"] = evaluate(a.sigma_grad, v)
        out["sigma_out"] = evaluate(a.sigma_out, v)
        out["radius"] = None if a.radius is None else evaluate(a.radius, v)
        if not (out["eta"] > 0) or out["sigma_grad"] < 0 or out["sigma_out"] < 0:
            raise Unavailable("eta must be > 0 and the noise levels >= 0")
        return out

    # ---- measuring
    def measure(self, stmt, v, *, runs: int, seed: int, t_cap: int, cost_cap: float
                ) -> Measured:
        fam = self.family(stmt, v)
        al = self.algorithm_at(stmt, v)
        if al["T"] > t_cap or runs * al["T"] * fam.d > cost_cap:
            raise Unavailable(f"T = {al['T']}, d = {fam.d}: beyond the simulation budget")
        out = simulate(fam, runs=runs, seed=seed, **al)
        x = out[stmt.metric.key]
        if not np.all(np.isfinite(x)):
            raise Unavailable("the simulation overflowed")
        if stmt.confidence is not None:
            g = evaluate(stmt.confidence, v)
            if not (0 < g < 1):
                raise Unavailable(f"confidence {g:g} outside (0, 1)")
            est, lo, hi = quantile_interval(x, 1 - g)
            what = f"(1 − {g:.3g})-quantile over {runs} runs"
        else:
            est = float(np.mean(x))
            se = float(np.std(x, ddof=1) / math.sqrt(runs))
            lo, hi = est - Z_SE * se, est + Z_SE * se
            what = f"mean over {runs} runs ± {Z_SE:g} s.e."
        return Measured(est, lo, hi, runs, what, x, out["points"])

    def floor(self, stmt, v, dps: int = DPS) -> mpmath.mpf | None:
        """The certified floor of the quantile (excess risk, high-probability claims)."""
        if stmt.metric is not EXCESS_RISK or stmt.confidence is None:
            return None
        fam = self.family(stmt, v)
        al = self.algorithm_at(stmt, v)
        g = evaluate(stmt.confidence, v)
        if not (0 < g < 1):
            return None
        return excess_floor(fam, T=al["T"], eta=al["eta"], sigma_grad=al["sigma_grad"],
                            sigma_out=al["sigma_out"], radius=al["radius"], gamma=g, dps=dps)

    def _lower_mp(self, stmt, v, m: Measured):
        """The measured interval's lower end at 50 digits: for the excess risk, the order
        statistic's run re-evaluated exactly."""
        if stmt.metric is EXCESS_RISK and m.points is not None:
            fam = self.family(stmt, v)
            idx = int(np.argmin(np.abs(m.sample - m.lo)))
            with mpmath.workdps(DPS):
                return fam.risk_mp(m.points[idx], DPS) - mpmath.mpf(fam.f_star)
        return mpmath.mpf(m.lo)

    def _variables(self, stmt) -> list[str]:
        """Rate variables: free symbols of the claimed expression (and the confidence) that
        are not class constants; n first."""
        st = _setup(stmt)
        syms = set(stmt.expr.free_symbols)
        if stmt.confidence is not None:
            syms |= stmt.confidence.free_symbols
        names = {s.name for s in syms - st.constants}
        n_name = [s.name for s in stmt.mechanism.n.free_symbols]
        return sorted(names, key=lambda x: (x not in n_name, x))


@lru_cache(maxsize=256)
def _d_symbol(stmt) -> list:
    """The statement's dimension symbol ``d`` (a base quantity), if any."""
    return [s for s in stmt.free_symbols if s.name == "d"]


truth_provider(PowerLossSGDProvider())

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

**O-forms** (the paper's constant is unknown): the ratio measured/claimed is followed
along paths that move each *rate variable* (a free symbol of the claimed expression that
is not a class constant) toward both ends of its admissible range, n first, from base
points spread over ν ∈ {0, 1/2, 1} (more at larger budgets); the class constants (ν, L,
M, M0, r, the algorithm's β …) stay fixed along a path — the unknown constant may depend
on them.  VIOLATED only when the ratio grows without bound along an admissible path:
×≥2 at each of its last three steps and above 1 at the end, either for the certified
floor (its values re-checked at 50 digits) or for the simulated quantile taken
conservatively (lower end of the interval at a step over the upper end at the one
before).  Otherwise HOLDS-ON-SCENARIOS with the largest ratio and the trend per path.
Explicit forms: VIOLATED when the certified floor or the lower end of the measured
interval exceeds the bound, re-checked at 50 digits.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import mpmath
import numpy as np
import sympy as sp

from checks.plugins import truth_provider
from checks.truth.base import (Support, TruthProvider, Unavailable, all_classes, evaluate,
                               evaluate_mp)
from checks.truth.power_loss import PowerLoss, family_for
from theory.classes import (BoundedDomain, Convex, Holder, LowerBounded, MinimiserNorm,
                            NonNegative, OriginBounds)
from theory.mechanisms import AveragedSGD
from theory.metrics import (EMPIRICAL_GAP_AT_MINIMISER, EXCESS_RISK, GENERALISATION_GAP,
                            OUTPUT_NOISE_RISK)

#: default budget of the engine (the sizes below scale with budget / DEFAULT_BUDGET)
DEFAULT_BUDGET = 2000
RUNS = 48
#: simulation caps at the default budget: steps, and runs × steps × d
T_CAP = 4096
COST_CAP = 6e6
D_CAP = 64
#: the first n of the n-paths, and the factor per step
N0 = 8
N_FACTOR = 4
#: points per simulated path; certified-floor paths go further (cheap)
SIM_STEPS = 3
CERT_STEPS = 8
CONF = 0.999
#: drawn points tried per value of ν for a base point
BASE_TRIES = 6
NICE = (1.0, 2.0, 0.5, 0.1, 10.0, 0.01, 100.0)
NICE_INT = (8.0, 16.0, 32.0, 64.0, 4.0, 2.0, 128.0)
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

    def supports(self, stmt):
        if not hasattr(stmt, "metric"):
            return Support(False, f"{self.name}: rates only")
        if stmt.metric not in METRICS:
            return Support(False, f"{self.name}: metric {stmt.metric.key} not measured")
        if not isinstance(stmt.algorithm, AveragedSGD):
            return Support(False, f"{self.name}: algorithm {stmt.algorithm.name} not simulated")
        cls = all_classes(stmt)
        for c in cls:
            if not isinstance(c, CLASSES):
                return Support(False, f"{self.name}: the power-loss family is not a known "
                                      f"member of {c.name}")
            if isinstance(c, BoundedDomain) and c.measure != "radius" and \
                    stmt.algorithm.radius is not None:
                return Support(False, f"{self.name}: a domain given by its diameter")
        if not any(isinstance(c, Holder) for c in cls):
            return Support(False, f"{self.name}: needs Holder(nu, L) to pick a member")
        if any(isinstance(c, BoundedDomain) for c in cls) and stmt.algorithm.radius is None:
            return Support(False, f"{self.name}: the statement assumes a bounded domain, the "
                                  "algorithm projects on none")
        return Support(True)

    # ---- points
    def member(self, stmt, v: dict) -> PowerLoss:
        """The member at ``v``; raises Unavailable when none fits (ν outside [0, 1], ‖w*‖
        outside the domain)."""
        st = _setup(stmt)
        nu, L = evaluate(st.nu, v), evaluate(st.L, v)
        r = evaluate(st.r, v) if st.r is not None else 1.0
        if not (0 <= nu <= 1):
            raise Unavailable(f"nu = {nu:g} outside [0, 1]")
        if not (r > 0):
            raise Unavailable(f"‖w*‖ = {r:g} must be > 0 for this family")
        a = stmt.algorithm
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

    def _fix(self, stmt, space, v: dict) -> dict | None:
        """``v`` with M, M0 set to the member's suprema, admissible, or None."""
        st = _setup(stmt)
        try:
            fam = self.member(stmt, v)
        except (Unavailable, ValueError):
            return None
        w = dict(v)
        if st.M is not None:
            w[st.M.name] = fam.M
        if st.M0 is not None:
            w[st.M0.name] = fam.M0
        return space.admissible(w)

    def algorithm_at(self, stmt, v) -> dict:
        a = stmt.algorithm
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
        fam = self.member(stmt, v)
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
        fam = self.member(stmt, v)
        al = self.algorithm_at(stmt, v)
        g = evaluate(stmt.confidence, v)
        if not (0 < g < 1):
            return None
        return excess_floor(fam, T=al["T"], eta=al["eta"], sigma_grad=al["sigma_grad"],
                            sigma_out=al["sigma_out"], radius=al["radius"], gamma=g, dps=dps)

    # ---- the check
    def check(self, stmt, *, budget: int, seed: int):
        from checks.statements import Outcome, Space, seeded as _seeded
        scale = max(0.25, budget / DEFAULT_BUDGET)
        runs = max(16, int(RUNS * min(scale, 8)))
        t_cap, cost_cap = T_CAP * scale, COST_CAP * scale
        space = Space(stmt)
        if space.predicates:
            return Outcome(stmt.label, tested=False,
                           detail=f"rate {stmt.label} ({self.name}): NOT-TESTED — named "
                                  f"predicate {space.predicates[0]!r}")
        st = _setup(stmt)
        rng = np.random.default_rng(_seeded(seed, "power-loss-base"))
        drawn = space.draw(rng, 96)
        nus = [0.0, 0.5, 1.0] if scale < 2 else [0.0, 0.25, 0.5, 0.75, 1.0]
        bases, why = [], {}
        for nu_t in (nus if isinstance(st.nu, sp.Symbol) else [None]):
            reason = "no admissible point drawn"
            for v0 in drawn[:BASE_TRIES]:
                v, reason = self._base(stmt, space, v0, nu_t, st, t_cap, cost_cap, runs)
                if v is not None:
                    bases.append(v)
                    break
            else:
                why[nu_t] = reason
        if not bases:
            return Outcome(stmt.label, tested=False,
                           detail=f"rate {stmt.label} ({self.name}): NOT-TESTED — no "
                                  f"admissible scenario in reach of the simulation "
                                  f"({len(drawn)} drawn; α tried: {nus})")
        variables = self._variables(stmt, space, st)
        n_names = {s.name for s in stmt.algorithm.n.free_symbols}
        # n is the primary variable when the claim involves it; otherwise every rate
        # variable is simulated (shorter paths at the default budget)
        n_primary = bool(n_names & set(variables))
        rows, worst, violated, samples = [], None, [], 0
        for bi, base in enumerate(bases):
            for name in variables:
                for direction in ("up", "down"):
                    # simulated along n at every budget, along the other variables from
                    # twice the default budget; the certified floor along every path
                    sim_ok = name in n_names or not n_primary or scale >= 2
                    steps = SIM_STEPS if (name in n_names or scale >= 2) else SIM_STEPS - 1
                    pts = self._path(stmt, space, base, name, direction, CERT_STEPS,
                                     factor=10.0)
                    sim_pts = (self._path(stmt, space, base, name, direction, steps,
                                          factor=float(N_FACTOR) if name in n_names else 10.0)
                               if sim_ok else [])
                    if len(pts) < 2 and len(sim_pts) < 2:
                        continue
                    got = self._follow(stmt, pts, sim_pts, name, runs=runs, t_cap=t_cap,
                                       cost_cap=cost_cap,
                                       seed=_seeded(seed, "path", bi, name, direction))
                    if got is None:
                        continue
                    samples += got["samples"]
                    label = f"α={self._nu_text(st, base)} {name} {got['arrow']}"
                    rows.append((label, got))
                    if got["violated"]:
                        violated.append((name not in n_names, len(violated), label, got))
                    m = got["max_ratio"]
                    if m is not None and (worst is None or m > worst[1]["max_ratio"]):
                        worst = (label, got)
        violated = [(lbl, g) for *_, lbl, g in sorted(violated, key=lambda x: x[:2])]
        head = f"rate {stmt.label} ({self.name})"
        conf = ("" if stmt.confidence is None
                else f" at probability 1 − {sp.sstr(stmt.confidence)}")
        txt = "; ".join(f"{lbl}: {g['trend']}" for lbl, g in rows[:12])
        more = f" (+{len(rows) - 12} paths)" if len(rows) > 12 else ""
        setup = (f"power-loss family c‖w − z‖^(1+ν)/(1+ν) in R^d, ‖w*‖ = r, {runs} runs per "
                 f"scenario, T ≤ {int(t_cap)} simulated; metric {stmt.metric.key}{conf}")
        if violated:
            label, got = violated[0]
            also = ("" if len(violated) == 1 else
                    f"; also along {', '.join(repr(lbl) for lbl, _ in violated[1:])}")
            return Outcome(stmt.label, violated=True, ratio=got["final_ratio"],
                           witness=got["witness"],
                           detail=f"{head}: VIOLATED — {got['why']} along path '{label}'{also} "
                                  + ("(×≥2 at each of its last three steps, " if stmt.form == "O"
                                     else "(above the explicit bound, ")
                                  + f"confirmed at {DPS} digits); {txt}{more}; {setup}",
                           samples=samples, paths={lbl: g["ends"] for lbl, g in rows})
        skipped = "".join(f"; α = {nu:g} not reached: {w}" for nu, w in why.items()
                          if nu is not None)
        setup += skipped
        if worst is None:
            return Outcome(stmt.label, tested=False,
                           detail=f"{head}: NOT-TESTED — no path could be measured "
                                  f"({len(bases)} base points); {setup}")
        form = "O-bound" if stmt.form == "O" else "explicit bound"
        return Outcome(stmt.label, ratio=worst[1]["max_ratio"], witness=worst[1]["witness"],
                       detail=f"{head}: holds on scenarios ({form}), largest measured/claimed "
                              f"= {worst[1]['max_ratio']:.3g} on '{worst[0]}'; {txt}{more}; "
                              f"{setup}",
                       samples=samples, paths={lbl: g["ends"] for lbl, g in rows})

    # ---- helpers
    @staticmethod
    def _nu_text(st, v):
        try:
            return f"{evaluate(st.nu, v):g}"
        except Unavailable:
            return "?"

    def _variables(self, stmt, space, st) -> list[str]:
        """Rate variables: free symbols of the claimed expression (and the confidence)
        that are sampled (not defined) and not class constants; n first."""
        syms = set(stmt.expr.free_symbols)
        if stmt.confidence is not None:
            syms |= stmt.confidence.free_symbols
        names = {s.name for s in syms - st.constants} & {d.sym.name for d in space.doms}
        n_name = [s.name for s in stmt.algorithm.n.free_symbols]
        return sorted(names, key=lambda x: (x not in n_name, x))

    def _nice(self, stmt, space, v: dict, keep: set) -> dict:
        """``v`` with every sampled symbol outside ``keep`` moved, where admissible, to a
        plain value (1, 2, 1/2 …; the middle of a bounded interval first; 8, 16, 32 … for
        integers): base points people can read, from which the paths start."""
        w = v
        for _ in range(3):
            for dom in space.doms:
                nm = dom.sym.name
                if nm in keep:
                    continue
                cands = NICE_INT if dom.integer else NICE
                if not dom.integer and math.isfinite(dom.lo) and math.isfinite(dom.hi):
                    width = dom.hi - dom.lo
                    cands = tuple(dom.lo + f * width for f in (0.5, 0.1, 0.01, 0.9)) + cands
                for c in cands:
                    x = self._fix(stmt, space, dict(w, **{nm: float(c)}))
                    if x is not None:
                        w = x
                        break
        return w

    def _base(self, stmt, space, v0, nu_t, st, t_cap, cost_cap, runs):
        """(an admissible base point near ``v0`` with ν = ``nu_t``, None) or (None, why)."""
        v = dict(v0)
        if nu_t is not None:
            v[st.nu.name] = nu_t
        if self._fix(stmt, space, v) is not None:
            keep = {s.name for s in (st.M, st.M0) if s is not None}
            keep |= {s.name for s in stmt.algorithm.n.free_symbols}
            if nu_t is not None:
                keep.add(st.nu.name)
            v = self._nice(stmt, space, self._fix(stmt, space, v), keep)
        a = stmt.algorithm
        ns = [s for s in a.n.free_symbols]
        if len(ns) == 1 and a.n == ns[0]:
            v[ns[0].name] = float(N0)
        for s in _d_symbol(stmt):
            if v.get(s.name, 0) > D_CAP:
                v["d"] = float(D_CAP)
        w = self._fix(stmt, space, v)
        if w is None:
            # a point of the space may need a larger dimension (γ > 4 e^{−d/8} …)
            for dd in (16.0, 32.0, 64.0):
                if "d" in v:
                    w = self._fix(stmt, space, dict(v, d=dd))
                    if w is not None:
                        break
        if w is None:
            return None, "no admissible point with a member of the family"
        try:
            b = evaluate(stmt.expr, w)
            al = self.algorithm_at(stmt, w)
            fam = self.member(stmt, w)
        except Unavailable as exc:
            txt = str(exc)
            return None, ("the claim or the algorithm is not evaluable there"
                          + (f" ({txt[:60]}…)" if len(txt) > 60 else f" ({txt})"))
        if not (b > 0):
            return None, "the claimed bound is not positive there"
        if al["T"] > t_cap or runs * al["T"] * fam.d > cost_cap:
            return None, f"T = {al['T']} beyond the simulation budget"
        return w, ""

    def _path(self, stmt, space, base, name, direction, steps, factor) -> list[dict]:
        d = space.domain_of(name)
        x0 = base.get(name)
        if d is None or x0 is None:
            return []
        lo = d.lo if math.isfinite(d.lo) else None
        hi = d.hi if math.isfinite(d.hi) else None
        pts = [base]
        for k in range(1, steps + 1):
            if direction == "up":
                x = (hi - (hi - x0) / factor ** k) if hi is not None else x0 * factor ** k
            else:
                x = (lo + (x0 - lo) / factor ** k) if lo is not None else x0 / factor ** k
            if d.integer:
                x = float(max(1, round(x)))
            w = self._fix(stmt, space, dict(base, **{name: float(x)}))
            if w is None or w[name] == pts[-1][name]:
                break
            pts.append(w)
        return pts

    def _follow(self, stmt, pts, sim_pts, name, *, runs, t_cap, cost_cap, seed):
        """Measured ratios along ``sim_pts`` and certified ones along ``pts``."""
        sim, cert = [], []
        samples = 0
        for i, v in enumerate(sim_pts):
            try:
                b = evaluate(stmt.expr, v)
            except Unavailable:
                continue
            if not (b > 0):
                continue
            try:
                m = self.measure(stmt, v, runs=runs, seed=seed + i, t_cap=t_cap,
                                 cost_cap=cost_cap)
            except (Unavailable, ValueError, OverflowError):
                break
            sim.append((v, b, m))
            samples += m.runs
        for v in pts:
            try:
                b = evaluate(stmt.expr, v)
            except Unavailable:
                continue
            if not (b > 0):
                continue
            try:
                f = self.floor(stmt, v, dps=15)
            except (Unavailable, ValueError):
                f = None
            if f is not None and f > 0:
                cert.append((v, b, float(f)))
        if len(sim) < 2 and len(cert) < 2:
            return None
        ends = [p for p in (sim_pts if len(sim_pts) > len(pts) else pts)]
        lo_pts = ends[0].get(name), ends[-1].get(name)
        arrow = f"{_fmt(lo_pts[0])}→{_fmt(lo_pts[-1])}"
        ratios = [m.value / b for _, b, m in sim]
        trend = "measured/claimed " + " → ".join(f"{r:.3g}" for r in ratios) if ratios else ""
        if len(cert) >= 2:
            trend += ("; " if trend else "") + "certified floor/claimed " + " → ".join(
                f"{f / b:.3g}" for _, b, f in cert)
        out = {"samples": samples, "arrow": arrow, "trend": trend, "violated": False,
               "max_ratio": max(ratios) if ratios else None,
               "final_ratio": ratios[-1] if ratios else None,
               "ends": (ratios[0], ratios[-1]) if ratios else (None, None),
               "witness": _witness(sim[-1][0], sim[-1][1], sim[-1][2]) if sim else None}
        if stmt.form != "O":
            # an explicit bound: one scenario above it decides
            for v, b, f in cert:
                if f > b:
                    ok, wit, why = self._confirm_floor(stmt, [(v, b, f)], explicit=True)
                    if ok:
                        out.update(violated=True, witness=wit, final_ratio=f / b, why=why)
                        return out
            for v, b, m in sim:
                if m.lo > b:
                    ok, wit, why = self._confirm_sim(stmt, (v, b, m))
                    if ok:
                        out.update(violated=True, witness=wit, final_ratio=m.lo / b, why=why)
                        return out
            return out
        # the certified floor: unbounded growth, confirmed at 50 digits
        if len(cert) >= 4:
            rs = [f / b for _, b, f in cert]
            fac = [rs[i + 1] / rs[i] for i in range(len(rs) - 1)][-3:]
            if min(fac) >= 2 and rs[-1] > 1:
                ok, wit, why = self._confirm_floor(stmt, cert[-4:])
                if ok:
                    out.update(violated=True, witness=wit, final_ratio=rs[-1],
                               why=why)
                    return out
        # the simulated quantile, conservatively
        if len(sim) >= 4:
            lo_r = [m.lo / b for _, b, m in sim]
            hi_r = [m.hi / b for _, b, m in sim]
            fac = [lo_r[i + 1] / hi_r[i] if hi_r[i] > 0 else 0.0
                   for i in range(len(sim) - 1)][-3:]
            if min(fac) >= 2 and lo_r[-1] > 1:
                ok, wit, why = self._confirm_sim(stmt, sim[-1])
                if ok:
                    out.update(violated=True, witness=wit, final_ratio=lo_r[-1], why=why)
        return out

    def _confirm_floor(self, stmt, cert, explicit: bool = False):
        """Re-evaluate the floor and the bound at 50 digits at the last four points (at the
        one point of an explicit bound)."""
        rs = []
        for v, _, _ in cert:
            f = self.floor(stmt, v, dps=DPS)
            b = evaluate_mp(stmt.expr, v, DPS)
            with mpmath.workdps(DPS):
                rs.append(f / b)
        with mpmath.workdps(DPS):
            fac = [rs[i + 1] / rs[i] for i in range(len(rs) - 1)]
            ok = rs[-1] > 1 and (explicit or all(x >= 2 for x in fac))
            v = cert[-1][0]
            wit = {k: repr(float(x)) for k, x in sorted(v.items())}
            wit.update({"certified_floor": mpmath.nstr(self.floor(stmt, v, dps=DPS), 20),
                        "bound": mpmath.nstr(evaluate_mp(stmt.expr, v, DPS), 20),
                        "ratios_50_digits": ", ".join(mpmath.nstr(r, 8) for r in rs),
                        "method": "certified floor of the quantile (movement bound from "
                                  "w_1 = 0, Gaussian concentration), 50 digits"})
            why = ("the certified floor of the quantile over the claimed expression grows "
                   + " → ".join(mpmath.nstr(r, 4) for r in rs))
        return ok, wit, why

    def _confirm_sim(self, stmt, last):
        v, b, m = last
        bmp = evaluate_mp(stmt.expr, v, DPS)
        lo = m.lo
        # the order statistic's run re-evaluated at 50 digits (excess risk: exact risk)
        if stmt.metric is EXCESS_RISK and m.points is not None:
            fam = self.member(stmt, v)
            idx = int(np.argmin(np.abs(m.sample - lo)))
            with mpmath.workdps(DPS):
                lo_mp = fam.risk_mp(m.points[idx], DPS) - mpmath.mpf(fam.f_star)
        else:
            lo_mp = mpmath.mpf(lo)
        with mpmath.workdps(DPS):
            ok = lo_mp > bmp
        wit = _witness(v, b, m)
        wit["bound_50_digits"] = mpmath.nstr(bmp, 20)
        wit["measured_lower_50_digits"] = mpmath.nstr(lo_mp, 20)
        return ok, wit, (f"the lower end of the measured interval over the claimed "
                         f"expression reaches {lo / b:.3g}")


@lru_cache(maxsize=256)
def _d_symbol(stmt) -> list:
    """The statement's dimension symbol ``d`` (a base quantity), if any."""
    return [s for s in stmt.free_symbols if s.name == "d"]


def _fmt(x) -> str:
    if x is None:
        return "?"
    return f"{x:.3g}"


def _witness(v, b, m: Measured) -> dict:
    w = {k: repr(float(x)) for k, x in sorted(v.items())}
    w.update({"measured": repr(m.value), "interval": f"[{m.lo!r}, {m.hi!r}]",
              "bound": repr(float(b)), "method": m.what})
    return w


truth_provider(PowerLossSGDProvider())

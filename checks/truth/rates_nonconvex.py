"""Convergence of normalised and clipped noisy SGD on a non-convex generalised-smooth
problem with almost-surely bounded gradient noise: provider ``min-grad-norm-rate`` for
:class:`~theory.model.Rate` statements on E[min_{t<T} ‖∇f(θ_t)‖]
(:data:`~theory.metrics.EXPECTED_MIN_GRAD_NORM`), for
:class:`~theory.mechanisms.NormalizedSGD` and :class:`~theory.mechanisms.NoisySGD`
without a domain, on the classes :class:`~theory.classes.GeneralizedSmooth`,
:class:`~theory.classes.AffineGradNoise`, :class:`~theory.classes.LowerBounded`,
:class:`~theory.classes.InitialGap`.

**The problem family** (every class parameter met exactly).  On R^d,

    f(θ) = A (1 − cos(θ_1 / w)),  A = L0 w²,  w = max(τ0/(2L0), √(D_f/L0)),

non-convex, f* = 0, ∇f = (G sin(θ_1/w), 0, …, 0) with G = L0 w = sup‖∇f‖, and
‖∇²f‖ ≤ A/w² = L0: f is L0-smooth, so (L0, L1)-smooth for every L1 ≥ 0 in the Hessian
form *and* in the global form ‖∇f(x) − ∇f(y)‖ ≤ (L0 + L1‖∇f(x)‖)‖x − y‖.  θ_0 = (w·arccos(1 −
D_f/A), 0, …) has f(θ_0) − f* = D_f exactly (D_f/A ≤ 1, so θ_0 lies where f' ≥ 0 rises).
The dataset has N records with per-example gradients ∇l_i(θ) = ∇f(θ) + ζ_i e_1:

* ``skewed`` (the two-atom law of a normalised-descent counterexample): ⌊N/3⌋ records
  with ζ = +τ0, 2⌊N/3⌋ with ζ = −τ0/2, the rest 0;
* ``symmetric``: ⌊N/2⌋ with ζ = +τ0, ⌊N/2⌋ with −τ0, the rest 0.

Both have Σ_i ζ_i = 0 (so f is the average loss and sampled gradients are unbiased) and
|ζ_i| ≤ τ0 ≤ τ0 + τ1‖∇f‖: Assumption-type affine noise bound with any τ1 ≥ 0.

**Simulation (exact in law).**  Only θ_1 moves ∇f and every per-example gradient is
parallel to e_1, so the other coordinates never enter ‖∇f‖ or the normalisation/clipping
(their Gaussian noise is irrelevant and not drawn).  A batch of b records drawn uniformly
without replacement (``sampling="fixed"``) contains a multivariate-hypergeometric number
of each atom, so the update of θ_1 is drawn exactly: θ_1 ← θ_1 − η((1/b) Σ φ(∇_1 f + ζ_i)
+ z), φ(x) = x/(r + |x|) (normalised) or x·min(1, C/|x|) (clipped), z ~ N(0, σ²) with σ
the mechanism's noise on the averaged update.  Poisson sampling is not simulated.
``RUNS`` independent runs (numpy, float64, seeded) record m = min_{t<T} |∇_1 f(θ_t)|.

**Statistical error.**  m ∈ [0, G], so the empirical Bernstein bound (Maurer & Pontil
2009, Thm 4) holds distribution-free: with probability ≥ 1 − δ on each side,
|E m − mean| ≤ √(2 V ln(2/δ)/n) + 7 G ln(2/δ)/(3(n − 1)), V the sample variance; here
δ = 5·10⁻⁷ per side (``DELTA``).  A scenario is VIOLATED only when mean − error exceeds
the bound (explicit form), never HOLDS unless mean + error ≤ bound.

**Existential constants** (``Rate.constants``, the claim "there is a C depending on
``depends_on`` only") are searched by the statement driver
(:mod:`checks.statements.existential`); this provider's plan asks for at most
``MAX_POINTS`` simulated points and a T-path of three steps of ×16 ending at the largest T
in reach (T ≤ ``T_MAX``), the certified needed C multiplied by ≥ 1.5 at each step and by
≥ 4 over the path (a T^(−1/4) bound halves per ×16: a persisting excess doubles the needed
constant per step, ×8 over the path; a truth decaying like the bound leaves it flat).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import sympy as sp

from checks.claim import make_claim
from checks.plugins import truth_provider
from checks.truth.base import (
    SearchPlan,
    Support,
    Truth,
    TruthProvider,
    Unavailable,
    all_classes,
    dimension_symbols,
    evaluate,
)
from theory.classes import AffineGradNoise, GeneralizedSmooth, InitialGap, LowerBounded
from theory.mechanisms import NoisySGD, NormalizedSGD
from theory.metrics import EXPECTED_MIN_GRAD_NORM

RUNS = 1000
DELTA = 5e-7                    # per side
T_MAX = 200_000
COST_MAX = 2e8                  # runs × T (a default run; the slow tests go further)
MAX_POINTS = 4                  # simulated parameter points per statement
LAWS = ("skewed", "symmetric")
PATH_STEPS = 3
ANCHOR_T = 10_000
PATH_FACTOR = 16
PATH_GROWTH = 1.5
PATH_TOTAL = 4.0


@dataclass(frozen=True)
class Scenario:
    algo: str                   # "normalized" | "clipped"
    law: str                    # "skewed" | "symmetric"
    tau0: float
    L0: float
    gap0: float
    N: int
    B: int
    T: int
    eta: float
    sigma: float                # std of the noise added to the averaged update
    r: float | None = None      # regulariser (normalized)
    C: float | None = None      # threshold (clipped)

    @property
    def w(self) -> float:
        return max(self.tau0 / (2 * self.L0), math.sqrt(self.gap0 / self.L0))

    @property
    def A(self) -> float:
        return self.L0 * self.w ** 2

    @property
    def G(self) -> float:
        return self.L0 * self.w

    def theta0(self) -> float:
        """w·arccos(1 − D_f/A), written 2w·arcsin(√(D_f/(2A))) so that a tiny D_f/A is not
        rounded away (1 − 10⁻¹⁹ is 1 in double precision); Unavailable when θ_0 would not
        carry the gap to a few ulps."""
        th = 2 * self.w * math.asin(math.sqrt(self.gap0 / (2 * self.A)))
        got = 2 * self.A * math.sin(th / (2 * self.w)) ** 2        # = A(1 − cos(θ_0/w))
        if not (th > 0 and abs(got - self.gap0) <= 1e-12 * self.gap0):
            raise Unavailable(f"θ_0 does not attain the gap {self.gap0:g} in double precision")
        return th

    def atoms(self) -> tuple[np.ndarray, np.ndarray]:
        """(values ζ, counts) of the dataset's noise atoms."""
        t = self.tau0
        if self.law == "skewed":
            m = self.N // 3
            vals, cnt = np.array([t, -t / 2, 0.0]), np.array([m, 2 * m, self.N - 3 * m])
        elif self.law == "symmetric":
            m = self.N // 2
            vals, cnt = np.array([t, -t, 0.0]), np.array([m, m, self.N - 2 * m])
        else:
            raise ValueError(f"law must be one of {LAWS}, got {self.law!r}")
        keep = cnt > 0
        return vals[keep], cnt[keep]

    def phi(self, x: np.ndarray) -> np.ndarray:
        if self.algo == "normalized":
            return x / (self.r + np.abs(x))
        return x * np.minimum(1.0, self.C / np.maximum(np.abs(x), 1e-300))

    def mean_direction(self, s: float) -> float:
        """E[(1/b) Σ φ(s + ζ_i)] at ∇_1 f = s (the drift of θ_1 per unit step)."""
        vals, cnt = self.atoms()
        return float((cnt * self.phi(s + vals)).sum() / cnt.sum())

    def equilibrium(self) -> float:
        """The smallest s ∈ [0, G] where the mean direction vanishes (0 when it is ≥ 0 at
        s = 0): the gradient norm the noiseless drift settles at — the non-vanishing bias
        of a normalised method (bisection on a fine grid, rel. tol. 1e-12)."""
        if self.mean_direction(0.0) >= 0:
            return 0.0
        grid = np.linspace(0.0, self.G, 4001)
        vals = np.array([self.mean_direction(float(s)) for s in grid])
        idx = np.nonzero(vals >= 0)[0]
        if not idx.size:
            return math.inf
        a, b = float(grid[idx[0] - 1]), float(grid[idx[0]])
        while b - a > 1e-12 * max(b, 1e-300):
            mid = 0.5 * (a + b)
            a, b = (mid, b) if self.mean_direction(mid) < 0 else (a, mid)
        return b


def batch_law(counts: np.ndarray, B: int) -> tuple[np.ndarray, np.ndarray]:
    """The multivariate hypergeometric law of the atom counts in a batch of B records drawn
    uniformly without replacement: (outcomes (k, atoms), cumulative probabilities)."""
    counts = [int(c) for c in counts]
    N = sum(counts)
    logc = lambda n, k: math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
    outs, logp = [], []

    def rec(i, left, ks):
        if i == len(counts) - 1:
            if left <= counts[i]:
                kk = ks + [left]
                outs.append(kk)
                logp.append(sum(logc(c, k) for c, k in zip(counts, kk)) - logc(N, B))
            return
        for k in range(max(0, left - sum(counts[i + 1:])), min(counts[i], left) + 1):
            rec(i + 1, left - k, ks + [k])

    rec(0, B, [])
    p = np.exp(np.array(logp))
    cdf = np.cumsum(p)
    cdf /= cdf[-1]
    return np.array(outs, dtype=float), cdf


#: uniforms per lookup cell of the batch law's inverse distribution function (a power of
#: two, so that the cell of a uniform u is floor(u·M) exactly)
LOOKUP_CELLS = 1 << 14
#: steps whose random numbers are drawn at once (× runs doubles per array)
CHUNK = 1 << 16


def _inverse_table(cdf: np.ndarray):
    """(index, exact) per cell [c/M, (c+1)/M) of the uniforms: the outcome index
    ``searchsorted(cdf, u, "right")`` when it is the same for every u in the cell (exact),
    else the cell's first index (the cell holds a jump of the cdf: searched per draw)."""
    M = LOOKUP_CELLS
    left = np.arange(M) / M
    right = np.nextafter((np.arange(M) + 1) / M, 0.0)
    lo = np.minimum(np.searchsorted(cdf, left, side="right"), cdf.size - 1)
    hi = np.minimum(np.searchsorted(cdf, right, side="right"), cdf.size - 1)
    return lo, lo == hi


def simulate(sc: Scenario, *, runs: int, seed: int) -> np.ndarray:
    """min_{t<T} |∇_1 f(θ_t)| of ``runs`` independent runs (:func:`simulate_many` of one
    scenario)."""
    return simulate_many([sc], runs=runs, seeds=[seed])[0]


def simulate_many(scs: list[Scenario], *, runs: int, seeds: list[int]) -> list[np.ndarray]:
    """:func:`simulate` of each scenario with its seed, the scenarios of one length T and
    one algorithm stepped together (the same numbers as one at a time: each keeps its own
    random stream, and every update is the same floating-point operation).

    The batch's atom counts are drawn by inverting their exact (multivariate
    hypergeometric) distribution function: through a lookup table of the uniform's cell,
    and by binary search in the few cells that hold a jump (the same outcome as the search
    everywhere).  The uniforms and the Gaussian noise of ``CHUNK // runs`` steps are drawn
    at once; the update works in place."""
    if len(scs) != len(seeds):
        raise ValueError(f"one seed per scenario needed, got {len(seeds)} for {len(scs)}")
    for sc in scs:
        if runs < 2 or sc.T < 1 or sc.B < 1 or sc.B > sc.N:
            raise ValueError(f"runs >= 2, T >= 1, 1 <= B <= N needed, got {runs}, {sc.T}, "
                             f"{sc.B}, {sc.N}")
    out: list[np.ndarray | None] = [None] * len(scs)
    groups: dict = {}
    for i, sc in enumerate(scs):
        groups.setdefault((sc.T, sc.algo), []).append(i)
    for (T, algo), idx in groups.items():
        for i, best in zip(idx, _run_group([scs[i] for i in idx], [seeds[i] for i in idx],
                                           runs, T, algo == "normalized")):
            out[i] = best
    return out


def _run_group(scs, seeds, runs, T, normalized):
    S = len(scs)

    # each scenario's constant repeated along its runs: numpy's elementwise ops against a
    # full (S, runs) operand take a third of the time they take against an (S, 1) column
    # broadcast along the rows (the same values, so the same results)
    def col(xs):
        return np.repeat(np.array(xs, dtype=float)[:, None], runs, axis=1)

    rngs = [np.random.default_rng(sd) for sd in seeds]
    laws = []
    for sc in scs:
        vals, cnt = sc.atoms()
        ks, cdf = batch_law(cnt, sc.B)
        table, exact = _inverse_table(cdf)
        laws.append((vals, [np.ascontiguousarray(ks[:, j]) / sc.B for j in range(len(vals))],
                     cdf, table, exact))
    n_at = max(len(law[0]) for law in laws)
    # atoms padded with value 0 and share 0 (adding 0 leaves the update as it was)
    vals = [col([law[0][j] if j < len(law[0]) else 0.0 for law in laws]) for j in range(n_at)]
    w, G, eta = col([sc.w for sc in scs]), col([sc.G for sc in scs]), col([sc.eta for sc in scs])
    r = col([sc.r for sc in scs]) if normalized else None
    C = col([sc.C for sc in scs]) if not normalized else None
    th = col([sc.theta0() for sc in scs])
    best = np.full((S, runs), np.inf)
    s, x, y, v = (np.empty((S, runs)) for _ in range(4))
    K = max(1, CHUNK // runs)           # independent of S: the streams do not depend on it
    C_lo = -C if C is not None else None
    for start in range(0, T, K):
        k = min(K, T - start)
        # per scenario, its k steps' numbers lie contiguous (drawn in place, no copies)
        noise = np.empty((S, k, runs))
        fr = [np.zeros((S, k, runs)) for _ in range(n_at)]
        for i, (rng, sc, (_, cols, cdf, table, exact)) in enumerate(zip(rngs, scs, laws)):
            u = rng.random((k, runs))
            rng.standard_normal(out=noise[i])
            noise[i] *= sc.sigma
            u *= LOOKUP_CELLS
            cell = u.astype(np.intp)
            pick = table[cell]
            jump = ~exact[cell]
            if jump.any():
                u /= LOOKUP_CELLS      # back to the uniforms (× and ÷ by 2¹⁴ are exact)
                pick[jump] = np.minimum(np.searchsorted(cdf, u[jump], side="right"),
                                        cdf.size - 1)
            for j, c in enumerate(cols):
                np.take(c, pick, out=fr[j][i])
        for t in range(k):
            np.divide(th, w, out=s)
            np.sin(s, out=s)
            s *= G
            np.abs(s, out=y)
            np.minimum(best, y, out=best)
            np.copyto(v, noise[:, t])
            for a, f in zip(vals, fr):
                np.add(s, a, out=x)
                if normalized:
                    np.abs(x, out=y)
                    y += r
                    x /= y
                else:
                    # np.clip(x, -C, C): the same values (C > 0), without clip's
                    # broadcasting overhead (4x the time of the two passes)
                    np.maximum(x, C_lo, out=x)
                    np.minimum(x, C, out=x)
                x *= f[:, t]
                v += x
            v *= eta
            th -= v
    return list(best)


def bernstein(x: np.ndarray, width: float, delta: float = DELTA) -> tuple[float, float]:
    """(mean, error): with probability ≥ 1 − δ, E x ≤ mean + error (and ≥ mean − error with
    another δ), for x i.i.d. in an interval of the given width (empirical Bernstein)."""
    n = x.size
    lg = math.log(2 / delta)
    v = float(x.var(ddof=1))
    return float(x.mean()), math.sqrt(2 * v * lg / n) + 7 * width * lg / (3 * (n - 1))


class MinGradNormRateProvider(TruthProvider):
    name = "min-grad-norm-rate"
    mechanisms = (NormalizedSGD, NoisySGD)
    classes = (GeneralizedSmooth, AffineGradNoise, LowerBounded, InitialGap)
    metrics = (EXPECTED_MIN_GRAD_NORM,)

    stochastic = True

    def supports(self, stmt):
        got = super().supports(stmt)
        if not got:
            return got
        a = stmt.mechanism
        if isinstance(a, NoisySGD) and a.domain is not None:
            return Support(False, f"{self.name}: no projection simulated")
        if a.sampling != "fixed":
            return Support(False, f"{self.name}: only fixed-size sampling without replacement")
        if getattr(stmt, "confidence", None) is not None:
            return Support(False, f"{self.name}: expectations only")
        cls = all_classes(stmt)
        for c in cls:
            if isinstance(c, LowerBounded) and c.of != "objective":
                return Support(False, f"{self.name}: the per-record losses f + ζθ_1 are not "
                                      "bounded below (only the objective is)")
        need = (GeneralizedSmooth, AffineGradNoise, InitialGap)
        for t in need:
            if not any(isinstance(c, t) for c in cls):
                return Support(False, f"{self.name}: the family is sized by {t.__name__}, "
                                      "which the statement does not assume")
        for k in getattr(stmt, "constants", ()):
            coef = sp.diff(stmt.expr, k)
            if k in coef.free_symbols:
                return Support(False, f"{self.name}: the bound is not affine in {k}")
        return Support(True)

    # ---- symbols
    @staticmethod
    def _cls(stmt, t):
        for c in all_classes(stmt):
            if isinstance(c, t):
                return c
        return None

    def derived(self, stmt):
        a = stmt.mechanism
        gs, an, ig = (self._cls(stmt, t) for t in (GeneralizedSmooth, AffineGradNoise,
                                                   InitialGap))
        out = {"T": a.T, "n": a.n, "b": a.b, "L0": gs.L0, "L1": gs.L1, "tau0": an.tau0,
               "tau1": an.tau1, "gap": ig.gap}
        if isinstance(a, NormalizedSGD):
            out.update({"r": a.r, "sigma": a.sigma})
        else:
            out.update({"C": a.C, "sigma/C": a.sigma / a.C})
        d = [s for s in stmt.expr.free_symbols if s.name == "d"]
        if d:
            out["d"] = d[0]
        for k in getattr(stmt, "constants", ()):
            out[f"const:{k.name}"] = k
        # a parameter the hypotheses define (σ = c2√(T log(1/δ))/(Nε)) is reached through
        # its definition's symbols
        defs = dict(make_claim(sp.true, [h.expr for h in stmt.hypotheses
                                         if h.expr is not None]).definitions)
        if defs:
            out = {k: sp.sympify(e).xreplace(defs) for k, e in out.items()}
        return out

    def anchors(self, stmt):
        """τ0 = 1, τ1 = 0.2, L0 = L1 = 10⁻², D_f = 1, d = 1, n = 300, b = 30 (constants at 1):
        the regulariser r swept toward both ends of r > τ0 (1.05 … 1000) or the threshold C
        from just above 2τ0/(1 − τ1) = 2.5 to 100, at T = 10⁴ and noise multiplier 2; then
        T = 10³, then a smaller noise multiplier (0.2).  Points that miss a hypothesis
        (the T of the step-size lemma) are dropped; the first ``MAX_POINTS`` admissible
        ones are simulated."""
        base = {"L0": 1e-2, "L1": 1e-2, "tau0": 1.0, "tau1": 0.2, "gap": 1.0, "d": 1.0,
                "n": 300, "b": 30}
        for k in getattr(stmt, "constants", ()):
            base[f"const:{k.name}"] = 1.0
        if isinstance(stmt.mechanism, NormalizedSGD):
            knob, sweep, mid, key = "r", (1.05, 2.0, 10.0, 100.0, 1000.0), 2.0, "sigma"
        else:
            knob, sweep, mid, key = "C", (2.6, 10.0, 100.0), 10.0, "sigma/C"
        out = [dict(base, T=ANCHOR_T, **{knob: x, key: 2.0}) for x in sweep]
        out += [dict(base, T=ANCHOR_T // 10, **{knob: mid, key: 2.0})]
        out += [dict(base, T=ANCHOR_T, **{knob: x, key: 0.2}) for x in sweep]
        return out

    def scenarios(self, stmt, v) -> list[Scenario]:
        a = stmt.mechanism
        gs, an, ig = (self._cls(stmt, t) for t in (GeneralizedSmooth, AffineGradNoise,
                                                   InitialGap))
        L0, tau0, tau1 = evaluate(gs.L0, v), evaluate(an.tau0, v), evaluate(an.tau1, v)
        L1, gap = evaluate(gs.L1, v), evaluate(ig.gap, v)
        if not (L0 > 0 and tau0 > 0 and 0 <= tau1 and L1 >= 0 and gap > 0):
            raise Unavailable("L0, τ0, D_f > 0 and L1, τ1 ≥ 0 needed")
        N, B, T = (evaluate(x, v) for x in (a.n, a.b, a.T))
        for nm, x in (("n", N), ("b", B), ("T", T)):
            if x != int(x) or x < 1:
                raise Unavailable(f"{nm} = {x:g} is not a positive integer")
        N, B, T = int(N), int(B), int(T)
        if B > N:
            raise Unavailable("b > n")
        if T > T_MAX or RUNS * T > COST_MAX:
            raise Unavailable(f"T = {T}: beyond the simulation budget")
        eta, sig = evaluate(a.eta, v), evaluate(a.sigma, v)
        if not (eta > 0 and math.isfinite(eta) and sig >= 0):
            raise Unavailable("η > 0 and σ ≥ 0 needed")
        if isinstance(a, NormalizedSGD):
            kw = dict(algo="normalized", r=evaluate(a.r, v))
            if not kw["r"] > 0:
                raise Unavailable("r > 0 needed")
        else:
            kw = dict(algo="clipped", C=evaluate(a.C, v))
            if not kw["C"] > 0:
                raise Unavailable("C > 0 needed")
        out = [Scenario(law=law, tau0=tau0, L0=L0, gap0=gap, N=N, B=B, T=T, eta=eta,
                        sigma=sig, **kw) for law in LAWS]
        sc = out[0]
        sc.theta0()                                      # raises when the gap is not attained
        drift = sc.G / (sc.r + sc.G) if sc.algo == "normalized" else min(sc.G, sc.C)
        if eta * (sig + drift) < 1e-9 * math.pi * sc.w:
            # a step below 10⁻⁹ of the iterate's scale would be lost to rounding (θ_1 ∈ [0, πw])
            raise Unavailable("the steps are below the iterate's double-precision resolution")
        return out

    def plan(self, stmt, budget):
        return SearchPlan(random=8, anchor_bases=2, targeted=False, max_points=MAX_POINTS,
                          growth="T", path_steps=PATH_STEPS, path_factor=PATH_FACTOR,
                          growth_step=PATH_GROWTH, growth_total=PATH_TOTAL)

    def reads(self, stmt):
        return dimension_symbols(stmt)

    def reach(self, stmt, v):
        self.scenarios(stmt, v)

    def describe(self, stmt):
        return (f"cosine family, skewed and symmetric noise laws, {RUNS} simulated runs a "
                f"scenario, error: empirical Bernstein, δ = {DELTA:g} per side, metric "
                f"{stmt.metric.definition}")

    def truth(self, stmt, v, *, precise=False, seed: int = 0):
        got = self.truths(stmt, [v], [seed])[0]
        if isinstance(got, Exception):
            raise got
        return got

    def truths(self, stmt, points, seeds):
        """Both laws at every point, simulated together (:func:`simulate_many`); the truth
        of a point is the worse law's."""
        out: list = [None] * len(points)
        todo = []
        for i, (v, sd) in enumerate(zip(points, seeds)):
            try:
                todo += [(i, sc, sd) for sc in self.scenarios(stmt, v)]
            except (Unavailable, ValueError) as exc:
                out[i] = exc
        xs = simulate_many([sc for _, sc, _ in todo], runs=RUNS,
                           seeds=[_law_seed(sd, sc.law) for _, sc, sd in todo])
        per: dict = {}
        for (i, sc, _), x in zip(todo, xs):
            m, e = bernstein(x, sc.G)
            per.setdefault(i, []).append(
                Truth(m, m, e, f"{RUNS} simulated runs, empirical Bernstein at δ = {DELTA:g} "
                               "per side", repr(sc)))
        for i, ts in per.items():
            out[i] = Truth.worst(ts)
        return out


def _law_seed(seed: int, law: str) -> int:
    """Each noise law of a point its own random stream."""
    return (seed * 2 + LAWS.index(law)) & 0xFFFFFFFF


truth_provider(MinGradNormRateProvider())

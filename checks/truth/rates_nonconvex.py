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
``depends_on`` only").  The expression must be affine with a positive coefficient in each
constant; with one constant C, bound = R + C·A at a scenario, and the truth needs
C ≥ (E m − R)/A.  The report gives, per value of ``depends_on``, the smallest C with
mean + error ≤ R + C·A on every simulated scenario (the smallest constant that makes the
statement hold on the measured truth) and the certified lower value (mean − error − R)/A.
VIOLATED ("no admissible constant") only when that certified lower value grows without
bound along a family with ``depends_on`` fixed: T ×16 per step (three steps, every point
admissible and within the budget T ≤ ``T_MAX``), mean − error − R > 0 throughout and the
certified needed C multiplied by ≥ 1.5 at each step and by ≥ 4 over the path (a T^(−1/4)
bound halves per ×16: a persisting excess doubles the needed constant per step, ×8 over
the path; a truth decaying like the bound leaves it flat).  The path starts at
T_MAX/16³ when that T is admissible (else at the point's own T), and stops at the first
step whose certified needed constant is not positive or grew less than ×1.5 (the longer
steps could no longer make it VIOLATED).  A constant that also enters the algorithm or
the classes (the truth) is never decided VIOLATED (it is reported only).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import sympy as sp

from checks.plugins import truth_provider
from checks.truth.base import Support, TruthProvider, Unavailable, all_classes, evaluate
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

    def supports(self, stmt):
        if not hasattr(stmt, "metric"):
            return Support(False, f"{self.name}: rates only")
        if stmt.metric not in self.metrics:
            return Support(False, f"{self.name}: metric {stmt.metric.key} not measured")
        a = stmt.algorithm
        if not isinstance(a, (NormalizedSGD, NoisySGD)):
            return Support(False, f"{self.name}: algorithm {a.name} not simulated")
        if isinstance(a, NoisySGD) and a.domain is not None:
            return Support(False, f"{self.name}: no projection simulated")
        if a.sampling != "fixed":
            return Support(False, f"{self.name}: only fixed-size sampling without replacement")
        if getattr(stmt, "confidence", None) is not None:
            return Support(False, f"{self.name}: expectations only")
        cls = all_classes(stmt)
        for c in cls:
            if not isinstance(c, self.classes):
                return Support(False, f"{self.name}: the family is not a known member of "
                                      f"{c.name}")
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
        a = stmt.algorithm
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
        from checks.statements import Space
        defs = dict(Space(stmt).definitions)
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
        if isinstance(stmt.algorithm, NormalizedSGD):
            knob, sweep, mid, key = "r", (1.05, 2.0, 10.0, 100.0, 1000.0), 2.0, "sigma"
        else:
            knob, sweep, mid, key = "C", (2.6, 10.0, 100.0), 10.0, "sigma/C"
        out = [dict(base, T=ANCHOR_T, **{knob: x, key: 2.0}) for x in sweep]
        out += [dict(base, T=ANCHOR_T // 10, **{knob: mid, key: 2.0})]
        out += [dict(base, T=ANCHOR_T, **{knob: x, key: 0.2}) for x in sweep]
        return out

    def scenarios(self, stmt, v) -> list[Scenario]:
        a = stmt.algorithm
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

    def truth(self, stmt, v, *, precise=False, seed: int = 0):
        from checks.truth.base import Truth
        best = None
        scs = self.scenarios(stmt, v)
        for sc, x in zip(scs, simulate_many(scs, runs=RUNS, seeds=[seed] * len(scs))):
            m, e = bernstein(x, sc.G)
            if best is None or m - e > best[0] - best[1]:
                best = (m, e, sc)
        m, e, sc = best
        return Truth(m, m, e, f"{RUNS} simulated runs, empirical Bernstein at δ = {DELTA:g} "
                              "per side", repr(sc))

    # ---- the check
    @staticmethod
    def _fallback(space) -> dict:
        """A base point for the anchors when no random draw is admissible: each symbol at
        the middle of a bounded domain, else just above its lower end (1 when unbounded)."""
        out = {}
        for d in space.doms:
            lo, hi = d.lo, d.hi
            if math.isfinite(lo) and math.isfinite(hi):
                x = 0.5 * (lo + hi)
            elif math.isfinite(lo):
                x = max(1.0, 2 * lo) if lo >= 0 else 1.0
            else:
                x = 1.0
            out[d.sym.name] = float(max(1, round(x))) if d.integer else float(x)
        return out

    def _points(self, stmt, space, *, budget: int, seed: int) -> list[dict]:
        """The provider's anchors realised on a seeded admissible draw (or on
        :meth:`_fallback`), then up to min(budget, 8) of the draws themselves."""
        from checks.statements import seeded as _seeded, realise
        base = space.draw(np.random.default_rng(_seeded(seed, "min-grad-rate")), 32)
        bases = base[:1] + [self._fallback(space)]
        pts = []
        for t in self.anchors(stmt):
            for b0 in bases:
                w = realise(stmt, self, t, b0, space)
                if w is not None:
                    pts.append(w)
                    break
        return pts + base[: max(0, min(budget, 8))]

    def _parts(self, stmt, v):
        """(C-free part R, coefficient A) of the bound at v (one constant), or (bound, 0)."""
        ks = list(getattr(stmt, "constants", ()))
        if not ks:
            return evaluate(stmt.expr, v), 0.0
        zero = {k: 0 for k in ks}
        R = evaluate(stmt.expr.xreplace(zero), v)
        A = sum(evaluate(sp.diff(stmt.expr, k).xreplace(zero), v) for k in ks)
        return R, A

    def check(self, stmt, *, budget: int, seed: int):
        from checks.statements import Outcome, Space, seeded as _seeded
        space = Space(stmt)
        pts = self._points(stmt, space, budget=budget, seed=seed)
        ks = list(getattr(stmt, "constants", ()))
        dep = [s.name for s in getattr(stmt, "depends_on", ())]
        truth_syms = set(stmt.algorithm.free_symbols)
        for c in all_classes(stmt):
            truth_syms |= c.free_symbols
        for sym, e in space.definitions:                 # σ = c2√(T log(1/δ))/(Nε) …
            if sym in truth_syms:
                truth_syms |= e.free_symbols
        decidable = not (set(ks) & truth_syms)
        measured, skipped, why, done = [], 0, "", 0
        for i, v in enumerate(pts):
            if done >= MAX_POINTS:
                break
            try:
                R, A = self._parts(stmt, v)
                measured += [(i, v, sc, R, A) for sc in self.scenarios(stmt, v)]
            except Unavailable as exc:
                skipped += 1
                why = str(exc)
                continue
            done += 1
        # the first MAX_POINTS admissible points, both laws each, simulated together
        xs = simulate_many([sc for _, _, sc, _, _ in measured], runs=RUNS,
                           seeds=[_seeded(seed, "sim", i, sc.law)
                                  for i, _, sc, _, _ in measured])
        rows = [(v, sc, *bernstein(x, sc.G), R, A)
                for (_, v, sc, R, A), x in zip(measured, xs)]
        if not rows:
            return Outcome(stmt.label, tested=False,
                           detail=f"rate {stmt.label} ({self.name}): NOT-TESTED — no admissible "
                                  f"scenario within the simulation budget ({skipped} skipped: "
                                  f"{why})")
        n_sc = len(rows)
        txt = (f"{n_sc} scenarios (cosine family, skewed/symmetric noise) × {RUNS} runs "
               f"({skipped} points beyond the budget), metric {stmt.metric.definition}, "
               f"error: empirical Bernstein, δ = {DELTA:g} per side")
        table = "; ".join(_row_text(row) for row in sorted(
            rows, key=lambda rw: (rw[1].law, rw[1].T, rw[1].r or rw[1].C or 0, rw[1].sigma))
            if row[1].law == "skewed" or not ks)
        if not ks:
            bad = [row for row in rows if row[2] - row[3] > row[4]]
            if bad:
                v, sc, m, e, b, _ = max(bad, key=lambda rw: (rw[2] - rw[3]) / rw[4])
                return Outcome(stmt.label, violated=True, ratio=(m - e) / b,
                               witness=_witness(v, sc, m, e, b),
                               detail=f"rate {stmt.label} ({self.name}): VIOLATED — measured "
                                      f"{m:.6g} ± {e:.2g} exceeds the bound {b:.6g} at {sc}; "
                                      f"{txt}", samples=n_sc * RUNS)
            decided = [row for row in rows if row[2] + row[3] <= row[4]]
            top = max(rows, key=lambda rw: (rw[2] + rw[3]) / rw[4])
            v, sc, m, e, b, _ = top
            if not decided:
                return Outcome(stmt.label, tested=False, ratio=(m + e) / b,
                               detail=f"rate {stmt.label} ({self.name}): UNDECIDED — the error "
                                      f"interval contains the bound at every scenario; {txt}")
            return Outcome(stmt.label, ratio=(m + e) / b, witness=_witness(v, sc, m, e, b),
                           detail=f"rate {stmt.label} ({self.name}): holds on scenarios "
                                  f"({len(decided)} of {n_sc} decided), largest (mean + error)/"
                                  f"bound = {(m + e) / b:.3g}; {txt}; {table}",
                           samples=n_sc * RUNS)
        # existential constants: the smallest that works, per value of depends_on
        groups: dict = {}
        for row in rows:
            v, sc, m, e, R, A = row
            key = tuple(round(v.get(nm, math.nan), 12) for nm in dep)
            need = (m + e - R) / A
            low = (m - e - R) / A
            g = groups.setdefault(key, {"need": -math.inf, "low": -math.inf, "row": row})
            if need > g["need"]:
                g.update(need=need, row=row)
            g["low"] = max(g["low"], low)
        cname = ", ".join(k.name for k in ks if k in stmt.expr.free_symbols)
        gtxt = "; ".join(
            f"at {', '.join(f'{nm} = {x:g}' for nm, x in zip(dep, key)) or 'every point'}: "
            + (f"{cname} ≥ {g['need']:.4g} needed (certified lower {max(g['low'], 0):.4g})"
               if g["need"] > 0 else f"every {cname} > 0 works (mean + error ≤ the "
                                     f"{cname}-free part)")
            for key, g in sorted(groups.items()))
        # no admissible constant? follow T upward from the point needing most (certified)
        key, g = max(groups.items(), key=lambda kv: kv[1]["low"])
        path_txt = ""
        if g["low"] > 0:
            v0 = g["row"][0]
            law0 = g["row"][1].law
            seq, pts_ok, plan = [], True, []
            tname = [s.name for s in stmt.algorithm.T.free_symbols]
            t_start = None
            if len(tname) == 1:
                t_start = float(min(v0[tname[0]], max(1, T_MAX // PATH_FACTOR**PATH_STEPS)))
                if space.admissible(dict(v0, **{tname[0]: t_start})) is None:
                    t_start = v0[tname[0]]
            for k in range(PATH_STEPS + 1):
                if t_start is None:
                    pts_ok = False
                    break
                vk = space.admissible(dict(v0, **{tname[0]: t_start * PATH_FACTOR**k}))
                if vk is None:
                    pts_ok = False
                    break
                try:
                    R, A = self._parts(stmt, vk)
                    scs = [s for s in self.scenarios(stmt, vk) if s.law == law0]
                except Unavailable as exc:
                    pts_ok = False
                    path_txt = (f"; the T-path (×{PATH_FACTOR} per step) from the point "
                                f"needing the largest constant is not followed: {exc}")
                    break
                plan.append((vk, scs[0], R, A))
            stopped = ""
            for k, (vk, sc, R, A) in enumerate(plan if pts_ok else []):
                x = simulate(sc, runs=RUNS, seed=_seeded(seed, "path", k))
                m, e = bernstein(x, sc.G)
                seq.append((vk, sc, m, e, R, A, (m - e - R) / A))
                lo_k = seq[-1][6]
                if k < len(plan) - 1 and (lo_k <= 0 or (
                        k and lo_k < PATH_GROWTH * seq[-2][6])):
                    # the growth the VIOLATED verdict needs is already broken: the longer
                    # (dearer) steps cannot change the outcome
                    stopped = (f" (stopped: the certified {cname} "
                               + ("is not positive" if lo_k <= 0 else
                                  f"grew less than ×{PATH_GROWTH:g}") + ")")
                    break
            if seq:
                path_txt = ("; T-path from the point needing the largest constant: "
                            + " → ".join(f"T = {s[1].T}: certified {cname} ≥ {s[6]:.4g}"
                                         for s in seq) + stopped)
            lows = [s[6] for s in seq]
            grows = (pts_ok and len(lows) == PATH_STEPS + 1 and lows[0] > 0
                     and all(lows[i + 1] >= PATH_GROWTH * lows[i] for i in range(PATH_STEPS))
                     and lows[-1] >= PATH_TOTAL * lows[0])
            if grows and decidable:
                vk, sc, m, e, R, A, lo = seq[-1]
                w = _witness(vk, sc, m, e, R)
                w["needed_constant_lower"] = repr(lo)
                return Outcome(stmt.label, violated=True, ratio=(m - e) / R if R > 0 else math.inf,
                               witness=w,
                               detail=f"rate {stmt.label} ({self.name}): VIOLATED — no "
                                      f"admissible {cname}: the certified smallest {cname} "
                                      f"grows ×≥{PATH_GROWTH:g} per ×{PATH_FACTOR} in T (×≥{PATH_TOTAL:g} in all) while mean − error "
                                      f"stays above the {cname}-free part{path_txt}; {txt}",
                               samples=n_sc * RUNS)
            if grows:
                path_txt += (f" (grows, but {cname} also enters the algorithm: not decided)")
        top = max(rows, key=lambda rw: rw[2] + rw[3] - rw[4])
        v, sc, m, e, R, A = top
        cval = max(groups[tuple(round(v.get(nm, math.nan), 12) for nm in dep)]["need"], 0.0)
        b = R + cval * A
        return Outcome(stmt.label, ratio=(m + e) / b if b > 0 else None,
                       witness=dict(_witness(v, sc, m, e, b), smallest_constant=repr(cval)),
                       detail=f"rate {stmt.label} ({self.name}): holds on scenarios with "
                              f"existential {cname} — smallest making it hold on the "
                              f"measured truth: {gtxt}{path_txt}; {txt}; {table}",
                       samples=n_sc * RUNS)


def _row_text(row) -> str:
    v, sc, m, e, R, A = row
    par = f"r = {sc.r:g}" if sc.algo == "normalized" else f"C = {sc.C:g}"
    eq = f", drift equilibrium {sc.equilibrium():.4g}" if sc.algo == "normalized" else ""
    return (f"[{sc.law} {par}, noise std {sc.sigma:g}, T = {sc.T}: E min ‖∇f‖ = {m:.4g} ± {e:.2g}"
            f"{eq}, bound part without constants {R:.4g}, coefficient {A:.4g}]")


def _witness(v, sc, m, e, b) -> dict:
    w = {k: repr(float(x)) for k, x in sorted(v.items())}
    w.update({"measured": repr(float(m)), "error": repr(float(e)), "runs": str(RUNS),
              "bound": repr(float(b)), "scenario": repr(sc)})
    return w


truth_provider(MinGradNormRateProvider())

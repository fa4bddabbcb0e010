"""The divergence-row oracle: PROBABILISTIC proof rows between Rényi divergences of one
noisy clipped-gradient step, decided on exact 1-D instances (DESIGN.md, *Truth providers*).

A proof that tracks a (shifted) Rényi divergence through one step of noisy SGD writes rows
such as ``D_α^{(w)}(P_ψ(μ) ‖ P_ψ'(ν)) ≤ D_α(P_ψ(μ') ‖ P_ψ'(ν))`` between *opaque*
divergence symbols.  A row names this oracle and maps each of its opaque symbols to one
quantity of the experiment below (``quantities``), and the experiment's parameters to
expressions in its own symbols (``params``); the oracle then instantiates the row on 1-D
laws where every quantity is computable, in **both orders** of the adjacent pair, and
compares the two sides.

**The experiment** (generic DP-SGD, no paper): a dataset of ``m`` *regular* examples with
the loss ``−(κ/2)θ²`` (κ ∈ {0, L, −L}: zero, concave and convex members of the L-smooth
class) and one *canary* x̄ with the linear loss ``−Cθ`` (L-smooth for every L); the update
of a dataset from θ is ``θ − η((1/b)Σ_{ξ∈B} clip_C(∇l_ξ(θ)) + ϱ)``, ``ϱ`` Gaussian with
standard deviation ``s/η`` (so the noise on θ has sd ``s``), B Poisson-sampled at rate q
(every example independently; |B| is random, the sum is divided by the fixed b) — or, with
``sampling="fixed"`` (a reading where a paper also calls b = |B_t| the batch's size),
exactly b records drawn without replacement (the dataset holding x̄, of N records, draws it
with probability b/N).

* order ``add``: ψ is the update of D (m = n regular examples), ψ' the update of
  D' = D ∪ {x̄}; ψ'' = ψ'(·| x̄ ∈ B).
* order ``remove``: ψ is the update of D (n − 1 regular examples and x̄), ψ' the update of
  D' = D \\ {x̄}; ψ'' = the update of the dataset holding x̄, conditioned on x̄ ∈ B (the
  only law the symbol can name there).

The input laws are finite mixtures of point masses: ν and μ' on two atoms v₁, v₂ far apart
(|v₁ − v₂| > 2z) with weights r and p, μ on the atoms vᵢ + dᵢ (|dᵢ| ≤ z) with weights p.
Then ``W∞(μ, μ') ≤ z`` and, because no mass can move between atoms, ``D^{(z)}(μ‖ν) =
D(μ'‖ν) = D(p‖r)`` exactly.  Every output law is a finite Gaussian mixture (a binomial
mixture over the number of regular examples in the batch).

**Quantities** (the names a row's ``quantities`` argument maps its symbols to):
``out_shift`` D^{(w)}(P_ψ(μ) ‖ P_ψ'(ν)) (w = ``params['w']``); ``out_coupled``
D(P_ψ(μ') ‖ P_ψ'(ν)); ``out_mix`` D(P_ψ(μ') ‖ (1−q)P_ψ(ν) + qP_ψ''(ν)); ``out_same``
D(P_ψ(μ') ‖ P_ψ(ν)); ``out_cond`` D(P_ψ(μ') ‖ P_ψ''(ν)); ``joint_cond``
D(P_{ψ(μ'),μ'} ‖ P_{ψ''(ν),ν}); ``cond_sup_cond`` sup_v D(P_ψ(v) ‖ P_ψ''(v)); ``joint``
D(P_{ψ(μ'),μ'} ‖ P_{ψ'(ν),ν}); ``cond_sup`` sup_v D(P_ψ(v) ‖ P_ψ'(v)); ``in_coupled``
D(P_μ' ‖ P_ν); ``in_shift`` D^{(z)}(P_μ ‖ P_ν); ``sgm`` D_α(N(0,σ²) ‖ (1−q)N(0,σ²) +
qN(1,σ²)) at q = ``params['sgm_q']``, σ = ``params['sgm_sigma']``.  The sup over v runs
over the atoms of μ'.

**Exactness.**  Divergences between Gaussian mixtures are computed by log-space quadrature
(relative error ~1e-12, :func:`checks.truth.divergences.mixture_rdp_1d`), between atoms
exactly.  The shifted divergence ``out_shift`` is *bracketed*: below by threshold tests —
for any P' with W∞(P, P') ≤ w, P'((t, ∞)) ≥ P((t + w, ∞)) and P'((−∞, t)) ≥ P((−∞, t − w)),
so the Rényi divergence of the three cells (−∞, t₁), [t₁, t₂], (t₂, ∞) minimised over the
masses those constraints allow (a separable convex problem solved exactly by its KKT
conditions) is a lower bound (data processing); above by the coupled law P_ψ(μ') when the
synchronous coupling moves every atom by at most w (else +∞).  A row ``lhs ≤ rhs`` is
REFUTED only when lhs evaluated at the lower ends exceeds rhs at the upper ends, re-checked
with every quantity recomputed at 50 digits (mpmath); an equality row is REFUTED when the
two sides' brackets are disjoint.  Otherwise the row is SUPPORTED with the number of
instances and the smallest slack (or UNCHECKED when no instance met the hypotheses).
"""
from __future__ import annotations

import math
import time
import zlib
from dataclasses import dataclass
from dataclasses import replace as _r
from types import SimpleNamespace

import mpmath
import numpy as np
import sympy as sp
from scipy.special import gammaln, ndtr

from checks.plugins import step_oracle
from checks.search import REJECT, targeted
from checks.statements import Space
from checks.truth import divergences as dv
from checks.truth.base import Unavailable, evaluate, exact_value
from checks.truth.divergences import Mixture1D, sgm_rdp
from checks.verdict import StepReport, Verdict
from theory.model import Located, Rel
from theory.registry import symbols_of

NAME = "divergence-row"
QUANTITIES = ("out_shift", "out_coupled", "out_mix", "out_same", "out_cond", "joint_cond",
              "cond_sup_cond", "joint", "cond_sup", "in_coupled", "in_shift", "sgm",
              "next_shift")
PARAMS = ("alpha", "eta", "C", "L", "b", "n", "q", "s", "z", "w")
ORDERS = ("add", "remove")
#: loss curvatures of the regular examples, as multiples of L (concave, zero, convex)
KAPPAS = (1.0, 0.0, -1.0)
#: the largest dataset an instance may have (binomial mixtures of n + 1 components)
N_MAX = 24
#: relative error charged to a quadrature value
REL_ERR = 1e-9
#: the canary's step and the noise must exceed this fraction of the other scales
SCALE_MIN = 1e-6
#: a violation counts only beyond this relative (and absolute) margin
MARGIN = 1e-9
#: orders closer to 1 are skipped (1/(α − 1) amplifies rounding)
ALPHA_MIN = 1.001
#: the largest quadrature (grid points × components) one divergence may cost
MAX_COST = 1e6
CONFIRM_DPS = 50


# --------------------------------------------------------------------------------------
# parsing the row's arguments
def _pairs(text: str) -> list[tuple[str, str]]:
    out = []
    for part in str(text).split(";"):
        part = part.strip()
        if not part:
            continue
        if "=" not in part:
            raise ValueError(f"{NAME}: expected 'name=value' in {text!r}, got {part!r}")
        k, v = part.split("=", 1)
        out.append((k.strip(), v.strip()))
    return out


@dataclass(frozen=True)
class RowSpec:
    quantities: dict          # opaque symbol name -> quantity name
    params: dict              # param name -> sympy expression in the row's symbols
    opaque: frozenset         # the opaque symbols (sympy)
    #: the adjacent orders the row is written for (the paper's case: a line printed for
    #: D' = D ∪ {x̄} only is judged in the add order; the other order is the proof's missing
    #: case, a finding about the proof reported once where the encoding says so)
    orders: tuple = ORDERS
    #: the batch model (a reading where the text admits two: see Instance.sampling)
    sampling: str = "poisson"


def spec_of(loc: Located) -> RowSpec:
    args = dict(loc.step.oracle_args)
    syms = {}
    try:        # the paper's declared symbols (their assumptions: L > 0, b integer, ...)
        syms.update({nm: info.symbol for nm, info in
                     symbols_of(loc.id.split(":", 1)[0]).declared().items()})
    except Exception:       # noqa: BLE001 - a table without declared(): the row's own
        pass
    syms.update({s.name: s for s in loc.step.free_symbols})
    for h in loc.hypotheses:
        if h.expr is not None:
            syms.update({s.name: s for s in h.expr.free_symbols})
        if h.implicit is not None:
            syms.update({s.name: s for s in h.implicit.free_symbols | {h.implicit.var}})
    quantities = {}
    for k, v in _pairs(args.get("quantities", "")):
        if v.split("@", 1)[0] not in QUANTITIES:
            raise ValueError(f"{NAME}: unknown quantity {v!r} for {k} (known: "
                             f"{', '.join(QUANTITIES)})")
        quantities[k] = v
    params = {}
    for k, v in _pairs(args.get("params", "")):
        params[k] = sp.sympify(v, locals=syms)
    for k, v in quantities.items():
        if "@" in v and v.split("@", 1)[1] not in params:
            raise ValueError(f"{NAME}: {k}={v}: no parameter {v.split('@', 1)[1]!r}")
    missing = [p for p in PARAMS if p not in params]
    if missing:
        raise ValueError(f"{NAME}: params must give {', '.join(missing)}")
    orders = tuple(o.strip() for o in str(args.get("orders", ",".join(ORDERS))).split(",")
                   if o.strip())
    if not orders or any(o not in ORDERS for o in orders):
        raise ValueError(f"{NAME}: orders must name some of {', '.join(ORDERS)}, got "
                         f"{args.get('orders')!r}")
    sampling = str(args.get("sampling", "poisson"))
    if sampling not in ("poisson", "fixed"):
        raise ValueError(f"{NAME}: sampling must be 'poisson' or 'fixed', got {sampling!r}")
    opaque = frozenset(s for s in loc.step.free_symbols if s.name in quantities)
    left = [s.name for s in loc.step.free_symbols
            if s not in opaque and not any(s in e.free_symbols for e in params.values())]
    if left:
        raise ValueError(f"{NAME}: the row's symbols {', '.join(sorted(left))} are neither "
                         "mapped to a quantity nor used by a parameter")
    return RowSpec(quantities, params, opaque, orders, sampling)


# --------------------------------------------------------------------------------------
# the experiment
@dataclass(frozen=True)
class Instance:
    """One 1-D instance: parameters, the regular loss curvature, the input atoms."""

    alpha: float
    eta: float
    C: float
    L: float
    b: int
    n: int
    q: float
    s: float
    z: float
    w: float
    kappa: float          # curvature of the regular loss −(κ/2)θ², |κ| ≤ L
    atoms: tuple          # v_i (atoms of ν and μ')
    offsets: tuple        # d_i (μ's atoms are v_i + d_i, |d_i| ≤ z)
    p: tuple              # weights of μ' (and μ)
    r: tuple              # weights of ν
    order: str
    sgm_q: float = 0.0
    sgm_sigma: float = 0.0
    s_next: float = 0.0       # sd of the full step's noise (next_shift)
    w_next: float = -1.0      # shift of next_shift
    domain: float = 0.0       # diameter of K = [−D/2, D/2] (0: no projection)
    shifts: tuple = ()        # (param, value): other output shifts (quantity@param)
    #: the batch: "poisson" (each record with probability q, the sum divided by b) or
    #: "fixed" (exactly b records drawn uniformly without replacement)
    sampling: str = "poisson"

    def describe(self) -> dict:
        d = {k: repr(getattr(self, k)) for k in ("alpha", "eta", "C", "L", "b", "n", "q",
                                                  "s", "z", "w")}
        if self.s_next > 0:
            d.update(s_next=repr(self.s_next), w_next=repr(self.w_next))
        if self.domain > 0:
            d["K"] = f"[−{self.domain / 2:g}, {self.domain / 2:g}]"
        d.update({k: repr(x) for k, x in self.shifts})
        d["order"] = ("D' = D ∪ {x̄} (add)" if self.order == "add"
                      else "D' = D \\ {x̄} (remove)")
        d["regular loss"] = f"−({self.kappa:g}/2)·θ² on each of {self.m} examples"
        if self.sampling != "poisson":
            d["batch"] = f"exactly b = {self.b} records drawn without replacement"
        d["canary loss"] = f"−{self.C:g}·θ"
        d["nu"] = " + ".join(f"{r:g}·δ({v:g})" for v, r in zip(self.atoms, self.r))
        d["mu'"] = " + ".join(f"{p:g}·δ({v:g})" for v, p in zip(self.atoms, self.p))
        d["mu"] = " + ".join(f"{p:g}·δ({v + o:g})"
                             for v, o, p in zip(self.atoms, self.offsets, self.p))
        return d

    @property
    def m(self) -> int:
        """Regular examples in the dataset of ψ (add: n; remove: n − 1, x̄ being in D)."""
        return self.n if self.order == "add" else self.n - 1


def _clip_grad(kappa: float, C: float, theta: float) -> float:
    g = -kappa * theta
    return max(-C, min(C, g))


def _binom_logpmf(m: int, q: float) -> np.ndarray:
    k = np.arange(m + 1)
    if q >= 1.0:
        out = np.full(m + 1, -np.inf)
        out[m] = 0.0
        return out
    return (gammaln(m + 1) - gammaln(k + 1) - gammaln(m - k + 1)
            + k * math.log(q) + (m - k) * math.log1p(-q))


def _regular(inst: Instance, v: float) -> list[tuple[float, float]]:
    """(weight, mean) of the update from v without the canary: the binomial mixture over
    the number k of regular examples in the batch."""
    g = _clip_grad(inst.kappa, inst.C, v)
    lw = _binom_logpmf(inst.m, inst.q)
    out = []
    for k in range(inst.m + 1):
        wk = math.exp(lw[k])
        if wk < 1e-300:
            continue
        out.append((wk, v - inst.eta * k / inst.b * g))
    return out


def _laws_at(inst: Instance, v: float) -> dict[str, list[tuple[float, float]]]:
    """The component lists (weight, mean) of ψ(v), ψ'(v), ψ''(v) and the mixture
    (1−q)ψ(v) + qψ''(v), all with sd s."""
    u = inst.eta * inst.C / inst.b                        # the canary's step (clip_C(−C) = −C)
    if inst.sampling == "fixed":
        # exactly b records: the dataset without x̄ updates by b regular gradients; the one
        # holding it (N records) draws x̄ with probability b/N, then b − 1 regular ones
        g = _clip_grad(inst.kappa, inst.C, v)
        N = inst.n + 1 if inst.order == "add" else inst.n
        qx = inst.b / N
        R = [(1.0, v - inst.eta * g)]
        Rp = [(1.0, v - inst.eta * (inst.b - 1) / inst.b * g + u)]
        withc = [(1 - qx, R[0][1]), (qx, Rp[0][1])]
    else:
        R = _regular(inst, v)
        Rp = [(w, m + u) for w, m in R]
        withc = [(w * (1 - inst.q), m) for w, m in R] + [(w * inst.q, m) for w, m in Rp]
    if inst.order == "add":
        psi, psi1, psi2 = R, withc, Rp
    else:
        psi, psi1, psi2 = withc, R, Rp
    mix = [(w * (1 - inst.q), m) for w, m in psi] + [(w * inst.q, m) for w, m in psi2]
    return {"psi": psi, "psi1": psi1, "psi2": psi2, "mix": mix}


def _mixture(comps, s) -> Mixture1D:
    merged: dict = {}
    for w, m in comps:          # only exactly equal means are merged
        merged[m] = merged.get(m, 0.0) + w
    tot = sum(merged.values())
    ws = tuple(w / tot for w in merged.values())
    return Mixture1D(ws, tuple(merged.keys()), (s,) * len(ws))


def _push(inst: Instance, weights, points, which: str):
    out = []
    for wt, v in zip(weights, points):
        if wt <= 0:
            continue
        out += [(wt * w, m) for w, m in _laws_at(inst, v)[which]]
    return out


def _div(P: Mixture1D, Q: Mixture1D, alpha: float, precise: bool):
    """D_α(P‖Q) (one direction): quadrature in double precision, or at 50 digits."""
    if precise:
        val, rel = _log_integral_mp(P, Q, alpha)
        with mpmath.workdps(CONFIRM_DPS):
            am1 = mpmath.mpf(alpha) - 1
            # |log(I(1 + e)) − log I| ≤ 2e for |e| ≤ 1/2
            return val / am1, 2 * rel / am1
    return dv._log_integral_pq(P, Q, float(alpha), MAX_COST) / (alpha - 1)


#: points per smallest tilted width of the 50-digit trapezoid rule (and twice as many
#: for the check that the two agree)
MP_PTS_PER_WIDTH = 12


def _log_integral_mp(P: Mixture1D, Q: Mixture1D, alpha) -> mpmath.mpf:
    """log ∫ p^α q^{1−α} at 50 digits: the trapezoid rule over ±40 tilted widths around
    every tilted peak (exponentially accurate for these analytic, Gaussian-tailed
    integrands), computed at h = width/12 and at 2h.  Returns (value, relative error):
    the error falls like e^{-c/h}, so the coarse rule's error dominates the fine one's and
    |coarse − fine| is charged as the error; ValueError when it exceeds 1e-6 (a narrow
    analyticity strip: the confirmation then fails rather than guess)."""
    wins = dv._tilt_windows(P, Q, float(alpha))
    if wins is None:
        return mpmath.inf
    with mpmath.workdps(CONFIRM_DPS + 10):
        a = mpmath.mpf(alpha)
        lo = min(c - 40 * w for c, w in wins)
        hi = max(c + 40 * w for c, w in wins)
        h = min(w for _, w in wins) / MP_PTS_PER_WIDTH
        npts = int(math.ceil((hi - lo) / h))
        if npts > 200_000:
            raise ValueError(f"{npts} points at 50 digits: too costly to confirm")
        h = (mpmath.mpf(hi) - lo) / npts
        cP = [(mpmath.log(mpmath.mpf(w)) - mpmath.log(mpmath.mpf(s)), mpmath.mpf(m), mpmath.mpf(s))
              for w, m, s in zip(P.weights, P.means, P.sds)]
        cQ = [(mpmath.log(mpmath.mpf(w)) - mpmath.log(mpmath.mpf(s)), mpmath.mpf(m), mpmath.mpf(s))
              for w, m, s in zip(Q.weights, Q.means, Q.sds)]

        def logmix(cs, x):
            return mpmath.log(mpmath.fsum(mpmath.exp(lw - ((x - m) / s) ** 2 / 2)
                                          for lw, m, s in cs))

        vals = []
        for i in range(npts + 1):
            x = lo + i * h
            vals.append(a * logmix(cP, x) + (1 - a) * logmix(cQ, x))
        top = max(vals)
        coarse = mpmath.fsum(mpmath.exp(v - top) for v in vals[::2]) * 2 * h
        fine = mpmath.fsum(mpmath.exp(v - top) for v in vals) * h
        # the error falls like e^{-c/h}: the coarse rule's error dominates the fine one's,
        # so |coarse − fine| is charged to the fine value as its error
        rel = abs(coarse - fine) / fine + mpmath.mpf(10) ** -(CONFIRM_DPS + 5)
        if rel > mpmath.mpf(10) ** -6:
            raise ValueError("the 50-digit trapezoid rule did not converge")
        # the Gaussian normalisation √(2π) of every component, to the power α + 1 − α = 1
        return mpmath.log(fine) + top - mpmath.log(2 * mpmath.pi) / 2, rel


def _discrete(p, r, alpha, mp=False):
    """D_α of two weight vectors on the same atoms (at 50 digits with ``mp``)."""
    if mp:
        with mpmath.workdps(CONFIRM_DPS):
            a = mpmath.mpf(alpha)
            tot = mpmath.fsum(mpmath.mpf(x)**a * mpmath.mpf(c)**(1 - a)
                              for x, c in zip(p, r) if x > 0)
            return mpmath.log(tot) / (a - 1)
    tot = 0.0
    for a, c in zip(p, r):
        if a > 0:
            if c <= 0:
                return math.inf
            tot += a**alpha * c**(1 - alpha)
    return math.log(tot) / (alpha - 1)


def _joint(p, r, conds, alpha, mp=False):
    """D_α of the joint laws (X, atom): log Σ p_i^α r_i^{1−α} e^{(α−1) D_i} / (α − 1)."""
    if mp:
        with mpmath.workdps(CONFIRM_DPS):
            a = mpmath.mpf(alpha)
            tot = mpmath.fsum(mpmath.mpf(x)**a * mpmath.mpf(c)**(1 - a)
                              * mpmath.exp((a - 1) * d) for x, c, d in zip(p, r, conds) if x > 0)
            return mpmath.log(tot) / (a - 1)
    terms = []
    for a, c, d in zip(p, r, conds):
        if a <= 0:
            continue
        if c <= 0:
            return math.inf
        terms.append(alpha * math.log(a) + (1 - alpha) * math.log(c) + (alpha - 1) * d)
    mx = max(terms)
    return (mx + math.log(sum(math.exp(t - mx) for t in terms))) / (alpha - 1)


# --------------------------------------------------------------------------------------
# the shifted divergence: a lower bound by threshold tests
def _tails(comps, s, ts, right: bool, mp=False, half=None):
    """P((t, ∞)) (right) or P((−∞, t)) for a mixture of N(m, s²), at every t of ``ts``;
    with ``half``, of its projection onto [−half, half] (the tails are the same inside,
    0 beyond the end and the whole mass before the other end)."""
    if mp:
        sgn = 1 if right else -1
        out = []
        for t in ts:
            if half is not None and ((right and t >= half) or (not right and t <= -half)):
                out.append(mpmath.mpf(0))
            elif half is not None and ((right and t < -half) or (not right and t > half)):
                out.append(mpmath.mpf(1))
            else:
                out.append(mpmath.fsum(mpmath.mpf(w) * mpmath.ncdf(sgn * (mpmath.mpf(m) - t) / s)
                                       for w, m in comps))
        return out
    W = np.array([w for w, _ in comps])
    M = np.array([m for _, m in comps])
    ts = np.asarray(ts, dtype=float)
    x = (M[:, None] - ts[None, :]) / s
    out = W @ ndtr(x if right else -x)
    if half is not None:
        if right:
            out = np.where(ts >= half, 0.0, np.where(ts < -half, 1.0, out))
        else:
            out = np.where(ts <= -half, 0.0, np.where(ts > half, 1.0, out))
    return out


def _binary(p, q, alpha):
    """d_α(Bern(p) ‖ Bern(q)) elementwise (numpy), 0 where p ≤ q."""
    p = np.clip(p, 0.0, 1.0)
    q = np.clip(q, 0.0, 1.0)
    with np.errstate(all="ignore"):
        t1 = np.where(p > 0, alpha * np.log(np.where(p > 0, p, 1))
                      + (1 - alpha) * np.log(np.where(q > 0, q, 1e-300)), -np.inf)
        t2 = np.where(p < 1, alpha * np.log1p(-np.where(p < 1, p, 0))
                      + (1 - alpha) * np.log1p(-np.where(q < 1, q, 0)), -np.inf)
        m = np.maximum(t1, t2)
        v = (m + np.log(np.exp(t1 - m) + np.exp(t2 - m))) / (alpha - 1)
    return np.where(p > q, v, 0.0)


def _cells_min(lows, Qs, alpha):
    """min D_α((x_i) ‖ (Q_i)) over x ≥ lows, Σx = 1 (mpmath): the KKT point x_i =
    max(lows_i, λQ_i), λ by bisection (the objective Σ x^α Q^{1−α} is convex, separable)."""
    if any(l > 0 and Q <= 0 for l, Q in zip(lows, Qs)):
        return mpmath.inf
    if sum(lows) >= 1:
        x = [l / sum(lows) for l in lows]
    else:
        lo, hi = mpmath.mpf(0), mpmath.mpf(1)
        while sum(max(l, hi * Q) for l, Q in zip(lows, Qs)) < 1:
            hi *= 2
        for _ in range(3 * mpmath.mp.prec):
            mid = (lo + hi) / 2
            if sum(max(l, mid * Q) for l, Q in zip(lows, Qs)) < 1:
                lo = mid
            else:
                hi = mid
        x = [max(l, hi * Q) for l, Q in zip(lows, Qs)]       # Σx ≥ 1
        tot = sum(x)
        # scaling down the free cells keeps x ≥ lows; the value is then within the
        # bisection's tolerance of the minimum (a lower bound up to 2^-prec)
        free = [i for i in range(len(x)) if x[i] > lows[i]]
        extra = tot - 1
        for i in free:
            take = min(extra, x[i] - lows[i])
            x[i] -= take
            extra -= take
    tot = mpmath.fsum(xi**alpha * Q**(1 - alpha) for xi, Q in zip(x, Qs) if xi > 0)
    return mpmath.log(tot) / (alpha - 1)


def shifted_lower(P_comps, Q_comps, s, w, alpha, *, grid: int = 161, half=None):
    """A lower bound of D_α^{(w)}(P‖Q) for mixtures of N(m, s²) by threshold tests (see
    the module docstring), in double precision.  Returns (bound, (t1, t2))."""
    ms = [m for _, m in P_comps] + [m for _, m in Q_comps]
    ts = np.linspace(min(ms) - 12 * s - w, max(ms) + 12 * s + w, grid)
    if half is not None:
        ts = np.linspace(-half - w - s, half + w + s, grid)
    pr, qr = _tails(P_comps, s, ts + w, True, half=half), _tails(Q_comps, s, ts, True, half=half)
    pl, ql = _tails(P_comps, s, ts - w, False, half=half), _tails(Q_comps, s, ts, False, half=half)
    br, bl = _binary(pr, qr, alpha), _binary(pl, ql, alpha)
    ir, il = int(np.argmax(br)), int(np.argmax(bl))
    best, arg = 0.0, (None, None)
    if br[ir] > best:
        best, arg = float(br[ir]), (None, float(ts[ir]))
    if bl[il] > best:
        best, arg = float(bl[il]), (float(ts[il]), None)
    if br[ir] > 0 and bl[il] > 0 and ts[il] < ts[ir]:
        with mpmath.workdps(20):
            v = float(_three_cells(P_comps, Q_comps, s, w, alpha, float(ts[il]), float(ts[ir]),
                                   half=half))
        if v > best:
            best, arg = v, (float(ts[il]), float(ts[ir]))
    return best, arg


def _three_cells(P_comps, Q_comps, s, w, alpha, t1, t2, half=None):
    """The bound of the cells (−∞, t1), [t1, t2], (t2, ∞) (a threshold None drops its
    cell) at the working precision of mpmath."""
    s, w, alpha = mpmath.mpf(s), mpmath.mpf(w), mpmath.mpf(alpha)
    if t1 is not None and t2 is not None and not t1 < t2:
        return mpmath.mpf(0)
    lows, Qs = [], []
    qmid = mpmath.mpf(1)
    if t1 is not None:
        t1 = mpmath.mpf(t1)
        lows.append(_tails(P_comps, s, [t1 - w], False, mp=True, half=half)[0])
        Qs.append(_tails(Q_comps, s, [t1], False, mp=True, half=half)[0])
        qmid -= Qs[-1]
    if t2 is not None:
        t2 = mpmath.mpf(t2)
        lows.append(_tails(P_comps, s, [t2 + w], True, mp=True, half=half)[0])
        Qs.append(_tails(Q_comps, s, [t2], True, mp=True, half=half)[0])
        qmid -= Qs[-1]
    lows.append(mpmath.mpf(0))
    Qs.append(max(qmid, mpmath.mpf(0)))
    if not any(l > Q for l, Q in zip(lows, Qs)):
        return mpmath.mpf(0)
    return max(_cells_min(lows, Qs, alpha), mpmath.mpf(0))


# --------------------------------------------------------------------------------------
# the quantities of one instance, computed on demand, with brackets
class Values:
    """Quantity name → (low, high) for one instance; computed on first use."""

    def __init__(self, inst: "Instance", precise: bool = False, thresholds=None):
        self.inst, self.precise, self.thresholds = inst, precise, thresholds
        self._got: dict = {}
        self.note: dict = {}
        self.err = mpmath.mpf(0)     # the largest quadrature error so far (precise mode)
        self._laws: dict = {}

    def bracket(self, name: str) -> tuple:
        if name not in self._got:
            if "@" in name:
                base, par = name.split("@", 1)
                w = dict(self.inst.shifts).get(par)
                if base != "out_shift" or w is None or w < 0:
                    raise Unavailable(f"{name}: only out_shift@<a shift ≥ 0>")
                other = Values(_r(self.inst, w=w), self.precise, self.thresholds)
                self._got[name] = other.bracket("out_shift")
                self.note.setdefault("thresholds", other.note.get("thresholds"))
            else:
                self._got[name] = self._compute(name)
        return self._got[name]

    def _exact(self, val, err=None):
        if self.precise:        # computed at 50 digits; the quadratures' errors charged
            e = self.err + mpmath.mpf(10) ** -40 * max(1, abs(val))
            return (val - e, val + e)
        e = REL_ERR * max(1.0, abs(val)) if err is None else err
        return (val - e, val + e)

    def _d(self, P, Q):
        got = _div(P, Q, self.inst.alpha, self.precise)
        if self.precise:
            val, err = got
            self.err = max(self.err, err)
            return val
        return got

    def _conds(self, which: str, of: str = "psi") -> list:
        """D_α(law ``of`` at v ‖ law ``which`` at v) for every atom v."""
        key = ("conds", of, which)
        if key not in self._laws:
            out = []
            for v in self.inst.atoms:
                L = _laws_at(self.inst, v)
                out.append(self._d(_mixture(L[of], self.inst.s), _mixture(L[which], self.inst.s)))
            self._laws[key] = out
        return self._laws[key]

    def _pair(self, which: str) -> object:
        """D_α(P_ψ(μ') ‖ P_which(ν)): the atoms are farther apart than 40 noise sds plus
        every drift, so the clusters do not overlap and the integral splits into one per
        atom (the neglected cross terms are below e^{-200} relative): the joint formula."""
        c = self._conds(which)
        return _joint(self.inst.p, self.inst.r, c, self.inst.alpha, self.precise)

    def _compute(self, name: str) -> tuple:
        inst = self.inst
        a, p, r = inst.alpha, inst.p, inst.r
        if name == "out_coupled":
            return self._exact(self._pair("psi1"))
        if name == "out_mix":
            return self._exact(self._pair("mix"))
        if name == "out_same":
            return self._exact(self._pair("psi"))
        if name == "out_cond":
            return self._exact(self._pair("psi2"))
        if name in ("joint_cond", "joint"):
            c = self._conds("psi2" if name == "joint_cond" else "psi1")
            return self._exact(_joint(p, r, c, a, self.precise))
        if name in ("cond_sup_cond", "cond_sup"):
            c = self._conds("psi2" if name == "cond_sup_cond" else "psi1")
            return self._exact(max(c[i] for i, x in enumerate(p) if x > 0))
        if name in ("in_coupled", "in_shift"):
            d = _discrete(p, r, a, self.precise)
            return self._exact(d, 1e-12 * max(1.0, abs(d)))
        if name == "sgm":
            if not (inst.sgm_sigma > 0 and 0 < inst.sgm_q <= 1):
                raise Unavailable("sgm_q, sgm_sigma out of range")
            if self.precise:
                with mpmath.workdps(CONFIRM_DPS):
                    val = dv._sgm_log_quad_mp(inst.sgm_q, inst.sgm_sigma, a, "remove",
                                              CONFIRM_DPS) / (mpmath.mpf(a) - 1)
                return self._exact(val)
            return self._exact(sgm_rdp(inst.sgm_q, inst.sgm_sigma, a, "remove"))
        if name == "out_shift":
            return self._out_shift()
        if name == "next_shift":
            return self._next_shift()
        raise ValueError(f"{NAME}: unknown quantity {name!r}")

    def _next_shift(self) -> tuple:
        """D^{(w_next)} of the next iterates Π_K(ψ(μ) + ς) and Π_K(ψ'(ν) + ς), ς the rest of
        the step's noise (total sd s_next): bracketed below by threshold tests on the
        projected laws (their tails are the unprojected ones inside K, 0 beyond); above
        by +∞ (no coupling is asserted)."""
        inst = self.inst
        if not inst.s_next > 0 or inst.w_next < 0:
            raise Unavailable("next_shift needs s_next > 0 and w_next ≥ 0")
        mu_pts = [v + o for v, o in zip(inst.atoms, inst.offsets)]
        P_comps = _push(inst, inst.p, mu_pts, "psi")
        Q_comps = _push(inst, inst.r, inst.atoms, "psi1")
        half = inst.domain / 2 if inst.domain > 0 else None
        if self.thresholds is not None:
            low = (_three_cells(P_comps, Q_comps, inst.s_next, inst.w_next, inst.alpha,
                                *self.thresholds, half=half)
                   if self.thresholds != (None, None) else mpmath.mpf(0))
        else:
            low, thr = shifted_lower(P_comps, Q_comps, inst.s_next, inst.w_next, inst.alpha,
                                     half=half)
            self.note["thresholds"] = thr
            low = max(0.0, low - REL_ERR * max(1.0, low))
        return (low, math.inf)

    def _out_shift(self) -> tuple:
        inst = self.inst
        mu_pts = [v + o for v, o in zip(inst.atoms, inst.offsets)]
        P_comps = _push(inst, inst.p, mu_pts, "psi")
        Q_comps = _push(inst, inst.r, inst.atoms, "psi1")
        if self.thresholds is not None:
            low = _three_cells(P_comps, Q_comps, inst.s, inst.w, inst.alpha, *self.thresholds) \
                if self.thresholds != (None, None) else mpmath.mpf(0)
        else:
            low, thr = shifted_lower(P_comps, Q_comps, inst.s, inst.w, inst.alpha)
            self.note["thresholds"] = thr
            low = max(0.0, low - REL_ERR * max(1.0, low))
        # above: the coupled law, when the synchronous coupling moves no atom by more
        # than w (the same batch and noise for μ and μ')
        moved = 0.0
        for v, o in zip(inst.atoms, inst.offsets):
            A = _laws_at(inst, v + o)["psi"]
            B = _laws_at(inst, v)["psi"]
            if len(A) != len(B):
                moved = math.inf
                break
            moved = max(moved, max(abs(x[1] - y[1]) for x, y in zip(A, B)))
        self.note["coupling_moves"] = moved
        hi = self.bracket("out_coupled")[1] if moved <= inst.w * (1 + 1e-12) else math.inf
        return (low, hi)


# --------------------------------------------------------------------------------------
# the search
def _space(loc: Located, spec: RowSpec):
    syms = set()
    for e in spec.params.values():
        syms |= e.free_symbols
    hyps = [h for h in loc.hypotheses
            if not h.is_predicate and h.cls is None
            and not (h.expr is not None and (h.expr.free_symbols & spec.opaque
                                            or not h.expr.free_symbols <= syms))
            and not (h.implicit is not None and not (h.implicit.free_symbols
                                                     | {h.implicit.var}) <= syms)]
    dropped = [str(h.expr) for h in loc.hypotheses
               if h.expr is not None and h.expr.free_symbols & spec.opaque]
    stmt = SimpleNamespace(hypotheses=hyps, free_symbols=syms)
    return Space(stmt), dropped


#: parameter targets where such rows break: a small noise, large orders, a batch that
#: exceeds b often (q large), shifts comparable to one step
ANCHORS = (
    dict(alpha=2.0, beta=0.5, sigma_dp=0.05, eta=1.0, C=1.0, L=1.0, b=2, n=10, z=1.0,
         z_t=1.0, a_t=0.0, D=20.0),
    dict(alpha=128.0, beta=0.99, sigma_dp=1.0, eta=1.0, C=1.0, L=1.0, b=1, n=20, z=0.0),
    dict(alpha=8.0, beta=0.5, sigma_dp=1.0, eta=0.5, C=1.0, L=2.0, b=1, n=20, z=0.3),
    dict(alpha=4.0, beta=0.5, sigma_dp=20.0, eta=1.0, C=1.0, L=1.0, b=2, n=20, z=0.5),
    dict(alpha=16.0, beta=0.3, sigma_dp=0.3, eta=0.1, C=1.0, L=10.0, b=4, n=20, z=0.2),
    dict(alpha=3.0, beta=0.9, sigma_dp=50.0, eta=1.0, C=1.0, L=1.0, b=4, n=20, z=0.0),
)


def _fit(space, v: dict, names) -> dict | None:
    """A drawn point made usable: n capped at N_MAX, b ≤ n; None unless admissible."""
    v = dict(v)
    if "n" in v and v["n"] > N_MAX:
        v["n"] = float(N_MAX)
    if "b" in v and "n" in v and v["b"] > v["n"]:
        v["b"] = float(max(1, int(v["n"]) // 2))
    return space.admissible({k: x for k, x in v.items() if k in names})


def _search_points(space, budget: int, seed: int, consider) -> int:
    """The anchors, then parameter points searched by Hypothesis (seeded; the generate
    phase, then its targeted phase pushing the row's smallest slack down).  ``consider(v)``
    examines every instance at the point v and returns its smallest slack (None when no
    instance met the hypotheses).  Rows under the same hypotheses get the same seed, so
    their generated points — and the quantities computed there — are shared.  Returns the
    number of points examined."""
    names = {d.sym.name for d in space.doms}
    count = 0
    for a in ANCHORS:
        v = space.admissible({k: float(x) for k, x in a.items() if k in names})
        if v is not None:
            count += 1
            consider(v)
    n = max(2, min(24, budget // 500))

    def score(ms, us):
        nonlocal count
        pts = space.from_modes(ms, us)
        v = _fit(space, pts[0], names) if pts else None
        if v is None:
            return REJECT
        count += 1
        r = consider(v)
        if r is not None and math.isfinite(r):
            return float(max(-r, -1e300))
        return None

    try:
        targeted(len(space.doms), score, n=n, seed=seed, label="-slack")
    except Exception as exc:  # noqa: BLE001 - Unsatisfiable: report the points examined
        if type(exc).__name__ not in ("Unsatisfiable", "FailedHealthCheck"):
            raise
    return count


def _instances(spec: RowSpec, v: dict) -> list[Instance]:
    try:
        P = {k: evaluate(e, v) for k, e in spec.params.items()}
    except Unavailable:
        return []
    n, b = P["n"], P["b"]
    if n != int(n) or b != int(b) or n < 2 or b < 1 or n > N_MAX:
        return []
    z, w = max(P["z"], 0.0), max(P["w"], 0.0)
    if not (P["alpha"] >= ALPHA_MIN and P["s"] > 0 and P["eta"] > 0 and P["C"] > 0 and 0 < P["q"] <= 1):
        return []
    u = P["eta"] * P["C"] / b
    if not (u >= SCALE_MIN * P["s"] and P["s"] >= SCALE_MIN * (1 + z + u * n)):
        return []           # the canary's step or the noise lost in rounding: no instance
    dom = P.get("D", 0.0)
    if "w_next" in P and (P["w_next"] < 0 or not P.get("s_next", 0) > 0):
        return []           # the next shift must be ≥ 0 (z_{t+1} of the proof)
    out = []
    gap = 4 * z + 40 * P["s"] + 4 * P["eta"] * P["C"] * n / b + 1.0
    atom_sets = [((0.0,), (z,), (1.0,), (1.0,)),
                 ((z / 2 + P["C"] / max(P["L"], 1e-300) if P["L"] > 0 else 1.0,), (-z,),
                  (1.0,), (1.0,)),
                 ((0.0, gap), (z, -z), (0.7, 0.3), (0.4, 0.6))]
    for kappa in KAPPAS:
        for j, (atoms, offs, p, r) in enumerate(atom_sets):
            if kappa == 0.0 and j == 1:
                continue        # without a regular gradient the atom's place is immaterial
            for order in spec.orders:
                if spec.sampling == "fixed" and (n if order == "add" else n - 1) < b:
                    continue        # a batch of b regular records needs that many
                if dom > 0 and any(abs(x) > dom / 2 for x in
                                   list(atoms) + [v + o for v, o in zip(atoms, offs)]):
                    continue        # the iterates lie in K
                out.append(Instance(P["alpha"], P["eta"], P["C"], P["L"], int(b), int(n),
                                    P["q"], P["s"], z, w, kappa * P["L"], atoms, offs, p, r,
                                    order, P.get("sgm_q", 0.0), P.get("sgm_sigma", 0.0),
                                    P.get("s_next", 0.0), P.get("w_next", -1.0), dom,
                                    tuple(sorted((k, x) for k, x in P.items()
                                                 if k not in PARAMS)), spec.sampling))
    return out


def _orders_text(spec: RowSpec) -> str:
    batch = "" if spec.sampling == "poisson" else ", batches of exactly b records"
    if spec.orders == ORDERS:
        return "both orders" + batch
    return (f"the {', '.join(spec.orders)} order only, the case the row is written for "
            "(the other order is the proof's missing case, not this line's)" + batch)


def _sides(loc: Located, spec: RowSpec, v: dict, vals: Values, mp: bool = False):
    """(lhs low, lhs high, rhs low, rhs high) of the row at the parameter point v and the
    instance values (linear in the opaque symbols: each end at the right bracket)."""
    st = loc.step
    out = []
    for side in (st.lhs, st.rhs):
        lo_sub, hi_sub = {}, {}
        for sym in side.free_symbols:
            if sym in spec.opaque:
                qn = spec.quantities[sym.name]
                coef = sp.diff(side, sym)
                if coef.free_symbols & spec.opaque:
                    raise ValueError(f"{NAME}: the row is not linear in {sym}")
                c = evaluate(coef, v)
                a, b_ = vals.bracket(qn)
                lo_sub[sym.name], hi_sub[sym.name] = (a, b_) if c >= 0 else (b_, a)
        if any(math.isinf(x) for x in list(lo_sub.values()) + list(hi_sub.values())):
            lo_v = -math.inf if any(x == -math.inf for x in lo_sub.values()) else None
            hi_v = math.inf if any(x == math.inf for x in hi_sub.values()) else None
            lo_v = lo_v if lo_v is not None else _ev(side, v, lo_sub, mp)
            hi_v = hi_v if hi_v is not None else _ev(side, v, hi_sub, mp)
            out += [lo_v, hi_v]
        else:
            out += [_ev(side, v, lo_sub, mp), _ev(side, v, hi_sub, mp)]
    return tuple(out)


def _ev(expr, v, sub, mp):
    if mp:
        rep = {}
        for s in expr.free_symbols:
            if s.name in sub:
                rep[s] = sp.Float(mpmath.mpf(sub[s.name]), CONFIRM_DPS)
            else:
                rep[s] = exact_value(v[s.name])
        with mpmath.workdps(CONFIRM_DPS):
            return mpmath.mpf(sp.N(expr.xreplace(rep), CONFIRM_DPS))
    vals = dict(v)
    vals.update(sub)
    return evaluate(expr, vals)


def _violation(rel: Rel, s) -> float:
    """How far the brackets show the row fails (> 0: refuted), else the slack (≤ 0)."""
    llo, lhi, rlo, rhi = s
    tol = MARGIN * max(1, abs(llo), abs(rhi))
    if rel in (Rel.LE, Rel.LT):
        return llo - rhi - tol
    if rel in (Rel.GE, Rel.GT):
        return rlo - lhi - tol
    if rel is Rel.EQ:
        return max(llo - rhi, rlo - lhi) - tol
    raise ValueError(f"{NAME}: relation {rel.value} not supported")


def _slack(rel: Rel, lhs: float, rhs: float) -> float:
    if rel in (Rel.LE, Rel.LT):
        return rhs - lhs
    if rel in (Rel.GE, Rel.GT):
        return lhs - rhs
    return -abs(lhs - rhs)


def _confirm(loc, spec, v, inst: Instance, vals: Values) -> tuple[bool, tuple]:
    thr = vals.note.get("thresholds") or (None, None)
    with mpmath.workdps(CONFIRM_DPS):
        try:
            pv = Values(inst, precise=True, thresholds=thr)
            s = _sides(loc, spec, v, pv, mp=True)
        except Exception:     # noqa: BLE001 - a confirmation that cannot run confirms nothing
            return False, ()
        viol = _violation(loc.step.rel, s)
        return bool(viol > 0), s


_VALUES: dict = {}


def _cached_quantities(inst: Instance) -> Values:
    """One :class:`Values` per instance, shared by the rows checked in this process."""
    got = _VALUES.get(inst)
    if got is None:
        if len(_VALUES) > 20000:
            _VALUES.clear()
        got = _VALUES[inst] = Values(inst)
    return got


def judge(loc: Located, *, budget: int, seed: int) -> StepReport:
    t0 = time.perf_counter()
    st = loc.step
    spec = spec_of(loc)
    space, dropped = _space(loc, spec)
    # seeded by the hypotheses (not the row): rows under the same hypotheses share their
    # instances, and the quantities computed for one are reused by the next
    key = "|".join(sorted(str(h) for h in space.stmt.hypotheses))
    n_inst, worst, per_order = 0, None, {o: None for o in ORDERS}
    cands = []

    def consider(v):
        nonlocal n_inst, worst
        least = None
        for inst in _instances(spec, v):
            try:
                vals = _cached_quantities(inst)
                s = _sides(loc, spec, v, vals)
            except (Unavailable, ValueError, OverflowError, ZeroDivisionError) as exc:
                if isinstance(exc, ValueError) and str(exc).startswith(NAME):
                    raise
                continue
            n_inst += 1
            viol = _violation(st.rel, s)
            mid_l = 0.5 * (s[0] + s[1]) if math.isfinite(s[1]) else s[0]
            mid_r = 0.5 * (s[2] + s[3]) if math.isfinite(s[3]) else s[2]
            sl = _slack(st.rel, mid_l, mid_r)
            least = sl if least is None or sl < least else least
            if worst is None or sl < worst[0]:
                worst = (sl, inst)
            po = per_order[inst.order]
            if po is None or sl < po:
                per_order[inst.order] = sl
            if viol > 0:
                cands.append((-viol, len(cands), v, inst, vals, s))
        return least

    n_pts = _search_points(space, budget, (seed ^ zlib.crc32(key.encode())) & 0xFFFFFFFF,
                           consider)
    # confirm the clearest violations first, small instances (cheap at 50 digits) first;
    # one witness per order, so that the report says in which orders the row fails
    cands.sort(key=lambda c: (c[3].kappa != 0, c[3].n > 12, c[0], c[1]))
    method = f"oracle:{NAME}"
    confirmed = {}
    for order in ORDERS:
        for _, _, v, inst, vals, s in [c for c in cands if c[3].order == order][:3]:
            ok, smp = _confirm(loc, spec, v, inst, vals)
            if ok:
                confirmed[order] = (v, inst, s, smp)
                break
    if confirmed:
        order = next(o for o in ORDERS if o in confirmed)
        v, inst, s, smp = confirmed[order]
        cx = inst.describe()
        cx.update({"lhs": mpmath.nstr(smp[0], 15), "rhs": mpmath.nstr(smp[3], 15),
                   "fails_in": ", ".join(o for o in ORDERS if o in confirmed)})
        holds = [o for o in ORDERS if o not in confirmed]
        return StepReport(loc.id, st.eq, st.kind.value, Verdict.REFUTED, method,
                          counterexample=cx, slack=-float(_violation(st.rel, s)),
                          samples=n_inst, seconds=time.perf_counter() - t0,
                          detail=f"violated on an exact 1-D instance ({cx['order']}, "
                                 f"regular loss {cx['regular loss']}): lhs ≥ "
                                 f"{mpmath.nstr(smp[0], 8)} > rhs ≤ "
                                 f"{mpmath.nstr(smp[3], 8)}, every quantity recomputed "
                                 f"at {CONFIRM_DPS} digits; fails in the order(s) "
                                 f"{cx['fails_in']}"
                                 + (f", no violation found in {', '.join(holds)}"
                                    if holds else "")
                                 + (f"; hypotheses on the divergences themselves not "
                                    f"used: {'; '.join(dropped)}" if dropped else ""))
    if worst is None:
        return StepReport(loc.id, st.eq, st.kind.value, Verdict.UNCHECKED, method,
                          seconds=time.perf_counter() - t0,
                          detail=f"no 1-D instance met the hypotheses in force "
                                 f"({n_pts} parameter points, n ≤ {N_MAX})")
    orders = ", ".join(f"{o}: {per_order[o]:.3g}" for o in ORDERS if per_order[o] is not None)
    verdict = Verdict.CITED if st.kind.value == "CITED" else Verdict.SUPPORTED
    return StepReport(loc.id, st.eq, st.kind.value, verdict, method, slack=worst[0],
                      samples=n_inst, seconds=time.perf_counter() - t0,
                      where={k: str(x) for k, x in worst[1].describe().items()},
                      detail=f"no violation on {n_inst} exact 1-D instances ({n_pts} "
                             f"parameter points: anchors and a Hypothesis search × regular "
                             f"losses κ ∈ {{L, 0, −L}} × input laws × {_orders_text(spec)}); "
                             f"smallest slack per order: {orders}"
                             + (f" ({len(cands)} bracket violations not confirmed at "
                                f"{CONFIRM_DPS} digits)" if cands else ""))


@step_oracle(NAME, arguments={
    "sampling": "(optional) 'poisson' (default: each record with probability q, the sum "
                "divided by b) or 'fixed' (exactly b records drawn without replacement)",
    "orders": "(optional) 'add', 'remove' or 'add,remove' (default): the adjacent orders the "
              "row is written for — a line the paper writes for D' = D ∪ {x̄} only is judged "
              "in the add order",
    "quantities": "'SYMBOL=quantity; …': each opaque divergence symbol of the row and the "
                  "quantity of the one-step experiment it stands for (" + ", ".join(QUANTITIES)
                  + ")",
    "params": "'name=expression; …' for " + ", ".join(PARAMS) + " (and sgm_q, sgm_sigma for "
              "the quantity sgm) in the row's symbols: s the noise sd on θ, w the output shift"},
    supports="rows between (shifted) Rényi divergences of one noisy clipped-gradient step "
             "with Poisson sampling, linear in the divergence symbols")
def divergence_row(loc: Located, *, budget: int, seed: int) -> StepReport:
    """A row between divergences of one noisy clipped-gradient step, on exact 1-D laws."""
    if budget < 1:
        raise ValueError(f"budget must be >= 1, got {budget}")
    return judge(loc, budget=budget, seed=seed)


@step_oracle("no-instance", arguments={
    "reason": "why no 1-D instance can exercise the row (an identity of laws by construction, "
              "a fact about W∞ on the domain, …)"},
    supports="any PROBABILISTIC row: it stays UNCHECKED, with the stated reason instead of "
             "'no oracle named'")
def no_instance(loc: Located, *, budget: int, seed: int) -> StepReport:
    """A row no instance can exercise: UNCHECKED, with the encoder's reason."""
    reason = dict(loc.step.oracle_args).get("reason", "")
    if not reason:
        raise ValueError("no-instance: oracle_args must give a reason")
    return StepReport(loc.id, loc.step.eq, loc.step.kind.value, Verdict.UNCHECKED,
                      "oracle:no-instance", detail=f"no 1-D instance can exercise it: {reason}")

"""Independent references for the last-iterate Rényi divergences of noisy (projected) SGD
on the 1-D scenarios of :mod:`checks.truth.losses` — test and benchmark oracles for the
certified accountant (:mod:`checks.truth.accountant`), written from the definition and
sharing none of its code (only the scenario: its losses, counts and parameters).

* :func:`t1_reference` — T = 1, any losses, projected (DPSGD-DC) or not, at 50 digits
  (mpmath).  From the definition θ_1 = Π_K(θ_0 − η((1/b) Σ_{ξ∈B} clip_C(∇l_ξ(θ_0)) + ζ)),
  ζ ~ N(0, σ_DP²), Poisson sampling with rate q = b/n: every example is in the batch
  independently, so the batch sum is Σ_g k_g·clip(∇l_g(θ_0)) (+ the canary's clipped
  gradient on D') with k_g ~ Binomial(count_g, q); θ_1 before the projection is the
  mixture Σ w_j N(m_j, τ²), τ = ησ_DP, over the distinct means m_j (binomial weights
  convolved exactly, no tail dropped).  Projected, its law is that mixture's density on
  the open interval (lo, hi) plus two atoms Φ((lo − m_j)/τ) and Φ((m_j − hi)/τ); D_α in
  both orders is log(∫_lo^hi p^α q^{1−α} dy + Σ_atoms P^α Q^{1−α})/(α − 1), the integral by
  composite Gauss–Legendre quadrature at 50 digits (40 nodes a panel of width ≤ τ, checked
  against 30) over the part of (lo, hi) where either order's integrand is within e^{−150}
  of its largest value (located on a float grid of τ/20) — what is left out is below the
  50 digits' last.
* :func:`projected_linear_rdp` — the linear canary against zero-loss data, projected, any T
  (float64): composite Gauss–Legendre (Nyström) evolution of the law of θ_t — its density
  on quadrature nodes of the open interval plus the two end atoms, every step in log
  space — and D_α by the same quadrature.  Exact for these smooth densities up to
  ~1e-12 relative (it reproduces :func:`t1_reference` and is stable under doubling the
  nodes: tests/checks/test_accountant_projected.py).
* :func:`unprojected_linear_rdp` — the linear canary without projection, any T (float64):
  θ_T ~ Σ_k Binom(T, q)(k)·N(k·u, Tτ²) with the canary, N(0, Tτ²) without, D_α by the
  trapezoid rule in log space on 10⁵ points (spectrally accurate here).
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
from scipy.special import gammaln, log_ndtr, logsumexp

#: decimal digits of :func:`t1_reference`
DPS = 50


# --------------------------------------------------------------------------------------
# T = 1, any losses, 50 digits

def _t1_mixture(s, with_canary: bool) -> tuple[list, list]:
    """(weights, means) as mpf of θ_1 before the projection (distinct means merged)."""
    q = mpmath.mpf(s.b) / s.n
    eta, b, C = mpmath.mpf(s.eta), mpmath.mpf(s.b), mpmath.mpf(s.C)
    th0 = mpmath.mpf(s.theta0)

    def clipped(loss):
        g = mpmath.mpf(float(np.asarray(loss.grad(np.array([float(s.theta0)])),
                                        float).ravel()[0]))
        return min(max(g, -C), C)

    law = {mpmath.nstr(th0, DPS - 5): (th0, mpmath.mpf(1))}     # mean -> (mean, weight)

    def add(count, g):
        nonlocal law
        if count == 0 or g == 0:
            return
        step = -eta / b * g
        pk = [mpmath.binomial(count, k) * q ** k * (1 - q) ** (count - k)
              for k in range(count + 1)]
        new: dict = {}
        for m, w in law.values():
            for k, p in enumerate(pk):
                if p == 0:
                    continue
                mm = m + k * step
                key = mpmath.nstr(mm, DPS - 5)
                old = new.get(key)
                new[key] = (mm, p * w + (old[1] if old else 0))
        law = new

    for count, loss in s.groups:
        add(int(count), clipped(loss))
    if with_canary:
        add(1, clipped(s.canary))
    ms = [m for m, _ in law.values()]
    ws = [w for _, w in law.values()]
    return ws, ms


def _gl_nodes(n: int):
    """Gauss–Legendre nodes and weights on [−1, 1] at the working precision (numpy's
    float nodes polished by Newton's method on P_n, three-term recurrence in mpmath)."""
    key = (n, mpmath.mp.prec)
    if key not in _GL_CACHE:
        x0, _ = np.polynomial.legendre.leggauss(n)
        xs, ws = [], []
        for x in x0:
            x = mpmath.mpf(float(x))
            for _ in range(100):
                p0, p1 = mpmath.mpf(1), x
                for k in range(2, n + 1):
                    p0, p1 = p1, ((2 * k - 1) * x * p1 - (k - 1) * p0) / k
                dp = n * (x * p1 - p0) / (x * x - 1)
                dx = p1 / dp
                x -= dx
                if abs(dx) < mpmath.mpf(2) ** (-mpmath.mp.prec + 4):
                    break
            p0, p1 = mpmath.mpf(1), x
            for k in range(2, n + 1):
                p0, p1 = p1, ((2 * k - 1) * x * p1 - (k - 1) * p0) / k
            dp = n * (x * p1 - p0) / (x * x - 1)
            xs.append(x)
            ws.append(2 / ((1 - x * x) * dp * dp))
        _GL_CACHE[key] = (xs, ws)
    return _GL_CACHE[key]


_GL_CACHE: dict = {}


def _log_mix_pdf(ws, ms, tau):
    """y -> log Σ w_j φ_τ(y − m_j) at the working precision.  Means on a lattice
    m_0 + jΔ (every scenario of groups with commensurate gradients) are summed as a
    polynomial in e^{Δ(y − m_0)/τ²} (Horner: one exp per point); others term by term."""
    c = -mpmath.log(tau * mpmath.sqrt(2 * mpmath.pi))
    order = sorted(range(len(ms)), key=lambda i: ms[i])
    ms = [ms[i] for i in order]
    ws = [ws[i] for i in order]
    if len(ms) > 2:
        gaps = [v - u for u, v in zip(ms[:-1], ms[1:])]
        d = min(gaps)
        js = [(m - ms[0]) / d for m in ms]
        if all(abs(j - mpmath.nint(j)) < mpmath.mpf(10) ** (10 - DPS) for j in js):
            js = [int(mpmath.nint(j)) for j in js]
            coef = [mpmath.mpf(0)] * (js[-1] + 1)
            for j, w in zip(js, ws):
                coef[j] = w * mpmath.exp(-(j * d) ** 2 / (2 * tau * tau))
            m0 = ms[0]

            def lattice(y):
                u = y - m0
                r = mpmath.exp(d * u / (tau * tau))
                acc = mpmath.mpf(0)
                for cf in reversed(coef):
                    acc = acc * r + cf
                return mpmath.log(acc) - u * u / (2 * tau * tau) + c
            return lattice

    def direct(y):
        ls = [mpmath.log(w) - (y - m) ** 2 / (2 * tau * tau) for w, m in zip(ws, ms)]
        top = max(ls)
        return top + mpmath.log(mpmath.fsum(mpmath.exp(v - top) for v in ls)) + c
    return direct


def _log_mix_float(ws, ms, tau, y):
    lw = np.array([float(mpmath.log(w)) for w in ws])
    m = np.array([float(x) for x in ms])
    z = (y[None, :] - m[:, None]) / tau
    return logsumexp(lw[:, None] - 0.5 * z * z, axis=0) - math.log(tau * math.sqrt(2 * math.pi))


def _regions(keep: np.ndarray, y: np.ndarray, pad: float, lo: float, hi: float):
    """Intervals of [lo, hi] covering every grid point where ``keep`` (padded by ``pad``)."""
    idx = np.nonzero(keep)[0]
    if idx.size == 0:
        return []
    out = []
    start = prev = idx[0]
    for i in idx[1:]:
        if y[i] - y[prev] > 2 * pad:
            out.append((max(lo, y[start] - pad), min(hi, y[prev] + pad)))
            start = i
        prev = i
    out.append((max(lo, y[start] - pad), min(hi, y[prev] + pad)))
    return out


#: Gauss–Legendre nodes per panel of width ≤ τ, and the smaller rule it is checked against
_NODES, _NODES_CHECK = 40, 30
#: the integrand is integrated where it is within e^{−_CUT} of its largest value
_CUT = 150.0


def t1_reference(s, alpha) -> tuple[float, float]:
    """``(D_α(θ_1(D') ‖ θ_1(D)), D_α(θ_1(D) ‖ θ_1(D')))`` at 50 digits (see the module):
    composite Gauss–Legendre quadrature (40 nodes on panels of width ≤ τ, checked against
    30 nodes: they must agree to 10^-45 relative, else ArithmeticError)."""
    a_f = float(alpha)
    if not a_f > 1:
        raise ValueError(f"alpha must be > 1, got {alpha!r}")
    with mpmath.workdps(DPS):
        a = mpmath.mpf(alpha)
        tau = mpmath.mpf(s.eta) * mpmath.mpf(s.sigma_dp)
        tf = float(tau)
        P = _t1_mixture(s, True)
        Q = _t1_mixture(s, False)
        if s.domain is None:
            lo = float(min(min(P[1]), min(Q[1])) - 60 * tau * a)
            hi = float(max(max(P[1]), max(Q[1])) + 60 * tau * a)
        else:
            lo, hi = map(float, s.domain)
        orders = ((P, Q), (Q, P))
        atoms = []
        for A, B in orders:
            if s.domain is None:
                atoms.append(mpmath.mpf(0))
                continue
            mlo, mhi = mpmath.mpf(lo), mpmath.mpf(hi)
            pa = [mpmath.fsum(w * mpmath.ncdf((mlo - m) / tau) for w, m in zip(*X)) for X in (A, B)]
            pb = [mpmath.fsum(w * mpmath.ncdf((m - mhi) / tau) for w, m in zip(*X)) for X in (A, B)]
            atoms.append(pa[0] ** a * pa[1] ** (1 - a) + pb[0] ** a * pb[1] ** (1 - a))
        # where each order's integrand matters (float grid of τ/20): the union of both
        y = np.linspace(lo, hi, int(math.ceil((hi - lo) / (tf / 20))) + 1)
        lp, lq = _log_mix_float(*P, tf, y), _log_mix_float(*Q, tf, y)
        keep = np.zeros(y.shape, bool)
        for (la, lb), at in zip(((lp, lq), (lq, lp)), atoms):
            lf = a_f * la + (1 - a_f) * lb
            top = max(float(np.max(lf)) + math.log(tf),
                      float(mpmath.log(at)) if at > 0 else -math.inf)
            keep |= lf + math.log(tf) >= top - _CUT
        fp, fq = _log_mix_pdf(*P, tau), _log_mix_pdf(*Q, tau)
        fine, check = [], []
        for n, acc in ((_NODES, fine), (_NODES_CHECK, check)):
            xs, ws = _gl_nodes(n)
            tot = [mpmath.mpf(0), mpmath.mpf(0)]
            for u, v in _regions(keep, y, 3 * tf, lo, hi):
                m = max(1, int(math.ceil((v - u) / tf)))
                e = [mpmath.mpf(u) + (mpmath.mpf(v) - mpmath.mpf(u)) * k / m for k in range(m + 1)]
                for pa_, pb_ in zip(e[:-1], e[1:]):
                    c, h = (pa_ + pb_) / 2, (pb_ - pa_) / 2
                    for x, w in zip(xs, ws):
                        yy = c + h * x
                        l1, l2 = fp(yy), fq(yy)
                        tot[0] += h * w * mpmath.exp(a * l1 + (1 - a) * l2)
                        tot[1] += h * w * mpmath.exp(a * l2 + (1 - a) * l1)
            acc.extend(tot)
        out = []
        for k in range(2):
            if abs(fine[k] - check[k]) > mpmath.mpf(10) ** -45 * (fine[k] + atoms[k]):
                raise ArithmeticError(f"t1_reference: the 40- and 30-node rules differ "
                                      f"({fine[k]} vs {check[k]})")
            out.append(float(mpmath.log(fine[k] + atoms[k]) / (a - 1)))
    return out[0], out[1]


# --------------------------------------------------------------------------------------
# linear canary, projected, any T (Nyström / Gauss–Legendre, float64)

def _gl(R, tau, per=16):
    """Composite Gauss–Legendre nodes/log-weights on [−R, R], panels of width ≤ τ."""
    m = max(8, int(math.ceil(2 * R / tau)))
    x0, w0 = np.polynomial.legendre.leggauss(per)
    e = np.linspace(-R, R, m + 1)
    mid, half = (e[1:] + e[:-1]) / 2, (e[1:] - e[:-1]) / 2
    x = (mid[:, None] + half[:, None] * x0[None, :]).ravel()
    w = (half[:, None] * w0[None, :]).ravel()
    return x, np.log(w)


def projected_law_iter(n, b, eta, C, sd, D, T, with_canary, per=16):
    """Yield ``(t, (log density on the GL nodes, log weights, log atom at −R, log atom at
    R))`` for t = 1..T, θ_{t+1} = Π(θ_t + c·ηC/b + N(0, τ²)), c ~ Bernoulli(q) on D', 0 on
    D (θ_0 = 0, K = [−R, R], R = D/2)."""
    q, tau, sh, R = b / n, eta * sd, eta * C / b, D / 2
    x, lw = _gl(R, tau, per)
    comps = [(math.log1p(-q), 0.0), (math.log(q), sh)] if with_canary else [(0.0, 0.0)]
    lnpdf = lambda z: -0.5 * z * z - 0.5 * math.log(2 * math.pi) - math.log(tau)  # noqa: E731
    src_pos, src_lm = np.array([0.0]), np.array([0.0])
    for t in range(1, T + 1):
        dens, alo, ahi = [], [], []
        for lc, s in comps:
            m = src_pos + s
            dens.append(lc + logsumexp(src_lm[:, None] + lnpdf((x[None, :] - m[:, None]) / tau),
                                       axis=0))
            alo.append(lc + logsumexp(src_lm + log_ndtr((-R - m) / tau)))
            ahi.append(lc + logsumexp(src_lm + log_ndtr((m - R) / tau)))
        ld = np.logaddexp.reduce(np.array(dens), axis=0)
        la, lb = np.logaddexp.reduce(alo), np.logaddexp.reduce(ahi)
        yield t, (ld, lw, la, lb)
        src_pos = np.concatenate([x, [-R, R]])
        src_lm = np.concatenate([ld + lw, [la, lb]])


def projected_law(n, b, eta, C, sd, D, T, with_canary, per=16):
    """The law of θ_T of :func:`projected_law_iter`."""
    for _, law in projected_law_iter(n, b, eta, C, sd, D, T, with_canary, per):
        pass
    return law


def _rdp_of_laws(P, Q, a) -> tuple[float, float]:
    lw = P[1]

    def one(A, B):
        terms = np.concatenate([a * A[0] + (1 - a) * B[0] + lw,
                                [a * A[2] + (1 - a) * B[2], a * A[3] + (1 - a) * B[3]]])
        return float(logsumexp(terms)) / (a - 1)
    return one(P, Q), one(Q, P)


def projected_linear_rdp(n, b, eta, C, sd, D, T, a, per=16) -> tuple[float, float]:
    """(forward, backward) D_α of θ_T for the projected linear canary on [−D/2, D/2]."""
    return _rdp_of_laws(projected_law(n, b, eta, C, sd, D, T, True, per),
                        projected_law(n, b, eta, C, sd, D, T, False, per), a)


def projected_linear_curve(n, b, eta, C, sd, D, Ts, alphas, per=16) -> dict:
    """``{(T, α): (forward, backward)}`` of :func:`projected_linear_rdp` from one pass."""
    Ts = sorted(set(int(t) for t in Ts))
    out = {}
    for (t, P), (_, Q) in zip(projected_law_iter(n, b, eta, C, sd, D, Ts[-1], True, per),
                              projected_law_iter(n, b, eta, C, sd, D, Ts[-1], False, per)):
        if t in Ts:
            for a in alphas:
                out[(t, float(a))] = _rdp_of_laws(P, Q, float(a))
    return out


# --------------------------------------------------------------------------------------
# linear canary, unprojected, any T (trapezoid, float64)

def unprojected_linear_rdp(n, b, eta, C, sd, T, a) -> tuple[float, float]:
    """(forward, backward) D_α of θ_T for the linear canary (slope −C, C the clip norm:
    never clipped) against zero-loss data, no projection: log ∫ Q·(P/Q)^λ for λ = α and
    1 − α by the trapezoid rule in log space on 10⁵ points."""
    q, u, s = b / n, eta * C / b, eta * sd * math.sqrt(T)
    k = np.arange(T + 1)
    lw = gammaln(T + 1) - gammaln(k + 1) - gammaln(T - k + 1) + k * math.log(q) \
        + ((T - k) * math.log1p(-q) if q < 1 else np.where(k == T, 0.0, -np.inf))
    span = a * T * u + 40 * s
    x, h = np.linspace(-span, span, 100_001, retstep=True)
    lr = logsumexp(lw[:, None] + (k[:, None] * u * x - (k[:, None] * u) ** 2 / 2) / s ** 2,
                   axis=0)
    lq = -x ** 2 / (2 * s ** 2) - math.log(s * math.sqrt(2 * math.pi))
    out = []
    for lam in (a, 1 - a):
        f = lq + lam * lr
        f[0] -= math.log(2)
        f[-1] -= math.log(2)
        out.append(float((logsumexp(f) + math.log(h)) / (a - 1)))
    return out[0], out[1]

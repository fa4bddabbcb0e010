"""Realised witnesses: a counterexample over problem quantities must be a real instance.

A step written in scalar stand-ins (``gap`` = f(θ) − f*, ``dist`` = ‖θ − θ*‖,
``grad_norm`` = ‖∇f(θ)‖, noise moments …, bound to the paper's symbols by
:attr:`theory.model.Paper.roles`) can be violated at a point that no function attains.
:func:`realise` builds, from the witness values and the typed classes in force, a
concrete instance attaining them:

* the objective: a 2-D quadratic f(θ) = ½(θ − θ*)ᵀdiag(a, c)(θ − θ*) with μ ≤ a ≤ c ≤ L
  (its two curvatures set the ratios gap/dist² and ‖∇f‖/dist independently), or, where
  2·gap > ‖∇f‖·dist (no quadratic can), a 1-D even C¹ function whose curvature is c₁ on
  |t| ≤ s and c₂ beyond (a quadratic with a linear-growth piece), c₁, c₂ ∈ [μ, L];
* every further state (``roles["states"]``, another iterate or an aggregate such as
  min_t E√gap_t) is a point on the same ray θ* + t·u, found by bisection;
* the domain K: the segment through θ* along u of the given diameter, holding every point;
* the gradient noise: a finite law (0 and ±r·e₁) with the witness's E‖a‖ and E‖a‖².

The instance is then re-evaluated at 50 digits (mpmath): each role value must agree with
the witness to 1e-40 (relative), each curvature lie in [μ, L], each point lie in K.
No paper is named here: roles and classes come from the encoding.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import mpmath
import sympy as sp

from theory.classes import (BoundedDomain, BoundedGradient, Convex, LSmooth, Lipschitz,
                            StronglyConvex, classes_in)
from theory.model import thaw_roles

DPS = 50
TOL = mpmath.mpf(10) ** -40
STATE_ROLES = ("gap", "dist", "grad_norm")
NOISE_ROLES = ("noise_sq", "noise_abs")


@dataclass
class Realisation:
    """``applies``: the witness speaks of role quantities; ``ok``: an instance attains
    it (``instance``: what it is, as text); ``why``: when it does not."""

    applies: bool
    ok: bool = False
    instance: dict = field(default_factory=dict)
    why: str = ""


def parse_value(v) -> sp.Expr:
    """A witness value (``"3/2"``, ``"1 + 2*log(3) ≈ 3.19"``, a number) as SymPy."""
    if isinstance(v, sp.Basic):
        return v
    if isinstance(v, (int, float)):
        return sp.nsimplify(v) if isinstance(v, float) else sp.Integer(v)
    s = str(v).split("≈")[0].strip()
    return sp.sympify(s)


def _mp(e) -> mpmath.mpf:
    return mpmath.mpf(sp.N(e, DPS + 10)) if not isinstance(e, mpmath.mpf) else e


def _value(expr, env):
    """expr at the witness (mpmath), or None when a symbol of it is not in the witness."""
    if expr is None:
        return None
    expr = sp.sympify(expr)
    if not expr.free_symbols <= set(env):
        return None
    return _mp(expr.subs({s: env[s] for s in expr.free_symbols}))


def _fmt(x) -> str:
    return mpmath.nstr(x, 12)


def _close(a, b) -> bool:
    return abs(a - b) <= TOL * (1 + abs(b))


# --------------------------------------------------------------------------------------
# objective functions: f(t·u) along the ray u of θ − θ*, gradient norm there
class _Quadratic:
    """f(θ) = ½(a θ₁² + c θ₂²), θ* = 0, θ = d·(cos φ, sin φ) with cos²φ = w."""

    def __init__(self, a, c, w):
        self.a, self.c, self.w = a, c, w
        self.curv = (a, c)

    def point(self, t):
        return (t * mpmath.sqrt(self.w), t * mpmath.sqrt(1 - self.w))

    def gap(self, t):
        x, y = self.point(t)
        return (self.a * x ** 2 + self.c * y ** 2) / 2

    def grad(self, t):
        x, y = self.point(t)
        return mpmath.sqrt((self.a * x) ** 2 + (self.c * y) ** 2)

    def gap_at(self, p):
        return (self.a * p[0] ** 2 + self.c * p[1] ** 2) / 2

    def describe(self):
        return (f"f(θ) = ½(a·θ₁² + c·θ₂²) on R², θ* = 0, a = {_fmt(self.a)}, "
                f"c = {_fmt(self.c)}")


class _TwoPiece:
    """1-D even C¹ function: f'' = c1 on |t| ≤ s, c2 beyond (θ* = 0)."""

    def __init__(self, c1, c2, s):
        self.c1, self.c2, self.s = c1, c2, s
        self.curv = (c1, c2)

    def gap(self, t):
        t = abs(t)
        if t <= self.s:
            return self.c1 * t ** 2 / 2
        return self.c1 * self.s ** 2 / 2 + self.c1 * self.s * (t - self.s) \
            + self.c2 * (t - self.s) ** 2 / 2

    def grad(self, t):
        t = abs(t)
        return self.c1 * t if t <= self.s else self.c1 * self.s + self.c2 * (t - self.s)

    def gap_at(self, p):
        return self.gap(p[0])

    def describe(self):
        return (f"f(θ) on R (even, C¹): f'' = {_fmt(self.c1)} on |θ| ≤ {_fmt(self.s)}, "
                f"{_fmt(self.c2)} beyond (a quadratic with a linear-growth piece); θ* = 0 "
                "(points written (θ, 0))")


def _objective(gap, dist, grad, mu, L):
    """A function in the classes (curvature in [mu, L]) and the distance t of the point
    attaining the given (gap, dist, grad) — None (with why) when none is built."""
    mu = mu if mu is not None else mpmath.mpf(0)
    one = mpmath.mpf(1)

    def ok_curv(*cs):
        return all(c >= mu - TOL * (1 + abs(mu)) and (L is None or c <= L + TOL * (1 + L))
                   and c >= 0 for c in cs)

    if dist is not None and dist == 0:
        if (gap is None or gap == 0) and (grad is None or grad == 0):
            h = mu if mu > 0 else (L if L is not None else one)
            return _Quadratic(h, h, one), mpmath.mpf(0), ""
        return None, None, "θ = θ* (dist = 0) but gap or ‖∇f‖ is positive"
    if dist is None:
        if gap is not None and grad is not None:
            if gap == 0 or grad == 0:
                return None, None, "gap or ‖∇f‖ is zero while the other is not"
            h = grad ** 2 / (2 * gap)
            dist = 2 * gap / grad
        elif gap is not None:
            h = L if L is not None else max(mu, one)
            dist = mpmath.sqrt(2 * gap / h) if h > 0 else mpmath.mpf(0)
        elif grad is not None:
            h = L if L is not None else max(mu, one)
            dist = grad / h
        else:
            h = L if L is not None else max(mu, one)
            dist = mpmath.mpf(0)
        if not ok_curv(h):
            return None, None, f"a quadratic needs curvature {_fmt(h)} outside [μ, L]"
        return _Quadratic(h, h, one), dist, ""
    d = dist
    if gap is None and grad is None:     # the largest curvature: other states reach far
        h = L if L is not None else max(mu, one)
        return _Quadratic(h, h, one), d, ""
    if grad is None:
        h = 2 * gap / d ** 2
        if not ok_curv(h):
            return None, None, (f"gap/dist² = {_fmt(h / 2)} needs curvature {_fmt(h)} "
                                "outside [μ, L]")
        return _Quadratic(h, h, one), d, ""
    if gap is None:
        h = grad / d
        if not ok_curv(h):
            return None, None, f"‖∇f‖/dist = {_fmt(h)} is a curvature outside [μ, L]"
        return _Quadratic(h, h, one), d, ""
    m1, m2 = 2 * gap / d ** 2, grad ** 2 / d ** 2
    var = m2 - m1 ** 2
    if abs(var) <= TOL * (1 + m2):
        if not ok_curv(m1):
            return None, None, f"curvature {_fmt(m1)} outside [μ, L]"
        return _Quadratic(m1, m1, one), d, ""
    if var > 0:            # two curvatures a < m1 < c, weights w, 1 − w
        cands = []
        if m1 > mu:
            cands.append((mu, m1 + var / (m1 - mu)))
        if L is not None and L > m1:
            cands.append((m1 - var / (L - m1), L))
        for a, c in cands:
            if ok_curv(a, c) and a < m1 < c:
                w = (c - m1) / (c - a)
                return _Quadratic(a, c, w), d, ""
        return None, None, ("no curvatures in [μ, L] give both gap/dist² and ‖∇f‖/dist "
                            f"(mean {_fmt(m1)}, second moment {_fmt(m2)})")
    # 2·gap > ‖∇f‖·dist: front-loaded curvature c1 on [0, s], c2 after
    c1s = [L] if L is not None else [4 * m2 / max(m1, TOL), 16 * grad / d]
    for c1 in c1s:
        if c1 * d - grad <= 0:
            continue
        s = (2 * gap - grad * d) / (c1 * d - grad)
        if not (0 <= s < d):
            continue
        c2 = (grad - c1 * s) / (d - s)
        if ok_curv(c1, c2) and c2 <= c1:
            return _TwoPiece(c1, c2, s), d, ""
    return None, None, ("gap > ‖∇f‖·dist/2 needs a front-loaded curvature, and none in "
                        "[μ, L] fits (convexity needs gap ≤ ‖∇f‖·dist)")


def _xy(fn, t):
    if isinstance(fn, _Quadratic):
        return fn.point(t)
    return (t, mpmath.mpf(0))


def _pt(p) -> str:
    return f"({_fmt(p[0])}, {_fmt(p[1])})"


def _diameter(pts):
    return max((mpmath.sqrt((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2)
                for a in pts for b in pts), default=mpmath.mpf(0))


def _place(fn, target, pts, diam, L):
    """(function, point) with gap = target, the hull of pts + point within diam: on the
    ray of θ, or (a quadratic with θ on its first axis) on the second axis with its
    curvature raised to L."""
    t_max = diam if diam is not None else mpmath.mpf(10) ** 12
    t = _ray_point(fn, target, t_max)
    if t is not None:
        p = _xy(fn, t)
        if diam is None or _diameter(pts + [p]) <= diam * (1 + TOL):
            return fn, p
    if isinstance(fn, _Quadratic) and fn.w == 1:
        cs = [fn.c] + ([L] if L is not None and L > fn.c else [])
        for c in cs:
            g = _Quadratic(fn.a, c, fn.w)
            t = mpmath.sqrt(2 * target / c)
            p = (mpmath.mpf(0), t)
            if diam is None or _diameter(pts + [p]) <= diam * (1 + TOL):
                return g, p
    return None


def _ray_point(fn, target_gap, t_max):
    """t ∈ [0, t_max] with fn.gap(t) = target_gap (bisection, 50 digits), or None."""
    if target_gap < 0:
        return None
    if fn.gap(t_max) < target_gap * (1 - TOL):
        return None
    lo, hi = mpmath.mpf(0), t_max
    for _ in range(220):
        mid = (lo + hi) / 2
        if fn.gap(mid) < target_gap:
            lo = mid
        else:
            hi = mid
    return hi


# --------------------------------------------------------------------------------------
def realise(witness: dict, hypotheses, roles) -> Realisation:
    """Build and re-evaluate an instance attaining ``witness`` (symbol name → value): for
    the role quantities of ``roles`` under the classes among ``hypotheses`` (an objective,
    points, a domain, a noise law), for the moments of the declared random variables
    (``roles["random"]``: a finitely supported law, :func:`checks.laws.realise_moments`)
    and for the declared aggregates (``roles["aggregates"]``: a sequence of terms,
    :func:`realise_aggregates`).  ``applies`` when any of them speaks of the witness;
    ``ok`` when every one that does is realised."""
    from checks import laws
    roles = thaw_roles(roles or {})
    with mpmath.workdps(DPS + 10):
        parts = [_realise(witness, hypotheses, roles),
                 laws.realise_moments(witness, roles.get("random", ())),
                 realise_aggregates(witness, roles.get("aggregates", ()))]
    parts = [p for p in parts if p.applies]
    if not parts:
        return Realisation(applies=False)
    bad = [p for p in parts if not p.ok]
    if bad:
        return Realisation(True, False, why=bad[0].why)
    inst: dict = {}
    for p in parts:
        inst.update(p.instance)
    return Realisation(True, True, inst)


def realise_aggregates(witness: dict, aggregates) -> Realisation:
    """The witness's value of each declared aggregate (:class:`theory.stochastic.Aggregate`)
    realised by a sequence of terms: the number of indices evaluated at the witness (an
    integer), the terms the definition fixes one by one at a value in their range, the
    others in the common range — equal where one value fits, else some at an end and one
    in between (a sum), at the aggregate's value (a minimum or maximum) — and the
    aggregate of those terms compared with the witness's value exactly."""
    env = {}
    for k, v in (witness or {}).items():
        try:
            env[k] = parse_value(v)
        except Exception:
            continue
    out = Realisation(applies=False)
    for ag in aggregates or ():
        if ag.symbol.name not in env:
            continue
        out.applies = True
        ok, text = _terms(ag, env)
        if not ok:
            return Realisation(True, False, why=text)
        out.instance[f"terms of {ag.symbol}"] = text
    out.ok = out.applies
    return out


def _exact(e, env):
    """``e`` at the witness, exactly (None when a symbol is missing)."""
    e = sp.sympify(e)
    names = {s.name for s in e.free_symbols}
    if not names <= set(env):
        return None
    return sp.nsimplify(e.subs({s: env[s.name] for s in e.free_symbols}))


def _terms(ag, env):
    """(True, a description of terms realising ``ag`` at the witness) or (False, why none
    does)."""
    S = _exact(ag.symbol, env)
    n = _exact(ag.count, env)
    if n is None or not n.is_Integer or n < 1:
        return False, (f"{ag.symbol}: the number of indices {sp.sstr(ag.count)} is not a positive "
                f"integer at the witness")
    n = int(n)
    if ag.survival:
        return _survival_terms(ag, env, S, n)
    lo, hi = (None if b is None else _exact(b, env) for b in ag.bounds)
    if (ag.bounds[0] is not None and lo is None) or (ag.bounds[1] is not None and hi is None):
        return False, f"{ag.symbol}: the range of its terms is not fixed by the witness"
    fixed: dict = {}
    for i, tlo, thi in ag.terms:
        pos = ag.position(i, n)
        if pos is None or not 0 <= pos < n:
            continue
        a = lo if tlo is None else _exact(tlo, env)
        b = hi if thi is None else _exact(thi, env)
        if (tlo is not None and a is None) or (thi is not None and b is None):
            return False, f"{ag.symbol}: the range of term {i} is not fixed by the witness"
        if pos in fixed:                          # two declarations of one term
            a0, b0 = fixed[pos]
            a = a0 if a is None else (a if a0 is None else sp.Max(a, a0))
            b = b0 if b is None else (b if b0 is None else sp.Min(b, b0))
        fixed[pos] = (a, b)
    for pos, (a, b) in fixed.items():
        if a is not None and b is not None and a > b:
            return False, (f"{ag.symbol}: term {pos} must lie in [{a}, {b}], which is empty at the "
                    "witness")
    free = n - len(fixed)
    name = f"{ag.term or 'term'}"
    if ag.op in ("sum", "count"):
        tlo = [(a if a is not None else lo) for a, _ in fixed.values()]
        thi = [(b if b is not None else hi) for _, b in fixed.values()]
        if any(x is None for x in tlo + thi) or (free and (lo is None or hi is None)):
            return False, f"{ag.symbol}: a term's range is unbounded; no sequence chosen"
        low = sum(tlo, sp.Integer(0)) + free * (lo if free else 0)
        high = sum(thi, sp.Integer(0)) + free * (hi if free else 0)
        if not (low <= S <= high):
            return False, (f"{ag.symbol} = {S} is outside [{low}, {high}], the sums its terms can "
                    "have at the witness")
        # every term from its lower end, raised in turn toward its upper end
        vals = {pos: a for pos, a in zip(fixed, tlo)}
        rest = S - low
        for pos, b in zip(fixed, thi):
            step = sp.Min(rest, b - vals[pos])
            vals[pos] += step
            rest -= step
        if free and ag.open_lower and rest == 0:
            # the free terms must lie strictly above their lower end: take it from the
            # fixed terms raised above their lower ends, if any can give
            give = [pos for pos, a in zip(fixed, tlo) if vals[pos] > a]
            if not give:
                return False, (f"{ag.symbol} = {S}: the terms not fixed one by one must lie "
                        f"strictly above {lo}, and no fixed term can give way")
            d = (vals[give[0]] - tlo[list(fixed).index(give[0])]) / 2
            vals[give[0]] -= d
            rest += d
        common = lo + (rest / free if free else 0)
        if free and not (lo <= common <= hi) or (free and ag.open_lower and common <= lo):
            return False, f"{ag.symbol}: no common value of the free terms fits"
        if ag.op == "count" and free and common not in (0, 1):
            return False, f"{ag.symbol}: a count needs the indices split into 0s and 1s"
        if not free and rest != 0:
            return False, f"{ag.symbol}: the fixed terms cannot sum to {S}"
        total = sum(vals.values(), sp.Integer(0)) + free * common
        if sp.simplify(total - S) != 0:
            return False, f"{ag.symbol}: the chosen terms sum to {total}, not {S}"
        desc = [f"{name} at position {pos} = {v}" for pos, v in sorted(vals.items())]
        if free:
            desc.append(f"the other {free} terms = {sp.nsimplify(common)} each")
        return True, (f"{ag.describe()}: n = {n}; " + "; ".join(desc)
                + f"; {ag.op} = {S} (exact)")
    # min / max: one term at the value, the others on the right side of it
    for pos, (a, b) in fixed.items():
        if (b is not None and b < S and ag.op == "min") or \
                (a is not None and a > S and ag.op == "max"):
            return False, f"{ag.symbol} = {S}: term {pos} cannot be on the right side of it"
    if (lo is not None and S < lo) or (hi is not None and S > hi):
        return False, f"{ag.symbol} = {S} is outside the range of its terms"
    if not free and not any((a is None or a <= S) and (b is None or S <= b)
                            for a, b in fixed.values()):
        return False, f"{ag.symbol} = {S}: no term can take that value"
    return True, (f"{ag.describe()}: n = {n}; one term = {S}, the others "
            f"{'≥' if ag.op == 'min' else '≤'} {S} within their ranges; {ag.op} = {S}")


#: common values tried for the rates not fixed one by one (the last free rate is then
#: solved for exactly), simplest first
_RATES = tuple(sp.Rational(1, k) for k in (2, 4, 10, 100, 10**3, 10**4, 10**6, 10**9)) + (
    sp.Rational(3, 4), sp.Rational(9, 10), sp.Rational(99, 100), sp.Rational(999, 1000))


#: the most indices whose rates are built one by one (exact rationals, a product per term)
MAX_RATES = 200


def _survival_terms(ag, env, S, n):
    """Survival weights term_t = 1 − Π_{τ>t}(1 − a_τ) realising the sum ``S`` over ``n``
    indices: the rates the definition fixes at their values, the others at one common
    value of :data:`_RATES` but the last free one, which the sum fixes (it is affine in
    1 − a_τ); each rate must lie in (0, 1], and the sum of the terms is compared with
    ``S`` exactly."""
    if S is None:
        return False, f"{ag.symbol}: no value at the witness"
    if n > MAX_RATES:
        return False, (f"{ag.symbol}: {n} indices — more than the {MAX_RATES} rates built "
                       "exactly one by one")
    fixed: dict = {}
    for i, v in ag.rates:
        pos = ag.position(i, n)
        if pos is None or not 1 <= pos < n:
            continue
        val = _exact(v, env)
        if val is None or not (0 < val <= 1):
            return False, (f"{ag.symbol}: the rate a_{{{sp.sstr(i)}}} = {val} is not in (0, 1] "
                           "at the witness")
        fixed[pos] = val
    free = [pos for pos in range(1, n) if pos not in fixed]

    def terms_of(rates):
        out, prod = [sp.Integer(0)] * n, sp.Integer(1)
        for t in range(n - 1, -1, -1):       # term_t = 1 − Π_{τ = t+1..n−1}(1 − a_τ)
            out[t] = 1 - prod
            if t >= 1:
                prod *= 1 - rates[t]
        return out

    def show(rates, terms):
        runs: list = []                  # consecutive equal free rates as one run
        for pos in sorted(rates):
            if runs and runs[-1][2] == rates[pos] and runs[-1][1] == pos - 1 and \
                    pos not in fixed and runs[-1][0] not in fixed:
                runs[-1][1] = pos
            else:
                runs.append([pos, pos, rates[pos]])
        rs = "; ".join((f"a_{a}" if a == b else f"a_{a}..a_{b}") + f" = {v}"
                       for a, b, v in runs)

        def num(x):
            return str(x) if len(str(x)) <= 40 else f"≈ {sp.N(x, 15)}"
        ts = ", ".join(num(x) for x in terms) if n <= 12 else (
            ", ".join(num(x) for x in terms[:4]) + ", …, " + ", ".join(
                num(x) for x in terms[-3:]))
        return (f"{ag.describe()}: n = {n}; rates {rs}; terms {ts}; sum = {S} (exact)")

    if not free:
        terms = terms_of(fixed)
        if sp.simplify(sum(terms, sp.Integer(0)) - S) != 0:
            return False, (f"{ag.symbol} = {S}: the rates the definition fixes give the sum "
                           f"{sum(terms, sp.Integer(0))}")
        return True, show(fixed, terms)
    j = free[-1]
    for x in _RATES:
        rates = dict(fixed)
        for pos in free[:-1]:
            rates[pos] = x
        # the sum is affine in u = 1 − a_j: terms t < j carry the factor u
        base = dict(rates)
        base[j] = sp.Integer(0)                           # u = 1
        t1 = terms_of(base)
        base[j] = sp.Integer(1)                           # u = 0
        t0 = terms_of(base)
        s1, s0 = sum(t1, sp.Integer(0)), sum(t0, sp.Integer(0))
        if s0 == s1:
            continue
        u = (s0 - S) / (s0 - s1)
        if not (0 <= u < 1):
            continue
        rates[j] = 1 - u
        terms = terms_of(rates)
        if sp.simplify(sum(terms, sp.Integer(0)) - S) == 0:
            return True, show(rates, terms)
    return False, (f"{ag.symbol} = {S}: no rates in (0, 1] give that sum over {n} indices "
                   "(the rates fixed one by one, the others at a common value and the last "
                   "solved for)")


def _realise(witness, hypotheses, roles) -> Realisation:
    env = {}
    for k, v in (witness or {}).items():
        try:
            env[sp.Symbol(k, real=True)] = parse_value(v)
        except Exception:
            continue
    # match symbols by name (assumptions differ between the paper's symbols and these)
    byname = {s.name: e for s, e in env.items()}

    def val(expr):
        if expr is None:
            return None
        expr = sp.sympify(expr)
        names = {s.name for s in expr.free_symbols}
        if not names <= set(byname):
            return None
        return _mp(expr.subs({s: byname[s.name] for s in expr.free_symbols}))

    main = {k: roles.get(k) for k in STATE_ROLES + NOISE_ROLES + ("diam",)}
    states = [dict(st) for st in roles.get("states", ())]
    quantities = [(k, main[k]) for k in STATE_ROLES + NOISE_ROLES if main[k] is not None]
    quantities += [(k, e) for st in states for k, e in st.items() if k in STATE_ROLES]
    if not any(val(e) is not None for _, e in quantities):
        return Realisation(applies=False)
    classes = classes_in(hypotheses)
    Ls = [val(c.L) for c in classes if isinstance(c, LSmooth)]
    mus = [val(c.mu) for c in classes if isinstance(c, StronglyConvex)]
    L = min((x for x in Ls if x is not None), default=None)
    mu = max((x for x in mus if x is not None), default=None)
    if mu is None and any(isinstance(c, (Convex, LSmooth, StronglyConvex)) for c in classes):
        mu = mpmath.mpf(0)
    diams = [val(c.diameter) for c in classes if isinstance(c, BoundedDomain)]
    diam = val(main["diam"])
    diams = [x for x in diams + [diam] if x is not None]
    diam = min(diams) if diams else None
    Ms = [val(c.M) for c in classes if isinstance(c, Lipschitz)] + \
         [val(c.G) for c in classes if isinstance(c, BoundedGradient)]
    M = min((x for x in Ms if x is not None), default=None)
    if L is not None and mu is not None and mu > L:
        return Realisation(True, False, why=f"μ = {_fmt(mu)} > L = {_fmt(L)}: the classes are empty")

    gap, dist, grad = (val(main[k]) for k in STATE_ROLES)
    fn, t0, why = _objective(gap, dist, grad, mu, L)
    if fn is None:
        return Realisation(True, False, why=why)
    inst: dict[str, str] = {}
    got = {"gap": fn.gap(t0), "dist": t0, "grad_norm": fn.grad(t0)}
    for k, want in (("gap", gap), ("dist", dist), ("grad_norm", grad)):
        if want is not None and not _close(got[k], want):
            return Realisation(True, False, why=f"the built instance misses {k} "
                                                f"({_fmt(got[k])} vs {_fmt(want)})")
    pts = [(mpmath.mpf(0), mpmath.mpf(0)), _xy(fn, t0)]
    inst["θ"] = f"θ = {_pt(pts[1])}: gap = {_fmt(got['gap'])}, dist = {_fmt(t0)}, " \
                f"‖∇f(θ)‖ = {_fmt(got['grad_norm'])}"
    if M is not None and got["grad_norm"] > M * (1 + TOL):
        return Realisation(True, False, why=f"‖∇f(θ)‖ = {_fmt(got['grad_norm'])} exceeds the "
                                            f"Lipschitz/gradient bound {_fmt(M)}")
    for i, st in enumerate(states, 1):
        sg = val(st.get("gap"))
        if sg is None:
            continue
        placed = _place(fn, sg, pts, diam, L)
        if placed is None:
            return Realisation(True, False, why=f"no point of a domain of diameter "
                                                f"{_fmt(diam)} holding θ* and θ has gap = "
                                                f"{_fmt(sg)} on the instance (state {i}: "
                                                f"{sp.sstr(st.get('gap'))})")
        fn, p = placed
        if not _close(fn.gap_at(p), sg):
            return Realisation(True, False, why=f"state {i}: gap {_fmt(fn.gap_at(p))} vs {_fmt(sg)}")
        pts.append(p)
        inst[f"state {i}"] = (f"θ' = {_pt(p)}: gap = {_fmt(fn.gap_at(p))} "
                              f"({sp.sstr(st.get('gap'))} at the witness)")
    inst["f"] = fn.describe()
    width = _diameter(pts)
    if diam is not None:
        if width > diam * (1 + TOL):
            return Realisation(True, False, why=f"the points are {_fmt(width)} apart, more than "
                                                f"diam K = {_fmt(diam)}")
        inst["K"] = (f"the convex hull of θ* and the points above (diameter {_fmt(width)} "
                     f"≤ {_fmt(diam)})")
    curv = fn.curv
    inst["classes"] = (f"curvatures {', '.join(_fmt(c) for c in curv)} in "
                       f"[{_fmt(mu if mu is not None else mpmath.mpf(0))}, "
                       f"{'∞' if L is None else _fmt(L)}]")
    nsq, nabs = val(main["noise_sq"]), val(main["noise_abs"])
    if nsq is not None or nabs is not None:
        law = _noise(nsq, nabs)
        if law is None:
            return Realisation(True, False, why=f"no law has E‖a‖ = {_fmt(nabs)} and "
                                                f"E‖a‖² = {_fmt(nsq)} (Jensen)")
        inst["noise"] = law
    inst["check"] = f"re-evaluated at {DPS} digits (mpmath): every role value attained"
    return Realisation(True, True, inst)


def _noise(nsq, nabs):
    if nsq is not None and nabs is not None:
        if nabs == 0:
            return "a = 0 (no noise)" if nsq == 0 else None
        if nabs ** 2 > nsq * (1 + TOL):
            return None
        r, p = nsq / nabs, nabs ** 2 / nsq
        e1, e2 = p * r, p * r ** 2
        if not (_close(e1, nabs) and _close(e2, nsq)):
            return None
        return (f"a = 0 w.p. {_fmt(1 - p)}, ±{_fmt(r)}·e₁ w.p. {_fmt(p / 2)} each "
                f"(E‖a‖ = {_fmt(e1)}, E‖a‖² = {_fmt(e2)})")
    if (nsq is not None and nsq == 0) or (nabs is not None and nabs == 0):
        return "a = 0 (no noise)"
    if nsq is not None:
        r = mpmath.sqrt(nsq)
        return f"a = ±{_fmt(r)}·e₁ w.p. 1/2 each (E‖a‖² = {_fmt(r ** 2)})"
    return f"a = ±{_fmt(nabs)}·e₁ w.p. 1/2 each (E‖a‖ = {_fmt(nabs)})"


# --------------------------------------------------------------------------------------
# the instance of every finding (what a reviewer re-computes)
def _is_value(v) -> bool:
    try:
        return bool(parse_value(v).is_number)
    except Exception:
        return False


#: witness entries of a typed statement's scenario (the rest are its parameters)
_SCENARIO_KEYS = ("scenario", "method", "path", "statement_label", "order", "fails_in")


def scenario_instance(witness: dict) -> dict:
    """The instance of a typed statement's witness (a VIOLATED statement, a row that takes
    its outcome): the scenario, how its truth was computed, and the truth against the
    bound."""
    w = witness or {}
    out = {k: str(w[k]) for k in _SCENARIO_KEYS if k in w}
    if "truth_max" in w or "bound" in w:
        t = (f"truth {w.get('truth_max', '?')} (add {w.get('truth_add', '?')}, remove "
             f"{w.get('truth_remove', '?')}, error ± {w.get('truth_error', '?')}) > bound "
             f"{w.get('bound', '?')}")
        out["truth"] = t
    params = [k for k, v in w.items() if k not in _SCENARIO_KEYS and not k.startswith(
        ("truth", "bound")) and _is_value(v)]
    if params:
        out["parameters"] = ", ".join(f"{k} = {w[k]}" for k in params)
    return out


def witness_instance(step) -> dict:
    """The instance behind a REFUTED row that no realisation described
    (:class:`checks.verdict.StepReport`): a typed statement's scenario, the objects a step
    oracle evaluated (a law, a loss, an order of the pair — the text entries of its
    witness), or, for a scalar row, the witness itself: every symbol is a number the
    hypotheses in force allow and none is a declared state role, moment or aggregate."""
    cx = step.counterexample or {}
    if step.method == "statement" or "scenario" in cx:
        return scenario_instance(cx)
    text = {k: str(v) for k, v in cx.items() if not _is_value(v)}
    if step.method.startswith("oracle:"):
        out = dict(text)
        out["check"] = (f"evaluated by the {step.method[len('oracle:'):]} oracle on this "
                        "instance (its detail gives the evidence)")
        return out
    return {"point": "the witness itself: every symbol is a number the hypotheses in force "
                     "allow; none is a declared state role, moment or aggregate",
            "check": "every hypothesis in force and the negated line re-checked at 50 and "
                     "80 digits, with exact signs"}

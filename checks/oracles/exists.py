"""The ``exists`` step oracle: claims of the form "for every admissible value of the other
parameters there is a value of ``var`` in (lower, upper) with ``lhs REL rhs``".

A paper states such a claim as a row of its own (a PROBABILISTIC or CITED step naming
``oracle="exists"``), typically with ``lhs = 0`` and ``rhs`` the worst slack of several
conditions (``Min(c1, c2, …)``, each ``ci ≥ 0`` meaning satisfied).  The oracle:

1. draws admissible points of the *other* free symbols (the hypotheses in force, integers
   where the symbols are integers, as the statement checks do) and pushes each continuous
   symbol to the edge of its admissible range (bisection toward 0 and toward ∞: the edges
   are where existence claims fail);
2. at each point maximises the slack ``rhs − lhs`` (oriented: ≥ 0 is good) over ``var`` by
   a dense scan in a coordinate that resolves both ends of (lower, upper), then a golden
   refinement, in floating point;
3. at the worst point, if the best slack is negative, **certifies** that no value of
   ``var`` works: interval arithmetic (mpmath ``iv``, 50 digits) bounds the slack above
   on boxes covering the whole closed range [lower, upper] (ends included, infinite
   interval values allowed), splitting boxes until every box's upper bound is < 0.

Hypotheses in force that mention ``var`` are conditions on the witness: their slacks join
the minimum (a witness must satisfy them too).

Verdicts: REFUTED only with that certificate (the witness: the parameters, the best
slack found and where); SUPPORTED when a good value was found at every point tried (the
budget and the smallest best slack); UNCHECKED with the reason when the search found no
good value but the certificate did not close (too many boxes).
"""
from __future__ import annotations

import math
import time
from types import SimpleNamespace

import mpmath
import numpy as np
import sympy as sp

from checks.claim import lambdify
from checks.falsify import holds_at
from checks.plugins import step_oracle
from checks.statements import Space
from checks.verdict import StepReport, Verdict
from theory.model import Located

#: boxes the certificate may split before giving up
MAX_BOXES = 20000
#: scan points per parameter point
SCAN = 1500
_DPS = 50


def _slack_expr(step) -> sp.Expr:
    rel = step.rel.value
    if rel in ("<=", "<"):
        return sp.sympify(step.rhs - step.lhs)
    if rel in (">=", ">"):
        return sp.sympify(step.lhs - step.rhs)
    raise ValueError("the exists oracle needs an inequality (<=, <, >=, >)")


def _iv_min(*xs):
    return mpmath.iv.mpf([min(x.a for x in xs), min(x.b for x in xs)])


def _iv_max(*xs):
    return mpmath.iv.mpf([max(x.a for x in xs), max(x.b for x in xs)])


def _as_iv(x):
    return x if isinstance(x, mpmath.ctx_iv.ivmpf) else mpmath.iv.mpf(x)


def _iv_fn(expr, var):
    iv = mpmath.iv
    mods = {"log": lambda x: iv.log(_as_iv(x)), "sqrt": lambda x: iv.sqrt(_as_iv(x)),
            "exp": lambda x: iv.exp(_as_iv(x)), "Min": _iv_min, "Max": _iv_max,
            "E": iv.e, "pi": iv.pi, "mpf": iv.mpf}
    return lambdify(var, expr, modules=[mods, "mpmath"])


def _float_fn(expr, var):
    f = lambdify(var, expr, modules=["numpy"])

    def g(x):
        with np.errstate(all="ignore"):
            y = np.asarray(f(x), dtype=float) * np.ones_like(x)
        return np.where(np.isfinite(y), y, -np.inf)
    return g


def _grid(lo: float, hi: float, n: int) -> np.ndarray:
    """Points of (lo, hi) dense near both ends (geometric offsets) and uniform inside."""
    w = hi - lo
    k = n // 3
    off = w * np.logspace(-15, -1, k)
    return np.unique(np.concatenate([lo + off, hi - off, np.linspace(lo, hi, n - 2 * k + 2)[1:-1]]))


def _float_fn_of(expr, var, others):
    """``expr`` as a numpy function of (var, *others), compiled once per step: evaluating
    it at a parameter point costs a call, not a substitution and a new lambdify."""
    f = lambdify([var, *others], expr, modules=["numpy"])

    def at(values):
        def g(x):
            with np.errstate(all="ignore"):
                y = np.asarray(f(x, *values), dtype=float) * np.ones_like(x)
            return np.where(np.isfinite(y), y, -np.inf)
        return g
    return at


def best_value(expr, var, lo: float, hi: float, fn=None) -> tuple[float, float]:
    """max over var in (lo, hi) of expr (float scan + golden refinement): (slack, argmax).
    ``fn``: the expression already compiled as a numpy function of ``var``."""
    f = fn if fn is not None else _float_fn(expr, var)
    xs = _grid(lo, hi, SCAN)
    ys = f(xs)
    i = int(np.argmax(ys))
    a, b = xs[max(i - 1, 0)], xs[min(i + 1, len(xs) - 1)]
    gr = (math.sqrt(5) - 1) / 2
    for _ in range(80):
        c, d = b - gr * (b - a), a + gr * (b - a)
        if f(np.array([c]))[0] >= f(np.array([d]))[0]:
            b = d
        else:
            a = c
    x = 0.5 * (a + b)
    y = float(f(np.array([x]))[0])
    return (y, x) if y >= ys[i] else (float(ys[i]), float(xs[i]))


def certify_none(expr, var, lo, hi, max_boxes: int = MAX_BOXES) -> tuple[bool, int]:
    """True when interval arithmetic (50 digits) shows expr < 0 on all of [lo, hi]."""
    expr = sp.sympify(expr)
    expr = expr.xreplace({x: sp.Rational(str(x)) for x in expr.atoms(sp.Float)})
    f = _iv_fn(expr, var)
    iv = mpmath.iv
    stack = [(mpmath.mpf(lo), mpmath.mpf(hi))]
    boxes = 0
    with mpmath.workdps(_DPS):
        iv.dps = _DPS
        while stack:
            a, b = stack.pop()
            boxes += 1
            if boxes > max_boxes:
                return False, boxes
            try:
                y = _as_iv(f(iv.mpf([a, b])))
                ub = y.b
            except (ValueError, ZeroDivisionError, TypeError, NotImplementedError, OverflowError):
                ub = mpmath.inf
            if ub < 0:
                continue
            m = (a + b) / 2
            if not (a < m < b):
                return False, boxes
            stack += [(a, m), (m, b)]
    return True, boxes


def edges(space, v: dict, names) -> list[dict]:
    """v moved to the edge of the admissible range of each continuous symbol (others
    fixed): bisection between v and the first inadmissible value ×/÷ 10^k."""
    out = []
    for name in names:
        x0 = v[name]
        if x0 == 0:
            continue
        for factor in (0.1, 10.0):
            good, bad = x0, None
            x = x0
            for _ in range(30):
                x *= factor
                if space.admissible(dict(v, **{name: x})) is None:
                    bad = x
                    break
                good = x
            if bad is None:
                continue
            for _ in range(60):
                mid = math.sqrt(good * bad) if good > 0 and bad > 0 else 0.5 * (good + bad)
                if space.admissible(dict(v, **{name: mid})) is None:
                    bad = mid
                else:
                    good = mid
            w = space.admissible(dict(v, **{name: good}))
            if w is not None:
                out.append(w)
    return out


@step_oracle("exists", arguments={
    "var": "the name of the witness symbol (e.g. 'beta')",
    "lower": "lower end of its range (a SymPy expression in the other symbols, default 0)",
    "upper": "upper end of its range (a SymPy expression in the other symbols, default 1)"},
    supports="'for every admissible parameter there is var in (lower, upper) with lhs REL "
             "rhs' (rhs typically Min of several slacks)")
def exists_oracle(loc: Located, *, budget: int, seed: int) -> StepReport:
    """For every admissible parameter point, is there a witness var in (lower, upper)?"""

    t0 = time.perf_counter()
    st = loc.step
    args = dict(st.oracle_args)
    vname = str(args.get("var", ""))
    syms = {s.name: s for s in st.free_symbols}
    for h in loc.hypotheses:
        if h.expr is not None:
            syms.update({s.name: s for s in h.expr.free_symbols})
    if vname not in syms:
        raise ValueError(f"exists: var {vname!r} is not a free symbol of the step")
    var = syms[vname]
    lo_e, hi_e = sp.sympify(args.get("lower", "0")), sp.sympify(args.get("upper", "1"))
    slack = _slack_expr(st)
    # hypotheses on the witness itself are conditions it must meet: part of the slack
    on_var = [h.expr for h in loc.hypotheses if h.expr is not None and var in h.expr.free_symbols]
    for h in on_var:
        if not isinstance(h, sp.core.relational.Relational) or h.rel_op in ("==", "!="):
            return StepReport(loc.id, st.eq, st.kind.value, Verdict.UNCHECKED, "oracle:exists",
                              detail=f"a hypothesis on {vname} that is not an inequality: {h}")
        slack = sp.Min(slack, (h.rhs - h.lhs) if h.rel_op in ("<=", "<") else (h.lhs - h.rhs))
    hyps = [h for h in loc.hypotheses if h.expr is None or var not in h.expr.free_symbols]
    others = (st.free_symbols | lo_e.free_symbols | hi_e.free_symbols) - {var}
    space = Space(SimpleNamespace(hypotheses=tuple(hyps), free_symbols=others))
    if space.predicates:
        return StepReport(loc.id, st.eq, st.kind.value, Verdict.UNCHECKED, "oracle:exists",
                          detail="a named-predicate hypothesis: the parameter space is unknown")
    rng = np.random.default_rng(seed)
    pts = space.draw(rng, max(8, min(int(budget), 64)))
    cont = [d.sym.name for d in space.doms if not d.integer]
    cands = list(pts)
    for v in pts[: max(4, min(int(budget), 24))]:
        cands += edges(space, v, cont)
    if not cands:
        return StepReport(loc.id, st.eq, st.kind.value, Verdict.UNCHECKED, "oracle:exists",
                          detail="no admissible parameter point found")
    worst = None
    params = sorted((slack.free_symbols | lo_e.free_symbols | hi_e.free_symbols) - {var},
                    key=lambda s_: s_.name)
    at = _float_fn_of(slack, var, params)
    lo_f = lambdify(params, lo_e, modules=["math"])
    hi_f = lambdify(params, hi_e, modules=["math"])
    for v in cands:
        if any(p.name not in v for p in params):
            continue
        vals = [float(v[p.name]) for p in params]
        try:
            lo, hi = float(lo_f(*vals)), float(hi_f(*vals))
        except (ValueError, ZeroDivisionError, OverflowError):
            continue
        if not lo < hi:
            continue
        y, x = best_value(None, var, lo, hi, fn=at(vals))
        if worst is None or y < worst[0]:
            worst = (y, x, v, None, lo, hi)
    n_pts = len(cands)
    if worst is None:
        return StepReport(loc.id, st.eq, st.kind.value, Verdict.UNCHECKED, "oracle:exists",
                          detail=f"no admissible parameter point with {lo_e} < {hi_e}")
    y, x, v, _, lo, hi = worst
    where = {k: f"{val:.10g}" for k, val in v.items()}
    if y >= 0:
        return StepReport(loc.id, st.eq, st.kind.value, Verdict.SUPPORTED, "oracle:exists",
                          slack=y, samples=n_pts, seconds=time.perf_counter() - t0,
                          where=dict(where, **{vname: f"{x:.10g}"}),
                          detail=f"a witness {vname} in ({lo_e}, {upper_txt(hi_e)}) found at each of "
                                 f"{n_pts} admissible parameter points; smallest best slack "
                                 f"{y:.4g}")
    # certify at 50 digits with exact parameters
    exact = {syms[k]: (sp.Integer(int(val)) if float(val).is_integer() else sp.Rational(repr(val)))
             for k, val in v.items() if k in syms and syms[k] != var}
    # a defined symbol (a hypothesis sym = expr) takes its exact value from its definition
    for dsym, dexpr in space.definitions:
        if dsym in exact or dsym.name in syms:
            exact[syms.get(dsym.name, dsym)] = dexpr.subs(exact)
    for h in hyps:
        if h.expr is not None and h.expr.free_symbols <= set(exact):
            if holds_at(h.expr, exact, _DPS) is not True:     # undecided: not held
                return StepReport(loc.id, st.eq, st.kind.value, Verdict.UNCHECKED, "oracle:exists",
                                  samples=n_pts, seconds=time.perf_counter() - t0,
                                  detail=f"best slack {y:.4g} < 0 at {where} but the exact point "
                                         f"fails {h.expr} at {_DPS} digits")
    e_exact = slack.subs(exact)
    lo_x, hi_x = lo_e.subs(exact), hi_e.subs(exact)
    ok, boxes = certify_none(e_exact, var, sp.N(lo_x, _DPS), sp.N(hi_x, _DPS))
    if ok:
        cx = {str(s): str(val) for s, val in exact.items()}
        cx[f"max_{vname}_slack"] = f"{y:.6g} at {vname}={x:.6g}"
        return StepReport(loc.id, st.eq, st.kind.value, Verdict.REFUTED, "oracle:exists",
                          counterexample=cx, slack=y, samples=n_pts,
                          seconds=time.perf_counter() - t0, where=where,
                          detail=f"no {vname} in [{lo_x}, {sp.N(hi_x, 8)}]: interval arithmetic at "
                                 f"{_DPS} digits bounds {'rhs − lhs' if st.rel.value in ('<=', '<') else 'lhs − rhs'} "
                                 f"below 0 on {boxes} boxes covering the range; best slack found "
                                 f"{y:.6g} at {vname} = {x:.6g}")
    return StepReport(loc.id, st.eq, st.kind.value, Verdict.UNCHECKED, "oracle:exists",
                      slack=y, samples=n_pts, seconds=time.perf_counter() - t0, where=where,
                      detail=f"no witness found at {where} (best slack {y:.4g} at {vname} = {x:.4g}) "
                             f"but the interval certificate did not close in {boxes} boxes")


def upper_txt(e) -> str:
    return str(e)

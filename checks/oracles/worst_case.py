"""The ``worst-case`` step oracle: a line about expectations over a random vector that
holds "for every law with these moment constraints and this support" is judged against
the exact worst case over **finitely supported** laws, a linear programme (scipy
``linprog``, HiGHS).

A paper states such a line with stand-in symbols for the expectations
(``E_h`` for E[h], …) and names the law on the step::

    Step("eq-17", eta * E_hg - eta * alpha * E_h * s**2, ">=", eta * A, PROBABILISTIC,
         oracle="worst-case", oracle_args={
             "coords": ("a_", "b_"),                        # the law's coordinates
             "box": (("a_", -R, R), ("b_", 0, R)),          # a box holding the support
             "support": a_**2 + b_**2 <= R**2,              # the support (almost surely)
             "moments": (a_,),                              # E[m] = 0 for each m
             "expect": (("E_hg", phi_hg), ("E_h", phi_h))}) # stand-in = E[integrand]

The oracle:

1. checks that the oriented slack (``rhs − lhs`` for ≤, ``lhs − rhs`` for ≥; both for =)
   is **affine** in the stand-ins — then E[slack] = E[c₀ + Σ cⱼ φⱼ] is linear in the law;
2. draws admissible points of the other parameters (the hypotheses in force, as the
   statement checks do) and pushes each continuous parameter to both edges of its
   admissible range;
3. at each point minimises E[slack] over laws supported on a grid of the box (cut by the
   support relation) subject to Σp = 1 and E[m] = 0 — an LP whose optimum is attained on
   at most 1 + #moments points — then refines the grid around the optimal atoms;
4. a negative optimum is re-checked **exactly**: parameters and atoms rationalised, the
   support relation and every hypothesis in force decided at 50 digits, the probabilities
   re-solved exactly from the moment equations (non-negative), and E[slack] evaluated
   with mpmath at 50 digits.  Only then REFUTED, the witness being the parameters and the
   law (atoms and probabilities).

Any feasible grid law is a law of the class, so a negative value is a real
counterexample; a non-negative grid optimum is evidence only (SUPPORTED, with the
smallest optimum and where), since the worst law may sit off the grid.
"""
from __future__ import annotations

import time
from fractions import Fraction
from types import SimpleNamespace

import mpmath
import numpy as np
import sympy as sp

from checks.claim import lambdify
from checks.falsify import holds_at
from checks.laws import grid as _grid, lp_min as _lp_min, near as _near, rat as _rat
from checks.oracles.exists import edges
from checks.plugins import step_oracle
from checks.statements import Space
from checks.verdict import StepReport, Verdict
from theory.model import Located

_DPS = 50
#: grid points per coordinate (screening pass, fine pass) and around each atom (refinement)
COARSE = 13
GRID = 41
REFINE = 15
#: parameter points: random draws, how many of them are pushed to the edges, and how many
#: of the worst screened points get the fine LP
DRAWS = 40
EDGE_FROM = 3
FINE = 3
DESCENT = 2
#: a slack below -TOL (relative to the size of the terms) is a candidate counterexample;
#: above -NOISE it is floating-point noise when the exact re-check does not confirm it
TOL = 1e-9
NOISE = 1e-6
#: candidates (the most negative first) the exact re-check tries
CERTIFY = 4


class _Unusable(Exception):
    pass


def _oriented(step):
    rel = step.rel.value
    if rel in ("<=", "<"):
        return [sp.sympify(step.rhs - step.lhs)]
    if rel in (">=", ">"):
        return [sp.sympify(step.lhs - step.rhs)]
    return [sp.sympify(step.rhs - step.lhs), sp.sympify(step.lhs - step.rhs)]


def linearise(slack: sp.Expr, standins: dict, integrands: dict) -> sp.Expr:
    """``slack`` (affine in the stand-ins) as the integrand c₀ + Σ cⱼ φⱼ; raise
    :class:`_Unusable` when it is not affine in them."""
    syms = list(standins.values())
    for a in syms:
        for b in syms:
            if sp.simplify(sp.diff(slack, a, b)) != 0:
                raise _Unusable(f"the line is not affine in the expectations ({a}, {b})")
    base = slack.subs({a: 0 for a in syms})
    out = base
    for name, a in standins.items():
        out += sp.diff(slack, a) * integrands[name]
    return out


class _Law:
    """The compiled pieces of one step: integrand, moments and support as numpy functions
    of (coords…, params…)."""

    def __init__(self, coords, params, integrand, moments, support, box):
        self.coords, self.params = coords, params
        allv = [*coords, *params]
        self.f = lambdify(allv, integrand, modules=["numpy"])
        # the size of the terms: Σ|term| of the integrand (relative slacks, no false alarm
        # from cancellation)
        self.mag = lambdify(allv, sum(sp.Abs(t) for t in sp.Add.make_args(integrand)),
                            modules=["numpy"])
        self.m = [lambdify(allv, m, modules=["numpy"]) for m in moments]
        self.support = support
        self.sup_f = None
        if support is not None:
            gap = (support.rhs - support.lhs) if support.rel_op in ("<=", "<") \
                else (support.lhs - support.rhs)
            self.sup_f = lambdify(allv, gap, modules=["numpy"])
        self.box = [(lambdify(params, lo, modules=["math"]),
                     lambdify(params, hi, modules=["math"])) for _, lo, hi in box]

    def bounds(self, pv):
        return [(float(lo(*pv)), float(hi(*pv))) for lo, hi in self.box]

    def evaluate(self, pts: np.ndarray, pv):
        cols = [pts[:, i] for i in range(pts.shape[1])]
        with np.errstate(all="ignore"):
            ok = np.ones(pts.shape[0], dtype=bool)
            if self.sup_f is not None:
                g = np.asarray(self.sup_f(*cols, *pv), dtype=float) * np.ones(pts.shape[0])
                ok &= g >= 0
            v = np.asarray(self.f(*cols, *pv), dtype=float) * np.ones(pts.shape[0])
            self.last_mag = np.asarray(self.mag(*cols, *pv), dtype=float) * np.ones(pts.shape[0])
            ms = [np.asarray(m(*cols, *pv), dtype=float) * np.ones(pts.shape[0])
                  for m in self.m]
        ok &= np.isfinite(v)
        for m in ms:
            ok &= np.isfinite(m)
        return ok, v, np.array(ms) if ms else np.zeros((0, pts.shape[0]))


def worst_at(law: _Law, pv, grid: int = GRID, passes: int = 2
             ) -> tuple[float, np.ndarray, np.ndarray, float] | None:
    """(min E[slack], atoms, probabilities, scale) at the parameter values ``pv``."""
    bounds = law.bounds(pv)
    if any(not (np.isfinite(lo) and np.isfinite(hi)) or hi < lo for lo, hi in bounds):
        return None
    pts = _grid(bounds, grid)
    best = None
    for _ in range(passes):
        ok, v, ms = law.evaluate(pts, pv)
        if not ok.any():
            return None
        pts_ok, v_ok, ms_ok = pts[ok], v[ok], ms[:, ok]
        got = _lp_min(v_ok, ms_ok)
        if got is None:
            return None
        val, p = got
        keep = p > 1e-12
        atoms, probs = pts_ok[keep], p[keep]
        mag = law.last_mag[ok]
        scale = float(np.max(mag[np.isfinite(mag)], initial=0.0)) or 1.0
        if best is None or val < best[0]:
            best = (val, atoms, probs, scale)
        pts = np.vstack([pts_ok, _near(atoms, bounds, REFINE, GRID)])
    return best


def certify(integrand, moments, support, coords, params: dict, atoms, hyps, widths=None):
    """Exact re-check of a candidate: returns (value at 50 digits, exact law) or a reason
    (str) why the candidate is not a certified counterexample."""
    sub = {s: _rat(v) if not float(v).is_integer() else sp.Integer(int(v))
           for s, v in params.items()}
    if any(h.free_symbols <= set(sub) and holds_at(h, sub, _DPS) is not True for h in hyps):
        # the float's exact binary value: what the floating-point search evaluated
        sub = {s: sp.Rational(Fraction(float(v))) for s, v in params.items()}
    def failing(sb):
        return [h for h in hyps if h.free_symbols <= set(sb) and holds_at(h, sb, _DPS) is not True]

    bad = failing(sub)
    # a point found on the edge of a hypothesis may fail it by a rounding: nudge one
    # parameter at a time by a relative 1e-9 toward the inside
    for _ in range(3):
        if not bad:
            break
        for sym in list(sub):
            for f in (1 + sp.Rational(1, 10**9), 1 - sp.Rational(1, 10**9)):
                trial = {**sub, sym: sub[sym] * f}
                if sym.is_integer:
                    continue
                tb = failing(trial)
                if len(tb) < len(bad):
                    sub, bad = trial, tb
                    break
            if not bad:
                break
    if bad:
        return f"the rationalised parameters fail {bad[0]}"
    pts = []
    widths = widths or [max([abs(float(a[i])) for a in atoms] + [1e-300])
                        for i in range(len(coords))]
    for a in atoms:
        pt = {c: (sp.Integer(0) if abs(float(x)) < 1e-7 * w else _rat(x))
              for c, x, w in zip(coords, a, widths)}
        if support is not None:
            shrink = sp.Integer(1)
            for _ in range(60):
                trial = {c: v * shrink for c, v in pt.items()}
                if holds_at(support, {**sub, **trial}, _DPS) is True:
                    pt = trial
                    break
                shrink *= 1 - sp.Rational(1, 10**9)
            else:
                return "an atom could not be placed inside the support exactly"
        pts.append(pt)
    k = len(pts)
    ps = sp.symbols(f"p0:{k}")
    eqs = [sum(ps) - 1] + [sum(p * m.subs({**sub, **pt}) for p, pt in zip(ps, pts))
                            for m in moments]
    sol = sp.solve(eqs, ps, dict=True)
    if not sol:
        return "no exact law on the atoms meets the moment constraints"
    sol = sol[0]
    free = [p for p in ps if p not in sol]
    if free:
        # more atoms than constraints: fix the free probabilities at their LP values
        return "the LP optimum is not a basic solution"
    probs = [sp.nsimplify(sol[p]) for p in ps]
    if any(sp.N(p, _DPS) < 0 for p in probs):
        return "the exact probabilities are not all non-negative"
    with mpmath.workdps(_DPS):
        val = sum(sp.N(p * integrand.subs({**sub, **pt}), _DPS) for p, pt in zip(probs, pts))
    return sp.Float(val, _DPS), sub, pts, probs


def _fmt_law(coords, pts, probs) -> str:
    parts = []
    for pt, p in zip(pts, probs):
        where = ", ".join(f"{c}={sp.N(pt[c], 8)}" for c in coords)
        parts.append(f"P({where}) = {p}")
    return "; ".join(parts)


@step_oracle("worst-case", arguments={
    "coords": "names of the random vector's coordinates (symbols of the paper's table)",
    "box": "((name, lower, upper), …): a box holding the support (expressions in the "
           "parameters)",
    "support": "a relation in the coordinates and parameters that holds almost surely",
    "moments": "expressions m with E[m] = 0",
    "expect": "((stand-in name, integrand), …): each stand-in is E[integrand]"},
    supports="lines about expectations, affine in the stand-ins, for every law with a "
             "bounded support and linear moment constraints")
def worst_case_oracle(loc: Located, *, budget: int, seed: int) -> StepReport:
    """The exact worst case over finitely supported laws (an LP) at admissible parameters."""

    t0 = time.perf_counter()
    st = loc.step
    kind = st.kind.value

    def report(verdict, **kw):
        return StepReport(loc.id, st.eq, kind, verdict, "oracle:worst-case",
                          seconds=time.perf_counter() - t0, **kw)

    args = dict(st.oracle_args)
    syms = {x.name: x for x in st.free_symbols}
    integrands = {}
    for name, phi in args.get("expect", ()):
        phi = sp.sympify(phi)
        integrands[name] = phi
        syms.update({x.name: x for x in phi.free_symbols})
    box = [(n, sp.sympify(lo), sp.sympify(hi)) for n, lo, hi in args.get("box", ())]
    support = args.get("support")
    support = None if support is None else sp.sympify(support)
    moments = [sp.sympify(m) for m in args.get("moments", ())]
    for e in [*(lo for _, lo, _ in box), *(hi for _, _, hi in box), *moments,
              *([support] if support is not None else [])]:
        syms.update({x.name: x for x in e.free_symbols})
    coord_names = tuple(args.get("coords", ()))
    if not coord_names or [n for n, _, _ in box] != list(coord_names):
        return report(Verdict.UNCHECKED, detail="worst-case: 'box' must list every "
                                                "coordinate of 'coords', in order")
    missing = [n for n in coord_names if n not in syms]
    if missing:
        return report(Verdict.UNCHECKED, detail=f"worst-case: coordinates {missing} appear "
                                                "in no integrand")
    coords = [syms[n] for n in coord_names]
    standins = {n: syms[n] for n in integrands if n in syms}
    if set(standins) != set(integrands):
        absent = sorted(set(integrands) - set(standins))
        return report(Verdict.UNCHECKED, detail=f"worst-case: stand-ins {absent} are not in "
                                                "the line")
    randomish = set(coords) | set(standins.values())
    hyps = [h for h in loc.hypotheses if h.expr is not None
            and not (h.expr.free_symbols & randomish)]
    try:
        slacks = [linearise(sl, standins, integrands) for sl in _oriented(st)]
    except _Unusable as exc:
        return report(Verdict.UNCHECKED, detail=f"worst-case: {exc}")
    params = set()
    for sl in slacks:
        params |= sl.free_symbols
    for e in [*moments, *(x for _, lo, hi in box for x in (lo, hi))]:
        params |= e.free_symbols
    if support is not None:
        params |= support.free_symbols
    params = sorted(params - set(coords), key=lambda x: x.name)
    free = tuple(h for h in loc.hypotheses
                 if h.expr is None or not (h.expr.free_symbols & randomish))
    space = Space(SimpleNamespace(hypotheses=free, free_symbols=set(params)))
    if space.predicates:
        return report(Verdict.UNCHECKED, detail="worst-case: a named-predicate hypothesis: "
                                                "the parameter space is unknown")
    rng = np.random.default_rng(seed)
    n_draw = max(8, min(int(budget) // 20, DRAWS))
    pts = space.draw(rng, n_draw)
    cont = [dm.sym.name for dm in space.doms if not dm.integer]
    cands = list(pts)
    for v in pts[:EDGE_FROM]:
        cands += edges(space, v, cont)
    if not cands:
        return report(Verdict.UNCHECKED, detail="worst-case: no admissible parameter point")
    laws = [_Law(coords, params, sl, moments, support, box) for sl in slacks]
    screened = []
    tried = 0
    for v in cands:
        if any(p.name not in v for p in params):
            continue
        pv = [float(v[p.name]) for p in params]
        for i, law in enumerate(laws):
            got = worst_at(law, pv, COARSE, 1)
            if got is None:
                continue
            tried += 1
            screened.append((got[0] / max(got[3], 1e-300), pv, v, i))
    screened.sort(key=lambda x: x[0])
    # a coordinate descent from the worst screened points: each continuous parameter moved
    # to the edges of its admissible range and by factors, kept when the worst case drops
    for start in list(screened[:DESCENT]):
        rel0, pv0, v0, i = start
        best = (rel0, pv0, v0, i)
        for rnd in range(2):
            for name in cont:
                moves = edges(space, best[2], [name]) if rnd == 0 else []
                for f in (0.1, 10.0):
                    w = space.admissible(dict(best[2], **{name: best[2][name] * f}))
                    if w is not None:
                        moves.append(w)
                for w in moves:
                    if any(p.name not in w for p in params):
                        continue
                    pv = [float(w[p.name]) for p in params]
                    got = worst_at(laws[i], pv, COARSE, 1)
                    if got is None:
                        continue
                    tried += 1
                    rel = got[0] / max(got[3], 1e-300)
                    if rel < best[0]:
                        best = (rel, pv, w, i)
        screened.append(best)
    screened.sort(key=lambda x: x[0])
    found = []
    for _, pv, v, i in screened[:FINE]:
        got = worst_at(laws[i], pv)
        if got is None:
            continue
        tried += 1
        val, atoms, probs, scale = got
        found.append((val / max(scale, 1e-300), val, atoms, probs, v, i))
    if not found:
        return report(Verdict.UNCHECKED, detail="worst-case: no parameter point where the "
                                                "LP could be set up")
    found.sort(key=lambda x: x[0])
    pnames = {p.name for p in params}

    def describe(item):
        rel, val, atoms, probs, v, _ = item
        where = {k: f"{x:.10g}" for k, x in v.items() if k in pnames}
        law_txt = "; ".join(f"P({', '.join(f'{c}={x:.6g}' for c, x in zip(coord_names, a))})"
                            f" = {p:.4g}" for a, p in zip(atoms, probs))
        return where, law_txt

    why = []
    for item in [f for f in found if f[0] < -TOL][:CERTIFY]:
        rel, val, atoms, probs, v, i = item
        pmap = {p: v[p.name] for p in params}
        widths = [hi - lo for lo, hi in laws[i].bounds([float(v[p.name]) for p in params])]
        got = certify(slacks[i], moments, support, coords, pmap, atoms, [h.expr for h in hyps],
                      widths)
        if isinstance(got, str):
            why.append(got)
            continue
        exact, sub, lpts, lprobs = got
        if not exact < 0:
            why.append(f"E[slack] = {val:.3g} in floating point but {sp.N(exact, 6)} at "
                       f"{_DPS} digits")
            continue
        where, _ = describe(item)
        cx = {str(k_): str(x) for k_, x in sub.items()}
        cx["law"] = _fmt_law(coords, lpts, lprobs)
        cx["E[slack]"] = str(sp.N(exact, 15))
        return report(Verdict.REFUTED, counterexample=cx, slack=float(exact), samples=tried,
                      where=where,
                      detail=f"a finitely supported law meeting every constraint breaks the "
                             f"line: {cx['law']}; E[slack] = {sp.N(exact, 12)} at {_DPS} "
                             f"digits (exact parameters and probabilities)")
    rel, val = found[0][0], found[0][1]
    where, law_txt = describe(found[0])
    if rel >= -NOISE:
        noise = (f"; the {len(why)} slightly negative optima are rounding (the exact re-check "
                 f"did not confirm them: {why[0]})" if why else "")
        return report(Verdict.SUPPORTED, slack=val, samples=tried, where=where,
                      detail=f"worst case over finitely supported laws (LP on a grid of the "
                             f"support, {tried} LPs at {len(cands)} parameter points, edges "
                             f"included): smallest E[slack] {val:.4g} (relative {rel:.3g}) "
                             f"with the law {law_txt}{noise}")
    return report(Verdict.UNCHECKED, slack=val, samples=tried, where=where,
                  detail=f"worst-case: E[slack] = {val:.4g} < 0 on the grid law {law_txt} but "
                         f"the exact re-check failed: {'; '.join(why[:2])}")

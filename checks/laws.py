"""Witnesses over moments realised by finitely supported laws (DESIGN.md, *Numeric search*).

A paper declares the random variables whose moments its stand-in symbols are
(:class:`theory.stochastic.RandomVariable`).  A witness that gives those stand-ins values
is a counterexample only if some law on the declared support, meeting the declared moment
constraints, has exactly those moments.  Two tools:

* :func:`realise_moments` — the witness's moments, at its parameters, realised by a law on
  a grid of the support: a linear programme (scipy ``linprog``, HiGHS) for the
  probabilities, then the atoms rationalised (moved into the support exactly), the
  probabilities re-solved at 50 digits (mpmath) from the moment equations, checked
  non-negative, and every moment of the law compared with the witness's to 1e-40;
* :func:`law_claim` — the claim with each declared random variable replaced by a law of
  ``K`` atoms (their coordinates and probabilities become the searched symbols, the
  moments are *defined* as the law's, the moment constraints fix the last atom): every
  point of that search is realisable by construction, and its witness is re-checked at
  50 digits by the ordinary search (:func:`checks.falsify.confirm`).  This is the search
  over realisable points that goes on when a witness is not realised.

The linear-programme pieces (grid, refinement, LP, exact helpers) are shared with the
``worst-case`` step oracle.  No paper is named here.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from types import SimpleNamespace

import mpmath
import numpy as np
import sympy as sp
from scipy.optimize import linprog

from checks import falsify
from checks.claim import Claim, lambdify, make_claim
from checks.statements import Space
from theory.model import Tag, asm

DPS = 50
TOL = mpmath.mpf(10) ** -40
#: grid points per coordinate, refinement points around each atom
GRID = 41
REFINE = 15
#: atoms of the laws searched by :func:`law_claim`
ATOMS = 3
#: the prefix of the symbols of a searched law (sorted after the paper's symbols, so that
#: the sampler draws the parameters first and the atoms inside their range)
PREFIX = "zz_law"


# --------------------------------------------------------------------------------------
# shared LP pieces (the worst-case oracle uses them too)
def lp_min(values: np.ndarray, moments: np.ndarray):
    """min Σ p_i v_i  s.t. Σ p_i = 1, Σ p_i m_ki = 0, p ≥ 0 → (value, p) or None."""
    n = values.shape[0]
    # rows and objective scaled to O(1): HiGHS' tolerances are absolute
    if moments.size:
        moments = moments / np.maximum(np.max(np.abs(moments), axis=1, keepdims=True), 1e-300)
    vscale = max(float(np.max(np.abs(values))), 1e-300)
    values = values / vscale
    A = np.vstack([np.ones((1, n)), moments]) if moments.size else np.ones((1, n))
    b = np.zeros(A.shape[0])
    b[0] = 1.0
    res = linprog(values, A_eq=A, b_eq=b, bounds=(0, None), method="highs")
    if res.status != 0:
        return None
    return float(res.fun) * vscale, res.x


def grid(bounds, n):
    """A regular grid of the box ``bounds`` (n points per axis, the ends and 0 added)."""
    axes = [np.unique(np.concatenate([np.linspace(lo, hi, n), [lo, hi, 0.0 if lo < 0 < hi else lo]]))
            for lo, hi in bounds]
    mesh = np.meshgrid(*axes, indexing="ij")
    return np.stack([m.ravel() for m in mesh], axis=1)


def near(atoms, bounds, n, cells=GRID):
    """Points around each atom (a local grid of ± one cell of a ``cells`` grid)."""
    out = []
    for a in atoms:
        axes = []
        for x, (lo, hi) in zip(a, bounds):
            w = (hi - lo) / (cells - 1)
            axes.append(np.clip(np.linspace(x - w, x + w, n), lo, hi))
        mesh = np.meshgrid(*axes, indexing="ij")
        out.append(np.stack([m.ravel() for m in mesh], axis=1))
    return np.vstack(out) if out else np.zeros((0, len(bounds)))


def rat(x: float) -> sp.Rational:
    """A float as a short rational (denominator ≤ 10¹²)."""
    return sp.Rational(Fraction(x).limit_denominator(10**12))


# --------------------------------------------------------------------------------------
@dataclass
class LawRealisation:
    """``applies``: the witness gives moments of a declared random variable; ``ok``: a law
    attains them (``instance``: the law and the check, as text); ``why``: when not."""

    applies: bool
    ok: bool = False
    instance: dict = field(default_factory=dict)
    why: str = ""
    #: per random variable realised: (rv, [(atom: {coord: Rational}, probability: mpf)])
    laws: list = field(default_factory=list)


def _fmt(x) -> str:
    return mpmath.nstr(x, 12)


def _parse(v):
    if isinstance(v, sp.Basic):
        return v
    s = str(v).split("≈")[0].strip()
    return sp.sympify(s)


def realise_moments(witness: dict, rvs) -> LawRealisation:
    """Realise the moments ``witness`` (symbol name → value) gives each random variable of
    ``rvs`` by a finitely supported law on its support (see the module docstring)."""
    env = {}
    for k, v in (witness or {}).items():
        try:
            env[k] = _parse(v)
        except Exception:       # a text entry (a law, an order): not a value
            continue
    out = LawRealisation(applies=False)
    for rv in rvs or ():
        got = {s: env[s.name] for s in rv.standins if s.name in env}
        if not got:
            continue
        out.applies = True
        with mpmath.workdps(DPS + 10):
            one = _realise_one(rv, got, env)
        if not one.ok:
            return LawRealisation(True, False, why=one.why)
        out.instance.update(one.instance)
        out.laws += one.laws
    out.ok = out.applies
    return out


def _realise_one(rv, moments: dict, env: dict) -> LawRealisation:
    params = sorted(rv.parameters_for(list(moments)), key=lambda x: x.name)
    missing = [p.name for p in params if p.name not in env]
    if missing:
        return LawRealisation(True, False, why=f"the law of {rv.name} depends on "
                                               f"{', '.join(missing)}, which the witness "
                                               "does not fix")
    psub = {p: env[p.name] for p in params}
    coords = list(rv.coords)
    fmap = rv.function_map()
    box = rv.ranges()
    try:
        bounds = [(float(sp.N(box[c][0].subs(fmap).subs(psub))),
                   float(sp.N(box[c][1].subs(fmap).subs(psub)))) for c in coords]
    except (TypeError, ValueError):
        return LawRealisation(True, False, why=f"the support of {rv.name} has no finite "
                                               "box at the witness")
    if any(not (np.isfinite(lo) and np.isfinite(hi)) or hi < lo for lo, hi in bounds):
        return LawRealisation(True, False, why=f"the support of {rv.name} is empty at the "
                                               "witness")
    support = [r.subs(psub) for r in rv.support_for(list(moments))]
    rows = [(sp.Integer(1), sp.Integer(1))]
    rows += [(e.subs(fmap).subs(psub), v.subs(psub)) for e, v in rv.constraints]
    names = ["Σp", *(f"E[{sp.sstr(e)}]" for e, _ in rv.constraints)]
    for s, m in moments.items():
        rows.append((rv.integrand(s).subs(psub), m))
        names.append(s.name)
    fns = [lambdify(coords, e, modules=["numpy"]) for e, _ in rows]
    sup_fns = [lambdify(coords, (r.rhs - r.lhs) if r.rel_op in ("<=", "<") else
                        (r.lhs - r.rhs), modules=["numpy"]) for r in support]
    target = np.array([float(sp.N(v)) for _, v in rows])

    def evaluate(pts):
        cols = [pts[:, i] for i in range(pts.shape[1])]
        with np.errstate(all="ignore"):
            ok = np.ones(pts.shape[0], dtype=bool)
            for g in sup_fns:
                ok &= np.asarray(g(*cols), dtype=float) * np.ones(pts.shape[0]) >= 0
            M = np.array([np.asarray(f(*cols), dtype=float) * np.ones(pts.shape[0])
                          for f in fns])
        ok &= np.all(np.isfinite(M), axis=0)
        return pts[ok], M[:, ok]

    pts, M = evaluate(grid(bounds, GRID))
    atoms = None
    for _ in range(3):
        if pts.shape[0] == 0:
            break
        got = _lp_feasible(M, target)
        if got is None:
            break
        atoms = pts[got > 1e-12]
        pts2, M2 = evaluate(near(atoms, bounds, REFINE))
        pts, M = np.vstack([pts, pts2]), np.hstack([M, M2])
        if got is not None and atoms.shape[0] <= len(rows):
            break
    if atoms is None:
        return LawRealisation(True, False, why=f"no law on {rv.name}'s support has "
                                               + ", ".join(f"{s.name} = {_fmt(_mp(m))}"
                                                           for s, m in moments.items())
                                               + " (the linear programme on a grid of the "
                                                 "support is infeasible)")
    return _certify(rv, coords, atoms, rows, names, support, bounds, moments)


def _mp(e):
    return mpmath.mpf(sp.N(e, DPS + 10))


def _lp_feasible(M: np.ndarray, target: np.ndarray):
    """p ≥ 0 with M p = target (rows scaled to O(1)), minimising the largest residual
    (an elastic LP) — p, or None when the residual stays above rounding."""
    n = M.shape[1]
    k = M.shape[0]
    scale = np.maximum(np.max(np.abs(M), axis=1), np.abs(target))
    scale = np.where(scale > 0, scale, 1.0)
    A, b = M / scale[:, None], target / scale
    # variables: p (n), t (1); minimise t with |A p − b| ≤ t
    c = np.zeros(n + 1)
    c[-1] = 1.0
    A_ub = np.vstack([np.hstack([A, -np.ones((k, 1))]), np.hstack([-A, -np.ones((k, 1))])])
    b_ub = np.concatenate([b, -b])
    res = linprog(c, A_ub=A_ub, b_ub=b_ub, bounds=[(0, None)] * n + [(0, None)],
                  method="highs")
    if res.status != 0 or res.x[-1] > 1e-9:
        return None
    return res.x[:n]


def _certify(rv, coords, atoms, rows, names, support, bounds, moments) -> LawRealisation:
    """Atoms rationalised into the support, probabilities re-solved at 50 digits."""
    widths = [max(hi - lo, 1e-300) for lo, hi in bounds]
    pts = []
    for a in atoms:
        pt = {c: (sp.Integer(0) if abs(float(x)) < 1e-9 * w else rat(float(x)))
              for c, x, w in zip(coords, a, widths)}
        shrink = sp.Integer(1)
        for _ in range(60):
            trial = {c: v * shrink for c, v in pt.items()}
            if all(falsify.holds_at(r, trial, DPS) is True for r in support):
                pt = trial
                break
            shrink *= 1 - sp.Rational(1, 10**9)
        else:
            return LawRealisation(True, False, why="an atom could not be placed inside the "
                                                   "support exactly")
        pts.append(pt)
    k = len(pts)
    A = mpmath.matrix(len(rows), k)
    b = mpmath.matrix(len(rows), 1)
    for i, (e, v) in enumerate(rows):
        b[i] = _mp(v)
        for j, pt in enumerate(pts):
            A[i, j] = _mp(e.subs(pt))
    try:
        if k == len(rows):
            p = mpmath.lu_solve(A, b)
        else:
            p, _ = mpmath.qr_solve(A, b)
    except (ZeroDivisionError, ValueError):
        return LawRealisation(True, False, why="the atoms the linear programme chose give a "
                                               "singular moment system")
    resid = max(abs(sum(A[i, j] * p[j] for j in range(k)) - b[i]) / (1 + abs(b[i]))
                for i in range(len(rows)))
    if resid > TOL:
        return LawRealisation(True, False, why=f"the law on the rationalised atoms misses the "
                                               f"moments by {mpmath.nstr(resid, 3)} at "
                                               f"{DPS} digits")
    if any(p[j] < 0 for j in range(k)):
        return LawRealisation(True, False, why="the probabilities re-solved at 50 digits are "
                                               "not all non-negative")
    keep = [j for j in range(k) if p[j] > 0]
    law = "; ".join(f"P({', '.join(f'{c}={pts[j][c]}' for c in coords)}) = "
                    f"{mpmath.nstr(p[j], 15)}" for j in keep)
    inst = {f"law of {rv.name}": law,
            "moments": ", ".join(f"{s.name} = E[{sp.sstr(rv.integrand(s, expand=False))}] = "
                                 f"{_fmt(_mp(m))}" for s, m in moments.items()),
            "check": (f"re-solved at {DPS} digits (mpmath): atoms in the support exactly, "
                      f"probabilities ≥ 0, Σp = 1, the moment constraints and every moment "
                      f"of the witness attained to 1e-40 (largest residual "
                      f"{mpmath.nstr(resid, 3)})")}
    return LawRealisation(True, True, inst, laws=[(rv, [(pts[j], p[j]) for j in keep])])


# --------------------------------------------------------------------------------------
@dataclass
class LawClaim:
    """The claim over laws: ``claim`` (the searched symbols are the parameters, the atoms
    and the probabilities; the moments are definitions), and what it takes to read a
    witness back (:meth:`witness`)."""

    claim: Claim
    #: per random variable: (rv, [atom symbols per atom: {coord: symbol}], [weight exprs])
    laws: list
    moments: dict

    def witness(self, cx: dict) -> tuple[dict, dict]:
        """(counterexample, instance) from a witness of :attr:`claim`: the parameters and
        the moments as the law gives them, and the law itself."""
        out, inst = {}, {}
        vals = {}
        for k, v in cx.items():
            try:
                vals[k] = _parse(v)
            except Exception:
                continue
        law_syms = set()
        for rv, atoms, weights in self.laws:
            parts = []
            for at, w in zip(atoms, weights):
                law_syms |= {s.name for s in at.values()} | {s.name for s in w.free_symbols}
                wv = w.subs({s: vals[s.name] for s in w.free_symbols if s.name in vals})
                where = ", ".join(f"{c}={vals.get(s.name, '?')}" for c, s in at.items())
                parts.append(f"P({where}) = {sp.nsimplify(wv)}")
            inst[f"law of {rv.name}"] = out[f"law of {rv.name}"] = "; ".join(parts)
        for k, v in cx.items():
            if k in law_syms or k.startswith(PREFIX):
                continue
            if k in {s.name for s in self.moments}:
                continue
            out[k] = v
        for s in sorted(self.moments, key=lambda x: x.name):
            if s.name in cx:
                v = cx[s.name]
                num = str(v).split("≈")[-1].strip()
                out[s.name] = f"≈ {num}" if "≈" in str(v) else str(v)
        inst["moments"] = ", ".join(
            f"{s.name} = E[{sp.sstr(rv.integrand(s, expand=False))}]"
            for s, rv in sorted(self.moments.items(), key=lambda kv: kv[0].name))
        inst["check"] = (f"the moments are the law's (atoms in the support, the moment "
                         f"constraints met exactly); every hypothesis in force and the "
                         f"negated line re-checked at {DPS} and 80 digits with exact signs")
        return out, inst


def _atom_symbol(c: sp.Symbol, i: int, k: int) -> sp.Symbol:
    return sp.Symbol(f"{PREFIX}{i}_{c.name}_{k}", real=True)


def law_claim(conclusion, hypotheses, rvs, atoms: int = ATOMS) -> LawClaim | None:
    """The claim ``hypotheses ⇒ conclusion`` with every declared random variable whose
    moments it uses replaced by a law of ``atoms`` atoms (None when it uses none, or a
    moment constraint cannot be solved for a coordinate of the last atom).  Implied
    relations between moments (tag ``LAW``) are dropped: every law meets them."""
    conclusion = sp.sympify(conclusion)
    syms = set(conclusion.free_symbols)
    for h in hypotheses:
        if getattr(h, "expr", None) is not None:
            syms |= h.expr.free_symbols
    used = [(i, rv) for i, rv in enumerate(rvs or ()) if set(rv.standins) & syms]
    if not used:
        return None
    moments = {s: rv for _, rv in used for s in rv.standins if s in syms}
    hyps = []
    for h in hypotheses:
        e = getattr(h, "expr", None)
        if e is None:
            hyps.append(h)
            continue
        if h.tag is Tag.LAW and e.free_symbols & set(moments):
            continue
        hyps.append(e)
    laws = []
    for i, rv in used:
        fmap = rv.function_map()
        at = [{c: _atom_symbol(c, i, k) for c in rv.coords} for k in range(1, atoms + 1)]
        ws = [sp.Symbol(f"{PREFIX}{i}_p_{k}", nonnegative=True) for k in range(1, atoms)]
        last = 1 - sp.Add(*ws)
        weights = list(ws) + [last]
        hyps += [sp.Le(w, 1) for w in ws] + [sp.Gt(last, 0)]
        mine = [s for s in rv.standins if s in moments]
        for a in at:
            for r in rv.support_for(mine):
                hyps.append(r.subs(a))
        for e, v in rv.constraints:
            eq = sp.Add(*(w * e.subs(fmap).subs(a) for w, a in zip(weights, at))) - v
            sol = None
            for c in rv.coords:
                x = at[-1][c]
                if eq.has(x) and sp.degree(sp.expand(eq), x) == 1:
                    cand = sp.solve(eq, x)
                    if len(cand) == 1:
                        sol = (x, cand[0])
                        break
            if sol is None:
                return None
            hyps.append(sp.Eq(sol[0], sol[1]))
        for s in rv.standins:
            if s in moments:
                phi = rv.integrand(s)
                hyps.append(sp.Eq(s, sp.Add(*(w * phi.subs(a) for w, a in zip(weights, at)))))
        laws.append((rv, at, weights))
    return LawClaim(make_claim(conclusion, hyps), laws, moments)


# --------------------------------------------------------------------------------------
# the search over realisable points: parameters drawn, the law (and the scalars the line
# is affine in) chosen by a linear programme, the best candidates re-checked at 50 digits
#: parameter points drawn, of which the first EDGE_FROM are also pushed to the edges of
#: their admissible range; the FINE best screened points get the fine grid
DRAWS = 120
EDGE_FROM = 3
FINE = 6
COARSE = 13
DESCENT = 4
#: rounds of the coordinate descent (it stops earlier when a round gains nothing)
ROUNDS = 4
#: joint random moves from each start of the descent
JOINT = 40
#: relative margin kept on every hypothesis (so that rationalising keeps it) and the
#: smallest relative violation worth certifying
MARGIN = 1e-9
MIN_VIOLATION = 1e-7
#: the weight of the hypotheses' margin in the screening LP, and the score of a point where
#: no law meets the hypotheses (below every admissible point's, higher when nearer)
FEASIBILITY_WEIGHT = 10.0
INFEASIBLE = -3.0


class _NotAffine(Exception):
    pass


def _affine_parts(e, inner):
    """(c0, {v: c_v}) with e = c0 + Σ c_v·v, or raise :class:`_NotAffine`."""
    e = sp.expand(e)
    coeffs = {}
    for v in inner:
        c = sp.diff(e, v)
        if c.free_symbols & set(inner):
            raise _NotAffine(f"not affine in {v}")
        coeffs[v] = c
    c0 = e.subs({v: 0 for v in inner})
    return c0, coeffs


def _affine_in(e, inner) -> bool:
    try:
        _affine_parts(e, inner)
        return True
    except _NotAffine:
        return False


@dataclass
class LawSearch:
    """What :func:`search_laws` found: ``counterexample`` and ``instance`` (None: nothing
    certified), ``detail`` (one line), ``points`` (parameter points tried)."""

    counterexample: dict | None
    instance: dict | None
    detail: str
    points: int = 0
    best: float | None = None


def search_laws(conclusion, hypotheses, rvs, *, budget: int = 2000, seed: int = 0,
                starts=(), attempts: int = 3):
    """Search for a violation of ``hypotheses ⇒ conclusion`` among realisable points: the
    moments of the declared random variable are those of a finitely supported law on its
    support (see the module docstring).  At each drawn parameter point, a linear programme
    chooses the law — and every other scalar the claim is affine in (a stand-in bounded
    only by affine hypotheses) — to violate the line by the largest margin while every
    hypothesis holds with a margin; the best candidates are rationalised and re-checked at
    50 and 80 digits (:func:`checks.falsify.confirm` on :func:`law_claim`).  Where the line
    or a hypothesis is not affine in the moments, or several random variables are in play,
    the ordinary search runs on :func:`law_claim` instead.  ``starts``: points (symbol name
    → value) to begin from as well — a witness of the scalar search no law realises, the
    point of its smallest slack — with their parameters kept.  ``attempts``: independent
    restarts (new draws) while no law is certified.  None when the claim uses no declared
    moment."""
    # lazy: the oracles package imports this module (the worst-case oracle's LP pieces)
    from checks.oracles.exists import edges
    conclusion = sp.sympify(conclusion)
    syms = set(conclusion.free_symbols)
    for h in hypotheses:
        if getattr(h, "expr", None) is not None:
            syms |= h.expr.free_symbols
    used = [rv for rv in rvs or () if set(rv.standins) & syms]
    if not used:
        return None
    if len(used) > 1:
        return _search_law_claim(conclusion, hypotheses, used, budget, seed)
    rv = used[0]
    kept = [h for h in hypotheses if getattr(h, "expr", None) is not None
            and not (h.tag is Tag.LAW and h.expr.free_symbols & set(rv.standins))]
    base = make_claim(conclusion, [h.expr for h in kept])
    if not isinstance(base.conclusion, sp.core.relational.Relational) or any(
            not isinstance(h, sp.core.relational.Relational) for h in base.hypotheses):
        return None
    csyms = set(base.symbols)
    moments = [s for s in rv.standins if s in csyms]
    if not moments:
        return None
    rels = [base.conclusion, *base.hypotheses]
    exprs = [r.lhs - r.rhs for r in rels]
    inner = list(moments)
    if not all(_affine_in(e, inner) for e in exprs):
        return _search_law_claim(conclusion, hypotheses, [rv], budget, seed)
    # other scalars the claim is affine in, jointly with the moments: chosen by the LP too
    for x in sorted(csyms - set(inner) - set(rv.coords), key=lambda s: s.name):
        if x.is_integer:
            continue
        if all(_affine_in(e, inner + [x]) for e in exprs):
            inner.append(x)
    extras = [x for x in inner if x not in moments]
    outer_hyps = [h for h in base.hypotheses if not (h.free_symbols & set(inner))]
    inner_rels = [(r, _affine_parts(r.lhs - r.rhs, inner))
                  for r in base.hypotheses if r.free_symbols & set(inner)]
    concl_parts = _affine_parts(base.conclusion.lhs - base.conclusion.rhs, inner)
    params = sorted((csyms | rv.parameters_for(moments)) - set(inner) - set(rv.coords),
                    key=lambda s: s.name)
    space = Space(SimpleNamespace(hypotheses=tuple(asm(h) for h in outer_hyps),
                                  free_symbols=set(params)))
    if space.predicates:
        return None
    pnames = [p.name for p in params]
    lam = lambda e: lambdify(params, e, modules=["numpy"])            # noqa: E731
    fmap = rv.function_map()
    coords = list(rv.coords)
    phi = [lambdify([*coords, *params], rv.integrand(m), modules=["numpy"]) for m in moments]
    crow = [(lambdify([*coords, *params], e.subs(fmap), modules=["numpy"]), v)
            for e, v in rv.constraints]
    support = list(rv.support_for(moments))
    sup_fns = [lambdify([*coords, *params], (r.rhs - r.lhs) if r.rel_op in ("<=", "<")
                        else (r.lhs - r.rhs), modules=["numpy"]) for r in support]
    box = rv.ranges()
    box_fns = [(lam(box[c][0].subs(fmap)), lam(box[c][1].subs(fmap))) for c in coords]

    def compile_rel(rel, parts):
        c0, cs = parts
        sign = 1.0 if rel.rel_op in ("<=", "<", "==") else -1.0   # row: sign·e ≤ 0
        return (rel.rel_op == "==", sign, lam(c0), [lam(cs[v]) for v in inner])

    rows = [compile_rel(r, p) for r, p in inner_rels]
    concl = compile_rel(base.conclusion, concl_parts)

    def lp_at(pv, pts_fn, robust=False):
        """(violation, atoms, probabilities, extras) at the parameter values pv; with
        ``robust``, the law of the last pass is the most interior one violating the line
        by half the largest violation."""
        pv = [np.float64(x) for x in pv]
        try:
            bounds = [(float(lo(*pv)), float(hi(*pv))) for lo, hi in box_fns]
        except (TypeError, ValueError, ZeroDivisionError):
            return None
        if any(not (np.isfinite(lo) and np.isfinite(hi)) or hi < lo for lo, hi in bounds):
            return None
        pts = pts_fn(bounds)
        best = None
        for rnd in range(3 if robust else 2):
            cols = [pts[:, i] for i in range(pts.shape[1])]
            n0 = pts.shape[0]
            with np.errstate(all="ignore"):
                ok = np.ones(n0, dtype=bool)
                for g in sup_fns:
                    ok &= np.asarray(g(*cols, *pv), dtype=float) * np.ones(n0) >= 0
                Phi = np.array([np.asarray(f(*cols, *pv), dtype=float) * np.ones(n0)
                                for f in phi])
                C = np.array([np.asarray(f(*cols, *pv), dtype=float) * np.ones(n0)
                              for f, _ in crow]).reshape(len(crow), n0)
            ok &= np.all(np.isfinite(Phi), axis=0) & np.all(np.isfinite(C), axis=0)
            if not ok.any():
                return best
            with np.errstate(all="ignore"):
                try:
                    last = rnd == 2
                    if last and (best is None or best[0] <= MIN_VIOLATION):
                        return best
                    got = _lp_law(pv, pts[ok], Phi[:, ok], C[:, ok],
                                  robust=best[0] / 2 if last else None)
                except (ValueError, ZeroDivisionError, OverflowError):
                    got = None
            if got is None:
                return best
            if last:
                return (got[0], pts[ok][got[1] > 1e-12], got[1][got[1] > 1e-12], got[2])
            if best is None or got[0] > best[0]:
                best = (got[0], pts[ok][got[1] > 1e-12], got[1][got[1] > 1e-12], got[2])
            pts = np.vstack([pts[ok], near(best[1], bounds, REFINE)])
        return best

    def _lp_law(pv, pts, Phi, C, robust=None):
        """max t (the line's violation) — or, with ``robust`` = t₀, max u (the smallest
        slack of the hypotheses) subject to t ≥ t₀: an interior law, which rationalising
        and shrinking toward simple values keep valid."""
        n = pts.shape[0]
        k = len(extras)
        nv = n + k + 2                       # p, extras, t, u
        A_ub, b_ub, A_eq, b_eq = [], [], [], []

        def row_of(spec):
            is_eq, sign, c0, cs = spec
            a = np.zeros(nv)
            for j, v in enumerate(inner):
                cj = float(cs[j](*pv))
                if v in moments:
                    a[:n] += cj * Phi[moments.index(v)]
                else:
                    a[n + extras.index(v)] += cj
            return is_eq, sign, a, float(c0(*pv))

        for spec in rows:
            is_eq, sign, a, c0 = row_of(spec)
            sc = max(float(np.max(np.abs(a))), abs(c0), 1e-300)
            if is_eq:
                A_eq.append(a / sc)
                b_eq.append(-c0 / sc)
            elif np.any(a) or c0:              # sign·(a·x + c0) ≤ −u,  u ≥ margin
                r = sign * a / sc
                r[-1] = 1.0
                A_ub.append(r)
                b_ub.append(-sign * c0 / sc)
            # else 0 ≤ 0 (a line of the hypotheses that vanishes at these parameters)
        is_eq, sign, a, c0 = row_of(concl)
        if is_eq:
            return None
        # the violation relative to the line's constant part (the printed bound at these
        # parameters), so that points of different scales compare
        sc = max(abs(c0), 1e-12 * float(np.max(np.abs(a))), 1e-300)
        # violated: sign·(a·x + c0) ≥ t  ⇔  −sign·a·x + t ≤ sign·c0
        r = -sign * a / sc
        r[-2] = 1.0
        A_ub.append(r)
        b_ub.append(sign * c0 / sc)
        one = np.zeros(nv)
        one[:n] = 1.0
        A_eq.append(one)
        b_eq.append(1.0)
        for i in range(C.shape[0]):
            a = np.zeros(nv)
            a[:n] = C[i]
            sc = max(float(np.max(np.abs(C[i]))), 1e-300)
            A_eq.append(a / sc)
            b_eq.append(float(sp.N(crow[i][1])) / sc)
        bounds = [(0, None)] * n
        for x in extras:
            lo = 0 if (x.is_nonnegative or x.is_positive) else None
            hi = 0 if (x.is_nonpositive or x.is_negative) else None
            bounds.append((lo, hi))
        # t: the violation; u: the smallest margin of the hypotheses (below MARGIN where
        # no law meets them at these parameters: a measure of how far, so that the
        # descent can climb toward the admissible region)
        bounds.append((None, 1.0) if robust is None else (robust, 1.0))     # t
        bounds.append((None, MARGIN) if robust is None else (MARGIN, 1.0))  # u
        c = np.zeros(nv)
        if robust is None:
            c[-2], c[-1] = -1.0, -FEASIBILITY_WEIGHT
        else:
            c[-1] = -1.0
        if not all(np.all(np.isfinite(x)) for x in (*A_ub, *A_eq, b_ub, b_eq)):
            return None
        res = linprog(c, A_ub=np.array(A_ub), b_ub=np.array(b_ub),
                      A_eq=np.array(A_eq), b_eq=np.array(b_eq), bounds=bounds,
                      method="highs")
        if res.status != 0:
            return None
        t, u = float(res.x[-2]), float(res.x[-1])
        if u < MARGIN * (1 - 1e-6):             # no law meets the hypotheses here
            return INFEASIBLE + max(u, -1.0), res.x[:n], res.x[n:n + k]
        return t, res.x[:n], res.x[n:n + k]

    rng = np.random.default_rng(seed)
    pts = space.draw(rng, max(DRAWS // 4, min(budget // 10, DRAWS)))
    cont = [d.sym.name for d in space.doms if not d.integer]
    own = []
    for st in starts or ():
        try:
            w = space.admissible({nm: float(_parse(st[nm])) for nm in pnames if nm in st})
        except Exception:
            w = None
        if w is not None:
            own.append(w)
    cands = own + list(pts)
    for v in (own + pts)[:EDGE_FROM + len(own)]:
        cands += edges(space, v, cont)
    screened = []
    tried = len(cands)
    for v in cands:
        if any(nm not in v for nm in pnames):
            continue
        pv = [v[nm] for nm in pnames]
        got = lp_at(pv, lambda b: grid(b, COARSE))
        if got is not None:
            screened.append((got[0], pv, v))
    screened.sort(key=lambda x: -x[0])
    # a coordinate descent from the best screened points: each continuous parameter moved
    # to the edges of its admissible range and by factors, kept when the violation grows
    starts_own = [x for x in screened if any(x[2] is w for w in own)]
    for start in starts_own + [x for x in screened[:DESCENT] if x not in starts_own]:
        best = start
        for rnd in range(ROUNDS):
            before = best[0]
            for name in cont:
                moves = edges(space, best[2], [name]) if rnd == 0 else []
                sym = params[pnames.index(name)]
                values = [best[2][name] * f for f in (0.01, 0.1, 0.5, 10.0, 100.0)
                          ] + [1.0]
                if sym.is_nonnegative and not sym.is_positive:
                    values.append(0.0)         # the lower end of a non-negative quantity
                for x in values:
                    w = space.admissible(dict(best[2], **{name: x}))
                    if w is not None:
                        moves.append(w)
                for w in moves:
                    if any(nm not in w for nm in pnames) or _too_extreme(w, params):
                        continue
                    pv = [w[nm] for nm in pnames]
                    got = lp_at(pv, lambda b: grid(b, COARSE))
                    tried += 1
                    if got is not None and got[0] > best[0]:
                        best = (got[0], pv, w)
            if best[0] <= before or best[0] >= 1.0:
                break
        # then joint moves: a few parameters at once scaled by random factors (or set to
        # an end of their range), kept when the violation grows
        for _ in range(JOINT):
            if best[0] >= 1.0:
                break
            w = dict(best[2])
            for name in rng.choice(cont, size=min(len(cont), int(rng.integers(1, 4))),
                                   replace=False):
                w[name] = 0.0 if rng.random() < 0.15 else w[name] * 10 ** rng.uniform(-2, 2)
            w = space.admissible(w)
            if w is None or any(nm not in w for nm in pnames) or _too_extreme(w, params):
                continue
            pv = [w[nm] for nm in pnames]
            got = lp_at(pv, lambda b: grid(b, COARSE))
            tried += 1
            if got is not None and got[0] > best[0]:
                best = (got[0], pv, w)
        screened.append(best)
    screened.sort(key=lambda x: -x[0])
    if not screened:
        return LawSearch(None, None, f"laws searched at {len(cands)} parameter points: no "
                                     "point where the linear programme could be set up",
                         len(cands))
    found = []
    distinct, seen = [], set()
    # the largest violations first (the linear programme caps them at 1), moderate
    # parameters before extreme ones (a point at 10⁻¹² rarely survives rationalising)
    screened.sort(key=lambda x: (-x[0], _extremeness(x[1])))
    for item in screened:
        key = tuple(round(float(x), 12) for x in item[1])
        if key not in seen:
            seen.add(key)
            distinct.append(item)
    for viol, pv, v in distinct[:FINE]:
        if viol <= MIN_VIOLATION:
            continue
        # the parameters shrunk toward simple values while a law still breaks the line
        orig = list(pv)
        for i, nm in enumerate(pnames):
            for c in _simpler(pv[i], params[i]):
                w = space.admissible(dict(v, **{nm: c}))
                if w is None or any(x not in w for x in pnames):
                    continue
                trial = [w[x] for x in pnames]
                got = lp_at(trial, lambda b: grid(b, COARSE))
                tried += 1
                if got is not None and got[0] > MIN_VIOLATION:
                    pv, v = trial, w
                    break
        got = None
        for q in ((pv, orig) if pv != orig else (pv,)):   # simplified, else as found
            for n_grid in (GRID, COARSE):                  # the fine grid, else the coarse
                got = lp_at(q, lambda b, n_grid=n_grid: grid(b, n_grid), robust=True)
                if got is not None and got[0] > MIN_VIOLATION:
                    pv = q
                    break
            if got is not None and got[0] > MIN_VIOLATION:
                break
        if got is not None and got[0] > MIN_VIOLATION:
            found.append((got, pv, v))
    why = []
    built: dict = {}          # the claim over laws (and its evaluator) per number of atoms
    for (viol, atoms, probs, ys), pv, v in found:
        cx = _certify_search(conclusion, hypotheses, rv, params, pv, atoms, probs,
                             extras, ys, falsify, built)
        if isinstance(cx, str):
            why.append(cx)
            continue
        return LawSearch(cx[0], cx[1], f"a finitely supported law found by a linear "
                                       f"programme at {tried} parameter points "
                                       f"(relative violation {viol:.3g}); "
                                       f"{falsify._CONFIRMED}", tried, viol)
    best = screened[0][0]
    if attempts > 1:          # a restart from new draws (the descent has local optima)
        again = search_laws(conclusion, hypotheses, rvs, budget=budget,
                            seed=(seed + 7919) % 2**32, starts=starts, attempts=attempts - 1)
        if again is not None and again.counterexample is not None:
            again.points += tried
            again.detail = again.detail.replace(f"at {again.points - tried} parameter",
                                                f"at {again.points} parameter")
            return again
        if again is not None:
            tried += again.points
            best = max(best, again.best) if again.best is not None else best
    if best <= INFEASIBLE + 1:
        return LawSearch(None, None, f"laws searched at {tried} parameter points by a linear "
                                     "programme: at none does a law meet the hypotheses",
                         tried, None)
    if why:
        tail = f" (not certified: {why[0]})"
    elif best > MIN_VIOLATION:
        tail = " on the screening grid, but no law was re-solved there"
    else:
        tail = " — none breaks the line"
    return LawSearch(None, None, f"laws searched at {tried} parameter points by a "
                                 f"linear programme: largest relative violation "
                                 f"{best:.3g}{tail}", tried, best)


def _too_extreme(w: dict, params) -> bool:
    """A value outside its symbol's own assumptions (an admissible point is checked against
    the relations only), or beyond 10^±9 (other than 0): the descent does not go there (a
    law found there rarely survives rationalising)."""
    for p in params:
        x = w[p.name]
        if not math.isfinite(x) or (p.is_positive and x <= 0) or (
                p.is_nonnegative and x < 0) or (p.is_negative and x >= 0) or (
                p.is_nonpositive and x > 0) or (p.is_integer and x != round(x)):
            return True
        if x and abs(math.log10(abs(x))) > 9:
            return True
    return False


def _extremeness(pv) -> float:
    """How far the parameter values are from 1 in orders of magnitude (sum of |log₁₀|)."""
    return sum(abs(math.log10(abs(float(x)))) for x in pv if x and math.isfinite(float(x)))


def _search_law_claim(conclusion, hypotheses, rvs, budget, seed):
    """Where the line or a hypothesis is not affine in the moments: the ordinary search
    on :func:`law_claim` (every point a law of ``ATOMS`` atoms, realisable by
    construction)."""
    lc = law_claim(conclusion, hypotheses, rvs)
    if lc is None:
        return None
    sr = falsify.search(lc.claim, budget=budget, seed=seed)
    where = (f"the search over laws of {ATOMS} atoms (not affine in the moments: no linear "
             f"programme): {sr.detail}")
    if sr.counterexample is None:
        return LawSearch(None, None, where + " — none breaks the line", sr.samples,
                         sr.slack)
    cx, inst = lc.witness(sr.counterexample)
    return LawSearch(cx, inst, where, sr.samples, None)


def _short(x: float, integer: bool = False) -> str:
    """The simplest rational within a relative 1e-10 of ``x`` (the search keeps a margin
    of 1e-9 on every hypothesis), as an exact string."""
    if integer:
        return str(int(round(x)))
    for c in falsify._rationalisations(x, False):
        if abs(float(c) - x) <= 1e-10 * abs(x):
            return str(c)
    return str(Fraction(x))


def _simpler(x: float, sym) -> list:
    """Simpler values than ``x`` to try in its place (integers and short decimals near its
    magnitude, then 1, 1/2, 2, 10, 1/10, 0), simplest first, within the symbol's own
    assumptions (integer, positive, non-negative)."""
    x = float(x)
    cands = [1.0, 2.0, 0.5, 10.0, 0.1, 0.0]
    if x != 0 and math.isfinite(x):
        mag = 10.0 ** math.floor(math.log10(abs(x)))
        cands += [math.copysign(mag, x), float(f"{x:.1g}"), float(f"{x:.2g}"),
                  float(round(x))]
    out = []
    for c in sorted(set(cands), key=lambda c: (falsify.complexity(c), abs(c - x))):
        if c == x or falsify.complexity(c) >= falsify.complexity(x) or (sym.is_integer and c != round(c)):
            continue
        if (sym.is_positive and c <= 0) or (sym.is_nonnegative and c < 0) or (
                sym.is_negative and c >= 0) or (sym.is_nonpositive and c > 0):
            continue
        out.append(c)
    return out[:6]


def _certify_search(conclusion, hypotheses, rv, params, pv, atoms, probs, extras, ys,
                    falsify, built: dict):
    """A candidate of :func:`search_laws` re-checked exactly: (counterexample, instance)
    or why not (str).  ``built``: the claims over laws (and their evaluators) already
    built by this search, per number of atoms — the same for every candidate."""
    order = list(np.argsort(probs))            # the heaviest atom last: its coordinate
    atoms, probs = atoms[order], probs[order]  # is the one the constraints fix
    probs = probs / probs.sum()
    if len(probs) not in built:
        lc = law_claim(conclusion, hypotheses, [rv], atoms=len(probs))
        try:
            ev = falsify.SlackEvaluator(lc.claim) if lc is not None else None
        except Exception as exc:         # an expression the evaluators cannot handle
            ev = exc
        built[len(probs)] = (lc, ev)
    lc, ev = built[len(probs)]
    if lc is None:
        return "the moment constraints cannot be solved for an atom"
    if isinstance(ev, Exception):
        return f"{type(ev).__name__}: {ev}"
    _, at, weights = lc.laws[0]
    for shrink in (1.0, 1 - 1e-9, 1 - 1e-6):
        # floats: the confirmation tries their short rationalisations first
        point = {}
        for p, x in zip(params, pv):
            point[p.name] = float(x) if not p.is_integer else float(round(x))
        for y, val in zip(extras, ys):
            point[y.name] = float(val)
        for a, atom in zip(at, atoms):
            for c, x in zip(rv.coords, atom):
                point[a[c].name] = float(x) * shrink
        for w, pr in zip(weights[:-1], probs[:-1]):
            point[w.name] = float(pr)
        try:
            if any(x.name not in point for x in ev.syms):
                return "a symbol of the claim over laws has no value"
            # shrunk toward simple values (Hypothesis-style), then confirmed exactly
            x0 = np.array([point[x.name] for x in ev.syms])
            simple = falsify.simplify_point(ev, x0)
            cx = None
            # the simplified point with its short rationals, then the point as found with
            # its short rationals, then exactly (a value at 1 − 10⁻¹⁶ must not become 1)
            for x, short in ((simple, True), (x0, True), (x0, False)):
                cx = falsify.confirm(lc.claim, {
                    s_.name: (_short(float(v), s_.is_integer) if short or s_.is_integer
                              else str(Fraction(float(v)))) for s_, v in zip(ev.syms, x)}, ev)
                if cx is not None:
                    break
        except Exception as exc:         # an expression the evaluators cannot handle
            return f"{type(exc).__name__}: {exc}"
        if cx is not None:
            return lc.witness(cx)
    return "the rationalised law does not violate the line at 50 digits"

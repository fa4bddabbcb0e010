"""Mutation testing of the checker (issue 6, *Mutation campaign*).

A verification suite is worth exactly as much as its worst ``PROVED``.  This module
measures that: it makes small, mechanical, seeded changes (*mutants*) to the encoded
ALGEBRA/SCALAR steps and statement parts, decides **independently of the engine**
whether each mutant is false (a brute-force witness search of its own, confirmed with
mpmath at 50 digits), and then asks the engine (:func:`checks.engine.check_step`) for
its verdict.  The figures that matter:

* false mutants certified ``PROVED`` — must be 0 (soundness);
* false mutants ``REFUTED`` — the goal is >= 95 % (power);
* true-looking mutants ``REFUTED`` with a witness that does not survive the independent
  50-digit re-check — must be 0 (soundness of REFUTED).

Mutation operators (:func:`candidates`):

``const``     a numeric constant (not an exponent) times 11/10, 9/10 or 2;
``rel``       the relation flipped (``<=`` ↔ ``>=``, ``<`` ↔ ``>``);
``drop``      one relational hypothesis in force removed;
``exp``       an exponent changed: ``x**2 → x``, ``sqrt(x) → x``, ``x → x**2``, ``x → sqrt(x)``;
``swap``      two symbols of the same dimension (:func:`theory.symbols.info`) swapped on
              one side of the step.

The witness search (:func:`find_witness`) shares no code with :mod:`checks.falsify`:
symbols are drawn in an order where a hypothesis ``s <= e`` / ``s >= e`` with a bare
symbol ``s`` bounds ``s`` in terms of symbols already drawn (values at the bounds
included), definitions ``s = e`` compute ``s``, the rest is log-uniform over 12
decades with boundary values; feasible points with a violation are polished with
scipy and re-checked at 50 digits with mpmath (every hypothesis, the symbols'
assumptions, and the violation by a relative margin of at least 1e-25).
"""
from __future__ import annotations

import itertools
import math
import random
import warnings
from dataclasses import dataclass, field
from typing import Callable, Iterable

import mpmath
import numpy as np
import sympy as sp

from checks.claim import lambdify
from checks.falsify import holds_at
from theory.model import Assumption, Located, Rel, StepKind, walk_steps

#: operators, in the order candidates are listed
OPERATORS = ("const", "rel", "drop", "exp", "swap")
#: digits of the independent confirmation
DPS = 50
#: a violation must exceed this relative margin at DPS digits
VIOLATION_MARGIN = mpmath.mpf(10) ** -25
#: a hypothesis may miss by at most this relative amount (rounding at DPS digits)
HYP_TOL = mpmath.mpf(10) ** -40


@dataclass(frozen=True)
class Mutant:
    """One mutated step with the hypotheses in force (``located``)."""

    id: str
    step_id: str
    operator: str
    description: str
    located: Located

    @property
    def step(self):
        return self.located.step


# --------------------------------------------------------------------------------------
# generation
def _replace_numbers(e: sp.Basic, old: sp.Number, new: sp.Number) -> sp.Basic:
    """``e`` with every constant ``old`` replaced by ``new``, exponents excepted."""
    if e.is_Number:
        return new if e == old else e
    if isinstance(e, sp.Pow):
        base = _replace_numbers(e.base, old, new)
        return e if base is e.base else sp.Pow(base, e.exp)
    if not e.args:
        return e
    args = [_replace_numbers(a, old, new) for a in e.args]
    # a subtree without ``old`` is kept as it is (rebuilding it would re-evaluate it)
    return e if all(a is b for a, b in zip(args, e.args)) else e.func(*args)


def _constants(e: sp.Basic) -> set:
    out = set()
    if e.is_Number:
        if e not in (sp.S.One, sp.S.NegativeOne, sp.S.Zero):
            out.add(e)
        return out
    if isinstance(e, sp.Pow):
        return _constants(e.base)
    for a in e.args:
        out |= _constants(a)
    return out


def _pows(e: sp.Basic) -> list[sp.Pow]:
    return sorted({p for p in e.atoms(sp.Pow) if p.exp in (2, -2, sp.S.Half, -sp.S.Half)},
                  key=sp.srepr)


def _dim(sym, paper: str):
    """The declared dimension of ``sym`` in ``paper``'s symbol table (None if undeclared)."""
    from theory.registry import symbols_of
    try:
        return symbols_of(paper).info(sym).dim
    except KeyError:
        return None


def candidates(loc: Located) -> list[tuple[str, str, sp.Expr, Rel, sp.Expr, tuple]]:
    """Every mutation of one located step: (operator, description, lhs, rel, rhs,
    hypotheses).  Deterministic order; mutants equal to the original are left out."""
    st = loc.step
    hyps = tuple(loc.hypotheses)
    out = []

    def add(op, desc, lhs, rel, rhs, hs=hyps):
        if (lhs, rel, rhs, hs) == (st.lhs, st.rel, st.rhs, hyps):
            return
        if lhs == rhs and rel in (Rel.LE, Rel.GE, Rel.EQ):
            return  # trivially true
        out.append((op, desc, lhs, rel, rhs, hs))

    sides = (("lhs", st.lhs), ("rhs", st.rhs))
    # constants
    for name, e in sides:
        for c in sorted(_constants(e), key=sp.srepr):
            for f, tag in ((sp.Rational(11, 10), "+10%"), (sp.Rational(9, 10), "-10%"),
                           (sp.Integer(2), "x2")):
                new = _replace_numbers(e, c, c * f)
                if new == e:
                    continue
                lhs, rhs = (new, st.rhs) if name == "lhs" else (st.lhs, new)
                add("const", f"{name}: constant {c} {tag}", lhs, st.rel, rhs)
    # relation flip
    flip = {Rel.LE: Rel.GE, Rel.GE: Rel.LE, Rel.LT: Rel.GT, Rel.GT: Rel.LT}
    if st.rel in flip:
        add("rel", f"relation {st.rel.value} -> {flip[st.rel].value}", st.lhs, flip[st.rel],
            st.rhs)
    # drop one hypothesis
    for i, h in enumerate(hyps):
        if h.expr is None or h.expr is sp.true:
            continue
        add("drop", f"hypothesis {h.name!r} dropped", st.lhs, st.rel, st.rhs,
            hyps[:i] + hyps[i + 1:])
    # exponents
    for name, e in sides:
        for desc, _, _, new in exponent_edits(e):
            lhs, rhs = (new, st.rhs) if name == "lhs" else (st.lhs, new)
            add("exp", f"{name}: {desc}", lhs, st.rel, rhs)
    # swap two symbols of the same dimension
    paper = loc.id.split(":", 1)[0]
    for a, b in same_dimension_pairs(st.free_symbols, paper):
        for name, e in sides:
            new = swap_edit(e, a, b)
            if new is None:
                continue
            lhs, rhs = (new, st.rhs) if name == "lhs" else (st.lhs, new)
            add("swap", f"{name}: {a} <-> {b}", lhs, st.rel, rhs)
    return out


def exponent_edits(e: sp.Expr) -> list[tuple[str, sp.Expr, sp.Expr, sp.Expr]]:
    """The ``exp`` operator on one expression, as (description, what is replaced, its
    replacement, the edited expression): every
    square or square root removed (``x**2 → x``, ``sqrt(x) → x``, and their reciprocals),
    then every symbol squared and rooted (``x → x**2``, ``x → sqrt(x)``).  Shared with the
    repair search (:mod:`checks.repair`), which runs them the other way."""
    out = []
    for p in _pows(e):
        new_exp = {2: 1, -2: -1, sp.S.Half: 1, -sp.S.Half: -1}[p.exp]
        out.append((f"{p} -> {p.base ** new_exp}", p, p.base ** new_exp,
                    e.xreplace({p: p.base ** new_exp})))
    for s in sorted(e.free_symbols, key=lambda s: s.name):
        for k, tag in ((2, "x**2"), (sp.S.Half, "sqrt(x)")):
            out.append((f"{s} -> {tag.replace('x', s.name)}", s, s ** k,
                        e.xreplace({s: s ** k})))
    return out


def same_dimension_pairs(symbols, paper: str) -> list[tuple[sp.Symbol, sp.Symbol]]:
    """Pairs of ``symbols`` (sorted by name) with the same declared dimension in
    ``paper``'s symbol table; undeclared symbols pair with nothing."""
    syms = sorted(symbols, key=lambda s: s.name)
    out = []
    for a, b in itertools.combinations(syms, 2):
        da, db = _dim(a, paper), _dim(b, paper)
        if da is None or db is None or da != db:
            continue
        out.append((a, b))
    return out


def swap_edit(e: sp.Expr, a: sp.Symbol, b: sp.Symbol) -> sp.Expr | None:
    """``e`` with ``a`` and ``b`` exchanged (the ``swap`` operator), or None when ``e``
    holds neither."""
    if a not in e.free_symbols and b not in e.free_symbols:
        return None
    return e.xreplace({a: b, b: a})


def checkable_steps(results=None) -> list[Located]:
    """ALGEBRA/SCALAR steps (statement parts included) of the registered results."""
    from theory import registry
    results = registry.all_results() if results is None else results
    out = []
    for r in results:
        if r.kind in ("def", "asm"):
            continue
        for loc in walk_steps(r):
            if loc.step.kind in (StepKind.ALGEBRA, StepKind.SCALAR) and not loc.step.oracle:
                out.append(loc)
    return out


def generate(seed: int = 0, n: int = 240, steps: Iterable[Located] | None = None,
             per_step: int = 3) -> list[Mutant]:
    """``n`` mutants drawn reproducibly (``seed``) from every candidate mutation,
    spread over steps (at most ``per_step`` per step in a first pass) and operators."""
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be an integer >= 1, got {n!r}")
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be an integer >= 0, got {seed!r}")
    steps = checkable_steps() if steps is None else list(steps)
    rng = random.Random(seed)
    pool = []
    seen = set()
    for loc in steps:
        for k, (op, desc, lhs, rel, rhs, hs) in enumerate(candidates(loc)):
            key = (lhs, rel.value, rhs, frozenset(h.expr for h in hs if h.expr is not None))
            if key in seen:     # the same claim from a repeated step (eq-55 in two cases)
                continue
            seen.add(key)
            step = loc.step.__class__(label=loc.step.label, lhs=lhs, rel=rel, rhs=rhs,
                                      kind=loc.step.kind, given=(), because=loc.step.because,
                                      eq=loc.step.eq)
            mloc = Located(loc.id, step, hs, loc.case_path)
            pool.append(Mutant(f"{loc.id}#{op}-{k}", loc.id, op, desc, mloc))
    # balanced draw: shuffle, then round-robin over operators with a per-step cap
    rng.shuffle(pool)
    by_op = {op: [m for m in pool if m.operator == op] for op in OPERATORS}
    chosen, count = [], {}
    for cap in (per_step, 10**9):
        idx = {op: 0 for op in OPERATORS}
        while len(chosen) < n and any(idx[op] < len(by_op[op]) for op in OPERATORS):
            for op in OPERATORS:
                lst = by_op[op]
                while idx[op] < len(lst):
                    m = lst[idx[op]]
                    idx[op] += 1
                    if m.id in count or count.get(m.step_id, 0) >= cap:
                        continue
                    chosen.append(m)
                    count[m.id] = 1
                    count[m.step_id] = count.get(m.step_id, 0) + 1
                    break
                if len(chosen) >= n:
                    break
        if len(chosen) >= n:
            break
    return sorted(chosen, key=lambda m: m.id)


# --------------------------------------------------------------------------------------
# independent witness search
def _relations(hyps) -> list[sp.Basic]:
    out = []
    for h in hyps:
        e = h.expr if isinstance(h, Assumption) else h
        if e is None or e is sp.true:
            continue
        out.extend(e.args if isinstance(e, sp.And) else (e,))
    return out


@dataclass
class _Plan:
    """How to draw a point: symbols in order, each free, defined, or bounded."""

    order: list[sp.Symbol]
    defs: dict = field(default_factory=dict)       # sym -> expr (earlier symbols)
    lower: dict = field(default_factory=dict)      # sym -> [expr]
    upper: dict = field(default_factory=dict)
    hyps: list = field(default_factory=list)


def _bare(rel):
    """(sym, 'lo'|'hi'|'eq', expr) when ``rel`` is ``sym REL expr`` up to sides."""
    if not isinstance(rel, sp.core.relational.Relational) or isinstance(rel, sp.Unequality):
        return None
    for a, b, flip in ((rel.lhs, rel.rhs, False), (rel.rhs, rel.lhs, True)):
        if isinstance(a, sp.Symbol) and a not in b.free_symbols:
            if isinstance(rel, sp.Equality):
                return a, "eq", b
            le = isinstance(rel, (sp.LessThan, sp.StrictLessThan))
            if flip:
                le = not le
            return a, ("hi" if le else "lo"), b
    return None


def plan(claim_syms, hyps) -> _Plan:
    rels = _relations(hyps)
    syms = set(claim_syms)
    for r in rels:
        syms |= r.free_symbols
    bares = [(r, _bare(r)) for r in rels]
    # definitions first (x = e), symbols with more bare bounds later
    nb = {s: 0 for s in syms}
    for _, b in bares:
        if b is not None:
            nb[b[0]] += 1 + 10 * (b[1] == "eq")
    remaining = sorted(syms, key=lambda s: (nb[s], s.name))
    order: list[sp.Symbol] = []
    p = _Plan(order=order, hyps=rels)
    # greedy: repeatedly place a symbol whose bare bounds refer to placed symbols only;
    # prefer symbols without bounds, then definitions, then bounded ones
    while remaining:
        placed = set(order)
        pick = None
        for s in remaining:
            deps = [b for _, b in bares if b is not None and b[0] == s]
            if all(b[2].free_symbols <= placed for b in deps) and (not deps or True):
                if not deps:
                    pick = s
                    break
        if pick is None:
            for s in remaining:
                deps = [b for _, b in bares if b is not None and b[0] == s]
                usable = [b for b in deps if b[2].free_symbols <= placed]
                if usable and len(usable) == len(deps):
                    pick = s
                    break
        if pick is None:
            # cycles: place the symbol with the fewest unplaced dependencies, using only
            # its usable bounds (the others are checked afterwards like any hypothesis)
            def unplaced(s):
                return sum(1 for _, b in bares if b is not None and b[0] == s
                           and not b[2].free_symbols <= placed)
            pick = min(remaining, key=lambda s: (unplaced(s), s.name))
        # a symbol may be referred to by bounds of others only once placed: place deps
        remaining.remove(pick)
        for _, b in bares:
            if b is None or b[0] != pick or not b[2].free_symbols <= placed:
                continue
            if b[1] == "eq":
                if not pick.is_integer:
                    p.defs.setdefault(pick, b[2])
            elif b[1] == "lo":
                p.lower.setdefault(pick, []).append(b[2])
            else:
                p.upper.setdefault(pick, []).append(b[2])
        order.append(pick)
    return p


def _lamb(expr, syms, module):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return lambdify(syms, expr, modules=module)


def _np_eval(fn, cols, n):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            v = fn(*cols)
        except (ZeroDivisionError, OverflowError, ValueError, TypeError):
            return np.full(n, np.nan)
    v = np.asarray(v, dtype=float) if not np.iscomplexobj(v) else np.where(
        np.abs(np.imag(v)) < 1e-300, np.real(v), np.nan)
    return np.broadcast_to(v, (n,)).astype(float)


def _draw(sym, u, mode, lo, hi, lo_strict, hi_strict):
    """Vectorised draw of one symbol from uniforms ``u`` in the interval [lo, hi]."""
    with np.errstate(all="ignore"):
        return _draw_raw(sym, u, mode, lo, hi, lo_strict, hi_strict)


def _draw_raw(sym, u, mode, lo, hi, lo_strict, hi_strict):
    n = u.shape[0]
    pos = bool(sym.is_positive)
    nonneg = bool(sym.is_nonnegative)
    integer = bool(sym.is_integer)
    lo = np.where(np.isnan(lo), -np.inf, lo)
    hi = np.where(np.isnan(hi), np.inf, hi)
    if pos or nonneg:
        lo = np.maximum(lo, 0.0)
    if integer:
        lo = np.maximum(lo, 1.0 if pos else 0.0)
    e = 12.0 * u - 6.0                       # log10 scale in [-6, 6]
    logu = 10.0 ** e
    out = np.empty(n)
    # mode 0: log-uniform magnitude (signed for real symbols), then clipped to [lo, hi]
    base = np.where((pos | nonneg) | (u > 0.5), logu, -logu) if not (pos or nonneg) else logu
    # mode 1: at the lower bound (or just above); 2: at the upper bound; 3: between,
    # log-uniform in the ratio; 4: small integers / nice values; 5: 1 + tiny
    finite_lo = np.isfinite(lo)
    finite_hi = np.isfinite(hi)
    nice = np.array([1.0, 2.0, 0.5, 3.0, 10.0, 0.1, 1e-3, 1e3, 4.0, 0.25])[
        (u * 10).astype(int) % 10]
    at_lo = np.where(finite_lo, lo + np.where(lo_strict, np.maximum(np.abs(lo), 1e-300)
                                             * 1e-9, 0.0), base)
    at_hi = np.where(finite_hi, hi - np.where(hi_strict, np.maximum(np.abs(hi), 1e-300)
                                             * 1e-9, 0.0), base)
    span_lo = np.where(finite_lo, lo, np.where(finite_hi, np.minimum(hi, 0) - 1e6, -1e6))
    span_hi = np.where(finite_hi, hi, np.where(finite_lo, np.maximum(lo, 0) + 1e6, 1e6))
    between = np.where((span_lo > 0) & (span_hi > span_lo),
                       span_lo * (span_hi / np.where(span_lo > 0, span_lo, 1.0)) ** u,
                       span_lo + (span_hi - span_lo) * u)
    tiny = np.where(finite_lo, lo + np.maximum(np.abs(lo), 1.0) * 10.0 ** (-1 - 8 * u),
                    base)
    out = np.select([mode == 0, mode == 1, mode == 2, mode == 3, mode == 4],
                    [base, at_lo, at_hi, between, nice], tiny)
    out = np.clip(out, lo, hi)
    if integer:
        out = np.where(mode == 2, np.floor(out), np.ceil(out))
        out = np.where(out < lo, np.ceil(lo), out)
    if pos:
        out = np.where(out <= 0, np.nan, out)
    return out


def _sample(p: _Plan, rng: np.random.Generator, n: int, fns) -> dict:
    cols = {}
    for s in p.order:
        earlier = [cols[t] for t in fns["syms"][: len(cols)]]
        if s in p.defs:
            cols[s] = _np_eval(fns["def"][s], earlier, n)
            continue
        lo = np.full(n, -np.inf)
        hi = np.full(n, np.inf)
        lo_s = np.zeros(n, bool)
        hi_s = np.zeros(n, bool)
        for fn in fns["lo"].get(s, ()):
            v = _np_eval(fn, earlier, n)
            lo = np.fmax(lo, v)
        for fn in fns["hi"].get(s, ()):
            v = _np_eval(fn, earlier, n)
            hi = np.fmin(hi, v)
        u = rng.random(n)
        mode = rng.integers(0, 6, n)
        cols[s] = _draw(s, u, mode, lo, hi, lo_s, hi_s)
    return cols


def _compile(p: _Plan):
    syms = list(p.order)
    fns = {"syms": syms, "def": {}, "lo": {}, "hi": {}}
    for i, s in enumerate(syms):
        earlier = syms[:i]
        if s in p.defs:
            fns["def"][s] = _lamb(p.defs[s], earlier, "numpy")
        fns["lo"][s] = [_lamb(e, earlier, "numpy") for e in p.lower.get(s, ())]
        fns["hi"][s] = [_lamb(e, earlier, "numpy") for e in p.upper.get(s, ())]
    return fns


def _rel_slack(rel, a, b):
    """Relative slack (negative ⇔ violated) of ``a REL b`` for numpy arrays."""
    with np.errstate(all="ignore"):
        return _rel_slack_raw(rel, a, b)


def _rel_slack_raw(rel, a, b):
    scale = np.maximum(np.maximum(np.abs(a), np.abs(b)), 1e-300)
    if rel in ("<=", "<"):
        return (b - a) / scale
    if rel in (">=", ">"):
        return (a - b) / scale
    return -np.abs(a - b) / scale


def _relop(r) -> str:
    return {"==": "=", "<=": "<=", "<": "<", ">=": ">=", ">": ">"}[r.rel_op]


@dataclass
class Witness:
    point: dict                 # symbol name -> exact string (sampled values exact floats)
    slack: float                # relative slack of the conclusion there (negative)
    source: str = "search"


def _mp_point(p: _Plan, free: dict, dps: int) -> dict | None:
    """Exact free values (Fractions / ints / str) -> mpmath values of every symbol."""
    vals = {}
    with mpmath.workdps(dps + 10):
        for s in p.order:
            if s in p.defs:
                try:
                    vals[s] = _mp_eval(p.defs[s], vals)
                except (ZeroDivisionError, ValueError, TypeError, OverflowError):
                    return None
            else:
                v = free.get(s.name)
                if v is None:
                    return None
                vals[s] = mpmath.mpf(sp.Rational(v).p) / sp.Rational(v).q
    return vals


_MP_CACHE: dict = {}


def _mp_eval(expr, vals):
    key = (expr, tuple(vals))
    f = _MP_CACHE.get(key)
    if f is None:
        if len(_MP_CACHE) > 20000:
            _MP_CACHE.clear()
        f = _MP_CACHE[key] = _lamb(expr, list(vals), "mpmath")
    v = f(*vals.values())
    if isinstance(v, mpmath.mpc):
        if abs(v.imag) > mpmath.mpf(10) ** (-mpmath.mp.dps + 5) * max(1, abs(v.real)):
            raise ValueError("complex value")
        v = v.real
    return mpmath.mpf(v)


def check_point(lhs, rel: Rel, rhs, hyps, point: dict, *, dps: int = DPS,
                plan_: _Plan | None = None) -> tuple[bool, str]:
    """Independent check that ``point`` (name -> exact value; defined symbols may be
    missing) satisfies every hypothesis and every symbol assumption and violates
    ``lhs REL rhs``, at ``dps`` and at ``dps + 30`` digits.  The violation must exceed
    :data:`VIOLATION_MARGIN` relative to the size of the terms of both sides and be the
    same number at both precisions (so cancellation noise never counts).  Returns
    (ok, why)."""
    p = plan_ or plan(sp.Tuple(lhs, rhs).free_symbols, hyps)
    diffs = []
    for d in (dps, dps + 30):
        ok, why, diff = _check_at(lhs, rel, rhs, p, point, d)
        if not ok:
            return False, why
        diffs.append(diff)
    a, b = diffs
    with mpmath.workdps(dps + 40):
        if abs(a - b) > mpmath.mpf(10) ** -10 * abs(b):
            return False, "the violation is rounding noise (differs between precisions)"
    return True, "violated at 50 and 80 digits"


def _terms_scale(expr, vals):
    """Largest magnitude among the top-level terms of ``expr`` (cancellation scale)."""
    terms = expr.args if isinstance(expr, sp.Add) else (expr,)
    return max((abs(_mp_eval(t, vals)) for t in terms), default=mpmath.mpf(0))


def _check_at(lhs, rel, rhs, p, point, dps):
    with mpmath.workdps(dps):
        vals = _mp_point(p, point, dps)
        if vals is None:
            return False, "a value is missing or undefined", None
        for s, v in vals.items():
            if not mpmath.isfinite(v):
                return False, f"{s} is not finite", None
            if s.is_positive and not v > 0:
                return False, f"{s} must be > 0", None
            if s.is_nonnegative and not v >= 0:
                return False, f"{s} must be >= 0", None
            if s.is_integer and v != mpmath.floor(v):
                return False, f"{s} must be an integer", None
        try:
            for r in p.hyps:
                if not isinstance(r, sp.core.relational.Relational):
                    # And/Or of relations: each side at ``dps`` digits, never SymPy's
                    # relational at numbers (it decides from 2 digits: falsify.holds_at)
                    ok = holds_at(r, {s: sp.Float(str(v), dps) for s, v in vals.items()},
                                  dps) is True
                    if not ok:
                        return False, f"hypothesis {r} fails", None
                    continue
                a, b = _mp_eval(r.lhs, vals), _mp_eval(r.rhs, vals)
                if isinstance(r, sp.Unequality):
                    if a == b:
                        return False, f"hypothesis {r} fails", None
                    continue
                scale = max(abs(a), abs(b), mpmath.mpf(10) ** -300)
                tol = HYP_TOL * scale
                op = _relop(r)
                good = {"<=": a <= b + tol, "<": a < b - tol, ">=": a >= b - tol,
                        ">": a > b + tol, "=": abs(a - b) <= tol}[op]
                if not good:
                    return False, (f"hypothesis {r} fails ({mpmath.nstr(a, 8)} vs "
                                   f"{mpmath.nstr(b, 8)})"), None
            a, b = _mp_eval(lhs, vals), _mp_eval(rhs, vals)
            scale = max(abs(a), abs(b), _terms_scale(lhs, vals), _terms_scale(rhs, vals),
                        mpmath.mpf(10) ** -300)
        except (ZeroDivisionError, ValueError, TypeError, OverflowError) as exc:
            return False, f"evaluation failed: {type(exc).__name__}", None
        if not (mpmath.isfinite(a) and mpmath.isfinite(b)):
            return False, "the step is not finite there", None
        m = VIOLATION_MARGIN * scale
        violated = {Rel.LE: a > b + m, Rel.LT: a > b + m, Rel.GE: a < b - m,
                    Rel.GT: a < b - m, Rel.EQ: abs(a - b) > m}[Rel(rel)]
        if not violated and Rel(rel) in (Rel.LT, Rel.GT) and abs(a - b) <= m:
            # a strict claim fails at equality: decide that exactly (the margin would
            # call the engine's exact boundary witness, e.g. τ1 = 1 against "τ1 > 1", wrong)
            sign = _exact_sign(lhs, rhs, point)
            if sign is not None and (sign >= 0 if Rel(rel) is Rel.LT else sign <= 0):
                return True, "violated (at equality, decided exactly)", a - b
        if not violated:
            return False, "the step holds there", None
        return True, "violated", a - b


def _exact_sign(lhs, rhs, point):
    """Sign of lhs − rhs at a point of exact rational values, or None (a value missing or
    not rational, or a difference SymPy cannot reduce to a rational)."""
    try:
        sub = {s: sp.Rational(str(point[s.name]).strip())
               for s in sp.Tuple(lhs, rhs).free_symbols}
    except (KeyError, TypeError, ValueError, SyntaxError):
        return None
    d = sp.nsimplify(sp.simplify((lhs - rhs).xreplace(sub)))
    return int(sp.sign(d)) if d.is_Rational else None


def find_witness(located: Located, *, seed: int = 0, samples: int = 4000,
                 polish: int = 3) -> Witness | None:
    """Brute-force search for a point where every hypothesis holds and the step fails
    (independent of :mod:`checks.falsify`; see the module docstring)."""
    st = located.step
    hyps = [h for h in located.hypotheses if h.expr is not None]
    p = plan(st.free_symbols, hyps)
    try:
        fns = _compile(p)
        hyp_fns = [(_relop(r), _lamb(r.lhs, p.order, "numpy"), _lamb(r.rhs, p.order, "numpy"))
                   for r in p.hyps if isinstance(r, sp.core.relational.Relational)
                   and not isinstance(r, sp.Unequality)]
        lf = _lamb(st.lhs, p.order, "numpy")
        rf = _lamb(st.rhs, p.order, "numpy")
    except Exception:   # noqa: BLE001 - an expression numpy cannot take
        return None
    rng = np.random.default_rng(seed)
    best: list[tuple[float, dict]] = []

    def evaluate(cols, n):
        arr = [cols[s] for s in p.order]
        feas = np.ones(n, bool)
        for op, a, b in hyp_fns:
            va, vb = _np_eval(a, arr, n), _np_eval(b, arr, n)
            sl = _rel_slack(op, va, vb)
            feas &= (sl >= -1e-12) if op != "=" else (sl >= -1e-12)
        for s in p.order:
            feas &= np.isfinite(cols[s])
        va, vb = _np_eval(lf, arr, n), _np_eval(rf, arr, n)
        sl = _rel_slack(st.rel.value, va, vb)
        sl = np.where(np.isfinite(sl), sl, np.inf)
        return feas, sl

    cols = _sample(p, rng, samples, fns)
    feas, sl = evaluate(cols, samples)
    idx = np.flatnonzero(feas & (sl < 1e-9))
    order = idx[np.argsort(sl[idx])]
    tried = 0
    for j in order[:8]:
        w = _confirm_col(located, p, {s: cols[s][j] for s in p.order}, float(sl[j]))
        tried += 1
        if w is not None:
            return w
    # polish: scipy minimises the conclusion's slack over the free symbols' log-values
    fe = np.flatnonzero(feas & np.isfinite(sl))
    if polish and fe.size:
        from scipy.optimize import minimize
        starts = fe[np.argsort(sl[fe])][:polish]
        free = [s for s in p.order if s not in p.defs]
        for j in starts:
            x0 = np.array([_to_log(cols[s][j]) for s in free])

            def obj(x):
                c = _cols_from(p, fns, free, x)
                if c is None:
                    return 1e6
                f1, s1 = evaluate(c, 1)
                if not f1[0] or not np.isfinite(s1[0]):
                    return 1e3
                return float(s1[0])
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                res = minimize(obj, x0, method="Nelder-Mead",
                               options={"maxfev": 250, "xatol": 1e-10, "fatol": 1e-14})
            if res.fun < 1e-9:
                c = _cols_from(p, fns, free, res.x)
                if c is not None:
                    w = _confirm_col(located, p, {s: c[s][0] for s in p.order},
                                     float(res.fun))
                    if w is not None:
                        w.source = "search+scipy"
                        return w
    return None


def _to_log(v):
    return math.copysign(math.log10(abs(v)) if v != 0 else -30.0, v) if v != 0 else -30.0


def _from_log(x):
    return math.copysign(10.0 ** abs(x), x) if abs(x) < 300 else math.copysign(1e300, x)


def _cols_from(p, fns, free, x):
    """Columns (length 1) for free values ``x`` (signed log10 magnitudes); bounded
    symbols are clipped into their bounds, defined ones computed."""
    cols = {}
    xi = dict(zip(free, x))
    for s in p.order:
        earlier = [cols[t] for t in fns["syms"][: len(cols)]]
        if s in p.defs:
            cols[s] = _np_eval(fns["def"][s], earlier, 1)
            continue
        v = _from_log(xi[s]) if not (s.is_positive or s.is_nonnegative) else \
            10.0 ** max(min(abs(xi[s]) * (1 if xi[s] >= 0 else -1), 300), -300)
        lo = max([-math.inf] + [float(_np_eval(f, earlier, 1)[0]) for f in fns["lo"].get(s, ())])
        hi = min([math.inf] + [float(_np_eval(f, earlier, 1)[0]) for f in fns["hi"].get(s, ())])
        if not (math.isnan(lo) or math.isnan(hi)):
            v = min(max(v, lo), hi)
        if s.is_integer:
            v = float(math.ceil(v - 1e-9)) if math.isfinite(v) else v
        cols[s] = np.array([v])
    return cols


def _confirm_col(located, p, col: dict, slack: float) -> Witness | None:
    st = located.step
    hyps = [h for h in located.hypotheses if h.expr is not None]
    point = {}
    for s in p.order:
        if s in p.defs:
            continue
        v = float(col[s])
        if not math.isfinite(v):
            return None
        if s.is_integer:
            v = float(round(v))
        point[s.name] = str(sp.Rational(v))   # the float exactly (a dyadic rational)
    ok, _ = check_point(st.lhs, st.rel, st.rhs, hyps, point, plan_=p)
    if ok:
        return Witness(point, slack)
    return None


def recheck(located: Located, counterexample: dict) -> tuple[bool, str]:
    """Independently re-check an engine counterexample (name -> exact string, defined
    symbols as ``expr ≈ value``) at 50 digits against the step and every hypothesis."""
    st = located.step
    hyps = [h for h in located.hypotheses if h.expr is not None]
    p = plan(st.free_symbols, hyps)
    point = {}
    for s in p.order:
        if s in p.defs:
            continue
        v = counterexample.get(s.name)
        if v is None:
            # a symbol that cancels from the engine's claim (e.g. eta in a term multiplied
            # by a sum defined to be 0): any value will do; 1 is checked like the rest
            v = "1"
        v = str(v).split("≈")[0].strip()
        try:
            val = sp.sympify(v, rational=True)
            if not val.is_Rational:
                # irrational exact values: evaluate at 70 digits, keep as a rational
                val = sp.Rational(str(sp.N(val, 70)))
        except (sp.SympifyError, TypeError, ValueError):
            return False, f"unparsable value {v!r} for {s}"
        point[s.name] = str(val)
    return check_point(st.lhs, st.rel, st.rhs, hyps, point, plan_=p)


# --------------------------------------------------------------------------------------
# the campaign
@dataclass
class MutantOutcome:
    mutant: Mutant
    false: bool                 # a witness found independently (search or re-checked)
    witness_source: str         # "search", "search+scipy", "engine (re-checked)", ""
    verdict: str                # engine verdict
    engine_witness_ok: bool | None = None   # REFUTED: the witness survived the re-check
    why: str = ""
    seconds: float = 0.0


@dataclass
class Campaign:
    outcomes: list[MutantOutcome]

    @property
    def false_by_search(self) -> list[MutantOutcome]:
        return [o for o in self.outcomes if o.witness_source.startswith("search")]

    @property
    def false(self) -> list[MutantOutcome]:
        return [o for o in self.outcomes if o.false]

    @property
    def true_looking(self) -> list[MutantOutcome]:
        return [o for o in self.outcomes if not o.false]

    @property
    def false_proved(self) -> list[MutantOutcome]:
        return [o for o in self.false if o.verdict == "PROVED"]

    @property
    def bad_refutations(self) -> list[MutantOutcome]:
        """REFUTED whose witness fails the independent re-check (true mutants REFUTED)."""
        return [o for o in self.outcomes if o.verdict == "REFUTED" and not o.engine_witness_ok]

    @property
    def refuted_rate(self) -> float:
        """Share of the mutants found false by the independent search that the engine
        REFUTED."""
        fs = self.false_by_search
        return (sum(o.verdict == "REFUTED" for o in fs) / len(fs)) if fs else float("nan")

    def misses(self) -> list[MutantOutcome]:
        return [o for o in self.false_by_search if o.verdict != "REFUTED"]

    def summary(self) -> dict:
        fs = self.false_by_search
        return {
            "mutants": len(self.outcomes),
            "false_by_search": len(fs),
            "false_by_engine_witness_only": len(self.false) - len(fs),
            "true_looking": len(self.true_looking),
            "false_proved": len(self.false_proved),
            "false_refuted": sum(o.verdict == "REFUTED" for o in fs),
            "false_refuted_pct": round(100 * self.refuted_rate, 1) if fs else None,
            "true_refuted": len(self.bad_refutations),
            "misses": len(self.misses()),
        }


def run_campaign(mutants: Iterable[Mutant], *, budget: int = 300, seed: int = 0,
                 samples: int = 4000, progress: Callable[[MutantOutcome], None] | None = None
                 ) -> Campaign:
    """Decide each mutant independently, then run the engine on it (see module doc)."""
    import time
    from checks import engine
    opts = engine.Options(budget=budget, seed=seed)
    outs = []
    for k, m in enumerate(mutants):
        t0 = time.perf_counter()
        w = find_witness(m.located, seed=seed + k, samples=samples)
        rep = engine.check_step(m.located, opts)
        verdict = rep.verdict.value if hasattr(rep.verdict, "value") else str(rep.verdict)
        o = MutantOutcome(m, w is not None, w.source if w else "", verdict)
        if verdict == "REFUTED":
            ok, why = (recheck(m.located, rep.counterexample) if rep.counterexample
                       else (False, "no counterexample given"))
            o.engine_witness_ok = ok
            o.why = why
            if ok and not o.false:
                o.false, o.witness_source = True, "engine (re-checked)"
        o.seconds = time.perf_counter() - t0
        outs.append(o)
        if progress is not None:
            progress(o)
    return Campaign(outs)

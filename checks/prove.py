"""Symbolic prover: SymPy first, then z3 nonlinear real arithmetic (DESIGN.md,
*Symbolic proving*).

``prove(claim)`` returns a :class:`ProofOutcome`:

* ``proved`` — a certificate: SymPy simplifies ``lhs - rhs`` to 0 (identities), SymPy's
  assumption system decides the sign of ``rhs - lhs`` (after the substitution
  ``x = c + y``, ``y > 0`` for hypotheses ``x > c``), or z3 answers ``unsat`` for
  ``hypotheses ∧ ¬conclusion``;
* ``model`` — z3 found a model of ``hypotheses ∧ ¬conclusion``.  It is *only a
  candidate*: the abstraction below over-approximates, so the model goes to
  :func:`checks.falsify.confirm` before anybody calls it a counterexample;
* ``unknown`` — neither (time-out, resource limit, untranslatable): the engine falls
  back to the numeric search.

Translation to z3 (sound for ``unsat``: every constraint added is true of the real
expression, so the z3 problem over-approximates the original):

* ``x**(p/q)`` → a fresh ``s ≥ 0`` with ``s**q = x**p`` and ``x ≥ 0`` (SymPy's real
  roots exist only there); negative integer powers → a fresh ``w`` with ``w·x = 1``;
* ``exp(a)`` → fresh ``e > 0`` with ``e ≥ 1 + a``, ``a < 1 ⇒ e·(1 − a) ≤ 1`` and
  monotonicity between every pair of exponentials; ``log(x)`` → fresh ``l`` with
  ``x > 0``, ``l ≤ x − 1``, ``l·x ≥ x − 1`` and pairwise monotonicity;
* ``Max``/``Min``/``Abs``/``Piecewise`` → a fresh variable with their exact definition;
  ``floor``/``ceiling`` → a fresh variable within 1 of the argument;
* constants ``pi``, ``E``… → a fresh variable in a rational interval around them;
* anything else (sums, special functions, symbolic exponents) → an opaque fresh
  variable, with its sign when SymPy knows it;
* integer symbols are real in z3 (dropping integrality only weakens the hypotheses).

Every z3 call is bounded by a deterministic resource limit (``rlimit``) alone, so that
the same command gives the same verdicts on a quiet and on a busy machine, in a fresh
process or after other checks: no wall-clock time-out, a z3 context of its own per call
(:class:`_Translator`) and a strategy without z3's clock- and memory-driven portfolio
(:func:`_nra_solver`) — the wall-clock limits decided an encoded paper's z3-proved
statement under load (SUPPORTED where a quiet run PROVED it; issue 34).  z3 checks its rlimit where it would check a
time-out; a call that still hangs is ended by the worker watchdog
(:mod:`checks.resources`), reported as an error.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction

import sympy as sp
import z3

from checks.claim import Claim, symbol_constraints

#: default z3 resource limit per call (deterministic; at most about 1 s of work on the
#: encoded results — measured in benchmarks/verify_speed.py)
DEFAULT_RLIMIT = 1_000_000
#: largest claim (operations in lhs and rhs) that the SymPy stage runs ``simplify`` on:
#: an identity is worth up to ~1 s of ``simplify``; an inequality z3 could not prove is
#: only handed to SymPy's sign assumptions, which ``simplify`` seldom helps on a large
#: claim (on the five encoded papers it proved none of the 22 inequalities above 40
#: operations, for 11 s of CPU), so larger inequalities are expanded instead
SIMPLIFY_OPS_EQ = 120
SIMPLIFY_OPS_INEQ = 40


@dataclass
class ProofOutcome:
    status: str                       # "proved" | "model" | "unknown"
    method: str                       # "sympy-simplify", "sympy-sign", "z3-nra", ...
    detail: str = ""
    model: dict | None = None         # symbol name -> exact string (status "model")
    seconds: float = 0.0
    exact: bool = False               # the model is of the claim itself (no abstraction)


# --------------------------------------------------------------------------------------
# SymPy stage
def _shifted(claim: Claim) -> dict:
    """Substitutions ``x -> c + y`` (y positive) for hypotheses ``x > c``/``x >= c`` with
    c a number, and ``x -> c - y`` for ``x < c``; one per symbol."""
    subs = {}
    for h in claim.hypotheses:
        if not isinstance(h, (sp.StrictGreaterThan, sp.GreaterThan, sp.StrictLessThan,
                              sp.LessThan)):
            continue
        a, b = h.lhs, h.rhs
        lower = isinstance(h, (sp.StrictGreaterThan, sp.GreaterThan))
        if isinstance(b, sp.Symbol) and a.is_number:
            a, b, lower = b, a, not lower
        if not (isinstance(a, sp.Symbol) and b.is_number and b.is_real) or a in subs:
            continue
        strict = isinstance(h, (sp.StrictGreaterThan, sp.StrictLessThan))
        y = (sp.Dummy(a.name + "_shift", positive=True) if strict
             else sp.Dummy(a.name + "_shift", nonnegative=True))
        if lower and b.is_nonnegative:
            subs[a] = b + y
        elif not lower and a.is_nonnegative is False:
            subs[a] = b - y
    return subs


def _sign_certificate(expr: sp.Expr, want: str) -> bool:
    """True when SymPy's assumptions alone show ``expr`` has sign ``want``."""
    prop = {"pos": "is_positive", "nonneg": "is_nonnegative", "zero": "is_zero"}[want]
    for form in (expr, sp.factor(expr), sp.together(expr)):
        if getattr(form, prop):          # only the wanted property is asked (each costs)
            return True
    return False


def sympy_stage(claim: Claim) -> ProofOutcome | None:
    c = claim.conclusion
    if c is sp.true:
        return ProofOutcome("proved", "sympy-simplify", "the conclusion is trivially true")
    if not isinstance(c, sp.core.relational.Relational) or isinstance(c, sp.Unequality):
        return None
    lhs, rhs = c.lhs, c.rhs
    limit = SIMPLIFY_OPS_EQ if isinstance(c, sp.Equality) else SIMPLIFY_OPS_INEQ
    diff = sp.simplify(rhs - lhs) if _small(lhs, rhs, limit=limit) else sp.expand(rhs - lhs)
    if isinstance(c, sp.Equality):
        if diff == 0:
            return ProofOutcome("proved", "sympy-simplify", "lhs - rhs simplifies to 0")
        return None
    if isinstance(c, (sp.GreaterThan, sp.StrictGreaterThan)):
        diff = -diff
    want = "pos" if isinstance(c, (sp.StrictLessThan, sp.StrictGreaterThan)) else "nonneg"
    if _sign_certificate(diff, want):
        return ProofOutcome("proved", "sympy-sign",
                            f"rhs - lhs = {_short(diff)} is {'>' if want == 'pos' else '>='} 0 "
                            "by the symbols' assumptions")
    subs = _shifted(claim)
    if subs:
        shifted = sp.together(diff.subs(subs))
        if _sign_certificate(shifted, want):
            shown = ", ".join(f"{k} = {v}" for k, v in subs.items())
            return ProofOutcome("proved", "sympy-sign",
                                f"after {shown} (shift > 0): rhs - lhs = {_short(shifted)} "
                                f"is {'>' if want == 'pos' else '>='} 0")
    return None


def _small(*exprs, limit: int = SIMPLIFY_OPS_EQ) -> bool:
    return sum(sp.count_ops(e) for e in exprs) <= limit


def _short(e, n: int = 120) -> str:
    s = str(e)
    return s if len(s) <= n else s[: n - 3] + "..."


# --------------------------------------------------------------------------------------
# z3 stage
class Untranslatable(Exception):
    pass


class _Translator:
    """SymPy → z3 reals, collecting side constraints for the fresh variables, in a z3
    context of its own (``ctx``): z3 numbers its terms in the order a context first
    meets them and its heuristics break ties by those numbers, and the shared context's
    counters ran on from every claim the process had checked before — a claim's work
    now depends on the claim alone, whatever the worker checked before."""

    def __init__(self, ctx: z3.Context | None = None):
        self.ctx = ctx if ctx is not None else z3.Context()
        self.vars: dict[sp.Symbol, z3.ArithRef] = {}
        self.side: list = []
        self.cache: dict[sp.Basic, z3.ArithRef] = {}
        self.exps: list[tuple[z3.ArithRef, z3.ArithRef]] = []   # (arg, value)
        self.logs: list[tuple[z3.ArithRef, z3.ArithRef]] = []
        self.n_fresh = 0
        self.opaque: list[str] = []

    def fresh(self, tag: str) -> z3.ArithRef:
        self.n_fresh += 1
        return z3.Real(f"_{tag}{self.n_fresh}", self.ctx)

    def symbol(self, s: sp.Symbol) -> z3.ArithRef:
        if s not in self.vars:
            v = z3.Real(s.name, self.ctx)
            self.vars[s] = v
            for c in symbol_constraints(s):
                self.side.append(self.boolean(c))
        return self.vars[s]

    # ---------------------------------------------------------------- expressions
    def expr(self, e: sp.Basic) -> z3.ArithRef:
        if e in self.cache:
            return self.cache[e]
        out = self._expr(e)
        self.cache[e] = out
        return out

    def _expr(self, e):
        if isinstance(e, sp.Symbol):
            return self.symbol(e)
        if isinstance(e, sp.Integer):
            return z3.RealVal(int(e), self.ctx)
        if isinstance(e, sp.Rational):
            return z3.RealVal(f"{e.p}/{e.q}", self.ctx)
        if isinstance(e, sp.Float):
            f = Fraction(str(e))
            return z3.RealVal(f"{f.numerator}/{f.denominator}", self.ctx)
        if isinstance(e, sp.NumberSymbol) or (e.is_number and e.is_real and not e.is_Rational
                                              and not e.free_symbols
                                              and not isinstance(e, (sp.Add, sp.Mul, sp.Pow))):
            return self._constant(e)
        if isinstance(e, sp.Add):
            return z3.Sum([self.expr(a) for a in e.args])
        if isinstance(e, sp.Mul):
            out = self.expr(e.args[0])
            for a in e.args[1:]:
                out = out * self.expr(a)
            return out
        if isinstance(e, sp.Pow):
            return self._pow(e)
        if isinstance(e, sp.exp):
            return self._exp(e.args[0])
        if isinstance(e, sp.log):
            if len(e.args) != 1:
                return self._opaque(e)
            return self._log(e.args[0])
        if isinstance(e, (sp.Max, sp.Min)):
            v = self.fresh("max" if isinstance(e, sp.Max) else "min")
            args = [self.expr(a) for a in e.args]
            for a in args:
                self.side.append(v >= a if isinstance(e, sp.Max) else v <= a)
            self.side.append(z3.Or([v == a for a in args]))
            return v
        if isinstance(e, sp.Abs):
            a = self.expr(e.args[0])
            v = self.fresh("abs")
            self.side += [v >= a, v >= -a, z3.Or(v == a, v == -a)]
            return v
        if isinstance(e, sp.Piecewise):
            v = self.fresh("pw")
            prev = []
            for piece, cond in e.args:
                c = self.boolean(cond)
                self.side.append(z3.Implies(z3.And(*([z3.Not(p) for p in prev] + [c])),
                                            v == self.expr(piece)))
                prev.append(c)
            return v
        if isinstance(e, (sp.floor, sp.ceiling)):
            a = self.expr(e.args[0])
            v = self.fresh("int")
            if isinstance(e, sp.floor):
                self.side += [v <= a, v > a - 1]
            else:
                self.side += [v >= a, v < a + 1]
            return v
        return self._opaque(e)

    def _constant(self, e):
        val = sp.N(e, 40)
        if not val.is_real or not val.is_finite:
            raise Untranslatable(f"constant {e}")
        f = Fraction(str(val))
        eps = Fraction(1, 10**30)
        v = self.fresh("const")
        lo, hi = f - eps * (1 + abs(f)), f + eps * (1 + abs(f))
        self.side += [v >= z3.RealVal(f"{lo.numerator}/{lo.denominator}", self.ctx),
                      v <= z3.RealVal(f"{hi.numerator}/{hi.denominator}", self.ctx)]
        return v

    def _opaque(self, e):
        if e.is_real is False or e.has(sp.I, sp.oo, -sp.oo, sp.zoo, sp.nan):
            raise Untranslatable(f"non-real term {e}")
        v = self.fresh("opaque")
        self.opaque.append(_short(e, 60))
        if e.is_positive:
            self.side.append(v > 0)
        elif e.is_nonnegative:
            self.side.append(v >= 0)
        elif e.is_negative:
            self.side.append(v < 0)
        elif e.is_nonpositive:
            self.side.append(v <= 0)
        return v

    def _pow(self, e: sp.Pow):
        base, ex = e.base, e.exp
        if base is sp.E:
            return self._exp(ex)
        if isinstance(ex, sp.Integer):
            k = int(ex)
            if k == 0:
                return z3.RealVal(1, self.ctx)
            b = self.expr(base)
            if k > 0:
                return _ipow(b, k)
            w = self.fresh("inv")
            self.side.append(w * b == 1)
            return _ipow(w, -k)
        if isinstance(ex, sp.Rational):
            p, q = int(ex.p), int(ex.q)
            b = self.expr(base)
            s = self.fresh("root")
            # s = base**(1/q), real only for base >= 0 in SymPy's semantics
            self.side += [s >= 0, b >= 0, _ipow(s, q) == b]
            if p > 0:
                return _ipow(s, p)
            w = self.fresh("inv")
            self.side.append(w * s == 1)
            return _ipow(w, -p)
        if base.is_positive:
            # base**ex = exp(ex * log(base))
            return self._exp(ex * sp.log(base))
        return self._opaque(e)

    def _exp(self, arg):
        a = self.expr(arg)
        v = self.fresh("exp")
        self.side += [v > 0, v >= 1 + a, z3.Implies(a < 1, v * (1 - a) <= 1),
                      z3.Implies(a == 0, v == 1)]
        for (a2, v2) in self.exps:
            self.side += [z3.Implies(a <= a2, v <= v2), z3.Implies(a2 <= a, v2 <= v),
                          z3.Implies(a < a2, v < v2), z3.Implies(a2 < a, v2 < v)]
        self.exps.append((a, v))
        return v

    def _log(self, arg):
        x = self.expr(arg)
        v = self.fresh("log")
        self.side += [x > 0, v <= x - 1, v * x >= x - 1, z3.Implies(x == 1, v == 0)]
        for (x2, v2) in self.logs:
            self.side += [z3.Implies(x <= x2, v <= v2), z3.Implies(x2 <= x, v2 <= v),
                          z3.Implies(x < x2, v < v2), z3.Implies(x2 < x, v2 < v)]
        self.logs.append((x, v))
        return v

    # ---------------------------------------------------------------- booleans
    def boolean(self, b) -> z3.BoolRef:
        if b is sp.true or b is True:
            return z3.BoolVal(True, self.ctx)
        if b is sp.false or b is False:
            return z3.BoolVal(False, self.ctx)
        if isinstance(b, sp.And):
            return z3.And([self.boolean(a) for a in b.args])
        if isinstance(b, sp.Or):
            return z3.Or([self.boolean(a) for a in b.args])
        if isinstance(b, sp.Not):
            return z3.Not(self.boolean(b.args[0]))
        if isinstance(b, sp.Implies):
            return z3.Implies(self.boolean(b.args[0]), self.boolean(b.args[1]))
        if isinstance(b, sp.core.relational.Relational):
            lhs, rhs = self.expr(b.lhs), self.expr(b.rhs)
            op = b.rel_op
            return {"<=": lhs <= rhs, "<": lhs < rhs, ">=": lhs >= rhs, ">": lhs > rhs,
                    "==": lhs == rhs, "!=": lhs != rhs}[op]
        raise Untranslatable(f"boolean {b}")


def _ipow(x, k: int):
    out = x
    for _ in range(k - 1):
        out = out * x
    return out


def _nra_solver(ctx: z3.Context) -> z3.Solver:
    """A solver for nonlinear real arithmetic whose answer depends on the problem and the
    rlimit only.  z3's own QF_NRA strategy (``SolverFor("QF_NRA")``) is a portfolio that
    picks its branch by the memory z3 already holds in the process and runs each under a
    wall-clock ``try_for`` (4-300 s): on a busy machine, or in a worker that had proved
    other claims, another branch ran and the same claim ran out of its rlimit
    (SUPPORTED under load where a quiet machine PROVED it).  Here: its first two
    branches in the same order — nlsat's simple check, then nlsat itself (complete for
    the polynomial problems the translation makes) — with no clock and no probe; the
    solver's rlimit bounds the whole."""
    nlsat = z3.Tactic("qfnra-nlsat", ctx)
    return z3.Then(z3.Tactic("simplify", ctx), z3.Tactic("propagate-values", ctx),
                   z3.OrElse(z3.Then(z3.With(nlsat, simple_check=True),
                                     z3.Tactic("fail-if-undecided", ctx)),
                             nlsat, ctx=ctx), ctx=ctx).solver()


def z3_stage(claim: Claim, *, rlimit: int = DEFAULT_RLIMIT) -> ProofOutcome:
    t0 = time.perf_counter()
    tr = _Translator()
    try:
        goal = tr.boolean(claim.conclusion)
        hyps = []
        dropped = []
        for h in claim.hypotheses:
            try:
                hyps.append(tr.boolean(h))
            except Untranslatable:
                dropped.append(str(h))   # dropping a hypothesis is sound for unsat
        for s in claim.symbols:
            tr.symbol(s)
    except Untranslatable as exc:
        return ProofOutcome("unknown", "z3-nra", f"not translatable to z3: {exc}",
                            seconds=time.perf_counter() - t0)
    nra = not any(isinstance(v, z3.ArithRef) and v.is_int() for v in tr.vars.values())
    solver = _nra_solver(tr.ctx) if nra else z3.Solver(ctx=tr.ctx)
    solver.set("rlimit", int(rlimit))
    solver.add(*tr.side, *hyps, z3.Not(goal))
    res = solver.check()
    secs = time.perf_counter() - t0
    extra = ""
    if tr.opaque:
        extra += f"; opaque terms: {', '.join(tr.opaque[:3])}"
    if dropped:
        extra += f"; hypotheses not used: {', '.join(dropped[:3])}"
    if res == z3.unsat:
        # vacuity: the side conditions (denominators non-zero, root/log arguments >= 0)
        # must be satisfiable with the hypotheses, else "unsat" only says the step is
        # undefined wherever the hypotheses hold (issue 6)
        vac = _nra_solver(tr.ctx) if nra else z3.Solver(ctx=tr.ctx)
        vac.set("rlimit", int(rlimit))
        vac.add(*tr.side, *hyps)
        if vac.check() != z3.sat:
            return ProofOutcome("unknown", "z3-nra",
                                "z3: unsat, but the hypotheses leave a denominator zero or a "
                                "root/log argument negative (the step is undefined there)"
                                f"{extra}", seconds=time.perf_counter() - t0)
        cx = spot_check(claim)
        if cx is not None:
            return ProofOutcome("model", "z3-nra",
                                "prover disagreement: z3 said unsat but a random admissible "
                                "point violates the claim at 50 digits (translation bug)"
                                f"{extra}", model=cx, seconds=time.perf_counter() - t0,
                                exact=True)
        return ProofOutcome("proved", "z3-nra",
                            f"z3: hypotheses ∧ ¬conclusion is unsat{extra}; no violation at "
                            f"{SPOT_CHECK_POINTS} random admissible points", seconds=secs)
    if res == z3.sat:
        m = solver.model()
        model = {}
        for s, v in tr.vars.items():
            val = m.eval(v, model_completion=True)
            model[s.name] = _z3_value(val)
        exact = not tr.opaque and not tr.exps and not tr.logs and not dropped
        return ProofOutcome("model", "z3-nra",
                            f"z3: sat ({'exact' if exact else 'abstracted'} model){extra}",
                            model=model, seconds=secs, exact=exact)
    reason = solver.reason_unknown()
    return ProofOutcome("unknown", "z3-nra", f"z3: unknown ({reason}){extra}", seconds=secs)


def contradiction(named, *, rlimit: int = DEFAULT_RLIMIT) -> list[str] | None:
    """Whether hypotheses contradict each other: ``named`` holds pairs (name, SymPy
    boolean).  Returns the names of an unsat core — a subset z3 proves jointly
    unsatisfiable (with the translation's side conditions: a root's or a logarithm's
    argument in its domain, which every point where the hypotheses can be evaluated
    meets) — or None (satisfiable, unknown, or untranslatable).  Sound for the
    contradiction: the translation over-approximates, so an unsat core is a proof."""
    tr = _Translator()
    tracked = []
    try:
        for i, (name, b) in enumerate(named):
            if b is sp.true:
                continue
            if b is sp.false:
                return [name]
            tracked.append((z3.Bool(f"_h{i}", tr.ctx), name, tr.boolean(b)))
    except Untranslatable:
        return None
    if not tracked:
        return None
    # (rlimit alone, in the translator's own context: as z3_stage, a verdict must not
    # depend on the machine's load or on what the process checked before)
    solver = z3.Solver(ctx=tr.ctx)
    solver.set("rlimit", int(rlimit))
    solver.set("unsat_core", True)
    solver.add(*tr.side)
    for lit, _, b in tracked:
        solver.assert_and_track(b, lit)
    if solver.check() != z3.unsat:
        return None
    core = {str(c) for c in solver.unsat_core()}
    return [name for lit, name, _ in tracked if str(lit) in core] or [n for _, n, _ in tracked]


#: random admissible points evaluated after every z3 ``unsat`` (issue 6)
SPOT_CHECK_POINTS = 16


def spot_check(claim: Claim, n: int = SPOT_CHECK_POINTS, seed: int = 0) -> dict | None:
    """Cheap re-check of a z3 ``unsat``: ``n`` random admissible points from the search's
    sampler, any violation confirmed with mpmath at 50 and 80 digits.  Returns the
    confirmed counterexample (a translation bug) or None."""
    from checks import falsify
    try:
        sr = falsify.search(claim, budget=n, seed=seed, hypothesis_examples=0, polish=0,
                            accurate_slack=False)
    except Exception:   # noqa: BLE001 - an expression the evaluators cannot take
        return None
    return sr.counterexample


def _z3_value(val) -> str:
    if z3.is_rational_value(val):
        f = val.as_fraction()
        return str(sp.Rational(f.numerator, f.denominator))
    if z3.is_algebraic_value(val):
        return val.as_decimal(60).rstrip("?")
    return str(val)


def prove(claim: Claim, *, rlimit: int = DEFAULT_RLIMIT, use_z3: bool = True,
          full_sympy: bool = True) -> ProofOutcome:
    """Try to prove ``claim``: SymPy, then z3 (see module docstring).

    ``full_sympy=False`` stops after the cheap SymPy check and z3, leaving the full SymPy
    stage (:func:`sympy_stage`) to the caller: the engine runs it only on claims its
    search did not refute — a refuted claim is false, so that stage could not prove it
    (on the encoded papers 23 of its 44 calls were on refuted claims)."""
    if rlimit <= 0:
        raise ValueError(f"rlimit must be > 0, got {rlimit}")
    t0 = time.perf_counter()
    if any(h is sp.false for h in claim.hypotheses):
        return ProofOutcome("proved", "sympy-simplify", "the hypotheses are contradictory",
                            seconds=time.perf_counter() - t0)
    # cheap SymPy first (identities up to expansion), then z3, then the full SymPy stage
    quick = _quick_identity(claim)
    if quick is not None:
        quick.seconds = time.perf_counter() - t0
        return quick
    z = None
    if use_z3:
        z = z3_stage(claim, rlimit=rlimit)
        if z.status == "proved" or (z.status == "model" and z.exact):
            z.seconds = time.perf_counter() - t0
            return z
    out = sympy_stage(claim) if full_sympy else None
    if out is not None:
        out.seconds = time.perf_counter() - t0
        return out
    if z is None:
        z = ProofOutcome("unknown", "sympy", "SymPy found no certificate")
    z.seconds = time.perf_counter() - t0
    return z


def _quick_identity(claim: Claim) -> ProofOutcome | None:
    c = claim.conclusion
    if c is sp.true:
        return ProofOutcome("proved", "sympy-simplify", "the conclusion is trivially true")
    if isinstance(c, (sp.Equality, sp.GreaterThan, sp.LessThan)):
        if c.lhs == c.rhs or (sp.count_ops(c.lhs) + sp.count_ops(c.rhs) <= 400
                              and sp.expand(c.lhs - c.rhs) == 0):
            return ProofOutcome("proved", "sympy-simplify", "lhs - rhs expands to 0")
    return None

"""Typed random quantities and aggregates of a trajectory (DESIGN.md, *Data model*).

A paper writes expectations as stand-in symbols (``E_h`` for E[h_k], ``E_h2`` for
E[h_k²]); left untyped, the search treats them as unrelated numbers and may report a
witness such as E[h] = 1, E[h²] = 0 that no random variable has.  A paper declares
instead what they are moments of::

    NOISE = RandomVariable(
        "e_k = g_k − ∇f(x_k)", coords=(a_, b_),                    # one draw
        support=[a_**2 + b_**2 <= R**2, -R <= a_, a_ <= R, 0 <= b_, b_ <= R,
                 h <= 1 / r, h >= 1 / (r + s + R)],                 # almost surely
        functions={h: 1 / (r + sqrt((s + a_)**2 + b_**2))},         # named functions of a draw
        constraints={a_: 0},                                        # E[a_] = 0
        moments={E_h: h, E_h2: h**2, E_hip: h * s * a_},            # stand-in = E[integrand]
        where="Assumption 2.2, (3)")
    PAPER = Paper(..., random=(NOISE,))

and the engine (:func:`law_relations`) grants what holds for **every** law with that
support, as implied hypotheses (tag ``LAW``, their source in ``where``):

* support bounds transfer to moments: X ∈ [lo, hi] a.s. ⇒ lo ≤ E[X] ≤ hi — and, more
  generally, E[u·v] between lo·E[v] and hi·E[v] when v ≥ 0 and u ∈ [lo, hi] a.s. (so
  h ≤ 1/r gives E[h²] ≤ E[h]/r);
* Cauchy–Schwarz: E[uv]² ≤ E[u²]·E[v²] between declared moments (Jensen, E[X]² ≤ E[X²],
  is the case v = 1);
* moment ordering (Lyapunov): E[X^p]^(1/p) ≤ E[X^q]^(1/q) for 0 < p < q, X ≥ 0.

A witness whose coordinates are moments is then realised by a finitely supported law on
the support (``checks.laws``: a linear programme, re-checked at 50 digits).

An :class:`Aggregate` is a quantity of a trajectory defined by its terms — a sum of
weights, a count of indices, a minimum over iterates — with the range of every term and
the terms the definition fixes or bounds one by one::

    SUM_A = Aggregate(SA, "sum", index=t, first=0, last=T - 1, term="A_t",
                      bounds=(0, 1),                       # every A_t ∈ [0, 1]
                      terms=((T - 1, 0, 0),                # A_{T−1} = 0 (an empty sum)
                             (0, alpha_e1, 1)),            # A_0 ∈ [α_e^1, 1]
                      where="(12)")

and the engine grants the relations the definition implies (a sum lies between the sums
of its terms' lower and upper ends, a minimum below every term, a count between 0 and
the number of indices); a witness is realised by a sequence of terms.

Plain data, like the rest of ``theory``: nothing here evaluates numerically.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import sympy as sp

#: what an aggregate may be
AGGREGATE_OPS = ("sum", "min", "max", "count")


def _pairs(x, what: str) -> tuple:
    """A dict or a sequence of pairs as a tuple of (sympified) pairs, in the given order
    (a dict in insertion order)."""
    from theory.model import problem
    items = list(x.items()) if isinstance(x, dict) else list(x or ())
    out = []
    for it in items:
        try:
            k, v = it
        except (TypeError, ValueError):
            problem(f"{what} must hold pairs (symbol, expression), got {it!r}")
            continue
        out.append((sp.sympify(k), sp.sympify(v)))
    return tuple(out)


def _is_rel(e) -> bool:
    return isinstance(e, sp.core.relational.Relational) and not isinstance(
        e, (sp.Eq, sp.Ne))


@dataclass(frozen=True)
class RandomVariable:
    """A random quantity whose moments a paper writes as stand-in symbols.

    ``coords``: the symbols of one draw (a scalar ``(h,)`` or a vector ``(a_, b_)``);
    ``support``: relations that hold almost surely (in the coordinates, the named
    ``functions`` of a draw and the parameters) — each coordinate needs a lower and an
    upper bound there (``lo <= x``, ``x <= hi``), which also bound the linear programme's
    grid; ``functions``: symbols standing for functions of a draw (``h = 1/(r + ‖g‖)``),
    usable in the support and the integrands; ``constraints``: ``{expr: value}``, the law's
    moment constraints E[expr] = value (``{a_: 0}``: unbiased noise); ``moments``:
    ``{stand-in symbol: integrand}``, each stand-in being E[integrand]."""

    name: str
    coords: tuple
    support: tuple = ()
    moments: tuple = ()
    constraints: tuple = ()
    functions: tuple = ()
    where: str = ""

    def __post_init__(self):
        from theory.model import problem
        coords = self.coords if isinstance(self.coords, (tuple, list)) else (self.coords,)
        object.__setattr__(self, "coords", tuple(sp.sympify(c) for c in coords))
        # a relation SymPy already decides from the symbols' assumptions (0 <= ‖e‖) adds
        # nothing: :meth:`ranges` reads those assumptions
        object.__setattr__(self, "support", tuple(
            r for r in (sp.sympify(x) for x in self.support or ()) if r is not sp.true))
        object.__setattr__(self, "moments", _pairs(self.moments, f"{self.name}: moments"))
        object.__setattr__(self, "constraints",
                           _pairs(self.constraints, f"{self.name}: constraints"))
        object.__setattr__(self, "functions", _pairs(self.functions, f"{self.name}: functions"))
        if not self.coords or not all(isinstance(c, sp.Symbol) for c in self.coords):
            problem(f"random variable {self.name!r}: coords must be symbols, got "
                    f"{self.coords!r}")
        for k, _ in self.moments + self.functions:
            if not isinstance(k, sp.Symbol):
                problem(f"random variable {self.name!r}: a stand-in or function name must be "
                        f"a symbol, got {k!r}")
        for r in self.support:
            if not _is_rel(r):
                problem(f"random variable {self.name!r}: support must hold relations "
                        f"(<, <=, >, >=), got {r!r}")
        if not self.moments:
            problem(f"random variable {self.name!r}: no moments declared")
        box = self.ranges()
        for c in self.coords:
            if c not in box or None in box[c]:
                problem(f"random variable {self.name!r}: the support gives coordinate {c} no "
                        "lower and upper bound (write 'lo <= x' and 'x <= hi')")

    # ---- what the declaration says, in the forms the engine uses
    @property
    def standins(self) -> tuple:
        return tuple(k for k, _ in self.moments)

    def function_map(self) -> dict:
        return dict(self.functions)

    def integrand(self, standin, expand: bool = True) -> sp.Expr:
        """The integrand of a stand-in; ``expand``: the named functions replaced by their
        expressions in the coordinates."""
        phi = dict(self.moments)[standin]
        return phi.subs(self.function_map()) if expand else phi

    def atoms(self) -> tuple:
        """The symbols a draw determines: the coordinates and the named functions."""
        return self.coords + tuple(k for k, _ in self.functions)

    def ranges(self) -> dict:
        """Atom → (lower, upper) from the support's simple relations (``x <= e``, ``e <=
        x``, with ``e`` free of the atoms); several bounds on one side: the Max/Min."""
        atoms = set(self.atoms())
        lo: dict = {}
        hi: dict = {}
        for r in self.support:
            a, b = (r.lhs, r.rhs) if r.rel_op in ("<=", "<") else (r.rhs, r.lhs)
            # a <= b
            if a in atoms and not (b.free_symbols & atoms):
                hi.setdefault(a, []).append(b)
            elif b in atoms and not (a.free_symbols & atoms):
                lo.setdefault(b, []).append(a)
        out = {}
        for x in atoms:
            ls, hs = lo.get(x), hi.get(x)
            if x.is_nonnegative and not any(_nonneg(e) for e in ls or ()):
                ls = (ls or []) + [sp.Integer(0)]
            out[x] = (None if not ls else (ls[0] if len(ls) == 1 else sp.Max(*ls)),
                      None if not hs else (hs[0] if len(hs) == 1 else sp.Min(*hs)))
        return out

    def support_for(self, standins, expand: bool = True) -> tuple:
        """The support relations that concern the moments ``standins``: those in the
        coordinates alone, and those of the named functions their integrands use
        (``expand``: the functions replaced by their expressions)."""
        funcs = {k for k, _ in self.functions}
        used = set()
        for s in standins:
            used |= self.integrand(s, expand=False).free_symbols & funcs
        out = [r for r in self.support if (r.free_symbols & funcs) <= used]
        fmap = self.function_map()
        return tuple(r.subs(fmap) if expand else r for r in out)

    def parameters_for(self, standins) -> set:
        """The parameters the law of the moments ``standins`` depends on (their integrands,
        the support relations that concern them, the moment constraints)."""
        out: set = set()
        for s in standins:
            out |= self.integrand(s).free_symbols
        for r in self.support_for(standins):
            out |= r.free_symbols
        for e, v in self.constraints:
            out |= e.subs(self.function_map()).free_symbols | v.free_symbols
        return out - set(self.atoms()) - set(self.standins)

    @property
    def parameters(self) -> set:
        """Symbols of the declaration that are not the draw's: the law depends on them."""
        out: set = set()
        for _, e in self.moments + self.constraints + self.functions:
            out |= e.free_symbols
        for r in self.support:
            out |= r.free_symbols
        return out - set(self.atoms()) - set(self.standins)

    def describe(self) -> str:
        ms = ", ".join(f"{k} = E[{sp.sstr(v)}]" for k, v in self.moments)
        return f"{self.name}: {ms}"


@dataclass(frozen=True)
class Aggregate:
    """A quantity of a trajectory defined by its terms: ``symbol = OP_{index = first..last}
    term`` with ``op`` one of sum, min, max, count (a count: the number of indices where a
    condition holds — terms in {0, 1}).  ``bounds``: (lower, upper) of every term, as the
    definition gives it (``open_lower``: the terms not fixed one by one lie strictly above
    the lower end); ``terms``: ``(index value, lower, upper)`` for terms the
    definition fixes or bounds one by one (index values of the form ``first + k`` or
    ``last − k``, k a non-negative integer); ``term``: how the paper writes a term."""

    symbol: sp.Symbol
    op: str
    index: sp.Symbol
    first: sp.Expr
    last: sp.Expr
    bounds: tuple = (None, None)
    terms: tuple = ()
    term: str = ""
    where: str = ""
    #: the terms not fixed one by one lie strictly above the lower end (a "strictly
    #: positive sequence" of weights)
    open_lower: bool = False
    #: the terms are survival weights of per-index rates a_τ ∈ (0, 1]:
    #: term_t = 1 − Π_{τ = t+1..last} (1 − a_τ) (an empty product: 1, so the last term is 0);
    #: ``rates``: ``(index value, value)`` for rates the definition fixes one by one.  A
    #: witness is then realised by a sequence of rates, not of free terms
    survival: bool = False
    rates: tuple = ()

    def __post_init__(self):
        from theory.model import problem
        object.__setattr__(self, "symbol", sp.sympify(self.symbol))
        rates = []
        for r in self.rates or ():
            try:
                i, v = r
            except (TypeError, ValueError):
                problem(f"aggregate {self.symbol}: rates must hold (index, value), got {r!r}")
                continue
            rates.append((sp.sympify(i), sp.sympify(v)))
        object.__setattr__(self, "rates", tuple(rates))
        if rates and not self.survival:
            problem(f"aggregate {self.symbol}: rates are given only with survival=True")
        if self.survival and self.op != "sum":
            problem(f"aggregate {self.symbol}: survival weights are summed (op='sum'), got "
                    f"{self.op!r}")
        object.__setattr__(self, "index", sp.sympify(self.index))
        object.__setattr__(self, "first", sp.sympify(self.first))
        object.__setattr__(self, "last", sp.sympify(self.last))
        b = tuple(self.bounds or (None, None))
        if self.op == "count":
            b = (0, 1)
        if len(b) != 2:
            problem(f"aggregate {self.symbol}: bounds must be (lower, upper), got {b!r}")
            b = (None, None)
        object.__setattr__(self, "bounds", tuple(None if x is None else sp.sympify(x)
                                                 for x in b))
        terms = []
        for t in self.terms or ():
            try:
                i, lo, hi = t
            except (TypeError, ValueError):
                problem(f"aggregate {self.symbol}: terms must hold (index, lower, upper), "
                        f"got {t!r}")
                continue
            terms.append((sp.sympify(i), None if lo is None else sp.sympify(lo),
                          None if hi is None else sp.sympify(hi)))
        object.__setattr__(self, "terms", tuple(terms))
        if self.op not in AGGREGATE_OPS:
            problem(f"aggregate {self.symbol}: op must be one of {', '.join(AGGREGATE_OPS)}, "
                    f"got {self.op!r}")
        if not isinstance(self.symbol, sp.Symbol):
            problem(f"aggregate symbol must be a symbol, got {self.symbol!r}")
        for i, _, _ in self.terms + tuple((i, None, None) for i, _ in self.rates):
            if self._offset(i) is None:
                problem(f"aggregate {self.symbol}: a term's index must be first + k or "
                        f"last − k (k a non-negative integer), got {i}")

    @property
    def count(self) -> sp.Expr:
        """The number of indices, last − first + 1."""
        return sp.expand(self.last - self.first + 1)

    def _offset(self, i) -> tuple | None:
        """("first", k) or ("last", k) for an index first + k / last − k."""
        for end, sign in (("first", 1), ("last", -1)):
            k = sp.expand(sign * (i - getattr(self, end)))
            if k.is_Integer and k >= 0:
                return end, int(k)
        return None

    def position(self, i, n: int) -> int | None:
        """The 0-based position of index ``i`` among ``n`` indices."""
        off = self._offset(i)
        if off is None:
            return None
        end, k = off
        return k if end == "first" else n - 1 - k

    def describe(self) -> str:
        lo, hi = self.bounds
        rng = "" if lo is None and hi is None else \
            f", each term in {'(' if self.open_lower or lo is None else '['}" \
            f"{'−∞' if lo is None else sp.sstr(lo)}, {'∞' if hi is None else sp.sstr(hi)}]"
        if self.survival:
            rng = (f", {self.term or 'term'} = 1 − Π_{{τ = {self.index}+1..{sp.sstr(self.last)}}}"
                   f"(1 − a_τ), a_τ ∈ (0, 1]" + "".join(
                       f", a_{{{sp.sstr(i)}}} = {sp.sstr(v)}" for i, v in self.rates))
        return (f"{self.symbol} = {self.op}_{{{self.index} = {sp.sstr(self.first)}.."
                f"{sp.sstr(self.last)}}} {self.term or 'term'}{rng}")


# --------------------------------------------------------------------------------------
# interval arithmetic over the atoms of a draw (SymPy signs only: no numbers)
def _nonneg(e) -> bool:
    return bool(sp.sympify(e).is_nonnegative)


def _nonpos(e) -> bool:
    return bool(sp.sympify(e).is_nonpositive)


def _symmetric(iv) -> bool:
    lo, hi = iv
    return sp.expand(lo + hi) == 0 and _nonneg(hi)


def _mul(i1, i2):
    if i1 is None or i2 is None:
        return None
    (a, b), (c, d) = i1, i2
    if a == b:                      # a constant factor
        if _nonneg(a):
            return (a * c, a * d)
        if _nonpos(a):
            return (a * d, a * c)
        return None
    if c == d:
        return _mul(i2, i1)
    if _nonneg(a) and _nonneg(c):
        return (a * c, b * d)
    if _nonneg(a) and _symmetric(i2):
        return (-b * d, b * d)
    if _nonneg(c) and _symmetric(i1):
        return (-b * d, b * d)
    return None


def interval(expr, ranges: dict):
    """(lower, upper) of ``expr`` over the atoms' ranges, or None where the signs SymPy
    can decide do not give one."""
    expr = sp.sympify(expr)
    if not (expr.free_symbols & set(ranges)):
        return (expr, expr)
    if expr in ranges:
        lo, hi = ranges[expr]
        return None if lo is None or hi is None else (lo, hi)
    if isinstance(expr, sp.Add):
        los, his = [], []
        for t in expr.args:
            iv = interval(t, ranges)
            if iv is None:
                return None
            los.append(iv[0])
            his.append(iv[1])
        return (sp.Add(*los), sp.Add(*his))
    if isinstance(expr, sp.Mul):
        out = (sp.Integer(1), sp.Integer(1))
        for t in expr.args:
            out = _mul(out, interval(t, ranges))
            if out is None:
                return None
        return out
    if isinstance(expr, sp.Pow) and expr.exp.is_Integer:
        iv = interval(expr.base, ranges)
        if iv is None:
            return None
        lo, hi = iv
        k = int(expr.exp)
        if k > 0:
            if _nonneg(lo):
                return (lo ** k, hi ** k)
            if _symmetric(iv):
                return (sp.Integer(0), hi ** k) if k % 2 == 0 else (-hi ** k, hi ** k)
            return None
        if k < 0 and bool(sp.sympify(lo).is_positive):
            return (hi ** k, lo ** k)
    return None


# --------------------------------------------------------------------------------------
def law_relations(rv: RandomVariable, present) -> list:
    """``(relation, source)`` for every relation between the moments of ``rv`` in
    ``present`` (symbols in play) that holds for any law on its support."""
    names = tuple(sorted(s.name for s in rv.standins if s in set(present)))
    return list(_law_relations(rv, names)) if names else []


@functools.lru_cache(maxsize=4096)
def _law_relations(rv: RandomVariable, names: tuple) -> tuple:
    by_name = {s.name: s for s in rv.standins}
    ms = [(by_name[n], rv.integrand(by_name[n], expand=False)) for n in names]
    ranges = rv.ranges()
    one = (sp.Integer(1), sp.Integer(1))     # E[1] = 1
    cands = ms + [one]
    out: list = []
    seen: set = set()
    src = f"implied by the law of {rv.name}" + (f" ({rv.where})" if rv.where else "")

    def add(rel, why):
        rel = sp.sympify(rel)
        if rel in (sp.true, True) or rel is sp.false:
            return
        t = sp.srepr(rel)
        if t in seen:
            return
        seen.add(t)
        out.append((rel, f"{src}: {why}"))

    ivals = {phi: interval(phi, ranges) for _, phi in cands}
    nonneg = {phi: (iv is not None and _nonneg(iv[0])) for phi, iv in ivals.items()}
    # support bounds, transferred: E[u·v] between lo·E[v] and hi·E[v] (v ≥ 0, u ∈ [lo, hi])
    for A, pa in ms:
        for B, pb in cands:
            if A == B or not nonneg[pb]:
                continue
            ratio = sp.cancel(sp.powsimp(pa / pb))
            if ratio.has(sp.zoo, sp.nan) or B != 1 and not (
                    ratio.free_symbols & set(ranges)):
                continue
            iv = interval(ratio, ranges)
            if iv is None:
                continue
            lo, hi = iv
            eb = sp.Integer(1) if B == 1 else B
            what = (f"{sp.sstr(pa)} ∈ [{sp.sstr(lo)}, {sp.sstr(hi)}] a.s." if B == 1 else
                    f"{sp.sstr(pa)} = ({sp.sstr(ratio)})·{sp.sstr(pb)} with "
                    f"{sp.sstr(ratio)} ∈ [{sp.sstr(lo)}, {sp.sstr(hi)}] and "
                    f"{sp.sstr(pb)} ≥ 0 a.s.")
            if lo is not None and not lo.has(sp.oo, -sp.oo):
                add(sp.Ge(A, lo * eb), f"support bound, {what} ⇒ E[{sp.sstr(pa)}] ≥ "
                                       f"({sp.sstr(lo)})·E[{sp.sstr(pb)}]" if B != 1 else
                    f"support bound, {what} ⇒ E ≥ {sp.sstr(lo)}")
            if hi is not None and not hi.has(sp.oo, -sp.oo):
                add(sp.Le(A, hi * eb), f"support bound, {what} ⇒ E[{sp.sstr(pa)}] ≤ "
                                       f"({sp.sstr(hi)})·E[{sp.sstr(pb)}]" if B != 1 else
                    f"support bound, {what} ⇒ E ≤ {sp.sstr(hi)}")
    # Cauchy–Schwarz: E[uv]² ≤ E[u²]E[v²]; Jensen is v = 1
    for A, pa in ms:
        for i, (B, pb) in enumerate(cands):
            for C, pc in cands[i:]:
                if A in (B, C) or not (nonneg[pb] and nonneg[pc]):
                    continue
                if sp.expand(pa ** 2 - pb * pc) != 0:
                    continue
                eb = sp.Integer(1) if B == 1 else B
                ec = sp.Integer(1) if C == 1 else C
                name = "Jensen" if 1 in (B, C) else "Cauchy–Schwarz"
                add(sp.Le(A ** 2, eb * ec),
                    f"{name}: E[{sp.sstr(pa)}]² ≤ "
                    + " · ".join(f"E[{sp.sstr(p)}]" for p in (pb, pc) if p != 1))
    # moment ordering: E[X^p]^(1/p) ≤ E[X^q]^(1/q) for 0 < p < q, X ≥ 0
    powers = []
    for A, pa in ms:
        base, e = pa.as_base_exp()
        if e.is_Rational and e > 0:
            powers.append((A, base, e))
    for A, ba, p in powers:
        for B, bb, q in powers:
            if ba != bb or not p < q:
                continue
            iv = interval(ba, ranges)
            if iv is None or not _nonneg(iv[0]):
                continue
            add(sp.Le(A ** q, B ** p),
                f"moment ordering (Lyapunov): E[X^{p}]^(1/{p}) ≤ E[X^{q}]^(1/{q}) for X = "
                f"{sp.sstr(ba)} ≥ 0")
    return tuple(out)


def aggregate_relations(ag: Aggregate, present) -> list:
    """``(relation, source)`` for the relations the definition of ``ag`` implies, when its
    symbol is in ``present``."""
    if ag.symbol not in set(present):
        return []
    S, n = ag.symbol, ag.count
    lo, hi = ag.bounds
    src = f"implied by the definition {ag.describe()}" + (f" ({ag.where})" if ag.where else "")
    out = []

    def add(rel, why):
        rel = sp.sympify(rel)
        if rel not in (sp.true, True):
            out.append((rel, f"{src}: {why}"))

    m = len(ag.terms)
    # the known terms are distinct indices of the range once there are at least m of them
    few = sp.Lt(n, m) if m > 1 else None

    def guarded(rel):
        return rel if few is None or (n - m).is_nonnegative else sp.Or(few, rel)

    if ag.op == "sum":
        if lo is not None:
            add(sp.Ge(S, n * lo), f"every term ≥ {sp.sstr(lo)}")
        if hi is not None:
            add(sp.Le(S, n * hi), f"every term ≤ {sp.sstr(hi)}")
        if m:
            if lo is not None and all(t[1] is not None for t in ag.terms):
                low = sum(t[1] for t in ag.terms) + (n - m) * lo
                add(guarded(sp.Ge(S, low)),
                    "the terms fixed one by one, the others ≥ their lower bound")
                if ag.open_lower:
                    # some term is not fixed one by one once n > m: the sum is above
                    add(sp.Or(sp.Le(n, m), sp.Gt(S, low)),
                        "the terms fixed one by one, the others > their lower bound")
            if hi is not None and all(t[2] is not None for t in ag.terms):
                add(guarded(sp.Le(S, sum(t[2] for t in ag.terms) + (n - m) * hi)),
                    "the terms fixed one by one, the others ≤ their upper bound")
    elif ag.op in ("min", "max"):
        low, high = (lo, hi)
        if low is not None:
            add(sp.Ge(S, low), f"every term ≥ {sp.sstr(low)}")
        if high is not None:
            add(sp.Le(S, high), f"every term ≤ {sp.sstr(high)}")
        for _, tlo, thi in ag.terms:
            if ag.op == "min" and thi is not None:
                add(sp.Le(S, thi), "the minimum is at most each term")
            if ag.op == "max" and tlo is not None:
                add(sp.Ge(S, tlo), "the maximum is at least each term")
    elif ag.op == "count":
        add(sp.Ge(S, 0), "a count of indices")
        add(sp.Le(S, n), f"at most the {sp.sstr(n)} indices")
    return out


__all__ = ["RandomVariable", "Aggregate", "AGGREGATE_OPS", "interval", "law_relations",
           "aggregate_relations"]

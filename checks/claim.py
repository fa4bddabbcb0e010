"""A claim to check: ``hypotheses ⇒ conclusion`` over real symbols (DESIGN.md, *Symbolic
proving* and *Numeric search*).

Both the prover (:mod:`checks.prove`) and the counterexample search
(:mod:`checks.falsify`) work on a :class:`Claim`; the engine builds one from a proof
step (``lhs REL rhs`` under the hypotheses in force), from a chain link (``rhs_i =
lhs_{i+1}``) or from a case split (``given ⇒ c1 ∨ c2 ∨ …``).

Normalisation (done once, in :func:`make_claim`):

* predicates (assumptions without a SymPy expression, "l is L-smooth") are dropped:
  they say nothing about the scalar symbols;
* a hypothesis ``Eq(x, expr)`` with ``x`` a symbol not in ``expr`` is a *definition*:
  ``x`` is substituted everywhere (so it is computed, never sampled);
* the symbols' own SymPy assumptions (``positive``, ``integer`` …) are hypotheses too;
  :func:`symbol_constraints` spells them out.
"""
from __future__ import annotations

import hashlib
import inspect
from dataclasses import dataclass, field
from typing import Iterable

import sympy as sp

from theory.model import Assumption, Rel


@dataclass(frozen=True)
class Claim:
    """``And(*hypotheses) ⇒ conclusion``; all SymPy booleans over real symbols.

    ``definitions`` records the substituted ``symbol = expr`` hypotheses, so that a
    counterexample can report the defined symbols' values too.  ``dropped`` names the
    hypotheses that are predicates (not scalar) and therefore played no part.
    """

    conclusion: sp.Basic
    hypotheses: tuple[sp.Basic, ...] = ()
    definitions: tuple[tuple[sp.Symbol, sp.Expr], ...] = ()
    dropped: tuple[str, ...] = ()

    @property
    def symbols(self) -> tuple[sp.Symbol, ...]:
        """Free symbols of the conclusion and hypotheses, sorted by name."""
        syms: set[sp.Symbol] = set(self.conclusion.free_symbols)
        for h in self.hypotheses:
            syms |= h.free_symbols
        for _, e in self.definitions:
            syms |= e.free_symbols
        return tuple(sorted(syms, key=lambda s: s.name))

    def key(self) -> str:
        """A stable text key (same claim ⇒ same key, across processes)."""
        parts = [sp.srepr(self.conclusion)] + sorted(sp.srepr(h) for h in self.hypotheses)
        return "\n".join(parts)

    def seed(self, seed: int) -> int:
        """A per-claim seed derived from the user's seed and the claim's content, so the
        same claim gets the same search wherever (and in whatever order) it is checked."""
        h = hashlib.sha256(f"{seed}\n{self.key()}".encode()).digest()
        return int.from_bytes(h[:4], "little")

    def __str__(self) -> str:
        hyps = ", ".join(str(h) for h in self.hypotheses) or "(none)"
        return f"{hyps}  ⇒  {self.conclusion}"


def _as_boolean(a) -> sp.Basic | None:
    if isinstance(a, Assumption):
        return a.expr if a.is_relational else None
    if isinstance(a, str):
        return None
    return sp.sympify(a)


def make_claim(conclusion: sp.Basic, hypotheses: Iterable = ()) -> Claim:
    """Build a normalised :class:`Claim` (definitions substituted, predicates dropped).

    ``hypotheses`` may hold :class:`~theory.model.Assumption` objects or SymPy booleans.
    """
    conclusion = sp.sympify(conclusion)
    hyps: list[sp.Basic] = []
    dropped: list[str] = []
    for a in hypotheses:
        e = _as_boolean(a)
        if e is None:
            dropped.append(a.name if isinstance(a, Assumption) else str(a))
            continue
        if e is sp.true:
            continue
        hyps.append(e)
    # split conjunctions, de-duplicate (order kept)
    flat: list[sp.Basic] = []
    for h in hyps:
        for part in (h.args if isinstance(h, sp.And) else (h,)):
            if part not in flat:
                flat.append(part)
    # substitute definitions x = expr
    definitions: list[tuple[sp.Symbol, sp.Expr]] = []
    changed = True
    while changed:
        changed = False
        for h in flat:
            d = _definition(h)
            if d is None:
                continue
            sym, expr = d
            if isinstance(conclusion, sp.core.relational.Relational) and any(
                    side.subs(sym, expr).has(sp.zoo, sp.nan, sp.oo, -sp.oo)
                    for side in (conclusion.lhs, conclusion.rhs)):
                # substituting would divide by zero: SymPy would then evaluate the
                # conclusion to False and call it refuted; keep it as a hypothesis
                continue
            definitions.append((sym, expr))
            # the defined symbol's own assumptions (K > 0) stay in force, on its value
            flat = [g.subs(sym, expr) for g in flat if g is not h] + [
                c.subs(sym, expr) for c in symbol_constraints(sym)]
            conclusion = conclusion.subs(sym, expr)
            definitions = [(s, e.subs(sym, expr)) for s, e in definitions]
            changed = True
            break
    flat = [h for h in flat if h is not sp.true]
    return Claim(conclusion=conclusion, hypotheses=tuple(flat),
                 definitions=tuple(definitions), dropped=tuple(dropped))


def _definition(h) -> tuple[sp.Symbol, sp.Expr] | None:
    """``x = expr`` (or ``x**k = expr`` with x positive) read as a definition of x."""
    if not isinstance(h, sp.Equality):
        return None
    for a, b in ((h.lhs, h.rhs), (h.rhs, h.lhs)):
        if isinstance(a, sp.Symbol) and a not in b.free_symbols and not a.is_integer:
            return a, b
    for a, b in ((h.lhs, h.rhs), (h.rhs, h.lhs)):
        if (isinstance(a, sp.Pow) and isinstance(a.base, sp.Symbol) and a.base.is_positive
                and not a.base.is_integer and a.exp.is_Rational and a.exp > 0
                and a.base not in b.free_symbols):
            return a.base, b ** (1 / a.exp)
    return None


def step_claim(lhs, rel: Rel, rhs, hypotheses: Iterable = ()) -> Claim:
    """The claim of one step ``lhs REL rhs`` under ``hypotheses``."""
    return make_claim(Rel(rel).sympy(lhs, rhs), hypotheses)


def symbol_constraints(sym: sp.Symbol) -> list[sp.Basic]:
    """The symbol's SymPy assumptions as relations (integrality is reported separately
    by :func:`is_integer_symbol`)."""
    out = []
    if sym.is_positive:
        out.append(sp.Gt(sym, 0, evaluate=False))
    elif sym.is_nonnegative:
        out.append(sp.Ge(sym, 0, evaluate=False))
    elif sym.is_negative:
        out.append(sp.Lt(sym, 0, evaluate=False))
    elif sym.is_nonpositive:
        out.append(sp.Le(sym, 0, evaluate=False))
    return out


def is_integer_symbol(sym: sp.Symbol) -> bool:
    return bool(sym.is_integer)


def relations(expr: sp.Basic) -> list[sp.Basic]:
    """All relational atoms of a boolean expression."""
    if isinstance(expr, sp.core.relational.Relational):
        return [expr]
    out = []
    for a in getattr(expr, "args", ()):
        out.extend(relations(a))
    return out


#: lambdify's docstring prints the whole expression (SymPy >= 1.13 can skip it): a third
#: of the compile time of the checks' numeric functions, for a docstring nobody reads
_LAMBDIFY_KW = ({"docstring_limit": 0}
                if "docstring_limit" in inspect.signature(sp.lambdify).parameters else {})


def lambdify(args, expr, modules=None, **kw):
    """``sympy.lambdify`` without the docstring (the same function otherwise)."""
    return sp.lambdify(args, expr, modules=modules, **_LAMBDIFY_KW, **kw)

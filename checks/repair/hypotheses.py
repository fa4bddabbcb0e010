"""Hypothesis repairs: one hypothesis that, added, makes a refuted line hold ("holds if
…").  Three sources, tried in this order:

1. **the paper's own other results** — a relational hypothesis (an inequality; never an
   equation, which would pin a symbol) that another result of the same paper states, or
   a case of it assumes, over the line's symbols only;
2. **the cited sources' usual conditions** (:data:`USUAL_CONDITIONS`) — conditions under
   which a classical result is proved, keyed by what the line's result types (its
   mechanism): the classical Gaussian calibration σ ≥ Δ√(2 ln(1.25/δ))/ε is proved for
   ε < 1 only (Dwork & Roth 2014, Theorem A.1);
3. **the boundary the search found** — the witness violates a comparison that the
   hypotheses leave open: two quantities of the same dimension on the wrong side of each
   other (r < τ0: "holds if r ≥ τ0"), or a dimensionless quantity on the wrong side of 1.

A candidate is tried only if every witness known so far violates it (else the witness
still refutes the line under it).  Candidates with the same boundary (r > τ0 from the
paper, r ≥ τ0 from the witness) form one group, tried weakest first: the non-strict form
is the weaker hypothesis, so the stronger repaired statement.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import sympy as sp

from checks.repair import numeric

#: the source kinds, in the order they are tried
SOURCES = ("paper", "cited", "boundary")


@dataclass(frozen=True)
class Candidate:
    expr: sp.Basic           # a relation
    source: str              # "paper" | "cited" | "boundary"
    where: str               # who states it, or which witness values it comes from

    @property
    def group(self) -> str:
        return boundary_key(self.expr)


@dataclass(frozen=True)
class UsualCondition:
    """Conditions under which a classical result is proved: ``applies(stmt)`` says
    whether a typed statement rests on it, ``conditions(stmt)`` gives the relations."""

    applies: Callable
    conditions: Callable
    source: str


def _gaussian_profile(stmt) -> bool:
    from theory.mechanisms import GaussianMechanism
    return (getattr(stmt, "profile", False)
            and isinstance(getattr(stmt, "mechanism", None), GaussianMechanism))


USUAL_CONDITIONS = (
    UsualCondition(
        _gaussian_profile, lambda stmt: [sp.Lt(stmt.expr, 1)],
        "the classical Gaussian calibration σ ≥ Δ√(2 ln(1.25/δ))/ε is proved for ε < 1 "
        "(Dwork & Roth 2014, Thm A.1)"),
)


def boundary_key(rel) -> str:
    """The boundary of a comparison: lhs − rhs up to sign (``r > τ0`` and ``τ0 ≤ r``
    share one)."""
    d = sp.expand(rel.lhs - rel.rhs)
    if d.could_extract_minus_sign():
        d = -d
    return sp.srepr(d)


def _inequality(e) -> bool:
    return isinstance(e, (sp.LessThan, sp.StrictLessThan, sp.GreaterThan,
                          sp.StrictGreaterThan))


def paper_hypotheses(results, exclude_id: str | None = None) -> list[tuple[sp.Basic, str]]:
    """(relation, who states it) for every inequality a result of ``results`` (other than
    ``exclude_id``) assumes: its hypotheses, its cases' conditions, its typed statements'
    hypotheses; each relation once (the first place it appears)."""
    from theory.model import CaseSplit, Chain, Step

    out: dict = {}

    def take(a, where):
        e = getattr(a, "expr", None)
        if e is None or getattr(a, "implied", False):
            return
        for r in (e.args if isinstance(e, sp.And) else (e,)):
            if _inequality(r) and r not in out:
                out[r] = where

    def items(rid, its):
        for it in its:
            if isinstance(it, CaseSplit):
                for a in it.given:
                    take(a, f"{rid}: {a.where or 'case split'}")
                for case in it.cases:
                    for a in case.condition:
                        take(a, f"{rid}: case {case.label}" + (f" ({a.where})" if a.where
                                                                else ""))
                    items(rid, case.proof)
            elif isinstance(it, (Chain, Step)):
                continue

    for r in results:
        if r.id == exclude_id or getattr(r, "variant_of", None):
            continue         # a repaired variant is the encoder's, not the paper's
        for a in r.hypotheses:
            take(a, f"{r.id}" + (f" ({a.where})" if a.where else ""))
        items(r.id, r.proof)
        for st in (*r.bounds, *r.rates):
            for a in st.hypotheses:
                take(a, f"{r.id}, {type(st).__name__.lower()} {st.label}"
                        + (f" ({a.where})" if a.where else ""))
    return list(out.items())


def usual_conditions(stmts) -> list[tuple[sp.Basic, str]]:
    """(relation, source) of the usual conditions of the typed statements ``stmts``."""
    out = []
    for st in stmts:
        for uc in USUAL_CONDITIONS:
            try:
                if uc.applies(st):
                    out += [(c, uc.source) for c in uc.conditions(st)]
            except Exception:       # noqa: BLE001 - a condition that does not fit: none
                continue
    return out


def boundary_hypotheses(symbols, witness: dict, dim_of) -> list[tuple[sp.Basic, str]]:
    """Comparisons the witness violates: same-dimension pairs and dimensionless
    quantities against 1 (see the module docstring).  ``witness``: symbol -> float."""
    syms = sorted((s for s in symbols if s in witness and np.isfinite(witness[s])),
                  key=lambda s: s.name)
    out = []
    for i, a in enumerate(syms):
        da = dim_of(a)
        if da is None:
            continue
        for b in syms[i + 1:]:
            db = dim_of(b)
            if db is None or bool(a.is_integer) != bool(b.is_integer):
                continue
            if not _same(da, db):
                continue
            wa, wb = witness[a], witness[b]
            if wa < wb:
                out.append((sp.Ge(a, b), f"the witness has {a} = {wa:.6g} < {b} = {wb:.6g}"))
            elif wa > wb:
                out.append((sp.Le(a, b), f"the witness has {a} = {wa:.6g} > {b} = {wb:.6g}"))
    for a in syms:
        if a.is_integer or dim_of(a) is None or not _same(dim_of(a), sp.Integer(1)):
            continue
        w = witness[a]
        if w > 1:
            out.append((sp.Le(a, 1), f"the witness has {a} = {w:.6g} > 1"))
        elif 0 < w < 1:
            out.append((sp.Ge(a, 1), f"the witness has {a} = {w:.6g} < 1"))
    return out


def _same(a, b) -> bool:
    from checks.repair.edits import dims_equal
    return dims_equal(a, b)


def weak_form(rel) -> sp.Basic:
    """The non-strict form of a strict comparison (itself otherwise)."""
    if isinstance(rel, sp.StrictLessThan):
        return sp.Le(rel.lhs, rel.rhs)
    if isinstance(rel, sp.StrictGreaterThan):
        return sp.Ge(rel.lhs, rel.rhs)
    return rel


def candidates(symbols, in_force, witness_points: list, *, paper=(), cited=(),
               dim_of=lambda s: None, witness: dict | None = None,
               text=sp.sstr) -> list[Candidate]:
    """The hypothesis candidates of a line (see the module docstring), in the order they
    are tried.  ``symbols``: the line's; ``in_force``: the relations already assumed;
    ``witness_points``: :class:`~checks.repair.numeric.Points` of the known witnesses —
    a candidate must be violated at every one; ``witness`` (symbol -> float): the first
    witness, for the boundary candidates."""
    symbols = set(symbols)
    in_force = set(in_force)
    raw: list[Candidate] = []
    for rel, where in paper:
        raw.append(Candidate(rel, "paper", f"as {where} assumes"))
    for rel, where in cited:
        raw.append(Candidate(rel, "cited", where))
    for rel, where in boundary_hypotheses(symbols, witness or {}, dim_of):
        raw.append(Candidate(rel, "boundary", f"the boundary the search found ({where})"))
    groups: dict[str, list[Candidate]] = {}
    for c in raw:
        if not c.expr.free_symbols or not c.expr.free_symbols <= symbols:
            continue
        if c.expr in in_force or weak_form(c.expr) in in_force:
            continue
        if not all(_violated_at(c.expr, p) for p in witness_points):
            continue
        groups.setdefault(c.group, []).append(c)
    out = []
    for g in groups.values():          # in order of first appearance (source order)
        seen = set()
        forms = []
        for c in g:
            for rel in (weak_form(c.expr), c.expr):
                if rel not in seen and _violated_everywhere(rel, witness_points):
                    seen.add(rel)
                    forms.append(Candidate(rel, c.source, c.where if rel == c.expr else
                                           f"{c.where}; weakened to {text(rel)}"))
        # the weakest first: a non-strict form before a strict one
        forms.sort(key=lambda c: isinstance(c.expr, (sp.StrictLessThan, sp.StrictGreaterThan)))
        out += forms
    return out


def _violated_everywhere(rel, points) -> bool:
    return all(_violated_at(rel, p) for p in points)


def _violated_at(rel, pts) -> bool:
    """True when ``rel`` is clearly violated at every test point of ``pts`` (the points
    are witnesses: each must be excluded by the new hypothesis)."""
    a, b = pts.value(rel.lhs), pts.value(rel.rhs)
    sc = np.maximum(pts.scale(rel.lhs), pts.scale(rel.rhs))
    return bool(np.all(numeric.violated(rel.rel_op, a, b, sc)))

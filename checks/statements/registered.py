"""Registered bounds evaluated at a concrete run (for the CLIs that put a published bound
next to a measured or exact value).

Every registered explicit RDP bound on the last iterate of
:class:`~theory.mechanisms.NoisySGD` is a candidate; a bound is evaluated at a scenario by
giving the mechanism's fields and the Rényi order the run's values, the smoothness constant
of an ``LSmooth`` class the problem's L, and a free analysis parameter with an admissible
interval inside (0, 1) (e.g. a noise split) the value that minimises the bound, unless
fixed.  A bound whose classes the problem is not known to belong to, or with a parameter
left over, is not shown; one whose hypotheses fail at a point is blank there.  Nothing here
knows a paper: the bounds come from the registry.
"""
from __future__ import annotations

import math

import numpy as np
import sympy as sp

from checks.falsify import domains_for
from checks.statements import implicit_value
from checks.statements.space import holds
from checks.truth.base import Unavailable, evaluate
from theory import registry
from theory.classes import LSmooth
from theory.mechanisms import NoisySGD


def noisy_sgd_bounds(bounded: bool, only: str | None = None, classes_ok=None):
    """(label, Bound) of every registered explicit last-iterate RDP bound of NoisySGD whose
    domain matches the scenario's (``bounded``)."""
    out = []
    for r in registry.all_results():
        for bd in r.bounds:
            m = bd.mechanism
            if (isinstance(m, NoisySGD) and m.release == "last" and bd.form == "explicit"
                    and not bd.profile and bd.order is not None
                    and getattr(m.T, "is_Symbol", False)          # a curve over T
                    and (m.domain is not None) == bounded
                    and (only is None or r.id.startswith(only))
                    and (classes_ok is None or all(classes_ok(c) for c in bd.problem_class))):
                out.append((f"{r.id} {bd.label}", bd))
    return out


def assign(bd, scen: dict, sets: dict):
    """Values of the bound's symbols at the scenario, and the free analysis parameters
    (symbol, lo, hi) to minimise over; None when a parameter cannot be assigned."""

    m = bd.mechanism
    v: dict = {}
    pairs = [(m.n, "n"), (m.b, "b"), (m.eta, "eta"), (m.C, "C"), (m.sigma, "sigma_dp"),
             (bd.order, "alpha")] + ([(m.domain, "D")] if m.domain is not None else [])
    pairs += [(c.L, "L") for c in bd.problem_class if isinstance(c, LSmooth)]
    for e, key in pairs:
        if isinstance(e, sp.Symbol):
            v[e.name] = scen[key]
    if isinstance(m.T, sp.Symbol):
        v[m.T.name] = None                           # set per row
    free = []
    defs = {h.expr.lhs.name: h.expr.rhs for h in bd.hypotheses
            if h.is_relational and isinstance(h.expr, sp.Equality)
            and isinstance(h.expr.lhs, sp.Symbol) and h.expr.lhs.name not in v}
    v["__defs__"] = defs
    syms = sorted((bd.expr.free_symbols | {s for h in bd.hypotheses if h.is_relational
                                           for s in h.expr.free_symbols}),
                  key=lambda s: s.name)
    left = [s for s in syms if s.name not in v and s.name not in defs]
    for d in domains_for([h.expr for h in bd.hypotheses if h.is_relational], left):
        if d.sym.name in sets:
            v[d.sym.name] = sets[d.sym.name]
        elif 0 <= d.lo and d.hi <= 1 and not d.integer:
            free.append(d.sym.name)
        else:
            return None
    return v, free


def _implicit_holds(imp, v: dict) -> bool:
    x = v.get(imp.var.name)
    top = implicit_value(imp, v)
    return x is not None and top is not None and x <= top


def bound_value(bd, values: dict, free: list[str]) -> float:
    grid = list(np.linspace(0.01, 0.99, 50)) + [0.999]
    best = math.nan
    for pt in (np.array(np.meshgrid(*[grid] * len(free))).reshape(len(free), -1).T
               if free else [()]):
        v = dict(values, **dict(zip(free, pt)))
        defs = v.pop("__defs__", {})
        try:
            for name, e in defs.items():
                v[name] = evaluate(e, v)
        except Unavailable:
            continue
        if not all(holds(h.expr, v) for h in bd.hypotheses if h.is_relational):
            continue
        try:
            val = evaluate(bd.expr, v)
        except Unavailable:
            continue
        if math.isnan(best) or val < best:
            best = val
    return best

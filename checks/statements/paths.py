"""Paths toward both ends of a statement's parameters (DESIGN.md, *Statement checks*):
from a base point, each parameter moved alone toward each end of its admissible range
(×factor per step toward ∞, ÷factor toward 0, geometrically toward an interval's end,
integers rounded down to 1), and the provider's own joint paths realised on the paper's
symbols."""
from __future__ import annotations

import math

from checks.statements.evaluator import Evaluator
from checks.statements.space import realise


def arrow(direction: str, lo: float | None, hi: float | None) -> str:
    """How a path's direction is written: → ∞, → 0, → an interval's end."""
    if direction == "up":
        return "→ ∞" if hi is None else f"→ {hi:g}"
    return f"→ {lo:g}" if lo is not None else "→ 0"


def one_parameter(ev: Evaluator, base: dict, name: str, direction: str, steps: int,
                  factor: float) -> list[dict]:
    """Admissible points moving ``name`` from ``base`` toward one end of its range (others
    fixed), ``steps`` at most; stops at the first inadmissible point or where rounding
    stalls."""
    d = ev.space.domain_of(name)
    x0 = base.get(name)
    if x0 is None or d is None:
        return []
    lo = d.lo if math.isfinite(d.lo) else None
    hi = d.hi if math.isfinite(d.hi) else None
    pts: list[dict] = []
    for k in range(1, steps + 1):
        if direction == "up":
            x = (hi - (hi - x0) / factor**k) if hi is not None else x0 * factor**k
        else:
            x = (lo + (x0 - lo) / factor**k) if lo is not None else x0 / factor**k
        if d.integer:
            x = float(max(1, round(x)))
        w = ev.admit(ev.space.admissible(dict(base, **{name: float(x)})))
        if w is None:
            break
        if pts and w[name] == pts[-1][name]:
            break
        pts.append(w)
    return pts


def parameter_paths(ev: Evaluator, base: dict, *, variables=None, steps: int,
                    factor: float, prefix: str = "", min_points: int = 3, cut=None
                    ) -> list[tuple[str, str, list[dict]]]:
    """Every parameter in ``variables`` (names, in that order; None: every free symbol of the
    statement, by name) moved toward both ends of its range from ``base``:
    ``[(name, parameter, [base, …])]``
    (name: ``"parameter → end"``), paths of at least ``min_points`` moved points.  With a
    list ``cut``, each path that no admissible point continues is appended as (name, the
    hypothesis in force that fails at its first step, or None)."""
    stmt, space = ev.stmt, ev.space
    sampled = {d.sym.name for d in space.doms}
    names = (sorted({s.name for s in stmt.free_symbols} & sampled) if variables is None
             else [nm for nm in variables if nm in sampled])      # the plan's order
    out = []
    for nm in names:
        d = space.domain_of(nm)
        lo = d.lo if math.isfinite(d.lo) else None
        hi = d.hi if math.isfinite(d.hi) else None
        for direction in ("up", "down"):
            pts = one_parameter(ev, base, nm, direction, steps, factor)
            if len(pts) >= min_points:
                out.append((f"{prefix}{nm} {arrow(direction, lo, hi)}", nm, [base] + pts))
            elif not pts and cut is not None:
                first = one_parameter_point(ev, base, nm, direction, factor)
                cut.append((f"{prefix}{nm} {arrow(direction, lo, hi)}",
                            None if first is None else ev.space.failing(first)))
    return out


def one_parameter_point(ev: Evaluator, base: dict, name: str, direction: str,
                        factor: float) -> dict | None:
    """The first point of :func:`one_parameter`'s path, admissible or not (None where the
    parameter has no domain)."""
    d = ev.space.domain_of(name)
    x0 = base.get(name)
    if x0 is None or d is None:
        return None
    lo = d.lo if math.isfinite(d.lo) else None
    hi = d.hi if math.isfinite(d.hi) else None
    if direction == "up":
        x = (hi - (hi - x0) / factor) if hi is not None else x0 * factor
    else:
        x = (lo + (x0 - lo) / factor) if lo is not None else x0 / factor
    if d.integer:
        x = float(max(1, round(x)))
    return dict(base, **{name: float(x)})


def generic_paths(ev: Evaluator, base: dict, **kw) -> dict[str, list[dict]]:
    """:func:`parameter_paths` as ``{name: points}``."""
    return {name: pts for name, _, pts in parameter_paths(ev, base, **kw)}


def provider_paths(ev: Evaluator, base: dict) -> dict[str, list[dict]]:
    """The provider's joint paths (sequences of targets of its derived quantities),
    realised from ``base``."""
    out = {}
    for name, seq in ev.prov.paths(ev.stmt).items():
        pts = [ev.admit(realise(ev.stmt, ev.prov, t, base, ev.space)) for t in seq]
        pts = [p for p in pts if p is not None]
        if pts:
            out[name] = pts
    return out


#: plain values a base point's free parameters are moved to where admissible
NICE = (1.0, 2.0, 0.5, 0.1, 10.0, 0.01, 100.0)
NICE_INT = (8.0, 16.0, 32.0, 64.0, 4.0, 2.0, 128.0)


def simple(ev: Evaluator, v: dict, keep: set) -> dict:
    """``v`` with every sampled symbol outside ``keep`` moved, where admissible, to a plain
    value (the middle of a bounded interval first, then 1, 2, 1/2 …; 8, 16, 32 … for
    integers): base points a reader can follow, from which the paths start."""
    w = v
    for _ in range(3):
        for dom in ev.space.doms:
            nm = dom.sym.name
            if nm in keep:
                continue
            cands = NICE_INT if dom.integer else NICE
            if not dom.integer and math.isfinite(dom.lo) and math.isfinite(dom.hi):
                width = dom.hi - dom.lo
                cands = tuple(dom.lo + f * width for f in (0.5, 0.1, 0.01, 0.9)) + cands
            for c in cands:
                x = ev.admit(ev.space.admissible(dict(w, **{nm: float(c)})))
                if x is not None:
                    w = x
                    break
    return w

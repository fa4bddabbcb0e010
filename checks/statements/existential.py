"""Existential constants: "there is a constant C, depending on ``depends_on`` only, such
that metric ≤ expr" (:attr:`theory.model.Rate.constants`; DESIGN.md, *Statement checks*).

The expression must be affine in its constants with a positive coefficient: with one
constant, bound = R + C·A at a scenario, and the truth needs C ≥ (truth − R)/A.  The
report gives, per value of ``depends_on``, the smallest C with upper ≤ R + C·A on every
evaluated scenario (the smallest constant that makes the statement hold on the truth) and
the certified lower value (lower − R)/A.  VIOLATED ("no admissible constant") only when
that certified lower value grows without bound along a family with ``depends_on`` fixed:
the provider's growth parameter (its plan's ``growth``, e.g. the mechanism's T) on a path
of ``path_steps`` steps of ×``path_factor`` ending at the largest value in the provider's
reach from the point needing the largest constant, lower − R > 0 throughout and the
certified needed constant multiplied by ≥ ``growth_step`` at each step and by
≥ ``growth_total`` over the path.  The path stops at the first step whose certified needed
constant is not positive or grew too little (the dearer steps could no longer make it
VIOLATED).  A constant that also enters the truth (the algorithm, the classes) is never
decided VIOLATED (it is reported only).
"""
from __future__ import annotations

import math

import sympy as sp

from checks.statements.evaluator import OUT_OF_REACH, Evaluator
from checks.statements.explicit import candidates, kind, truth_symbols, witness
from checks.statements.outcome import Outcome
from checks.truth.base import NotMember, SearchPlan, Truth, evaluate


def _parts(stmt, v) -> tuple[float, float]:
    """(constant-free part R, coefficient A) of the bound at ``v``."""
    ks = list(stmt.constants)
    zero = {k: 0 for k in ks}
    R = evaluate(stmt.expr.xreplace(zero), v)
    A = sum(evaluate(sp.diff(stmt.expr, k).xreplace(zero), v) for k in ks)
    return R, A


def _truth(ev: Evaluator, v) -> Truth | None:
    try:
        ev.prov.member(ev.stmt, v)
        return ev.truth(v)
    except (NotMember,) + OUT_OF_REACH as exc:
        ev.last_unavailable = str(exc)
        return None


def _wanted(stmt, ev: Evaluator, v) -> bool:
    """Whether the loop of :func:`existential` asks the truth at ``v``."""
    try:
        _, A = _parts(stmt, v)
    except OUT_OF_REACH:
        return False
    return A > 0 and ev.askable(v)


def _growth_path(ev: Evaluator, plan: SearchPlan, v0: dict) -> tuple[list[dict], str]:
    """The growth parameter's path from ``v0``: ×factor per step, ``path_steps`` steps,
    ending at the largest value in reach (at most ``path_steps`` steps above ``v0``)."""
    stmt, space = ev.stmt, ev.space
    param = getattr(stmt.mechanism, plan.growth, None) if plan.growth else None
    names = [s.name for s in getattr(param, "free_symbols", ())]
    if len(names) != 1:
        return [], f"the growth parameter {plan.growth} is not a function of one symbol"
    nm, f, x0 = names[0], plan.path_factor, v0[names[0]]

    dom = space.domain_of(nm)
    # a count (the mechanism's steps, its sample size) given as an integer stays one
    integer = (dom is not None and dom.integer) or float(x0).is_integer()

    def at(x):
        if integer:
            x = max(1, round(x))
        w = ev.admit(space.admissible(dict(v0, **{nm: float(x)})))
        return w if w is not None and ev.in_reach(w) else None

    # the largest value in reach up to path_steps steps above x0 (reach is monotone in
    # the size of the scenario: geometric bisection on cheap checks, nothing computed)
    top = x0 * f ** plan.path_steps
    if at(top) is None:
        lo, hi = x0, top
        for _ in range(60):
            if hi / lo < 1 + 1e-6 or (integer and hi - lo <= 1):
                break
            mid = math.sqrt(lo * hi)
            lo, hi = (mid, hi) if at(mid) is not None else (lo, mid)
        top = float(max(1, math.floor(lo))) if integer else lo
    pts = []
    for k in range(plan.path_steps, -1, -1):
        w = at(top / f ** k)
        if w is None:
            return [], (f"the {nm}-path (×{f:g} per step) from the point needing the largest "
                        f"constant is not followed: {nm} = {top / f ** k:g} is not admissible "
                        "or out of reach")
        pts.append(w)
    # the family must keep what the constants may depend on fixed: a constant allowed to
    # depend on the growth parameter (or on a symbol defined through it) may grow with it
    moved = [s.name for s in stmt.depends_on
             if any(w.get(s.name) != v0.get(s.name) for w in pts)]
    if moved:
        return [], (f"the {nm}-path is not followed: it moves {', '.join(moved)}, on which "
                    "the constants may depend")
    return pts, ""


def existential(stmt, ev: Evaluator, plan: SearchPlan, *, budget: int, seed: int) -> Outcome:
    prov = ev.prov
    ks = list(stmt.constants)
    cname = ", ".join(k.name for k in ks if k in stmt.expr.free_symbols)
    dep = [s.name for s in stmt.depends_on]
    used = truth_symbols(stmt, prov)
    for sym, e in ev.space.definitions:                 # σ = c2√(T log(1/δ))/(Nε) …
        if sym in used:
            used |= e.free_symbols
    decidable = not (set(ks) & used)
    pts, n_ex = candidates(ev, plan, budget, seed, tag="existential")
    pts = [v for v in pts if v is not None]
    # the points the loop below evaluates, in one batch (each point's seed is its own:
    # the same truths as one at a time); one whose truth is out of reach lets a later
    # one in, which is asked alone
    ev.prefetch([v for v in pts if _wanted(stmt, ev, v)][: plan.max_points or len(pts)])
    rows = []
    for v in pts:
        if plan.max_points is not None and len(rows) >= plan.max_points:
            break
        try:
            R, A = _parts(stmt, v)
        except OUT_OF_REACH:
            continue
        tr = _truth(ev, v)
        if tr is None or not (A > 0):
            continue
        ev.stats["evaluated"] += 1
        rows.append((v, tr, R, A))
    head = f"{kind(stmt)} {stmt.label} ({prov.name})"
    desc = prov.describe(stmt)
    desc = f"; {desc}" if desc else ""
    if not rows:
        return Outcome(stmt.label, tested=False,
                       detail=f"{head}: NOT-TESTED — no admissible scenario within the "
                              f"provider's reach ({ev.last_unavailable or 'none drawn'}){desc}")
    groups: dict = {}
    for row in rows:
        v, tr, R, A = row
        key = tuple(round(v.get(nm, math.nan), 12) for nm in dep)
        need, low = (tr.upper - R) / A, (tr.lower - R) / A
        g = groups.setdefault(key, {"need": -math.inf, "low": -math.inf, "row": row})
        if need > g["need"]:
            g.update(need=need, row=row)
        g["low"] = max(g["low"], low)
    gtxt = "; ".join(
        f"at {', '.join(f'{nm} = {x:g}' for nm, x in zip(dep, key)) or 'every point'}: "
        + (f"{cname} ≥ {g['need']:.4g} needed (certified lower {max(g['low'], 0):.4g})"
           if g["need"] > 0 else f"every {cname} > 0 works (truth + error ≤ the "
                                 f"{cname}-free part)")
        for key, g in sorted(groups.items()))
    key, g = max(groups.items(), key=lambda kv: kv[1]["low"])
    path_txt = ""
    if g["low"] > 0:
        path, why = _growth_path(ev, plan, g["row"][0])
        path_txt = f"; {why}" if why else ""
        seq, stopped = [], ""
        for k, vk in enumerate(path):
            tr = _truth(ev, vk)
            if tr is None:
                path_txt = (f"; the {plan.growth}-path is not followed: the truth is out of "
                            f"reach ({ev.last_unavailable})")
                seq = []
                break
            R, A = _parts(stmt, vk)
            seq.append((vk, tr, R, A, (tr.lower - R) / A))
            lo_k = seq[-1][4]
            if k < len(path) - 1 and (lo_k <= 0 or (k and lo_k < plan.growth_step * seq[-2][4])):
                stopped = (f" (stopped: the certified {cname} "
                           + ("is not positive" if lo_k <= 0 else
                              f"grew less than ×{plan.growth_step:g}") + ")")
                break
        if seq:
            gname = plan.growth
            path_txt = (f"; {gname}-path from the point needing the largest constant: "
                        + " → ".join(f"{gname} = {evaluate(getattr(stmt.mechanism, gname), s[0]):g}"
                                     f": certified {cname} ≥ {s[4]:.4g}" for s in seq) + stopped)
        lows = [s[4] for s in seq]
        grows = (len(lows) == plan.path_steps + 1 and lows[0] > 0
                 and all(lows[i + 1] >= plan.growth_step * lows[i] for i in range(len(lows) - 1))
                 and lows[-1] >= plan.growth_total * lows[0])
        if grows and decidable:
            vk, tr, R, A, lo = seq[-1]
            w = _witness(vk, tr, R)
            w["needed_constant_lower"] = repr(lo)
            return Outcome(stmt.label, violated=True,
                           ratio=tr.lower / R if R > 0 else math.inf, witness=w,
                           detail=f"{head}: VIOLATED — no admissible {cname}: the certified "
                                  f"smallest {cname} grows ×≥{plan.growth_step:g} per "
                                  f"×{plan.path_factor:g} in {plan.growth} "
                                  f"(×≥{plan.growth_total:g} in all) while truth − error stays "
                                  f"above the {cname}-free part{path_txt}{desc}",
                           samples=ev.stats["evaluated"])
        if grows:
            path_txt += f" (grows, but {cname} also enters the truth: not decided)"
    top = max(rows, key=lambda rw: rw[1].upper - rw[2])
    v, tr, R, A = top
    cval = max(groups[tuple(round(v.get(nm, math.nan), 12) for nm in dep)]["need"], 0.0)
    b = R + cval * A
    return Outcome(stmt.label, ratio=tr.lower / b if b > 0 else None,
                   witness=dict(_witness(v, tr, b), smallest_constant=repr(cval)),
                   detail=f"{head}: holds on scenarios with existential {cname} — smallest "
                          f"making it hold on the truth: {gtxt}{path_txt}; "
                          f"{len(rows)} scenarios evaluated{desc}",
                   samples=ev.stats["evaluated"])


def _witness(v, tr: Truth, b) -> dict:
    return witness(v, tr, b, None)

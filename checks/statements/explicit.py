"""Explicit forms: the search for the largest truth/bound over the admissible space, and
the confirmation of a violation at 50 digits (DESIGN.md, *Statement checks*).

Points: the provider's anchors realised on drawn points, random admissible points, a
targeted (Hypothesis) phase toward the largest truth/bound where the provider's truths are
cheap, and — where its plan asks — the paths toward both ends of every parameter.  A point
whose truth is out of reach is judged by the provider's certified lower bound if it has
one (which can show a violation, never that the bound holds).  Parameters of the bound that
the truth does not depend on (an analysis parameter such as a noise split β) are then
minimised over their admissible range: the claim is for every admissible value.

VIOLATED only when the certified lower truth exceeds the bound and the precise truth (or
the precise lower bound) re-checked against the bound at 50 digits confirms it; the witness
names both orders and which of them exceed the bound.  A scenario counts for HOLDS only
where truth + error ≤ bound, or where the provider's closed-form truth is ≤ the bound
exactly at the scenario's exact values (a tight bound holds); a statement with no decided
scenario, or whose largest certified ratio is not confirmed, is NOT-TESTED ("UNDECIDED").
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy as sp

from checks import resources
from checks.falsify import complexity
from checks.statements.evaluator import Evaluator, _bound_values
from checks.statements.outcome import Outcome
from checks.statements.paths import generic_paths, simple
from checks.statements.search import hypothesis_phase
from checks.statements.space import Space, _Skip, realise, seeded
from checks.truth.base import (
    SearchPlan,
    Truth,
    Unavailable,
    all_classes,
    evaluate_mp,
    is_rate,
)

#: digits of the confirmation
CONFIRM_DPS = 50


def kind(stmt) -> str:
    """How a statement is named in the details: ``rate``, ``bound`` or ``O-bound``."""
    if is_rate(stmt):
        return "rate"
    return "O-bound" if stmt.form == "O" else "bound"


def truth_symbols(stmt, prov) -> set:
    """The symbols a provider's truth depends on (the mechanism's, the order's, a profile's
    ε, the classes', a rate's confidence, and those the provider reads besides)."""
    used = set(stmt.mechanism.free_symbols)
    if getattr(stmt, "order", None) is not None:
        used |= stmt.order.free_symbols
    if getattr(stmt, "profile", False):
        used |= stmt.expr.free_symbols          # ε is where the profile is evaluated
    if getattr(stmt, "confidence", None) is not None:
        used |= stmt.confidence.free_symbols
    for c in all_classes(stmt):
        used |= c.free_symbols
    return used | set(prov.reads(stmt))


def _free_of_truth(stmt, prov, space: Space) -> list[sp.Symbol]:
    """Symbols of the bound that the truth does not depend on (analysis parameters)."""
    expr = stmt.delta if getattr(stmt, "profile", False) else stmt.expr
    return sorted((expr.free_symbols - truth_symbols(stmt, prov)) & set(space.symbols),
                  key=lambda s: s.name)


def _polish_analysis(ev: Evaluator, v: dict, tr: Truth, syms) -> tuple[dict, float, float]:
    """Minimise the bound over parameters the truth does not depend on (scan of the
    admissible range of each, others fixed).  Returns (point, bound value, ratio)."""
    best_v, best_b = v, _bound_values(ev.stmt, v)
    for s in syms:
        d = ev.space.domain_of(s.name)
        lo = d.lo if d is not None and math.isfinite(d.lo) else None
        hi = d.hi if d is not None and math.isfinite(d.hi) else None
        x0 = best_v[s.name]
        if lo is not None and hi is not None:
            cands = list(np.linspace(lo, hi, 51)[1:-1]) + [lo + (hi - lo) * 10.0**-k for k in
                                                          range(2, 7)] + \
                [hi - (hi - lo) * 10.0**-k for k in range(2, 7)]
        else:
            cands = [x0 * 10.0**k for k in range(-6, 7)]
        for x in cands:
            w = ev.space.admissible(dict(best_v, **{s.name: float(x)}))
            if w is None:
                continue
            try:
                b = _bound_values(ev.stmt, w)
            except _Skip:
                continue
            if 0 < b < best_b:
                best_v, best_b = w, b
    return best_v, best_b, tr.lower / best_b


def anchored(ev: Evaluator, plan: SearchPlan, draws: list[dict]) -> list[dict]:
    """Each of the provider's anchors realised on drawn points: on the first
    ``anchor_bases`` of the first ``max(anchor_bases, base_tries)`` draws that admit it (on
    the space's fallback point where nothing is drawn); moved to plain values except the
    anchor's own targets where the plan asks (``simple_bases``)."""
    stmt, prov, space = ev.stmt, ev.prov, ev.space
    derived = prov.derived(stmt) if plan.simple_bases else {}
    out = []
    for targets in prov.anchors(stmt):
        got = 0
        for b0 in draws[:max(plan.anchor_bases, plan.base_tries)] or [space.fallback()]:
            w = ev.admit(realise(stmt, prov, targets, b0, space))
            if w is None:
                continue
            if plan.simple_bases:
                keep = {s.name for t in targets if derived.get(t) is not None
                        for s in sp.sympify(derived[t]).free_symbols}
                w = simple(ev, w, keep)
            out.append(w)
            got += 1
            if got >= plan.anchor_bases:
                break
    return out


def candidates(ev: Evaluator, plan: SearchPlan, budget: int, seed: int,
               tag: str = "base") -> tuple[list[dict], int]:
    """The points an explicit search evaluates first: the anchors realised
    (:func:`anchored`), then random admissible points.  Returns (points, cap of random
    points)."""
    n_ex = max(1, min(int(budget), plan.random))
    rng = np.random.default_rng(seeded(seed, tag))
    base_pts = ev.space.draw(rng, 64)
    return anchored(ev, plan, base_pts) + [ev.admit(v) for v in base_pts[:n_ex]], n_ex


def search(stmt, ev: Evaluator, plan: SearchPlan, *, budget: int, seed: int,
           confirm: bool = True) -> Outcome:
    """The explicit form's search (see the module docstring)."""
    space, prov = ev.space, ev.prov
    best = {"ratio": -math.inf, "v": None, "tr": None, "b": None}
    lower_best = {"ratio": -math.inf, "v": None, "tr": None, "b": None}
    seen = {"n": 0}
    violators = []             # (ratio, point, truth, bound) where lower > bound
    equal = getattr(stmt, "rel", "<=") == "="
    below = {"ratio": math.inf, "v": None, "tr": None, "b": None}   # "=": truth < bound

    def consider(v):
        if v is None or (plan.max_points is not None and seen["n"] >= plan.max_points):
            return None
        got = ev.at(v)
        if got is None:
            # out of the truth's reach: a certified lower bound may still show a violation
            low = ev.lower_at(v) if confirm else None
            if low is not None and low[2] > lower_best["ratio"]:
                lower_best.update(ratio=low[2], v=dict(v), tr=low[0], b=low[1])
            return None
        seen["n"] += 1
        tr, bval, ratio = got
        if best["v"] is None or ratio > best["ratio"]:
            best.update(ratio=ratio, v=dict(v), tr=tr, b=bval)
        if ratio > 1 and prov.stochastic:
            violators.append((ratio, dict(v), tr, bval))
        if equal and tr.upper < bval and tr.upper / bval < below["ratio"]:
            below.update(ratio=tr.upper / bval, v=dict(v), tr=tr, b=bval)
        return ratio

    pts, n_ex = candidates(ev, plan, budget, seed)
    # the first points the search will evaluate, in one batch (the same truths as one at
    # a time: each point's seed is its own); a point whose truth is then out of reach
    # lets a later one in, which is asked alone
    ev.prefetch([v for v in pts if ev.wanted(v)][: plan.max_points or len(pts)])
    for v in pts:
        consider(v)
    if plan.targeted:
        hypothesis_phase(space, lambda v: consider(ev.admit(v)), n_ex, seeded(seed, "hyp"))
    if plan.explicit_paths and best["v"] is not None:
        for pts in generic_paths(ev, best["v"], variables=plan.variables,
                                 steps=plan.path_steps, factor=plan.path_factor,
                                 min_points=1).values():
            for v in pts[1:]:
                consider(v)
    head = f"{kind(stmt)} {stmt.label} ({prov.name})"
    if confirm and lower_best["ratio"] > 1 and lower_best["ratio"] > best["ratio"]:
        ok, txt, tr = _confirm(stmt, ev, lower_best["v"], lower_best["tr"], lower=True)
        if ok:
            return _violated(stmt, ev, lower_best, tr, txt, head, n_ex, plan)
    if best["v"] is None:
        return no_point(stmt, prov, ev)
    # analysis parameters (β …): the bound must hold for every admissible value
    free = _free_of_truth(stmt, prov, space)
    if free:
        v, b, r = _polish_analysis(ev, best["v"], best["tr"], free)
        if r > best["ratio"]:
            best.update(v=v, b=b, ratio=r)
    ratio = best["ratio"]
    budget_txt = _budget_text(ev, n_ex, plan)
    if ratio > 1 and confirm:
        if violators:
            # a measured violation: where another violating scenario's precise truth is
            # exact (error 0), that one is the witness a reviewer can re-compute
            got = _exact_violation(stmt, ev, violators)
            if got is not None:
                (r, v, _, b), ptr, txt = got
                return _violated(stmt, ev, {"v": v, "b": b}, ptr, txt, head, n_ex, plan)
        ok, txt, tr = _confirm(stmt, ev, best["v"], best["tr"])
        if ok and not prov.stochastic:
            simple = simplified(stmt, ev, best["v"])
            if simple != best["v"]:
                ok2, txt2, tr2 = _confirm(stmt, ev, simple, best["tr"])
                if ok2:
                    b2 = _bound_values(stmt, simple)
                    best = dict(best, v=simple, b=b2)
                    txt, tr = txt2, tr2
        if ok:
            return _violated(stmt, ev, best, tr, txt, head, n_ex, plan)
        # the certified lower truth exceeds the bound but the precise re-check does not
        # confirm it: neither VIOLATED nor HOLDS — the statement is undecided here
        head += (f": UNDECIDED — the largest ratio {ratio:.6g} was not confirmed ({txt}); "
                 "reported as not tested")
        return Outcome(stmt.label, ratio=ratio, tested=False,
                       witness=witness(best["v"], best["tr"], best["b"], stmt),
                       detail=f"{head}; {budget_txt}", samples=ev.stats["evaluated"])
    if equal and below["v"] is not None and confirm:
        ok, txt, tr = _confirm_below(stmt, ev, below["v"], below["tr"])
        if ok:
            r = tr.upper / below["b"]
            return Outcome(stmt.label, violated=True, ratio=r,
                           witness=witness(below["v"], tr, below["b"], stmt),
                           detail=f"{head}: VIOLATED — the statement claims equality and the "
                                  f"truth is below the claimed value, truth/claim ≤ {r:.6g} "
                                  f"({txt}); {_budget_text(ev, n_ex, plan)}",
                           samples=ev.stats["evaluated"])
    if equal and ev.stats["exact"] == 0:
        return Outcome(stmt.label, ratio=ratio, tested=False,
                       witness=witness(best["v"], best["tr"], best["b"], stmt),
                       detail=f"{head}: UNDECIDED — the statement claims equality: no "
                              "scenario refutes it, and equality is decided only where a "
                              "closed form gives it exactly (none here); "
                              f"{_budget_text(ev, n_ex, plan)}",
                       samples=ev.stats["evaluated"])
    if ev.stats["undecided"] >= ev.stats["evaluated"]:
        # HOLDS needs truth + error <= bound somewhere: every scenario straddled the bound
        return Outcome(stmt.label, ratio=ratio, tested=False,
                       witness=witness(best["v"], best["tr"], best["b"], stmt),
                       detail=f"{head}: UNDECIDED — at every evaluated scenario the truth's "
                              f"error interval contains the bound (not tested); {budget_txt}",
                       samples=ev.stats["evaluated"])
    return Outcome(stmt.label, ratio=ratio,
                   witness=witness(best["v"], best["tr"], best["b"], stmt),
                   detail=f"{head}: holds on scenarios, tightest truth/bound = {ratio:.6g}; "
                          f"{budget_txt}", samples=ev.stats["evaluated"])


#: violating scenarios of a measured truth whose precise truths are asked for an exact one
EXACT_TRIES = 8


def _exact_violation(stmt, ev: Evaluator, violators):
    """The first of the largest-ratio violating scenarios whose precise truth is exact
    (error 0) and confirmed at 50 digits: ((ratio, point, truth, bound), precise truth,
    text), or None."""
    for cand in sorted(violators, key=lambda x: -x[0])[:EXACT_TRIES]:
        ok, txt, ptr = _confirm(stmt, ev, cand[1], cand[2])
        if ok and ptr.error == 0:
            return cand, ptr, txt
    return None


def _budget_text(ev: Evaluator, n_ex: int, plan: SearchPlan) -> str:
    s = ev.stats
    txt = (f"{s['evaluated']} admissible scenarios ({s['not_member']} not in every class, "
           f"{s['unavailable']} out of the provider's reach, {s['undecided']} undecided "
           f"(truth ± error straddles the bound), {s['exact']} decided exactly by the closed "
           f"form; cap {n_ex} random + anchors"
           + (" + targeted" if plan.targeted else "")
           + (" + paths toward both ends" if plan.explicit_paths else "")
           + (f", at most {plan.max_points} evaluated" if plan.max_points else "") + ")")
    desc = ev.prov.describe(ev.stmt)
    return txt + (f"; {desc}" if desc else "")


#: truth evaluations spent at most on simplifying a violating scenario's values
SIMPLIFY_EVALS = 16


def simplified(stmt, ev: Evaluator, v: dict) -> dict:
    """A violating scenario with its values moved, where the violation stays (certified),
    to simpler numbers — one or two significant digits, the nearest integer, a power of
    ten: witnesses a reader can re-compute (t = 1/2, not t = 0.4999371…).  At most
    :data:`SIMPLIFY_EVALS` truth evaluations; the result is confirmed like any witness."""
    w, left = dict(v), SIMPLIFY_EVALS
    for dom in ev.space.doms:
        nm = dom.sym.name
        x = w.get(nm)
        if x is None or not math.isfinite(x) or complexity(x) <= 4:
            continue
        cands = {float(f"{x:.1g}"), float(f"{x:.2g}"), float(round(x))}
        if x != 0:
            cands.add(math.copysign(10.0 ** round(math.log10(abs(x))), x))
        for c in sorted(cands, key=lambda c: (complexity(c), abs(c - x))):
            if left <= 0:
                return w
            if c == x or complexity(c) >= complexity(x) or (dom.integer and c != round(c)):
                continue
            y = ev.admit(ev.space.admissible(dict(w, **{nm: c})))
            if y is None:
                continue
            left -= 1
            got = ev.at(y)
            if got is not None and got[2] > 1:
                w = y
                break
    return w


def _violated(stmt, ev, best, tr, txt, head, n_ex, plan) -> Outcome:
    orders = tr.orders_above(_bound_values(stmt, best["v"]))
    if not is_rate(stmt):
        txt += f"; order(s) exceeding the bound: {', '.join(orders) or 'none alone'}"
        if orders == ["add"]:
            txt += (" only — the remove order holds; RDP under add/remove adjacency "
                    "needs both")
        elif orders == ["remove"]:
            txt += " only — the add order holds; RDP under add/remove adjacency needs both"
    ratio = tr.lower / best["b"]
    return Outcome(stmt.label, violated=True, ratio=ratio,
                   witness=witness(best["v"], tr, best["b"], stmt),
                   detail=f"{head}: VIOLATED, truth/bound = {ratio:.6g} ({txt}); "
                          f"{_budget_text(ev, n_ex, plan)}",
                   samples=ev.stats["evaluated"])


def no_point(stmt, prov, ev) -> Outcome:
    """NOT-TESTED: no admissible scenario could be evaluated, with the reasons counted."""
    why = []
    if ev.stats["not_member"]:
        why.append(f"{ev.stats['not_member']} not in every class ({ev.not_member_reason})")
    if ev.stats["unavailable"]:
        why.append(f"{ev.stats['unavailable']} out of reach ({ev.last_unavailable})")
    if ev.stats["rejected"]:
        why.append(f"{ev.stats['rejected']} with a bound not positive/evaluable")
    return Outcome(stmt.label, tested=False,
                   detail=f"{kind(stmt)} {stmt.label} ({prov.name}): NOT-TESTED — no "
                          f"admissible scenario could be evaluated "
                          f"({'; '.join(why) or 'none drawn'})")


def _precise(stmt, ev: Evaluator, v, *, lower: bool = False):
    """(the provider's precise truth at ``v`` — its precise lower bound with ``lower`` —,
    the bound at 50 digits); raises what the provider raises."""
    if lower:
        got = ev.lower_at(v, precise=True)
        if got is None:
            raise Unavailable("no precise lower bound there")
        ptr = got[0]
    else:
        ptr = ev.precise_truth(v)
    bmp = evaluate_mp(stmt.delta if getattr(stmt, "profile", False) else stmt.expr, v,
                      CONFIRM_DPS)
    return ptr, bmp


def _confirm(stmt, ev: Evaluator, v, tr, *, lower: bool = False):
    """Re-check a violation with the provider's precise truth (``lower``: its precise lower
    bound) and the bound at 50 digits.  Returns (ok, text, truth)."""
    try:
        ptr, bmp = _precise(stmt, ev, v, lower=lower)
    except (Unavailable, ValueError, ArithmeticError, MemoryError) as exc:
        why = resources.why(exc) if isinstance(exc, MemoryError) else exc
        return False, f"precise truth unavailable: {why}", tr
    with mpmath.workdps(CONFIRM_DPS):
        low = mpmath.mpf(ptr.extra.get("lower_mp", ptr.lower))
        # the truth's lower end to the 15 digits every provider's precise truth carries (a
        # value computed at the process's working precision shows noise beyond them), the
        # bound to 30 of its 50
        ptr.extra["confirmed_at"] = (mpmath.nstr(low, 15), mpmath.nstr(bmp, 30))
        if low > bmp:
            what = "certified lower bound" if lower else "truth"
            return True, (f"confirmed: {ptr.method}: {what} ≥ {mpmath.nstr(low, 12)} > bound "
                          f"{mpmath.nstr(bmp, 12)} (bound at {CONFIRM_DPS} digits)"), ptr
    return False, (f"precise truth {ptr.lower:.12g} does not exceed the bound "
                   f"{mpmath.nstr(bmp, 12)}"), ptr


def _confirm_below(stmt, ev: Evaluator, v, tr):
    """Re-check a truth below the claimed value: the precise truth's upper end against the
    claim at 50 digits.  Returns (ok, text, truth)."""
    try:
        ptr, bmp = _precise(stmt, ev, v)
    except (Unavailable, ValueError, ArithmeticError, MemoryError) as exc:
        why = resources.why(exc) if isinstance(exc, MemoryError) else exc
        return False, f"precise truth unavailable: {why}", tr
    with mpmath.workdps(CONFIRM_DPS):
        up = mpmath.mpf(ptr.upper)
        ptr.extra["confirmed_at"] = (mpmath.nstr(up, 15), mpmath.nstr(bmp, 30))
        if up < bmp:
            return True, (f"confirmed: {ptr.method}: truth ≤ {mpmath.nstr(up, 12)} < claimed "
                          f"{mpmath.nstr(bmp, 12)} (at {CONFIRM_DPS} digits)"), ptr
    return False, f"precise truth {ptr.upper:.12g} is not below {mpmath.nstr(bmp, 12)}", ptr


def witness(v, tr: Truth, bval, stmt) -> dict:
    """The scenario and the truth at it, as strings."""
    w = {k: (repr(x) if isinstance(x, float) and not float(x).is_integer() else
             str(int(x)) if isinstance(x, float) else str(x)) for k, x in sorted(v.items())}
    w.update({"truth_add": repr(float(tr.forward)), "truth_remove": repr(float(tr.backward)),
              "truth_max": repr(float(tr.max)), "truth_error": repr(float(tr.error)),
              "bound": repr(float(bval)), "method": tr.method})
    if tr.scenario:
        w["scenario"] = tr.scenario
    if "confirmed_at" in tr.extra:
        w["truth_lower_50_digits"], w["bound_50_digits"] = tr.extra["confirmed_at"]
    return w

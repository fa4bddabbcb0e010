"""Explicit bounds (a search for the largest truth/bound) and O-forms (is there a
constant? paths toward both ends of every parameter), over one provider's truth
(DESIGN.md, *Statement checks*)."""
from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy as sp

from checks.statements.evaluator import Evaluator, _bound_values
from checks.statements.outcome import Outcome
from checks.statements.search import hypothesis_phase
from checks.statements.space import Space, _Skip, realise, seeded
from checks.truth.base import Truth, Unavailable, all_classes, evaluate_mp

#: admissible points per bound in the default search (the engine's budget caps these)
SEARCH_CAP = 16
#: points per generic O-form path
PATH_STEPS = 4
#: factor per step of a generic path
PATH_FACTOR = 10.0
#: digits of the confirmation
CONFIRM_DPS = 50


def _free_of_truth(stmt, space: Space) -> list[sp.Symbol]:
    """Symbols of the bound that the truth does not depend on (analysis parameters)."""
    used = set(stmt.mechanism.free_symbols)
    if getattr(stmt, "order", None) is not None:
        used |= stmt.order.free_symbols
    if getattr(stmt, "profile", False):
        used |= stmt.expr.free_symbols          # ε is where the profile is evaluated
    for c in all_classes(stmt):
        used |= c.free_symbols
    expr = stmt.delta if getattr(stmt, "profile", False) else stmt.expr
    return sorted((expr.free_symbols - used) & set(space.symbols), key=lambda s: s.name)


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


def search_bound(stmt, prov, *, budget: int, seed: int, confirm: bool = True) -> Outcome:
    space = Space(stmt)
    ev = Evaluator(stmt, prov, space, decide=confirm)
    n_ex = max(1, min(int(budget), SEARCH_CAP))
    rng = np.random.default_rng(seeded(seed, "base"))
    best = {"ratio": -math.inf, "v": None, "tr": None, "b": None}

    def consider(v):
        if v is None:
            return None
        got = ev.at(v)
        if got is None:
            return None
        tr, bval, ratio = got
        if ratio > best["ratio"]:
            best.update(ratio=ratio, v=dict(v), tr=tr, b=bval)
        return ratio

    base_pts = space.draw(rng, 64)
    for targets in prov.anchors(stmt):
        for b0 in (base_pts[:2] or [{}]):
            consider(realise(stmt, prov, targets, b0, space))
    for v in base_pts[:n_ex]:
        consider(v)
    hypothesis_phase(space, consider, n_ex, seeded(seed, "hyp"))
    if best["v"] is None:
        return _no_point(stmt, prov, ev, space)
    # analysis parameters (β …): the bound must hold for every admissible value
    free = _free_of_truth(stmt, space)
    if free:
        v, b, r = _polish_analysis(ev, best["v"], best["tr"], free)
        if r > best["ratio"]:
            best.update(v=v, b=b, ratio=r)
    ratio = best["ratio"]
    budget_txt = (f"{ev.stats['evaluated']} admissible scenarios ({ev.stats['not_member']} not "
                  f"in every class, {ev.stats['unavailable']} out of the provider's reach, "
                  f"{ev.stats['undecided']} undecided (truth ± error straddles the bound), "
                  f"{ev.stats['exact']} decided exactly by the closed form; "
                  f"cap {n_ex} random + anchors + targeted)")
    head = f"bound {stmt.label} ({prov.name})"
    if ratio > 1 and confirm:
        ok, txt, tr = _confirm(stmt, ev, best["v"], best["tr"])
        if ok:
            orders = tr.orders_above(_bound_values(stmt, best["v"]))
            txt += f"; order(s) exceeding the bound: {', '.join(orders) or 'none alone'}"
            if orders == ["add"]:
                txt += (" only — the remove order holds; RDP under add/remove adjacency "
                        "needs both")
            elif orders == ["remove"]:
                txt += " only — the add order holds; RDP under add/remove adjacency needs both"
            return Outcome(stmt.label, violated=True, ratio=tr.lower / best["b"],
                           witness=_witness(best["v"], tr, best["b"], stmt),
                           detail=f"{head}: VIOLATED, truth/bound = {tr.lower / best['b']:.6g} "
                                  f"({txt}); {budget_txt}", samples=ev.stats["evaluated"])
        # the certified lower truth exceeds the bound but the precise re-check does not
        # confirm it: neither VIOLATED nor HOLDS — the statement is undecided here
        head += (f": UNDECIDED — the largest ratio {ratio:.6g} was not confirmed ({txt}); "
                 "reported as not tested")
        return Outcome(stmt.label, ratio=ratio, tested=False,
                       witness=_witness(best["v"], best["tr"], best["b"], stmt),
                       detail=f"{head}; {budget_txt}", samples=ev.stats["evaluated"])
    if ev.stats["undecided"] >= ev.stats["evaluated"]:
        # HOLDS needs truth + error <= bound somewhere: every scenario straddled the bound
        return Outcome(stmt.label, ratio=ratio, tested=False,
                       witness=_witness(best["v"], best["tr"], best["b"], stmt),
                       detail=f"{head}: UNDECIDED — at every evaluated scenario the truth's "
                              f"error interval contains the bound (not tested); {budget_txt}",
                       samples=ev.stats["evaluated"])
    return Outcome(stmt.label, ratio=ratio,
                   witness=_witness(best["v"], best["tr"], best["b"], stmt),
                   detail=f"{head}: holds on scenarios, tightest truth/bound = {ratio:.6g}; "
                          f"{budget_txt}", samples=ev.stats["evaluated"])


def _no_point(stmt, prov, ev, space) -> Outcome:
    why = []
    if ev.stats["not_member"]:
        why.append(f"{ev.stats['not_member']} not in every class ({ev.not_member_reason})")
    if ev.stats["unavailable"]:
        why.append(f"{ev.stats['unavailable']} out of reach "
                   f"({getattr(ev, 'last_unavailable', '')})")
    if ev.stats["rejected"]:
        why.append(f"{ev.stats['rejected']} with a bound not positive/evaluable")
    return Outcome(stmt.label, tested=False,
                   detail=f"bound {stmt.label} ({prov.name}): NOT-TESTED — no admissible "
                          f"scenario could be evaluated ({'; '.join(why) or 'none drawn'})")



def _confirm(stmt, ev: Evaluator, v, tr):
    """Re-check a violation with the provider's precise truth and the bound at 50 digits.
    Returns (ok, text, truth)."""
    try:
        ptr = ev.precise_truth(v)
    except (Unavailable, ValueError, ArithmeticError) as exc:
        return False, f"precise truth unavailable: {exc}", tr
    bmp = evaluate_mp(stmt.delta if getattr(stmt, "profile", False) else stmt.expr, v,
                      CONFIRM_DPS)
    with mpmath.workdps(CONFIRM_DPS):
        lower = mpmath.mpf(ptr.extra.get("lower_mp", ptr.lower))
        if lower > bmp:
            return True, (f"confirmed: {ptr.method}: truth ≥ {mpmath.nstr(lower, 12)} > bound "
                          f"{mpmath.nstr(bmp, 12)} (bound at {CONFIRM_DPS} digits)"), ptr
    return False, (f"precise truth {ptr.lower:.12g} does not exceed the bound "
                   f"{mpmath.nstr(bmp, 12)}"), ptr


def _witness(v, tr: Truth, bval, stmt) -> dict:
    w = {k: (repr(x) if isinstance(x, float) and not float(x).is_integer() else
             str(int(x)) if isinstance(x, float) else str(x)) for k, x in sorted(v.items())}
    w.update({"truth_add": repr(tr.forward), "truth_remove": repr(tr.backward),
              "truth_max": repr(tr.max), "truth_error": repr(tr.error),
              "bound": repr(bval), "method": tr.method})
    if tr.scenario:
        w["scenario"] = tr.scenario
    return w


# --------------------------------------------------------------------------------------
# O-forms: paths in every direction
def _generic_paths(stmt, space: Space, base: dict) -> dict[str, list[dict]]:
    """Move each free parameter of the statement toward both ends of its admissible
    range from ``base`` (others fixed): ×10 / ÷10 per step, interval ends approached
    geometrically, integers rounded (down to 1)."""
    out = {}
    names = sorted({s.name for s in stmt.free_symbols} & {d.sym.name for d in space.doms})
    for nm in names:
        d = space.domain_of(nm)
        x0 = base.get(nm)
        if x0 is None or d is None:
            continue
        lo = d.lo if math.isfinite(d.lo) else None
        hi = d.hi if math.isfinite(d.hi) else None
        for direction in ("up", "down"):
            pts = []
            for k in range(1, PATH_STEPS + 1):
                if direction == "up":
                    x = (hi - (hi - x0) / PATH_FACTOR**k) if hi is not None else x0 * PATH_FACTOR**k
                else:
                    x = (lo + (x0 - lo) / PATH_FACTOR**k) if lo is not None else x0 / PATH_FACTOR**k
                if d.integer:
                    x = float(max(1, round(x)))
                w = space.admissible(dict(base, **{nm: float(x)}))
                if w is None:
                    break
                if pts and w[nm] == pts[-1][nm]:
                    break
                pts.append(w)
            if len(pts) >= 3:
                arrow = "→ ∞" if direction == "up" and hi is None else (
                    f"→ {hi:g}" if direction == "up" else (f"→ {lo:g}" if lo is not None else "→ 0"))
                out[f"{nm} {arrow}"] = [base] + pts
    return out


#: a truth whose error exceeds this share of its value is not used on an O-form path
UNRESOLVED = 0.25
#: the relative error an O-form path asks its truths for (a provider that takes
#: precision hints refines no further): one digit, well inside UNRESOLVED
PATH_REL_TOL = UNRESOLVED / 2


def _path_budget(budget: int) -> int:
    """Truth evaluations on O-form paths: 48 at the default budget (2000), scaling with it."""
    return max(12, int(48 * budget / 2000))


def o_form_check(stmt, prov, *, budget: int, seed: int) -> Outcome:
    space = Space(stmt)
    ev = Evaluator(stmt, prov, space)
    rng = np.random.default_rng(seeded(seed, "o-base"))
    bases = []
    for targets in prov.anchors(stmt)[:2]:
        for b0 in space.draw(rng, 8)[:1]:
            w = realise(stmt, prov, targets, b0, space)
            if w is not None and ev.at(w) is not None:
                bases.append(w)
    if not bases:
        for w in space.draw(rng, 64):
            if ev.at(w) is not None:
                bases.append(w)
                break
    # the random search first: the largest constant needed, and a base for the paths
    srch = search_bound(stmt, prov, budget=max(1, min(budget, SEARCH_CAP) // 2), seed=seed,
                        confirm=False)
    if srch.witness is not None and srch.tested:
        w = space.admissible({k: float(x) for k, x in srch.witness.items()
                              if k in {d.sym.name for d in space.doms}})
        if w is not None:
            bases.insert(0, w)
    paths: dict[str, list[dict]] = {}
    for name, seq in prov.paths(stmt).items():
        pts = [realise(stmt, prov, t, bases[-1] if bases else {}, space) for t in seq]
        pts = [p for p in pts if p is not None]
        if pts:
            paths[name] = pts
    if bases:
        paths.update(_generic_paths(stmt, space, bases[0]))
    left = _path_budget(budget)
    rows, per_path = [], {}
    worst = None
    for name, pts in paths.items():
        ratios = []          # (ratio, point, truth, bound) at certified-positive truths
        falling = 0
        lower_only = 0
        for v in pts:
            if left <= 0:
                break
            left -= 1
            got = ev.at(v, PATH_REL_TOL)    # the bases above: default precision
            if got is None:
                # out of the truth's reach: a certified lower bound still bounds the ratio
                # from below (it can show growth, never boundedness)
                got = ev.lower_at(v)
                lower_only += got is not None
            if got is None:
                continue
            tr, e, r = got
            if r <= 0:
                continue     # the truth is below its own error: no ratio to follow
            if tr.error > UNRESOLVED * tr.max:
                # not resolved to one digit: a ratio of such a truth says nothing about the
                # trend (a grid truth at 1e-9 with an estimated 4e-10 error read 937× the
                # O-expression where the 1/n² scaling of its neighbours gives ~1e-3)
                continue
            if ratios and r < ratios[-1][0]:
                falling += 1
                if falling >= 2:
                    ratios.append((r, v, tr, e))
                    break    # falling twice in a row: not the direction that breaks it
            else:
                falling = 0
            ratios.append((r, v, tr, e))
        if len(ratios) < 2:
            continue
        rs = [r for r, *_ in ratios]
        per_path[name] = (rs[0], rs[-1])
        factors = [rs[i + 1] / rs[i] for i in range(len(rs) - 1)][-3:]
        unbounded = len(factors) == 3 and min(factors) >= 2 and rs[-1] > 1
        rows.append(f"{name}: ratio {rs[0]:.3g} → {rs[-1]:.3g}"
                    + (f" ({lower_only} point(s) by a certified lower bound of the truth)"
                       if lower_only else ""))
        key = (unbounded, rs[-1] / rs[0])
        if worst is None or key > worst[0]:
            worst = (key, name, ratios[-1])
    if not per_path and not srch.tested:
        return srch
    if worst is not None and worst[0][0]:
        r, v, tr, e = worst[2]
        return Outcome(stmt.label, violated=True, ratio=r, witness=_witness(v, tr, e, stmt),
                       detail=f"O-bound {stmt.label} ({prov.name}): no constant works — "
                              f"truth/expr grows ×{worst[0][1]:.3g} and still increases along "
                              f"path '{worst[1]}' (×≥2 at each of its last three steps); "
                              + "; ".join(rows), samples=ev.stats["evaluated"], paths=per_path)
    path_max = max([hi for _, hi in per_path.values()] + [0.0])
    maxr = max(srch.ratio or 0.0, path_max)
    return Outcome(stmt.label, ratio=maxr, witness=srch.witness,
                   detail=f"O-bound {stmt.label} ({prov.name}): truth/expr stays bounded on "
                          f"{len(per_path)} paths (largest constant needed ≈ {maxr:.3g}); "
                          + "; ".join(rows) + f"; search: {srch.samples} scenarios",
                   samples=srch.samples, paths=per_path)



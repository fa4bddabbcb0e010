"""O-forms: is there a constant?  (DESIGN.md, *Statement checks*.)

The ratio truth/expression is followed along paths that move each parameter (those the
provider's plan names, else every free symbol of the statement) toward **both** ends of
its admissible range, from base points (the provider's anchors realised, the explicit
search's tightest scenario first), and along the provider's joint paths.  Where the truth
is out of reach or not resolved to one digit, the provider's certified lower bound of the
truth (if any) gives the ratio from below: it can show growth, never boundedness.
VIOLATED when the ratio grows without bound along an admissible path: each of the last
three steps multiplies it by ≥ 2 (so growth is confirmed at two further scales) and it ends
above 1; a path whose ratios come from the lower bound is re-evaluated at 50 digits at its
last four points and must show the same.  The ratio per path is reported.
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy as sp

from checks.statements.evaluator import Evaluator
from checks.statements.explicit import CONFIRM_DPS, kind, search, witness
from checks.statements.outcome import Outcome
from checks.statements.paths import parameter_paths, provider_paths, simple
from checks.statements.space import realise, seeded
from checks.truth.base import SearchPlan, evaluate_mp
from theory.model import Tag

#: a truth whose error exceeds this share of its value is not used on an O-form path
UNRESOLVED = 0.25
#: the relative error an O-form path asks its truths for (a provider that takes
#: precision hints refines no further): one digit, well inside UNRESOLVED
PATH_REL_TOL = UNRESOLVED / 2


def _path_budget(budget: int) -> int:
    """Truth evaluations on the paths from one base: 48 at the default budget (2000),
    scaling with it."""
    return max(12, int(48 * budget / 2000))


def bases_for(ev: Evaluator, plan: SearchPlan, seed: int) -> list[tuple[str, dict]]:
    """Base points as (label, point): the first anchors realised on a drawn point (the
    label names the anchor's targets), else a drawn point."""
    stmt, prov, space = ev.stmt, ev.prov, ev.space
    rng = np.random.default_rng(seeded(seed, "o-base"))
    bases = []
    derived = prov.derived(stmt)
    for targets in prov.anchors(stmt)[:max(2, plan.bases)]:
        # (one try: the first of 8 draws; several: of 96, most draws of a narrow space
        # missing its hypotheses)
        draws = space.draw(rng, 8 if plan.base_tries == 1 else 96)[:plan.base_tries]
        for b0 in (draws or [space.fallback()]):
            w = ev.admit(realise(stmt, prov, targets, b0, space))
            if w is not None and plan.simple_bases:
                keep = {s.name for t in targets if derived.get(t) is not None
                        for s in sp.sympify(derived[t]).free_symbols}
                w = simple(ev, w, keep)
            if w is not None and ev.at(w) is not None:
                bases.append((", ".join(f"{_name(derived.get(k), k)} = {x:g}"
                                        for k, x in targets.items()), w))
                break
    if not bases:
        for w in space.draw(rng, 64):
            w = ev.admit(w)
            if w is not None and ev.at(w) is not None:
                bases.append(("a drawn point", w))
                break
    return bases


def _name(expr, key: str) -> str:
    """How a target is written: the paper's symbol where the derived quantity is one."""
    return expr.name if isinstance(expr, sp.Symbol) else key


def _ratio_at(ev: Evaluator, v: dict, measure: bool = True):
    """(trend ratio, certified lower ratio, point, truth, bound, from_lower) on a path, or
    None.  The trend of a computed truth is its certified lower end over the expression;
    of a measured (stochastic) truth, its point estimate (a Monte Carlo interval's lower
    end may reach 0 where the estimate is well defined); growth is judged on the certified
    lower ratios only.  ``measure=False``: the certified lower bound only (the provider's
    plan measures the truth along other parameters)."""
    got = ev.at(v, PATH_REL_TOL) if measure else None
    from_lower = False
    trend = None
    if got is not None and ev.prov.stochastic and got[1] > 0 and math.isfinite(got[0].max):
        trend = got[0].max / got[1]
    if got is not None and got[2] > 0 and got[0].error > UNRESOLVED * got[0].max:
        # not resolved to one digit (a grid truth at 1e-9 with an estimated 4e-10 error
        # read 937× the O-expression where the 1/n² scaling of its neighbours gives ~1e-3):
        # only a certified lower bound may stand for it
        got = None
    if got is None or got[2] <= 0:
        low = ev.lower_at(v)
        if low is not None:
            got, from_lower = low, True
    if got is None:
        return None if trend is None else (trend, -math.inf, v, None, None, False)
    tr, e, r = got
    if trend is None:
        if r <= 0 or not math.isfinite(r):
            return None        # the truth is below its own error: no ratio to follow
        trend = r
    return trend, r, v, tr, e, from_lower


def _confirmed(ev: Evaluator, tail):
    """A growth shown by lower bounds, re-evaluated at 50 digits at the last four points:
    (confirmed, text, the ratios, the last point's precise truth or None)."""
    stmt = ev.stmt
    rs, last = [], None
    for _, r, v, tr, e, low in tail:
        if not low:
            rs.append(mpmath.mpf(r))
            continue
        got = ev.lower_at(v, precise=True)
        if got is None:
            return False, "the lower bound is not available at 50 digits", "", None
        last = got[0]
        lo = got[0].extra.get("lower_mp", got[0].max)
        with mpmath.workdps(CONFIRM_DPS):
            rs.append(mpmath.mpf(lo) / evaluate_mp(stmt.expr, v, CONFIRM_DPS))
    with mpmath.workdps(CONFIRM_DPS):
        fac = [rs[i + 1] / rs[i] for i in range(len(rs) - 1)]
        ok = rs[-1] > 1 and all(x >= 2 for x in fac)
        txt = "ratios at 50 digits " + " → ".join(mpmath.nstr(x, 4) for x in rs)
        listed = ", ".join(mpmath.nstr(x, 12) for x in rs)
    return ok, txt, listed, (last if tail[-1][5] else None)


def _barred(cut) -> str:
    """The paths that a standing assumption stops at their first step (a regime the
    hypotheses in force exclude: n → ∞ where a printed η falls below 1/T), said — never a
    silently empty path."""
    out = []
    for name, h in cut:
        if h is not None and h.tag is Tag.STANDING:
            txt = f"{name} ({h.where or h.name})"
            if txt not in out:
                out.append(txt)
    return "; ".join(out)


def o_form(stmt, ev: Evaluator, plan: SearchPlan, *, budget: int, seed: int) -> Outcome:
    """The O-form check (see the module docstring)."""
    prov = ev.prov
    space = ev.space
    bases = bases_for(ev, plan, seed)
    # the random search first: the largest constant needed, and a base for the paths
    srch = search(stmt, Evaluator(stmt, ev.provs, space, seed=ev.seed), plan,
                  budget=max(1, min(budget, plan.random) // 2), seed=seed, confirm=False)
    n_bases = max(1, plan.bases)
    if srch.witness is not None and srch.tested and plan.bases == 1:
        # one base: the search's tightest scenario, and the first anchor's too (several:
        # the anchors' own, each labelled by its targets).  The tightest scenario alone
        # may sit in a corner where every path is flat (a truth the provider now answers
        # at T = 1, q = 1 moved it there and lost a path that grows from the anchor's
        # base): a path's growth depends on where it starts, so two starts, each with
        # its own budget
        w = ev.admit(space.admissible({k: float(x) for k, x in srch.witness.items()
                                       if k in {d.sym.name for d in space.doms}}))
        if w is not None:
            bases.insert(0, ("the search's tightest scenario", w))
            n_bases = min(2, len(bases))
    paths: dict[str, list[dict]] = {}
    measured: dict[str, bool] = {}
    rank: dict[str, int] = {}
    group: dict[str, int] = {}               # the base a path starts from (its budget)
    order = {nm: i for i, nm in enumerate(plan.variables or ())}
    paths.update(provider_paths(ev, bases[-1][1] if bases else {}))
    cut: list = []
    for i, (label, b) in enumerate(bases[:n_bases]):
        for name, var, pts in parameter_paths(
                ev, b, variables=plan.variables, steps=plan.path_steps,
                factor=plan.path_factor, prefix=f"{label}: " if n_bases > 1 else "",
                cut=cut):
            paths[name] = pts
            measured[name] = plan.measured is None or var in plan.measured
            rank[name] = order.get(var, 0)
            group[name] = i
    # truth evaluations on the paths, a budget per base (the provider's paths: the first's)
    left = {i: _path_budget(budget) for i in range(n_bases)}
    rows, per_path, confirmations = [], {}, {}
    worst = None
    for name, pts in paths.items():
        ratios = []          # (ratio, point, truth, bound, from_lower) at positive truths
        falling = 0
        lower_only = 0
        g = group.get(name, 0)
        for v in pts:
            if left[g] <= 0:
                break
            left[g] -= 1
            got = _ratio_at(ev, v, measured.get(name, True))
            if got is None:
                continue
            lower_only += got[5]
            r = got[0]
            if ratios and r < ratios[-1][0]:
                falling += 1
                if falling >= 2:
                    ratios.append(got)
                    break    # falling twice in a row: not the direction that breaks it
            else:
                falling = 0
            ratios.append(got)
        if len(ratios) < 2:
            continue
        rs = [r for r, *_ in ratios]
        per_path[name] = (rs[0], rs[-1])
        lows = [x[1] for x in ratios]
        factors = [lows[i + 1] / lows[i] if lows[i] > 0 else 0.0
                   for i in range(len(lows) - 1)][-3:]
        unbounded = len(factors) == 3 and min(factors) >= 2 and lows[-1] > 1
        note = ""
        if unbounded and any(x[5] for x in ratios[-4:]):
            unbounded, note, listed, last = _confirmed(ev, ratios[-4:])
            confirmations[name] = (listed, last)
            note = f" ({note}{'' if unbounded else ': growth not confirmed'})"
        rows.append(f"{name}: ratio {rs[0]:.3g} → {rs[-1]:.3g}"
                    + (f" ({lower_only} point(s) by a certified lower bound of the truth)"
                       if lower_only else "") + note)
        # among unbounded paths the plan's first parameters lead (its variables come in
        # the order a reader looks for them), then the larger growth
        key = (unbounded, -rank.get(name, 0) if unbounded else 0, rs[-1] / rs[0])
        if worst is None or key > worst[0]:
            worst = (key, name, ratios[-1])
    head = f"{kind(stmt)} {stmt.label} ({prov.name})"
    desc = prov.describe(stmt)
    desc = f"; {desc}" if desc else ""
    barred = _barred(cut)
    desc = (f"; paths barred at their first step by a standing assumption: {barred}"
            if barred else "") + desc
    if not per_path and not srch.tested:
        return srch
    if worst is not None and worst[0][0]:
        _, r, v, tr, e, _ = worst[2]
        listed, last = confirmations.get(worst[1], ("", None))
        w = witness(v, last if last is not None else tr, e, stmt)
        w["path"] = worst[1]
        if listed:
            w["ratios_50_digits"] = listed
        return Outcome(stmt.label, violated=True, ratio=r, witness=w,
                       detail=f"{head}: no constant works — truth/expr grows "
                              f"×{worst[0][2]:.3g} and still increases along path "
                              f"'{worst[1]}' (×≥2 at each of its last three steps); "
                              + "; ".join(rows) + desc,
                       samples=ev.stats["evaluated"], paths=per_path)
    path_max = max([hi for _, hi in per_path.values()] + [0.0])
    maxr = max(srch.ratio or 0.0, path_max)
    return Outcome(stmt.label, ratio=maxr, witness=srch.witness,
                   detail=f"{head}: truth/expr stays bounded on {len(per_path)} paths "
                          f"(largest constant needed ≈ {maxr:.3g}); " + "; ".join(rows)
                          + f"; search: {srch.samples} scenarios" + desc,
                   samples=srch.samples, paths=per_path)

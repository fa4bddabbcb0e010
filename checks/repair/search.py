"""The repair search of one finding (see :mod:`checks.repair`).

* :func:`repair_row` — a REFUTED ALGEBRA/SCALAR line: its one-edit candidates screened on
  test points (the witness, admissible points of its hypotheses, every counterexample a
  judgement turns up), the survivors guarded and judged by the engine
  (:func:`checks.engine.judge_claim`: prover, then search); then hypothesis candidates;
  then, when nothing holds, pairs of edits (one on each side);
* :func:`repair_oracle_row` — a line an oracle refuted: hypothesis candidates, each judged
  by running the oracle again with it in force;
* :func:`repair_statement` — a VIOLATED typed statement: hypothesis candidates, each
  judged by the statement check with it in force.

Everything is counted, nothing timed: ``budget`` judgements per finding (a prover and
search run, an oracle run, a statement check), at most :data:`SCREEN_MAX` single edits and
:data:`PAIRS_MAX` pairs screened.
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass, field, replace

import numpy as np
import sympy as sp

from checks.repair import edits as E
from checks.repair import hypotheses as H
from checks.repair import numeric
from checks.repair.render import Renderer
from theory.model import Tag

#: points drawn (floats) to find admissible ones to screen candidates on, and the most
#: admissible points kept
SCREEN_DRAWS = 4000
SCREEN_POINTS = 256
#: single edits screened per finding, at most (the lowest ranks first)
SCREEN_MAX = 6000
#: pairs of edits screened per finding, at most
PAIRS_MAX = 200_000
#: edits per side that pairs are made of (the lowest ranks first)
PAIR_SIDE = 400
#: repairs listed per finding
LIST_MAX = 3
#: judgements per finding (prover + search runs, oracle runs, statement checks)
DEFAULT_BUDGET = 10
#: of which at most this many for hypothesis candidates, and for pairs of edits
HYPOTHESIS_JUDGEMENTS = 3
PAIR_JUDGEMENTS = 4
#: judgements after a SUPPORTED repair is found, looking for a PROVED one
AFTER_FOUND = 2
#: the most edits a repair may make
DEFAULT_EDITS = 2

_VERDICT_RANK = {"PROVED": 0, "SUPPORTED": 1}
#: a function called with (candidate, claim, outcome) after each judgement of an edit
#: (None: nothing), for tracing a search
TRACE = None


@dataclass
class Repair:
    """One repair: the edits (or the hypothesis), the verdict of the repaired line and its
    evidence, the repaired line in the paper's notation and in LaTeX."""

    kind: str                    # "edit" | "hypothesis"
    edit: str                    # what changes, in the paper's notation
    verdict: str                 # PROVED | SUPPORTED
    evidence: str
    line: str
    latex: str
    edits: int = 1
    family: str = ""
    source: str = ""
    dims: str = ""               # "consistent" | "inconsistent" | "" (unknown)
    rank: tuple = ()

    def to_json(self) -> dict:
        d = {"edit": self.edit, "verdict": self.verdict, "evidence": self.evidence,
             "kind": self.kind, "edits": self.edits, "line": self.line, "latex": self.latex}
        if self.family:
            d["family"] = self.family
        if self.source:
            d["source"] = self.source
        if self.dims:
            d["dimensions"] = self.dims
        return d


@dataclass
class Finding:
    """The repair search's answer for one finding: its class, a one-line summary, the
    repairs (best first) and what was searched."""

    klass: str                   # "misprint" | "hypothesis" | "none" | "not-searched"
    summary: str
    repairs: list = field(default_factory=list)
    searched: str = ""

    def header(self) -> dict:
        return {"class": self.klass, "summary": self.summary, "searched": self.searched}

    def to_json(self) -> dict:
        return {**self.header(), "repairs": [r.to_json() if isinstance(r, Repair) else r
                                             for r in self.repairs]}

    @classmethod
    def from_json(cls, d: dict) -> "Finding":
        return cls(d["class"], d["summary"], list(d.get("repairs") or ()), d.get("searched", ""))


def finding(repairs: list, searched: str, max_edits: int) -> Finding:
    """The class and summary of a finding from its repairs (best first)."""
    if not repairs:
        return Finding("none", f"no repair within {max_edits} edit"
                               + ("s" if max_edits != 1 else ""), [], searched)
    best = repairs[0]
    if best.kind == "hypothesis":
        return Finding("hypothesis", f"holds if {best.edit}", repairs, searched)
    return Finding("misprint", f"misprint? holds with {best.edit}", repairs, searched)


def not_searched(why: str) -> Finding:
    return Finding("not-searched", f"no repair searched: {why}", [], why)


# --------------------------------------------------------------------------------------
# shared pieces
@dataclass
class RowContext:
    """What a line's search needs from its result and paper."""

    result_exprs: list            # (owner step id or None, expression)
    paper_hyps: list              # (relation, where) from the paper's other results
    cited: list                   # (relation, source) usual conditions
    table: object = None          # the paper's symbol table (dimensions), or None

    def dim_of(self, s):
        if self.table is None:
            return None
        try:
            return self.table.info(s).dim
        except KeyError:
            return None


def _witness_values(cx: dict | None, symbols) -> dict | None:
    """symbol -> float of a counterexample (None if a symbol is missing)."""
    if not cx:
        return None
    out = {}
    for s in symbols:
        v = numeric.parse_value(cx.get(s.name))
        if v is None:
            return None
        out[s] = v
    return out


def _partial_values(cx: dict | None, symbols) -> dict:
    out = {}
    for s in symbols:
        v = numeric.parse_value((cx or {}).get(s.name))
        if v is not None:
            out[s] = v
    return out


def _points(values: dict, defs: dict) -> numeric.Points:
    return numeric.Points({s: np.array([v]) for s, v in values.items()}, defs)


def admissible(hyps, seed: int = 0, budget: int = 400) -> bool:
    """True when the relations ``hyps`` have a point where all hold, confirmed exactly
    (the search finds a counterexample to their first relation's negation)."""
    from checks import falsify
    from checks.claim import make_claim
    rels = [h for h in hyps if h is not None and h is not sp.true]
    if any(h is sp.false for h in rels):
        return False
    claim = make_claim(sp.true, rels)
    if not claim.hypotheses:
        return True
    goal = claim.hypotheses[0]
    neg = goal.negated if isinstance(goal, sp.core.relational.Relational) else sp.Not(goal)
    try:
        sr = falsify.search(make_claim(neg, rels), budget=budget, seed=seed,
                            accurate_slack=False)
    except Exception:        # noqa: BLE001 - cannot tell: not shown admissible
        return False
    return sr.counterexample is not None


def pins(rel, hyps, opts) -> bool:
    """True when the relations ``hyps`` and ``rel`` force ``rel``'s two sides equal (the
    hypothesis would pin a quantity to its boundary: δ ≥ 1 beside δ ≤ 1)."""
    from checks import prove
    from checks.claim import make_claim
    claim = make_claim(sp.Eq(rel.lhs, rel.rhs, evaluate=False), list(hyps) + [rel])
    try:
        pr = prove.prove(claim, rlimit=opts.rlimit)
    except Exception:        # noqa: BLE001
        return False
    return pr.status == "proved"


def _short(s: str, n: int = 240) -> str:
    s = " ".join(str(s).split())
    return s if len(s) <= n else s[: n - 3] + "..."


def _seed(*parts) -> int:
    return zlib.crc32("\n".join(map(str, parts)).encode()) & 0xFFFFFFFF


def _dims(table, rel, givens=()) -> str:
    """"consistent", "inconsistent" or "" (no table, or a symbol without dimension)."""
    if table is None:
        return ""
    from checks import units
    with units.using(table):
        found = []
        for b in (rel, *givens):
            found += units.check_relation(b, "repair")
    if any(f.unknown for f in found):
        return ""
    return "inconsistent" if found else "consistent"


# --------------------------------------------------------------------------------------
# ALGEBRA / SCALAR rows
@dataclass
class _Cand:
    edits: tuple                 # of E.Edit, one or two (one on each side)


def repair_row(loc, report, ctx: RowContext, opts, *, budget: int = DEFAULT_BUDGET,
               max_edits: int = DEFAULT_EDITS) -> Finding:
    """The repairs of a REFUTED ALGEBRA/SCALAR line ``loc`` (its engine report
    ``report``)."""
    from checks import engine, falsify
    from checks.claim import step_claim

    st = loc.step
    hyps = tuple(loc.hypotheses)
    claim = step_claim(st.lhs, st.rel, st.rhs, hyps)
    defs = dict(claim.definitions)
    rnd = Renderer(ctx.table)
    state = {"judged": 0, "screened": 0, "pairs": 0}
    # test points: the witness, admissible points, then every new counterexample
    batches: list[numeric.Points] = []
    w = _witness_values(report.counterexample, claim.symbols)
    if w is not None:
        batches.append(_points(w, defs))
    # the screening points meet the hypotheses the paper states; the relations a declared
    # law or aggregate implies (tag LAW, dozens of them between moments) leave the random
    # draws almost no admissible point, and a screen of one or two points lets wrong edits
    # through to the judgement (the judgement itself has every hypothesis)
    screen = claim
    if any(h.tag is Tag.LAW for h in hyps):
        screen = step_claim(st.lhs, st.rel, st.rhs, [h for h in hyps if h.tag is not Tag.LAW])
    if screen is not claim:
        # the judgements leave those relations out too (below): the witness of the line
        # without them screens like any counterexample a judgement turns up
        free = engine.judge_claim(screen, opts)
        wf = _witness_values(free.counterexample, claim.symbols) \
            if free.verdict.value == "REFUTED" else None
        if wf is not None:
            batches.append(_points(wf, defs))
    try:
        syms, vals, ok = falsify.admissible_sample(screen, SCREEN_DRAWS,
                                                   seed=claim.seed(opts.seed) ^ 0x5EED)
        keep = np.flatnonzero(ok)[:SCREEN_POINTS]
        if keep.size:
            batches.append(numeric.Points({s: vals[i, keep] for i, s in enumerate(syms)},
                                          defs))
    except Exception:            # noqa: BLE001 - no sample: the witness screens alone
        pass

    # the targets: both sides, and the definitions the line makes in its own given
    targets = {"lhs": st.lhs, "rhs": st.rhs}
    own_defs = {}
    for k, a in enumerate(st.given):
        d = _own_definition(a)
        if d is not None:
            targets[f"given-{k}"] = d[1]
            own_defs[f"given-{k}"] = (a, d[0])
    own = {id(st)}
    exprs = [e for owner, e in ctx.result_exprs if owner not in own]
    row_syms = set(st.free_symbols) | set(claim.symbols) | set(defs)
    ectx = E.context(exprs, row_syms, [h.expr for h in hyps if h.expr is not None],
                     ctx.dim_of, own_exprs=[st.lhs, st.rhs] + [a.expr for a in st.given
                                                               if a.expr is not None])
    singles: list[E.Edit] = []
    for name, e in targets.items():
        fams = None if name in ("lhs", "rhs") else E.DEFINITION_FAMILIES
        singles += E.candidates(name, e, ectx, fams)
    singles.sort(key=lambda ed: (ed.rank, ed.size, list(targets).index(ed.target),
                                 ed.path))
    singles = singles[:SCREEN_MAX]
    orig_dims = _dims(ctx.table, st.relational,
                      [a.expr for a, _ in own_defs.values()])
    repairs: list[Repair] = []
    seen: set = set()

    rels = [h.expr for h in hyps if h.expr is not None]

    def screen_single(ed) -> bool:
        """Not clearly violated at any test point, and evaluable at one at least (a line
        that cannot be evaluated anywhere is not worth a judgement)."""
        state["screened"] += 1
        seen_finite = False
        for pts in batches:
            got = _screen(pts, ed, targets, st.rel.value, own_defs, rels)
            if got == "violated":
                return False
            seen_finite = seen_finite or got == "ok"
        return seen_finite

    def edit_dims(ed) -> str:
        """The dimensions of the line under the single edit ``ed`` (as :func:`_dims`)."""
        built = _build(_Cand((ed,)), targets, own_defs, st, hyps)
        if built is None:
            return ""
        lhs, rhs, _, def_rels = built
        return _dims(ctx.table, st.rel.sympy(lhs, rhs), def_rels)

    def judge(cand: _Cand) -> Repair | None:
        """Guard, then judge one candidate; None unless it holds."""
        built = _build(cand, targets, own_defs, st, hyps)
        if built is None:
            return None
        lhs, rhs, new_hyps, def_rels = built
        why = _trivial(st, lhs, rhs, claim, new_hyps,
                       max(batches, key=lambda b: b.n) if batches else None)
        if why:
            return None
        key = sp.srepr((lhs, rhs, tuple(h.expr for h in new_hyps)))
        if key in seen:
            return None
        seen.add(key)
        dims = _dims(ctx.table, st.rel.sympy(lhs, rhs), def_rels)
        if orig_dims == "consistent" and dims == "inconsistent":
            return None
        if state["judged"] >= budget:
            return None
        # judged without the relations a declared law or aggregate implies: the scalar
        # search finds almost no admissible point among them (a wrong edit would come out
        # SUPPORTED), and a repair that holds for free moments holds for every law — a
        # repair that needs the law's relations is missed, never a wrong one reported
        c2 = step_claim(lhs, st.rel, rhs, [h for h in new_hyps if h.tag is not Tag.LAW])
        core = None
        if any(engine._class_implied(h) for h in new_hyps):
            core = step_claim(lhs, st.rel, rhs,
                              [h for h in new_hyps if not engine._class_implied(h)])
        state["judged"] += 1
        out = engine.judge_claim(c2, opts, core)
        if TRACE is not None:
            TRACE(cand, c2, out)
        if out.verdict.value in _VERDICT_RANK:
            if new_hyps != hyps and not admissible(
                    [h.expr for h in new_hyps if h.expr is not None], seed=_seed(key)):
                return None
            text = rnd.edit_text(cand.edits, targets, own_defs)
            changed = [a for a in new_hyps if a not in hyps]
            return Repair("edit", text, out.verdict.value, _short(out.detail),
                          rnd.line(lhs, st.rel.value, rhs, changed),
                          rnd.latex(lhs, st.rel.value, rhs, [a.expr for a in changed]),
                          edits=len(cand.edits),
                          family=" + ".join(e.family for e in cand.edits), dims=dims,
                          rank=(len(cand.edits), 0, _VERDICT_RANK[out.verdict.value],
                                dims == "inconsistent",
                                sum(e.rank for e in cand.edits),
                                sum(e.size for e in cand.edits)))
        if out.verdict.value == "REFUTED" and out.counterexample:
            nw = _witness_values(out.counterexample, claim.symbols)
            if nw is not None:
                batches.append(_points(nw, defs))
        return None

    # 1. one edit
    passing = [ed for ed in singles if screen_single(ed)]
    if orig_dims == "inconsistent":
        # the printed line's dimensions do not match: a misprint is then the likeliest
        # reading, and the edits under which they match are judged first (a stable sort:
        # the families' order within each group)
        passing.sort(key=lambda ed: edit_dims(ed) != "consistent")
    stop = budget - HYPOTHESIS_JUDGEMENTS
    for ed in passing:
        if state["judged"] >= stop:
            break
        if any(_screen(p, ed, targets, st.rel.value, own_defs, rels) == "violated"
               for p in batches):
            continue         # a counterexample found since refutes it
        got = judge(_Cand((ed,)))
        if got is not None:
            repairs.append(got)
            if got.verdict == "PROVED" or len(repairs) >= LIST_MAX:
                break
            # a SUPPORTED repair found: a few more judgements for a PROVED one
            stop = min(stop, state["judged"] + AFTER_FOUND)
    # 2. one hypothesis (when no edit holds)
    if not repairs:
        repairs += _hypothesis_repairs_row(loc, claim, ctx, opts, batches, w, rnd, state,
                                           budget, hyps)
    # 3. two edits (when nothing holds)
    if not repairs and max_edits >= 2:
        repairs += _pair_repairs(singles, batches, targets, st, judge, state, budget)
    repairs.sort(key=lambda r: r.rank)
    searched = (f"{state['screened']} single edits screened at "
                f"{sum(b.n for b in batches)} points, {len(passing)} passed"
                + (f", {state['pairs']} pairs screened" if state["pairs"] else "")
                + f"; {state['judged']} judged (budget {budget})")
    return finding(repairs[:LIST_MAX], searched, max_edits)


def _own_definition(a):
    """(symbol, expression) when the assumption ``a`` defines a symbol (``Eq(x, e)``)."""
    e = getattr(a, "expr", None)
    if not isinstance(e, sp.Equality):
        return None
    for x, d in ((e.lhs, e.rhs), (e.rhs, e.lhs)):
        if isinstance(x, sp.Symbol) and x not in d.free_symbols:
            return x, d
    return None


def _screen(pts, ed, targets, op, own_defs, rels) -> str:
    """"violated" when the one-edit candidate is clearly violated at a point of ``pts``
    that meets the hypotheses, "ok" when it is evaluable at one at least, else
    "unknown".  An edited definition is evaluated with the new definition, at the points
    where the hypotheses that use the defined symbol still hold."""
    mask = None
    if ed.target in own_defs:
        _, sym = own_defs[ed.target]
        new_def = E.replace_at(targets[ed.target], ed.path, ed.new)
        if sym in pts.cols or sym in new_def.free_symbols:
            return "unknown"
        pts = numeric.Points(pts.cols, {**pts.defs, sym: new_def})
        mask = np.ones(pts.n, dtype=bool)
        for r in rels:
            if sym in r.free_symbols and not (isinstance(r, sp.Equality) and sym in (
                    r.lhs, r.rhs)):
                mask &= pts.truth(r)
        a, asc = pts.value(targets["lhs"]), pts.scale(targets["lhs"])
        b, bsc = pts.value(targets["rhs"]), pts.scale(targets["rhs"])
    elif ed.target == "lhs":
        a, asc = pts.value_at(targets["lhs"], ed.path, ed.new)
        b, bsc = pts.value(targets["rhs"]), pts.scale(targets["rhs"])
    else:
        a, asc = pts.value(targets["lhs"]), pts.scale(targets["lhs"])
        b, bsc = pts.value_at(targets["rhs"], ed.path, ed.new)
    finite = np.isfinite(a) & np.isfinite(b)
    bad = numeric.violated(op, a, b, np.maximum(asc, bsc))
    if mask is not None:
        bad &= mask
        finite &= mask
    if bool(np.any(bad)):
        return "violated"
    return "ok" if bool(np.any(finite)) else "unknown"


def _build(cand, targets, own_defs, st, hyps):
    """(lhs, rhs, hypotheses) of a candidate; None if two edits overlap."""
    sides = dict(targets)
    by_target: dict = {}
    for ed in cand.edits:
        by_target.setdefault(ed.target, []).append(ed)
    for t, eds in by_target.items():
        if len(eds) > 1:
            return None      # two edits of one target: not built (pairs span sides)
        sides[t] = E.replace_at(targets[t], eds[0].path, eds[0].new)
    new_hyps = hyps
    def_rels = []
    for t, (a, sym) in own_defs.items():
        def_rels.append(sp.Eq(sym, sides[t], evaluate=False))
        if t in by_target:
            from theory.model import Assumption
            i = hyps.index(a) if a in hyps else None
            if i is None:
                return None
            na = Assumption(name=f"{sym} = {sides[t]}", expr=sp.Eq(sym, sides[t]),
                            where=a.where)
            new_hyps = new_hyps[:i] + (na,) + new_hyps[i + 1:]
    return sides["lhs"], sides["rhs"], new_hyps, def_rels


def _trivial(st, lhs, rhs, claim, new_hyps, pts=None) -> str:
    """Why a repaired line is trivial ("" if it is not): a side emptied (0, multiplied by
    zero), a side made constant, the two sides made the same."""
    from checks.claim import make_claim
    for old, new, side in ((st.lhs, lhs, "left"), (st.rhs, rhs, "right")):
        if new == 0 and old != 0:
            return f"empties the {side} side"
        if new.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
            return f"makes the {side} side undefined"
        if not new.free_symbols and old.free_symbols:
            return f"makes the {side} side constant"
        if old.free_symbols and not (new.free_symbols & old.free_symbols):
            # the side no longer speaks of anything it spoke of (a bounded quantity
            # exchanged for another): a line about something else
            return f"replaces everything the {side} side is about"
    if lhs == rhs:
        return "makes both sides the same"
    why = _subject_cancels(st, lhs, rhs, pts)
    if why:
        return why
    if (lhs.is_number or rhs.is_number) and _sign_decides(st.rel.value, lhs, rhs):
        # (r − τ0)² ≥ 0: a side against a constant that holds for every value of the
        # symbols (their assumptions alone), whatever the hypotheses
        return "holds for every value of its symbols (a sign, not the line)"
    try:
        c = make_claim(st.rel.sympy(lhs, rhs), new_hyps)
    except Exception:            # noqa: BLE001
        return "cannot be read"
    concl = c.conclusion
    if concl is sp.false:
        return "false by SymPy alone"
    if concl is sp.true:        # an identity once the definitions are in: judged as one
        return ""
    if isinstance(concl, sp.core.relational.Relational):
        for old_side, new_side, side in ((claim.conclusion.lhs, concl.lhs, "left"),
                                         (claim.conclusion.rhs, concl.rhs, "right")) \
                if isinstance(claim.conclusion, sp.core.relational.Relational) else ():
            if new_side == 0 and old_side != 0:
                return f"empties the {side} side"
            if not new_side.free_symbols and old_side.free_symbols:
                return f"makes the {side} side constant"
    return ""


def _sign_decides(rel: str, lhs, rhs) -> bool:
    d = lhs - rhs
    try:
        if rel in ("<=", "<"):
            return bool((-d).is_nonnegative) if rel == "<=" else bool((-d).is_positive)
        if rel in (">=", ">"):
            return bool(d.is_nonnegative) if rel == ">=" else bool(d.is_positive)
        return bool(d.is_zero)
    except Exception:            # noqa: BLE001 - undecided: not trivial
        return False


#: lines larger than this (operations) are not put over a common denominator by the
#: guard below (it is then not applied)
CANCEL_OPS = 300


def _subject_cancels(st, lhs, rhs, pts=None) -> str:
    """"" unless a quantity that only one side of the printed line speaks of (what the
    line bounds: Emin in "Emin ≤ Δ·k") cancels from the repaired line — from the ratio of
    its sides or from their difference ("Emin ≤ Emin·k" says 1 ≤ k).  With test points
    ``pts`` it is decided numerically (the quantity scaled, the ratio and the difference
    unchanged at every point), else by SymPy (small lines only)."""
    subject = (st.lhs.free_symbols ^ st.rhs.free_symbols) & (lhs.free_symbols
                                                              | rhs.free_symbols)
    if not subject:
        return ""
    if pts is not None:
        # the printed line as written: a symbol it defines is a value of its own here
        free = dict(pts.cols)
        for d in pts.defs:
            if d not in free:
                free[d] = pts.value(d)
        pts = numeric.Points(free)
        subject = [x for x in sorted(subject, key=lambda v: v.name)
                   if not _cancels_numerically([x], st.lhs, st.rhs, pts)]
        return _cancels_numerically(subject, lhs, rhs, pts)
    if sp.count_ops(lhs) + sp.count_ops(rhs) > CANCEL_OPS:
        return ""
    try:
        ratio = sp.cancel(sp.together(lhs / rhs)) if rhs != 0 else None
        diff = sp.expand(lhs - rhs)
    except Exception:            # noqa: BLE001 - cannot tell: not trivial
        return ""
    for x in sorted(subject, key=lambda s: s.name):
        if (ratio is not None and x not in ratio.free_symbols) or x not in diff.free_symbols:
            return f"{x} cancels from the repaired line"
    return ""


def _cancels_numerically(subject, lhs, rhs, pts) -> str:
    with np.errstate(all="ignore"):
        l0, r0 = pts.value(lhs), pts.value(rhs)
        ok = np.isfinite(l0) & np.isfinite(r0) & (r0 != 0) & (l0 != 0)
        if not ok.any():
            return ""
        for x in subject:
            if x not in pts.cols:
                continue
            same_ratio = same_diff = True
            for k in (1.37, 0.61):
                p2 = numeric.Points({**pts.cols, x: pts.cols[x] * k}, pts.defs)
                l2, r2 = p2.value(lhs), p2.value(rhs)
                good = ok & np.isfinite(l2) & np.isfinite(r2) & (r2 != 0)
                if not good.any():
                    same_ratio = same_diff = False
                    break
                q0, q2 = l0[good] / r0[good], l2[good] / r2[good]
                same_ratio &= bool(np.all(np.abs(q2 - q0) <= 1e-10 * np.abs(q0)))
                scale = np.maximum.reduce([np.abs(l0[good]), np.abs(r0[good]),
                                           np.abs(l2[good]), np.abs(r2[good])])
                same_diff &= bool(np.all(np.abs((l2[good] - r2[good])
                                                - (l0[good] - r0[good])) <= 1e-10 * scale))
            if same_ratio or same_diff:
                return f"{x} cancels from the repaired line"
    return ""


def _hypothesis_repairs_row(loc, claim, ctx, opts, batches, w, rnd, state, budget, hyps):
    from checks import engine
    from checks.claim import step_claim
    from theory.model import Assumption

    st = loc.step
    in_force = [h.expr for h in hyps if h.expr is not None]
    cands = H.candidates(claim.symbols, in_force,
                         [b for b in batches if b.n == 1] or [],
                         paper=ctx.paper_hyps, cited=ctx.cited, dim_of=ctx.dim_of,
                         witness=w, text=rnd.text)
    out = []
    tried = 0
    for c in cands:
        if state["judged"] >= budget or tried >= HYPOTHESIS_JUDGEMENTS:
            break
        if not all(H._violated_at(c.expr, p) for p in batches if p.n == 1):
            continue
        # an admissible point where the line fails and the hypothesis holds refutes it
        if any(_refutes(p, c.expr, claim) for p in batches):
            continue
        # no admissible test point meets it: it contradicts the hypotheses in force
        # (most likely): not worth a judgement
        sample = max(batches, key=lambda b: b.n) if batches else None
        if sample is not None and sample.n > 1 and not sample.truth(c.expr).any():
            continue
        if pins(c.expr, in_force, opts):
            continue
        a = Assumption(name=str(c.expr), expr=c.expr, where=c.where)
        new_hyps = hyps + (a,)
        c2 = step_claim(st.lhs, st.rel, st.rhs, new_hyps)
        core = None
        if any(engine._class_implied(h) for h in new_hyps):
            core = step_claim(st.lhs, st.rel, st.rhs,
                              [h for h in new_hyps if not engine._class_implied(h)])
        state["judged"] += 1
        tried += 1
        res = engine.judge_claim(c2, opts, core)
        if res.verdict.value in _VERDICT_RANK:
            if not admissible(in_force + [c.expr], seed=_seed(loc.id, c.expr)):
                continue
            out.append(Repair("hypothesis", rnd.text(c.expr), res.verdict.value,
                              _short(res.detail),
                              rnd.line(st.lhs, st.rel.value, st.rhs, [a]),
                              rnd.latex(st.lhs, st.rel.value, st.rhs, [c.expr]),
                              source=c.where,
                              rank=(1, 1, _VERDICT_RANK[res.verdict.value], False,
                                    H.SOURCES.index(c.source), 0)))
            if res.verdict.value == "PROVED":
                break
        elif res.verdict.value == "REFUTED" and res.counterexample:
            nw = _witness_values(res.counterexample, claim.symbols)
            if nw is not None:
                batches.append(_points(nw, dict(claim.definitions)))
    return out


def _refutes(pts, hyp, claim) -> bool:
    """Some point of ``pts`` meets ``hyp`` clearly and violates the line clearly."""
    concl = claim.conclusion
    if not isinstance(concl, sp.core.relational.Relational):
        return False
    a, b = pts.value(concl.lhs), pts.value(concl.rhs)
    sc = np.maximum(pts.scale(concl.lhs), pts.scale(concl.rhs))
    bad = numeric.violated(concl.rel_op, a, b, sc) & pts.truth(hyp)
    return bool(np.any(bad))


def _pair_repairs(singles, batches, targets, st, judge, state, budget):
    """Two edits, one on each side: every pair of the lowest-ranked edits screened at
    once (arrays), the survivors judged, the lowest summed rank first."""
    lhs_eds = [e for e in singles if e.target == "lhs"][:PAIR_SIDE]
    rhs_eds = [e for e in singles if e.target == "rhs"][:PAIR_SIDE]
    if not lhs_eds or not rhs_eds:
        return []
    alive = np.ones((len(lhs_eds), len(rhs_eds)), dtype=bool)
    op = st.rel.value
    for pts in batches:
        lv = [pts.value_at(targets["lhs"], e.path, e.new) for e in lhs_eds]
        rv = [pts.value_at(targets["rhs"], e.path, e.new) for e in rhs_eds]
        la, ls = np.array([v for v, _ in lv]), np.array([c for _, c in lv])
        ra, rs = np.array([v for v, _ in rv]), np.array([c for _, c in rv])
        for k in range(pts.n):
            a = la[:, k][:, None]
            b = ra[:, k][None, :]
            sc = np.maximum(ls[:, k][:, None], rs[:, k][None, :])
            alive &= ~numeric.violated(op, a, b, sc)
    state["pairs"] += min(PAIRS_MAX, alive.size)
    screened = len(batches)
    idx = np.argwhere(alive)
    order = sorted(((lhs_eds[i].rank + rhs_eds[j].rank, lhs_eds[i].size + rhs_eds[j].size,
                     int(i), int(j)) for i, j in idx))[:PAIRS_MAX]
    out = []
    stop = min(budget, state["judged"] + PAIR_JUDGEMENTS)
    for _, _, i, j in order:
        if state["judged"] >= stop:
            break
        # the counterexamples judgements turned up since the screen refute most pairs
        if any(_pair_violated(p, lhs_eds[i], rhs_eds[j], targets, op)
               for p in batches[screened:]):
            continue
        got = judge(_Cand((lhs_eds[i], rhs_eds[j])))
        if got is not None:
            out.append(got)
            if got.verdict == "PROVED" or len(out) >= LIST_MAX:
                break
    return out


def _pair_violated(pts, le, re_, targets, op) -> bool:
    a, asc = pts.value_at(targets["lhs"], le.path, le.new)
    b, bsc = pts.value_at(targets["rhs"], re_.path, re_.new)
    return bool(np.any(numeric.violated(op, a, b, np.maximum(asc, bsc))))


# --------------------------------------------------------------------------------------
# rows judged by an oracle, and typed statements
def _witness_candidates(free, hypotheses, witness, ctx: RowContext, rnd: Renderer):
    """What a hypothesis repair judged by an oracle or a statement check starts from:
    the symbols of the line and of its hypotheses in force, those relations, the
    witness's test points and the candidate hypotheses — ``(syms, in_force, wpts,
    cands)``."""
    syms = set(free)
    in_force = [h.expr for h in hypotheses if h.expr is not None]
    for e in in_force:
        syms |= e.free_symbols
    w = _partial_values(witness, syms)
    wpts = [_points(w, {})] if w else []
    cands = H.candidates(set(w), in_force, wpts, paper=ctx.paper_hyps, cited=ctx.cited,
                         dim_of=ctx.dim_of, witness=w, text=rnd.text)
    return syms, in_force, wpts, cands


def _viable(c, wpts, in_force, opts, seed: int) -> bool:
    """A hypothesis candidate worth a judgement: it excludes every witness found so far,
    does not pin a quantity to a boundary, and leaves the hypotheses in force admissible."""
    return (all(H._violated_at(c.expr, p) for p in wpts)
            and not pins(c.expr, in_force, opts)
            and admissible(in_force + [c.expr], seed=seed))


def repair_oracle_row(loc, report, ctx: RowContext, opts, *, budget: int = DEFAULT_BUDGET,
                      max_edits: int = DEFAULT_EDITS, runs: int = 3) -> Finding:
    """Hypothesis repairs of a line an oracle refuted: each candidate judged by the
    oracle with it in force (at most ``runs`` oracle runs)."""
    from checks.plugins import get_step_oracle
    from theory.model import Assumption, Located

    fn = get_step_oracle(loc.step.oracle)
    if fn is None:
        return not_searched(f"oracle {loc.step.oracle!r} is not registered")
    rnd = Renderer(ctx.table)
    syms, in_force, wpts, cands = _witness_candidates(
        loc.step.free_symbols, loc.hypotheses, report.counterexample, ctx, rnd)
    out, n = [], 0
    for c in cands:
        if n >= min(runs, budget):
            break
        if not _viable(c, wpts, in_force, opts, _seed(loc.id, c.expr)):
            continue
        a = Assumption(name=str(c.expr), expr=c.expr, where=c.where)
        n += 1
        try:
            rep = fn(Located(loc.id, loc.step, tuple(loc.hypotheses) + (a,), loc.case_path),
                     budget=opts.budget, seed=opts.seed)
        except Exception:        # noqa: BLE001 - the oracle failed: not a repair
            continue
        v = rep.verdict.value
        if v in _VERDICT_RANK:
            out.append(Repair("hypothesis", rnd.text(c.expr), v, _short(rep.detail),
                              rnd.line(loc.step.lhs, loc.step.rel.value, loc.step.rhs, [a]),
                              rnd.latex(loc.step.lhs, loc.step.rel.value, loc.step.rhs,
                                        [c.expr]),
                              source=c.where,
                              rank=(1, 1, _VERDICT_RANK[v], False,
                                    H.SOURCES.index(c.source), 0)))
            break
        if v == "REFUTED" and rep.counterexample:
            nw = _partial_values(rep.counterexample, syms)
            if nw:
                wpts.append(_points(nw, {}))
    searched = f"{len(cands)} hypothesis candidates, {n} judged by the oracle"
    if out:
        return finding(out, searched, max_edits)
    return Finding("none", "no hypothesis repair found", [],
                   searched + " (edits of a line an oracle judges are not searched)")


def repair_statement(result, stmt, outcome, ctx: RowContext, opts, *, driver,
                     budget: int = DEFAULT_BUDGET, checks: int = 3) -> Finding:
    """Hypothesis repairs of a VIOLATED typed statement ``stmt`` (its outcome
    ``outcome``): each candidate judged by the statement check (``driver``'s
    ``check_statement``) with it in force, at most ``checks`` of them."""
    from theory.model import Assumption

    rnd = Renderer(ctx.table)
    syms, in_force, wpts, cands = _witness_candidates(
        stmt.free_symbols, stmt.hypotheses, outcome.witness, ctx, rnd)
    out, n = [], 0
    label = getattr(stmt, "label", "")
    for c in cands:
        if n >= min(checks, budget):
            break
        if not _viable(c, wpts, in_force, opts, _seed(result.id, label, c.expr)):
            continue
        a = Assumption(name=str(c.expr), expr=c.expr, where=c.where)
        st2 = replace(stmt, hypotheses=tuple(stmt.hypotheses) + (a,))
        n += 1
        try:
            o = driver.check_statement(st2, budget=opts.budget,
                                       seed=_seed(opts.seed, result.id, label, "repair"))
        except Exception:        # noqa: BLE001 - a provider failed: not a repair
            continue
        if o.tested and not o.violated:
            out.append(Repair("hypothesis", rnd.text(c.expr), "SUPPORTED",
                              _short(o.detail), f"{stmt.describe()} if {rnd.text(c.expr)}",
                              rnd.latex_hyp(c.expr), source=c.where,
                              rank=(1, 1, 1, False, H.SOURCES.index(c.source), 0)))
            break
        if o.violated and o.witness:
            nw = _partial_values(o.witness, syms)
            if nw:
                wpts.append(_points(nw, {}))
    searched = f"{len(cands)} hypothesis candidates, {n} statement checks"
    if out:
        return finding(out, searched, 0)
    return Finding("none", "no hypothesis repair found", [],
                   searched + " (edits of a typed statement are not searched)")

"""The nearest line that holds: a repair for every refuted line (issue 35).

A reviewer who reads REFUTED asks next: a misprint, or a wrong result — and if wrong,
which hypothesis would save it?  Once the results are checked
(:func:`checks.engine.repair_results`: after every check, in a fresh worker process per
result in a parallel run), :func:`attach` searches, for every finding (a REFUTED row, a
VIOLATED typed statement), the small changes under which it holds, and classifies it:

* ``misprint`` — "misprint? holds with …": one edit (at most ``repair_edits``, default 2)
  of the printed line (:mod:`checks.repair.edits`: the mutation campaign's misprints run
  backwards) under which the line is PROVED (best) or SUPPORTED;
* ``hypothesis`` — "holds if …": one added hypothesis (:mod:`checks.repair.hypotheses`:
  from the paper's other results, the cited sources' usual conditions, or the boundary
  the search's witness lies beyond);
* ``none`` — "no repair within 2 edits" (or, where only hypotheses are searched, none of
  them);
* ``not-searched`` — a structural row (a chain link, a conclusion, a case cover), or a
  line whose checker cannot be asked again.

**Judged like the line.**  A candidate line is judged by the same prover and search
(:func:`checks.engine.judge_claim`, the same budget and seed derivation), a candidate
hypothesis of an oracle's line by the oracle, of a typed statement by the statement check
(:func:`statements_driver`).  Before that, a candidate edit is screened on test points
(:mod:`checks.repair.numeric`: the witness, admissible points of the hypotheses, and each
counterexample a judgement turns up), so that a row's thousand candidate edits cost a few
judgements.

**Never trivial.**  A repair never changes the relation, never empties a side or
multiplies it by zero, never makes a side constant or both sides the same, never breaks
the dimensions of a line whose dimensions agree (:mod:`checks.units`), and a repair that
changes hypotheses (an added hypothesis, an edited definition) must leave an admissible
point — found and confirmed exactly — and must not pin a quantity to a boundary
(hypotheses forcing both sides of the new one equal, proved).

**Bounded, deterministic.**  Counted, never timed: ``repair_budget`` judgements per
finding (default 10), a fixed number of edits and pairs screened; the seeds derive from
the claims.  Findings are cached on disk beside the verdicts, keyed by the line, its
witness, its result and paper context and the repair settings.  ``dpcheck verify
--no-repairs`` skips the search; a run without repairs prints exactly what it printed
before.
"""
from __future__ import annotations

from checks import cache as _cache
from checks.repair.search import (DEFAULT_BUDGET, DEFAULT_EDITS, Finding, Repair, RowContext,
                                  not_searched, repair_oracle_row, repair_row,
                                  repair_statement)

__all__ = ["attach", "DEFAULT_BUDGET", "DEFAULT_EDITS", "Finding", "Repair", "CLASSES",
           "LABELS", "findings", "class_counts", "statements_driver", "row_context"]

#: the classes as the one-line views count them
LABELS = {"misprint": "misprint?", "hypothesis": "holds if", "none": "no repair",
          "not-searched": "not searched"}
#: the classes, in the order a report lists them, with their section titles
CLASSES = {
    "misprint": "Misprints: one edit away from a line that holds",
    "hypothesis": "Missing hypotheses: the line holds if …",
    "none": "No repair found",
    "not-searched": "Not searched",
}

_STRUCTURAL = ("LINK", "CONCLUDES", "COVER", "UNITS")


def statements_driver():
    """The typed-statement driver (its ``check_statement(stmt, budget=, seed=)``): the one
    place this package imports it from."""
    from checks import statements
    return statements


def row_context(result, *, paper_results=None, table=None) -> RowContext:
    """What the repair search needs from ``result``'s paper: every expression of the
    result, the other results' hypotheses, the usual conditions of its typed statements,
    the symbol table.  ``paper_results``/``table`` default to the registry's."""
    from checks.repair import hypotheses as H
    from theory.model import CaseSplit, Chain, Step

    exprs = []

    def add(owner, e):
        if e is not None:
            exprs.append((owner, e))

    def step(s):
        add(id(s), s.lhs)
        add(id(s), s.rhs)
        for g in s.given:
            add(id(s), g.expr)
        for rd in s.readings:
            add(id(s), rd.lhs)
            add(id(s), rd.rhs)

    def items(its):
        for it in its:
            if isinstance(it, Step):
                step(it)
            elif isinstance(it, Chain):
                for s in it.steps:
                    step(s)
            elif isinstance(it, CaseSplit):
                for g in it.given:
                    add(None, g.expr)
                for case in it.cases:
                    for c in case.condition:
                        add(None, c.expr)
                    items(case.proof)

    for h in result.hypotheses:
        add(None, h.expr)
    for s in result.statement:
        step(s)
    items(result.proof)
    for st in (*result.bounds, *result.rates):
        add(None, st.expr)
        for h in st.hypotheses:
            add(None, h.expr)
    if paper_results is None or table is None:
        from theory import registry
        try:
            if paper_results is None:
                paper_results = registry.results_of(result.paper)
            if table is None:
                table = registry.symbols_of(result.paper)
        except KeyError:
            paper_results = paper_results or []
    return RowContext(result_exprs=exprs,
                      paper_hyps=H.paper_hypotheses(paper_results or [], result.id),
                      cited=H.usual_conditions((*result.bounds, *result.rates)),
                      table=table)


def _settings(opts) -> tuple[int, int]:
    return (int(getattr(opts, "repair_edits", DEFAULT_EDITS)),
            int(getattr(opts, "repair_budget", DEFAULT_BUDGET)))


def attach(result, report, outcomes: dict, opts, *, ctx: RowContext | None = None) -> None:
    """Search the repairs of every finding of ``result`` (its engine ``report``, the
    outcomes of its typed statements) and attach them: ``StepReport.repairs`` /
    ``.repair`` on each REFUTED row, ``ResultReport.statement_repair`` on a VIOLATED
    statement."""
    from checks.engine import roles_of
    from checks.verdict import Verdict
    from theory.model import StepKind, walk_steps

    bad = [s for s in report.steps if s.verdict is Verdict.REFUTED]
    violated = {lbl: o for lbl, o in (outcomes or {}).items()
                if getattr(o, "tested", False) and getattr(o, "violated", False)}
    if not bad and not violated:
        return
    ctx = ctx or row_context(result)
    max_edits, budget = _settings(opts)
    base_fp = None

    def safe(compute) -> tuple[Finding, bool]:
        """(finding, whether to keep it): a search that fails says so and is not kept —
        a bug in it never costs the run its findings."""
        try:
            return compute(), True
        except Exception as exc:  # noqa: BLE001
            msg = " ".join(str(exc).split())[:160]
            return not_searched(f"the search failed: {type(exc).__name__}: {msg}"), False

    def cached(kind: str, parts, compute) -> Finding:
        nonlocal base_fp
        disk = opts.disk
        if disk is None:
            return safe(compute)[0]
        if base_fp is None:
            base_fp = _cache.fingerprint((result, [(str(r), w) for r, w in ctx.paper_hyps],
                                          [(str(r), w) for r, w in ctx.cited],
                                          _table_fp(ctx.table)))
        k = _cache.key("repair-" + kind, base_fp + "\n" + _cache.fingerprint(parts)
                       + f"\nedits={max_edits} budget={budget}",
                       budget=opts.budget, seed=opts.seed)
        hit = disk.get(k)
        if hit is not None:
            return Finding.from_json(hit)
        f, keep = safe(compute)
        if keep:
            disk.put(k, f.to_json())
        return f

    stmts = {st.label: st for st in (*result.bounds, *result.rates)}
    by_label: dict[str, Finding] = {}
    for lbl, out in violated.items():
        st = stmts.get(lbl)
        if st is None:
            continue
        by_label[lbl] = cached(
            "statement", (lbl, st, out.witness),
            lambda st=st, out=out: repair_statement(result, st, out, ctx, opts,
                                                    driver=statements_driver(),
                                                    budget=budget))
    locs = {loc.id: loc for loc in walk_steps(result, roles_of(result))}
    for s in bad:
        loc = locs.get(s.id)
        if s.method == "statement":
            label = s.id.rsplit("/", 1)[-1]
            f = by_label.get(label) or not_searched("its typed statement was not violated")
        elif loc is None or s.kind in _STRUCTURAL:
            f = not_searched("a structural row (link, conclusion, case cover)")
        elif loc.step.oracle:
            f = cached("oracle", (s.id, loc.step, loc.hypotheses, s.counterexample),
                       lambda loc=loc, s=s: repair_oracle_row(loc, s, ctx, opts,
                                                              budget=budget,
                                                              max_edits=max_edits))
        elif loc.step.kind in (StepKind.ALGEBRA, StepKind.SCALAR):
            f = cached("row", (s.id, loc.step, loc.hypotheses, s.counterexample),
                       lambda loc=loc, s=s: repair_row(loc, s, ctx, opts, budget=budget,
                                                       max_edits=max_edits))
        else:
            f = not_searched(f"a {loc.step.kind.value} row without an oracle")
        s.repairs = [r.to_json() if isinstance(r, Repair) else r for r in f.repairs]
        s.repair = f.header()
    if report.statement.verdict.value == "VIOLATED":
        lbl = (report.statement.witness or {}).get("statement_label")
        f = by_label.get(lbl)
        if f is not None:
            report.statement_repair = f.to_json()


def _table_fp(table):
    if table is None:
        return None
    try:
        return sorted((k, str(v.symbol.assumptions0), str(v.dim), v.latex)
                      for k, v in table.declared().items())
    except Exception:            # noqa: BLE001 - a table without declared(): by name
        return repr(table)


# --------------------------------------------------------------------------------------
# the findings of a run
def findings(reports) -> list[dict]:
    """Every finding of a run that carries a repair search, in report order: a REFUTED
    row (``{"id", "kind": "row", "class", "summary", "repairs", "line", "step"}``) or a
    VIOLATED statement that no refuted statement part stands for."""
    out = []
    for r in reports:
        parts = set()
        for s in r.steps:
            if s.verdict.value != "REFUTED" or getattr(s, "repair", None) is None:
                continue
            if s.method == "statement":
                parts.add(s.id)
            out.append({"id": s.id, "kind": "row", "result": r, "step": s,
                        "class": s.repair["class"], "summary": s.repair["summary"],
                        "repairs": s.repairs or []})
        sr = getattr(r, "statement_repair", None)
        if r.statement.verdict.value == "VIOLATED" and sr is not None and not parts:
            out.append({"id": r.id, "kind": "statement", "result": r, "step": None,
                        "class": sr["class"], "summary": sr["summary"],
                        "repairs": sr.get("repairs") or []})
    return out


def class_counts(reports) -> dict[str, int]:
    """Findings per class (only the classes present), in :data:`CLASSES` order."""
    counts: dict[str, int] = {}
    for f in findings(reports):
        counts[f["class"]] = counts.get(f["class"], 0) + 1
    return {k: counts[k] for k in CLASSES if k in counts}

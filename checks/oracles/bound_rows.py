"""The typed-bound oracle: a proof row ``PRIVACY_LOSS ≤ rhs`` judged like a typed statement
(DESIGN.md, *Truth providers*).

Proofs of privacy theorems end with rows about the mechanism's privacy loss itself —
``D_α(P_θT ‖ P_θ'T) ≤ D_init + α Σa_t²/(…) + T·B`` at the end of an induction, or the bound
of a part whose proof is omitted.  Such a row names this oracle with

* ``like`` — the label of one of its result's typed :class:`~theory.model.Bound`\\ s: the
  mechanism, problem classes and Rényi order the row speaks about (the row's left side is
  that bound's privacy loss);
* ``at`` — ``'symbol=expression; …'``: the values the proof itself gives the row's other
  quantities (``D_init=0`` for a common start, ``sum_a2=0`` for the choice a_t = 0); the
  row is checked at those values — where the proof uses it;
* ``constant`` (optional) — the symbol of an O(·) constant: the row is then an O-form.

The row becomes a typed statement with its own right side and is checked by the statement
machinery (:mod:`checks.statements`): exact truths of the registered providers, both
orders of the adjacent pair, a violation confirmed at 50 digits.  VIOLATED → REFUTED with
the witness; holds on scenarios → SUPPORTED with the tightest ratio; NOT-TESTED →
UNCHECKED with the provider's reason.
"""
from __future__ import annotations

import time
from dataclasses import replace

import sympy as sp

from checks import statements
from checks.plugins import step_oracle
from checks.statements import driver
from checks.verdict import StepReport, Verdict
from theory import registry
from theory.model import Located, Rel

NAME = "typed-bound"


def _pairs(text: str) -> list[tuple[str, str]]:
    out = []
    for part in str(text or "").split(";"):
        part = part.strip()
        if part:
            if "=" not in part:
                raise ValueError(f"{NAME}: expected 'name=value', got {part!r}")
            k, v = part.split("=", 1)
            out.append((k.strip(), v.strip()))
    return out


def row_statement(loc: Located):
    """The typed statement the row stands for (see the module docstring)."""
    args = dict(loc.step.oracle_args)
    rid = loc.id.split("/", 1)[0]
    result = registry.get(rid)
    like = next((b for b in result.bounds if b.label == args.get("like")), None)
    if like is None:
        raise ValueError(f"{NAME}: {rid} has no typed bound {args.get('like')!r}")
    if loc.step.rel not in (Rel.LE, Rel.LT):
        raise ValueError(f"{NAME}: the row must read 'loss <= rhs', got {loc.step.rel.value}")
    syms = {}
    try:        # the paper's declared symbols (their assumptions: D > 0, T integer, ...)
        syms.update({nm: info.symbol for nm, info in
                     registry.symbols_of(rid.split(":", 1)[0]).declared().items()})
    except Exception:       # noqa: BLE001 - a table without declared(): the row's own
        pass
    for b in result.bounds:
        syms.update({x.name: x for x in b.expr.free_symbols})
    syms.update({s.name: s for s in loc.step.free_symbols})
    for h in loc.hypotheses:
        if h.expr is not None:
            syms.update({s.name: s for s in h.expr.free_symbols})
    at = {}
    for k, v in _pairs(args.get("at", "")):
        if k not in {x.name for x in loc.step.free_symbols}:
            raise ValueError(f"{NAME}: 'at' names {k!r}, not a symbol of the row")
        at[syms[k]] = sp.sympify(v, locals=syms)
    rhs = loc.step.rhs.xreplace(at)
    form = "explicit"
    c = args.get("constant")
    if c:
        csym = syms.get(c)
        if csym is None or csym not in rhs.free_symbols:
            raise ValueError(f"{NAME}: the constant {c!r} is not in the row's right side")
        rhs = sp.simplify(rhs / csym)
        if csym in rhs.free_symbols:
            raise ValueError(f"{NAME}: the right side is not c·expr in {c!r}")
        form = "O"
    hyps = list(like.hypotheses)
    for h in loc.step.given:
        if h.expr is not None:
            e = h.expr.xreplace(at)
            if e is sp.true:
                continue
            if e is sp.false:
                raise ValueError(f"{NAME}: the row's hypothesis {h.expr} fails at {at}")
            if loc.step.lhs in e.free_symbols or (c and syms.get(c) in e.free_symbols):
                continue
            hyps.append(replace(h, expr=e))
        elif h.implicit is not None and h not in hyps:
            hyps.append(h)
    return replace(like, label=loc.step.label, expr=rhs, form=form, hypotheses=tuple(hyps)), at


@step_oracle(NAME, arguments={
    "like": "label of the result's typed Bound whose mechanism, classes and order the row "
            "speaks about (its left side is that bound's privacy loss)",
    "at": "'symbol=expression; …': the proof's own values of the row's other quantities",
    "constant": "the symbol of an O(·) constant, when the row is an O-form"},
    supports="rows 'privacy loss of the result's mechanism <= rhs', judged as a typed "
             "statement by the registered truth providers")
def typed_bound(loc: Located, *, budget: int, seed: int) -> StepReport:
    """A row about the mechanism's privacy loss, checked as a typed statement."""
    if budget < 1:
        raise ValueError(f"budget must be >= 1, got {budget}")
    t0 = time.perf_counter()
    st = loc.step
    stmt, at = row_statement(loc)
    # seeded by content, not by the row's id: a row restated elsewhere (the other version
    # of the paper) is the same check, remembered by check_statement
    out = statements.check_statement(stmt, budget=budget, seed=statements.seeded(seed, driver.content_key(stmt)))
    where = ", ".join(f"{k} = {v}" for k, v in at.items())
    pre = (f"the row at the proof's values ({where}) as a typed statement: " if where
           else "the row as a typed statement: ")
    kind = st.kind.value
    if out.tested and out.violated:
        cx = {k: str(v) for k, v in (out.witness or {}).items()}
        return StepReport(loc.id, st.eq, kind, Verdict.REFUTED, f"oracle:{NAME}",
                          counterexample=cx, samples=out.samples,
                          seconds=time.perf_counter() - t0, detail=pre + out.detail)
    if out.tested:
        verdict = Verdict.CITED if kind == "CITED" else Verdict.SUPPORTED
        return StepReport(loc.id, st.eq, kind, verdict, f"oracle:{NAME}",
                          slack=None if out.ratio is None else 1 - out.ratio,
                          samples=out.samples, seconds=time.perf_counter() - t0,
                          detail=pre + out.detail)
    return StepReport(loc.id, st.eq, kind, Verdict.UNCHECKED, f"oracle:{NAME}",
                      samples=out.samples, seconds=time.perf_counter() - t0,
                      detail=pre + out.detail)

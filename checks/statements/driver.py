"""Statement checks: every typed statement of a result against the truth (DESIGN.md,
*Truth providers*).

Generic over papers and mechanisms.  For each :class:`~theory.model.Bound` (privacy) or
:class:`~theory.model.Rate` (utility), the registered truth providers are asked whether
they ``supports()`` it; none → NOT-TESTED with every provider's reason (said, never
guessed).  Otherwise the first supporting provider is used:

**The admissible space.**  Every free symbol of the statement is searched inside the
statement's hypotheses: relations (isolated bounds as in the counterexample search:
log-uniform scales over many decades, boundaries, integers where the paper has
integers), definitions ``x = expr`` (computed, never sampled), implicit bounds such as
α ≤ α*(q, σ) (evaluated numerically), and problem classes (the provider's scenario must
be a member of every class — else the point is skipped).  A hypothesis that is a bare
named predicate makes the statement NOT-TESTED: no provider may guess from its text.

**Explicit forms.**  Provider anchors (targets such as "sampling rate 10⁻³, noise
multiplier 1, order 64", realised by solving for the paper's symbols), random admissible
points and a Hypothesis phase targeting the ratio truth/bound.  Parameters of the bound
that the truth does not depend on (an analysis parameter such as a noise split β) are
then minimised over their admissible range: the claim is for every admissible value.
VIOLATED only when the certified lower value of the truth exceeds the bound, re-checked
at high precision (the provider's ``precise`` truth at 50 digits against the bound at 50
digits); the witness names both orders and which of them exceed the bound.  A scenario
counts for HOLDS only where truth + error ≤ bound, or where the provider's closed-form
truth (:meth:`~checks.truth.base.TruthProvider.closed_form`) is ≤ the bound exactly at the
scenario's exact values (SymPy decides the sign: a tight bound holds); one whose truth ±
error straddles the bound otherwise is *undecided* (counted in the detail); a statement with no decided scenario,
or whose largest certified ratio is not confirmed at high precision, is NOT-TESTED
("UNDECIDED"), never HOLDS-ON-SCENARIOS.

**O-forms** ("is there a constant?").  The ratio truth/expression is followed along
paths that move **every** parameter toward **both** ends of its admissible range (×10
per step toward ∞, ÷10 toward 0, toward the ends of intervals such as β ∈ (0, 1)),
and along the provider's joint paths.  VIOLATED when the ratio grows without bound
along an admissible path: each of the last three steps multiplies it by ≥ 2 (so growth
is confirmed at two further scales) and it ends above 1.  The ratio per path is
reported.

**Rates** are dispatched to rate providers (:mod:`checks.truth.rates_quadratic`), which simulate.
"""
from __future__ import annotations

import copy
import math
from dataclasses import replace

from checks.cache import fingerprint
from checks.plugins import providers as _providers
from checks.statements.bounds import o_form_check, search_bound
from checks.statements.outcome import Outcome
from checks.statements.space import seeded
from checks.verdict import StatementReport, StatementVerdict


# --------------------------------------------------------------------------------------
# dispatch
def supporting(stmt) -> tuple[list, list[str]]:
    """(providers supporting the statement, reasons of those that do not)."""
    ok, why = [], []
    for p in _providers():
        s = p.supports(stmt)
        (ok if s else why).append(p if s else s.reason)
    return ok, why


#: outcomes by (content, budget, seed), per process: a statement restated elsewhere (the
#: other version of a paper, a theorem's appendix restatement, a proof row typed as the
#: theorem's own bound) is checked once.  Its content is the statement without its label,
#: note and the citations (``where``) of its hypotheses: what no provider reads.  Keyed
#: also by the registered providers; a test that patches a provider clears it first.
_MEMO: dict = {}
_MEMO_MAX = 1024
#: the label a statement is checked under (a valid label no paper uses); the outcome then
#: gets the caller's label back, in its text too
_AS = "0-label-of-the-statement-0"


def content_key(stmt) -> str:
    """The text a statement's check depends on (see :data:`_MEMO`); seeds derive from it,
    so equal statements get equal searches wherever they are checked."""
    return fingerprint(replace(stmt, label=_AS, note="", hypotheses=tuple(
        replace(h, where="") for h in stmt.hypotheses)))


def _relabel(out: Outcome, label: str) -> Outcome:
    def sub(v):
        return v.replace(_AS, label) if isinstance(v, str) else v
    witness = None if out.witness is None else {k: sub(v) for k, v in
                                                copy.deepcopy(out.witness).items()}
    return replace(out, label=label, detail=sub(out.detail), witness=witness,
                   paths=copy.deepcopy(out.paths))


def check_statement(stmt, *, budget: int, seed: int) -> Outcome:
    """One typed statement (Bound or Rate), remembered by content (:data:`_MEMO`)."""
    # the registered providers are part of the key: a provider registered later (a user's
    # plugin) may support, or answer, what the ones before could not
    key = (content_key(stmt), budget, seed, tuple(map(id, _providers())))
    out = _MEMO.get(key)
    if out is None:
        out = _check_statement(replace(stmt, label=_AS), budget=budget, seed=seed)
        if len(_MEMO) >= _MEMO_MAX:
            _MEMO.clear()
        _MEMO[key] = out
    return _relabel(out, stmt.label)


def _check_statement(stmt, *, budget: int, seed: int) -> Outcome:
    space_pred = [h.name for h in stmt.hypotheses if h.is_predicate]
    kind = "rate" if hasattr(stmt, "metric") else "bound"
    if space_pred:
        return Outcome(stmt.label, tested=False,
                       detail=f"{kind} {stmt.label}: NOT-TESTED — hypothesis "
                              f"{space_pred[0]!r} is a named predicate: no provider can decide "
                              "whether a scenario satisfies it (type it as a problem class "
                              "or a relation)")
    provs, why = supporting(stmt)
    if not provs:
        return Outcome(stmt.label, tested=False,
                       detail=f"{kind} {stmt.label}: NOT-TESTED — no truth provider supports "
                              f"it: " + "; ".join(why or ["no provider registered"]))
    prov = provs[0]
    if hasattr(prov, "check"):
        return prov.check(stmt, budget=budget, seed=seed)
    if stmt.form == "O":
        return o_form_check(stmt, prov, budget=budget, seed=seed)
    return search_bound(stmt, prov, budget=budget, seed=seed)


def check_result_statements(result, *, budget: int = 40, seed: int = 0
                            ) -> tuple[StatementReport, dict[str, Outcome]]:
    """The statement verdict of a result and the outcome per typed statement label."""
    stmts = list(result.bounds) + list(result.rates)
    if not stmts:
        return StatementReport(StatementVerdict.NOT_TESTED, "no typed statement encoded"), {}
    outs: dict[str, Outcome] = {}
    for st in stmts:
        s = seeded(seed, result.id, st.label)
        try:
            outs[st.label] = check_statement(st, budget=budget, seed=s)
        except Exception as exc:  # noqa: BLE001 - a provider bug: say so, go on
            outs[st.label] = Outcome(st.label, tested=False,
                                     detail=f"{st.label}: NOT-TESTED — provider failed: "
                                            f"{type(exc).__name__}: {exc}")
    tested = [o for o in outs.values() if o.tested]
    details = " | ".join(o.detail for o in outs.values())
    if not tested:
        return StatementReport(StatementVerdict.NOT_TESTED, details), outs
    bad = [o for o in tested if o.violated]
    if bad:
        w = dict(bad[0].witness or {})
        w["statement_label"] = bad[0].label
        return StatementReport(StatementVerdict.VIOLATED, details, w, bad[0].ratio), outs
    top = max(tested, key=lambda o: o.ratio if o.ratio is not None else -math.inf)
    w = dict(top.witness or {})
    w["statement_label"] = top.label
    return StatementReport(StatementVerdict.HOLDS_ON_SCENARIOS, details, w, top.ratio), outs


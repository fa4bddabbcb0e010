"""The statement driver: every typed statement of a result against the truth (DESIGN.md,
*Statement checks*).

Generic over papers, mechanisms and providers.  For each :class:`~theory.model.Bound`
(privacy) or :class:`~theory.model.Rate` (utility), the registered truth providers are
asked whether they ``supports()`` it; none → NOT-TESTED with every provider's reason
(said, never guessed).  Otherwise the providers of the highest declared ``priority``
answer (the tighter certified error at each point where several do: registration order
never decides) and the driver searches — the providers only answer
(:mod:`checks.truth.base`):

* the **admissible space** (:mod:`~checks.statements.space`): every free symbol of the
  statement inside its hypotheses — relations (log-uniform scales over many decades,
  boundaries, integers where the paper has integers), definitions (computed, never
  sampled), implicit bounds such as α ≤ α*(q, σ) (evaluated numerically) and problem
  classes (the provider's scenario must be a member of every class).  A hypothesis that is
  a bare named predicate makes the statement NOT-TESTED: no provider may guess from its
  text;
* **explicit forms** (:mod:`~checks.statements.explicit`): anchors, random and targeted
  points, paths toward both ends where the plan asks; VIOLATED only when confirmed at 50
  digits;
* **O-forms** (:mod:`~checks.statements.oform`): is there a constant?  Paths toward both
  ends of every parameter;
* **existential constants** (:mod:`~checks.statements.existential`): the smallest constant
  that works, and whether it must grow without bound.

What each search may spend is the provider's declared :class:`~checks.truth.base.SearchPlan`.
"""
from __future__ import annotations

import copy
import math
from dataclasses import replace

import numpy as np

from checks import resources
from checks.cache import fingerprint
from checks.plugins import providers as _providers
from checks.prove import contradiction
from checks.statements.evaluator import Evaluator
from checks.statements.existential import existential
from checks.statements.explicit import kind, search
from checks.statements.oform import o_form
from checks.statements.outcome import Outcome
from checks.statements.space import Space, seeded
from checks.verdict import StatementReport, StatementVerdict
from theory.model import statement_hypotheses


# --------------------------------------------------------------------------------------
# dispatch
def supporting(stmt) -> tuple[list, list[str]]:
    """(providers supporting the statement, highest priority first — by name between equal
    priorities; the reasons of those that do not)."""
    ok, why = [], []
    for p in _providers():
        s = p.supports(stmt)
        (ok if s else why).append(p if s else s.reason)
    ok.sort(key=lambda p: (-p.priority, p.name))
    return ok, why


def answering(provs: list) -> list:
    """The providers that answer: those of the highest priority among ``provs``."""
    top = max(p.priority for p in provs)
    return [p for p in provs if p.priority == top]


def check_with(stmt, provs, *, budget: int, seed: int) -> Outcome:
    """One statement against the truth of ``provs`` (a provider or a list of them, the
    first declaring the search): the search its form asks for."""
    provs = list(provs) if isinstance(provs, (list, tuple)) else [provs]
    space = Space(stmt)
    plan = provs[0].plan(stmt, budget)
    ev = Evaluator(stmt, provs, space, decide=not getattr(stmt, "constants", ())
                   and stmt.form != "O", seed=seed)
    if getattr(stmt, "constants", ()):
        return existential(stmt, ev, plan, budget=budget, seed=seed)
    if stmt.form == "O":
        return o_form(stmt, ev, plan, budget=budget, seed=seed)
    return search(stmt, ev, plan, budget=budget, seed=seed)


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
    what = "rate" if kind(stmt) == "rate" else "bound"
    if space_pred:
        return Outcome(stmt.label, tested=False,
                       detail=f"{what} {stmt.label}: NOT-TESTED — hypothesis "
                              f"{space_pred[0]!r} is a named predicate: no provider can decide "
                              "whether a scenario satisfies it (type it as a problem class "
                              "or a relation)")
    vac = vacuous(stmt)
    if vac is not None:
        return vac
    provs, why = supporting(stmt)
    if not provs:
        return Outcome(stmt.label, tested=False,
                       detail=f"{what} {stmt.label}: NOT-TESTED — no truth provider supports "
                              f"it: " + "; ".join(why or ["no provider registered"]))
    return check_with(stmt, answering(provs), budget=budget, seed=seed)


def as_claimed(result, stmt):
    """The typed statement as its printed part claims it: a part written ``lhs = rhs``
    claims the truth equals the bound (checked both ways), not only that it is at most it."""
    if getattr(stmt, "statement_type", "") != "bound" or stmt.form != "explicit":
        return stmt
    for part in result.statement:
        if part.label == stmt.label and part.rel.value == "=" and stmt.rel != "=":
            return replace(stmt, rel="=")
    return stmt


#: raw draws (batches of 64) in which a statement's space must show one admissible point
#: before its hypotheses are put to the prover as possibly contradictory
VACUITY_BATCHES = 4


def vacuous(stmt) -> Outcome | None:
    """A VACUOUS outcome when the hypotheses in force at ``stmt`` contradict each other —
    no point of its space is admissible in :data:`VACUITY_BATCHES` batches of draws, and
    z3 proves the relational hypotheses jointly unsatisfiable (the unsat core is the
    proof, named in the detail and the witness); None otherwise (the search then runs, and
    says what it found)."""
    space = Space(stmt)
    rng = np.random.default_rng(seeded(0, "vacuity", content_key(stmt)))
    for _ in range(VACUITY_BATCHES):
        if space.draw(rng, 64):
            return None
    named = [(f"{h.expr}" + (f" ({h.where})" if h.where else ""), h.expr)
             for h in stmt.hypotheses if h.expr is not None]
    core = contradiction(named)
    if core is None:
        return None
    what = "rate" if kind(stmt) == "rate" else "bound"
    return Outcome(stmt.label, tested=False, vacuous=True,
                   witness={"contradiction": "; ".join(core),
                            "proof": "z3: the hypotheses of the core are jointly unsat"},
                   detail=f"{what} {stmt.label}: VACUOUS — the hypotheses in force contradict "
                          f"each other, so no scenario can satisfy them (z3 unsat core: "
                          f"{'; '.join(core)})")


def bound_statements(result, roles=None) -> list:
    """The result's typed statements (bounds, then rates), each holding every hypothesis in
    force at it (:func:`theory.model.statement_hypotheses`: the statement's own, the
    result's, its part's, the standing ones, the classes' and roles' implied relations,
    read with the statement's printed choices), as its printed part claims it
    (:func:`as_claimed`): the user never repeats them, and no scenario of its check breaks
    one."""
    return [as_claimed(result, replace(st, hypotheses=statement_hypotheses(result, st, roles),
                                       choices=(), embodies=()))
            for st in list(result.bounds) + list(result.rates)]


def check_result_statements(result, *, budget: int = 40, seed: int = 0, roles=None
                            ) -> tuple[StatementReport, dict[str, Outcome]]:
    """The statement verdict of a result and the outcome per typed statement label, each
    statement checked under every hypothesis in force at it (:func:`bound_statements`;
    ``roles``: the paper's, :attr:`theory.model.Paper.roles`)."""
    stmts = bound_statements(result, roles)
    if not stmts:
        return StatementReport(StatementVerdict.NOT_TESTED, "no typed statement encoded"), {}
    outs: dict[str, Outcome] = {}
    for st in stmts:
        st = as_claimed(result, st)
        s = seeded(seed, result.id, st.label)
        try:
            outs[st.label] = check_statement(st, budget=budget, seed=s)
        except Exception as exc:  # noqa: BLE001 - a provider bug: say so, go on
            outs[st.label] = Outcome(st.label, tested=False,
                                     detail=f"{st.label}: NOT-TESTED — provider failed: "
                                            f"{resources.why(exc)}")
    tested = [o for o in outs.values() if o.tested]
    details = " | ".join(o.detail for o in outs.values())
    bad = [o for o in tested if o.violated]
    if bad:
        w = dict(bad[0].witness or {})
        w["statement_label"] = bad[0].label
        return StatementReport(StatementVerdict.VIOLATED, details, w, bad[0].ratio), outs
    empty = [o for o in outs.values() if o.vacuous]
    if empty:
        w = dict(empty[0].witness or {})
        w["statement_label"] = empty[0].label
        return StatementReport(StatementVerdict.VACUOUS, details, w), outs
    if not tested:
        return StatementReport(StatementVerdict.NOT_TESTED, details), outs
    top = max(tested, key=lambda o: o.ratio if o.ratio is not None else -math.inf)
    w = dict(top.witness or {})
    w["statement_label"] = top.label
    return StatementReport(StatementVerdict.HOLDS_ON_SCENARIOS, details, w, top.ratio), outs


"""The verification engine: every step of a result gets a verdict (DESIGN.md, *Verdicts*).

For each result, :func:`plan` lists the checks and :func:`check_result` runs them:

* **steps** (``walk_steps``): ALGEBRA and SCALAR steps go to the prover
  (:mod:`checks.prove`: SymPy, then z3); what it cannot prove goes to the
  counterexample search (:mod:`checks.falsify`, seeded from the user's seed and the
  claim), which gives REFUTED (a confirmed witness) or SUPPORTED (budget, smallest
  slack and where).  A step that names an ``oracle`` registered in
  :mod:`checks.plugins` is judged by it; CITED steps without one are CITED;
  PROBABILISTIC steps without one stay UNCHECKED.  Statement parts of definitions and
  assumptions (``def``/``asm`` results) are DEFINED;
* **chain links** (``<chain>/link-k``): the right side of step k must equal the left
  side of step k+1 under the hypotheses in force.  When they are not equal but the
  weaker relation that keeps the chain valid holds (``rhs_k <= lhs_{k+1}`` in a ≤
  chain) the link is judged on that, and the detail says so;
* **chain conclusions** (``<chain>/concludes``): the composed relation of the chain,
  from its first left side to its last right side, must give the statement part it
  names (ends equal under the hypotheses, relation at least as strong);
* **case coverage** (``<split>/cover``): ``given ⇒ c1 ∨ c2 ∨ …``;
* **units** (``<result>/units``): every expression of the result dimension-checked;
* **typed statements** (``Result.bounds`` / ``Result.rates``): compared with the truth by
  the registered truth providers (:mod:`checks.statements`), giving the result's
  statement verdict (VIOLATED / HOLDS-ON-SCENARIOS / NOT-TESTED).

**Statement parts** (the printed statement of a result) are judged last:

1. a part is PROVED when a chain ``concludes`` it, that conclusion row is PROVED, and
   every row *it rests on* is PROVED or CITED — its own chain carries it, whatever
   another part's proof shows.  The rows a part rests on are every row of the result's
   proof (steps, chain links and conclusions, case covers) except the rows of the chains
   that conclude another part; a chain concluding another part Q is the part's too when
   the part depends on Q: a step of one of its chains takes Q's printed relation
   (``Q.lhs REL Q.rhs``, either way round), or a line of a chain concluding Q, as a
   ``given`` — transitively.  Steps outside
   chains and chains concluding nothing count for every part (nothing says which part
   they serve).  A single-part result rests on its whole proof;
2. otherwise, when a typed statement has the same label and was tested, the part takes
   its outcome: VIOLATED → REFUTED (with the confirmed witness), holds on scenarios →
   SUPPORTED (a CITED part stays CITED, with the comparison in the detail);
3. otherwise the part is checked like any step (prover, search, its oracle, or
   UNCHECKED for a PROBABILISTIC part without one), and the detail says which proof rows
   keep it from being PROVED.

An oracle name that no plug-in registered is an encoding error: the row is UNCHECKED
with that reason (``dpcheck lint`` reports it), never a silent CITED.

**Repairs** (``dpcheck verify`` without ``--no-repairs``; :mod:`checks.repair`): once
every result is checked, the small edits or the one hypothesis under which each REFUTED
row or VIOLATED statement holds are searched — after all the checks, never between them,
and in parallel runs each result's search in a fresh worker process, because z3's
answer under a resource limit can depend on what the process built before: the
findings' verdicts are those of a run without repairs, and the repairs do not depend on
which worker ran what.

A result's verdict is its weakest check's (:func:`checks.verdict.weakest`).  The same
claim is checked once per run (cache keyed by the claim's content), and its search seed
is derived from the claim, so the output does not depend on order or parallelism.  With
a :class:`checks.cache.DiskCache`, verdicts persist across runs (keyed by the check's
content, budget, seed and the engine version): an edit re-checks only what changed.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import reduce
from typing import Callable, Iterable

import sympy as sp

from checks import cache as _cache
from checks import resources
from checks.determinism import pin_blas_threads, pin_hypothesis
from checks.executor import default_jobs  # re-exported: engine.default_jobs
from checks import falsify, prove, units
from checks.claim import Claim, make_claim, step_claim
from checks import DEFAULT_BUDGET, DEFAULT_SEED  # re-exported (engine.DEFAULT_BUDGET)
from checks.plugins import get_step_oracle
from checks.verdict import (ResultReport, StatementReport, StatementVerdict, StepReport,
                            Verdict)
from theory.model import (CaseSplit, Chain, Located, Rel, Result, Step, StepKind, Tag,
                          in_force, repeated_labels, row_origins, step_id, walk_steps,
                          with_standing)


@dataclass
class Options:
    budget: int = DEFAULT_BUDGET
    seed: int = DEFAULT_SEED
    rlimit: int = prove.DEFAULT_RLIMIT
    cache: dict = field(default_factory=dict)
    disk: "_cache.DiskCache | None" = None
    #: answer from the disk cache only: a check it lacks raises :class:`_Miss` (the parent
    #: of a parallel run answers fully cached results itself, without a worker)
    cache_only: bool = False
    #: search the repairs of every finding after a result's checks (:mod:`checks.repair`)
    repairs: bool = False
    #: the most edits a repair may make (1 or 2)
    repair_edits: int = 2
    #: judgements per finding (prover + search runs, oracle runs, statement checks)
    repair_budget: int = 10

    def __post_init__(self):
        if not isinstance(self.budget, int) or self.budget < 1:
            raise ValueError(f"budget must be an integer >= 1, got {self.budget!r}")
        if not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"seed must be an integer >= 0, got {self.seed!r}")
        if not isinstance(self.repair_edits, int) or self.repair_edits not in (1, 2):
            raise ValueError(f"repair_edits must be 1 or 2, got {self.repair_edits!r}")
        if not isinstance(self.repair_budget, int) or self.repair_budget < 1:
            raise ValueError(f"repair_budget must be an integer >= 1, got "
                             f"{self.repair_budget!r}")


@dataclass
class PlannedCheck:
    id: str
    eq: str | None
    kind: str
    run: Callable[[Options], StepReport]
    #: what the verdict depends on (for the disk cache); None: never cached
    content: Callable[[], str] | None = None
    #: a statement part: judged after the proof and the typed statements
    part: Located | None = None


pin_hypothesis()   # the same examples for a seed, whatever ran before (see checks.determinism)
pin_blas_threads()  # the same floating-point sums in every process (see checks.determinism)


# --------------------------------------------------------------------------------------
# claims: prove, then search
@dataclass
class ClaimOutcome:
    verdict: Verdict
    method: str
    detail: str
    counterexample: dict | None = None
    slack: float | None = None
    where: dict | None = None
    samples: int = 0


def judge_claim(claim: Claim, opts: Options, core: Claim | None = None) -> ClaimOutcome:
    """PROVED / REFUTED / SUPPORTED / UNCHECKED for one claim (cached per run).  ``core``:
    the same claim without the class-implied hypotheses; the prover works on it (fewer,
    simpler hypotheses: what it proves holds a fortiori), the search on ``claim`` (on
    ``core`` when no sampled point meets ``claim``'s hypotheses: a witness found there
    must then be realised by an instance, :func:`realised`)."""
    if core is not None and core.key() == claim.key():
        core = None
    key = (claim.key(), core.key() if core is not None else None, opts.budget, opts.seed,
           opts.rlimit)
    hit = opts.cache.get(key)
    if hit is not None:
        return hit
    out = _judge(claim, opts, core)
    opts.cache[key] = out
    return out


def _judge(claim: Claim, opts: Options, core: Claim | None = None) -> ClaimOutcome:
    target = core if core is not None else claim
    # the full SymPy stage waits until the search has found no witness: the verdict is
    # that of prove() then search (a claim the search refutes is false, so the SymPy
    # stage could not have proved it), without the stage's cost on refuted claims
    pr = prove.prove(target, rlimit=opts.rlimit, full_sympy=False)
    if pr.status == "proved":
        return ClaimOutcome(Verdict.PROVED, pr.method, pr.detail)
    exact_model = pr.status == "model" and pr.exact     # prove() would have stopped there

    def sympy_proof() -> ClaimOutcome | None:
        if exact_model:
            return None
        sy = prove.sympy_stage(target)
        return ClaimOutcome(Verdict.PROVED, sy.method, sy.detail) if sy is not None else None

    extra = [pr.model] if pr.model else []
    try:
        sr = falsify.search(claim, budget=opts.budget, seed=(core or claim).seed(opts.seed),
                            extra_points=extra)
    except Exception as exc:  # an expression the evaluators cannot handle
        return sympy_proof() or ClaimOutcome(
            Verdict.UNCHECKED, "search", f"{pr.detail}; numeric search failed: "
                                         f"{_failure(exc)}")
    if sr.counterexample is None:
        got = sympy_proof()
        if got is not None:
            return got
    if sr.counterexample is None and core is not None and pr.model:
        # the prover's model of the printed hypotheses was no witness (it breaks an implied
        # relation) and the search found none: ask the prover about the full claim (a
        # proof, or a model that satisfies the implied relations).  Skipped when the
        # prover gave no model (it timed out: it would again, at a cost)
        pr2 = prove.prove(claim, rlimit=opts.rlimit)
        if pr2.status == "proved":
            return ClaimOutcome(Verdict.PROVED, pr2.method,
                                pr2.detail + " (with the implied hypotheses)")
        if pr2.model:
            cx = falsify.confirm(claim, pr2.model)
            if cx is not None:
                sr.counterexample = cx
                sr.detail = "z3 model " + falsify._CONFIRMED
    if sr.counterexample is None and sr.feasible == 0 and core is not None:
        # no sampled point met the implied hypotheses: search the printed ones (a larger
        # region; a witness found there is kept only if an instance realises it)
        try:
            sc = falsify.search(core, budget=opts.budget, seed=core.seed(opts.seed),
                                extra_points=extra)
        except Exception:
            sc = None
        if sc is not None and (sc.counterexample is not None or sc.feasible):
            sc.detail = (f"searched under the printed hypotheses (no sampled point met the "
                         f"implied ones): {sc.detail}")
            sr = sc
    if sr.counterexample is not None:
        method = "z3+mpmath" if sr.detail.startswith("z3 model") else "search+mpmath"
        detail = sr.detail
        if claim.dropped:
            detail += ("; hypotheses that are not scalar relations were not checked at the "
                       "witness: " + "; ".join(claim.dropped))
        return ClaimOutcome(Verdict.REFUTED, method, detail, sr.counterexample,
                            sr.slack, sr.where, sr.samples)
    if sr.feasible == 0:
        return ClaimOutcome(Verdict.UNCHECKED, "search",
                            f"{pr.detail}; {sr.detail}", None, None, None, sr.samples)
    return ClaimOutcome(Verdict.SUPPORTED, "search", f"{pr.detail}; {sr.detail}", None,
                        sr.slack, sr.where, sr.samples)


def _short(s: str, n: int = 160) -> str:
    return s if len(s) <= n else s[: n - 3] + "..."


def _failure(exc: BaseException) -> str:
    """A caught exception as a row's reason: a MemoryError as the memory limit it hit
    (and counted: the row is then cached under the memory limit, :func:`_limited`)."""
    if isinstance(exc, MemoryError):
        return resources.why(exc)
    return f"{type(exc).__name__}: {_short(str(exc))}"


def _report(id_, eq, kind, outcome: ClaimOutcome, seconds: float) -> StepReport:
    return StepReport(id=id_, eq=eq, kind=kind, verdict=outcome.verdict,
                      method=outcome.method, counterexample=outcome.counterexample,
                      slack=outcome.slack, samples=outcome.samples, seconds=seconds,
                      detail=outcome.detail, where=outcome.where)


# --------------------------------------------------------------------------------------
# steps
def check_step(loc: Located, opts: Options | None = None, *, definition: bool = False,
               roles=None) -> StepReport:
    """The verdict on one located step (see module docstring); with ``roles`` (the
    paper's), a witness over role quantities must be realised by an instance
    (:func:`realised`), and every alternative reading of the step is checked too."""
    rep = _with_standing(loc, lambda lc: _check_step(lc, opts, definition=definition,
                                                     roles=roles))
    if loc.step.readings and not definition and (
            loc.step.kind in (StepKind.ALGEBRA, StepKind.SCALAR) or loc.step.oracle):
        rep.readings = [_check_reading(loc, rd, opts or Options(), roles)
                        for rd in loc.step.readings]
    return rep


def _with_standing(loc: Located, check) -> StepReport:
    """``check(loc)``, where standing hypotheses are in force at the step
    (:attr:`theory.model.Tag.STANDING`): first without them — a row that holds without them
    holds with them (PROVED is kept, so a standing assumption the row does not need never
    costs it its proof) — then, for any other verdict, with every hypothesis in force:
    a witness must satisfy the standing assumptions, and a row may need them."""
    if not any(h.tag is Tag.STANDING for h in loc.hypotheses):
        return check(loc)
    bare = Located(loc.id, loc.step, tuple(h for h in loc.hypotheses
                                           if h.tag is not Tag.STANDING), loc.case_path)
    rep = check(bare)
    if rep.verdict is Verdict.PROVED:
        return rep
    return check(loc)


def _check_reading(loc: Located, rd, opts: Options, roles) -> dict:
    from dataclasses import replace
    args = dict(loc.step.oracle_args)
    args.update(dict(rd.oracle_args))
    alt = replace(loc.step, lhs=rd.lhs, rel=rd.rel, rhs=rd.rhs, readings=(),
                  oracle_args=tuple(sorted(args.items())))
    r = _with_standing(Located(loc.id, alt, loc.hypotheses, loc.case_path),
                       lambda lc: _check_step(lc, opts, roles=roles))
    return {"name": rd.name, "claim": str(rd), "why": rd.why, "verdict": r.verdict.value,
            "method": r.method, "counterexample": r.counterexample, "detail": r.detail,
            "instance": r.instance}


def realised(out: ClaimOutcome, claim: Claim, hyps, roles, opts: Options,
             line=None) -> tuple:
    """(outcome, instance): a REFUTED outcome whose witness speaks of role quantities,
    moments of a declared random variable or declared aggregates keeps its verdict only
    if :func:`checks.realise.realise` builds an instance attaining it; otherwise the
    search goes on over realisable points — laws (:func:`law_search`, when the ``line``
    speaks of declared moments), else a few more seeds, each witness realised — and the
    row ends SUPPORTED (no realisable witness breaks the line) or UNCHECKED with the
    reason when no witness is an instance."""
    if out.verdict is not Verdict.REFUTED or not out.counterexample or not roles:
        return out, None
    from checks import realise
    rz = realise.realise(out.counterexample, hyps, roles)
    if not rz.applies:
        return out, None
    if rz.ok:
        return out, rz.instance
    first_why = rz.why
    if line is not None:
        got = law_search(line, hyps, roles, opts, claim, unrealised=(out, first_why))
        if got is not None:
            return got
    base = claim.seed(opts.seed)
    for k in range(1, REALISE_RETRIES + 1):
        try:
            sr = falsify.search(claim, budget=opts.budget, seed=(base + 7919 * k) % 2 ** 32)
        except Exception:
            break
        if sr.counterexample is None:
            continue
        rz = realise.realise(sr.counterexample, hyps, roles)
        if rz.ok:
            return ClaimOutcome(Verdict.REFUTED, out.method,
                                f"{sr.detail} (the first witness was not an instance: "
                                f"{first_why}; search {k + 1} found this one)",
                                sr.counterexample, sr.slack, sr.where, sr.samples), rz.instance
    cx = ", ".join(f"{k}={v}" for k, v in out.counterexample.items())
    return ClaimOutcome(Verdict.UNCHECKED, "search+realise",
                        f"the scalar search violates the step at {cx}, but no instance "
                        f"realises it ({first_why}), nor any of {REALISE_RETRIES} further "
                        "searches: not reported as REFUTED", None, out.slack, out.where,
                        out.samples), None


def law_search(line, hyps, roles, opts: Options, claim: Claim,
               unrealised: tuple | None = None, prior: ClaimOutcome | None = None):
    """The search over realisable points of a line that speaks of moments of a declared
    random variable (:func:`checks.laws.search_laws`): (outcome, instance), or None when
    it does not apply.  A law breaking the line makes the row REFUTED (its witness the
    parameters and the law, re-checked at 50 digits, and realised for its role
    quantities and aggregates too); otherwise the row is SUPPORTED — ``unrealised``:
    (outcome, why) of a scalar witness no law attains — or keeps ``prior``'s verdict
    with the laws searched added to its detail."""
    rvs = (roles or {}).get("random")
    if not rvs:
        return None
    from checks import laws, realise
    starts = [p for p in ((unrealised[0].counterexample if unrealised else None),
                          (prior.where if prior else None)) if p]
    try:
        ls = laws.search_laws(line, hyps, rvs, budget=opts.budget,
                              seed=claim.seed(opts.seed), starts=starts)
    except Exception as exc:  # noqa: BLE001 - an expression the LP cannot evaluate
        if unrealised is None:
            return None
        ls = laws.LawSearch(None, None, f"the search over laws failed: "
                                        f"{type(exc).__name__}: {_short(str(exc))}")
    if ls is None:
        return None
    if ls.counterexample is not None:
        # the law is the witness's own: the role quantities and aggregates remain
        rest = {k: v for k, v in (roles or {}).items() if k != "random"}
        rz = realise.realise(ls.counterexample, hyps, rest)
        if not rz.applies or rz.ok:
            inst = dict(ls.instance or {})
            inst.update(rz.instance if rz.applies else {})
            note = ""
            if unrealised is not None:
                cx = ", ".join(f"{k}={v}" for k, v in unrealised[0].counterexample.items())
                note = (f" (the scalar search's witness {cx} is no instance: "
                        f"{unrealised[1]})")
            return ClaimOutcome(Verdict.REFUTED, "law-search+mpmath", ls.detail + note,
                                ls.counterexample, None, None, ls.points), inst
        ls = laws.LawSearch(None, None, f"{ls.detail}; but its witness is no instance: "
                                        f"{rz.why}", ls.points)
    if unrealised is not None:
        out, why = unrealised
        cx = ", ".join(f"{k}={v}" for k, v in out.counterexample.items())
        return ClaimOutcome(Verdict.SUPPORTED, "search+laws",
                            f"the scalar search violates the step at {cx}, but no law "
                            f"realises it ({why}); the search over realisable points: "
                            f"{ls.detail} — not reported as REFUTED", None, ls.best, None,
                            out.samples + ls.points), None
    if prior is not None:
        return ClaimOutcome(prior.verdict, prior.method,
                            f"{prior.detail}; the search over realisable points: "
                            f"{ls.detail}", None, prior.slack, prior.where,
                            prior.samples + ls.points), None
    return None


def _class_implied(h) -> bool:
    """An implied relation between state quantities (from a typed class) or between
    moments and aggregates (from a declared law or definition): the prover and the
    fallback search leave these out; a witness must then be realised by an instance,
    which satisfies them by construction."""
    return h.tag in (Tag.CLASS, Tag.LAW)


def _speaks_of_moments(claim: Claim, roles) -> bool:
    """True when the claim uses a stand-in of a declared random variable."""
    syms = set(claim.symbols) | {s for s, _ in claim.definitions}
    return any(set(rv.standins) & syms for rv in (roles or {}).get("random", ()))


#: further searches (new seeds) when a witness is not realised by any instance
REALISE_RETRIES = 2


def _check_step(loc: Located, opts: Options | None = None, *, definition: bool = False,
                roles=None) -> StepReport:
    opts = opts or Options()
    t0 = time.perf_counter()
    st = loc.step
    kind = st.kind.value
    if definition:
        return StepReport(loc.id, st.eq, kind, Verdict.DEFINED, "definition",
                          detail=st.because or "a definition: nothing to check")
    if st.oracle:
        fn = get_step_oracle(st.oracle)
        if fn is not None:
            try:
                rep = fn(loc, budget=opts.budget, seed=opts.seed)
            except Exception as exc:
                return StepReport(loc.id, st.eq, kind, Verdict.UNCHECKED,
                                  f"oracle:{st.oracle}",
                                  detail=f"oracle failed: {_failure(exc)}",
                                  seconds=time.perf_counter() - t0)
            rep.id, rep.eq, rep.kind = loc.id, st.eq, kind
            if not rep.seconds:
                rep.seconds = time.perf_counter() - t0
            return rep
        from checks.plugins import load_errors, step_oracles
        known = ", ".join(step_oracles()) or "none"
        why = "; ".join(e for e in load_errors() if st.oracle in e)
        return StepReport(loc.id, st.eq, kind, Verdict.UNCHECKED, "encoding-error",
                          detail=f"ENCODING ERROR: unknown oracle {st.oracle!r} (registered: "
                                 f"{known}){'; ' + why if why else ''}",
                          seconds=time.perf_counter() - t0)
    else:
        missing = "no oracle named"
    if st.kind is StepKind.CITED:
        return StepReport(loc.id, st.eq, kind, Verdict.CITED, "cited",
                          detail=f"{st.because or 'external result'} ({missing})",
                          seconds=time.perf_counter() - t0)
    if st.kind is StepKind.PROBABILISTIC:
        return StepReport(loc.id, st.eq, kind, Verdict.UNCHECKED, "none",
                          detail=f"probabilistic step: {missing}",
                          seconds=time.perf_counter() - t0)
    claim = step_claim(st.lhs, st.rel, st.rhs, loc.hypotheses)
    core = None
    if any(_class_implied(h) for h in loc.hypotheses):
        core = step_claim(st.lhs, st.rel, st.rhs,
                          [h for h in loc.hypotheses if not _class_implied(h)])
    out = judge_claim(claim, opts, core)
    line = st.rel.sympy(st.lhs, st.rhs)
    out, instance = realised(out, claim, loc.hypotheses, roles, opts, line)
    if out.verdict in (Verdict.SUPPORTED, Verdict.UNCHECKED) and out.method != \
            "search+laws" and _speaks_of_moments(claim, roles):
        got = law_search(line, loc.hypotheses, roles, opts, claim, prior=out)
        if got is not None:
            out, instance = got
    rep = _report(loc.id, st.eq, kind, out, time.perf_counter() - t0)
    rep.instance = instance
    return rep


# --------------------------------------------------------------------------------------
# structure: chain links and conclusions, case coverage
def _link_claims(a: Step, b: Step, hyps, composite: Rel | None):
    """(equality claim, weaker claim or None) for the link a.rhs -> b.lhs."""
    hyps = tuple(hyps) + a.given + b.given
    eq = make_claim(sp.Eq(a.rhs, b.lhs, evaluate=False), hyps)
    weaker = None
    if composite is not None and composite.direction:
        rel = Rel.LE if composite.direction < 0 else Rel.GE
        weaker = step_claim(a.rhs, rel, b.lhs, hyps)
    return eq, weaker


def check_link(id_: str, a: Step, b: Step, hyps, composite: Rel | None,
               opts: Options) -> StepReport:
    t0 = time.perf_counter()
    if _same(a.rhs, b.lhs):
        return StepReport(id_, None, "LINK", Verdict.PROVED, "sympy-simplify",
                          detail=f"({a.label}) rhs = ({b.label}) lhs",
                          seconds=time.perf_counter() - t0)
    eq, weaker = _link_claims(a, b, hyps, composite)
    out = judge_claim(eq, opts)
    if out.verdict is not Verdict.PROVED and weaker is not None:
        w = judge_claim(weaker, opts)
        if w.verdict in (Verdict.PROVED, Verdict.SUPPORTED):
            note = ("ends differ" if out.verdict is Verdict.REFUTED
                    else "equality not proved")
            rel = "<=" if composite.direction < 0 else ">="
            w = ClaimOutcome(w.verdict, w.method,
                             f"{note}, but ({a.label}) rhs {rel} ({b.label}) lhs keeps the "
                             f"chain valid: {w.detail}", None, w.slack, w.where, w.samples)
            return _report(id_, None, "LINK", w, time.perf_counter() - t0)
        if w.verdict is Verdict.REFUTED:
            out = ClaimOutcome(Verdict.REFUTED, w.method,
                               f"({a.label}) rhs does not lead to ({b.label}) lhs: "
                               f"{w.detail}", w.counterexample, w.slack, w.where, w.samples)
    return _report(id_, None, "LINK", out, time.perf_counter() - t0)


def _small(*es) -> bool:
    return sum(sp.count_ops(e) for e in es) <= 150


def check_concludes(id_: str, chain: Chain, target: Step | None, hyps,
                    opts: Options) -> StepReport:
    t0 = time.perf_counter()

    def done(verdict, method, detail, out: ClaimOutcome | None = None):
        rep = StepReport(id_, None, "CONCLUDES", verdict, method, detail=detail,
                         seconds=time.perf_counter() - t0)
        if out is not None:
            rep.counterexample, rep.slack, rep.where = out.counterexample, out.slack, out.where
            rep.samples = out.samples
        return rep

    if target is None:
        return done(Verdict.UNCHECKED, "chain",
                    f"chain {chain.label!r} concludes {chain.concludes!r}: no such "
                    "statement part (or the statement has several parts)")
    composite = reduce(lambda r, s: Rel.compose(r, s.rel) if r else None, chain.steps[1:],
                       chain.steps[0].rel)
    if composite is None:
        return done(Verdict.REFUTED, "chain",
                    "the chain mixes <= and >= steps: it establishes nothing")
    first, last = chain.steps[0].lhs, chain.steps[-1].rhs
    flipped = {Rel.LE: Rel.GE, Rel.LT: Rel.GT, Rel.GE: Rel.LE, Rel.GT: Rel.LT,
               Rel.EQ: Rel.EQ}
    options = [(first, last, composite), (last, first, flipped[composite])]
    # pick the orientation whose ends match syntactically, else the printed one
    for lhs, rhs, rel in options:
        if rel.implies(target.rel) and _same(lhs, target.lhs) and _same(rhs, target.rhs):
            return done(Verdict.PROVED, "chain",
                        f"chain gives {_short(str(lhs), 60)} {rel.value} "
                        f"{_short(str(rhs), 60)}")
    lhs, rhs, rel = options[0]
    if not rel.implies(target.rel):
        lhs, rhs, rel = options[1]
        if not rel.implies(target.rel):
            return done(Verdict.REFUTED, "chain",
                        f"the chain establishes {composite.value}; the statement claims "
                        f"{target.rel.value}")
    hyps = tuple(hyps) + target.given
    worst = None
    for mine, theirs, side in ((lhs, target.lhs, "left"), (rhs, target.rhs, "right")):
        if _same(mine, theirs):
            continue
        out = judge_claim(make_claim(sp.Eq(mine, theirs, evaluate=False), hyps), opts)
        if worst is None or out.verdict.strength < worst[0].verdict.strength:
            worst = (out, side)
    if worst is None:
        return done(Verdict.PROVED, "chain", f"chain gives the statement ({rel.value})")
    out, side = worst
    return done(out.verdict, f"chain/{out.method}",
                f"{side} end of the chain vs the statement: {out.detail}", out)


def _same(a, b) -> bool:
    if a == b:
        return True
    try:
        return _small(a, b) and sp.simplify(a - b) == 0
    except Exception:
        return False


def check_cover(id_: str, split: CaseSplit, hyps, opts: Options) -> StepReport:
    t0 = time.perf_counter()
    conds = []
    for case in split.cases:
        if any(not c.is_relational for c in case.condition):
            return StepReport(id_, None, "COVER", Verdict.UNCHECKED, "cover",
                              detail=f"case {case.label!r} has a non-scalar condition",
                              seconds=time.perf_counter() - t0)
        conds.append(sp.And(*[c.expr for c in case.condition]))
    claim = make_claim(sp.Or(*conds), tuple(hyps) + split.given)
    out = judge_claim(claim, opts)
    out = ClaimOutcome(out.verdict, out.method,
                       ("the cases cover the hypotheses: " if out.verdict is Verdict.PROVED
                        else "case coverage: ") + out.detail,
                       out.counterexample, out.slack, out.where, out.samples)
    return _report(id_, None, "COVER", out, time.perf_counter() - t0)


def check_units(result: Result) -> StepReport | None:
    t0 = time.perf_counter()
    n, findings = units.check_result(result)
    if n == 0:
        return None
    rid = f"{result.id}/units"
    mism = [f for f in findings if not f.unknown]
    unknown = [f for f in findings if f.unknown]
    if mism:
        # A dimension mismatch is a finding, but not a refutation: REFUTED needs a
        # counterexample satisfying every hypothesis, and a mismatch alone gives none.
        # UNCHECKED says "we cannot vouch for this as stated"; the detail names it.
        return StepReport(rid, None, "UNITS", Verdict.UNCHECKED, "units",
                          detail=f"DIMENSION MISMATCH ({len(mism)}): " + " | ".join(
                              map(_finding, mism[:3])),
                          samples=n, seconds=time.perf_counter() - t0,
                          where={"at": mism[0].where})
    if unknown:
        return StepReport(rid, None, "UNITS", Verdict.UNCHECKED, "units",
                          detail="; ".join(map(_finding, unknown[:3])),
                          samples=n, seconds=time.perf_counter() - t0)
    return StepReport(rid, None, "UNITS", Verdict.PROVED, "units",
                      detail=f"{n} relations dimensionally consistent", samples=n,
                      seconds=time.perf_counter() - t0)


# --------------------------------------------------------------------------------------
# planning
def _finding(f) -> str:
    """A dimension finding as a detail shows it: where, then what."""
    return f"{f.where}: {f.message}"


def _fp(*objs) -> Callable[[], str]:
    return lambda: _cache.fingerprint(objs)


def plan(result: Result) -> list[PlannedCheck]:
    """Every check of a result, in report order: statement parts, the proof's steps
    with their structural checks (after the chain / split they belong to), units."""
    out: list[PlannedCheck] = []
    base = tuple(result.hypotheses)
    definition = result.kind in ("def", "asm")
    roles = roles_of(result)
    for s in result.statement:
        loc = Located(f"{result.id}/{s.label}", s, in_force(result, base + s.given, s, roles),
                      ())
        out.append(PlannedCheck(loc.id, s.eq, s.kind.value,
                                lambda o, loc=loc: check_step(loc, o, definition=definition,
                                                              roles=roles),
                                part=loc))
    _plan_items(result, result.proof, base, (), out, roles, repeated_labels(result))
    if result.statement or result.proof or result.bounds or result.rates or result.hypotheses:
        out.append(PlannedCheck(f"{result.id}/units", None, "UNITS",
                                lambda o, r=result: check_units(r),
                                content=lambda r=result: _cache.fingerprint(
                                    (r, _units_table(r)))))
    return out


def roles_of(result: Result):
    """The roles its paper declares (:attr:`theory.model.Paper.roles`, with its declared
    random variables and aggregates: :meth:`~theory.model.Paper.role_map`), plus every
    symbol its table describes as a Rényi order (a ``renyi_order``), or None."""
    from theory.registry import paper
    try:
        p = paper(result.paper)
    except KeyError:
        return None
    roles = p.role_map()
    orders = list(roles.get("renyi_order", ()))
    try:
        for info in (p.symbols.declared().values() if p.symbols is not None else ()):
            if _RENYI.search(info.description or "") and info.symbol not in orders:
                orders.append(info.symbol)
    except Exception:       # a table without declared(): roles as given
        pass
    if orders:
        roles["renyi_order"] = tuple(orders)
    return roles or None


_RENYI = __import__("re").compile(r"r[ée]nyi[- ]order", __import__("re").IGNORECASE)


def _units_table(result: Result):
    from theory.registry import paper, symbols_of
    table = symbols_of(result.paper)
    declared = table.declared()
    # the same table for every result of a paper: its text is remembered while its
    # entries are the same objects (printing every symbol's assumptions and dimension
    # again for each result was a third of a warm run's cache lookups)
    items = tuple(declared.items())
    hit = _UNITS_TABLES.get(id(table))
    if hit is not None and hit[0] is table and len(hit[1]) == len(items) and all(
            a[0] == b[0] and a[1] is b[1] for a, b in zip(hit[1], items)):
        out = hit[2]
    else:
        out = sorted((k, str(v.symbol.assumptions0), str(v.dim)) for k, v in items)
        if len(_UNITS_TABLES) >= 256:
            _UNITS_TABLES.clear()
        _UNITS_TABLES[id(table)] = (table, items, out)  # (the entries held: ids stay theirs)
    try:                    # the paper's normalised symbols (a convention of its units)
        norm = paper(result.paper).normalise
    except KeyError:
        norm = ()
    return out + [("normalise", str(x)) for x in norm] if norm else out


#: id(symbol table) -> (table, its (name, entry) pairs, :func:`_units_table`'s text)
_UNITS_TABLES: dict = {}


def _implied_for(result: Result, hyps, exprs, roles) -> tuple:
    """The standing hypotheses of the result that reach the symbols of ``exprs`` and
    ``hyps`` (:func:`theory.model.with_standing`), and the relations the typed classes and
    roles imply among them (issue 18), for a structural row (link, conclusion, case
    cover)."""
    hyps = tuple(hyps)
    present = set()
    for e in exprs:
        present |= getattr(e, "free_symbols", set())
    standing = with_standing(result, hyps, present)[len(hyps):]
    if roles is None and not result.bounds:
        return standing
    from theory.classes import implied_hypotheses
    hyps = hyps + standing
    for h in hyps:
        if h.expr is not None:
            present |= h.expr.free_symbols
    orders = tuple(b.order for b in result.bounds if b.order is not None)
    return standing + tuple(implied_hypotheses(hyps, roles, present, orders=orders))


def _realisable(check, hyps, implied) -> StepReport:
    """A structural row checked under the printed hypotheses; a REFUTED with a witness is
    re-judged with the standing hypotheses and the class-implied relations in force, so a
    witness that breaks a standing assumption or that no instance of the classes realises
    (gap > (L/2)·dist², α ≤ 1 for an order, ...) is never reported.  Both are hypotheses in
    force (what holds without them holds with them), so the re-judged verdict is the
    row's verdict."""
    rep = check(tuple(hyps))
    if implied and rep.verdict is Verdict.REFUTED and rep.counterexample:
        return check(tuple(hyps) + tuple(implied))
    return rep


def _plan_items(result, items, hyps, path, out, roles=None, repeated=frozenset()):
    prefix = result.id

    def join(*labels):
        return "/".join((prefix,) + path + labels)

    for item in items:
        if isinstance(item, Step):
            loc = Located(step_id(prefix, path, item.label), item,
                          in_force(result, hyps + item.given, item, roles), path)
            out.append(PlannedCheck(loc.id, item.eq, item.kind.value,
                                    lambda o, loc=loc: check_step(loc, o, roles=roles),
                                    content=_fp(loc.step, loc.hypotheses, roles)))
        elif isinstance(item, Chain):
            for s in item.steps:
                loc = Located(step_id(prefix, path, s.label, item.label, repeated), s,
                              in_force(result, hyps + s.given, s, roles), path)
                out.append(PlannedCheck(loc.id, s.eq, s.kind.value,
                                        lambda o, loc=loc: check_step(loc, o, roles=roles),
                                        content=_fp(loc.step, loc.hypotheses, roles)))
            composite = reduce(lambda r, s: Rel.compose(r, s.rel) if r else None,
                               item.steps[1:], item.steps[0].rel)
            if item.links:
                for k, (a, b) in enumerate(zip(item.steps, item.steps[1:]), start=1):
                    lid = join(item.label, f"link-{k}")
                    hi = _implied_for(result, hyps + a.given + b.given,
                                      (a.rhs, b.lhs), roles)
                    out.append(PlannedCheck(
                        lid, None, "LINK",
                        lambda o, a=a, b=b, c=composite, h=hyps, hi=hi, lid=lid: _realisable(
                            lambda hh: check_link(lid, a, b, hh, c, o), h, hi),
                        content=_fp(a, b, hyps, composite, hi)))
            if item.concludes:
                target = _target(result, item.concludes)
                cid = join(item.label, "concludes")
                hi = _implied_for(result, hyps + (target.given if target else ()),
                                  [x for s in item.steps for x in (s.lhs, s.rhs)]
                                  + ([target.lhs, target.rhs] if target else []), roles)
                out.append(PlannedCheck(cid, None, "CONCLUDES",
                                        lambda o, ch=item, t=target, h=hyps, hi=hi, cid=cid:
                                        _realisable(lambda hh: check_concludes(
                                            cid, ch, t, hh, o), h, hi),
                                        content=_fp(item, target, hyps, hi)))
        elif isinstance(item, CaseSplit):
            cid = join(item.label, "cover")
            hi = _implied_for(result, hyps + item.given,
                              [c.expr for case in item.cases for c in case.condition
                               if c.expr is not None], roles)
            out.append(PlannedCheck(cid, None, "COVER",
                                    lambda o, sp_=item, h=hyps, hi=hi, cid=cid:
                                    _realisable(lambda hh: check_cover(cid, sp_, hh, o),
                                                h, hi),
                                    content=_fp([c.condition for c in item.cases],
                                                item.given, hyps, hi)))
            for case in item.cases:
                _plan_items(result, case.proof, hyps + item.given + case.condition,
                            path + (case.label,), out, roles, repeated)
        else:
            raise TypeError(f"unknown proof item {item!r}")


def _target(result: Result, concludes: str) -> Step | None:
    if concludes == "statement":
        if len(result.statement) == 1:
            return result.statement[0]
        for s in result.statement:
            if s.label == "statement":
                return s
        return None
    for s in result.statement:
        if s.label == concludes:
            return s
    return None


def _concluding_chains(result: Result, label: str) -> list[str]:
    """Ids (prefix) of the chains that conclude statement part ``label``."""
    out = []

    def walk(items, path):
        for it in items:
            if isinstance(it, Chain) and it.concludes and (
                    _target(result, it.concludes) is not None
                    and _target(result, it.concludes).label == label):
                out.append("/".join((result.id,) + path + (it.label,)))
            elif isinstance(it, CaseSplit):
                for c in it.cases:
                    walk(c.proof, path + (c.label,))
    walk(result.proof, ())
    return out


def _other_parts_rows(result: Result) -> dict[str, frozenset]:
    """Statement part label -> ids of the proof rows that are *not* its own: the rows
    (steps, links, conclusion) of every chain that concludes another part, unless the
    part depends on that other part — a step of one of its chains (or of a chain it
    depends on) takes the other part's printed relation, or a line of a chain concluding
    it, as a ``given``.  Every other row (steps outside chains, chains concluding
    nothing, case covers) is every part's."""
    hit = _OTHER_ROWS.get(id(result))
    if hit is not None and hit[0] is result:
        return hit[1]
    repeated = repeated_labels(result)
    chains: list[tuple[str, Chain, set]] = []      # (concluded part label, chain, row ids)

    def walk(items, path):
        for it in items:
            if isinstance(it, Chain) and it.concludes:
                target = _target(result, it.concludes)
                if target is None:
                    continue
                prefix = "/".join((result.id,) + path + (it.label,))
                ids = {step_id(result.id, path, s.label, it.label, repeated)
                       for s in it.steps}
                ids |= {f"{prefix}/link-{k}" for k in range(1, len(it.steps))}
                ids.add(f"{prefix}/concludes")
                chains.append((target.label, it, ids))
            elif isinstance(it, CaseSplit):
                for c in it.cases:
                    walk(c.proof, path + (c.label,))
    walk(result.proof, ())
    parts = {s.label: s for s in result.statement}

    flip = {Rel.LE: Rel.GE, Rel.LT: Rel.GT, Rel.GE: Rel.LE, Rel.GT: Rel.LT, Rel.EQ: Rel.EQ}

    def relations(q: str) -> list:
        """Part q's printed relation and its chains' lines, each either way round."""
        out = []
        for st in [parts[q]] + [s for lbl, ch, _ in chains if lbl == q for s in ch.steps]:
            out += [(st.lhs, st.rel, st.rhs), (st.rhs, flip[st.rel], st.lhs)]
        return out

    def uses(chain: Chain, rels) -> bool:
        for s in chain.steps:
            for g in s.given:
                e = g.expr
                if not isinstance(e, sp.core.relational.Relational):
                    continue
                rel = _REL_OF.get(type(e))
                if rel is None:
                    continue
                if any(rel is r and _alike(e.lhs, a) and _alike(e.rhs, b) for a, r, b in rels):
                    return True
        return False

    def _alike(u, v) -> bool:           # _same, simplifying only what could be equal
        return u == v or (u.free_symbols == v.free_symbols and _same(u, v))

    out = {}
    rels_of = {q: relations(q) for q in parts}
    for label in parts:
        mine = {label}
        grew = True
        while grew:                     # the parts its chains lean on, transitively
            grew = False
            for q in parts:
                if q in mine:
                    continue
                if any(uses(ch, rels_of[q]) for lbl, ch, _ in chains if lbl in mine):
                    mine.add(q)
                    grew = True
        out[label] = frozenset(i for lbl, _, ids in chains if lbl not in mine for i in ids)
    if len(_OTHER_ROWS) >= 4096:
        _OTHER_ROWS.clear()
    _OTHER_ROWS[id(result)] = (result, out)
    return out


_OTHER_ROWS: dict[int, tuple[Result, dict]] = {}
_REL_OF = {sp.LessThan: Rel.LE, sp.StrictLessThan: Rel.LT, sp.GreaterThan: Rel.GE,
           sp.StrictGreaterThan: Rel.GT, sp.Equality: Rel.EQ}


def count_steps(results: Iterable[Result]) -> int:
    """How many checks :func:`verify` will run (the progress bar's total)."""
    return sum(len(_planned_ids(r)) for r in results)


#: id(result) -> (result, the ids of its planned checks): the parent of a parallel run
#: needs them three times (progress total, cost estimate, progress ticks) and plans no
#: check itself — planning 181 results took 0.4 s each time, on the run's critical path
_PLANNED_IDS: dict[int, tuple[Result, tuple[str, ...]]] = {}


def _planned_ids(result: Result) -> tuple[str, ...]:
    hit = _PLANNED_IDS.get(id(result))
    if hit is not None and hit[0] is result:
        return hit[1]
    ids = tuple(pc.id for pc in plan(result))
    if len(_PLANNED_IDS) >= 4096:
        _PLANNED_IDS.clear()
    _PLANNED_IDS[id(result)] = (result, ids)
    return ids


# --------------------------------------------------------------------------------------
# results
_SETTLED = (Verdict.PROVED, Verdict.CITED, Verdict.DEFINED)


class _Miss(Exception):
    """A check the disk cache lacks, in a cache-only run (:attr:`Options.cache_only`)."""


def _limited(k: str) -> str:
    """Where an outcome shaped by the memory limit is cached: under ``k`` and the limit in
    force (:func:`checks.resources.budget_in_force`), so that a run with another limit
    computes it again, while a re-run with the same one reads it."""
    return _cache.key("memory", k, budget=resources.budget_in_force() or 0, seed=0)


def _get(disk, k: str):
    hit = disk.get(k)
    return hit if hit is not None else disk.get(_limited(k))


def _put(disk, k: str, data, oom: int) -> None:
    disk.put(k if resources.memory_errors() == oom else _limited(k), data)


def _run_cached(pc: PlannedCheck, opts: Options) -> StepReport | None:
    disk = opts.disk
    k = None
    if disk is not None and pc.content is not None:
        k = _cache.key("check", pc.id + "\n" + pc.content(), budget=opts.budget,
                       seed=opts.seed)
        hit = _get(disk, k)
        if hit is not None:
            return None if hit.get("none") else StepReport.from_json(hit)
    if opts.cache_only:
        raise _Miss(pc.id)
    oom = resources.memory_errors()
    try:
        sr = pc.run(opts)
    except Exception as exc:  # a bug or an unsupported construct: say so, go on
        sr = StepReport(pc.id, pc.eq, pc.kind, Verdict.UNCHECKED, "error",
                        detail=_failure(exc))
        k = None  # never cache a crash
    if k is not None:
        _put(disk, k, {"none": True} if sr is None else sr.to_json(), oom)
    return sr


def check_result(result: Result, *, budget: int = DEFAULT_BUDGET, seed: int = DEFAULT_SEED,
                 progress: Callable[[str], None] | None = None,
                 options: Options | None = None) -> ResultReport:
    """Run every planned check of ``result``, its typed statements, then its statement
    parts (see the module docstring), reported in plan order."""
    opts = options or Options(budget=budget, seed=seed)
    t0 = time.perf_counter()
    rep = ResultReport(result.id, result.paper, result.kind, result.number, result.title)
    planned = plan(result)
    done: dict[str, StepReport | None] = {}
    for pc in planned:
        if pc.part is None:
            done[pc.id] = _run_cached(pc, opts)
            if progress is not None:
                progress(pc.id)
    rep.statement, outcomes = _statements(result, opts)
    rep.typed = typed_outcomes(result, outcomes)
    rows = [r for pc in planned if pc.part is None and pc.kind != "UNITS"
            for r in [done[pc.id]] if r is not None]
    for pc in planned:
        if pc.part is not None:
            done[pc.id] = _statement_part(result, pc, rows, outcomes, opts)
            if progress is not None:
                progress(pc.id)
    rep.steps = [done[pc.id] for pc in planned if done[pc.id] is not None]
    # what each row is: a printed line, a derived check, a row of a pinned variant
    origins = row_origins(result)
    for s in rep.steps:
        s.origin = origins.get(s.id, "variant" if result.variant_of else "derived")
    rep.variant_of = result.variant_of
    _instances(rep)
    from checks.verdict import first_broken
    rep.first_broken = first_broken(rep.steps, [pc.id for pc in planned if pc.part is not None])
    rep.seconds = time.perf_counter() - t0
    rep.statement_outcomes = outcomes
    if opts.repairs:
        # after this result's checks (a single result: `dpcheck show`; verify checks
        # every result before it repairs any, see repair_results)
        from checks import repair
        repair.attach(result, rep, outcomes, opts)
    return rep


def _instances(rep: ResultReport) -> None:
    """Every REFUTED row and a VIOLATED statement show the instance behind their witness
    (:func:`checks.realise.witness_instance`) where no realisation described one."""
    from checks import realise
    for s in rep.steps:
        if s.verdict is Verdict.REFUTED and s.counterexample and not s.instance:
            s.instance = realise.witness_instance(s)
    st = rep.statement
    if st.verdict is StatementVerdict.VIOLATED and st.witness and not st.instance:
        st.instance = realise.scenario_instance(st.witness)


def _statement_part(result: Result, pc: PlannedCheck, rows: list[StepReport], outcomes,
                    opts: Options) -> StepReport:
    t0 = time.perf_counter()
    loc = pc.part
    st = loc.step
    kind = st.kind.value
    if result.kind in ("def", "asm"):
        out = outcomes.get(st.label)
        if out is not None and out.tested and out.violated:
            # a definition that states a claim (and types it) is judged by that claim:
            # never DEFINED (and so never a PROVED result) when its typed statement fails
            cx = {k: str(v) for k, v in (out.witness or {}).items()}
            return StepReport(loc.id, st.eq, kind, Verdict.REFUTED, "statement",
                              counterexample=cx, slack=None, samples=out.samples,
                              detail=f"a definition whose typed statement {st.label!r} is "
                                     f"VIOLATED: {out.detail}",
                              seconds=time.perf_counter() - t0)
        return pc.run(opts)
    chains = _concluding_chains(result, st.label)
    concluded = [r for r in rows if any(r.id == c + "/concludes" for c in chains)]
    # the part's own rows (module docstring): another part's chains are not its proof
    others = _other_parts_rows(result).get(st.label, frozenset())
    own = [r for r in rows if r.id not in others]
    unsettled = [r for r in own if r.verdict not in _SETTLED]
    out = outcomes.get(st.label)
    if out is not None and out.tested and out.violated and chains:
        # a confirmed violation on a member of the classes outweighs a proof that rests on
        # cited rows: one of them is false there (PROVED is never wrong)
        cited = [r.id.split("/", 1)[-1] for r in own if r.verdict is Verdict.CITED]
        cx = {k: str(v) for k, v in (out.witness or {}).items()}
        return StepReport(loc.id, st.eq, kind, Verdict.REFUTED, "statement",
                          counterexample=cx, slack=None, samples=out.samples,
                          detail=f"the typed statement {st.label!r} is VIOLATED: {out.detail}; "
                                 f"the proof concluding it rests on CITED rows "
                                 f"({', '.join(cited) or 'none'}): one of them fails there",
                          seconds=time.perf_counter() - t0)
    apart = ("" if len(own) == len(rows) else
             f" (the {len(rows) - len(own)} rows of the chains concluding another part "
             f"are not its proof)")
    if chains and concluded and all(r.verdict is Verdict.PROVED for r in concluded) \
            and not unsettled:
        return StepReport(loc.id, st.eq, kind, Verdict.PROVED, "proof",
                          detail=f"concluded by {', '.join(c.rsplit('/', 1)[-1] for c in chains)}"
                                 f"; all {len(own)} rows of the proof"
                                 f"{' it rests on' if apart else ''} are PROVED or CITED{apart}",
                          seconds=time.perf_counter() - t0)
    why = ""
    if chains:
        first = unsettled[0] if unsettled else (concluded[0] if concluded else None)
        if first is not None:
            why = (f"not carried by the proof: {len(unsettled)} of {len(own)} rows"
                   f"{' it rests on' if apart else ''} are not "
                   f"PROVED/CITED (first: {first.id.split('/', 1)[-1]} {first.verdict.value})")
    if out is not None and getattr(out, "vacuous", False):
        # the hypotheses in force contradict each other: nothing can hold or fail there —
        # a finding (the unsat core), never PROVED
        return StepReport(loc.id, st.eq, kind, Verdict.UNCHECKED, "statement",
                          detail=f"the typed statement {st.label!r} is VACUOUS: {out.detail}",
                          seconds=time.perf_counter() - t0)
    if out is not None and out.tested:
        if out.violated:
            cx = {k: str(v) for k, v in (out.witness or {}).items()}
            return StepReport(loc.id, st.eq, kind, Verdict.REFUTED, "statement",
                              counterexample=cx, slack=None, samples=out.samples,
                              detail=f"the typed statement {st.label!r} is VIOLATED: {out.detail}",
                              seconds=time.perf_counter() - t0)
        if st.kind is not StepKind.CITED:
            return StepReport(loc.id, st.eq, kind, Verdict.SUPPORTED, "statement",
                              samples=out.samples,
                              slack=None if out.ratio is None else 1 - out.ratio,
                              detail=(f"{why}; " if why else "") + out.detail,
                              seconds=time.perf_counter() - t0)
    sr = _run_cached(PlannedCheck(pc.id, pc.eq, pc.kind, pc.run,
                                  content=_fp(loc.step, loc.hypotheses, roles_of(result))), opts)
    if out is not None and out.tested and sr.verdict is Verdict.CITED:
        sr.detail = f"{sr.detail}; compared with the truth: {out.detail}"
    elif why and sr.verdict not in (Verdict.PROVED, Verdict.REFUTED):
        sr.detail = f"{why}; {sr.detail}"
    return sr


def typed_outcomes(result: Result, outcomes: dict) -> list[dict]:
    """Per typed statement of ``result`` (bounds, then rates): what the comparison with
    the truth gave — ``outcome`` "held" (on ``scenarios`` scenarios, largest
    truth/bound ``ratio``), "violated" (``ratio``), "vacuous" (the hypotheses in force
    contradict each other) or "not tested" (``why``)."""
    out = []
    for kind, st in ([("bound", b) for b in result.bounds]
                     + [("rate", r) for r in result.rates]):
        o = outcomes.get(st.label)
        if o is None:
            out.append({"label": st.label, "kind": kind, "outcome": "not tested",
                        "scenarios": 0, "ratio": None, "why": "the statement check failed"})
            continue
        why = ""
        if not o.tested:
            text = o.detail or ""
            for mark in ("NOT-TESTED — ", "UNDECIDED — "):
                if mark in text:
                    text = text.split(mark, 1)[1]
                    break
            why = text.split(" | ", 1)[0]
        out.append({"label": st.label, "kind": kind,
                    "outcome": ("vacuous" if getattr(o, "vacuous", False) else
                                "not tested" if not o.tested else
                                "violated" if o.violated else "held"),
                    "scenarios": o.samples, "ratio": o.ratio, "why": why})
    return out


def _statements(result: Result, opts: Options):
    """(statement report, outcome per typed statement label), cached per statement."""
    from checks import statements
    if not result.bounds and not result.rates:
        return StatementReport(), {}
    disk = opts.disk
    k = None
    roles = roles_of(result)
    if disk is not None:    # keyed by the statements with every hypothesis in force
        k = _cache.key("statements", result.id + "\n" + _cache.fingerprint(
            statements.bound_statements(result, roles)), budget=opts.budget, seed=opts.seed)
        hit = _get(disk, k)
        if hit is not None:
            rep = StatementReport(StatementVerdict(hit["verdict"]), hit["detail"],
                                  hit["witness"], hit["ratio"])
            return rep, {lbl: statements.Outcome(**o) for lbl, o in hit["outcomes"].items()}
    if opts.cache_only:
        raise _Miss(result.id + "/statements")
    oom = resources.memory_errors()
    try:
        rep, outs = statements.check_result_statements(result, budget=opts.budget, seed=opts.seed,
                                                       roles=roles)
    except Exception as exc:  # noqa: BLE001 - a provider bug: say so, never crash the run
        return StatementReport(StatementVerdict.NOT_TESTED,
                               detail=f"statement check failed: {_failure(exc)}"), {}
    if k is not None:
        import dataclasses
        _put(disk, k, {"verdict": rep.verdict.value, "detail": rep.detail,
                       "witness": rep.witness, "ratio": rep.ratio,
                       "outcomes": {lbl: dataclasses.asdict(o) for lbl, o in outs.items()}},
             oom)
    return rep, outs


#: a typed statement's weight, in steps, when verify orders its tasks (biggest
#: first): ~15 from the main paper's timings (a statement ≈ 0.1–1 s per scenario path)
STATEMENT_WEIGHT = 15


def verify(results: Iterable[Result], *, budget: int = DEFAULT_BUDGET,
           seed: int = DEFAULT_SEED, progress: Callable[[str], None] | None = None,
           jobs: int | None = None, cache_dir: str | None = None,
           use_cache: bool = False, scheduler: str | None = None,
           events: Callable[[str, str], None] | None = None, isolate: bool = False,
           memory: int | None = None, watchdog: float | None = None,
           repairs: bool = False, repair_edits: int = 2,
           repair_budget: int = 10) -> list[ResultReport]:
    """Check every result; reports in the given order.

    With ``use_cache``, verdicts are read from and written to the disk cache
    (``cache_dir``, default ``.dpcheck-cache``), and a result whose every check is there
    is answered by this process from it, before any worker starts (a warm re-run starts
    none).  The others: with ``jobs > 1`` (default :func:`default_jobs`) and at least 4
    of them, or ``isolate``, registered results are checked in supervised worker
    processes (forked from a freshly started server that preloaded the engine and the
    papers, or ``spawn``-started: no state of this process is shared, so the output is
    the same as a sequential run, apart from timings; :mod:`checks.executor`), each under
    the memory budget ``memory`` (bytes; None: none) and the ``watchdog`` (seconds
    without a finished check; None: never); papers loaded by path are re-loaded in the
    workers.  A result whose worker died or was ended is reported with its ``error``
    (:func:`failed_report`); the others are checked.  Results that are not in the
    registry (built by hand, as in the tests) are checked in this process.
    ``scheduler``: the address of a Dask distributed scheduler; the per-result tasks go
    there instead of to local processes, with the same output.

    ``progress(step_id)`` is called as checks finish; ``events(kind, result_id)`` as
    results start (``"start"``) and end (``"done"``; ``"cached"`` when answered from the
    cache here).
    ``repairs``: once every result is checked, the repairs of its findings are searched
    (:func:`repair_results`; :mod:`checks.repair`; at most ``repair_edits`` edits,
    ``repair_budget`` judgements per finding), in the same supervised workers, one
    fresh process per result.
    """
    results = list(results)
    disk = _cache.DiskCache(cache_dir) if use_cache else None
    # validated now (a bad repair setting is refused before any work)
    ropts = Options(budget=budget, seed=seed, disk=disk, repairs=bool(repairs),
                    repair_edits=repair_edits, repair_budget=repair_budget)
    jobs = default_jobs() if jobs is None else int(jobs)
    if jobs < 1:
        raise ValueError(f"jobs must be >= 1, got {jobs}")
    out = _check_all(results, budget=budget, seed=seed, disk=disk, jobs=jobs,
                     scheduler=scheduler, progress=progress, events=events,
                     isolate=isolate, memory=memory, watchdog=watchdog)
    if ropts.repairs:
        repair_results(results, out, ropts, jobs=jobs, scheduler=scheduler, memory=memory,
                       watchdog=watchdog)
    return out


def _check_all(results, *, budget, seed, disk, jobs, scheduler, progress, events,
               isolate, memory, watchdog):
    from theory import registry
    opts = Options(budget=budget, seed=seed, disk=disk)
    out: list[ResultReport | None] = [None] * len(results)
    if disk is not None:
        probe = Options(budget=budget, seed=seed, disk=disk, cache_only=True)
        warm = scheduler is None and (isolate or jobs > 1)
        for i, r in enumerate(results):
            rep = cached_report(r, probe)
            if rep is not None:
                out[i] = rep
                _ticks(r, progress)
                if events is not None:
                    events("cached", r.id)
            elif warm:
                # workers will be needed: their server imports while the probe goes on
                from checks.executor import warm_up
                warm_up(sorted({x.paper for x in results}))
                warm = False
    todo = [i for i in range(len(results)) if out[i] is None]

    def here(i):
        if events is not None:
            events("start", results[i].id)
        out[i] = check_result(results[i], options=opts, progress=progress)
        if events is not None:
            events("done", results[i].id)

    registered = {i: _is_registered(results[i]) for i in todo}
    parallel = [i for i in todo if registered[i]]
    if not scheduler and not isolate and (jobs == 1 or len(parallel) < 4):
        for i in todo:
            here(i)
        return out  # type: ignore[return-value]
    for i in todo:
        if not registered[i]:
            here(i)
    if not parallel:
        return out  # type: ignore[return-value]
    # results that share a title (the versions of one paper restate each other) go to one
    # worker, one after the other, so that the second finds the laws, claims and
    # statements the first left in that worker's memos, and so do groups whose typed
    # statements ask about one mechanism, within an even share of the work
    # (:func:`_merge_sharing_truths`); biggest group first (load balance)
    groups: dict[str, list[int]] = {}
    for i in parallel:
        groups.setdefault(" ".join(results[i].title.split()).casefold(), []).append(i)
    sizes = {g: sum(cost_estimate(results[i]) for i in idx) for g, idx in groups.items()}
    _merge_sharing_truths(groups, sizes, results, jobs)
    order = sorted(groups, key=lambda g: (-sizes[g], groups[g][0]))
    paths = tuple(registry.user_paths())
    folder = str(disk.folder) if disk is not None else None

    def task(members):
        return (tuple((i, results[i].id) for i in members), budget, seed, paths, folder)

    from checks.executor import make_executor
    with make_executor(_worker, jobs=jobs, scheduler=scheduler, n_tasks=len(order),
                       memory=memory, watchdog=watchdog) as ex:
        held: dict[int, list[int]] = {}          # task -> its members not yet reported
        current: dict[int, int] = {}             # task -> the member it is checking
        for g in order:
            held[ex.submit(task(groups[g]))] = list(groups[g])
        for ev in ex.events():
            if ev.kind == "note":
                what = ev.value[0]
                if what == "tick":
                    if progress is not None:
                        progress(ev.value[1])
                elif what == "start":
                    current[ev.task] = ev.value[1]
                    if events is not None:
                        events("start", results[ev.value[1]].id)
                elif what == "result":
                    _, i, rep = ev.value
                    out[i] = rep
                    if i in held.get(ev.task, ()):
                        held[ev.task].remove(i)
                    if events is not None:
                        events("done", results[i].id)
            elif ev.kind == "failed":
                left = held.pop(ev.task, [])
                culprit = current.pop(ev.task, None)
                if culprit not in left:
                    culprit = left[0] if left else None
                if culprit is not None:
                    left.remove(culprit)
                    out[culprit] = failed_report(results[culprit], ev.value)
                    _ticks(results[culprit], progress)
                    if events is not None:
                        events("done", results[culprit].id)
                if left:    # the rest of its group goes on in a fresh task
                    held[ex.submit(task(left))] = left
            else:
                for i in held.pop(ev.task, []):     # a task that ended without a report
                    out[i] = failed_report(results[i], "its task ended without a report")
                current.pop(ev.task, None)
    return out  # type: ignore[return-value]


def _ticks(result: Result, progress) -> None:
    if progress is not None:
        for step_id in _planned_ids(result):
            progress(step_id)


def cached_report(result: Result, opts: Options) -> ResultReport | None:
    """``result``'s report from the disk cache alone (``opts.cache_only``), or None when a
    check of it is not there."""
    try:
        return check_result(result, options=opts)
    except _Miss:
        return None


def failed_report(result: Result, why: str) -> ResultReport:
    """The report of a result that could not be checked (its worker died, the watchdog
    ended it): one UNCHECKED row ``<id>/run`` with the reason, and ``error`` set."""
    rep = ResultReport(result.id, result.paper, result.kind, result.number, result.title)
    why = f"not checked: {why}"
    rep.steps = [StepReport(f"{result.id}/run", None, "RUN", Verdict.UNCHECKED, "error",
                            detail=why)]
    rep.statement = StatementReport(StatementVerdict.NOT_TESTED, detail=why)
    rep.error = why
    return rep


def cost_estimate(result: Result) -> int:
    """What :func:`verify` balances its workers by: the result's steps and statement
    parts, and a typed statement as STATEMENT_WEIGHT of them (it is checked on dozens of
    scenarios, each an accountant run or a simulation).  Counted, not planned: planning
    every result took the parent 0.5 s before any worker had a task."""
    return (sum(1 for _ in walk_steps(result)) + len(result.statement)
            + STATEMENT_WEIGHT * (len(result.bounds) + len(result.rates)))


def _truth_keys(result: Result) -> set[str]:
    """What a result's typed statements ask the truth providers about: the kind of each
    (a bound's and a rate's truths differ) with its mechanism — the
    providers' truths are remembered per process by it, and a proof row typed as a
    statement (``like=``) speaks about the same mechanism."""
    out = set()
    for st in (*result.bounds, *result.rates):
        out.add(type(st).__name__ + ":" + _cache.fingerprint(st.mechanism))
    return out


def _merge_sharing_truths(groups: dict, sizes: dict, results, jobs: int) -> None:
    """Put groups whose typed statements ask about the same mechanism into one worker, so
    that the later ones find the truths (and whole statements: a table's row restated as a
    theorem) the first computed, as in a sequential run — while the merged group stays
    within an even share of the work (total / jobs).  In place; deterministic."""
    cap = sum(sizes.values()) / max(1, jobs)
    keys = {g: set().union(*(_truth_keys(results[i]) for i in idx))
            for g, idx in groups.items()}
    names = sorted(groups, key=lambda g: (-sizes[g], groups[g][0]))
    for a in names:
        if a not in groups or not keys[a]:
            continue
        for b in names:
            if b == a or b not in groups or not (keys[a] & keys[b]):
                continue
            if sizes[a] + sizes[b] > cap:
                continue
            groups[a] = sorted(groups[a] + groups.pop(b))
            sizes[a] += sizes.pop(b)
            keys[a] |= keys.pop(b)


def _is_registered(result: Result) -> bool:
    from theory import registry
    try:
        return registry.get(result.id) == result
    except KeyError:
        return False


_WORKER_OPTIONS: dict = {}


def _worker(task, note):
    """Check one group of results in this worker process, sending ``("start", i)``,
    ``("tick", step id)`` per check and ``("result", i, report)`` per result."""
    members, budget, seed, paths, folder = task
    from theory import registry
    for p in paths:
        registry.load_path(p)
    key = (budget, seed, folder)
    opts = _WORKER_OPTIONS.get(key)
    if opts is None:
        disk = _cache.DiskCache(folder) if folder is not None else None
        opts = _WORKER_OPTIONS[key] = Options(budget=budget, seed=seed, disk=disk)

    def tick(step_id):
        note(("tick", step_id))

    for i, rid in members:
        note(("start", i))
        note(("result", i, check_result(registry.get(rid), options=opts, progress=tick)))
    return len(members)


# --------------------------------------------------------------------------------------
# repairs, after every check
def _has_findings(rep: ResultReport) -> bool:
    return (any(s.verdict is Verdict.REFUTED for s in rep.steps)
            or rep.statement.verdict is StatementVerdict.VIOLATED)


def repair_results(results, reports, opts: Options, *, jobs: int = 1,
                   scheduler: str | None = None, memory: int | None = None,
                   watchdog: float | None = None) -> None:
    """Search the repairs of the findings of ``reports`` (in place; :mod:`checks.repair`)
    once every result is checked.  With ``jobs > 1`` (or a scheduler) each registered
    result's search is a task of its own, run in a fresh supervised worker process (a
    process per task, so that a search inherits no other's history; under the memory
    budget ``memory`` and the ``watchdog``, as the checks): a search whose worker dies
    or is ended leaves its result's report as checked, without repairs, and the others
    go on; the others here, in order."""
    from checks import repair
    from theory import registry
    todo = [i for i, rep in enumerate(reports) if rep is not None and _has_findings(rep)]
    local = [i for i in todo if not _is_registered(results[i])]
    remote = [i for i in todo if i not in set(local)]
    if not scheduler and (jobs == 1 or len(remote) < 2):
        local, remote = todo, []
    for i in local:
        repair.attach(results[i], reports[i], reports[i].statement_outcomes or {}, opts)
    if not remote:
        return
    paths = tuple(registry.user_paths())
    folder = str(opts.disk.folder) if opts.disk is not None else None
    fix = (opts.repair_edits, opts.repair_budget)
    # the most findings first (load balance)
    remote.sort(key=lambda i: (-sum(s.verdict is Verdict.REFUTED for s in reports[i].steps),
                               i))
    tasks = [(i, results[i].id, reports[i], opts.budget, opts.seed, paths, folder, fix)
             for i in remote]
    from checks.executor import make_executor
    with make_executor(_repair_worker, jobs=jobs, scheduler=scheduler, n_tasks=len(tasks),
                       memory=memory, watchdog=watchdog, fresh=True) as ex:
        for t in tasks:
            ex.submit(t)
        for ev in ex.events():
            if ev.kind == "done":
                i, rep = ev.value
                reports[i] = rep


def _repair_worker(task, note=None):
    """Search the repairs of one checked result in this (fresh) worker: ``(i, report)``."""
    i, rid, rep, budget, seed, paths, folder, fix = task
    from checks import repair
    from theory import registry
    for p in paths:
        registry.load_path(p)
    disk = _cache.DiskCache(folder) if folder is not None else None
    opts = Options(budget=budget, seed=seed, disk=disk, repairs=True, repair_edits=fix[0],
                   repair_budget=fix[1])
    repair.attach(registry.get(rid), rep, rep.statement_outcomes or {}, opts)
    return i, rep

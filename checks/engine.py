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
* **statement**: the plug-in statement check registered for the result, if any.

A result's verdict is its weakest check's (:func:`checks.verdict.weakest`).  The same
claim is checked once per run (cache keyed by the claim's content), and its search seed
is derived from the claim, so the output does not depend on order or parallelism.
"""
from __future__ import annotations

import multiprocessing
import os
import time
from dataclasses import dataclass, field
from functools import reduce
from typing import Callable, Iterable

import sympy as sp

from checks import falsify, prove, units
from checks.claim import Claim, make_claim, step_claim
from checks.plugins import get_statement_check, get_step_oracle
from checks.verdict import (ResultReport, StatementReport, StatementVerdict, StepReport,
                            Verdict)
from theory.model import (CaseSplit, Chain, Located, Rel, Result, Step, StepKind,
                          walk_steps)

DEFAULT_BUDGET = 2000
DEFAULT_SEED = 0


@dataclass
class Options:
    budget: int = DEFAULT_BUDGET
    seed: int = DEFAULT_SEED
    rlimit: int = prove.DEFAULT_RLIMIT
    timeout_ms: int = prove.DEFAULT_TIMEOUT_MS
    cache: dict = field(default_factory=dict)

    def __post_init__(self):
        if not isinstance(self.budget, int) or self.budget < 1:
            raise ValueError(f"budget must be an integer >= 1, got {self.budget!r}")
        if not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"seed must be an integer >= 0, got {self.seed!r}")


@dataclass
class PlannedCheck:
    id: str
    eq: str | None
    kind: str
    run: Callable[[Options], StepReport]


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


def judge_claim(claim: Claim, opts: Options) -> ClaimOutcome:
    """PROVED / REFUTED / SUPPORTED / UNCHECKED for one claim (cached per run)."""
    key = (claim.key(), opts.budget, opts.seed, opts.rlimit)
    hit = opts.cache.get(key)
    if hit is not None:
        return hit
    out = _judge(claim, opts)
    opts.cache[key] = out
    return out


def _judge(claim: Claim, opts: Options) -> ClaimOutcome:
    pr = prove.prove(claim, rlimit=opts.rlimit, timeout_ms=opts.timeout_ms)
    if pr.status == "proved":
        return ClaimOutcome(Verdict.PROVED, pr.method, pr.detail)
    extra = [pr.model] if pr.model else []
    try:
        sr = falsify.search(claim, budget=opts.budget, seed=claim.seed(opts.seed),
                            extra_points=extra)
    except Exception as exc:  # an expression the evaluators cannot handle
        return ClaimOutcome(Verdict.UNCHECKED, "search",
                            f"{pr.detail}; numeric search failed: {type(exc).__name__}: "
                            f"{_short(str(exc))}")
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


def _report(id_, eq, kind, outcome: ClaimOutcome, seconds: float) -> StepReport:
    return StepReport(id=id_, eq=eq, kind=kind, verdict=outcome.verdict,
                      method=outcome.method, counterexample=outcome.counterexample,
                      slack=outcome.slack, samples=outcome.samples, seconds=seconds,
                      detail=outcome.detail, where=outcome.where)


# --------------------------------------------------------------------------------------
# steps
def check_step(loc: Located, opts: Options | None = None, *, definition: bool = False
               ) -> StepReport:
    """The verdict on one located step (see module docstring)."""
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
                                  detail=f"oracle failed: {type(exc).__name__}: "
                                         f"{_short(str(exc))}",
                                  seconds=time.perf_counter() - t0)
            rep.id, rep.eq, rep.kind = loc.id, st.eq, kind
            if not rep.seconds:
                rep.seconds = time.perf_counter() - t0
            return rep
        missing = f"oracle {st.oracle!r} is not available"
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
    out = judge_claim(claim, opts)
    return _report(loc.id, st.eq, kind, out, time.perf_counter() - t0)


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
                              f"{f.where}: {f.message}" for f in mism[:3]),
                          samples=n, seconds=time.perf_counter() - t0,
                          where={"at": mism[0].where})
    if unknown:
        return StepReport(rid, None, "UNITS", Verdict.UNCHECKED, "units",
                          detail="; ".join(f"{f.where}: {f.message}" for f in unknown[:3]),
                          samples=n, seconds=time.perf_counter() - t0)
    return StepReport(rid, None, "UNITS", Verdict.PROVED, "units",
                      detail=f"{n} relations dimensionally consistent", samples=n,
                      seconds=time.perf_counter() - t0)


# --------------------------------------------------------------------------------------
# planning
def plan(result: Result) -> list[PlannedCheck]:
    """Every check of a result, in report order: statement parts, the proof's steps
    with their structural checks (after the chain / split they belong to), units."""
    out: list[PlannedCheck] = []
    base = tuple(result.hypotheses)
    definition = result.kind in ("def", "asm")
    for s in result.statement:
        loc = Located(f"{result.id}/{s.label}", s, base + s.given, ())
        out.append(PlannedCheck(loc.id, s.eq, s.kind.value,
                                lambda o, loc=loc: check_step(loc, o, definition=definition)))
    _plan_items(result, result.proof, base, (), out)
    if result.statement or result.proof or result.bounds or result.hypotheses:
        out.append(PlannedCheck(f"{result.id}/units", None, "UNITS",
                                lambda o, r=result: check_units(r)))
    return out


def _plan_items(result, items, hyps, path, out):
    prefix = result.id

    def join(*labels):
        return "/".join((prefix,) + path + labels)

    for item in items:
        if isinstance(item, Step):
            loc = Located(join(item.label), item, hyps + item.given, path)
            out.append(PlannedCheck(loc.id, item.eq, item.kind.value,
                                    lambda o, loc=loc: check_step(loc, o)))
        elif isinstance(item, Chain):
            for s in item.steps:
                loc = Located(join(s.label), s, hyps + s.given, path)
                out.append(PlannedCheck(loc.id, s.eq, s.kind.value,
                                        lambda o, loc=loc: check_step(loc, o)))
            composite = reduce(lambda r, s: Rel.compose(r, s.rel) if r else None,
                               item.steps[1:], item.steps[0].rel)
            if item.links:
                for k, (a, b) in enumerate(zip(item.steps, item.steps[1:]), start=1):
                    lid = join(item.label, f"link-{k}")
                    out.append(PlannedCheck(
                        lid, None, "LINK",
                        lambda o, a=a, b=b, c=composite, h=hyps, lid=lid: check_link(
                            lid, a, b, h, c, o)))
            if item.concludes:
                target = _target(result, item.concludes)
                cid = join(item.label, "concludes")
                out.append(PlannedCheck(cid, None, "CONCLUDES",
                                        lambda o, ch=item, t=target, h=hyps, cid=cid:
                                        check_concludes(cid, ch, t, h, o)))
        elif isinstance(item, CaseSplit):
            cid = join(item.label, "cover")
            out.append(PlannedCheck(cid, None, "COVER",
                                    lambda o, sp_=item, h=hyps, cid=cid:
                                    check_cover(cid, sp_, h, o)))
            for case in item.cases:
                _plan_items(result, case.proof, hyps + item.given + case.condition,
                            path + (case.label,), out)
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


def count_steps(results: Iterable[Result]) -> int:
    """How many checks :func:`verify` will run (the progress bar's total)."""
    return sum(len(plan(r)) for r in results)


# --------------------------------------------------------------------------------------
# results
def check_result(result: Result, *, budget: int = DEFAULT_BUDGET, seed: int = DEFAULT_SEED,
                 progress: Callable[[str], None] | None = None,
                 options: Options | None = None) -> ResultReport:
    """Run every planned check of ``result`` and its statement check."""
    opts = options or Options(budget=budget, seed=seed)
    t0 = time.perf_counter()
    rep = ResultReport(result.id, result.paper, result.kind, result.number, result.title)
    for pc in plan(result):
        try:
            sr = pc.run(opts)
        except Exception as exc:  # a bug or an unsupported construct: say so, go on
            sr = StepReport(pc.id, pc.eq, pc.kind, Verdict.UNCHECKED, "error",
                            detail=f"{type(exc).__name__}: {_short(str(exc))}")
        if sr is not None:
            rep.steps.append(sr)
        if progress is not None:
            progress(pc.id)
    rep.statement = _statement(result, opts)
    rep.seconds = time.perf_counter() - t0
    return rep


def _statement(result: Result, opts: Options) -> StatementReport:
    fn = get_statement_check(result.id)
    if fn is None or (not result.bounds and fn is get_statement_check("*")):
        return StatementReport()
    try:
        return fn(result, budget=opts.budget, seed=opts.seed)
    except Exception as exc:
        return StatementReport(StatementVerdict.NOT_TESTED,
                               detail=f"statement check failed: {type(exc).__name__}: "
                                      f"{_short(str(exc))}")


def default_jobs() -> int:
    """Worker processes for :func:`verify`: ``$DPCHECK_JOBS`` or the CPU count (max 8)."""
    env = os.environ.get("DPCHECK_JOBS", "").strip()
    if env:
        try:
            n = int(env)
        except ValueError:
            raise ValueError(f"DPCHECK_JOBS must be an integer >= 1, got {env!r}") from None
        if n < 1:
            raise ValueError(f"DPCHECK_JOBS must be an integer >= 1, got {n}")
        return n
    return max(1, min(os.cpu_count() or 1, 8))


def verify(results: Iterable[Result], *, budget: int = DEFAULT_BUDGET,
           seed: int = DEFAULT_SEED, progress: Callable[[str], None] | None = None,
           jobs: int | None = None) -> list[ResultReport]:
    """Check every result; reports in the given order.

    With ``jobs > 1`` (default :func:`default_jobs`) registered results are checked in
    worker processes (started with ``spawn``: no state is shared, so the output is the
    same as a sequential run, apart from timings).  Results that are not in the
    registry (built by hand, as in the tests) are checked in this process.
    """
    results = list(results)
    opts = Options(budget=budget, seed=seed)
    jobs = default_jobs() if jobs is None else int(jobs)
    if jobs < 1:
        raise ValueError(f"jobs must be >= 1, got {jobs}")
    registered = [_is_registered(r) for r in results]
    parallel = [i for i, ok in enumerate(registered) if ok]
    if jobs == 1 or len(parallel) < 4:
        return [check_result(r, options=opts, progress=progress) for r in results]
    out: list[ResultReport | None] = [None] * len(results)
    for i, ok in enumerate(registered):
        if not ok:
            out[i] = check_result(results[i], options=opts, progress=progress)
    # biggest first: better load balance
    sizes = {i: len(plan(results[i])) for i in parallel}
    order = sorted(parallel, key=lambda i: (-sizes[i], i))
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(processes=min(jobs, len(order))) as pool:
        tasks = [(i, results[i].id, budget, seed) for i in order]
        for i, rep in pool.imap_unordered(_worker, tasks):
            out[i] = rep
            if progress is not None:
                for pc in plan(results[i]):
                    progress(pc.id)
    return out  # type: ignore[return-value]


def _is_registered(result: Result) -> bool:
    from theory import registry
    try:
        return registry.get(result.id) == result
    except KeyError:
        return False


_WORKER_OPTIONS: dict = {}


def _worker(task):
    i, rid, budget, seed = task
    from theory import registry
    opts = _WORKER_OPTIONS.get((budget, seed))
    if opts is None:
        opts = _WORKER_OPTIONS[(budget, seed)] = Options(budget=budget, seed=seed)
    return i, check_result(registry.get(rid), options=opts)

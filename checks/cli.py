"""The ``dpcheck`` command line.

    dpcheck verify [IDS or papers...] [--format table|json|md] [--out FILE]
                   [--budget N] [--seed S] [--strict] [--no-repairs]
    dpcheck list [papers...]
    dpcheck show [FILE] ID [--paper FILE]  (one result or row; FILE: a paper file)
    dpcheck derive beta [--latex]
    dpcheck derive NAME [--latex]         (registered by paper packages: dpcheck derive -h)
    dpcheck simulate [exact] ...
    dpcheck report [IDS or papers...] --out DIR
    dpcheck new KEY [--out FILE]          (a template paper file that verifies as it stands)
    dpcheck lint FILE                     (every encoding mistake, one line each)
    dpcheck import SOURCE [--out FILE] [--key KEY]  (a draft paper module from LaTeX)
    dpcheck oracles [--format table|json] (registered step oracles and truth providers)

Exit codes: 0 success; 1 ``--strict`` and something REFUTED/VIOLATED; 2 bad input
(unknown id, bad option, unwritable output); 3 a result could not be checked (its worker
process died or the watchdog ended it: the output names it and why; the other results are
checked and written).  User mistakes never print a traceback.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

from checks import __version__
from checks.verdict import FINDING_GROUPS, finding_group, findings

EXIT_OK, EXIT_STRICT, EXIT_USAGE, EXIT_ERROR = 0, 1, 2, 3


class UsageError(Exception):
    """A user mistake: printed as one line, exit status 2."""


# ----------------------------------------------------------------------------- helpers
def _positive_int(name: str):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be an integer, got {text!r}")
        if value < 1:
            raise argparse.ArgumentTypeError(f"{name} must be >= 1, got {value}")
        return value
    return parse


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed must be an integer, got {text!r}")
    if not 0 <= value < 2**32:
        raise argparse.ArgumentTypeError(f"seed must be in [0, 2**32), got {value}")
    return value


@contextlib.contextmanager
def _output_refusals():
    """A refused destination (:class:`checks.output.OutputError`) as a one-line usage error."""
    from checks.output import OutputError
    try:
        yield
    except OutputError as exc:
        raise UsageError(str(exc)) from None


def write_atomic(path: str | os.PathLike, text: str, *, force: bool = False) -> None:
    """:func:`checks.output.write_atomic`, its refusals as one-line usage errors."""
    from checks.output import write_atomic as _write
    with _output_refusals():
        _write(path, text, force=force)


def _resolve(selectors):
    from theory.registry import PaperError, resolve
    try:
        return resolve(selectors)
    except KeyError as exc:
        raise UsageError(exc.args[0]) from None
    except PaperError as exc:
        raise UsageError(str(exc)) from None


def _console(file=None):
    """A rich console; 160 columns when not writing to a terminal (files, pipes, CI)."""
    from rich.console import Console
    console = Console(file=file, highlight=False, soft_wrap=False)
    if not console.is_terminal:
        console = Console(file=file, highlight=False, soft_wrap=False, width=160)
    return console


# ----------------------------------------------------------------------------- verify
def _is_path(sel: str) -> bool:
    """:func:`theory.registry.looks_like_path`, without importing the registry (and SymPy)
    before the worker server starts."""
    if sel.endswith(".py") or os.sep in sel:
        return True
    try:
        return Path(sel).is_dir()
    except OSError:
        return False


def _warm_up_workers(args) -> None:
    """A run over whole papers or paper files will check in worker processes: start their
    server now, so that it imports the engine and the papers while this process resolves
    the run.  Not for a run named by result ids (usually too small for workers), nor for
    a run whose last run ended with every verdict cached (:func:`checks.cache.run_hint`):
    it is most likely answered from the cache, and the engine starts the server at its
    first verdict not there."""
    from checks import executor
    if args.scheduler or (args.ids and all(":" in sel for sel in args.ids)):
        return
    try:
        if executor.default_jobs() < 2 and not any(_is_path(s) for s in args.ids):
            return
    except ValueError:              # reported, as a usage error, by the run itself
        return
    if args.hint is not None:
        from checks import cache
        if cache.last_run_complete(args.hint):
            return
    executor.warm_up(list(args.ids or ()))


#: seconds between two plain progress lines (stderr not a terminal);
#: ``$DPCHECK_PROGRESS_EVERY`` overrides it
PROGRESS_EVERY = 5.0


class _PlainProgress:
    """Progress as plain lines on stderr when it is not a terminal (a log, CI, a pipe):
    every PROGRESS_EVERY seconds, ``verify: D/N results done (C from the cache);
    checking: ID (S s), ...``, from a thread (the run may be one long check)."""

    def __init__(self, total: int, file=None):
        import threading
        self.total, self.file = total, file if file is not None else sys.stderr
        self.done = self.cached = 0
        self.running: dict[str, float] = {}
        self.lock = threading.Lock()
        self.stop = threading.Event()
        try:
            self.every = float(os.environ.get("DPCHECK_PROGRESS_EVERY", "") or PROGRESS_EVERY)
        except ValueError:
            self.every = PROGRESS_EVERY
        self.thread = threading.Thread(target=self._loop, name="dpcheck-progress",
                                       daemon=True)

    def event(self, kind: str, result_id: str) -> None:
        import time
        with self.lock:
            if kind == "start":
                self.running[result_id] = time.monotonic()
            else:
                self.running.pop(result_id, None)
                self.done += 1
                self.cached += kind == "cached"

    def line(self) -> str:
        import time
        now = time.monotonic()
        with self.lock:
            head = f"verify: {self.done}/{self.total} results done"
            if self.cached:
                head += f" ({self.cached} from the cache)"
            busy = sorted(self.running.items(), key=lambda kv: kv[1])
        if busy:
            head += "; checking: " + ", ".join(f"{rid} ({now - t0:.0f} s)"
                                               for rid, t0 in busy[:4])
            if len(busy) > 4:
                head += f" and {len(busy) - 4} more"
        return head

    def _loop(self) -> None:
        while not self.stop.wait(self.every):
            try:
                print(self.line(), file=self.file, flush=True)
            except (OSError, ValueError):     # stderr closed: nothing to tell
                return

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()
        return False


def run_verify(results, *, budget: int, seed: int, progress: bool, use_cache: bool = False,
               scheduler: str | None = None, isolate: bool = False,
               memory: str | None = None, watchdog: float | None = None,
               repairs: bool = False, repair_edits: int = 2, repair_budget: int = 10):
    """Run the engine over ``results`` with a rich progress bar on stderr (plain lines
    every few seconds when stderr is not a terminal), every checking process under the
    memory limit (:mod:`checks.resources`), this one included (and the repair search of
    every finding with ``repairs``)."""
    from checks import engine, resources
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn)

    try:
        jobs = engine.default_jobs()
        budget_bytes = resources.memory_budget(jobs, memory, name="--memory")
        watch = resources.watchdog_seconds(watchdog)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    err = Console(stderr=True)
    show = progress and err.is_terminal
    plain = _PlainProgress(len(results)) if progress and not show else None
    total = engine.count_steps(results) if show else None   # planning costs: only for a bar
    with Progress(TextColumn("[bold]verify"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TextColumn("{task.description}"),
                  console=err, transient=True, disable=not show) as bar, \
            (plain or contextlib.nullcontext()), resources.memory_limit(budget_bytes):
        task = bar.add_task("", total=total)

        def tick(step_id: str) -> None:
            bar.update(task, advance=1, description=step_id[-60:])

        try:
            return engine.verify(results, budget=budget, seed=seed, jobs=jobs,
                                 progress=tick if show else None,
                                 events=plain.event if plain is not None else None,
                                 use_cache=use_cache, scheduler=scheduler, isolate=isolate,
                                 memory=budget_bytes, watchdog=watch, repairs=repairs,
                                 repair_edits=repair_edits, repair_budget=repair_budget)
        except ValueError as exc:          # e.g. an unreachable scheduler: one line
            raise UsageError(str(exc)) from None


def report_json(reports, *, seed: int, budget: int) -> dict:
    steps = Counter(s.verdict.value for r in reports for s in r.steps)
    return {
        "dpcheck": __version__,
        "seed": seed,
        "budget": budget,
        "results": [r.to_json() for r in reports],
        "summary": dict(sorted(steps.items())),
        "result_summary": dict(sorted(Counter(r.verdict.value for r in reports).items())),
        "statement_summary": dict(sorted(
            Counter(r.statement.verdict.value for r in reports).items())),
        "dimension_mismatches": [s.id for r in reports for s in r.steps
                                 if s.kind == "UNITS" and "DIMENSION MISMATCH" in s.detail],
        # rows whose verdict differs between the printed reading and an alternative one
        # (counted under the printed reading's verdict in "summary", and apart here)
        "depends_on_reading": [
            {"id": s.id, "printed": s.verdict.value,
             "readings": {rd["name"]: rd["verdict"] for rd in s.readings or ()}}
            for r in reports for s in r.steps if s.depends_on_reading],
        # every REFUTED row and VIOLATED/VACUOUS statement, apart: the paper's printed lines
        # and results, the encoder's derived checks, the pinned variants (their own claims)
        "findings": findings(reports),
    } | _repair_summary(reports)


def _repair_summary(reports) -> dict:
    """``{"repair_summary": findings per class}`` where a repair search ran, else {}."""
    from checks.repair import class_counts
    counts = class_counts(reports)
    return {"repair_summary": counts} if counts else {}


VERDICT_STYLE = {"PROVED": "green", "REFUTED": "bold red", "SUPPORTED": "yellow",
                 "CITED": "cyan", "UNCHECKED": "magenta", "DEFINED": "dim",
                 "VIOLATED": "bold red", "VACUOUS": "bold red", "HOLDS-ON-SCENARIOS": "green",
                 "NOT-TESTED": "dim"}


def render_table(reports, console) -> None:
    from rich.table import Table
    from rich.text import Text

    by_paper: dict[str, list] = {}
    for r in reports:
        by_paper.setdefault(r.paper, []).append(r)
    for paper, rs in by_paper.items():
        table = Table(title=f"[bold]{paper}", title_justify="left", expand=False,
                      show_lines=False)
        for col in ("step", "eq", "kind", "from", "verdict", "method", "witness / slack"):
            table.add_column(col, overflow="fold")
        for r in rs:
            verdict = r.verdict.value
            typed = Text(r.statement.verdict.value,
                         style=VERDICT_STYLE.get(r.statement.verdict.value, ""))
            if getattr(r, "typed", None):      # what each typed statement gave
                typed.append(" — ").append(_typed(r))
            title = f"{r.id}  {r.title}" + (f"  (variant of {r.variant_of})"
                                            if getattr(r, "variant_of", None) else "")
            table.add_row(Text(title, style="bold"), "", r.kind, "",
                          Text(verdict, style=VERDICT_STYLE.get(verdict, "")),
                          "statement:", typed)
            for s in r.steps:
                short = s.id[len(r.id) + 1:] if s.id.startswith(r.id + "/") else s.id
                v = s.verdict.value
                table.add_row("  " + short, s.eq or "", s.kind, s.origin,
                              Text(v, style=VERDICT_STYLE.get(v, "")), s.method,
                              (_repair_prefix(s.repair) + s.evidence())[:160])
        console.print(table)
    data = report_json(reports, seed=0, budget=0)
    console.print(summary_line("steps", data["summary"]))
    console.print(summary_line("results", data["result_summary"]))
    console.print(summary_line("statements", data["statement_summary"]))
    _reading_line(console, data)
    if data["dimension_mismatches"]:
        console.print(f"[bold]dimension mismatches:[/] {len(data['dimension_mismatches'])} "
                      f"({', '.join(data['dimension_mismatches'])})")


_SETTLED = {"PROVED", "CITED", "DEFINED"}
_SHORT = {"PROVED": "P", "CITED": "C", "DEFINED": "D", "SUPPORTED": "S", "UNCHECKED": "U",
          "REFUTED": "R"}


def _counts(r) -> str:
    from collections import Counter
    c = Counter(s.verdict.value for s in r.steps)
    return " ".join(f"{_SHORT[v]}{c[v]}" for v in ("PROVED", "CITED", "SUPPORTED", "UNCHECKED",
                                                    "REFUTED") if c[v]) or "-"


def _worst(r) -> str:
    fb = getattr(r, "first_broken", None)
    if fb:          # the first printed line of the proof that fails, per order where known
        by = fb.get("by_order") or {}
        tail = "; ".join(f"{o} {v['printed']}" for o, v in by.items())
        return f"first broken line {fb['printed']}" + (f" — by order: {tail}" if tail else "")
    for v in ("REFUTED", "UNCHECKED", "SUPPORTED"):
        for s in r.steps:
            if s.verdict.value == v:
                return f"{v.lower()}: {s.id.split('/', 1)[-1] if '/' in s.id else s.id}"
    return ""


def _typed(r) -> Text:
    """What a result's typed statements gave, each: held on N scenarios, VIOLATED (the
    ratio), never tested (why) — "not typed" when it has none."""
    from rich.text import Text
    typed = getattr(r, "typed", None) or []
    if not typed:
        return Text("not typed", style="dim")
    out = Text()
    for k, t in enumerate(typed):
        if k:
            out.append("; ")
        if t["outcome"] == "held":
            n = t.get("scenarios") or 0
            out.append(f"{t['label']} held" + (f" on {n} scenario" + "s" * (n != 1)
                                               if n else ""), style="green")
        elif t["outcome"] == "vacuous":
            out.append(f"{t['label']} VACUOUS (its hypotheses contradict each other)",
                       style="bold red")
        elif t["outcome"] == "violated":
            ratio = t.get("ratio")
            out.append(f"{t['label']} VIOLATED" + (f" (truth/bound {ratio:.3g})"
                                                    if ratio is not None else ""),
                       style="bold red")
        else:
            out.append(f"{t['label']} never tested" + (f": {t['why']}" if t.get("why")
                                                        else ""), style="magenta")
    return out


def _mark(group: str, report, eq) -> str:
    """How a finding's line says what it is: a printed line (its equation), a derived
    check, a pinned variant's row (of which result)."""
    if group == "variants":
        return f"variant of {report.variant_of} · " if report.variant_of else "variant · "
    if group == "derived":
        return "derived · "
    return f"printed ({eq}) · " if eq else "printed · "


def render_summary(reports, console, *, seed: int, budget: int) -> None:
    """The default view: per paper, a title line with the settled results counted by
    verdict (every row PROVED, CITED or DEFINED and every typed statement held; those with
    typed statements named, each with what its statements gave: "held: lem-1 CITED,
    statement on 19 scenarios"), then one row per other result (the rows' verdict, what each
    typed statement gave against the truth — held on N scenarios, violated, never tested
    and why —, row counts P/C/S/U/R, the worst row); then every REFUTED row and VIOLATED
    statement with its witness, one line each; the rows whose verdict depends on the
    reading of an ambiguous rendering, grouped (``dpcheck show`` gives both witnesses);
    then the summary.  ``--steps`` prints every row instead."""
    from rich.table import Table
    from rich.text import Text

    from checks import __version__
    console.print(f"dpcheck {__version__} verify: {len(reports)} results, seed {seed}, budget "
                  f"{budget} (rows: P proved, C cited, S supported, U unchecked, R refuted; "
                  "--steps for every row)", no_wrap=True, overflow="ellipsis")
    by_paper: dict[str, list] = {}
    for r in reports:
        by_paper.setdefault(r.paper, []).append(r)
    shown_header = False        # the column names once (the view must stay short)
    for paper, rs in by_paper.items():
        table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold")
        wide = max((len(r.id.split(":", 1)[1]) + 10 * bool(getattr(r, "variant_of", None))
                    for r in rs), default=0) + 2
        for col, lo, hi in (("  result", wide, None), ("verdict", 9, None),
                            ("typed statements", 16, 48), ("rows", 4, None),
                            ("worst row", 9, None)):
            table.add_column(col, no_wrap=True, overflow="ellipsis", min_width=lo,
                             max_width=hi)
        settled: dict[str, int] = {}
        held: list = []         # settled results whose typed statements all held
        for r in rs:
            v, sv = r.verdict.value, r.statement.verdict.value
            typed = getattr(r, "typed", None) or []
            if v in _SETTLED and sv != "VIOLATED" and all(t["outcome"] == "held"
                                                           for t in typed):
                settled[v] = settled.get(v, 0) + 1
                if typed:
                    held.append(r)
                continue
            name = r.id.split(":", 1)[1] + (" (variant)" if getattr(r, "variant_of", None)
                                             else "")
            table.add_row("  " + name, Text(v, style=VERDICT_STYLE.get(v, "")),
                          _typed(r), _counts(r), _worst(r))
        title = Text.assemble((paper, "bold"), f": {len(rs)} result" + "s" * (len(rs) != 1))
        if settled:
            title.append(f"; settled {sum(settled.values())}: ")
            title.append(Text(" · ").join(
                Text.assemble((v, VERDICT_STYLE.get(v, "")), f" {settled[v]}")
                for v in ("PROVED", "CITED", "DEFINED") if v in settled))
        if held:                # (compact: the view of a paper must stay short)
            title.append("; held: ")
            title.append(Text(" · ").join(
                Text.assemble(r.id.split(":", 1)[1] + " ",
                              (r.verdict.value, VERDICT_STYLE.get(r.verdict.value, "")),
                              ", ", (", ".join(
                                  t["label"] + (f" on {t['scenarios']} scenario"
                                                + "s" * (t["scenarios"] != 1)
                                                if t.get("scenarios") else "")
                                  for t in r.typed), "green")) for r in held))
        console.print(title)
        if table.row_count:
            table.show_header = not shown_header
            shown_header = True
            console.print(table)
    # every REFUTED row and VIOLATED/VACUOUS statement, apart by what it is: the paper's
    # printed lines and results, then the encoder's derived checks, then the pinned variants
    # (their own claims) — one heading, each line marked (the view must stay short)
    bad: dict[str, list[str]] = {g: [] for g in FINDING_GROUPS}
    for r in reports:
        parts_refuted = set()
        for s in r.steps:
            if s.verdict.value == "REFUTED" and not s.depends_on_reading:
                g = finding_group(r, s)
                bad[g].append(f"  {s.id}  [{_mark(g, r, s.eq)}{s.method}]  "
                              f"{_repair_prefix(s.repair)}{s.evidence()}")
            if s.verdict.value == "REFUTED" and s.method == "statement":
                parts_refuted.add(s.id)
        st = r.statement
        if st.verdict.value in ("VIOLATED", "VACUOUS") and not parts_refuted:
            g = finding_group(r)
            w = _repair_prefix(r.statement_repair) + ", ".join(
                f"{k}={v}" for k, v in (st.witness or {}).items())
            what = (f"statement {st.verdict.value}, ratio {st.ratio:.3g}"
                    if st.ratio is not None else f"statement {st.verdict.value}")
            bad[g].append(f"  {r.id}  [{_mark(g, r, None)}{what}]  {w}")
    total = sum(len(v) for v in bad.values())
    if total:
        console.print(f"[bold]findings ({total}):[/] {len(bad['printed'])} on the paper's "
                      f"printed lines and results, {len(bad['derived'])} of derived checks, "
                      f"{len(bad['variants'])} of pinned variants (each its own claim, never "
                      "the printed result being false)", no_wrap=True, overflow="ellipsis")
        for group in FINDING_GROUPS:
            for line in bad[group]:
                console.print(line, no_wrap=True, overflow="ellipsis", markup=False,
                              highlight=False)
    reading = [s for r in reports for s in r.steps if s.depends_on_reading]
    if reading:
        groups: dict[str, list[str]] = {}
        for s in reading:
            verdicts = sorted({rd["verdict"] for rd in s.readings or ()})
            key = f"printed {s.verdict.value}, other reading {'/'.join(verdicts)}"
            groups.setdefault(key, []).append(s.id)
        # one line per group (counted and explained in the last line of the view)
        # ids grouped by paper and result, each said once ("KEY: thm-1 (eq-2, eq-3) · …")
        for key, ids in groups.items():
            by_paper: dict[str, dict[str, list[str]]] = {}
            for i in ids:
                pk, _, rest = i.partition(":")
                rid, _, label = rest.partition("/")
                by_paper.setdefault(pk, {}).setdefault(rid, []).append(label)
            console.print(Text(f"  {key}: ").append("; ".join(
                f"{pk}: " + " · ".join(f"{rid} ({', '.join(ls)})" for rid, ls in rs.items())
                for pk, rs in by_paper.items())), markup=False, highlight=False)
    data = report_json(reports, seed=0, budget=0)
    # the counts on two lines (the default view of a paper must stay short)
    console.print(summary_line("steps", data["summary"]) + "   "
                  + summary_line("results", data["result_summary"]))
    n_reading = len(data["depends_on_reading"])
    console.print(summary_line("statements", data["statement_summary"])
                  + (f"   {_repair_counts(data['repair_summary'])}"
                     if data.get("repair_summary") else "")
                  + (f"   [bold]depends on the reading:[/] {n_reading} rows (listed above; "
                     "`dpcheck show ID` gives every reading)" if n_reading else ""))


def _repair_prefix(rep: dict | None) -> str:
    """"misprint? holds with … · " before a finding's evidence (nothing without a repair
    search)."""
    if not rep:
        return ""
    return f"{rep['summary']} · "


def _repair_counts(counts: dict) -> str:
    from checks.repair import LABELS
    return "[bold]findings:[/] " + "  ".join(f"{LABELS.get(k, k)} {v}"
                                               for k, v in counts.items())


def _reading_line(console, data) -> None:
    n = len(data["depends_on_reading"])
    if n:
        console.print(f"[bold]depends on the reading:[/] {n} rows (counted above under the "
                      "printed reading's verdict)")


def summary_line(what: str, counts: dict) -> str:
    parts = [f"[{VERDICT_STYLE.get(k, '')}]{k}[/] {v}" for k, v in counts.items()]
    return f"[bold]{what}:[/] " + ("  ".join(parts) if parts else "none")


def _repair_options(args) -> dict:
    return {"repairs": not args.no_repairs, "repair_edits": args.repair_edits,
            "repair_budget": args.repair_budget}


def cmd_verify(args) -> int:
    args.hint = None
    if not args.no_cache:
        from checks import cache
        args.hint = cache.run_hint(args.ids, budget=args.budget, seed=args.seed)
    _warm_up_workers(args)
    results = _resolve(args.ids)
    if args.out is not None:     # refuse a bad --out now, not after minutes of checking
        from checks.output import check_destination
        with _output_refusals():
            check_destination(args.out, force=args.force)
    reports = run_verify(results, budget=args.budget, seed=args.seed,
                         progress=not args.no_progress, use_cache=not args.no_cache,
                         scheduler=args.scheduler, memory=args.memory,
                         watchdog=args.watchdog,
                         # a paper file's code (its own providers, oracles) runs in worker
                         # processes, under the memory limit and the watchdog
                         isolate=any(_is_path(s) for s in args.ids or ()),
                         **_repair_options(args))
    if args.format == "json":
        text = json.dumps(report_json(reports, seed=args.seed, budget=args.budget),
                          indent=2, sort_keys=False) + "\n"
    elif args.format == "md":
        from checks.report import render_markdown
        text = render_markdown(reports, seed=args.seed, budget=args.budget)
    else:
        def render(console):
            if args.steps:
                console.print(f"dpcheck verify: {len(reports)} results, seed {args.seed}, "
                              f"budget {args.budget}")
                render_table(reports, console)
            else:
                render_summary(reports, console, seed=args.seed, budget=args.budget)
        if args.out:
            buf = io.StringIO()
            render(_console(file=buf))
            text = buf.getvalue()
        else:
            render(_console())
            text = None
    if args.out is not None:
        write_atomic(args.out, text, force=args.force)
        print(f"wrote {args.out}", file=sys.stderr)
    elif text is not None:
        sys.stdout.write(text)
    failed = [r for r in reports if r.error]
    if args.hint is not None:
        from checks import cache
        cache.note_run(args.hint, complete=not failed)
    for r in failed:
        print(f"dpcheck verify: {r.id}: {r.error}", file=sys.stderr)
    if failed:
        return EXIT_ERROR
    if args.strict:
        bad = any(s.verdict.value == "REFUTED" for r in reports for s in r.steps) or \
            any(r.statement.verdict.value == "VIOLATED" for r in reports)
        return EXIT_STRICT if bad else EXIT_OK
    return EXIT_OK


# ----------------------------------------------------------------------------- list/show
def cmd_list(args) -> int:
    from rich.table import Table
    from theory.model import walk_steps

    results = _resolve(args.papers)
    table = Table(title="encoded results")
    for col in ("id", "title", "where", "steps", "bounds"):
        table.add_column(col, overflow="fold")
    for r in results:
        steps = sum(1 for _ in walk_steps(r))
        table.add_row(r.id, r.title, r.where, str(steps), str(len(r.bounds)))
    _console().print(table)
    return EXIT_OK


def _pretty(expr) -> str:
    import sympy as sp
    return sp.sstr(expr)


def _hypothesis_line(h) -> str:
    """A hypothesis as ``show`` lists it: the relation (or its name), its citation dimmed."""
    cite = f"   [dim]({h.where})[/]" if h.where else ""
    return f"  • {_pretty(h.expr) if h.expr is not None else h.name}" + cite


#: how ``show`` names where a hypothesis in force comes from (its tag)
_TAG_TEXT = {"printed": "", "standing": "standing", "class": "implied by a class",
             "role": "implied"}


def _in_force_lines(hyps) -> list[str]:
    """The hypotheses in force at a typed statement, as ``show`` lists them under it: each
    with its citation and, for a standing or implied one, where it comes from."""
    import sympy as sp
    shown = [h for h in hyps if h.expr is None or h.expr is not sp.true]
    if not shown:
        return ["  in force: (nothing beyond the symbols' own assumptions)"]
    out = ["  in force (every scenario of the check satisfies these):"]
    for h in shown:
        tag = _TAG_TEXT.get(h.tag.value, "")
        line = "  " + _hypothesis_line(h)
        out.append(line + (f" — {tag}" if tag else ""))
    return out


def _unknown(name: str, candidates, what: str) -> str:
    """One line: ``name`` is not among ``candidates`` (``what`` they are), with the
    closest of them."""
    import difflib
    close = difflib.get_close_matches(name, list(dict.fromkeys(candidates)), n=3, cutoff=0.5)
    return (f"unknown result or step {name!r} among the {what}"
            + (f"; did you mean {', '.join(close)}?" if close else ""))


def _reads_as_id(text: str) -> bool:
    """``key:kind-number[/row...]``: a result or row id, though its ``/`` makes it look
    like a path (``dpcheck show paper:lem-1/line-2``)."""
    import re
    return re.match(r"^[a-z0-9][a-z0-9-]*:[a-z]+-[a-z0-9.+-]+(/|$)", text.strip().lower()) \
        is not None and not text.strip().endswith(".py")


def _show_target(args):
    """(the id to show, lower case, its paper's key included; its Result) from ``dpcheck
    show [FILE] ID [--paper FILE]``.  With a paper file, the id may omit the key
    (``lem-1``) and every suggestion comes from that paper; without one, an id whose key
    no registered paper has says how to name the file."""
    from theory import registry
    words = [w.strip() for w in args.target]
    paper_file = args.paper
    if len(words) > 2:
        raise UsageError(f"show takes [FILE] ID, got {len(words)} arguments: "
                         f"{' '.join(map(repr, words))}")
    if len(words) == 2:
        if paper_file is not None:
            raise UsageError("name the paper file once: `dpcheck show FILE ID` or "
                             "`dpcheck show ID --paper FILE`")
        if not registry.looks_like_path(words[0]):
            raise UsageError(f"show FILE ID: {words[0]!r} is not a paper file (a .py file or "
                             "a package folder); for a registered paper give the ID alone")
        paper_file, ident = words
    else:
        ident = words[0]
        if paper_file is None and registry.looks_like_path(ident) and not _reads_as_id(ident):
            raise UsageError(f"{ident!r} is a paper file: name one of its results too, "
                             f"`dpcheck show {ident} ID`")
    if not ident:
        raise UsageError("ID must name a result or a step, got an empty string")
    ident = ident.lower()
    if paper_file is not None:
        if not str(paper_file).strip():
            raise UsageError("--paper must name a paper file, got an empty path")
        try:
            key = registry.load_path(paper_file)
        except registry.PaperError as exc:
            raise UsageError(str(exc)) from None
        results = registry.results_of(key)
        head = ident.split("/", 1)[0]
        if ":" not in head:
            ident = f"{key}:{ident}"
        elif head.split(":", 1)[0] != key:
            raise UsageError(f"{ident!r} is not a result of {paper_file} (its key is "
                             f"{key!r}: e.g. {results[0].id})")
        rid = ident.split("/", 1)[0]
        hit = next((r for r in results if r.id == rid), None)
        if hit is None:
            from theory.model import walk_steps
            ids = [r.id for r in results] + [loc.id for r in results for loc in walk_steps(r)]
            raise UsageError(_unknown(ident, ids, f"results of {paper_file} (paper {key!r})"))
        return ident, hit
    rid = ident.split("/", 1)[0]
    key = rid.split(":", 1)[0] if ":" in rid else None
    try:
        return ident, registry.get(rid)
    except KeyError as exc:
        if key is not None and key not in registry.papers():
            import difflib
            close = difflib.get_close_matches(key, registry.papers(), n=1, cutoff=0.6)
            raise UsageError(
                f"unknown result {rid!r}: no registered paper has the key {key!r}"
                + (f" (did you mean the paper {close[0]!r}?)" if close else "")
                + "; for a paper file: `dpcheck show FILE ID` or "
                  "`dpcheck show ID --paper FILE`") from None
        raise UsageError(exc.args[0]) from None


def cmd_show(args) -> int:
    import sympy as sp
    from rich.markup import escape
    from rich.panel import Panel
    from theory.model import walk_steps

    ident, result = _show_target(args)
    from checks.engine import plan, roles_of
    locs = {loc.id: loc for loc in walk_steps(result, roles_of(result))}
    if "/" in ident and ident not in locs and not any(k.startswith(ident + "/") for k in locs):
        rows = list(locs) + [pc.id for pc in plan(result)]
        raise UsageError(_unknown(ident, rows, f"rows of {result.id}"))
    console = _console()
    head = [f"[bold]{result.id}[/]  {result.title}", f"where: {result.where}"]
    if result.variant_of:
        head.append(f"[yellow]repaired variant of {result.variant_of}[/]")
    # hypotheses that SymPy already decided from the symbols' assumptions (b >= 1 for a
    # positive integer b) print as "True": they say nothing to a reader
    shown = [h for h in result.hypotheses if h.expr is None or h.expr is not sp.true]
    if shown:
        head.append("hypotheses:")
        head += [_hypothesis_line(h) for h in shown]
    if result.statement:
        head.append("statement:")
        head += [f"  {s.label}: {_pretty(s.lhs)} {s.rel.value} {_pretty(s.rhs)}"
                 for s in result.statement]
    from checks.statements import bound_statements
    for st, bound in zip(list(result.bounds) + list(result.rates),
                         bound_statements(result, roles_of(result))):
        head.append(f"{'rate' if st.statement_type == 'rate' else 'bound'} {st.label}: "
                    f"{st.describe()}")
        head += _in_force_lines(bound.hypotheses)
    if result.standing:
        head.append(f"standing assumptions ({len(result.standing)}; in force where they "
                    "reach a row's quantities):")
        head += [_hypothesis_line(h) for h in result.standing]
    if result.note:
        head.append(f"note: {result.note}")
    console.print(Panel("\n".join(head), expand=False))

    from checks import engine
    report = engine.check_result(result, options=engine.Options(
        budget=args.budget, seed=args.seed, repairs=not args.no_repairs,
        repair_edits=args.repair_edits, repair_budget=args.repair_budget))
    for s in report.steps:
        if "/" in ident and not (s.id == ident or s.id.startswith(ident + "/")):
            continue
        loc = locs.get(s.id)
        style = VERDICT_STYLE.get(s.verdict.value, "")
        console.print(f"[bold]{s.id}[/] {('(' + s.eq + ')') if s.eq else ''} "
                      f"[{style}]{s.verdict.value}[/] via {s.method}")
        if loc is not None:
            st = loc.step
            console.print(f"    {_pretty(st.lhs)}  {st.rel.value}  {_pretty(st.rhs)}")
            if st.because:
                console.print(f"    because: {st.because}", markup=False, highlight=False)
            extra = [h for h in loc.hypotheses if h.expr is not None and h.expr is not sp.true
                     and not h.implied]
            if extra:
                console.print("    given: " + "; ".join(_pretty(h.expr) for h in extra),
                              markup=False, highlight=False)
            implied = [h for h in loc.hypotheses if h.implied]
            if implied:
                console.print("    given (implied):")
                for h in implied:
                    # a source may print brackets (E[e] = 0): escaped, not read as markup
                    console.print(f"      • {escape(_pretty(h.expr))}   [dim]({escape(h.where)})[/]")
            if st.note:
                console.print(f"    note: {st.note}", markup=False, highlight=False)
        if s.counterexample:
            console.print("    counterexample: " + ", ".join(
                f"{k} = {v}" for k, v in s.counterexample.items()), markup=False,
                highlight=False)
        elif s.detail:
            console.print(f"    {s.detail}", markup=False, highlight=False)
        if s.instance:
            console.print("    realised by:")
            for k, v in s.instance.items():
                console.print(f"      {k}: {v}", markup=False, highlight=False)
        for rd in s.readings or ():
            tag = ("[bold yellow]depends on the reading[/] — " if rd["verdict"] != s.verdict.value
                   else "")
            console.print(f"    {tag}reading {rd['name']}: {rd['claim']}  → {rd['verdict']} "
                          f"via {rd['method']}   [dim]({rd['why']})[/]")
            if rd.get("counterexample"):
                console.print("      counterexample: " + ", ".join(
                    f"{k} = {v}" for k, v in rd["counterexample"].items()))
            elif rd.get("detail"):
                console.print(f"      {rd['detail']}")
        if s.verdict.value == "SUPPORTED":
            console.print(f"    search: {s.samples} samples, min slack {s.slack}"
                          + (f" at {s.where}" if s.where else ""))
        if s.repair is not None:
            _show_repairs(console, s.repair, s.repairs)
    sv = report.statement
    console.print(f"statement verdict: [{VERDICT_STYLE.get(sv.verdict.value, '')}]"
                  f"{sv.verdict.value}[/] {sv.detail}")
    if sv.witness:
        console.print("    witness: " + ", ".join(f"{k} = {v}" for k, v in sv.witness.items()),
                      markup=False, highlight=False)
    if sv.instance:
        console.print("    realised by:")
        for k, v in sv.instance.items():
            console.print(f"      {k}: {v}", markup=False, highlight=False)
    if report.statement_repair is not None:
        _show_repairs(console, report.statement_repair,
                      report.statement_repair.get("repairs"))
    return EXIT_OK


def _show_repairs(console, head: dict, repairs) -> None:
    """A finding's class, then each repair: what changes, its verdict and evidence, the
    repaired line in the paper's notation and in LaTeX."""
    from rich.markup import escape
    console.print(f"    [bold]repair:[/] {escape(head['summary'])}   [dim]"
                  f"({escape(head.get('searched', ''))})[/]")
    for k, rp in enumerate(repairs or (), start=1):
        style = VERDICT_STYLE.get(rp["verdict"], "")
        console.print(f"      {k}. {escape(rp['edit'])}: [{style}]{rp['verdict']}[/]"
                      + (f"   [dim]({escape(rp['source'])})[/]" if rp.get("source") else ""))
        console.print(f"         repaired: {escape(rp['line'])}", soft_wrap=True)
        console.print(f"         LaTeX:    {escape(rp['latex'])}", soft_wrap=True)
        console.print(f"         evidence: {escape(rp['evidence'])}", soft_wrap=True)


# ----------------------------------------------------------------------------- derive
def cmd_derive(args) -> int:
    from checks import plugins
    info = plugins.derive_commands().get(args.what)
    if info is None:
        raise UsageError(f"derive: unknown command {args.what!r}; registered: "
                         f"{', '.join(sorted(plugins.derive_commands())) or 'none'}")
    try:
        print(info.fn(args))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return EXIT_OK


# ----------------------------------------------------------------------------- report
def cmd_report(args) -> int:
    from checks import report
    if not args.out.strip():
        raise UsageError("--out must name a folder, got an empty path")
    results = _resolve(args.ids)
    with _output_refusals():     # refuse a bad folder now, not after the checking
        report.check_report_dir(args.out, force=args.force)
    reports = run_verify(results, budget=args.budget, seed=args.seed,
                         progress=not args.no_progress, **_repair_options(args))
    try:
        with _output_refusals():
            paths = report.write_report(reports, args.out, seed=args.seed, budget=args.budget,
                                        force=args.force)
    except OSError as exc:
        raise UsageError(f"cannot write report to {args.out!r}: {exc.strerror or exc}") \
            from None
    for p in paths:
        print(f"wrote {p}", file=sys.stderr)
    return EXIT_OK


# ----------------------------------------------------------------------------- new
def _key_pattern():
    """The pattern every paper key must match (``theory.model.Paper``, so the registry's)."""
    from theory.model import _KEY
    return _KEY


#: the file ``dpcheck new KEY`` writes (``__KEY__`` replaced by the key); it must verify as
#: it stands: no REFUTED step, and both statements PROVED by their chains
PAPER_TEMPLATE = '''"""__KEY__: an imaginary paper on the Gaussian mechanism, encoded for dpcheck.

Written by ``dpcheck new __KEY__``.  It verifies as it stands; replace the example by your
own paper (every line to change says EDIT) and run

    dpcheck lint __FILE__      # every encoding mistake, one line each
    dpcheck verify __FILE__    # a verdict for every step
    dpcheck show __FILE__ lem-1      # one result (or lem-1/line-1): evidence, counterexamples

What the imaginary paper prints (Sec. 2):

* Lemma 1, eq. (3): the Gaussian mechanism M(D) = f(D) + N(0, sigma^2 I), with
  ||f(D) - f(D')|| <= Delta for adjacent D, D', is (alpha, alpha Delta^2/(2 sigma^2))-RDP
  for every alpha > 1.  Proof: the closed form of the Renyi divergence of two Gaussians,
  eq. (2).
* Theorem 1, eq. (6): M is (eps, delta)-DP with
  eps = Delta^2/(2 sigma^2) + Delta sqrt(2 log(1/delta))/sigma.  Proof: the RDP -> DP
  conversion, eq. (4), at the optimal order alpha* = 1 + sigma sqrt(2 log(1/delta))/Delta,
  eq. (5).

How to choose a step's kind (``theory.model.StepKind``):

* ALGEBRA: follows from the hypotheses in force by algebra; proved (SymPy, z3) or refuted
  with a counterexample.  Every symbol ranges over all values its hypotheses allow.
* SCALAR: a real inequality that may need numerics (the same checks, plus a search).
* PROBABILISTIC: a fact about random variables or distributions, written with scalar
  stand-ins (a divergence, an expectation); judged only by a named oracle, or through a
  chain that concludes it.
* CITED: an external result taken as given (say whose in ``because``).
"""
import sympy as sp

from theory.mechanisms import GaussianMechanism
from theory.model import Bound, Chain, Paper, Result, Step, StepKind, asm
from theory.quantities import DIMLESS, THETA, delta, table

ALG, SCA, PRO, CIT = (StepKind.ALGEBRA, StepKind.SCALAR, StepKind.PROBABILISTIC,
                      StepKind.CITED)

__REFERENCE__
# ---------------------------------------------------------------------------- symbols
# EDIT: declare every symbol your paper uses, once, with its dimension (THETA: parameter
# or output space, LOSS: loss values, DIMLESS, or products/powers of them) and only the
# SymPy assumptions that hold by definition; anything stronger (alpha > 1) is a
# hypothesis, stated where the paper states it.  n, b, T, d, q, epsilon, delta come from
# theory.quantities.
SYMBOLS = table("__KEY__", "the symbols of __KEY__")
Delta = SYMBOLS.quantity("Delta", THETA, "l2-sensitivity of the query f", positive=True)
sigma = SYMBOLS.quantity("sigma", THETA, "standard deviation of the Gaussian noise",
                         positive=True)
alpha = SYMBOLS.quantity("alpha", DIMLESS, "Renyi order", positive=True)
dist = SYMBOLS.quantity("dist", THETA, "||f(D) - f(D')|| for one adjacent pair",
                        nonnegative=True)
D_alpha = SYMBOLS.quantity("D_alpha", DIMLESS, "D_alpha(M(D) || M(D')) for one adjacent pair",
                           nonnegative=True)
eps_dp = SYMBOLS.quantity("eps_dp", DIMLESS, "the smallest eps for which M is (eps, delta)-DP",
                          positive=True)

# EDIT: the key is the prefix of every result id; title and citation of your paper
PAPER = Paper(key="__KEY__", title="The Gaussian mechanism, from RDP to (epsilon, delta)-DP",
              file="an imaginary paper, Sec. 2", symbols=SYMBOLS)

# ---------------------------------------------------------------------------- Sec. 2
M = GaussianMechanism(sensitivity=Delta, sigma=sigma)     # what is released
RDP = alpha * Delta**2 / (2 * sigma**2)                    # eq. (3)
LOG = sp.log(1 / delta)
ALPHA_STAR = 1 + sigma * sp.sqrt(2 * LOG) / Delta          # eq. (5)
EPS = Delta**2 / (2 * sigma**2) + Delta * sp.sqrt(2 * LOG) / sigma   # eq. (6)
HALF = Delta * sp.sqrt(2 * LOG) / (2 * sigma)

# EDIT: one Result per numbered result, id "KEY:kind-number" (lem, thm, cor, prop, ...)
LEMMA_1 = Result(
    "__KEY__:lem-1", "RDP of the Gaussian mechanism", "Sec. 2, Lemma 1, eq. (3)",
    hypotheses=[asm(alpha > 1, "Lemma 1")],
    # the printed statement: one Step per part ("statement" for a single part)
    statement=[Step("statement", D_alpha, "<=", RDP, PRO, eq="3")],
    # the proof as printed: a chain e0 <= e1 = e2 ... whose ends give the statement
    proof=[Chain("proof", [
        Step("eq-2", D_alpha, "=", alpha * dist**2 / (2 * sigma**2), CIT, eq="2",
             because="Renyi divergence of N(mu, sigma^2 I) and N(mu', sigma^2 I)"),
        Step("line-1", alpha * dist**2 / (2 * sigma**2), "<=", RDP, ALG,
             given=[asm(dist <= Delta, "Delta is the sensitivity of f")]),
    ], concludes="statement")],
    # the typed statement: compared with the exact RDP of M, both orders
    bounds=[Bound("statement", RDP, M, order=alpha)],
)

THEOREM_1 = Result(
    "__KEY__:thm-1", "(epsilon, delta)-DP with the optimal order", "Sec. 2, Theorem 1, eq. (6)",
    hypotheses=[asm(delta < 1, "Theorem 1")],      # delta > 0: declared positive
    statement=[Step("statement", eps_dp, "<=", EPS, PRO, eq="6")],
    proof=[
        Chain("proof", [
            Step("eq-4", eps_dp, "<=", D_alpha + LOG / (alpha - 1), CIT, eq="4",
                 given=[asm(alpha > 1, "Sec. 2")],
                 because="RDP -> (eps, delta)-DP conversion (Mironov 2017, Prop. 3)"),
            Step("line-1", D_alpha + LOG / (alpha - 1), "<=", RDP + LOG / (alpha - 1), ALG,
                 given=[asm(alpha > 1, "Sec. 2"), asm(D_alpha <= RDP, "Lemma 1")]),
            Step("eq-5", RDP + LOG / (alpha - 1), "=", Delta**2 / (2 * sigma**2) + HALF + HALF,
                 ALG, eq="5", given=[asm(sp.Eq(alpha, ALPHA_STAR), "the optimal order (5)")]),
            Step("line-2", Delta**2 / (2 * sigma**2) + HALF + HALF, "=", EPS, ALG),
        ], concludes="statement"),
        # why (5) is optimal: no order alpha > 1 gives a smaller eps (AM-GM)
        Step("optimal", RDP + LOG / (alpha - 1), ">=", EPS, SCA,
             given=[asm(alpha > 1, "Sec. 2")], because="AM-GM"),
    ],
    # the typed statement: the exact privacy profile of M must give delta at EPS
    bounds=[Bound("statement", EPS, M, delta=delta, profile=True)],
)

# EDIT: every result, in the paper's order
RESULTS = [LEMMA_1, THEOREM_1]
'''


def template_for(key: str, filename: str) -> str:
    """The text of ``dpcheck new KEY`` for a file called ``filename``."""
    return (PAPER_TEMPLATE.replace("__REFERENCE__", constructor_reference())
            .replace("__KEY__", key).replace("__FILE__", filename))


#: the constructors a paper uses, by module, each with one line on what it is (the
#: template lists their signatures, read from the code, so they cannot go stale); the
#: problem classes are added by :func:`reference`
REFERENCE = (
    ("theory.model", (
        ("Result", "one numbered result: hypotheses, statement parts, proof, typed claims"),
        ("Step", "one printed line lhs REL rhs (rel: <=, <, =, >=, >)"),
        ("Chain", "consecutive lines; concludes= the statement part its ends give"),
        ("Case", "one case of a case analysis: its condition(s) and its proof"),
        ("CaseSplit", "a case analysis; the cases must cover the hypotheses"),
        ("Bound", "a typed privacy claim: RDP of order `order`, or (expr, delta)-DP "
                  "with profile=True"),
        ("Rate", "a typed utility claim metric <= expr, checked by simulation"),
        ("Paper", "the paper: key, title, symbol table, roles, normalise (Delta = 1 w.l.o.g.), "
                  "standing assumptions, random variables, aggregates"),
        ("Standing", "standing assumptions / definitions binding every later result "
                     "(Paper(standing=[...]))"),
        ("asm", "a hypothesis: a relation, a problem class, an ImplicitBound, or a string"),
        ("Reading", "another reading of an ambiguous line (Step(readings=[...]))"),
        ("ImplicitBound", "var <= sup{v > lower: conditions hold}, for asm()"),
    )),
    ("theory.quantities", (
        ("table", "a paper's symbol table (n b T t d m q epsilon delta c_O are reserved)"),
        ("SymbolTable.quantity", "declare a symbol with its dimension (THETA, LOSS, "
                                 "DIMLESS, GRADIENT, STEPSIZE, CURVATURE)"),
    )),
    ("theory.stochastic", (
        ("RandomVariable", "the random variable whose moments stand-ins are (E_h = E[h]): "
                           "support, E[.] constraints (Paper(random=[...]))"),
        ("Aggregate", "a sum / min / max / count over a trajectory written as one symbol "
                      "(Paper(aggregates=[...]))"),
    )),
    ("theory.mechanisms", (
        ("GaussianMechanism", "f(D) + N(0, sigma^2 I), sensitivity Delta"),
        ("SampledGaussian", "the sampled Gaussian mechanism (sigma: noise multiplier)"),
        ("Composition", "count adaptive compositions of a mechanism"),
        ("NoisySGD", "DP-SGD: clipped per-example gradients + N(0, sigma^2 I)"),
        ("NormalizedSGD", "DP-NSGD: gradients normalised by r + ||g||"),
        ("ErrorFeedbackSGD", "clipped SGD with a hidden error buffer"),
        ("AveragedSGD", "one example per step, perturbed gradients/output, averaged"),
    )),
    ("theory.metrics", (
        ("Metric", "what a Rate bounds: use the constants (MIN_EXPECTED_SQRT_GAP, "
                   "EXPECTED_GAP_LAST, ...: README.md lists them)"),
    )),
)


def reference() -> list[tuple[str, tuple[tuple[str, str], ...]]]:
    """:data:`REFERENCE` with the problem classes (named through their objects), in the
    template's order: (module, ((constructor, what it is), ...))."""
    from theory import classes as c
    of_classes = (              # of= "loss" (each l_xi), "objective" (f) or "noise"
        (c.LSmooth, "||grad l(x) - grad l(y)|| <= L ||x - y||"),
        (c.Convex, "l convex"),
        (c.StronglyConvex, "l mu-strongly convex"),
        (c.Holder, "||dl(x) - dl(y)|| <= L ||x - y||^nu, nu in [0, 1]"),
        (c.Lipschitz, "|l(x) - l(y)| <= M ||x - y||"),
        (c.BoundedDomain, "closed convex domain K of that diameter (or radius)"),
        (c.GradNoise, "E||grad l_xi - grad f||^2 <= sigma^2"),
        (c.AffineGradNoise, "||grad l_xi - grad f|| <= tau0 + tau1 ||grad f|| a.s."),
        (c.BoundedGradient, "||grad l_xi|| <= G"),
        (c.LowerBounded, "inf f > -infinity"),
        (c.NonNegative, "l_xi >= 0"),
        (c.GeneralizedSmooth, "||hess f|| <= L0 + L1 ||grad f||"),
        (c.OriginBounds, "M = sup ||dl_xi(0)||, M0 = sup l_xi(0)"),
        (c.MinimiserNorm, "a minimiser w* of f with ||w*|| = r"),
        (c.InitialGap, "f(theta_0) - inf f = gap"),
    )
    out = list(REFERENCE)
    out.insert(-1, ("theory.classes", tuple((k.__name__, what) for k, what in of_classes)))
    return out


def _default_text(v) -> str:
    import enum
    if isinstance(v, enum.Enum):
        return f"{type(v).__name__}.{v.name}"
    return repr(v)


def _signature(obj, name: str) -> str:
    """``Name(a, b, c=default, ...)`` of a constructor (dataclass fields, or the function's
    signature)."""
    import dataclasses
    import inspect
    if dataclasses.is_dataclass(obj):
        args, kw = [], []
        for f in dataclasses.fields(obj):
            if not f.init:
                continue
            if f.default is not dataclasses.MISSING:
                text = f"{f.name}={_default_text(f.default)}"
            elif f.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
                text = f"{f.name}={_default_text(f.default_factory())}"
            else:
                text = f.name
            (kw if f.kw_only else args).append(text)
        if kw:
            args.append("*, " + ", ".join(kw))
        return f"{name}({', '.join(args)})"
    sig = inspect.signature(obj)
    params = [p.replace(annotation=inspect.Parameter.empty)
              for p in sig.parameters.values() if p.name != "self"]
    return f"{name}({', '.join(str(p) for p in params)})"


def constructor_reference() -> str:
    """The template's reference block: every constructor of :data:`REFERENCE` with its
    arguments and defaults, as comment lines."""
    import importlib
    import textwrap
    lines = ["# ---------------------------------------------------------------------------- "
             "reference",
             "# Every constructor a paper uses, with its arguments and defaults; README.md,",
             "# \"The constructors a paper uses\", says what each argument means."]
    for module, items in reference():
        mod = importlib.import_module(module)
        lines.append(f"# {module}:")
        for name, what in items:
            obj = mod
            for part in name.split("."):
                obj = getattr(obj, part)
            sig = _signature(obj, name)
            text = sig + (f"  -- {what}" if what else "")
            lines += textwrap.wrap(text, 86, initial_indent="#   ",
                                   subsequent_indent="#       ", break_on_hyphens=False)
    return "\n".join(lines) + "\n"


def default_paper_file(key: str) -> str:
    return key.replace("-", "_") + ".py"


def cmd_new(args) -> int:
    key = args.key
    pattern = _key_pattern()
    if not pattern.match(key):
        raise UsageError(f"KEY must match {pattern.pattern} (lower-case letters, digits "
                         f"and dashes, starting with a letter or digit), got {key!r}")
    from theory import registry
    try:
        taken = registry.papers()
    except registry.PaperError:
        taken = []   # a broken plug-in is `dpcheck verify`'s to report, not ours
    if key in taken:
        raise UsageError(f"KEY {key!r} is already the key of a registered paper; choose "
                         "another")
    path = Path(args.out) if args.out else Path(default_paper_file(key))
    if path.suffix != ".py":
        raise UsageError(f"--out must name a .py file, got {str(path)!r}")
    if path.exists():
        raise UsageError(f"{str(path)!r} already exists; not overwritten (choose another "
                         "--out or remove it)")
    text = template_for(key, path.name)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "x", encoding="utf-8") as fh:
            fh.write(text)
    except FileExistsError:
        raise UsageError(f"{str(path)!r} already exists; not overwritten") from None
    except OSError as exc:
        raise UsageError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
    print(f"wrote {path}; next: dpcheck lint {path} && dpcheck verify {path}",
          file=sys.stderr)
    return EXIT_OK


# ----------------------------------------------------------------------------- lint
def lint_paper(path) -> tuple[list[str], int, int]:
    """(mistakes as ``ID: message`` lines, results, steps) of the paper file at ``path``.

    Raises UsageError (one line) when the file cannot be loaded at all: no such file, a
    syntax error or any exception at import, PAPER or RESULTS missing."""
    import difflib

    from checks import engine, plugins, units
    from theory import registry
    from theory.model import Chain, CaseSplit, Result, walk_steps
    from theory.quantities import BASE, SymbolTable

    from theory.model import collecting_problems

    # every problem the data model finds while the file runs is collected (the file runs
    # to its end), not raised at the first one
    with collecting_problems() as collected:
        try:
            mod = registry.import_path(path)
            err = None
        except registry.PaperError as exc:
            mod, err = None, exc
    found = [_located(f, n, path) + msg for f, n, msg in collected]
    if collected:       # built with invalid objects: `dpcheck verify` must import it anew
        sys.modules.pop(registry._module_name_for(Path(path).expanduser().resolve()), None)
    if err is not None:
        raise LintError(str(err), found)
    paper, results = getattr(mod, "PAPER", None), getattr(mod, "RESULTS", None)
    if paper is None or results is None:
        missing = " and ".join(n for n, v in (("PAPER", paper), ("RESULTS", results))
                               if v is None)
        raise LintError(f"{path}: a paper module must define {missing}", found)
    try:
        results = tuple(results)
    except TypeError:
        raise LintError(f"{path}: RESULTS must be a list of Result", found) from None

    # a proof holding something that is not a Step, Chain or CaseSplit cannot be walked:
    # say which result, and lint the others; a result whose id was refused (reported
    # above) is not linted further
    out = []
    usable = []
    for r in results:
        if isinstance(r, Result) and not r.valid_id:
            continue
        try:
            if isinstance(r, Result):
                list(walk_steps(r))
        except (TypeError, ValueError) as exc:
            out.append(f"{r.id}: {exc} (a proof holds Step, Chain and CaseSplit items)")
            continue
        usable.append(r)
    out = found + list(registry.problems(paper, usable)) + out
    results = [r for r in usable if isinstance(r, Result)]
    steps = sum(1 for r in results for _ in walk_steps(r))
    if any(line.startswith("PAPER must be") for line in out):
        return out, len(results), steps
    try:
        taken = {lp.paper.key: lp for lp in registry.loaded()}
    except registry.PaperError:
        taken = {}   # a broken plug-in: `dpcheck verify` reports it
    other = taken.get(paper.key)
    if other is not None and not _same_paper_file(other, path):
        out.append(f"PAPER: key {paper.key!r} is already taken by {other.module} "
                   f"({other.source}); choose another")

    # symbols with no declared dimension (each once per result)
    table = paper.symbols if isinstance(paper.symbols, SymbolTable) else BASE
    for r in results:
        seen: set[str] = set()
        try:
            _, findings = units.check_result(r, table=table, normalise=paper.normalise)
        except Exception as exc:  # noqa: BLE001 - e.g. a declared dimension that is no monomial
            out.append(f"{r.id}: dimensions cannot be checked: {type(exc).__name__}: {exc}")
            continue
        for f in findings:
            if not f.unknown:
                continue   # a dimension mismatch is a finding about the paper: verify's
            name = f.message.split("'")[1] if "'" in f.message else f.message
            if name in seen:
                continue
            seen.add(name)
            if name in table:
                msg = (f"symbol {name!r} is not the declared quantity {name!r} (other SymPy "
                       "assumptions): use the symbol that SymbolTable.quantity() returned")
            elif table is BASE:
                msg = (f"symbol {name!r} has no declared dimension: PAPER has no symbol "
                       "table (Paper(..., symbols=theory.quantities.table(KEY)))")
            else:
                msg = (f"symbol {name!r} has no declared dimension: declare it in "
                       f"PAPER.symbols (table {table.key!r}) with .quantity({name!r}, "
                       "dimension, description)")
            out.append(f"{f.where}: {msg}")

    # oracle names nobody registered, and arguments an oracle does not take
    oracles = plugins.step_oracles()
    for r in results:
        for loc in walk_steps(r):
            name = loc.step.oracle
            if not name:
                continue
            info = oracles.get(name)
            if info is None:
                close = difflib.get_close_matches(name, list(oracles), n=1, cutoff=0.7)
                why = "; ".join(e for e in plugins.load_errors() if name in e)
                out.append(f"{loc.id}: unknown oracle {name!r}"
                           + (f"; did you mean {close[0]!r}?" if close else "")
                           + f" (registered: {', '.join(oracles) or 'none'}; "
                             "`dpcheck oracles` lists them)" + (f"; {why}" if why else ""))
                continue
            if info.arguments:
                extra = sorted(k for k, _ in loc.step.oracle_args if k not in info.arguments)
                if extra:
                    out.append(f"{loc.id}: oracle {name!r} takes no argument(s) "
                               f"{', '.join(map(repr, extra))} (it takes: "
                               f"{', '.join(info.arguments)})")

    # chains that conclude a statement part the result does not have
    def chains(items, prefix):
        for it in items:
            if isinstance(it, Chain):
                yield prefix + (it.label,), it
            elif isinstance(it, CaseSplit):
                for case in it.cases:
                    yield from chains(case.proof, prefix + (case.label,))

    for r in results:
        for labels, ch in chains(r.proof, ()):
            if ch.concludes and engine._target(r, ch.concludes) is None:
                parts = ", ".join(s.label for s in r.statement) or "none"
                out.append(f"{'/'.join((r.id,) + labels)}: concludes {ch.concludes!r}, which "
                           f"is not a statement part of {r.id} (parts: {parts})")
    return out, len(results), steps


def _same_paper_file(loaded, path) -> bool:
    """True when the registered paper ``loaded`` is the file (or package) at ``path``: a
    built-in or installed paper linted by its path does not clash with itself."""
    p = Path(path).expanduser().resolve()
    if loaded.path:
        return Path(loaded.path) == p
    mod = sys.modules.get(loaded.module)
    f = getattr(mod, "__file__", None)
    if not f:
        return False
    f = Path(f).resolve()
    return f == p or (f.name == "__init__.py" and f.parent == p)


class LintError(UsageError):
    """A paper file lint cannot use (one line), with the problems found before that."""

    def __init__(self, message: str, problems=()):
        super().__init__(message)
        self.problems = list(problems)


def _located(file: str, line: int, path) -> str:
    """``line N: `` for a line of the linted file, ``OTHER.py:N: `` for another module."""
    try:
        same = Path(file).resolve() == Path(path).expanduser().resolve()
    except OSError:
        same = False
    if same:
        return f"line {line}: "
    return f"{file}:{line}: " if file else ""


def cmd_lint(args) -> int:
    try:
        mistakes, n_results, n_steps = lint_paper(args.file)
    except LintError as exc:
        for line in exc.problems:
            print(f"{args.file}: {line}")
        raise
    for line in mistakes:
        print(f"{args.file}: {line}")
    # the file's "# TODO" markers (an imported draft's guesses and unparsed rows): listed,
    # not mistakes
    from checks.importer import todo_markers
    todos = todo_markers(args.file)
    for lineno, tag, text in todos:
        print(f"{args.file}:{lineno}: TODO({tag}): {text}")
    if mistakes:
        return EXIT_STRICT
    print(f"ok: {n_results} results, {n_steps} steps"
          + (f", {len(todos)} TODO markers" if todos else ""))
    return EXIT_OK


# ----------------------------------------------------------------------------- import
def cmd_import(args) -> int:
    from checks.importer import SourceError, default_key, import_paper
    key = args.key or default_key(args.source)
    pattern = _key_pattern()
    if not pattern.match(key):
        raise UsageError(f"--key must match {pattern.pattern} (lower-case letters, digits and "
                         f"dashes), got {key!r}")
    path = Path(args.out) if args.out else Path(default_paper_file(key))
    if path.suffix != ".py":
        raise UsageError(f"--out must name a .py file, got {str(path)!r}")
    if path.exists() and not args.force:
        raise UsageError(f"{str(path)!r} already exists; not overwritten (--force replaces it)")
    try:
        draft, text = import_paper(args.source, key)
    except SourceError as exc:
        raise UsageError(str(exc)) from None
    try:
        write_atomic(path, text, force=True)
    except OSError as exc:
        raise UsageError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
    s = draft.stats
    print(f"wrote {path}: {s.results} results ({s.printed} theorem-like headings printed), "
          f"{s.relations} display relations, {s.parsed} parsed into SymPy, {s.unparsed} not "
          f"parsed (kept as UNCHECKED rows), {s.hypotheses} hypotheses; {s.seconds:.1f} s",
          file=sys.stderr)
    print(f"next: dpcheck lint {path} && dpcheck verify {path}  (grep -n TODO {path})",
          file=sys.stderr)
    return EXIT_OK


# ----------------------------------------------------------------------------- oracles
def oracles_json() -> dict:
    """The registered step oracles and truth providers, as plain data."""
    from checks import plugins

    def names(types):
        return [t.__name__ for t in types]

    provs = []
    for p in plugins.providers():
        rate = bool(getattr(p, "metrics", ()))
        entry = {"name": p.name, "statements": "Rate" if rate else "Bound",
                 "mechanisms": names(getattr(p, "mechanisms", ())),
                 "classes": names(getattr(p, "classes", ())),
                 "profiles": bool(getattr(p, "profiles", False)),
                 "module": type(p).__module__}
        if rate:
            entry["metrics"] = [m.key for m in p.metrics]
        provs.append(entry)
    return {
        "step_oracles": [{"name": o.name, "summary": o.summary, "arguments": dict(o.arguments),
                          "supports": o.supports, "module": o.module}
                         for o in plugins.step_oracles().values()],
        "truth_providers": provs,
        "load_errors": plugins.load_errors(),
    }


def cmd_oracles(args) -> int:
    data = oracles_json()
    if args.format == "json":
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
        return EXIT_OK
    from rich.table import Table
    console = _console()
    t = Table(title="step oracles (Step(..., oracle=NAME, oracle_args={...}))",
              title_justify="left")
    for col in ("name", "arguments", "supports", "summary"):
        t.add_column(col, overflow="fold")
    for o in data["step_oracles"]:
        t.add_row(o["name"], "\n".join(f"{k}: {v}" for k, v in o["arguments"].items()) or "-",
                  o["supports"] or "-", o["summary"] or "-")
    console.print(t)
    t = Table(title="truth providers (typed statements: Result.bounds, Result.rates)",
              title_justify="left")
    for col in ("name", "statements", "mechanisms", "problem classes", "(eps, delta)"):
        t.add_column(col, overflow="fold")
    for p in data["truth_providers"]:
        what = p["statements"] + (f" ({', '.join(p['metrics'])})" if "metrics" in p else "")
        t.add_row(p["name"], what, ", ".join(p["mechanisms"]) or "-",
                  ", ".join(p["classes"]) or "any (none needed)",
                  "yes" if p["profiles"] else "no")
    console.print(t)
    for e in data["load_errors"]:
        console.print(f"[yellow]not loaded:[/] {e}")
    return EXIT_OK


# ----------------------------------------------------------------------------- parser
def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line.  The derive commands that paper packages register are
    loaded (every evidence module: about 1 s) only when ``command`` is ``derive`` — another
    command gets a bare ``derive`` entry, so that ``dpcheck verify`` starts its worker
    server without waiting for them.  Likewise the paper-key pattern in ``new``'s help
    (``theory.model``, which imports SymPy: 0.3 s) is looked up only for ``new``."""
    from checks import DEFAULT_BUDGET, DEFAULT_SEED

    parser = argparse.ArgumentParser(
        prog="dpcheck",
        description="Verify published theorems about differentially private SGD: every "
                    "lemma, theorem and proof step gets a verdict (PROVED, REFUTED with a "
                    "50-digit-checked counterexample, SUPPORTED with its search budget, "
                    "CITED, UNCHECKED).")
    parser.add_argument("--version", action="version", version=f"dpcheck {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def repairs_options(p):
        p.add_argument("--no-repairs", action="store_true",
                       help="skip the repair search: no 'misprint? holds with …' / 'holds "
                            "if …' for refuted rows and violated statements")
        p.add_argument("--repair-edits", type=int, choices=(1, 2), default=2,
                       help="the most edits a repair may make (default 2)")
        p.add_argument("--repair-budget", type=_positive_int("repair budget"), default=10,
                       help="judgements (prover and search runs, oracle runs, statement "
                            "checks) per finding (default 10)")

    def budget_seed(p):
        p.add_argument("--budget", type=_positive_int("budget"), default=DEFAULT_BUDGET,
                       help=f"search examples per step (default {DEFAULT_BUDGET})")
        p.add_argument("--seed", type=_seed, default=DEFAULT_SEED,
                       help=f"random seed (default {DEFAULT_SEED})")
        p.add_argument("--no-progress", action="store_true",
                       help="no progress bar (nor progress lines when stderr is not a "
                            "terminal)")

    v = sub.add_parser("verify", help="check every encoded result (default: all)",
                       description="Check results, step by step, and print a verdict each.")
    v.add_argument("ids", nargs="*", metavar="ID_PAPER_OR_FILE",
                   help="result ids (paper:lem-3.2), paper keys, or paper files "
                        "(my_draft.py: a module defining PAPER and RESULTS)")
    v.add_argument("--format", choices=("table", "json", "md"), default="table")
    v.add_argument("--out", metavar="FILE", help="write to FILE instead of stdout")
    v.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help="run the checks on a Dask distributed cluster (e.g. "
                        "tcp://host:8786; needs dpcheck[cluster]); same output as a local run")
    v.add_argument("--steps", action="store_true",
                   help="table format: every row of every result (default: one row per "
                        "result that needs attention, then the refuted rows)")
    v.add_argument("--force", action="store_true",
                   help="let --out replace a file that is not a previous dpcheck output")
    v.add_argument("--strict", action="store_true",
                   help="exit 1 if any step is REFUTED or statement VIOLATED")
    v.add_argument("--no-cache", action="store_true",
                   help="re-check everything: neither read nor write the verdict cache "
                        "(.dpcheck-cache/, or $DPCHECK_CACHE_DIR)")
    v.add_argument("--memory", metavar="SIZE", default=None,
                   help="memory each checking process may allocate (e.g. 4G, 1500M, off; "
                        "default $DPCHECK_MEMORY, else 80%% of the machine's memory shared "
                        "among the workers): beyond it a truth is out of reach at that "
                        "scenario, a step UNCHECKED, with the reason")
    v.add_argument("--watchdog", metavar="SECONDS", default=None,
                   help="end a worker's task after this long without a finished check and "
                        "report its result as an error (default $DPCHECK_WATCHDOG, else "
                        "900; 0: never)")
    budget_seed(v)
    repairs_options(v)
    v.set_defaults(func=cmd_verify)

    lst = sub.add_parser("list", help="list encoded results")
    lst.add_argument("papers", nargs="*", metavar="PAPER_OR_ID")
    lst.set_defaults(func=cmd_list)

    s = sub.add_parser("show", help="one result: statement, hypotheses, steps, evidence",
                       usage="dpcheck show [-h] [FILE] ID [--paper FILE] [--budget N] "
                             "[--seed S] [--no-repairs]",
                       description="Check one result (or one row) and print its statement, "
                                   "hypotheses, every row's verdict with its evidence, and "
                                   "the counterexamples.  For a paper file: "
                                   "`dpcheck show my_draft.py lem-1` or "
                                   "`dpcheck show my-draft:lem-1/line-2 --paper my_draft.py`.")
    s.add_argument("target", nargs="+", metavar="[FILE] ID",
                   help="a result id or a step id (paper:lem-3.2, paper:lem-3.2/eq-38.1), "
                        "after the paper file it belongs to when it is not a registered "
                        "paper (the key may then be left out: lem-1)")
    s.add_argument("--paper", metavar="FILE", default=None,
                   help="the paper file (a .py file or a package folder) the ID belongs to")
    budget_seed(s)
    repairs_options(s)
    s.set_defaults(func=cmd_show)

    d_help = "symbolic re-derivations registered by paper packages"
    if command == "derive":
        from checks import plugins
        derives = plugins.derive_commands()
        d = sub.add_parser("derive", help=d_help,
                           description="Symbolic re-derivations registered by paper evidence "
                                       "packages: " + "; ".join(
                                           f"{k}: {v.help}" for k, v in sorted(derives.items())))
        dsub = d.add_subparsers(dest="what", metavar="WHAT", required=True)
        for name, info in sorted(derives.items()):
            one = dsub.add_parser(name, help=info.help, description=info.help)
            one.add_argument("--latex", action="store_true", help="LaTeX instead of text")
            if info.add_arguments is not None:
                info.add_arguments(one)
    else:
        d = sub.add_parser("derive", help=d_help)
    d.set_defaults(func=cmd_derive)

    sim = sub.add_parser("simulate", add_help=False,
                         help="exact and simulated divergences of DP-SGD on toy problems "
                              "(`dpcheck simulate --help`, `dpcheck simulate exact --help`)")
    sim.add_argument("rest", nargs=argparse.REMAINDER)
    sim.set_defaults(func=None)

    rep = sub.add_parser("report", help="Markdown + self-contained HTML report with plots")
    rep.add_argument("ids", nargs="*", metavar="ID_OR_PAPER")
    rep.add_argument("--out", required=True, metavar="DIR")
    rep.add_argument("--force", action="store_true",
                     help="replace files in DIR that are not previous dpcheck outputs")
    budget_seed(rep)
    repairs_options(rep)
    rep.set_defaults(func=cmd_report)

    new = sub.add_parser("new", help="write a template paper file to start your own from",
                         description="Write a small complete paper file (a Gaussian-mechanism "
                                     "lemma and its RDP -> (epsilon, delta) conversion) that "
                                     "`dpcheck verify FILE` checks as it stands; edit it into "
                                     "your own paper.")
    key_rule = (f"matches {_key_pattern().pattern}" if command in (None, "new")
                else "lower-case letters, digits and dashes")
    new.add_argument("key", metavar="KEY",
                     help=f"the paper's key, prefix of every result id ({key_rule}, "
                          f"e.g. my-draft)")
    new.add_argument("--out", metavar="FILE",
                     help="where to write (default: KEY.py in the current folder, dashes "
                          "turned into underscores); an existing file is never overwritten")
    new.set_defaults(func=cmd_new)

    lint = sub.add_parser("lint", help="encoding mistakes of a paper file, one line each",
                          description="Load a paper file (or package folder) and print its "
                                      "encoding mistakes as `FILE: ID: message`, one per line "
                                      "(exit 1 if any, else 'ok: N results, M steps'), "
                                      "every one, not only the first: bad labels and ids "
                                      "(with their line in the file), symbols declared twice "
                                      "or reserved by the base table, duplicate ids, results "
                                      "outside the paper's key, symbols with no declared "
                                      "dimension, unknown oracle names, chains concluding no "
                                      "statement part.  A file that cannot be loaded (syntax "
                                      "error, an exception, no PAPER) is one line on stderr, "
                                      "exit 2, after the problems found before it.")
    lint.add_argument("file", metavar="FILE", help="a .py file or a package folder defining "
                                                   "PAPER and RESULTS")
    lint.set_defaults(func=cmd_lint)

    imp = sub.add_parser("import", help="draft a paper module from a paper's LaTeX",
                         description="Read a paper's LaTeX and write a paper module that "
                                     "`dpcheck lint` accepts and `dpcheck verify` runs as it "
                                     "stands: one Result per theorem-like environment (numbers, "
                                     "titles, sections), proofs as chains of steps split at "
                                     "relation signs with their equation numbers, every side "
                                     "parsed into SymPy where it can be, inline conditions as "
                                     "hypotheses.  What needs a person is marked '# TODO' "
                                     "(`dpcheck lint FILE` lists them).")
    imp.add_argument("source", metavar="SOURCE",
                     help="a .tex file (\\input/\\include followed), an arXiv source folder "
                          "or .tar.gz, an arXiv HTML page, Markdown with $...$ math, or a "
                          "text rendering that keeps LaTeX")
    imp.add_argument("--out", metavar="FILE",
                     help="the module to write (default: KEY.py, dashes as underscores)")
    imp.add_argument("--key", metavar="KEY",
                     help="the paper's key, prefix of every result id (default: from SOURCE's "
                          "file name)")
    imp.add_argument("--force", action="store_true", help="replace FILE if it exists")
    imp.set_defaults(func=cmd_import)

    orc = sub.add_parser("oracles", help="registered step oracles and truth providers",
                         description="List the step oracles a Step may name (oracle=NAME, "
                                     "oracle_args={...}) and the truth providers that "
                                     "check typed statements (Bound, Rate).")
    orc.add_argument("--format", choices=("table", "json"), default="table")
    orc.set_defaults(func=cmd_oracles)
    return parser


def _simulate(rest: list[str]) -> int:
    if rest and rest[0] == "exact":
        from checks.simulate.exact_cli import main as exact_main
        return exact_main(rest[1:])
    from checks.simulate.cli import main as sim_main
    return sim_main(rest)


#: optional dependencies and the extra that installs them
EXTRAS = {"torch": "sim", "matplotlib": "plots"}


def _missing_extra(exc: ModuleNotFoundError, command: str) -> int:
    root = (exc.name or "").split(".")[0]
    if root not in EXTRAS:
        raise exc
    print(f"dpcheck {command}: error: needs the optional dependency {root!r}: "
          f"pip install 'dpcheck[{EXTRAS[root]}]'", file=sys.stderr)
    return EXIT_USAGE


def main(argv: list[str] | None = None) -> int:
    """The ``dpcheck`` command: an interrupt (Ctrl-C, SIGINT) exits 130 with one line and
    no traceback, from every sub-command — also when started where SIGINT is ignored (a
    background job of a script inherits SIG_IGN, and Python then installs no handler)."""
    import signal
    import threading
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return _main(argv)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def _main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "simulate":
        try:
            return _simulate(argv[1:])
        except (UsageError, ValueError) as exc:
            print(f"dpcheck simulate: error: {exc}", file=sys.stderr)
            return EXIT_USAGE
        except ModuleNotFoundError as exc:
            return _missing_extra(exc, "simulate")
    parser = build_parser(argv[0] if argv else None)
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        return args.func(args)
    except UsageError as exc:
        print(f"dpcheck {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except ModuleNotFoundError as exc:
        return _missing_extra(exc, args.command)


if __name__ == "__main__":
    sys.exit(main())

"""The ``dpcheck`` command line.

    dpcheck verify [IDS or papers...] [--format table|json|md] [--out FILE]
                   [--budget N] [--seed S] [--strict]
    dpcheck list [papers...]
    dpcheck show ID
    dpcheck derive beta [--latex]
    dpcheck derive NAME [--latex]         (registered by paper packages: dpcheck derive -h)
    dpcheck simulate [exact] ...
    dpcheck report [IDS or papers...] --out DIR

Exit codes: 0 success; 1 ``--strict`` and something REFUTED/VIOLATED; 2 bad input
(unknown id, bad option, unwritable output).  User mistakes never print a traceback.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

from checks import __version__

EXIT_OK, EXIT_STRICT, EXIT_USAGE = 0, 1, 2


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


def write_atomic(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file and ``os.replace`` (no half files).

    Raises UsageError when the destination cannot be written."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        raise UsageError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None


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
def run_verify(results, *, budget: int, seed: int, progress: bool, use_cache: bool = False):
    """Run the engine over ``results`` with a rich progress bar on stderr."""
    from checks import engine
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn)

    err = Console(stderr=True)
    show = progress and err.is_terminal
    total = engine.count_steps(results)
    with Progress(TextColumn("[bold]verify"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TextColumn("{task.description}"),
                  console=err, transient=True, disable=not show) as bar:
        task = bar.add_task("", total=total)

        def tick(step_id: str) -> None:
            bar.update(task, advance=1, description=step_id[-60:])

        return engine.verify(results, budget=budget, seed=seed, progress=tick,
                             use_cache=use_cache)


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
    }


VERDICT_STYLE = {"PROVED": "green", "REFUTED": "bold red", "SUPPORTED": "yellow",
                 "CITED": "cyan", "UNCHECKED": "magenta", "DEFINED": "dim",
                 "VIOLATED": "bold red", "HOLDS-ON-SCENARIOS": "green", "NOT-TESTED": "dim"}


def render_table(reports, console) -> None:
    from rich.table import Table
    from rich.text import Text

    by_paper: dict[str, list] = {}
    for r in reports:
        by_paper.setdefault(r.paper, []).append(r)
    for paper, rs in by_paper.items():
        table = Table(title=f"[bold]{paper}", title_justify="left", expand=False,
                      show_lines=False)
        for col in ("step", "eq", "kind", "verdict", "method", "witness / slack"):
            table.add_column(col, overflow="fold")
        for r in rs:
            verdict = r.verdict.value
            table.add_row(Text(f"{r.id}  {r.title}", style="bold"), "", r.kind,
                          Text(verdict, style=VERDICT_STYLE.get(verdict, "")),
                          "statement:", Text(r.statement.verdict.value,
                                             style=VERDICT_STYLE.get(
                                                 r.statement.verdict.value, "")))
            for s in r.steps:
                short = s.id[len(r.id) + 1:] if s.id.startswith(r.id + "/") else s.id
                v = s.verdict.value
                table.add_row("  " + short, s.eq or "", s.kind,
                              Text(v, style=VERDICT_STYLE.get(v, "")), s.method,
                              s.evidence()[:160])
        console.print(table)
    data = report_json(reports, seed=0, budget=0)
    console.print(summary_line("steps", data["summary"]))
    console.print(summary_line("results", data["result_summary"]))
    console.print(summary_line("statements", data["statement_summary"]))
    if data["dimension_mismatches"]:
        console.print(f"[bold]dimension mismatches:[/] {len(data['dimension_mismatches'])} "
                      f"({', '.join(data['dimension_mismatches'])})")


def summary_line(what: str, counts: dict) -> str:
    parts = [f"[{VERDICT_STYLE.get(k, '')}]{k}[/] {v}" for k, v in counts.items()]
    return f"[bold]{what}:[/] " + ("  ".join(parts) if parts else "none")


def cmd_verify(args) -> int:
    results = _resolve(args.ids)
    reports = run_verify(results, budget=args.budget, seed=args.seed,
                         progress=not args.no_progress, use_cache=not args.no_cache)
    if args.format == "json":
        text = json.dumps(report_json(reports, seed=args.seed, budget=args.budget),
                          indent=2, sort_keys=False) + "\n"
    elif args.format == "md":
        from checks.report import render_markdown
        text = render_markdown(reports, seed=args.seed, budget=args.budget)
    else:
        if args.out:
            buf = io.StringIO()
            render_table(reports, _console(file=buf))
            text = buf.getvalue()
        else:
            render_table(reports, _console())
            text = None
    if args.out:
        write_atomic(args.out, text)
        print(f"wrote {args.out}", file=sys.stderr)
    elif text is not None:
        sys.stdout.write(text)
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
        table.add_row(r.id, r.title, r.where, str(sum(1 for _ in walk_steps(r))),
                      str(len(r.bounds)))
    _console().print(table)
    return EXIT_OK


def _pretty(expr) -> str:
    import sympy as sp
    return sp.sstr(expr)


def cmd_show(args) -> int:
    import sympy as sp
    from rich.panel import Panel
    from theory.model import walk_steps
    from theory.registry import get, unknown_message

    ident = args.id.strip().lower()
    rid = ident.split("/", 1)[0]
    try:
        result = get(rid)
    except KeyError as exc:
        raise UsageError(exc.args[0]) from None
    locs = {loc.id: loc for loc in walk_steps(result)}
    if "/" in ident and ident not in locs and not any(k.startswith(ident + "/") for k in locs):
        raise UsageError(unknown_message(ident))
    console = _console()
    head = [f"[bold]{result.id}[/]  {result.title}", f"where: {result.where}"]
    if result.variant_of:
        head.append(f"[yellow]repaired variant of {result.variant_of}[/]")
    # hypotheses that SymPy already decided from the symbols' assumptions (b >= 1 for a
    # positive integer b) print as "True": they say nothing to a reader
    shown = [h for h in result.hypotheses if h.expr is None or h.expr is not sp.true]
    if shown:
        head.append("hypotheses:")
        head += [f"  • {_pretty(h.expr) if h.expr is not None else h.name}"
                 + (f"   [dim]({h.where})[/]" if h.where else "") for h in shown]
    if result.statement:
        head.append("statement:")
        head += [f"  {s.label}: {_pretty(s.lhs)} {s.rel.value} {_pretty(s.rhs)}"
                 for s in result.statement]
    for bound in result.bounds:
        head.append(f"bound {bound.label}: {bound.describe()}")
    for rate in result.rates:
        head.append(f"rate {rate.label}: {rate.describe()}")
    if result.note:
        head.append(f"note: {result.note}")
    console.print(Panel("\n".join(head), expand=False))

    from checks import engine
    report = engine.check_result(result, budget=args.budget, seed=args.seed)
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
                console.print(f"    because: {st.because}")
            extra = [h for h in loc.hypotheses if h.expr is not None and h.expr is not sp.true]
            if extra:
                console.print("    given: " + "; ".join(_pretty(h.expr) for h in extra))
            if st.note:
                console.print(f"    note: {st.note}")
        if s.counterexample:
            console.print("    counterexample: " + ", ".join(
                f"{k} = {v}" for k, v in s.counterexample.items()))
        elif s.detail:
            console.print(f"    {s.detail}")
        if s.verdict.value == "SUPPORTED":
            console.print(f"    search: {s.samples} samples, min slack {s.slack}"
                          + (f" at {s.where}" if s.where else ""))
    sv = report.statement
    console.print(f"statement verdict: [{VERDICT_STYLE.get(sv.verdict.value, '')}]"
                  f"{sv.verdict.value}[/] {sv.detail}")
    if sv.witness:
        console.print(f"    witness: {sv.witness}")
    return EXIT_OK


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
    results = _resolve(args.ids)
    reports = run_verify(results, budget=args.budget, seed=args.seed,
                         progress=not args.no_progress)
    try:
        paths = report.write_report(reports, args.out, seed=args.seed, budget=args.budget)
    except OSError as exc:
        raise UsageError(f"cannot write report to {args.out!r}: {exc.strerror or exc}") \
            from None
    for p in paths:
        print(f"wrote {p}", file=sys.stderr)
    return EXIT_OK


# ----------------------------------------------------------------------------- parser
def build_parser() -> argparse.ArgumentParser:
    from checks.engine import DEFAULT_BUDGET

    parser = argparse.ArgumentParser(
        prog="dpcheck",
        description="Verify published theorems about differentially private SGD: every "
                    "lemma, theorem and proof step gets a verdict (PROVED, REFUTED with a "
                    "50-digit-checked counterexample, SUPPORTED with its search budget, "
                    "CITED, UNCHECKED).")
    parser.add_argument("--version", action="version", version=f"dpcheck {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def budget_seed(p):
        p.add_argument("--budget", type=_positive_int("budget"), default=DEFAULT_BUDGET,
                       help=f"search examples per step (default {DEFAULT_BUDGET})")
        p.add_argument("--seed", type=_seed, default=0, help="random seed (default 0)")
        p.add_argument("--no-progress", action="store_true", help="no progress bar")

    v = sub.add_parser("verify", help="check every encoded result (default: all)",
                       description="Check results, step by step, and print a verdict each.")
    v.add_argument("ids", nargs="*", metavar="ID_PAPER_OR_FILE",
                   help="result ids (paper:lem-3.2), paper keys, or paper files "
                        "(my_draft.py: a module defining PAPER and RESULTS)")
    v.add_argument("--format", choices=("table", "json", "md"), default="table")
    v.add_argument("--out", metavar="FILE", help="write to FILE instead of stdout")
    v.add_argument("--strict", action="store_true",
                   help="exit 1 if any step is REFUTED or statement VIOLATED")
    v.add_argument("--no-cache", action="store_true",
                   help="re-check everything: neither read nor write the verdict cache "
                        "(.dpcheck-cache/, or $DPCHECK_CACHE_DIR)")
    budget_seed(v)
    v.set_defaults(func=cmd_verify)

    lst = sub.add_parser("list", help="list encoded results")
    lst.add_argument("papers", nargs="*", metavar="PAPER_OR_ID")
    lst.set_defaults(func=cmd_list)

    s = sub.add_parser("show", help="one result: statement, hypotheses, steps, evidence")
    s.add_argument("id", metavar="ID", help="a result id or a step id")
    budget_seed(s)
    s.set_defaults(func=cmd_show)

    from checks import plugins
    derives = plugins.derive_commands()
    d = sub.add_parser("derive", help="symbolic re-derivations registered by paper packages",
                       description="Symbolic re-derivations registered by paper evidence "
                                   "packages: " + "; ".join(
                                       f"{k}: {v.help}" for k, v in sorted(derives.items())))
    dsub = d.add_subparsers(dest="what", metavar="WHAT", required=True)
    for name, info in sorted(derives.items()):
        one = dsub.add_parser(name, help=info.help, description=info.help)
        one.add_argument("--latex", action="store_true", help="LaTeX instead of text")
        if info.add_arguments is not None:
            info.add_arguments(one)
    d.set_defaults(func=cmd_derive)

    sim = sub.add_parser("simulate", add_help=False,
                         help="exact and simulated divergences of DP-SGD on toy problems "
                              "(`dpcheck simulate --help`, `dpcheck simulate exact --help`)")
    sim.add_argument("rest", nargs=argparse.REMAINDER)
    sim.set_defaults(func=None)

    rep = sub.add_parser("report", help="Markdown + self-contained HTML report with plots")
    rep.add_argument("ids", nargs="*", metavar="ID_OR_PAPER")
    rep.add_argument("--out", required=True, metavar="DIR")
    budget_seed(rep)
    rep.set_defaults(func=cmd_report)
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
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "simulate":
        try:
            return _simulate(argv[1:])
        except (UsageError, ValueError) as exc:
            print(f"dpcheck simulate: error: {exc}", file=sys.stderr)
            return EXIT_USAGE
        except ModuleNotFoundError as exc:
            return _missing_extra(exc, "simulate")
    parser = build_parser()
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
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

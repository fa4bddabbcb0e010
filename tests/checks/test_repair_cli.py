"""The repairs in the command line and the report (issue 35): one line per finding in the
default view, ``--no-repairs``, ``dpcheck show`` with the repaired line and its LaTeX,
the JSON fields, the report's findings grouped by class, its plots saying what they
show; the disk cache keyed by the repair settings."""
from __future__ import annotations

import json

import pytest
import sympy as sp

from checks import engine, repair
from checks.cli import main
from theory.model import Result, Step, StepKind
from theory.quantities import DIMLESS, table

# a misprint (Min for Max) and a statement repaired by a hypothesis: both fast
IDS = ["dice:def-2.2", "dice:eq-9"]


@pytest.fixture(scope="module")
def verified(tmp_path_factory):
    out = tmp_path_factory.mktemp("verify")
    with_r, without = out / "with.json", out / "without.json"
    assert main(["verify", *IDS, "--format", "json", "--out", str(with_r), "--no-progress",
                 "--no-cache"]) == 0
    assert main(["verify", *IDS, "--format", "json", "--out", str(without), "--no-progress",
                 "--no-cache", "--no-repairs"]) == 0
    return json.loads(with_r.read_text()), json.loads(without.read_text())


def _strip(d):
    """The JSON without the repair fields."""
    if isinstance(d, dict):
        return {k: _strip(v) for k, v in d.items()
                if k not in ("repairs", "repair", "statement_repair", "statement_repairs",
                             "repair_summary", "seconds")}
    if isinstance(d, list):
        return [_strip(v) for v in d]
    return d


def test_json_gains_repair_fields_only(verified):
    with_r, without = verified
    assert _strip(with_r) == _strip(without)
    assert "repair_summary" in with_r and "repair_summary" not in without
    rows = [s for r in with_r["results"] for s in r["steps"] if s["verdict"] == "REFUTED"]
    assert rows and all("repair" in s and isinstance(s["repairs"], list) for s in rows)
    for s in rows:
        for rp in s["repairs"]:
            assert {"edit", "verdict", "evidence"} <= set(rp)
    assert not any("repair" in s for r in without["results"] for s in r["steps"])
    gauss = next(r for r in with_r["results"] if r["id"] == "dice:def-2.2")
    assert gauss["statement_repair"]["summary"] == "holds if ε ≤ 1"
    assert sum(with_r["repair_summary"].values()) == len(rows)


def test_default_view_one_line_per_finding(capsys):
    assert main(["verify", *IDS, "--no-progress", "--no-cache"]) == 0
    out = capsys.readouterr().out
    lines = [ln for ln in out.splitlines() if "dice:def-2.2/statement" in ln]
    assert len(lines) == 1 and "holds if ε ≤ 1" in lines[0]
    assert "findings:" in out and "holds if 1" in out
    assert main(["verify", *IDS, "--no-progress", "--no-cache", "--no-repairs"]) == 0
    out2 = capsys.readouterr().out
    assert "holds if" not in out2 and "findings:" not in out2


def test_show_prints_the_repaired_line_and_latex(capsys):
    assert main(["show", "dice:def-2.2/statement", "--budget", "2000"]) == 0
    out = capsys.readouterr().out
    assert "repair: holds if ε ≤ 1" in out
    assert "repaired:" in out and "LaTeX:" in out and r"\varepsilon \leq 1" in out


def test_bad_repair_flags(capsys):
    assert main_exit(["verify", "dice:def-2.2", "--repair-edits", "3"]) == 2
    assert main_exit(["verify", "dice:def-2.2", "--repair-budget", "0"]) == 2
    err = capsys.readouterr().err
    assert "repair budget must be >= 1" in err


def main_exit(argv):
    try:
        return main(argv)
    except SystemExit as exc:      # argparse rejects a bad choice itself (exit 2)
        return exc.code


def test_report_groups_findings_by_class(tmp_path):
    from checks.report import write_report
    from theory import registry
    reps = engine.verify([registry.get(i) for i in IDS], repairs=True, jobs=1)
    write_report(reps, tmp_path, seed=0, budget=2000)
    md = (tmp_path / "report.md").read_text()
    html = (tmp_path / "report.html").read_text()
    assert "## Findings by class" in md and "<h2 id='findings'>Findings by class</h2>" in html
    assert "### Missing hypotheses: the line holds if … (1)" in md
    assert "dice:def-2.2" in md.split("## Findings by class")[1]
    # every plot has its own caption, heading it
    caps = [c for c in html.split("<figcaption>")[1:]]
    names = [c.split("</figcaption>")[0] for c in caps]
    assert len(names) == len(set(names))
    assert all(c.split("</figcaption>")[1].lstrip().startswith("<img") for c in caps)


def test_ratio_plots_name_what_they_compare():
    from checks import report
    from checks.verdict import ResultReport, StatementReport, StatementVerdict
    from theory import registry
    bound = registry.get("dice:def-2.2")
    rate = next(r for r in registry.all_results() if r.rates and not r.bounds)
    reps = []
    for res, ratio in ((bound, 2.0), (rate, 0.5)):
        label = (res.bounds or res.rates)[0].label
        rr = ResultReport(res.id, res.paper, res.kind, res.number, res.title)
        rr.statement = StatementReport(StatementVerdict.HOLDS_ON_SCENARIOS, "",
                                       {"statement_label": label}, ratio)
        reps.append(rr)
    plots = report.ratio_plots_png(reps)
    assert set(plots) == {report.RATIO_KINDS["privacy"][0], report.RATIO_KINDS["rate"][0]}
    assert "measured metric / claimed rate" in report.RATIO_KINDS["rate"][1]


def test_verdict_legend_covers_no_bar():
    from checks import report
    from checks.verdict import ResultReport, StepReport, Verdict
    reps = []
    for k, paper in enumerate(("p-one", "p-two", "p-three")):
        rr = ResultReport(f"{paper}:lem-1", paper, "lem", "1", "t")
        rr.steps = [StepReport(f"{paper}:lem-1/s{i}", None, "ALGEBRA",
                               [Verdict.PROVED, Verdict.REFUTED, Verdict.CITED][i % 3], "m")
                    for i in range(10 + 40 * k)]
        reps.append(rr)
    fig = report.verdict_figure(reps)
    fig.canvas.draw()
    ax = fig.axes[0]
    legend = ax.get_legend().get_window_extent()
    for bar in ax.patches:
        assert not legend.overlaps(bar.get_window_extent())


# ------------------------------------------------------------------------ disk cache
T = table("repair-cli-test")
a = T.quantity("a", DIMLESS, "a", positive=True)
bb = T.quantity("bb", DIMLESS, "b", positive=True)


def test_repairs_are_cached_by_their_settings(tmp_path, monkeypatch):
    res = Result("rc:lem-1", "min for max", "a test",
                 proof=[Step("row", a, "<=", sp.Min(a, bb), StepKind.ALGEBRA)])
    calls = []
    real = repair.repair_row
    monkeypatch.setattr(repair, "repair_row", lambda *x, **k: calls.append(1) or real(*x, **k))

    def run(**kw):
        return engine.verify([res], use_cache=True, cache_dir=str(tmp_path), budget=300,
                             **kw)[0].steps[0]

    first = run(repairs=True)
    assert first.repair["class"] == "misprint" and len(calls) == 1
    again = run(repairs=True)
    assert again.repairs == first.repairs and len(calls) == 1      # read from the cache
    other = run(repairs=True, repair_budget=3)
    assert other.repair["class"] == "misprint" and len(calls) == 2  # another key
    plain = run(repairs=False)
    assert plain.repair is None and plain.verdict == first.verdict

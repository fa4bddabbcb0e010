"""`dpcheck report`: Markdown + self-contained HTML, checked in a real headless browser."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

import theory
from checks import engine
from checks.cli import main
from checks.report import PLOT_COLOUR, write_report
from theory.model import walk_steps


def _some_results(k: int = 3):
    rs = [r for r in theory.all_results() if any(True for _ in walk_steps(r))]
    if not rs:
        pytest.skip("no encoded results with steps")
    rs.sort(key=lambda r: sum(1 for _ in walk_steps(r)))
    return rs[:k]


@pytest.fixture(scope="module")
def report_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    reports = engine.verify(_some_results(), budget=20, seed=0)
    paths = write_report(reports, out, seed=0, budget=20)
    return out, reports, paths


def test_report_files_come_from_the_engine(report_dir):
    out, reports, paths = report_dir
    md = (out / "report.md").read_text()
    html = (out / "report.html").read_text()
    for rep in reports:
        assert rep.id in md and rep.id in html
        for s in rep.steps:
            assert s.id in md
    # self-contained: no external resources at all
    assert not re.search(r"""(src|href)=['"]?(https?:)?//""", html)
    assert "data:image/png;base64," in html
    assert all(p.exists() for p in paths)


def _hex_to_rgb(h: str):
    return tuple(int(h[i:i + 2], 16) for i in (1, 3, 5))


@pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium not installed")
def test_html_renders_in_headless_chromium(report_dir, tmp_path):
    out, reports, _ = report_dir
    page = (out / "report.html").resolve().as_uri()
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--no-first-run", "--disable-background-networking",
             "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp_path / 'profile'}"]
    dom = subprocess.run(["chromium", *flags, "--dump-dom", page], capture_output=True,
                         text=True, timeout=120).stdout
    assert "<table id=\"summary\">" in dom
    for paper in {r.paper for r in reports}:
        assert f"<td>{paper}</td>" in dom
    shot = tmp_path / "report.png"
    subprocess.run(["chromium", *flags, "--window-size=1200,1600",
                    f"--screenshot={shot}", page], capture_output=True, timeout=120)
    assert shot.exists() and shot.stat().st_size > 0
    # The embedded verdict plot is drawn with the verdict colours: find its pixels.
    from PIL import Image
    img = Image.open(shot).convert("RGB")
    colours = {_hex_to_rgb(PLOT_COLOUR[s.verdict.value])
               for r in reports for s in r.steps}
    import numpy as np
    seen = set(map(tuple, np.asarray(img).reshape(-1, 3).tolist()))
    assert colours & seen, "no plot pixels in the screenshot: the plot did not render"
    keep = Path(__file__).resolve().parents[2] / "out"
    keep.mkdir(exist_ok=True)
    shutil.copy(shot, keep / "report-screenshot.png")


def test_report_cli_unwritable_destination(capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    rid = _some_results(1)[0].id
    code = main(["report", rid, "--out", str(blocker), "--budget", "5", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and "cannot write report" in err


def test_the_re_derivations_run_once_for_both_renderings(monkeypatch, tmp_path):
    """The re-derivations (SymPy solves, about 15 s of a five-paper report) are computed
    once by write_report and shown in both report.md and report.html."""
    from checks import report
    calls = []

    def fake(papers=None):
        calls.append(papers)
        return [("A re-derivation (dpcheck derive toy)", "x = 42 exactly")]

    monkeypatch.setattr(report, "_derivations_text", fake)
    reports = engine.verify(_some_results(1), budget=20, seed=0)
    write_report(reports, tmp_path, seed=0, budget=20)
    assert len(calls) == 1
    for name in ("report.md", "report.html"):
        text = (tmp_path / name).read_text()
        assert "A re-derivation (dpcheck derive toy)" in text and "x = 42 exactly" in text

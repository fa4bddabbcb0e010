"""The main paper's verdicts may only get better (issue 10: the snapshot taken before the
engine was opened to any paper, ``tests/snapshots/liang_verdicts.json``).

Allowed: the same verdict, or an UNCHECKED step / NOT-TESTED statement that the engine now
decides.  Forbidden: a step or result that disappears, PROVED ↔ REFUTED, and any other
change (a decided verdict weakening to UNCHECKED/SUPPORTED, a statement verdict flipping).
A deliberate change of the paper encoding updates the snapshot in the same commit, with
the reason in the message."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from checks import engine
from theory import registry

SNAP = Path(__file__).resolve().parents[1] / "snapshots" / "liang_verdicts.json"
UNDECIDED = {"steps": "UNCHECKED", "results": "UNCHECKED", "statements": "NOT-TESTED"}


@pytest.fixture(scope="module")
def reports():
    rs = [r for r in registry.all_results() if r.paper in ("liang-icml", "liang-aaai")]
    return engine.verify(rs, jobs=2)              # defaults: the snapshot's budget and seed


@pytest.fixture(scope="module")
def current(reports):
    reps = reports
    cur = {"steps": {}, "results": {}, "statements": {}}
    for rep in reps:
        cur["results"][rep.id] = rep.verdict.value
        cur["statements"][rep.id] = rep.statement.verdict.value
        for s in rep.steps:
            cur["steps"][s.id] = s.verdict.value
    return cur


def changes(snap: dict, cur: dict) -> tuple[list[str], list[str]]:
    """(allowed improvements, forbidden changes) as lines."""
    ok, bad = [], []
    for part, undecided in UNDECIDED.items():
        for key, old in snap[part].items():
            new = cur[part].get(key)
            if new is None:
                bad.append(f"{part} {key}: {old} -> (gone)")
            elif new != old:
                (ok if old == undecided else bad).append(f"{part} {key}: {old} -> {new}")
    return ok, bad


def test_snapshot_is_not_weakened(current):
    snap = json.loads(SNAP.read_text())
    ok, bad = changes(snap, current)
    assert not bad, "verdicts weakened or flipped:\n" + "\n".join(bad)
    # every step of the snapshot is still there, under the same id
    assert set(snap["steps"]) <= set(current["steps"])


def test_comparison_catches_a_flip_and_a_weakening():
    snap = {"steps": {"a": "PROVED", "b": "REFUTED", "c": "UNCHECKED"},
            "results": {}, "statements": {"r": "VIOLATED"}}
    cur = {"steps": {"a": "REFUTED", "b": "UNCHECKED", "c": "PROVED"},
           "results": {}, "statements": {"r": "HOLDS-ON-SCENARIOS"}}
    ok, bad = changes(snap, cur)
    assert ok == ["steps c: UNCHECKED -> PROVED"]
    assert len(bad) == 3


def test_default_view_of_the_main_paper_fits_60_lines(reports):
    """Issue 15: ``dpcheck verify`` on the main paper (both versions) prints at most 60
    lines by default (as piped: 160 columns), every refuted row that does not depend on the
    reading starting a line of its own and every reading-dependent row named."""
    import io

    from checks.cli import _console, render_summary
    buf = io.StringIO()
    render_summary(reports, _console(file=buf), seed=0, budget=2000)
    lines = buf.getvalue().splitlines()
    assert len(lines) <= 60, "\n".join(lines)
    text = " ".join(lines)
    for rep in reports:
        for s in rep.steps:
            if s.verdict.value == "REFUTED" and not s.depends_on_reading:
                assert any(line.startswith(f"  {s.id}  ") for line in lines), s.id
            if s.depends_on_reading:     # named under its paper and result: "KEY: R (label, …)"
                pk, _, rest = s.id.partition(":")
                rid, _, label = rest.partition("/")
                flat = " ".join(text.split())        # wrapped lines keep a trailing space
                assert f"{pk}: " in flat and f"{rid} (" in flat and label in flat, s.id

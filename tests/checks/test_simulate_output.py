"""Simulation outputs (:mod:`checks.simulate.output`): CSV, JSON and PNG written whole or
not at all, with what a reader needs (a header, infinities spelled out, numpy scalars as
numbers), replaced run after run; the divergence figure's two panels."""
from __future__ import annotations

import csv
import json
import math

import numpy as np
import pytest

from checks.simulate import output
from checks.simulate.output import (divergence_plot, save_png, write_atomic, write_csv,
                                    write_json)


def _tmp_files(folder):
    return [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


def test_csv_has_a_header_and_the_rows_in_order(tmp_path):
    p = tmp_path / "rows.csv"
    rows = [{"alpha": 2, "estimate": 0.5, "order": "forward"},
            {"alpha": 4, "estimate": 1.25, "order": "backward"}]
    assert write_csv(str(p), rows) == str(p)
    with open(p, newline="", encoding="utf-8") as fh:
        got = list(csv.DictReader(fh))
    assert got == [{"alpha": "2", "estimate": "0.5", "order": "forward"},
                   {"alpha": "4", "estimate": "1.25", "order": "backward"}]
    assert p.read_text(encoding="utf-8").splitlines()[0] == "alpha,estimate,order"


def test_csv_of_no_rows_is_an_empty_file(tmp_path):
    p = tmp_path / "none.csv"
    write_csv(str(p), [])
    assert p.exists() and p.read_text(encoding="utf-8") == ""


def test_json_spells_out_infinities_and_converts_numpy_scalars(tmp_path):
    p = tmp_path / "out.json"
    write_json(str(p), {"upper": math.inf, "lower": -math.inf, "gap": math.nan,
                        "runs": np.int64(7), "mean": np.float32(0.5),
                        "rows": [{"x": math.inf}, (1.0, 2)], "name": "sim"})
    text = p.read_text(encoding="utf-8")
    assert text.endswith("}\n") and "NaN" not in text and "Infinity" not in text
    assert json.loads(text) == {"upper": "inf", "lower": "-inf", "gap": "nan", "runs": 7,
                                "mean": 0.5, "rows": [{"x": "inf"}, [1.0, 2]], "name": "sim"}


def test_json_refuses_what_it_cannot_write_and_leaves_nothing(tmp_path):
    p = tmp_path / "bad.json"
    with pytest.raises(TypeError, match="not JSON serialisable"):
        write_json(str(p), {"x": object()})
    assert not p.exists() and _tmp_files(tmp_path) == []


def test_a_previous_output_is_replaced_whatever_it_holds(tmp_path):
    """Simulation outputs live in their own folder: a rerun replaces them (force)."""
    p = tmp_path / "rows.csv"
    p.write_text("an older run\n", encoding="utf-8")
    write_csv(str(p), [{"a": 1}])
    assert p.read_text(encoding="utf-8").splitlines() == ["a", "1"]


def test_an_interrupted_write_keeps_the_old_file(tmp_path, monkeypatch):
    from checks import output as base
    p = tmp_path / "out.json"
    p.write_text('{"old": 1}\n', encoding="utf-8")

    def boom(src, dst):
        raise OSError(5, "Input/output error")
    monkeypatch.setattr(base.os, "replace", boom)
    with pytest.raises(ValueError, match="cannot write .*Input/output error"):
        write_json(str(p), {"new": 2})
    assert p.read_text(encoding="utf-8") == '{"old": 1}\n'
    assert _tmp_files(tmp_path) == []


def test_write_atomic_takes_bytes_and_text(tmp_path):
    write_atomic(str(tmp_path / "a.bin"), b"\x00\x01")
    write_atomic(str(tmp_path / "b.txt"), "é")
    assert (tmp_path / "a.bin").read_bytes() == b"\x00\x01"
    assert (tmp_path / "b.txt").read_bytes() == "é".encode("utf-8")


def _rows():
    rows = []
    for order in ("forward", "backward"):
        for a, est in ((2, 0.1), (4, 0.3), (8, 0.7)):
            rows.append({"order": order, "alpha": a, "estimate": est, "lower": est / 2,
                         "upper": 100.0 if a == 8 else est * 2,
                         "upper_kind": "bounded-ratio", "upper_asymptotic": est * 1.5,
                         "exact": est * 1.1 if a == 4 else None})
    return rows


def test_the_divergence_figure_has_one_panel_per_order_and_saves_as_png(tmp_path):
    assert divergence_plot([]) is None
    fig = divergence_plot(_rows(), title="toy")
    try:
        axes = fig.get_axes()
        assert [ax.get_title().split(":")[0] for ax in axes] == ["forward", "backward"]
        assert all(ax.get_xscale() == "log" for ax in axes)
        # y-axis up to 1.3 × the largest value shown (estimates, exact values, upper ends)
        assert axes[0].get_ylim()[1] == pytest.approx(1.3 * 0.7 * 1.5)
        measured = [ln for ln in axes[0].get_lines() if ln.get_label() == "measured"]
        assert measured[0].get_ydata().tolist() == [0.1, 0.3, 0.7]
        p = tmp_path / "fig.png"
        assert save_png(fig, str(p)) == str(p)
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert _tmp_files(tmp_path) == []
    finally:
        output._plt().close(fig)

"""Tests of `dpcheck simulate exact` (checks.simulate.exact_cli)."""
import csv
import json

import pytest

from checks.truth.divergences import sgm_rdp
from checks.simulate.exact_cli import main
from checks.truth.scenarios import linear_canary, linear_canary_exact


def test_linear_canary_outputs_json_csv_png(tmp_path, capsys):
    rc = main(["--scenario", "linear-canary", "--alpha", "4", "--T", "12", "--points", "4",
               "--n", "50", "--b", "5", "--sigma-dp", "0.3", "--out", str(tmp_path)])
    assert rc == 0
    out = json.loads((tmp_path / "exact.json").read_text())
    rows = out["rows"]
    assert [r["T"] for r in rows][-1] == 12
    s = linear_canary(n=50, b=5, sigma_dp=0.3, T=12)
    nm = 5 * 0.3 / 1.0
    for r in rows:
        assert r["composition"] == pytest.approx(r["T"] * sgm_rdp(0.1, nm, 4.0, "max"), rel=1e-12)
        ex = linear_canary_exact(s, 4.0, r["T"])
        assert r["exact_forward"] == pytest.approx(ex.forward, rel=1e-12)
        assert r["exact_backward"] == pytest.approx(ex.backward, rel=1e-12)
        assert r["exact_max"] <= r["composition"] * (1 + 1e-9)   # post-processing
    with open(tmp_path / "exact.csv") as fh:
        assert len(list(csv.DictReader(fh))) == len(rows)
    assert (tmp_path / "exact.png").stat().st_size > 1000
    assert "linear-canary" in capsys.readouterr().out


def test_dc_scenario_uses_certified_accountant_and_saturates(tmp_path):
    rc = main(["--scenario", "linear-canary-dc", "--D", "0.5", "--alpha", "2", "--T", "40",
               "--points", "4", "--grid", "256", "--eta", "0.5", "--format", "json",
               "--out", str(tmp_path)])
    assert rc == 0
    out = json.loads((tmp_path / "exact.json").read_text())
    assert out["exact_method"].startswith("certified")
    assert all(r["exact_error"] is not None and r["exact_error"] < 0.05 * r["exact_max"]
               for r in out["rows"])
    last = out["rows"][-1]
    assert last["exact_max"] < last["composition"]


@pytest.mark.parametrize("argv,msg", [
    (["--alpha", "0.5"], "alpha must be > 1"),
    (["--alpha", "2", "--scenario", "nope"], "scenario must be one of"),
    (["--alpha", "2", "--beta", "1.5"], "beta must be in"),
    (["--alpha", "2", "--T", "0"], "T must be >= 1"),
])
def test_usage_errors(argv, msg, capsys):
    assert main(argv) == 2
    assert msg in capsys.readouterr().err


def test_missing_alpha_is_usage_error(capsys):
    assert main([]) == 2

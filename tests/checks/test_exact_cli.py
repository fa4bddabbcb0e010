"""Tests of `dpcheck simulate exact` (checks.simulate.exact_cli)."""
import csv
import json

import pytest

from checks.truth.divergences import sgm_rdp
from checks.simulate.exact_cli import main
from checks.truth.losses import linear_canary
from checks.truth.accountant_fft import linear_canary_exact


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
    # the certified bracket (issue 16.2) widens with T: late rows may be refused (blank),
    # every row it answers is within the 5% tolerance
    rows = [r for r in out["rows"] if r["exact_max"] is not None]
    assert rows and rows[0]["T"] == out["rows"][0]["T"]
    assert all(r["exact_error"] is not None and r["exact_error"] < 0.05 * r["exact_max"]
               for r in rows)
    assert all(r["exact_max"] < r["composition"] for r in rows)


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


@pytest.mark.parametrize("alpha,T", [(2, 12), (8, 6), (32, 3), (64, 3)])
def test_linear_canary_curve_matches_exact_series_to_printed_error(alpha, T, capsys):
    # issue 16: the ε(T) curve is the exact mixture to the printed error; the add order is
    # checked against the exact multinomial series at 50 digits (independent of the
    # quadrature) at every T, the remove order at T = 1 against the SGM quadrature
    # (sgm_rdp: independent code; an mpmath quadrature of the mixtures takes ~1 min a row)
    from checks.truth.divergences import mixture_vs_gaussian_int
    from checks.truth.accountant_fft import linear_canary_mixtures
    assert main(["--scenario", "linear-canary", "--alpha", str(alpha), "--T", str(T),
                 "--n", "100", "--b", "10", "--sigma-dp", "0.1", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    s = linear_canary(n=100, b=10, sigma_dp=0.1, T=T)
    assert [r["T"] for r in out["rows"]] == list(range(1, T + 1))
    for r in out["rows"]:
        P, _ = linear_canary_mixtures(s, r["T"])
        fw = float(mixture_vs_gaussian_int(P, s.theta0, alpha, dps=50))
        assert 0 < r["exact_error"] <= 1e-6 * max(1.0, r["exact_max"])
        assert abs(r["exact_forward"] - fw) <= r["exact_error"], (r, fw)
    bw = sgm_rdp(0.1, 1.0, float(alpha), "remove")
    assert abs(out["rows"][0]["exact_backward"] - bw) <= out["rows"][0]["exact_error"]


def test_dc_curve_matches_independent_oracle_to_printed_error(capsys):
    # the projected case (old FFT grid: 1.708 at T = 2, truth 2.756)
    from test_accountant_projected import projected_rdp
    assert main(["--scenario", "linear-canary-dc", "--D", "1", "--alpha", "8", "--T", "3",
                 "--n", "100", "--b", "10", "--eta", "0.1", "--sigma-dp", "0.1",
                 "--grid", "1024", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert not out["refused"]
    for r in out["rows"]:
        fw, bw = projected_rdp(100, 10, 0.1, 1.0, 0.1, 1.0, r["T"], 8.0)
        assert abs(r["exact_forward"] - fw) <= r["exact_forward_error"], (r, fw)
        assert abs(r["exact_backward"] - bw) <= r["exact_backward_error"], (r, bw)
        assert r["exact_error"] == max(r["exact_forward_error"], r["exact_backward_error"])


def test_uncertifiable_rows_are_blank_with_a_note(capsys):
    # T = 200 at D/τ = 100: beyond what the bracket certifies within its cost cap
    assert main(["--scenario", "linear-canary-dc", "--D", "1", "--alpha", "8", "--T", "200",
                 "--points", "2", "--n", "100", "--b", "10", "--eta", "0.1", "--sigma-dp",
                 "0.1", "--grid", "128", "--format", "json"]) == 0
    cap = capsys.readouterr()
    out = json.loads(cap.out)
    assert out["refused"] and out["rows"][-1]["exact_max"] is None
    assert "no certified value" in cap.err and cap.err.count("\n") == 1


def test_unprojected_nonlinear_scenario_is_a_one_line_error(capsys):
    assert main(["--scenario", "quadratic-gaussian", "--alpha", "8", "--T", "3"]) == 2
    err = capsys.readouterr().err
    assert "no certified accountant" in err and err.count("\n") == 1

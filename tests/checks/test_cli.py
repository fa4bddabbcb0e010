"""The command line: exit codes, error messages, JSON schema, determinism."""
from __future__ import annotations

import json
import os
import stat

import pytest

import theory
from checks.cli import main
from theory.model import walk_steps

STEP_KEYS = {"id", "eq", "kind", "verdict", "method", "counterexample", "slack",
             "samples", "seconds"}
RESULT_KEYS = {"id", "paper", "kind", "number", "title", "verdict", "statement_verdict",
               "steps"}


def _small_result_id() -> str:
    """The encoded result with the fewest (but some) steps: keeps CLI tests fast."""
    candidates = [(sum(1 for _ in walk_steps(r)), r.id) for r in theory.all_results()]
    candidates = [c for c in candidates if c[0] > 0]
    if not candidates:
        pytest.skip("no encoded results with steps")
    return min(candidates)[1]


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _strip_times(data):
    for r in data["results"]:
        for s in r["steps"]:
            s.pop("seconds")
    return data


def test_unknown_id_exits_2_with_close_matches(capsys):
    rid = _small_result_id()
    typo = rid[:-1] + ("x" if rid[-1] != "x" else "y")
    code, out, err = _run(capsys, "verify", typo)
    assert code == 2
    lines = [line for line in err.strip().splitlines() if line]
    assert len(lines) == 1 and "unknown result" in lines[0]
    assert rid.split(":")[0] in lines[0]  # names a close match
    assert "Traceback" not in err


@pytest.mark.parametrize("argv", [
    ["verify", "--budget", "0"],
    ["verify", "--budget", "many"],
    ["verify", "--seed", "-1"],
    ["verify", "--format", "xml"],
    ["derive", "gamma"],
    ["no-such-command"],
])
def test_bad_options_are_usage_errors(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "usage:" in err and "Traceback" not in err


def test_show_unknown_exits_2(capsys):
    code, _, err = _run(capsys, "show", "liang-icml:thm-99.9")
    assert code == 2 and "unknown result" in err


def test_verify_json_schema_and_determinism(capsys):
    rid = _small_result_id()
    code1, out1, _ = _run(capsys, "verify", rid, "--format", "json", "--budget", "20")
    code2, out2, _ = _run(capsys, "verify", rid, "--format", "json", "--budget", "20")
    assert code1 == code2 == 0
    d1, d2 = json.loads(out1), json.loads(out2)
    assert set(d1) >= {"dpcheck", "seed", "results", "summary"}
    assert d1["seed"] == 0
    assert [r["id"] for r in d1["results"]] == [rid]
    for r in d1["results"]:
        assert set(r) >= RESULT_KEYS
        for s in r["steps"]:
            assert set(s) >= STEP_KEYS
    assert sum(d1["summary"].values()) == sum(len(r["steps"]) for r in d1["results"])
    assert _strip_times(d1) == _strip_times(d2)


def test_strict_exit_code_matches_findings(capsys):
    rid = _small_result_id()
    code, out, _ = _run(capsys, "verify", rid, "--format", "json", "--budget", "20",
                        "--strict")
    data = json.loads(out)
    bad = any(s["verdict"] == "REFUTED" for r in data["results"] for s in r["steps"]) or \
        any(r["statement_verdict"] == "VIOLATED" for r in data["results"])
    assert code == (1 if bad else 0)


def test_out_file_written_and_unwritable_out_is_usage_error(capsys, tmp_path):
    rid = _small_result_id()
    target = tmp_path / "v.md"
    code, _, _ = _run(capsys, "verify", rid, "--format", "md", "--out", str(target),
                      "--budget", "20")
    assert code == 0 and target.read_text().startswith("# dpcheck report")
    locked = tmp_path / "locked"
    locked.mkdir()
    os.chmod(locked, stat.S_IRUSR | stat.S_IXUSR)
    if os.access(locked, os.W_OK):  # running as root: permissions are not enforced
        bad = "/proc/dpcheck-cannot-write/v.json"
    else:
        bad = str(locked / "sub" / "v.json")
    code, _, err = _run(capsys, "verify", rid, "--format", "json", "--out", bad,
                        "--budget", "20")
    assert code == 2 and "cannot write" in err and "Traceback" not in err


def test_table_groups_by_paper_and_has_summary(capsys):
    rid = _small_result_id()
    code, out, _ = _run(capsys, "verify", rid, "--budget", "20", "--no-progress")
    assert code == 0
    paper = rid.split(":")[0]
    # default: a title line per paper counting its settled results, a row per other result
    assert f"{paper}: 1 result" in out
    assert "settled 1:" in out or rid.split(":")[1] in out
    assert "steps:" in out and "results:" in out
    code, out, _ = _run(capsys, "verify", rid, "--budget", "20", "--no-progress", "--steps")
    assert code == 0 and rid in out and "statement" in out            # every row


def test_default_view_is_short_and_lists_every_refuted_row(capsys):
    from theory import registry
    rid = "liang-icml:lem-3.2"
    code, out, _ = _run(capsys, "verify", rid, "--budget", "50", "--no-progress")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) <= 15
    code, js, _ = _run(capsys, "verify", rid, "--budget", "50", "--no-progress", "--format",
                       "json")
    data = json.loads(js)
    reading = {s["id"] for s in data["depends_on_reading"]}
    refuted = [s["id"] for r in data["results"] for s in r["steps"]
               if s["verdict"] == "REFUTED"]
    # a refuted row is listed on its own line, or — where its verdict depends on the
    # reading — on the line of its reading group, by its label
    assert refuted and all(
        any(line.strip().startswith(i + " ") for line in lines) if i not in reading else
        any("other reading" in line and i.rsplit("/", 1)[1] in line for line in lines)
        for i in refuted)
    assert registry.get(rid)


def test_list_and_show(capsys):
    rid = _small_result_id()
    code, out, _ = _run(capsys, "list")
    assert code == 0 and rid in out
    code, out, _ = _run(capsys, "show", rid, "--budget", "20")
    assert code == 0 and rid in out and "statement verdict" in out


def test_missing_optional_dependency_names_the_extra(capsys, monkeypatch):
    import builtins
    real_import = builtins.__import__

    def no_torch(name, *args, **kwargs):
        if name.split(".")[0] == "torch":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_torch)
    for mod in [m for m in list(__import__("sys").modules) if m.startswith("checks.simulate")]:
        monkeypatch.delitem(__import__("sys").modules, mod)
    code = main(["simulate", "--list"])
    err = capsys.readouterr().err
    assert code == 2 and "pip install 'dpcheck[sim]'" in err and "Traceback" not in err


def test_outputs_follow_the_umask_and_never_replace_a_foreign_file(capsys, tmp_path):
    import os
    import stat
    rid = _small_result_id()
    old = os.umask(0o022)
    try:
        out = tmp_path / "v.json"
        code, _, _ = _run(capsys, "verify", rid, "--budget", "20", "--no-progress",
                          "--format", "json", "--out", str(out))
        assert code == 0 and stat.S_IMODE(out.stat().st_mode) == 0o644
        # a previous dpcheck output is replaced; a user's file is not, unless --force
        code, _, _ = _run(capsys, "verify", rid, "--budget", "20", "--no-progress",
                          "--format", "json", "--out", str(out))
        assert code == 0
        mine = tmp_path / "notes.py"
        mine.write_text("print('my notes')\n")
        code, _, err = _run(capsys, "verify", rid, "--budget", "20", "--no-progress",
                            "--out", str(mine))
        assert code == 2 and "not a dpcheck output" in err and "Traceback" not in err
        assert mine.read_text() == "print('my notes')\n"
        code, _, _ = _run(capsys, "verify", rid, "--budget", "20", "--no-progress",
                          "--out", str(mine), "--force")
        assert code == 0 and "dpcheck" in mine.read_text()
        code, _, err = _run(capsys, "verify", rid, "--budget", "20", "--no-progress",
                            "--out", "")
        assert code == 2 and "empty" in err
    finally:
        os.umask(old)


def test_a_refused_out_is_refused_before_any_checking(capsys, tmp_path, monkeypatch):
    """A user's file as --out (verify) or a file / foreign report.md in the report folder
    (report) is refused at once, not after the whole verification has run."""
    import checks.cli as cli

    def no_work(*args, **kwargs):
        raise AssertionError("verification ran before --out was checked")

    monkeypatch.setattr(cli, "run_verify", no_work)
    rid = _small_result_id()
    mine = tmp_path / "notes.txt"
    mine.write_text("my notes\n")
    code, _, err = _run(capsys, "verify", rid, "--no-progress", "--out", str(mine))
    assert code == 2 and "not a dpcheck output" in err and "Traceback" not in err
    code, _, err = _run(capsys, "report", rid, "--no-progress", "--out", str(mine))
    assert code == 2 and "it is a file" in err and "Traceback" not in err
    folder = tmp_path / "rep"
    folder.mkdir()
    (folder / "report.md").write_text("my own report\n")
    code, _, err = _run(capsys, "report", rid, "--no-progress", "--out", str(folder))
    assert code == 2 and "not a dpcheck output" in err
    assert mine.read_text() == "my notes\n"
    assert (folder / "report.md").read_text() == "my own report\n"

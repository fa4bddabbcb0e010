"""A user's own paper: the README example, ``dpcheck new``, ``dpcheck lint``,
``dpcheck oracles`` (issue 10, items 6 and 9).

The README's "Check your own paper" example is run as a user would run it: extracted,
written outside the repository, verified through the CLI; a planted wrong constant must
be REFUTED.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from checks import plugins
from checks.cli import main
from theory import registry

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
HEADING = "## Check your own paper"
RDP_LINE = "RDP = alpha * Delta**2 / (2 * sigma**2)"


@pytest.fixture(autouse=True)
def fresh_registry():
    """Every test loads its own files; two of them may use the same paper key."""
    registry.reset()
    yield
    registry.reset()


def readme_example() -> str:
    text = README.read_text(encoding="utf-8")
    assert HEADING in text, f"README.md has no section {HEADING!r}"
    section = text.split(HEADING, 1)[1]
    section = re.split(r"^## ", section, maxsplit=1, flags=re.M)[0]
    blocks = re.findall(r"^```python\n(.*?)^```", section, flags=re.S | re.M)
    assert blocks, "the section has no fenced python block"
    return blocks[0]


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _verify_json(capsys, path) -> dict:
    code, out, err = _run(capsys, "verify", path, "--format", "json", "--no-cache",
                          "--no-progress")
    assert code == 0, err
    return json.loads(out)


def _steps(data) -> dict[str, str]:
    return {s["id"]: s["verdict"] for r in data["results"] for s in r["steps"]}


def _concluded_parts(path) -> list[tuple[str, int]]:
    """(statement part id, chain length) of every chain that concludes a part."""
    from theory.model import Chain
    mod = registry.import_path(path)
    out = []
    for r in mod.RESULTS:
        for item in r.proof:
            if isinstance(item, Chain) and item.concludes:
                out.append((f"{r.id}/{item.concludes}", len(item.steps)))
    return out


# ----------------------------------------------------------------------------- README
def test_readme_points_inside_the_repository():
    text = README.read_text(encoding="utf-8")
    assert "../" not in text


def test_readme_example_verifies_and_a_planted_constant_is_refuted(tmp_path, capsys):
    code = readme_example()
    good = tmp_path / "my_paper.py"
    good.write_text(code, encoding="utf-8")

    data = _verify_json(capsys, good)
    steps = _steps(data)
    assert steps and "REFUTED" not in steps.values(), steps
    parts = _concluded_parts(good)
    assert max(n for _, n in parts) >= 4, "the README example needs a chain of >= 4 steps"
    for part, _ in parts:
        assert steps[part] == "PROVED", (part, steps[part])
    assert all(r["statement_verdict"] != "VIOLATED" for r in data["results"])

    assert code.count(RDP_LINE) == 1, "the planted-error test edits this line"
    bad = tmp_path / "my_paper_planted.py"
    bad.write_text(code.replace(RDP_LINE, RDP_LINE.replace("(2 *", "(4 *")),
                   encoding="utf-8")
    registry.reset()   # same paper key as the good file
    planted = _steps(_verify_json(capsys, bad))
    assert "REFUTED" in planted.values(), planted


# ----------------------------------------------------------------------------- new
def test_new_template_verifies_and_lints_clean(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = _run(capsys, "new", "my-draft")
    assert code == 0, err
    path = tmp_path / "my_draft.py"
    assert path.exists() and "my-draft:lem-1" in path.read_text()

    code, out, err = _run(capsys, "lint", path)
    assert code == 0, out + err
    assert re.fullmatch(r"ok: 2 results, \d+ steps\n", out)

    steps = _steps(_verify_json(capsys, path))
    assert "REFUTED" not in steps.values(), steps
    parts = _concluded_parts(path)
    assert parts and any(steps[p] == "PROVED" for p, _ in parts)


def test_new_refuses_to_overwrite(tmp_path, capsys):
    path = tmp_path / "mine.py"
    path.write_text("# my work\n")
    code, out, err = _run(capsys, "new", "mine", "--out", path)
    assert code == 2
    assert path.read_text() == "# my work\n"
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "already exists" in lines[0] and "Traceback" not in err


def test_new_out_writes_there(tmp_path, capsys):
    path = tmp_path / "sub" / "draft.py"
    code, _, err = _run(capsys, "new", "x1", "--out", path)
    assert code == 0, err
    assert 'key="x1"' in path.read_text()


@pytest.mark.parametrize("key", ["My-Draft", "my_draft", "-draft", "my draft", "", "a:b"])
def test_new_bad_key_names_parameter_value_and_pattern(tmp_path, capsys, monkeypatch, key):
    monkeypatch.chdir(tmp_path)
    code, _, err = _run(capsys, "new", "--", key)   # "--": a key may start with a dash
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert "KEY" in lines[0] and repr(key) in lines[0] and "[a-z0-9]" in lines[0]
    assert not list(tmp_path.iterdir())


def test_new_refuses_a_registered_key(tmp_path, capsys):
    key = registry.papers()[0]
    code, _, err = _run(capsys, "new", key, "--out", tmp_path / "x.py")
    assert code == 2 and key in err and not (tmp_path / "x.py").exists()


# ----------------------------------------------------------------------------- lint
BAD_PAPER = '''
import sympy as sp
from theory.model import Paper, Result, Step, StepKind
from theory.quantities import DIMLESS, table

S = table("lint-me")
a = S.quantity("a", DIMLESS, "a declared quantity", positive=True)
x = sp.Symbol("x", positive=True)                 # never declared
PAPER = Paper(key="lint-me", title="mistakes", symbols=S)
RESULTS = [
    Result("lint-me:lem-1", "an unknown oracle", "Sec. 1",
           statement=[Step("statement", a, "<=", 2 * a, StepKind.CITED,
                           oracle="no-such-oracle")]),
    Result("lint-me:lem-2", "an undeclared symbol", "Sec. 1",
           statement=[Step("statement", a, "<=", a + x)]),
    Result("elsewhere:lem-3", "outside its paper", "Sec. 1"),
]
'''


def test_lint_reports_each_mistake_on_one_line(tmp_path, capsys):
    path = tmp_path / "lint_me.py"
    path.write_text(BAD_PAPER)
    code, out, err = _run(capsys, "lint", path)
    assert code == 1, err
    lines = out.strip().splitlines()
    assert all(line.startswith(f"{path}: ") for line in lines), lines
    assert any("lint-me:lem-1/statement: unknown oracle 'no-such-oracle'" in line
               for line in lines), lines
    assert any("lint-me:lem-2/statement: symbol 'x' has no declared dimension" in line
               for line in lines), lines
    assert any("elsewhere:lem-3: result outside its paper" in line for line in lines), lines
    assert "Traceback" not in out + err


MORE_MISTAKES = '''
import sympy as sp
from checks.plugins import step_oracle
from theory.model import Chain, Paper, Result, Step, StepKind
from theory.quantities import DIMLESS, table


@step_oracle("lint-test-oracle", arguments={"k": "an argument it takes"})
def _oracle(loc, *, budget, seed):
    """An oracle the paper file registers itself."""
    raise NotImplementedError


S = table("lint-more")
a = S.quantity("a", DIMLESS, "a declared quantity", positive=True)
a_other = sp.Symbol("a", real=True)               # same name, other assumptions
PAPER = Paper(key="lint-more", title="more mistakes", symbols=S)
RESULTS = [
    Result("lint-more:lem-1", "oracle arguments, assumptions, a missing part", "Sec. 1",
           statement=[Step("statement", a, "<=", 2 * a, StepKind.CITED,
                           oracle="lint-test-oracle", oracle_args={"kk": 1})],
           proof=[Chain("proof", [Step("line-1", a, "<=", a_other + a)],
                        concludes="part-2")]),
    Result("lint-more:lem-2", "a proof item that is not a step", "Sec. 1",
           proof=["a sentence instead of a Step"]),
]
'''


@pytest.fixture
def forget_test_oracle():
    yield
    plugins._STEP_ORACLES.pop("lint-test-oracle", None)


def test_lint_more_mistakes(tmp_path, capsys, forget_test_oracle):
    path = tmp_path / "lint_more.py"
    path.write_text(MORE_MISTAKES)
    code, out, err = _run(capsys, "lint", path)
    assert code == 1, err
    lines = out.strip().splitlines()
    expected = {
        "lint-more:lem-1/statement: oracle 'lint-test-oracle' takes no argument(s) 'kk'",
        "lint-more:lem-1/line-1: symbol 'a' is not the declared quantity",
        "lint-more:lem-1/proof: concludes 'part-2', which is not a statement part",
        "lint-more:lem-2: unknown proof item",
    }
    for e in expected:
        assert any(f"{path}: {e}" in line for line in lines), (e, lines)
    assert not any("unknown oracle" in line for line in lines), lines
    assert len(lines) == len(expected), lines


@pytest.mark.parametrize("name,text,expect", [
    ("syntax.py", "import sympy\ndef broken(:\n", "SyntaxError"),
    ("no_paper.py", "X = 1\n", "must define PAPER and RESULTS"),
    ("raises.py", "raise RuntimeError('boom')\n", "RuntimeError: boom"),
])
def test_lint_unloadable_file_is_one_line_exit_2(tmp_path, capsys, name, text, expect):
    """(A file with a bad label and no PAPER: tests/checks/test_user_path.py — lint lists
    the label's problem on stdout, then this one line.)"""
    path = tmp_path / name
    path.write_text(text)
    code, out, err = _run(capsys, "lint", path)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and expect in lines[0], err
    assert "Traceback" not in err


def test_lint_and_verify_missing_path_exit_2(tmp_path, capsys):
    for cmd in ("lint", "verify"):
        code, _, err = _run(capsys, cmd, tmp_path / "nowhere.py")
        assert code == 2 and len(err.strip().splitlines()) == 1 and "no such file" in err


def test_lint_syntax_error_as_a_process(tmp_path):
    """The installed entry point, as a user runs it: one line on stderr, no traceback."""
    path = tmp_path / "broken.py"
    path.write_text("RESULTS = [\n")
    proc = subprocess.run([sys.executable, "-m", "checks.cli", "lint", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


# ----------------------------------------------------------------------------- oracles
def test_oracles_json_lists_registered_oracles_and_providers(capsys):
    code, out, _ = _run(capsys, "oracles", "--format", "json")
    assert code == 0
    data = json.loads(out)
    names = {o["name"] for o in data["step_oracles"]}
    assert set(plugins.step_oracles()) <= names
    for o in data["step_oracles"]:
        assert set(o) >= {"name", "arguments", "supports"}
    provs = {p["name"]: p for p in data["truth_providers"]}
    assert set(provs) == {p.name for p in plugins.providers()}
    for p in provs.values():
        assert isinstance(p["mechanisms"], list) and isinstance(p["profiles"], bool)
    if "gaussian" in provs:
        assert "GaussianMechanism" in provs["gaussian"]["mechanisms"]


def test_oracles_table(capsys):
    code, out, _ = _run(capsys, "oracles")
    assert code == 0
    for name in plugins.step_oracles():
        assert name in out
    for p in plugins.providers():
        assert p.name in out

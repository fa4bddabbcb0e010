"""``dpcheck import`` (issue 36): a paper's LaTeX to a draft that lints and verifies.

Fast tests use a small hand-written paper (tests/data/import/small.tex: a lemma with a
three-line proof, an aligned chain with one wrong constant, \\newcommand macros, \\label),
a Markdown and an HTML rendering; the four seed renderings (tests/data/seeds/) are
imported, linted, verified in part and compared with their hand encodings behind
``@pytest.mark.slow`` (each import takes a minute: the LaTeX parsers are slow).
"""
from __future__ import annotations

import importlib.util
import json
import tarfile
from pathlib import Path

import pytest

from checks.cli import main
from checks.importer import default_key, import_paper, todo_markers
from checks.importer.formulas import Converter
from checks.importer.symbols import SymbolTable
from theory import registry

ROOT = Path(__file__).resolve().parents[2]
SMALL = ROOT / "tests" / "data" / "import" / "small.tex"
SEEDS = ROOT / "tests" / "data" / "seeds"


@pytest.fixture(autouse=True)
def fresh_registry():
    registry.reset()
    yield
    registry.reset()


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _verify(capsys, path) -> dict:
    code, out, err = _run(capsys, "verify", path, "--format", "json", "--no-cache",
                          "--no-progress")
    assert code == 0, err
    return json.loads(out)


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# ----------------------------------------------------------------------------- small paper
def test_small_paper_imports_lints_and_verifies(tmp_path, capsys):
    out = tmp_path / "small_draft.py"
    code, _, err = _run(capsys, "import", SMALL, "--key", "small-tex", "--out", out)
    assert code == 0, err
    assert "6 display relations, 6 parsed" in err
    code, lint_out, err = _run(capsys, "lint", out)
    assert code == 0, lint_out + err
    assert "ok: 2 results" in lint_out
    data = _verify(capsys, out)
    steps = {s["id"]: s for r in data["results"] for s in r["steps"]}
    # the lemma: statement (1), its three-line chain (2)-(4) with \label'd numbers, links
    for sid in ("small-tex:lem-1/statement", "small-tex:lem-1/eq-2", "small-tex:lem-1/eq-3",
                "small-tex:lem-1/eq-4", "small-tex:lem-1/eq-2-chain/concludes"):
        assert steps[sid]["verdict"] == "PROVED", (sid, steps[sid])
    # the theorem's chain: the macro \sdp expanded, the wrong constant 3/2 REFUTED
    assert steps["small-tex:thm-1/part-1"]["verdict"] == "PROVED"
    wrong = steps["small-tex:thm-1/part-2"]
    assert wrong["verdict"] == "REFUTED"
    assert wrong["eq"] == "6"
    assert set(wrong["counterexample"]) >= {"alpha", "sigma_DP"}
    refuted = [sid for sid, s in steps.items() if s["verdict"] == "REFUTED"]
    assert refuted == ["small-tex:thm-1/part-2"]


def test_small_paper_structure_and_symbols():
    draft, text = import_paper(SMALL, "small-tex")
    lem, thm = draft.results
    assert lem.id == "small-tex:lem-1" and lem.title == "A three-line bound"
    assert lem.where == "Bounds, Lemma 1"
    assert thm.id == "small-tex:thm-1"          # \newtheorem{theorem}[lemma]: shared counter
    assert [h.latex for h in lem.hypotheses] == ["a > 0", "b > 0"]
    assert "sigma_DP" in draft.table.symbols                  # \sigma_{\text{DP}}, via \sdp
    assert "(a+b)^{2} \\leq 2a^{2} + 2b^{2}" in text          # the LaTeX quoted
    assert "# TODO(guess): positive: a noise scale" in text


def test_from_a_tar_gz_and_a_folder(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "main.tex").write_text("\\documentclass{article}\\begin{document}\n"
                                  "\\input{sections/body}\n\\end{document}\n")
    (src / "sections").mkdir()
    (src / "sections" / "body.tex").write_text(SMALL.read_text().split("\\begin{document}")[1]
                                              .split("\\end{document}")[0]
                                              .replace("\\sdp", "\\sigma_{\\text{DP}}")
                                              .replace("\\sq{\\sigma_{\\text{DP}}}",
                                                       "\\sigma_{\\text{DP}}^{2}"))
    draft_dir, _ = import_paper(src, "src")
    archive = tmp_path / "paper.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(src, arcname=".")
    draft_tar, _ = import_paper(archive, "tar")
    assert draft_dir.stats.relations == draft_tar.stats.relations == 6
    assert [r.id.split(":")[1] for r in draft_tar.results] == ["lem-1", "thm-1"]


def test_markdown_and_html_renderings(tmp_path):
    md = tmp_path / "paper.md"
    md.write_text("# A paper\n\n**Lemma 2.1.** (Sum). *For any $x > 0$, we have*\n\n"
                  "$$x + x \\leq 3x \\quad (4)$$\n\n*Proof.* Trivially\n\n"
                  "$$x + x = 2x \\leq 3x. \\tag{5}$$\n\n$\\square$\n")
    draft, _ = import_paper(md, "md-paper")
    (lem,) = draft.results
    assert lem.id == "md-paper:lem-2.1" and lem.title == "Sum"
    assert lem.statement[0].eq == "4"
    assert [s.label for s in lem.proof[0].steps] == ["eq-5.1", "eq-5.2"]
    html = tmp_path / "paper.html"
    html.write_text(
        "<html><body><h2 class='ltx_title'>1 Intro</h2>"
        "<div class='ltx_theorem ltx_theorem_lemma'><h6 class='ltx_title ltx_runin'>"
        "<span class='ltx_tag'>Lemma 1.</span></h6><p>Let <math alttext='a&gt;1' "
        "display='inline'></math>. Then</p><table class='ltx_equation'><tr><td>"
        "<math alttext='a^{2}\\geq a' display='block'></math></td><td>"
        "<span class='ltx_tag ltx_tag_equation'>(3)</span></td></tr></table></div>"
        "</body></html>")
    draft, _ = import_paper(html, "html-paper")
    (lem,) = draft.results
    assert lem.id == "html-paper:lem-1"
    assert lem.statement[0].eq == "3" and lem.statement[0].kind == "ALGEBRA"
    assert [h.latex for h in lem.hypotheses] == ["a>1"]


def test_unparsed_formulas_are_counted_and_shown(tmp_path, capsys):
    md = tmp_path / "bad.md"
    md.write_text("**Theorem 1.** *We have*\n\n$$x \\leq \\frac{1}{ \\quad (1)$$\n\n"
                  "$$y = \\begin{cases} 1 & y > 0 \\\\ 0 & \\text{else} \\end{cases} \\quad (2)$$\n\n"
                  "$$z \\sim \\mathcal{N}(0, 1) \\quad (3)$$\n")
    draft, text = import_paper(md, "bad")
    assert draft.stats.relations == 3
    assert draft.stats.unparsed == 3 and len(draft.stats.failures) == 3
    assert text.count("# TODO(unparsed)") == 3 + 2       # each row, each side that failed
    out = tmp_path / "bad.py"
    out.write_text(text)
    code, lint_out, err = _run(capsys, "lint", out)
    assert code == 0, lint_out + err
    assert "TODO(unparsed)" in lint_out
    data = _verify(capsys, out)
    verdicts = {s["id"]: s["verdict"] for r in data["results"] for s in r["steps"]}
    for part in ("part-1", "part-2", "part-3"):
        assert verdicts[f"bad:thm-1/{part}"] == "UNCHECKED"
    mod = _load(out)
    notes = [s.note for s in mod.RESULTS[0].statement]
    assert any("\\frac{1}{" in n for n in notes)           # the row carries its LaTeX


def test_standins_make_rows_probabilistic_not_algebra():
    table = SymbolTable()
    conv = Converter(table)
    for latex, what in ((r"\mathbb{E}[\|\nabla f(x_k)\|^2]", "expectation"),
                        (r"\Pr[x \geq a]", "probability"),
                        (r"D_\alpha(P \| Q)", "divergence")):
        p = conv.side(latex)
        assert p.ok, p.error
        (name,) = p.standins
        assert table.symbols[name].standin.what == what
        assert table.is_probabilistic(name)
    p = conv.side(r"\frac{2\alpha C^{2}}{\beta nb\sigma_{\text{DP}}^{2}}")
    assert p.ok and not p.standins
    assert {s.name for s in p.expr.free_symbols} == {"alpha", "C", "beta", "n", "b", "sigma_DP"}
    assert conv.side(r"\mathcal{O}\left(\frac{1}{T}\right)").expr.free_symbols >= {
        next(s for s in conv.side(r"\mathcal{O}(x)").expr.free_symbols if s.name == "c_O")}


def test_cli_errors_are_one_line(tmp_path, capsys):
    code, _, err = _run(capsys, "import", tmp_path / "missing.tex")
    assert code == 2 and err.count("\n") == 1 and "does not exist" in err
    code, _, err = _run(capsys, "import", SMALL, "--key", "Bad_Key")
    assert code == 2 and "--key must match" in err
    (tmp_path / "x.py").write_text("")
    code, _, err = _run(capsys, "import", SMALL, "--out", tmp_path / "x.py")
    assert code == 2 and "already exists" in err
    plain = tmp_path / "notes.txt"
    plain.write_text("no formulas here\n")
    code, _, err = _run(capsys, "import", plain)
    assert code == 2 and "holds no LaTeX" in err
    assert default_key("liang_icml.tar.gz") == "liang-icml"


def test_lint_lists_todo_markers(tmp_path, capsys):
    f = tmp_path / "p.py"
    _, text = import_paper(SMALL, "todo-paper")
    f.write_text(text)
    marks = todo_markers(f)
    assert {m[1] for m in marks} == {"dimension", "guess"}
    code, out, _ = _run(capsys, "lint", f)
    assert code == 0 and f"{len(marks)} TODO markers" in out


# ----------------------------------------------------------------------------- seeds
SEED_KEYS = ("liang-icml", "liang-aaai", "holder", "nsgd")


@pytest.mark.slow
@pytest.mark.parametrize("key", SEED_KEYS)
def test_seed_imports_lints_and_verifies(key, tmp_path, capsys):
    out = tmp_path / f"{key.replace('-', '_')}_imported.py"
    code, _, err = _run(capsys, "import", SEEDS / f"{key}.txt", "--key", f"{key}-imported",
                        "--out", out)
    assert code == 0, err
    code, lint_out, err = _run(capsys, "lint", out)
    assert code == 0, lint_out + err
    mod = _load(out)
    some = [r.id for r in mod.RESULTS if r.kind in ("lem", "thm")][:4]
    code, vout, err = _run(capsys, "verify", *some, out, "--format", "json", "--no-cache",
                           "--no-progress", "--budget", "200")
    assert code == 0, err


#: the recall floor the importer reaches on the four seeds (benchmarks/bench_import.py)
RECALL_FLOOR = 0.10   # measured: 15 % icml, 16 % aaai, 11 % holder (goal 60 %: not reached)


@pytest.mark.slow
def test_round_trip_recall_against_hand_encodings(tmp_path):
    from checks.importer.roundtrip import compare
    matched = rows = 0
    for key in SEED_KEYS:
        _, text = import_paper(SEEDS / f"{key}.txt", f"{key}-imported")
        f = tmp_path / f"{key.replace('-', '_')}_rt.py"
        f.write_text(text)
        rec = compare(_load(f).RESULTS, registry.results_of(key))
        print(f"{key}: {rec.matched}/{rec.rows} = {100 * rec.recall:.0f}%")
        matched += rec.matched
        rows += rec.rows
    assert rows > 150
    assert matched / rows >= RECALL_FLOOR

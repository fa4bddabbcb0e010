"""``dpcheck import`` (issue 36): a paper's LaTeX to a draft that lints and verifies.

Fast tests use a small hand-written paper (tests/data/import/small.tex: a lemma with a
three-line proof, an aligned chain with one wrong constant, \\newcommand macros, \\label),
a Markdown and an HTML rendering; the four seed renderings (tests/data/seeds/) are
imported, linted, verified whole and compared with their hand encodings behind
``@pytest.mark.slow`` (a few seconds each to import, seconds more to verify).
"""
from __future__ import annotations

import importlib.util
import json
import tarfile
from pathlib import Path

import pytest
import sympy as sp

from checks.cli import main
from checks.importer import default_key, import_paper, todo_markers
from checks.importer.formulas import Converter
from checks.importer.symbols import SymbolTable
from theory import registry
from theory.model import walk_steps

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


def _imported(src: Path, key: str, out: Path):
    """``src`` imported as paper ``key``, its draft written to ``out`` and loaded:
    (draft, module)."""
    draft, text = import_paper(src, key)
    out.write_text(text)
    return draft, _load(out)


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
    assert steps["small-tex:thm-2/part-1"]["verdict"] == "PROVED"
    wrong = steps["small-tex:thm-2/part-2"]
    assert wrong["verdict"] == "REFUTED"
    assert wrong["eq"] == "6"
    assert set(wrong["counterexample"]) >= {"alpha", "sigma_DP"}
    refuted = [sid for sid, s in steps.items() if s["verdict"] == "REFUTED"]
    assert refuted == ["small-tex:thm-2/part-2"]


def test_small_paper_structure_and_symbols():
    draft, text = import_paper(SMALL, "small-tex")
    lem, thm = draft.results
    assert lem.id == "small-tex:lem-1" and lem.title == "A three-line bound"
    assert lem.where == "Bounds, Lemma 1"
    # \newtheorem{theorem}[lemma]: the lemma's counter, so LaTeX prints "Theorem 2"
    assert thm.id == "small-tex:thm-2"
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


# ----------------------------------------------------------------------------- formulas
def test_canonical_latex_is_one_form_per_printed_quantity():
    from checks.importer.latex import canonical
    same = [(r"\|\boldsymbol{\theta}_{t}-\boldsymbol{\theta}^{*}\|_{2}", r"\|\theta_t-\theta^*\|"),
            ((r"\mathcal{D}^{(z_{t})}_{\alpha}(\mathbb{P}_{\boldsymbol{\theta}_{t}}||"
              r"\mathbb{P}_{\boldsymbol{\theta}_{t}^{\prime}})"),
             r"\mathcal D_\alpha^{(z_t)}(\mathbb P_{\theta_t}\|\mathbb P_{\theta'_t})"),
            (r"\mathbb{E}_{k}[\|\boldsymbol{x}_{k+1}-\boldsymbol{x}_{k}\|^{2}]",
             r"\mathbb E_k\|x_{k+1}-x_k\|^2"),
            (r"l(\boldsymbol{\theta}^{*})", r"l^*"),
            (r"\sigma_{\text{DP}}", r"\sigma_{\mathrm{DP}}"),
            (r"[g_{\xi}(\boldsymbol{\theta}_{t})]^{T}(\boldsymbol{\theta}_{t}-\boldsymbol{\theta}^{*})",
             r"g_\xi(\theta_t)^\top(\theta_t-\theta^*)"),
            (r"\frac{b}{n}", r"\tfrac bn")]
    for a, b in same:
        assert canonical(a) == canonical(b), (a, b)
    for a, b in [(r"\mathcal{D}", "D"), (r"\theta_t", r"\theta_{t+1}"), (r"\|x\|_1", r"\|x\|"),
                 (r"[a+b]^{T}(c)", r"a+b^{T}(c)"), (r"f(\theta_t)", "f^*")]:
        assert canonical(a) != canonical(b), (a, b)


def test_factors_parse_as_templates_once():
    from checks.importer.formulas import _parse_template
    conv = Converter(SymbolTable())
    _parse_template.cache_clear()
    p = conv.side(r"\frac{\alpha}{2\beta} + \frac{7}{1.34n} + \frac{C}{\eta}")
    assert p.ok, p.error
    names = {s.name: s for s in p.expr.free_symbols}
    a, beta, n, C, eta = (names[k] for k in ("alpha", "beta", "n", "C", "eta"))
    assert sp.simplify(p.expr - (a / (2 * beta) + sp.Rational(350, 67) / n + C / eta)) == 0
    # \frac{v}{v}: one template for the three fractions; a product and the decimal's
    # factor are the others
    assert _parse_template.cache_info().misses <= 3
    assert _parse_template.cache_info().hits >= 1


def test_sums_keep_their_constants_outside():
    table = SymbolTable()
    conv = Converter(table)
    p = conv.side(r"\sum_{t=0}^{T-1}\frac{\alpha a_{t}^{2}}{2\eta^{2}}"
                  r"+\sum_{t=\tau}^{T-1}\frac{2\alpha C^{2}}{\beta nb}")
    assert p.ok, p.error
    (stand,) = p.standins
    assert table.symbols[stand].latex == r"\sum_{t=0}^{T-1} a_{t}^{2}"
    s = {x.name: x for x in p.expr.free_symbols}
    want = (s["alpha"] * s[stand] / (2 * s["eta"] ** 2)
            + 2 * s["alpha"] * s["C"] ** 2 * (s["T"] - s["tau"]) / (s["beta"] * s["n"] * s["b"]))
    assert sp.simplify(p.expr - want) == 0


def test_inner_products_are_linear_and_transposes_need_a_vector():
    table = SymbolTable()
    conv = Converter(table)
    long = conv.side(r"-2\eta[g(\mathbf{x}) - \gamma\nabla f(\mathbf{x}) + \gamma\nabla f(\mathbf{x})]"
                     r"^{T}(\mathbf{x}-\mathbf{y})")
    short = conv.side(r"-2\eta[g(\mathbf{x})]^{T}(\mathbf{x}-\mathbf{y})")
    assert long.ok and short.ok and long.expr == short.expr
    (ip,) = short.standins
    assert table.symbols[ip].standin.what == "inner product"
    power = conv.side(r"(1+\eta L)^{T}(a+b)")          # T iterations, not a transpose
    assert power.ok and not power.standins
    assert any(isinstance(f, sp.Pow) for f in sp.Mul.make_args(power.expr))


def test_excess_over_a_minimiser_is_one_nonnegative_guess():
    table = SymbolTable()
    conv = Converter(table)
    p = conv.side(r"\frac{\eta}{2}\sqrt{l(\mathbf{w}_{t})-l(\mathbf{w}^{*})} + l(\mathbf{w}_{t})")
    assert p.ok, p.error
    table.finalize()
    excess = [n for n in p.standins if table.symbols[n].standin.what == "excess"]
    assert len(excess) == 1
    info = table.symbols[excess[0]]
    assert info.assumptions == {"nonnegative": True} and "minimum of l" in info.guesses[0]
    # l(w_t) alone stays itself: only a difference with l(w*) is an excess
    assert any(table.symbols[n].standin.what == "function value" for n in p.standins)


def test_rendering_rows_numbers_and_headings(tmp_path):
    md = tmp_path / "r.md"
    md.write_text("**Lemma 1.** *For $a, b > 0$:*\n\n"
                  "$$a + b \\leq 2\\max(a, b), \\\\\n"
                  "\\min(a, b) \\leq a + b.$$\n\n$$\\tag{7}$$\n\nA figure caption.\n"
                  "**Lemma 2.**\n\n$$a^{2} \\geq 0$$\n(8)\n")
    draft, _ = import_paper(md, "r")
    lem1, lem2 = draft.results
    assert lem2.id == "r:lem-2" and lem2.statement[0].eq == "8"
    # two relations on two rows ending with "," are two statements, not one chain
    assert [(st.eq, st.rel) for st in lem1.statement] == [("7", "<="), ("7", "<=")]
    assert lem1.statement[0].rhs.ok and lem1.statement[1].lhs.ok


def test_latexml_cells_end_where_the_visible_or_spoken_form_starts():
    from checks.importer.renderings import _latexml_display_line
    spoken = ("ψ(𝝁)𝝁(1+ηL)z,norm𝜓𝝁𝜂𝐿𝑧\\|\\psi(\\boldsymbol{\\mu})\\|\\leq(1+\\eta L)z,"
              "∥ italic_ψ ( bold_italic_μ ) ∥ ≤ ( 1 + italic_η italic_L ) italic_z , (37)")
    assert _latexml_display_line(spoken) == (
        "\\|\\psi(\\boldsymbol{\\mu})\\|\\leq(1+\\eta L)z,", "37")
    cells = ("2η[g]T(x)2𝜂\\displaystyle-2\\eta[g]^{T}(x)- 2 italic_η [ italic_g ] =2η[g]2𝜂"
             "\\displaystyle=-2\\eta[g]^{T}(x)= - 2 italic_η [ italic_g ] (51)")
    latex, number = _latexml_display_line(cells)
    assert number == "51" and latex.split() == ["-2\\eta[g]^{T}(x)", "=-2\\eta[g]^{T}(x)"]
    visible = ("𝒟α2αC2β\\displaystyle\\mathcal{D}_{\\alpha}\\displaystyle\\leq 𝒟α(z)+2αC2β."
               "\\displaystyle\\mathcal{D}_{\\alpha}^{(z)}+\\frac{2\\alpha C^{2}}{\\beta}.")
    latex, _ = _latexml_display_line(visible)
    assert "𝒟" not in latex and latex.split()[1] == "\\leq"


def test_round_trip_maps_declared_meanings_and_no_vacuous_identity(tmp_path):
    from checks.importer.roundtrip import compare
    from theory.model import Result, Step
    from theory.quantities import DIMLESS, table
    hand = table("rt-hand", "a hand encoding")
    dist = hand.quantity("dist", DIMLESS, "‖θ_t − θ*‖", r"\|\theta_t-\theta^*\|", nonnegative=True)
    gap = hand.quantity("gap", DIMLESS, "l(θ_t) − l*", r"l(\theta_t)-l^*", nonnegative=True)
    eta = hand.quantity("eta", DIMLESS, "step size", r"\eta", positive=True)
    x = hand.quantity("x", DIMLESS, "x", "x", positive=True)
    rows = [Step("a", 2 * eta * dist, "<=", sp.sqrt(gap), eq="3"),    # printed (3)
            Step("b", 3 * eta * dist, "<=", sp.sqrt(gap), eq="4"),    # (4) prints 2 eta
            Step("c", x + x, "=", 2 * x, eq="5")]                     # an identity: x + x = 2x
    hand_results = [Result("rt-hand:lem-1", "", "", statement=tuple(rows))]
    md = tmp_path / "rt.md"
    md.write_text("**Lemma 1.** *We have*\n\n"
                  "$$2\\eta\\|\\boldsymbol{\\theta}_{t}-\\boldsymbol{\\theta}^{*}\\| \\leq "
                  "\\sqrt{l(\\boldsymbol{\\theta}_{t})-l(\\boldsymbol{\\theta}^{*})} \\tag{3}$$\n\n"
                  "$$2\\eta\\|\\boldsymbol{\\theta}_{t}-\\boldsymbol{\\theta}^{*}\\| \\leq "
                  "\\sqrt{l(\\boldsymbol{\\theta}_{t})-l(\\boldsymbol{\\theta}^{*})} \\tag{4}$$\n\n"
                  "$$y + y = 2y \\tag{5}$$\n")
    draft, mod = _imported(md, "rt-imported", tmp_path / "rt_imported.py")
    rec = compare(mod.RESULTS, hand_results, draft.table, hand.declared())
    assert rec.rows == 3 and rec.matched == 1
    assert rec.matches == [("rt-hand:lem-1/a", "rt-imported:lem-1/part-1")]
    assert "dist" in rec.mapped and "gap" in rec.mapped
    # by name only (no table), the encoder's stand-ins match nothing
    assert compare(mod.RESULTS, hand_results).matched == 0


def test_round_trip_reads_shorthands_chains_and_definitions(tmp_path):
    """A hand row matches by the gist of a stand-in's declared LaTeX (a range left out),
    as the composite of a printed chain, and under the definitions in force on both
    sides; never by a weaker composite or a shorthand two printed quantities share."""
    from checks.importer.roundtrip import compare
    from theory.model import Result, Step, asm
    from theory.quantities import DIMLESS, T, table
    hand = table("rt2-hand", "a hand encoding")
    avg = hand.quantity("avg", DIMLESS, "average", r"\frac1{T+1}\sum_t\mathbb E[x_t]")
    a = hand.quantity("a", DIMLESS, "a", "a", positive=True)
    c = hand.quantity("c", DIMLESS, "c", "c", positive=True)
    k = hand.quantity("k", DIMLESS, "k", "k", positive=True)
    g = hand.quantity("gval", DIMLESS, "g(a)", "g(a)")
    gn = hand.quantity("gn", DIMLESS, "‖∇f‖", r"\|\nabla f\|", nonnegative=True)
    rows = [Step("avg", avg, "<=", 1 / T, eq="1"),               # \sum_t for \sum_{t=0}^{T}
            Step("ends", a, "<=", 3 * c, eq="2"),                # a <= 2c = ... <= 3c collapsed
            Step("strict", a, "<", 3 * c, eq="2"),               # the chain is not strict
            Step("def", a ** 2 + 1, "=", a ** 2 + 1, eq="3"),     # g(a) := a^2 + 1, substituted
            Step("k", k, "<=", c, eq="4", given=(asm(sp.Eq(k, a + 1), "k = a + 1"),)),
            Step("gn", gn, "<=", c, eq="5")]                     # two printed ‖∇f(·)‖: no map
    hand_results = [Result("rt2-hand:lem-1", "", "", statement=tuple(rows))]
    md = tmp_path / "rt2.md"
    md.write_text("**Lemma 1.** *We have*\n\n"
                  "$$\\frac{1}{T+1}\\sum_{t=0}^{T}\\mathbb{E}[x_{t}] \\leq \\frac{1}{T} \\tag{1}$$\n\n"
                  "$$a \\leq 2c = c + c \\leq 3c \\tag{2}$$\n\nDefine\n\n"
                  "$$g(a) = a^{2} + 1 \\tag{3}$$\n\n"
                  "$$a + 1 \\leq c \\tag{4}$$\n\n"
                  "$$\\|\\nabla f(x_{k})\\| \\leq c \\tag{5}$$\n\n"
                  "$$\\|\\nabla f(y)\\| \\leq 2c \\tag{6}$$\n")
    draft, mod = _imported(md, "rt2-imported", tmp_path / "rt2_imported.py")
    # "Define" before (3): g(a) is defined; (3) is a display outside the lemma
    assert [str(h.expr) for r in mod.RESULTS for h in r.hypotheses] == ["Eq(g_of_a, a**2 + 1)"]
    rec = compare(mod.RESULTS, hand_results, draft.table, hand.declared())
    got = {h.rsplit("/", 1)[1]: imp.split(":", 1)[1] for h, imp in rec.matches}
    assert got == {"avg": "lem-1/part-1", "ends": "lem-1/part-2 .. part-4",
                   "def": "eq-3/statement", "k": "eq-4/statement"}, got
    assert rec.ways == {"printed": 1, "chain": 1, "definitions": 2}


def test_gist_reads_a_shorthand_and_no_more():
    from checks.importer.latex import canonical, gist
    same = [(r"\sum_t\mathbb E\sqrt{l(\theta_t)-l^*}",
             r"\sum_{t=0}^{T}\mathbb{E}[\sqrt{l(\boldsymbol{\theta}_t)-l(\boldsymbol{\theta}^*)}]"),
            (r"\min_t\mathbb E\sqrt{l(\theta_t)-l^*}",
             r"\min_{t\in[0,T]}\mathbb{E}[\sqrt{l(\theta_t)-l(\theta^*)}]"),
            (r"\sum_{\xi\in\mathcal B_t}g_\xi^\top(\theta_t-\theta^*)",
             r"\sum_{\xi\in\mathcal{B}_t} [g_\xi(\boldsymbol{\theta}_t)]^{T}(\boldsymbol{\theta}_t-\boldsymbol{\theta}^*)"),
            (r"\mathbb E_\xi\|\nabla l_\xi\|",
             r"\mathbb{E}_\xi[\|\nabla l_\xi(\theta_t)-\nabla l(\theta_t)+\nabla l(\theta_t)\|]")]
    for a, b in same:
        assert canonical(a) != canonical(b) and gist(a) == gist(b), (a, b)
    for a, b in [(r"\sum_t x_t", r"\prod_t x_t"), (r"\|a-b\|", r"\|a+b\|"),
                 (r"g(\theta_t+1)", "g"), (r"\mathbb E_\xi[x]", r"\mathbb E_\zeta[x]")]:
        assert gist(a) != gist(b), (a, b)


def test_abbreviation_leaves_out_indices_and_nothing_else():
    from checks.importer.latex import abbreviates
    full = (r"\mathbb{E}_{k}\left\|\sum_{i\in\mathcal{S}_{k}}h_{k}^{(i)}"
            r"\boldsymbol{g}_{k}^{(i)}\right\|^{2}")
    assert abbreviates(r"\mathbb E_k\|\sum h g\|^2", full)
    assert abbreviates(r"\mathbb E_k\|\sum_{i} h_k g_k\|^2", full)
    assert abbreviates(r"\|g\|", r"\|g_{t}\|") and abbreviates(r"h^2", r"h_k^2")
    for short, longer in [(r"\mathbb E_k\|\sum h g\|^2", r"\mathbb{E}_{k}\|h_{k}g_{k}\|^{2}"),
                          (r"\|g_t\|", r"\|g_k\|"),            # an index printed differently
                          (r"h", r"h^{2}"),                    # a power is no index
                          (r"\mathbb E[x]", r"\mathbb E_{\xi}[x]"),   # what E averages over
                          (r"\Pr[x]", r"\Pr_{\xi}[x]"),
                          (r"\mathcal D(P)", r"\mathcal{D}_{\alpha}(P)"),  # a parameter
                          (r"\sigma", r"\sigma_{\text{DP}}"), (r"x", r"x_{0}"),
                          (r"\mathbb E_k\|\sum h g\|^2", full + "+1")]:
        assert not abbreviates(short, longer), (short, longer)


def test_round_trip_reads_a_declared_meaning_without_its_indices(tmp_path):
    """E_k‖Σ h g‖² declared for the printed E_k‖Σ_{i∈S_k} h_k^{(i)} g_k^{(i)}‖² is mapped —
    but not where two printed quantities read so."""
    from checks.importer.roundtrip import compare
    from theory.model import Result, Step
    from theory.quantities import DIMLESS, table
    hand = table("rt3-hand", "a hand encoding")
    esum = hand.quantity("esum", DIMLESS, "E_k‖Σ h g‖²", r"\mathbb E_k\|\sum h g\|^2")
    eta = hand.quantity("eta", DIMLESS, "η", r"\eta", positive=True)
    rows = [Step("one", esum, "<=", eta, eq="1")]
    hand_results = [Result("rt3-hand:lem-1", "", "", statement=tuple(rows))]
    one = (r"\mathbb{E}_{k}\left\|\sum_{i\in\mathcal{S}_{k}}h_{k}^{(i)}g_{k}^{(i)}\right\|^{2}"
           r" \leq \eta \tag{1}")
    two = (r"\mathbb{E}_{k}\left\|\sum_{j\in\mathcal{B}_{k}}h_{k}^{(j)}g_{k}^{(j)}\right\|^{2}"
           r" \leq 2\eta \tag{2}")
    for body, found in (([one], 1), ([one, two], 0)):
        md = tmp_path / f"rt3_{found}.md"
        md.write_text("**Lemma 1.** *We have*\n\n" + "\n\n".join(f"$${b}$$" for b in body) + "\n")
        draft, mod = _imported(md, "rt3-imported", tmp_path / f"rt3_imported_{found}.py")
        rec = compare(mod.RESULTS, hand_results, draft.table, hand.declared())
        assert rec.matched == found, (body, rec.unmatched)


def test_stacked_relations_and_plus_minus_definitions():
    from checks.importer.draft import _prose_definitions
    from checks.importer.latex import Row, relations
    rels = relations([Row(r"\psi(x)\stackrel{{\scriptstyle\Delta}}{{=}}y+1"
                          r"\stackrel{(a)}{\leq}y+2\overset{\text{def}}{=}z")])
    assert [(r.rel, r.scalar) for r in rels] == [(":=", True), ("<=", True), (":=", True)]
    assert [r.rel for r in relations([Row(r"a\stackrel{x}{\sim}b")])] == ["\\stackrel"]
    conv = Converter(SymbolTable())
    defs = list(_prose_definitions(
        r"the roots, where $\beta_{1,2}=\frac{1}{2}(a\mp\sqrt{a^{2}-4c})$ and so on", conv))
    got = {str(e.lhs): e.rhs for e, _ in defs}
    a, c = sp.Symbol("a", real=True), sp.Symbol("c", real=True)
    assert set(got) == {"beta_1", "beta_2"}
    assert sp.simplify(got["beta_1"] - (a - sp.sqrt(a ** 2 - 4 * c)) / 2) == 0
    assert sp.simplify(got["beta_2"] - (a + sp.sqrt(a ** 2 - 4 * c)) / 2) == 0
    # prose read into a formula is no definition; nor is a relation that is not "="
    assert not list(_prose_definitions(r"where $\delta'=\delta/2 implies Algorithm$", conv))
    assert not list(_prose_definitions(r"where $x\leq 2$", conv))


def test_expectations_are_linear_in_what_they_do_not_average():
    table = SymbolTable()
    conv = Converter(table)
    p = conv.side(r"\mathbb{E}_{\xi}[2\eta\|\nabla l_{\xi}(\theta_{t})-\nabla l(\theta_{t})\|"
                  r"\cdot\|\theta_{t}-\theta^{*}\|]")
    assert p.ok, p.error
    s = {x.name: x for x in p.expr.free_symbols}
    (e,) = [n for n in s if table.symbols[n].standin and table.symbols[n].standin.what ==
            "expectation"]
    assert p.expr == 2 * s["eta"] * s["norm_theta_t"] * s[e]
    assert "theta^{*}" not in table.symbols[e].latex
    # the constants of an inner product's first argument leave with its linearity
    q = conv.side(r"\mathbb{E}_{\xi}[-2\eta[g_{\xi}(\theta_t)-\gamma\nabla l(\theta_t)"
                  r"+\gamma\nabla l(\theta_t)]^{T}(\theta_{t}-\theta^{*})]")
    assert q.ok and len(q.standins) == 1 and sp.Symbol("eta", real=True) in q.expr.free_symbols
    # a term that does not print the variable, beside one that does, leaves it whole:
    # E_ξ[(g_ξ − γ∇l)ᵀ(θ_t − θ*)] = E_ξ[g_ξᵀ(θ_t − θ*)] − γ∇lᵀ(θ_t − θ*)
    r = conv.side(r"\mathbb{E}_{\xi}[2\eta[g_{\xi}(\theta_t)-\gamma\nabla l(\theta_t)]^{T}"
                  r"(\theta_{t}-\theta^{*})]")
    assert r.ok, r.error
    s = {x.name: x for x in r.expr.free_symbols}
    kinds = {n: table.symbols[n].standin.what for n in s if table.symbols[n].standin}
    (e,) = [n for n, w in kinds.items() if w == "expectation"]
    (ip,) = [n for n, w in kinds.items() if w != "expectation"]
    assert r"\xi" in table.symbols[e].latex and r"\xi" not in table.symbols[ip].latex
    assert sp.expand(r.expr - 2 * s["eta"] * (s[e] - s["gamma"] * s[ip])) == 0
    # nothing names ζ_t: θ_{t+1} may depend on it, the expectation stays whole; an
    # expectation that names no variable keeps its symbols; what was read inside a
    # whole one is not left in the table
    before = set(table.symbols)
    for latex in (r"\mathbb{E}_{\zeta_t}[\|\theta_{t+1}-\theta^{*}\|^{2}]",
                  r"\mathbb{E}[\eta^{2}\|g(\theta_{t})\|^{2}]"):
        r = conv.side(latex)
        assert r.ok and len(r.expr.free_symbols) == 1, r.expr
        assert canonical_of(table, r.expr) == latex
    assert len(set(table.symbols) - before) == 2


def canonical_of(table, expr):
    (x,) = expr.free_symbols
    return table.symbols[x.name].latex


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
    assert "TODO markers" in lint_out
    mod = _load(out)
    code, _, err = _run(capsys, "verify", out, "--format", "json", "--no-cache", "--no-progress",
                        "--budget", "200", "--out", tmp_path / "v.json")
    assert code == 0, err
    data = json.loads((tmp_path / "v.json").read_text())
    assert {r["id"] for r in data["results"]} == {r.id for r in mod.RESULTS}
    verdicts = [s["verdict"] for r in data["results"] for s in r["steps"]]
    assert verdicts and "PROVED" in verdicts
    # every row the importer could not read is there with its LaTeX, and judged by no
    # one: UNCHECKED (DEFINED where it states an assumption or a definition)
    by_id = {s["id"]: s["verdict"] for r in data["results"] for s in r["steps"]}
    unread = [loc.id for r in mod.RESULTS for loc in walk_steps(r)
              if loc.step.note.startswith("not checked:")]
    assert unread and all(by_id[i] in ("UNCHECKED", "DEFINED") for i in unread)


#: what the round trip reaches on each seed (benchmarks/bench_import.py): hand-encoded
#: numbered ALGEBRA/SCALAR rows matched by an imported step with the same number and the
#: same relation (as printed, under the definitions in force, or as a printed chain's
#: composite).  The goal was 60 % overall; 106/184 = 58 % is reached (the misses are
#: listed by cause in the README's "Import a paper": rows the encoders derived rather than
#: printed, O(·)s given a constant, typos read as meant, stand-ins declared in a
#: shorthand the print does not support)
RECALL = {"liang-icml": (44, 61), "liang-aaai": (48, 75), "holder": (8, 18), "nsgd": (6, 30)}


@pytest.mark.slow
def test_round_trip_recall_against_hand_encodings(tmp_path):
    from checks.importer.roundtrip import compare
    for key in SEED_KEYS:
        draft, mod = _imported(SEEDS / f"{key}.txt", f"{key}-imported",
                               tmp_path / f"{key.replace('-', '_')}_rt.py")
        rec = compare(mod.RESULTS, registry.results_of(key), draft.table,
                      registry.symbols_of(key).declared())
        print(f"{key}: {rec.matched}/{rec.rows} = {100 * rec.recall:.0f}%")
        assert rec.rows == RECALL[key][1] and rec.matched >= RECALL[key][0], key

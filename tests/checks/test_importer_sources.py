"""Reading SOURCE (:mod:`checks.importer.sources`): each form to its reader (a .tex file, a
folder, a .tar.gz whose members may not escape, an HTML page rewritten as Markdown with
``$…$`` math and ``\\tag`` numbers, Markdown), and every unreadable SOURCE refused with one
line naming it."""
from __future__ import annotations

import io
import tarfile

import pytest

from checks.importer import sources
from checks.importer.document import Begin, Display, Heading
from checks.importer.sources import SourceError, html_to_markdown, read

TEX = ("\\documentclass{article}\\begin{document}\\section{S}"
       "\\begin{lemma}Let $x>0$.\\begin{equation}x+x=2x\\end{equation}\\end{lemma}"
       "\\end{document}\n")


def _one_line(exc):
    msg = str(exc.value)
    assert "\n" not in msg
    return msg


def _shape(doc):
    return [(type(b).__name__, getattr(b, "env", None)) for b in doc.blocks
            if isinstance(b, (Begin, Display, Heading))]


def test_a_tex_file_is_read_as_latex(tmp_path):
    p = tmp_path / "paper.tex"
    p.write_text(TEX, encoding="utf-8")
    doc = read(p)
    assert doc.fmt == "latex" and doc.source == str(p)
    assert _shape(doc) == [("Heading", None), ("Begin", "lemma"), ("Display", None)]


def test_latex_without_the_tex_suffix_is_still_latex(tmp_path):
    p = tmp_path / "paper.txt"
    p.write_text(TEX, encoding="utf-8")
    assert read(p).fmt == "latex"


def test_a_folder_and_an_archive_read_their_main_file(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "main.tex").write_text(TEX, encoding="utf-8")
    (src / "notes.tex").write_text("scratch", encoding="utf-8")
    assert _shape(read(src))[1] == ("Begin", "lemma")
    archive = tmp_path / "paper.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(src / "main.tex", arcname="main.tex")
    assert _shape(read(archive)) == _shape(read(src))


def test_archive_members_that_would_escape_are_not_extracted(tmp_path):
    archive = tmp_path / "evil.tar"
    with tarfile.open(archive, "w") as tar:
        for name, data in (("main.tex", TEX), ("../escaped.tex", "x"), ("/abs.tex", "y")):
            info = tarfile.TarInfo(name)
            info.size = len(data.encode())
            tar.addfile(info, io.BytesIO(data.encode()))
    assert _shape(read(archive))[1] == ("Begin", "lemma")
    assert not (tmp_path / "escaped.tex").exists()


def test_html_becomes_markdown_with_math_and_equation_tags():
    page = ("<html><body><h2 class='ltx_title'>1 Intro</h2><p>Let <math alttext='a&gt;1' "
            "display='inline'></math> &amp; go.</p><table class='ltx_equation'><tr><td>"
            "<math alttext='a^{2}\\geq a' display='block'></math></td><td><span "
            "class='ltx_tag ltx_tag_equation'>(3)</span></td></tr></table>"
            "<script>var hidden = 1;</script></body></html>")
    md = html_to_markdown(page)
    lines = [x for x in md.splitlines() if x]
    assert lines == ["## 1 Intro", "Let $a>1$ & go.", "$$a^{2}\\geq a \\tag{3}$$"]


def test_an_html_file_is_read_through_its_markdown(tmp_path):
    p = tmp_path / "page.html"
    p.write_text("<html><body><h2>1 Intro</h2><div class='ltx_theorem'><h6 class='ltx_title "
                 "ltx_runin'>Lemma 1.</h6><p>Then</p><table><tr><td><math alttext='b\\leq c' "
                 "display='block'></math></td><td><span class='ltx_tag ltx_tag_equation'>"
                 "(2)</span></td></tr></table></div></body></html>", encoding="utf-8")
    doc = read(p)
    disp = [b for b in doc.blocks if isinstance(b, Display)]
    assert [d.numbers for d in disp] == [["2"]]
    assert [(b.env, b.number) for b in doc.blocks if isinstance(b, Begin)] == [("lemma", "1")]


def test_a_missing_source_is_one_line(tmp_path):
    with pytest.raises(SourceError) as exc:
        read(tmp_path / "nope.tex")
    assert _one_line(exc) == f"SOURCE {str(tmp_path / 'nope.tex')!r} does not exist"


def test_plain_prose_is_not_a_source(tmp_path):
    p = tmp_path / "notes.txt"
    p.write_text("Just some words, no mathematics here at all.\n", encoding="utf-8")
    with pytest.raises(SourceError) as exc:
        read(p)
    assert _one_line(exc).startswith(f"SOURCE {str(p)!r} holds no LaTeX this importer reads")


def test_a_folder_without_latex_is_one_line(tmp_path):
    (tmp_path / "a.tex").write_text("x", encoding="utf-8")
    (tmp_path / "b.tex").write_text("y", encoding="utf-8")
    with pytest.raises(SourceError) as exc:
        read(tmp_path)
    assert _one_line(exc).endswith("no .tex file with \\documentclass")


@pytest.mark.parametrize("data", [b"\x1f\x8b\x08 not really gzip",     # no format fits
                                  b"\x1f\x8b\x08 cut"])                   # a cut download
def test_a_damaged_archive_is_one_line(tmp_path, data):
    p = tmp_path / "broken.tar.gz"
    p.write_bytes(data)
    with pytest.raises(SourceError) as exc:
        read(p)
    assert _one_line(exc).startswith(f"cannot read {str(p)!r}: ")


def test_a_source_over_the_size_limit_is_refused(tmp_path, monkeypatch):
    p = tmp_path / "big.tex"
    p.write_text(TEX, encoding="utf-8")
    monkeypatch.setattr(sources, "MAX_BYTES", 2 ** 20 // 2 ** 20 * 10)    # 10 bytes
    with pytest.raises(SourceError) as exc:
        read(p)
    assert "is larger than" in _one_line(exc)
    assert issubclass(SourceError, ValueError)

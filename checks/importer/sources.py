"""SOURCE, whatever its form, as a :class:`~checks.importer.document.Document`.

* a ``.tex`` file (``\\input``/``\\include`` followed) — :mod:`checks.importer.tex`;
* a folder or a ``.tar.gz``/``.tgz``/``.tar`` of an arXiv source — its main ``.tex``;
* an arXiv HTML page (LaTeXML) — each ``<math>``'s ``alttext`` is its LaTeX, equation
  numbers come from the ``ltx_tag_equation`` cells, theorem and proof blocks from their
  classes; the page is rewritten as Markdown with ``$…$`` math and read as such;
* a Markdown file or a text rendering that keeps LaTeX — :mod:`checks.importer.renderings`.
"""
from __future__ import annotations

import html
import re
import tarfile
import tempfile
import zlib
from html.parser import HTMLParser
from pathlib import Path

from checks.importer.document import Document
from checks.importer.renderings import looks_like_latexml, looks_like_markdown, read_rendering
from checks.importer.tex import TexError, main_file, read_tex, read_tex_file

MAX_BYTES = 50 * 2**20


class SourceError(ValueError):
    """SOURCE cannot be read (one line: what and why)."""


def read(source: str | Path) -> Document:
    path = Path(source)
    if not path.exists():
        raise SourceError(f"SOURCE {str(source)!r} does not exist")
    try:
        if path.is_dir():
            main = main_file(path)
            return read_tex(read_tex_file(main), str(source))
        name = path.name.lower()
        if path.stat().st_size > MAX_BYTES:
            raise SourceError(f"SOURCE {str(source)!r} is larger than {MAX_BYTES // 2**20} MiB")
        if name.endswith((".tar.gz", ".tgz", ".tar")):
            with tempfile.TemporaryDirectory(prefix="dpcheck-import-") as tmp:
                _extract(path, Path(tmp))
                main = main_file(Path(tmp))
                doc = read_tex(read_tex_file(main), str(source))
            return doc
        text = path.read_text(encoding="utf-8", errors="replace")
        if name.endswith(".tex"):
            return read_tex(read_tex_file(path), str(source))
        if name.endswith((".html", ".htm", ".xhtml")) or re.match(r"\s*<(!doctype|html)", text, re.I):
            return read_rendering(html_to_markdown(text), str(source))
        if "\\documentclass" in text or "\\begin{document}" in text:
            return read_tex(read_tex_file(path), str(source))
        if looks_like_latexml(text) or looks_like_markdown(text):
            return read_rendering(text, str(source))
    except TexError as exc:
        raise SourceError(str(exc)) from None
    except (OSError, EOFError, zlib.error, tarfile.TarError) as exc:   # (EOF: a cut archive)
        # one line: tarfile lists every compression it tried, one per line
        why = str(exc).splitlines()[0].rstrip(": ") if str(exc).strip() else type(exc).__name__
        raise SourceError(f"cannot read {str(source)!r}: {why}") from None
    raise SourceError(f"SOURCE {str(source)!r} holds no LaTeX this importer reads (a .tex file, "
                      "an arXiv source folder or .tar.gz, an arXiv HTML page, Markdown with "
                      "$...$ math, or a text rendering that keeps LaTeX)")


def _extract(path: Path, dest: Path) -> None:
    with tarfile.open(path) as tar:
        members = [m for m in tar.getmembers() if m.isfile() and not m.name.startswith("/")
                   and ".." not in Path(m.name).parts]
        tar.extractall(dest, members=members, filter="data")


class _HTML(HTMLParser):
    """LaTeXML HTML as Markdown: block elements are paragraphs, ``<math>`` is its
    alttext between ``$`` (``$$`` for display math, with ``\\tag{n}`` from the row's
    equation number), theorem titles and proofs are kept as their printed words."""

    BLOCK = {"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "tr", "table", "section",
             "figure", "blockquote", "br"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.skip = 0
        self.in_math = 0
        self.pending_display: list[str] = []
        self.tag_next = False
        self.heading = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = a.get("class", "") or ""
        if tag in ("script", "style", "annotation", "annotation-xml", "semantics"):
            self.skip += 1 if tag in ("script", "style") else 0
        if tag == "math":
            self.in_math += 1
            tex = a.get("alttext", "")
            if a.get("display") == "block":
                self.pending_display.append(tex)
                self.out.append("\n\n@@DISPLAY@@\n\n")
            else:
                self.out.append(f" ${tex}$ ")
            return
        if "ltx_tag_equation" in cls:
            self.tag_next = True
        if tag in self.BLOCK:
            self.out.append("\n\n")
            if tag in ("h1", "h2", "h3", "h4") and "ltx_title_theorem" not in cls \
                    and "ltx_runin" not in cls:
                self.out.append("#" * int(tag[1]) + " ")

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip = max(0, self.skip - 1)
        if tag == "math":
            self.in_math = max(0, self.in_math - 1)
            return
        if tag in self.BLOCK and tag not in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.out.append("\n\n")
        elif tag in ("h1", "h2", "h3", "h4"):
            self.out.append("\n\n")

    def handle_data(self, data):
        if self.skip or self.in_math:
            return
        if self.tag_next:
            m = re.search(r"\(([^()]+)\)", data)
            if m:
                self.out.append(f" @@TAG:{m.group(1)}@@ ")
            self.tag_next = False
            return
        self.out.append(data)

    def markdown(self) -> str:
        text = "".join(self.out)
        displays = iter(self.pending_display)

        def disp(_m):
            return "$$" + next(displays, "") + "$$"
        text = re.sub(r"@@DISPLAY@@", disp, text)
        # an equation number printed beside a display: into the display as \tag
        text = re.sub(r"\$\$((?:(?!\$\$).)*)\$\$\s*@@TAG:([^@]+)@@", r"$$\1 \\tag{\2}$$", text,
                      flags=re.S)
        text = re.sub(r"@@TAG:([^@]+)@@", r"(\1)", text)
        text = re.sub(r"[ \t]+", " ", text)
        text = re.sub(r"\n\s*\n(\s*\n)+", "\n\n", text)
        # one display per paragraph
        text = re.sub(r"\s*(\$\$.*?\$\$)\s*", r"\n\n\1\n\n", text, flags=re.S)
        return "\n".join(line.strip() for line in text.splitlines())


def html_to_markdown(text: str) -> str:
    p = _HTML()
    p.feed(text)
    p.close()
    return html.unescape(p.markdown())

"""``dpcheck import``: from a paper's LaTeX to a draft paper module that verifies.

    sources.read(SOURCE)      -> Document   (.tex, arXiv folder/.tar.gz, HTML, Markdown, text)
    structure.results(doc)    -> printed results with their statements and proofs
    draft.build(doc, key)     -> Draft      (steps, chains, hypotheses, symbols, counts)
    writer.write(draft)       -> the module's text (TODO markers where a person is needed)

Modules, one purpose each: :mod:`~checks.importer.sources` (reading SOURCE),
:mod:`~checks.importer.tex` (LaTeX source, macro expansion, numbering),
:mod:`~checks.importer.renderings` (Markdown and LaTeXML text),
:mod:`~checks.importer.structure` (results and proofs), :mod:`~checks.importer.latex`
(a formula's rows and relations), :mod:`~checks.importer.formulas` (a side to SymPy),
:mod:`~checks.importer.symbols` (names, stand-ins, guesses), :mod:`~checks.importer.draft`
and :mod:`~checks.importer.writer`.
"""
from __future__ import annotations

import re
from pathlib import Path

from checks.importer.draft import Draft, build
from checks.importer.formulas import DEFAULT_PARSER
from checks.importer.sources import SourceError, read
from checks.importer.writer import write

__all__ = ["import_paper", "Draft", "SourceError", "default_key", "todo_markers"]


def default_key(source: str | Path) -> str:
    """A paper key from SOURCE's file name (``My_Paper.tar.gz`` -> ``my-paper``)."""
    name = Path(source).name
    for ext in (".tar.gz", ".tgz", ".tar", ".tex", ".html", ".htm", ".md", ".txt"):
        if name.lower().endswith(ext):
            name = name[:-len(ext)]
            break
    key = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    if not key or not key[0].isalnum():
        key = "imported"
    return key


def import_paper(source: str | Path, key: str | None = None,
                 parser: str = DEFAULT_PARSER) -> tuple[Draft, str]:
    """(the draft, the module's text) of SOURCE under ``key``."""
    doc = read(source)
    draft = build(doc, key or default_key(source), parser=parser)
    return draft, write(draft)


_TODO = re.compile(r"#\s*TODO(?:\(([a-z]+)\))?:?\s*(.*)$")


def todo_markers(path: str | Path) -> list[tuple[int, str, str]]:
    """(line, tag, text) of every ``# TODO`` in a paper file (or the .py files of a
    package folder)."""
    p = Path(path)
    files = sorted(p.rglob("*.py")) if p.is_dir() else [p]
    out = []
    for f in files:
        try:
            lines = f.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            continue
        for k, line in enumerate(lines, 1):
            m = _TODO.search(line)
            if m:
                out.append((k, m.group(1) or "todo", m.group(2).strip()))
    return out

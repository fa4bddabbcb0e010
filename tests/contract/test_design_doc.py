"""Everything the project's files cite lives in the repository: the design page the
docstrings cite (``DESIGN.md, *Section*``) exists with each cited section, and no file
points outside the repository (a fresh clone has nothing beside it)."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CITE = re.compile(r"DESIGN(?:\.md)?[,:]?\s+\*([^*]+)\*(?:\s+and\s+\*([^*]+)\*)?")
OUTSIDE = re.compile(r"\.\./shared|/work/|shared/DESIGN|shared/papers")


def _files():
    for p in ROOT.rglob("*"):
        if p.is_file() and p.suffix in (".py", ".md", ".ipynb", ".toml", ".txt", ".cfg") \
                and ".git" not in p.parts and "data" not in p.relative_to(ROOT).parts[:2]:
            yield p


def _sections() -> set[str]:
    text = (ROOT / "DESIGN.md").read_text(encoding="utf-8")
    return {m.group(1).strip() for m in re.finditer(r"^## (.+)$", text, re.M)}


def test_every_cited_design_section_exists():
    have = _sections()
    missing = []
    for p in _files():
        for m in CITE.finditer(p.read_text(encoding="utf-8", errors="replace")):
            for sec in m.groups():
                if sec and sec != "Section" and " ".join(sec.split()) not in have:
                    missing.append(f"{p.relative_to(ROOT)}: *{sec}*")
    assert not missing, missing


def test_no_file_points_outside_the_repository():
    bad = [str(p.relative_to(ROOT)) for p in _files()
           if p.name != "test_design_doc.py"
           and OUTSIDE.search(p.read_text(encoding="utf-8", errors="replace"))]
    assert not bad, bad


def test_the_citation_pattern_finds_sections():
    m = CITE.search("(DESIGN.md, *Truth providers* and *User papers*)")
    assert m and m.groups() == ("Truth providers", "User papers")

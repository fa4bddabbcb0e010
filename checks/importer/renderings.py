"""Readers of text renderings that keep a paper's LaTeX: Markdown with ``$…$`` math (what
PDF converters write) and LaTeXML's text rendering of an arXiv HTML page, where every
formula is printed three times — its visible characters, LaTeX (``\\displaystyle …``
in the cells of a display) and, in some renderings, a spoken form (``italic_D
start_POSTSUBSCRIPT …``) — followed by its printed number ``(38)``.

Text renderings do not say where a theorem ends; the blocks carry ``explicit=False`` and
:mod:`checks.importer.structure` decides.
"""
from __future__ import annotations

import re
import unicodedata

from checks.importer.document import (
    NUMBER,
    RESULT_WORDS,
    Begin,
    Display,
    Document,
    Heading,
    Text,
    proof_of,
)
from checks.importer.latex import Row, clean, split_rows, strip_number

_EQNO = re.compile(r"\s\(([A-Z]?\.?\d+(?:\.\d+)*[a-z]?)\)\s*$")
_SPOKEN = re.compile(r"(?:italic|bold|roman|blackboard|caligraphic|fraktur|script|sans-serif|"
                     r"typewriter|double-struck|divide|start_|end_|absent|square-root|overbar|"
                     r"percent|superscript|subscript|conditional|delimited|similar-to|"
                     r"tensor-product|double-subscript|POSTSUBSCRIPT|POSTSUPERSCRIPT|over\^|over_|"
                     r"under_|under\^)")
_GLUED = re.compile(r"\\([A-Za-z]+?)(italic|bold|roman|blackboard|caligraphic|fraktur|divide|"
                    r"start|absent|square|script|double)")
_HEAD = re.compile(r"^\s*(\*\*|\*|_)?\s*" + RESULT_WORDS + r"\s+" + NUMBER + r"(?!\.?\d)"
                   + r"\s*(\*\*|\*|_)?\s*(?:[.:]\s*(?:\*\*|\*|_)?|(?=\())\s*(.*)$", re.S)
#: a line that is a result's heading and nothing else ("Remark 4.", "Lemma 2.1 (Title).")
_HEAD_LINE = re.compile(r"^\s*(\*\*|\*|_)?\s*" + RESULT_WORDS + r"\s+" + NUMBER + r"(?!\.?\d)"
                        r"\s*(\*\*|\*|_)?\s*[.:]?\s*(\([^()]{0,100}\))?\s*[.:]?\s*(\*\*|\*|_)?\s*$")
_PROOF = re.compile(r"^\s*(?:\*\*|\*|_)?\s*(Proof(?:\s+[Ss]ketch)?(?:\s+of\s+[^.]{1,60}?)?)"
                    r"\s*[.:]\s*(?:\*\*|\*|_)?\s*(.*)$", re.S)
_END_PROOF = re.compile(r"(∎|□|\$\\square\$|\\qed|\$\\blacksquare\$|\$\\Box\$)\s*$")
_SECTION = re.compile(r"^(?:#+\s+(.*)|((?:Appendix\s+)?(?:[A-Z]|\d+)(?:\.\d+)*\s+[A-Z][^.]{2,90}))$")
_REL_START = re.compile(r"^\s*(?:=|<|>|\\leq?|\\geq?|\\le\b|\\ge\b|≤|≥|\\triangleq)")


# ----------------------------------------------------------------------------- detection
def looks_like_latexml(text: str) -> bool:
    return "\\displaystyle" in text or "start_POSTSUBSCRIPT" in text


def looks_like_markdown(text: str) -> bool:
    return "$$" in text or re.search(r"\$[^$\n]+\$", text) is not None


# ----------------------------------------------------------------------------- LaTeXML
def _latex_end(s: str, i: int) -> int:
    """Where the LaTeX that starts at ``s[i]`` ends: at the spoken form, the visible
    characters of the next cell, or the end of the line."""
    depth = 0
    n = len(s)
    while i < n:
        if depth == 0:
            rest = s[i:i + 40]
            if re.match(r"\s*[^\x00-\x7f]", rest) and not re.match(r"\s*[^\x00-\x7f]\S*\\", rest):
                return i
            vis = re.match(r"\s+(\S*?)[^\x00-\x7f]", rest)
            if vis and (not vis.group(1) or ("\\" not in vis.group(1)
                                             and not re.search(r"\\[A-Za-z]+$", s[:i]))):
                # the visible form of the next cell ("… (M+L(Cα…", "\\leq 𝒟α…"); a space
                # after a control word or before more LaTeX is the LaTeX's own
                # ("\\eta L)z,∥ italic…", "% \\boldsymbol{x}…")
                return i
            if _SPOKEN.match(rest) or re.match(r"[=+\-<>(\[|\d\s]*\s" + _SPOKEN.pattern, rest):
                # the spoken form, which may open with the cell's relation and digits
                # ("= - 2 italic_η"); a trailing , or . is the LaTeX's own
                return i
            if s[i] == " " and not re.search(r"\\[A-Za-z]+$", s[:i]) and (
                    _is_prose(s[i:i + 40].split("$")[0])
                    or re.match(r"\s+[A-Za-z][a-z]+[,.;:]?\s+\S*?[^\x00-\x7f]", rest)):
                # a rendering without the spoken form: the prose goes on after the
                # LaTeX (" are two roots of f(β)…", ", then β(0,β1]…" before the next
                # formula's visible form): LaTeX puts no words at its top level
                return i
        c = s[i]
        if c == "\\":
            m = re.match(r"\\([A-Za-z]+)", s[i:])
            if m:
                g = _GLUED.match(s[i:])
                if g and g.group(1) and len(g.group(1)) >= 2:
                    return i + 1 + len(g.group(1))
                i += len(m.group(0))
                continue
            i += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth < 0:
                return i
        i += 1
    return n


def _first_glyph(latex: str) -> str:
    m = re.match(r"\\(?:frac|sqrt|left|big|Big|bigl|Bigl|biggl|displaystyle|operatorname|"
                 r"mathcal|mathbb|boldsymbol|mathbf|mathrm|text|textup|bar|hat|tilde|"
                 r"overline|widehat|widetilde)\s*(?:\[[^]]*\])?\s*\{?\s*", latex)
    if m and m.end() > 0:
        return _first_glyph(latex[m.end():])
    m = re.match(r"\\([A-Za-z]+)", latex)
    if m:
        try:
            from pylatexenc.latex2text import LatexNodes2Text
            out = LatexNodes2Text().latex_to_text("\\" + m.group(1)).strip()
        except Exception:  # noqa: BLE001 - a glyph is a hint only
            out = ""
        return out[:1]
    return latex[:1]


def _norm_char(c: str) -> str:
    return unicodedata.normalize("NFKC", c)[:1] if c else ""


def _latex_start(line: str, p0: int) -> int:
    """The start of a formula's LaTeX whose first backslash is at ``p0``: the leftmost
    start in the run of ASCII before it whose first printed glyph is the line's first."""
    j = p0
    while j > 0 and ord(line[j - 1]) < 128 and not line[j - 1].isspace():
        j -= 1
    first = _norm_char(line[0])
    if _norm_char(_first_glyph(line[p0:])) == first:
        # the formula starts at its first command ("σDP2T.\\mathcal{D}…": the ASCII
        # before it is the visible rendering's)
        return p0
    for c in range(j, p0 + 1):
        if c < p0 and not re.match(r"[A-Za-z0-9(\[|\-]", line[c]):
            continue
        if _norm_char(_first_glyph(line[c:])) == first:
            return c
    return p0


def latexml_cells(line: str) -> list[str]:
    """The LaTeX of each cell of a LaTeXML display line (a line with ``\\displaystyle``),
    or of the one formula a single-equation line holds."""
    cells = []
    starts = [m.start() for m in re.finditer(r"\\displaystyle", line)]
    if starts:
        for k, st in enumerate(starts):
            end = _latex_end(line, st + len("\\displaystyle"))
            if k + 1 < len(starts):
                end = min(end, starts[k + 1])
            cells.append(line[st:end])
        return cells
    p0 = line.find("\\")
    if p0 < 0:
        return []
    st = _latex_start(line, p0)
    return [line[st:_latex_end(line, st)]]


_SPOKEN_WORDS = {"divide", "absent", "square", "root", "start", "end", "italic", "roman",
                 "bold", "blackboard", "caligraphic", "percent", "overbar", "superscript",
                 "subscript", "conditional", "delimited", "norm"}


def _is_prose(rest: str) -> bool:
    run = 0
    for w in rest.split():
        if re.fullmatch(r"[a-z]{2,}[,.;:]?", w) and w.strip(",.;:") not in _SPOKEN_WORDS:
            run += 1
            if run >= 2:
                return True
        else:
            run = 0
    return False


def _latexml_display_line(line: str):
    """(cells' LaTeX joined, number) when ``line`` is a display line, else None."""
    body = line.rstrip()
    number = None
    m = _EQNO.search(body)
    if m:
        number = m.group(1)
        body = body[:m.start()]
    if "\\" not in body:
        return None
    first_bs = body.find("\\")
    if " " in body[:first_bs].strip() and "\\displaystyle" not in body:
        return None
    if "\\displaystyle" not in body:
        cells = latexml_cells(body)
        if not cells:
            return None
        end = body.find(cells[0]) + len(cells[0])
        if _is_prose(body[end:]):
            return None
        if re.match(r"^[A-Z][a-z]+\s", body):
            return None
    else:
        cells = latexml_cells(body)
        lead = body[:body.find("\\displaystyle")]
        if _is_prose(lead):
            return None
    latex = " ".join(c.replace("\\displaystyle", " ") for c in cells)
    return latex, number


def _latexml_inline(par: str) -> str:
    """Prose with each inline formula's LaTeX put between ``$…$`` (its visible and
    spoken forms around it left as they are)."""
    out = []
    i = 0
    while True:
        p0 = par.find("\\", i)
        if p0 < 0:
            out.append(par[i:])
            break
        # the start: back over ASCII without spaces, to the first glyph of this formula
        word_start = p0
        while word_start > i and not par[word_start - 1].isspace():
            word_start -= 1
        seg = par[word_start:]
        st = word_start + _latex_start(seg, p0 - word_start) if seg else p0
        end = _latex_end(par, st)
        if end <= st:
            end = p0 + 1
        out.append(par[i:st])
        out.append(" $" + par[st:end] + "$ ")
        i = end
    text = "".join(out)
    # single letters: visible X, mathematical italic X, LaTeX X, spoken italic_X
    text = re.sub(r"([A-Za-z])[\U0001D400-\U0001D7FF]\1italic_\1", r"$\1$", text)
    return text


# ----------------------------------------------------------------------------- both
def read_rendering(text: str, source: str = "") -> Document:
    """A Markdown or LaTeXML text rendering as a :class:`Document`."""
    latexml = looks_like_latexml(text) and not re.search(r"^\$\$", text, re.M)
    fmt = "latexml-text" if latexml else "markdown"
    paragraphs = _paragraphs(text, latexml)
    blocks: list = []
    printed = []
    title = ""
    for lineno, par in paragraphs:
        stripped = par.strip()
        if not title and stripped and not stripped.startswith("$"):
            title = stripped.lstrip("# ").splitlines()[0][:200]
        # equation number on its own line: the previous display's
        m = re.fullmatch(r"\(([A-Z]?\.?\d+(?:\.\d+)*[a-z]?)\)", stripped)
        if m:
            if blocks and isinstance(blocks[-1], Display):
                _number_last_row(blocks[-1], m.group(1))
            continue
        disp = _display_of(par, latexml)
        if disp is not None:
            if not disp.rows:
                continue
            if len(disp.rows) == 1 and disp.rows[0].number and not clean(disp.rows[0].latex):
                # "$$\\tag{7}$$" after a display: the number of the display before it
                if blocks and isinstance(blocks[-1], Display):
                    _number_last_row(blocks[-1], disp.rows[0].number)
                continue
            disp.line = lineno
            prev = blocks[-1] if blocks else None
            if isinstance(prev, Display) and disp.rows and _REL_START.match(disp.rows[0].latex) \
                    and not prev.numbers:
                prev.rows.extend(disp.rows)
            else:
                blocks.append(disp)
            continue
        if latexml and "\\" in par:
            par_text = _latexml_inline(par)
        else:
            par_text = par
        one_line = stripped.splitlines()[0] if stripped else ""
        sec = _SECTION.match(one_line) if len(stripped.splitlines()) == 1 else None
        head = _heading(stripped, latexml)
        if head is not None:
            kind, number, rest = head
            title_, rest = _title(rest)
            printed.append((kind, number))
            blocks.append(Begin(kind, number, title_, line=lineno, explicit=False))
            if rest.strip():
                blocks.append(Text(_latexml_inline(rest) if latexml and "\\" in rest
                                   else rest, lineno))
            continue
        pm = _PROOF.match(stripped)
        if pm:
            blocks.append(Begin("proof", None, pm.group(1).strip(), of=proof_of(pm.group(1)),
                                line=lineno, explicit=False))
            rest = pm.group(2)
            if rest.strip():
                blocks.append(Text(_latexml_inline(rest) if latexml and "\\" in rest
                                   else rest, lineno))
            continue
        if sec and not _END_PROOF.search(stripped):
            blocks.append(Heading((sec.group(1) or sec.group(2)).strip(), lineno))
            continue
        blocks.append(Text(par_text, lineno))
    return Document(blocks, source, title, fmt, printed)


def _heading(par: str, latexml: bool):
    """(kind, number, rest) when a paragraph opens a theorem-like result."""
    m = _HEAD.match(par)
    if not m:
        return None
    kind, number, rest = m.group(2).lower(), m.group(3).rstrip("."), m.group(5) or ""
    if latexml:
        # LaTeXML prints the heading alone on its line: "Lemma 2.4." or "Theorem 8 (Title)."
        first = par.splitlines()[0]
        if len(first) > 160 or (rest.strip() and not rest.lstrip().startswith("(")):
            return None
    elif not (m.group(1) or rest.lstrip().startswith("(") or re.match(r"\s*[.:]", par[m.end(3):])):
        return None
    return kind, number, rest


def _paragraphs(text: str, latexml: bool = False):
    out = []
    cur = []
    start = 1
    for k, line in enumerate(text.splitlines(), 1):
        if line.strip() == "":
            if cur:
                out.append((start, "\n".join(cur)))
                cur = []
            continue
        if not cur:
            start = k
        # a display line of a LaTeXML rendering sits alone, between prose lines
        cur.append(line)
    if cur:
        out.append((start, "\n".join(cur)))
    # split paragraphs whose lines mix prose and $$ displays (Markdown); a display runs
    # from its opening $$ to its closing $$, over several lines if need be
    final = []
    for start, par in out:
        lines = par.splitlines()
        buf: list = []
        disp: list | None = None
        disp_start = start
        for off, line in enumerate(lines):
            if disp is not None:
                disp.append(line)
                if "$$" in line:
                    final.append((disp_start, "\n".join(disp)))
                    disp = None
                continue
            if line.strip().startswith("$$") or re.fullmatch(r"\s*\(\d+\)\s*", line):
                if buf:
                    final.append((start, "\n".join(buf)))
                    buf = []
                body = line.strip()
                if body.startswith("$$") and "$$" not in body[2:]:
                    disp, disp_start = [line], start + off
                    continue
                final.append((start + off, line))
            else:
                buf.append(line)
        if disp is not None:
            final.append((disp_start, "\n".join(disp)))
        if buf:
            final.append((start, "\n".join(buf)))
    if not latexml:
        out2 = []
        for start, par in final:
            lines = par.splitlines()
            heads = [k for k in range(1, len(lines)) if _HEAD_LINE.match(lines[k])]
            cut = [0, *heads, len(lines)]
            for a, b in zip(cut, cut[1:]):
                out2.append((start + a, "\n".join(lines[a:b])))
        return out2
    # LaTeXML: a display line and the prose or heading printed on the next line
    # ("… (27)" then "Lemma A.4.") are separate blocks
    split = []
    for start, par in final:
        run, kind, run_start = [], None, start
        for off, line in enumerate(par.splitlines()):
            k = _latexml_display_line(line) is not None
            if run and (k != kind or _HEAD_LINE.match(line)):
                split.append((run_start, "\n".join(run)))
                run = []
            if not run:
                run_start = start + off
            run.append(line)
            kind = k
        if run:
            split.append((run_start, "\n".join(run)))
    return split


def _display_of(par: str, latexml: bool) -> Display | None:
    s = par.strip()
    if s.startswith("$$"):
        body = s[2:]
        end = body.rfind("$$")
        body = body[:end] if end >= 0 else body
        rows = split_rows(body)
        return Display(rows)
    m = re.fullmatch(r"(=|\\leq?|\\geq?|≤|≥|<|>)\s*\$(.+)\$\s*\.?", s, re.S)
    if m and not latexml:
        rel = {"≤": "\\leq", "≥": "\\geq"}.get(m.group(1), m.group(1))
        return Display([Row(rel + " " + m.group(2))])
    if not latexml:
        return None
    rows = []
    for line in par.splitlines():
        got = _latexml_display_line(line)
        if got is None:
            return None
        latex, number = got
        latex, n2, label = strip_number(latex)
        rows.append(Row(latex, number or n2, label))
    return Display(rows) if rows else None


def _number_last_row(disp: Display, number: str) -> None:
    if disp.rows and not disp.numbers:
        disp.rows[-1].number = number


def _title(rest: str) -> tuple[str, str]:
    """(title, the rest) of ``(Title). text`` after a result's heading."""
    r = rest.lstrip(" *_")
    if not r.startswith("("):
        return "", rest
    depth = 0
    for k, c in enumerate(r):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                title = r[1:k].strip()
                tail = r[k + 1:].lstrip(" .:*_")
                return re.sub(r"\s+", " ", title)[:120], tail
    return "", rest

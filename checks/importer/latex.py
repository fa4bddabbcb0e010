"""Formula text: clean a printed formula's LaTeX, tokenise it, split it at relation signs.

Everything here works on the LaTeX of one display (or one inline formula) as the paper
prints it: layout commands (``\\displaystyle``, ``\\left``, ``\\Big``, ``&``, spacing)
are dropped, the equation number (``\\tag{7}``, ``\\quad (7)``), ``\\label`` and the
row breaks ``\\\\`` are read off, and the rows are split at top-level relation signs
(``=``, ``\\leq`` …) into sides linked by relations.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

TOKEN = re.compile(r"\\[A-Za-z]+\*?|\\.|[A-Za-z]|\d+(?:\.\d+)?|\s+|.", re.S)

#: relation macros/characters -> the relation they print (None: not a scalar relation)
RELATIONS = {
    "=": "=", "<": "<", ">": ">", "\\leq": "<=", "\\le": "<=", "\\leqslant": "<=",
    "\\leqq": "<=", "\\geq": ">=", "\\ge": ">=", "\\geqslant": ">=", "\\geqq": ">=",
    "\\lt": "<", "\\gt": ">", "≤": "<=", "≥": ">=", "\\triangleq": ":=", "\\coloneqq": ":=",
    "\\eqqcolon": ":=", "\\doteq": ":=", "\\equiv": ":=", "\\stackrel": None,
    "\\neq": None, "\\ne": None, "\\approx": None, "\\sim": None, "\\simeq": None,
    "\\propto": None, "\\ll": None, "\\gg": None, "\\lesssim": None, "\\gtrsim": None,
    "\\in": None, "\\notin": None, "\\subseteq": None, "\\subset": None, "\\to": None,
    "\\rightarrow": None, "\\mapsto": None, "\\Rightarrow": None, "\\iff": None,
    "\\implies": None, "\\Longrightarrow": None, "\\cong": None,
}

OPEN = {"(": ")", "[": "]", "{": "}", "\\{": "\\}", "\\langle": "\\rangle",
        "\\lceil": "\\rceil", "\\lfloor": "\\rfloor"}
CLOSE = {v: k for k, v in OPEN.items()}

_SIZING = re.compile(r"\\(?:left|right|middle|bigl|bigr|bigm|Bigl|Bigr|Bigm|biggl|biggr|"
                     r"biggm|Biggl|Biggr|Biggm|big|Big|bigg|Bigg)(?![A-Za-z])\s*")
_DROP = re.compile(r"\\(?:displaystyle|textstyle|scriptstyle|scriptscriptstyle|nonumber|"
                   r"notag|limits|nolimits|hfill|allowbreak|medskip|smallskip|bigskip|"
                   r"noindent|centering|qedhere)(?![A-Za-z])")
_SPACE = re.compile(r"\\(?:quad|qquad|enspace|thinspace|negthinspace|hspace\*?\{[^}]*\}|"
                    r"vspace\*?\{[^}]*\}|,|;|:|!|\s)")
_TAG = re.compile(r"\\tag\*?\{([^{}]*)\}")
_LABEL = re.compile(r"\\label\{([^{}]*)\}")
_QUAD_NUMBER = re.compile(r"\\q?quad\s*\(\s*([A-Za-z]?\.?\d+(?:\.\d+)*[a-z]?)\s*\)\s*$")
_RENAME = [(re.compile(r"\\(?:dfrac|tfrac|cfrac)(?![A-Za-z])"), r"\\frac"),
           (re.compile(r"\\(?:textup|textrm|textnormal|mathrm|textit|textbf|mathsf|texttt|"
                       r"operatorname\*?)(?![A-Za-z])"), r"\\text"),
           (re.compile(r"\\(?:bm|mathbold|pmb)(?![A-Za-z])"), r"\\boldsymbol"),
           (re.compile(r"\\varepsilon(?![A-Za-z])"), r"\\varepsilon"),
           (re.compile(r"\\parallel(?![A-Za-z])"), r"\\|"),
           (re.compile(r"\\Vert(?![A-Za-z])"), r"\\|"),
           (re.compile(r"\\vert(?![A-Za-z])"), r"|"),
           (re.compile(r"\\lVert|\\rVert"), r"\\|"),
           (re.compile(r"\\lvert|\\rvert"), r"|"),
           (re.compile(r"\\(?:cdotp|times)(?![A-Za-z])"), r"\\cdot"),
           (re.compile(r"\\(?:ldots|cdots|dots|dotsc|dotsb|vdots)(?![A-Za-z])"), r"\\dots"),
           (re.compile(r"\\(?:Pr|Prob)(?![A-Za-z])"), r"\\text{Pr}"),
           (re.compile(r"\\mathop\{\\mathbb\{E\}\}|\\E(?![A-Za-z])|\\Exp(?![A-Za-z])"),
            r"\\mathbb{E}")]


def clean(latex: str) -> str:
    """The formula without layout: sizing, spacing and style commands, LaTeXML's ``%``
    line continuations, alignment ``&``; synonyms unified (``\\le`` stays a relation)."""
    s = re.sub(r"(?<!\\)%\s*", "", latex)   # LaTeXML: "% " continues a line
    s = _DROP.sub(" ", s)
    # LaTeXML braces the delimiter of a sizing command: \Big{(}, \biggr{\}}
    s = re.sub(r"(\\(?:left|right|middle|[bB]igg?[lrm]?)(?![A-Za-z]))\s*\{(\\[{}|]|\\?[^{}A-Za-z]|\\[A-Za-z]+)\}",
               r"\1\2", s)
    s = _SIZING.sub("", s)
    s = s.replace("\\left.", "").replace("\\right.", "")
    for pat, rep in _RENAME:
        s = pat.sub(rep, s)
    s = _SPACE.sub(" ", s)
    s = re.sub(r"(?<!\\)&", " ", s)
    s = s.replace("~", " ")
    return re.sub(r"\s+", " ", s).strip()


def tokens(latex: str) -> list[str]:
    return [t for t in TOKEN.findall(latex)]


def join(toks) -> str:
    """Tokens back to LaTeX (a space after a control word followed by a letter)."""
    out = []
    for k, t in enumerate(toks):
        out.append(t)
        if re.fullmatch(r"\\[A-Za-z]+\*?", t) and k + 1 < len(toks) and \
                re.match(r"[A-Za-z0-9]", toks[k + 1]):
            out.append(" ")
    return "".join(out)


@dataclass
class Row:
    """One printed row of a display: its LaTeX and the number printed on it."""

    latex: str
    number: str | None = None
    label: str | None = None


@dataclass
class Side:
    latex: str
    row: int          # the row it starts on


@dataclass
class Relation:
    """``lhs REL rhs`` as printed (REL in ``= < <= > >= :=``, or the macro of a relation
    that is not a scalar one, e.g. ``\\sim``)."""

    lhs: Side
    rel: str
    rhs: Side
    scalar: bool
    number: str | None = None
    label: str | None = None


def strip_number(latex: str) -> tuple[str, str | None, str | None]:
    """(latex without \\tag/\\label/trailing ``\\quad (n)``, number, label)."""
    number = label = None
    m = _TAG.search(latex)
    if m:
        number = m.group(1).strip().strip("()")
        latex = latex[:m.start()] + latex[m.end():]
    m = _LABEL.search(latex)
    if m:
        label = m.group(1).strip()
        latex = _LABEL.sub(" ", latex)
    m = _QUAD_NUMBER.search(latex.strip())
    if m:
        number = number or m.group(1)
        latex = latex.strip()[:m.start()]
    return latex, number, label


def split_rows(latex: str) -> list[Row]:
    """The rows of a display body (``\\\\`` breaks at the top level of the display, inside
    aligned/split/gathered environments too), each with its own number and label."""
    body = re.sub(r"\\(?:begin|end)\{(?:aligned|align\*?|alignedat|split|gathered|gather\*?|"
                  r"multline\*?|eqnarray\*?|equation\*?|array|flalign\*?)\}(?:\{[^}]*\})?",
                  " ", latex)
    parts = []
    depth_cases = 0
    cur = []
    toks = tokens(body)
    i = 0
    while i < len(toks):
        t = toks[i]
        if t == "\\begin":
            depth_cases += 1
        elif t == "\\end":
            depth_cases -= 1
        if t == "\\\\" and depth_cases <= 0:
            parts.append(join(cur))
            cur = []
            # optional spacing argument \\[2pt]
            if i + 1 < len(toks) and toks[i + 1] == "[":
                j = i + 1
                while j < len(toks) and toks[j] != "]":
                    j += 1
                i = j
        else:
            cur.append(t)
        i += 1
    parts.append(join(cur))
    rows = []
    for p in parts:
        p, number, label = strip_number(p)
        if clean(p) or number:
            rows.append(Row(p, number, label))
    return rows


def _is_relation(toks, i) -> str | None:
    t = toks[i]
    if t in RELATIONS:
        if t == "=" and i > 0 and toks[i - 1] == ":":
            return None  # handled at ':'
        return t
    if t == ":" and i + 1 < len(toks) and toks[i + 1] == "=":
        return ":="
    return None


def split_relations(rows: list[Row]) -> tuple[list[Side], list[str]]:
    """The sides and the relations between them of the rows read as one chain: rows that
    begin with a relation continue the chain, others continue the current side
    (a broken long side).  Relations inside brackets, braces or sub/superscripts do not
    split."""
    sides: list[Side] = []
    rels: list[str] = []
    cur: list[str] = []
    cur_row = 0
    for r, row in enumerate(rows):
        toks = tokens(clean(row.latex))
        depth = 0
        i = 0
        if not cur:
            cur_row = r
        while i < len(toks):
            t = toks[i]
            if t in OPEN or t == "\\begin":
                depth += 1
            elif t in CLOSE or t == "\\end":
                depth = max(0, depth - 1)
            rel = _is_relation(toks, i) if depth == 0 else None
            if rel is not None and not _inside_script(toks, i):
                if rel == ":=" and t == ":":
                    i += 1
                elif t == "\\stackrel":
                    i = _skip_group(toks, _skip_group(toks, i + 1)) - 1
                sides.append(Side(join(cur).strip(), cur_row))
                rels.append(RELATIONS.get(rel, rel) or rel)
                cur = []
                cur_row = r
            else:
                cur.append(t)
            i += 1
    sides.append(Side(join(cur).strip(), cur_row))
    return sides, rels


def _skip_group(toks, i) -> int:
    while i < len(toks) and toks[i].isspace():
        i += 1
    if i < len(toks) and toks[i] == "{":
        depth = 0
        while i < len(toks):
            if toks[i] == "{":
                depth += 1
            elif toks[i] == "}":
                depth -= 1
                if depth == 0:
                    return i + 1
            i += 1
        return i
    return i + 1


def _inside_script(toks, i) -> bool:
    """True when token i is the single-token argument of ``_``/``^`` (``x_=``: never)."""
    j = i - 1
    while j >= 0 and toks[j].isspace():
        j -= 1
    return j >= 0 and toks[j] in ("_", "^")


def relations(rows: list[Row]) -> list[Relation]:
    """The display's relations ``side_k REL side_k+1``, numbered: one printed number for
    the whole display numbers every relation; numbers on several rows number the
    relations that end on (or start on) their row."""
    sides, rels = split_relations(rows)
    numbered = [(k, r.number) for k, r in enumerate(rows) if r.number]
    labels = [r.label for r in rows if r.label]
    out = []
    for k, rel in enumerate(rels):
        lhs, rhs = sides[k], sides[k + 1]
        number = label = None
        if len(numbered) == 1:
            number = numbered[0][1]
            label = labels[0] if labels else None
        elif numbered:
            for row_index, num in numbered:
                if rhs.row == row_index or (lhs.row == row_index and rhs.row != row_index
                                            and row_index == len(rows) - 1):
                    number = num
                    label = rows[row_index].label
        elif labels:
            label = labels[0]
        out.append(Relation(lhs, rel, rhs, rel in ("=", "<", "<=", ">", ">=", ":="),
                            number, label))
    return out


def trim_side(latex: str) -> str:
    """A side without trailing punctuation and leading/trailing commas or text."""
    s = clean(latex)
    s = re.sub(r"(?:\s|[.,;]|\\text\{\s*[.,;]?\s*\})+$", "", s)
    s = re.sub(r"^(?:\s|,)+", "", s)
    return s

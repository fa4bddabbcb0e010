"""Formula text: clean a printed formula's LaTeX, tokenise it, split it at relation signs.

Everything here works on the LaTeX of one display (or one inline formula) as the paper
prints it: layout commands (``\\displaystyle``, ``\\left``, ``\\Big``, ``&``, spacing)
are dropped, the equation number (``\\tag{7}``, ``\\quad (7)``), ``\\label`` and the
row breaks ``\\\\`` are read off, and the rows are split at top-level relation signs
(``=``, ``\\leq`` …) into sides linked by relations.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass

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
    chain: int = 0          # the chain of the display it belongs to (rows ending a clause)


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
        if r and rels and rels[-1] != BREAK and "".join(cur).strip() and _own_left_side(row):
            # "η &= 1/L \\ f &≤ ηL": the row is an equation of its own, not the rest of
            # the previous right side (which read η = (1/L)·f ≤ ηL)
            sides.append(Side(join(cur).strip(), cur_row))
            rels.append(BREAK)
            cur = []
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
        if r + 1 < len(rows) and _ends_sentence(cur) and not _starts_relation(rows[r + 1]):
            # a row that ends a clause ("a <= b,") and a next row that does not continue
            # it with a relation sign ("c <= d"): two chains, not one
            sides.append(Side(join(cur).strip(), cur_row))
            rels.append(BREAK)
            cur = []
    sides.append(Side(join(cur).strip(), cur_row))
    return sides, rels


#: the mark split_relations puts between two sides that no relation links
BREAK = ","


def _ends_sentence(toks) -> bool:
    rest = [t for t in toks if not t.isspace()]
    return bool(rest) and rest[-1] in (",", ";", ".") and len(rest) > 1


#: tokens a broken side's next row starts with (the rest of a sum, a product, a bracket)
_CONTINUATION = {"+", "-", "−", "\\cdot", "\\times", "\\pm", "\\mp", "/", "*", "\\circ", ")",
                 "]", "}", "\\}", "\\rangle", "\\rceil", "\\rfloor", "^", "_", ","}


def _own_left_side(row: Row) -> bool:
    """A row that prints its own left side before a relation (``f &\\le g``, or ``f \\le g``
    in a gather): an equation of its own.  A broken side's next row starts with ``&``, an
    operator or a relation instead."""
    if row.latex.lstrip().startswith("&"):
        return False
    toks = [t for t in tokens(clean(row.latex)) if not t.isspace()]
    if not toks or toks[0] in RELATIONS or toks[0] in _CONTINUATION or toks[:2] == [":", "="]:
        return False
    depth = 0
    for i, t in enumerate(toks):
        if t in OPEN or t == "\\begin":
            depth += 1
        elif t in CLOSE or t == "\\end":
            depth = max(0, depth - 1)
        elif depth == 0 and _is_relation(toks, i) is not None and not _inside_script(toks, i):
            return True
    return False


def _starts_relation(row: Row) -> bool:
    toks = [t for t in tokens(clean(row.latex)) if not t.isspace()]
    return bool(toks) and (toks[0] in RELATIONS or toks[:2] == [":", "="])


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
    chain = 0
    for k, rel in enumerate(rels):
        if rel == BREAK:
            chain += 1
            continue
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
                            number, label, chain))
    return out


def trim_side(latex: str) -> str:
    """A side without trailing punctuation and leading/trailing commas or text."""
    s = clean(latex)
    s = re.sub(r"(?:\s|[.,;]|\\text\{\s*[.,;]?\s*\})+$", "", s)
    s = re.sub(r"^(?:\s|,)+", "", s)
    return s


# ----------------------------------------------------------------------------- meaning
#: font commands that do not change what a symbol denotes for matching purposes (a bold
#: θ and a plain θ in two renderings of one formula); names keep them apart
_FONT_DROP = {"\\boldsymbol", "\\mathbf", "\\bm", "\\pmb", "\\mathit", "\\mathnormal",
              "\\text", "\\mathsf"}
_TRANSPOSE = {"T", "\\top", "\\intercal", "\\mathsf{T}"}
#: letters a paper applies to points (``f(\\theta^*)`` is ``f^*``)
_APPLIED = {"f", "g", "h", "l", "F", "L", "R", "\\ell", "\\mathcal"}
_EXPECT = ("\\mathbb", "E")


def _groups(toks: list[str], i: int = 0, close: str | None = None):
    """Tokens as nested lists: a braced group is a list (its braces dropped)."""
    out = []
    while i < len(toks):
        t = toks[i]
        if t == "{":
            inner, i = _groups(toks, i + 1, "}")
            out.append(inner)
            continue
        if t == "}" and close == "}":
            return out, i + 1
        out.append(t)
        i += 1
    return out, i


def _norm_items(items: list) -> list:
    """Brace, script and notation normal form of one sequence of items."""
    out = []
    for it in items:
        if isinstance(it, list):
            it = _norm_items(it)
            while isinstance(it, list) and len(it) == 1:
                it = it[0]
            if isinstance(it, list) and not it:
                continue
        if isinstance(it, str) and it in _FONT_DROP:
            continue
        if it in ("\\prime",):
            it = "'"
        elif it in ("\\ast", "\\star"):
            it = "*"
        elif it == "\\mid":
            it = "|"
        if it == "|" and out and out[-1] == "|":
            out[-1] = "\\|"
            continue
        out.append(it)
    # ^' and ^{''} are primes; ^T, ^\top a transpose
    k = 0
    res = []
    while k < len(out):
        it = out[k]
        if it == "^" and k + 1 < len(out):
            arg = out[k + 1]
            if arg == "'" or (isinstance(arg, list) and arg and all(a == "'" for a in arg)):
                res.extend(["'"] * (len(arg) if isinstance(arg, list) else 1))
                k += 2
                continue
            if isinstance(arg, str) and arg in _TRANSPOSE:
                res.extend(["^", "\\top"])
                k += 2
                continue
        res.append(it)
        k += 1
    # [x]^T(y) -> x^T(y): brackets around a transposed single term are notation
    k = 0
    while k + 2 < len(res):
        if res[k] == "]" and res[k + 1] == "^" and res[k + 2] == "\\top":
            depth, m = 0, k
            while m >= 0:
                if res[m] == "]":
                    depth += 1
                elif res[m] == "[":
                    depth -= 1
                    if depth == 0:
                        break
                m -= 1
            inner = res[m + 1:k]
            if m >= 0 and not _top_sum(inner):
                res[m:k + 1] = inner
                k = m
                continue
        k += 1
    # \|x\|_2 is \|x\| (the Euclidean norm is the norm a bare \| \| denotes)
    k, open_ = 0, False
    while k < len(res):
        if res[k] == "\\|":
            open_ = not open_
            if not open_ and res[k + 1:k + 3] == ["_", "2"]:
                del res[k + 1:k + 3]
        k += 1
    # X _ B '  ->  X ' _ B   (a prime before the subscript)
    k = 0
    while k + 2 < len(res):
        if res[k] == "_" and res[k + 2] == "'":
            res[k:k + 3] = ["'", res[k], res[k + 1]]
            k = max(0, k - 1)
            continue
        k += 1
    # X ^ A _ B  ->  X _ B ^ A
    k = 0
    while k + 3 < len(res):
        if res[k] == "^" and res[k + 2] == "_":
            res[k:k + 4] = [res[k + 2], res[k + 3], res[k], res[k + 1]]
            k += 4
            continue
        k += 1
    # f(\theta^*) -> f^*   (the value of a function at its minimiser)
    k = 0
    while k + 5 < len(res):
        if res[k] in ("f", "g", "h", "l", "F", "R", "\\ell", "\\psi", "\\phi") \
                and res[k + 1] == "(" and res[k + 3] == "^" and res[k + 4] == "*" \
                and res[k + 5] == ")" and not isinstance(res[k + 2], list):
            res[k:k + 6] = [res[k], "^", "*"]
        k += 1
    # E_k[X], E[X], E(X): the brackets of an expectation's argument are notation
    k = 0
    while k + 1 < len(res):
        if res[k] == "\\mathbb" and res[k + 1] == "E":
            j = k + 2
            while j + 1 < len(res) and res[j] in ("_", "^"):
                j += 2
            if j < len(res) and res[j] in ("[", "(", "\\{"):
                close = {"[": "]", "(": ")", "\\{": "\\}"}[res[j]]
                depth = 0
                for m in range(j, len(res)):
                    if res[m] == res[j]:
                        depth += 1
                    elif res[m] == close:
                        depth -= 1
                        if depth == 0:
                            if m == len(res) - 1 or res[m + 1] not in ("^", "_"):
                                del res[m]
                                del res[j]
                            break
        k += 1
    return res


def _top_sum(items) -> bool:
    depth = 0
    for it in items:
        if it in ("(", "[", "\\{"):
            depth += 1
        elif it in (")", "]", "\\}"):
            depth -= 1
        elif depth == 0 and it in ("+", "-"):
            return True
    return False


def _flat(items) -> str:
    if isinstance(items, list):
        return "{" + " ".join(_flat(i) for i in items) + "}"
    return items


@functools.lru_cache(maxsize=16384)
def canonical(latex: str) -> str:
    """A formula's LaTeX in a normal form for asking whether two printings denote the
    same quantity: layout, fonts (bold, ``\\text``, ``\\mathrm``), braces around one
    token, the order of a sub- and a superscript, ``||``/``\\Vert``/``\\|``, primes,
    ``\\ast``, transposes, the brackets of ``\\mathbb{E}[…]`` and ``f(\\theta^*)`` (``f^*``)
    are normalised; ``\\|\\boldsymbol{\\theta}_{t}-\\boldsymbol{\\theta}^{*}\\|`` and
    ``\\|\\theta_t-\\theta^*\\|`` have one canonical form."""
    s = clean(latex)
    s = re.sub(r"(?<!\\)\|\|", r"\\|", s)
    toks = [t for t in tokens(s) if not t.isspace()]
    items, _ = _groups(toks)
    return " ".join(_flat(i) for i in _norm_items(items))

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


def _stacked(toks, i) -> str | None:
    """The relation ``\\stackrel{top}{rel}`` / ``\\overset{top}{rel}`` prints: the relation
    under the annotation (``\\stackrel{(a)}{\\leq}`` is ≤), a definition (``:=``) where the
    annotation is Δ or "def" over ``=``; None where the lower part is not a relation."""
    a = _skip_group(toks, i + 1)
    b = _skip_group(toks, a)
    top = re.sub(r"[{}\s]", "", join(toks[i + 1:a]))
    low = re.sub(r"[{}\s]", "", join(toks[a:b]))
    rel = RELATIONS.get(low) if low != "\\stackrel" else None
    if rel == "=" and re.fullmatch(r"\\(?:Delta|triangle|triangleq)|\\text(?:rm)?def|def|:", top):
        return ":="
    return rel


def _is_relation(toks, i) -> str | None:
    t = toks[i]
    if t in ("\\stackrel", "\\overset"):
        rel = _stacked(toks, i)
        return rel if rel is not None else (t if t == "\\stackrel" else None)
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
                elif t in ("\\stackrel", "\\overset"):
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
    if isinstance(items, (list, tuple)):
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


# ----------------------------------------------------------------------------- gist
#: operators over an index whose printed range a shorthand may leave out (``\sum_t`` for
#: ``\sum_{t=0}^{T}``, ``\min_t`` for ``\min_{t\in[0,T]}``)
_RANGED = {"\\sum", "\\prod", "\\min", "\\max", "\\sup", "\\inf"}
#: letters a paper applies to the current point (``g_\xi`` for ``g_\xi(\theta_t)``)
_POINT_FUNCTIONS = {"f", "g", "h", "l", "F", "\\ell", "\\psi", "\\phi", "\\varphi"}
_DECOR = {"_", "^", "'"}


def _is_atom(items) -> bool:
    """One symbol with its sub/superscripts and primes: ``\\theta _ t``, ``x _ k``, ``w '``."""
    if not items or not isinstance(items[0], str):
        return False
    head = items[0]
    if not (re.fullmatch(r"[A-Za-z]", head) or (head.startswith("\\") and head[1:].isalpha()
                                                and head not in RELATIONS and head not in
                                                ("\\nabla", "\\partial", "\\sum", "\\|"))):
        return False
    k = 1
    while k < len(items):
        if items[k] == "'":
            k += 1
        elif items[k] in ("_", "^") and k + 1 < len(items):
            k += 2
        else:
            return False
    return True


def _close(items, k, open_="(", close=")") -> int | None:
    depth = 0
    for m in range(k, len(items)):
        if items[m] == open_:
            depth += 1
        elif items[m] == close:
            depth -= 1
            if depth == 0:
                return m
    return None


def _cancel(items: list) -> list:
    """``a - b + b`` as ``a``: signed top-level terms that cancel in pairs are dropped."""
    terms, cur, sign, depth = [], [], "+", 0
    for it in items:
        if isinstance(it, list):
            cur.append(it)
            continue
        if it in ("(", "[", "\\{"):
            depth += 1
        elif it in (")", "]", "\\}"):
            depth -= 1
        if depth == 0 and it in ("+", "-") and cur:
            terms.append((sign, cur))
            cur, sign = [], it
            continue
        if depth == 0 and it in ("+", "-") and not cur:
            sign = "-" if (sign == "-") != (it == "-") else "+"
            continue
        cur.append(it)
    if cur:
        terms.append((sign, cur))
    if len(terms) < 3:
        return items
    keep = list(terms)
    changed = False
    for a in range(len(keep)):
        if keep[a] is None:
            continue
        for b in range(a + 1, len(keep)):
            if keep[b] is not None and keep[a][0] != keep[b][0] and keep[a][1] == keep[b][1]:
                keep[a] = keep[b] = None
                changed = True
                break
    if not changed:
        return items
    out = []
    for t in keep:
        if t is None:
            continue
        if out or t[0] == "-":
            out.append(t[0])
        out.extend(t[1])
    return out


def _gist_items(items: list) -> list:
    items = [_gist_items(it) if isinstance(it, list) else it for it in items]
    out = list(items)
    # \sum_{t=0}^{T} -> \sum_t, \min_{t\in[0,T]} -> \min_t
    k = 0
    while k < len(out):
        if isinstance(out[k], str) and out[k] in _RANGED and k + 2 < len(out) and out[k + 1] == "_":
            arg = out[k + 2]
            index = arg[0] if isinstance(arg, list) and arg else arg
            if isinstance(index, str):
                out[k + 2] = index
            if out[k] in ("\\sum", "\\prod") and k + 4 < len(out) and out[k + 3] == "^":
                del out[k + 3:k + 5]
        k += 1
    # g_\xi(\theta_t) -> g_\xi: the point a function is applied at, left out in a shorthand
    k = 0
    while k < len(out):
        if isinstance(out[k], str) and out[k] in _POINT_FUNCTIONS:
            j = k + 1
            while j < len(out) and isinstance(out[j], str) and out[j] in _DECOR:
                j += 1 if out[j] == "'" else 2
            if j < len(out) and out[j] == "(":
                m = _close(out, j)
                if m is not None and _is_atom(out[j + 1:m]):
                    del out[j:m + 1]
        k += 1
    # a - b + b -> a inside a norm or a bracket
    k = 0
    while k < len(out):
        if isinstance(out[k], str) and out[k] in ("\\|", "(", "["):
            close = {"\\|": "\\|", "(": ")", "[": "]"}[out[k]]
            m = None
            if close == "\\|":
                m = next((x for x in range(k + 1, len(out)) if out[x] == "\\|"), None)
            else:
                m = _close(out, k, out[k], close)
            if m is not None:
                inner = _cancel(out[k + 1:m])
                out[k + 1:m] = inner
                k += len(inner) + 1
        k += 1
    return out


@functools.lru_cache(maxsize=16384)
def gist(latex: str) -> str:
    """A looser normal form than :func:`canonical`, for reading a declared meaning written
    in a shorthand: besides what :func:`canonical` normalises, the range of a sum or an
    extremum is reduced to its index (``\\sum_t`` is ``\\sum_{t=0}^{T}``), the point a
    function letter is applied at is left out (``g_\\xi`` is ``g_\\xi(\\theta_t)``,
    ``\\nabla f`` is ``\\nabla f(x_k)``), and terms that cancel inside a norm or a bracket
    are dropped (``\\|a - b + b\\|`` is ``\\|a\\|``).  Two quantities with one gist are
    the same only where nothing else has that gist: callers require a unique match."""
    return " ".join(_flat(i) for i in _gist_tree(latex))


@functools.lru_cache(maxsize=16384)
def _gist_tree(latex: str) -> tuple:
    s = clean(latex)
    s = re.sub(r"(?<!\\)\|\|", r"\\|", s)
    toks = [t for t in tokens(s) if not t.isspace()]
    items, _ = _groups(toks)
    return tuple(_freeze(i) for i in _gist_items(_norm_items(items)))


def _freeze(item):
    return tuple(_freeze(i) for i in item) if isinstance(item, list) else item


#: font commands a declared meaning may leave out (``\mathcal A`` printed, ``A`` declared)
_FONTS = {"\\mathcal", "\\mathscr", "\\mathfrak"}
#: operators whose subscript is no index but what they average over (``\\mathbb E_\\xi``)
_NOT_INDEXED = {"\\mathbb", "\\Pr", "\\operatorname"}
#: the letters papers index iterates, samples and coordinates by
_INDEX_LETTERS = {"i", "j", "k", "l", "m", "n", "s", "t", "\\tau"}


def _unfonted(items) -> list:
    return [_unfonted(i) if isinstance(i, tuple) else i for i in items if i not in _FONTS]


def _index_script(items, k: int) -> bool:
    """``items[k:k+2]`` is an index a shorthand leaves out: a subscript (``_k``,
    ``_{i\\in\\mathcal S_k}``) or a parenthesised superscript (``^{(i)}``) — not a power."""
    if k + 1 >= len(items):
        return False
    arg = items[k + 1]
    if items[k] == "_":
        # an index letter, alone or ranging (``_{i\\in\\mathcal S_k}``, ``_{t=0}``), not a
        # parameter (``\\mathcal D_\\alpha``, ``\\sigma_{\\mathrm{DP}}``, ``x_0``)
        head = arg[0] if isinstance(arg, list) and arg else arg
        rest = arg[1] if isinstance(arg, list) and len(arg) > 1 else None
        return head in _INDEX_LETTERS and (rest is None or rest in ("\\in", "=", "\\le",
                                                                   "\\leq", "<"))
    return items[k] == "^" and isinstance(arg, list) and len(arg) >= 3 \
        and arg[0] == "(" and arg[-1] == ")"


def _abbrev(short: list, full: list) -> bool:
    i = j = 0
    while i < len(short) and j < len(full):
        a, b = short[i], full[j]
        if isinstance(a, list) != isinstance(b, list):
            return False
        if isinstance(a, list):
            if not _abbrev(a, b):
                return False
        elif a != b:
            return False
        i, j = i + 1, j + 1
        # a letter (or \sum) the shorthand prints bare: the full form's indices left out
        if isinstance(a, str) and a not in _NOT_INDEXED and (i < 2 or short[i - 2]
                                                              not in _NOT_INDEXED) \
                and (re.fullmatch(r"[A-Za-z]", a) or a in _RANGED
                                   or (a.startswith("\\") and a[1:].isalpha()
                                       and a not in RELATIONS and a not in ("\\nabla",
                                                                            "\\partial"))):
            nxt = short[i] if i < len(short) else None
            while j < len(full) and full[j] in ("_", "^") and nxt != full[j] \
                    and _index_script(full, j):
                j += 2
    return i == len(short) and j == len(full)


def abbreviates(short: str, full: str) -> bool:
    """``short`` is ``full`` written with indices left out, as a declared meaning may be
    (``\\mathbb E_k\\|\\sum h g\\|^2`` for the printed
    ``\\mathbb{E}_{k}\\|\\sum_{i\\in\\mathcal{S}_{k}}h_{k}^{(i)}\\boldsymbol{g}_{k}^{(i)}\\|^{2}``):
    in the :func:`gist` of both, every symbol ``short`` prints bare may carry a subscript
    or a parenthesised superscript in ``full``; everything else (powers, primes, the
    indices ``short`` does print) agrees.  A letter bare in one quantity and indexed in
    another is the same only where nothing else reads so: callers require a unique match."""
    a = _unfonted(_gist_tree(short))
    b = _unfonted(_gist_tree(full))
    return _abbrev(_thaw(a), _thaw(b))


def _thaw(item):
    return [_thaw(i) for i in item] if isinstance(item, (list, tuple)) else item

"""A paper's LaTeX source: ``\\input``/``\\include`` followed, the paper's own macros
(``\\newcommand``, ``\\renewcommand``, ``\\def``, ``\\DeclareMathOperator``) expanded,
``\\newtheorem`` environments recognised, and the document walked with pylatexenc into
:mod:`~checks.importer.document` blocks with LaTeX's own numbering (theorem counters,
shared counters and ``[section]`` resets; equation numbers, ``\\tag``, ``\\nonumber``;
``\\label`` → number).
"""
from __future__ import annotations

import re
from pathlib import Path

from checks.importer.document import ENV_KINDS, Begin, Display, Document, End, Heading, Text
from checks.importer.latex import split_rows

DISPLAY_ENVS = {"equation", "equation*", "align", "align*", "eqnarray", "eqnarray*", "gather",
                "gather*", "multline", "multline*", "flalign", "flalign*", "displaymath",
                "math"}
NUMBERED_PER_ROW = {"align", "eqnarray", "gather", "flalign"}
MAX_INPUT_DEPTH = 20


class TexError(ValueError):
    """A source that cannot be read (the message names the file and why)."""


def read_tex_file(path: Path) -> str:
    """The text of ``path`` with every ``\\input``/``\\include`` replaced by its file."""
    return _inline(path, path.parent, 0, set())


def _strip_comments(text: str) -> str:
    return re.sub(r"(?<!\\)%[^\n]*", "", text)


def _inline(path: Path, root: Path, depth: int, seen: set) -> str:
    if depth > MAX_INPUT_DEPTH:
        raise TexError(f"{path}: \\input nested more than {MAX_INPUT_DEPTH} deep")
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise TexError(f"cannot read {path}: {exc.strerror or exc}") from None
    text = _strip_comments(text)

    def sub(m):
        name = m.group(2).strip()
        cand = [root / name, root / (name + ".tex")]
        for c in cand:
            if c.is_file():
                key = c.resolve()
                if key in seen:
                    return ""
                seen.add(key)
                return _inline(c, root, depth + 1, seen)
        return ""      # a missing input (e.g. a generated .bbl): skipped, as LaTeX would warn
    return re.sub(r"\\(input|include|subfile)\s*\{([^{}]+)\}", sub, text)


def main_file(folder: Path) -> Path:
    """The main .tex of an arXiv source folder: the one with ``\\documentclass``."""
    cands = sorted(folder.rglob("*.tex"))
    mains = [c for c in cands if re.search(r"\\documentclass",
                                           c.read_text(encoding="utf-8", errors="replace"))]
    if not mains:
        if len(cands) == 1:
            return cands[0]
        raise TexError(f"{folder}: no .tex file with \\documentclass")
    mains.sort(key=lambda c: ("\\begin{document}" not in c.read_text(errors="replace"),
                              len(c.parts), c.name))
    return mains[0]


# ----------------------------------------------------------------------------- macros
def collect_macros(text: str):
    """(macros, theorems, text without the definitions): ``macros`` maps a name to
    (number of arguments, default of the first or None, body); ``theorems`` maps an
    environment to (printed name, counter it shares, counter it resets with)."""
    from pylatexenc.latexwalker import LatexWalker, LatexMacroNode
    macros: dict = {}
    theorems: dict = {}
    pos_remove = []
    walker = LatexWalker(text, tolerant_parsing=True)
    nodes, _, _ = walker.get_latex_nodes()

    def arg_text(node):
        if node is None:
            return None
        return node.latex_verbatim()

    def strip_braces(s):
        s = (s or "").strip()
        if s.startswith("{") and s.endswith("}"):
            return s[1:-1]
        if s.startswith("[") and s.endswith("]"):
            return s[1:-1]
        return s

    def visit(nodelist):
        for node in nodelist or ():
            if isinstance(node, LatexMacroNode):
                name = node.macroname
                args = node.nodeargd.argnlist if node.nodeargd else []
                if name in ("newcommand", "renewcommand", "providecommand",
                            "DeclareRobustCommand") and len(args) >= 5:
                    target = strip_braces(arg_text(args[1])).strip().lstrip("\\")
                    nargs = int(strip_braces(arg_text(args[2])) or 0) if args[2] else 0
                    default = strip_braces(arg_text(args[3])) if args[3] else None
                    body = strip_braces(arg_text(args[4]))
                    if target:
                        macros[target] = (nargs, default, body)
                        pos_remove.append((node.pos, node.pos + node.len))
                    continue
                if name == "DeclareMathOperator" and len(args) >= 3:
                    target = strip_braces(arg_text(args[1])).strip().lstrip("\\")
                    body = strip_braces(arg_text(args[2]))
                    macros[target] = (0, None, "\\text{" + body + "}")
                    pos_remove.append((node.pos, node.pos + node.len))
                    continue
            if hasattr(node, "nodelist"):
                visit(node.nodelist)
    visit(nodes)
    # \newtheorem{env}[shared]{Printed}[within]: read here, pylatexenc parses no arguments
    # of \newtheorem (every declaration was dropped: no shared counters, no [section])
    for m in re.finditer(r"\\newtheorem\s*\*?\s*\{([^{}]+)\}\s*(?:\[([^\]]*)\])?\s*"
                         r"\{([^{}]*)\}(?:\s*\[([^\]]*)\])?", text):
        env, shared, printed, within = m.groups()
        theorems[env.strip()] = (printed.strip(), shared.strip() if shared else None,
                                 within.strip() if within else None)
        pos_remove.append((m.start(), m.end()))
    # \def\name#1#2{body}
    for m in re.finditer(r"\\def\s*\\([A-Za-z]+)((?:#\d)*)\s*\{", text):
        start = m.end() - 1
        end = _match_brace(text, start)
        if end < 0:
            continue
        macros[m.group(1)] = (len(m.group(2)) // 2, None, text[start + 1:end])
        pos_remove.append((m.start(), end + 1))
    out = []
    last = 0
    for a, b in sorted(pos_remove):
        if a < last:
            continue
        out.append(text[last:a])
        last = b
    out.append(text[last:])
    return macros, theorems, "".join(out)


def _match_brace(text: str, i: int) -> int:
    depth = 0
    k = i
    while k < len(text):
        c = text[k]
        if c == "\\":
            k += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return k
        k += 1
    return -1


def expand(text: str, macros: dict, rounds: int = 10) -> str:
    """``text`` with the paper's macros expanded (arguments substituted), to a fixed
    point or ``rounds`` passes (a recursive definition stops there)."""
    if not macros:
        return text
    names = sorted(macros, key=len, reverse=True)
    pat = re.compile(r"\\(" + "|".join(re.escape(n) for n in names) + r")(?![A-Za-z])")
    for _ in range(rounds):
        changed = False
        out = []
        pos = 0
        for m in pat.finditer(text):
            if m.start() < pos:
                continue
            nargs, default, body = macros[m.group(1)]
            k = m.end()
            args = []
            if nargs:
                if default is not None:
                    j = k
                    while j < len(text) and text[j] == " ":
                        j += 1
                    if j < len(text) and text[j] == "[":
                        e = text.find("]", j)
                        args.append(text[j + 1:e] if e > 0 else default)
                        k = e + 1 if e > 0 else k
                    else:
                        args.append(default)
                while len(args) < nargs:
                    j = k
                    while j < len(text) and text[j].isspace():
                        j += 1
                    if j < len(text) and text[j] == "{":
                        e = _match_brace(text, j)
                        if e < 0:
                            break
                        args.append(text[j + 1:e])
                        k = e + 1
                    elif j < len(text):
                        tok = re.match(r"\\[A-Za-z]+|.", text[j:]).group(0)
                        args.append(tok)
                        k = j + len(tok)
                    else:
                        break
            rep = body
            for a_i, a in enumerate(args, 1):
                rep = rep.replace(f"#{a_i}", a)
            # a control word followed by a letter would merge with it
            if re.search(r"\\[A-Za-z]+$", rep) and k < len(text) and text[k].isalpha():
                rep += " "
            out.append(text[pos:m.start()])
            out.append(rep)
            pos = k
            changed = True
        out.append(text[pos:])
        text = "".join(out)
        if not changed:
            break
    return text


# ----------------------------------------------------------------------------- walking
_DEFAULT_THEOREMS = {k: (k.capitalize(), None, None) for k in ENV_KINDS}


def read_tex(text: str, source: str = "") -> Document:
    from pylatexenc.latexwalker import (LatexCharsNode, LatexEnvironmentNode, LatexGroupNode,
                                        LatexMacroNode, LatexMathNode, LatexWalker)
    macros, theorems, body = collect_macros(text)
    body = expand(body, macros)
    m = re.search(r"\\begin\{document\}(.*?)(\\end\{document\}|$)", body, re.S)
    doc_body = m.group(1) if m else body
    title_m = re.search(r"\\title\s*(?:\[[^]]*\])?\s*\{", body)
    title = ""
    if title_m:
        e = _match_brace(body, title_m.end() - 1)
        title = re.sub(r"\s+", " ", body[title_m.end():e]).strip() if e > 0 else ""
    envs = dict(_DEFAULT_THEOREMS)
    envs.update(theorems)
    counters: dict = {}
    section = [0, 0]
    eq_counter = [0]
    numberwithin = re.search(r"\\numberwithin\{equation\}\{section\}", body) is not None
    blocks: list = []
    printed = []
    labels: dict = {}

    def theorem_number(env) -> str:
        printed_name, shared, within = envs[env]
        counter = shared or env
        if shared and shared in envs:
            within = envs[shared][2]
        counters[counter] = counters.get(counter, 0) + 1
        n = counters[counter]
        return f"{section[0]}.{n}" if within == "section" and section[0] else str(n)

    def next_eq() -> str:
        eq_counter[0] += 1
        return f"{section[0]}.{eq_counter[0]}" if numberwithin and section[0] else str(eq_counter[0])

    text_buf: list = []

    def flush_text():
        t = re.sub(r"\s+", " ", "".join(text_buf)).strip()
        text_buf.clear()
        if t:
            blocks.append(Text(t))

    def display(env: str, latex: str):
        flush_text()
        rows = split_rows(latex)
        base = env.rstrip("*")
        starred = env.endswith("*") or env in ("displaymath", "math", "\\[")
        numbered_rows = base in NUMBERED_PER_ROW and not starred
        for k, row in enumerate(rows):
            raw = row.latex
            nonum = re.search(r"\\(nonumber|notag)\b", raw) is not None
            if row.number is None and not starred and not nonum and (numbered_rows or k == len(rows) - 1):
                row.number = next_eq()
            if row.label and row.number:
                labels[row.label] = row.number
        if not numbered_rows and not starred:
            # one number for the whole display: LaTeX prints it on the last row
            nums = [r.number for r in rows if r.number]
            label = next((r.label for r in rows if r.label), None)
            if nums and label:
                labels[label] = nums[-1]
        blocks.append(Display(rows))

    def visit(nodes):
        for node in nodes or ():
            if isinstance(node, LatexCharsNode):
                text_buf.append(node.chars)
            elif isinstance(node, LatexMathNode):
                if node.displaytype == "display":
                    display("\\[", node.latex_verbatim()[2:-2] if node.latex_verbatim().startswith("\\[")
                            else node.latex_verbatim().strip("$"))
                else:
                    text_buf.append("$" + node.latex_verbatim().strip("$")
                                    .removeprefix("\\(").removesuffix("\\)") + "$")
            elif isinstance(node, LatexEnvironmentNode):
                env = node.environmentname
                inner = node.latex_verbatim()
                content = inner[inner.find("}") + 1:inner.rfind("\\end")]
                if env in DISPLAY_ENVS:
                    display(env, content)
                elif env.rstrip("*") in envs or env in envs:
                    flush_text()
                    key = env if env in envs else env.rstrip("*")
                    number = None if env.endswith("*") else theorem_number(key)
                    opt = ""
                    mm = re.match(r"\s*\[([^\]]*)\]", content)
                    if mm:
                        opt = mm.group(1)
                        content = content[mm.end():]
                    kind_word = envs[key][0]
                    kind = _kind_of(key, kind_word)
                    printed.append((kind, number))
                    blocks.append(Begin(kind, number, re.sub(r"\s+", " ", opt).strip(),
                                        line=0))
                    visit(_parse(content))
                    flush_text()
                    blocks.append(End(kind))
                elif env in ("proof",):
                    flush_text()
                    opt = ""
                    mm = re.match(r"\s*\[([^\]]*)\]", content)
                    if mm:
                        opt = mm.group(1)
                        content = content[mm.end():]
                    from checks.importer.document import proof_of
                    blocks.append(Begin("proof", None, opt or "Proof", of=proof_of(
                        _resolve_refs(opt, labels))))
                    visit(_parse(content))
                    flush_text()
                    blocks.append(End("proof"))
                else:
                    visit(node.nodelist)
            elif isinstance(node, LatexMacroNode):
                name = node.macroname
                if name in ("section", "subsection", "subsubsection", "appendix", "paragraph"):
                    flush_text()
                    args = node.nodeargd.argnlist if node.nodeargd else []
                    title_node = args[-1] if args else None
                    t = title_node.latex_verbatim().strip("{}") if title_node is not None else ""
                    if name == "section":
                        section[0] += 1
                        if numberwithin:
                            eq_counter[0] = 0
                        for env_, (_, shared, within) in envs.items():
                            if within == "section":
                                counters[env_] = 0
                    if name != "appendix":
                        blocks.append(Heading(t))
                elif name in ("label",):
                    pass
                elif name in ("ref", "eqref"):
                    args = node.nodeargd.argnlist if node.nodeargd else []
                    text_buf.append(node.latex_verbatim())
                else:
                    text_buf.append(node.latex_verbatim())
            elif isinstance(node, LatexGroupNode):
                visit(node.nodelist)
            else:
                text_buf.append(node.latex_verbatim() if hasattr(node, "latex_verbatim") else "")

    def _parse(s):
        walker = LatexWalker(s, tolerant_parsing=True)
        return walker.get_latex_nodes()[0]

    # theorem environments take an optional [title]; pylatexenc needs to know
    visit(_parse(doc_body))
    flush_text()
    # \eqref{label} in prose -> (number)
    for b in blocks:
        if isinstance(b, Text):
            b.text = _resolve_refs(b.text, labels)
    return Document(blocks, source, title, "latex", printed)


def _resolve_refs(text: str, labels: dict) -> str:
    return re.sub(r"\\(?:eq)?ref\{([^{}]*)\}", lambda m: labels.get(m.group(1), m.group(1)),
                  text or "")


def _kind_of(env: str, printed: str) -> str:
    for word in (printed, env):
        k = ENV_KINDS.get(word.lower().strip())
        if k:
            return word.lower().strip()
    return printed.lower().strip() if printed.lower().strip() in ENV_KINDS else "remark"

"""From the printed results to a draft encoding: steps, chains, hypotheses and symbols.

Each display is split at its relation signs into steps whose sides link (an aligned
chain ``a ≤ b = c ≤ d`` becomes a :class:`~theory.model.Chain` of three steps), numbered
``eq-N`` (``eq-N.k`` for the k-th relation of display N) with ``eq="N"``; each side is
parsed by :class:`~checks.importer.formulas.Converter`.  A step's kind says what
``dpcheck verify`` may do with it:

* ``ALGEBRA`` — both sides parsed, scalar symbols only;
* ``PROBABILISTIC`` — a side holds an expectation, a probability or a divergence stand-in;
* ``OPAQUE`` (written as PROBABILISTIC, with a TODO) — a side holds a function value, a
  norm, an inner product, a sum, an extremum over an index or an O(·): free reals the
  algebra must not judge until the user types them;
* ``UNPARSED`` — a side did not parse (or the relation is not a scalar one): the step
  stays, UNCHECKED, with its LaTeX and the reason.

Inline conditions of a statement (``Let $\\alpha > 1$``, ``for all $\\eta \\le 1/L$``,
``where $q \\in (0, 1)$``) become the result's hypotheses, and so do definitions printed
with ``:=`` / ``\\triangleq`` and a statement's ``x = …`` choices of a parameter.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

import sympy as sp

from checks.importer.document import Display, Document, Text
from checks.importer.formulas import DEFAULT_PARSER, Converter, Parsed
from checks.importer.latex import Row, relations, tokens, trim_side
from checks.importer.structure import Block, results
from checks.importer.symbols import SymbolTable, guess_from_text

SCALAR_RELS = {"=": "=", "<": "<", "<=": "<=", ">": ">", ">=": ">=", ":=": "="}
_CONDITION = re.compile(r"\b(let|for|if|and|given|assum\w*|suppos\w*|where|with|provided|when|any|"
                        r"all|every|such that|take|choose|set|under|fix|whenever)\b[^.$]{0,60}$",
                        re.I)


@dataclass
class DStep:
    label: str
    lhs: Parsed
    rel: str
    rhs: Parsed
    kind: str              # ALGEBRA, PROBABILISTIC, OPAQUE, UNPARSED
    eq: str | None
    latex: str
    reason: str = ""        # why UNPARSED / OPAQUE
    definition: bool = False
    chain: int = 0          # steps of one display with the same chain link


@dataclass
class DChain:
    label: str
    steps: list
    concludes: str | None = None


@dataclass
class DHyp:
    expr: sp.Basic
    latex: str
    where: str


@dataclass
class DResult:
    id: str
    title: str
    where: str
    env: str
    number: str
    latex: str                      # the statement as printed (prose and displays)
    hypotheses: list = field(default_factory=list)
    statement: list = field(default_factory=list)
    proof: list = field(default_factory=list)      # DChain or DStep
    proof_titles: list = field(default_factory=list)


@dataclass
class Stats:
    results: int = 0
    printed: int = 0
    displays: int = 0
    relations: int = 0
    parsed: int = 0
    algebra: int = 0
    probabilistic: int = 0
    opaque: int = 0
    unparsed: int = 0
    hypotheses: int = 0
    seconds: float = 0.0
    failures: list = field(default_factory=list)    # (step id, latex, reason)


@dataclass
class Draft:
    key: str
    title: str
    source: str
    fmt: str
    results: list
    table: SymbolTable
    stats: Stats
    parser: str


def build(doc: Document, key: str, parser: str = DEFAULT_PARSER) -> Draft:
    t0 = time.perf_counter()
    table = SymbolTable()
    conv = Converter(table, parser)
    stats = Stats()
    out = []
    blocks = results(doc)
    # the prose just before each display, in the paper's order ("Define", "where"): a
    # display that opens a result of its own has it outside the result
    before: dict = {}
    text = ""
    for b in doc.blocks:
        if isinstance(b, Text):
            text = b.text
        elif isinstance(b, Display):
            before[id(b)] = text
            text = ""
    seen_ids: set = set()
    for blk in blocks:
        rid = f"{key}:{blk.kind}-{blk.number}"
        k = 2
        while rid in seen_ids:
            rid = f"{key}:{blk.kind}-{blk.number}.x{k}"
            k += 1
        seen_ids.add(rid)
        out.append(_result(blk, rid, conv, stats, before))
    # guesses from the prose
    prose = "\n".join(b.text for b in doc.blocks if isinstance(b, Text))
    guess_from_text(table, prose, conv.symbol_name)
    table.finalize()
    stats.results = sum(1 for r in out if not r.id.split(":")[1].startswith("eq-"))
    stats.printed = len(set(doc.printed))
    stats.seconds = time.perf_counter() - t0
    return Draft(key, doc.title, doc.source, doc.fmt, out, table, stats, parser)


def _result(blk: Block, rid: str, conv: Converter, stats: Stats, prose: dict) -> DResult:
    """``prose``: the text printed just before each display (by ``id``)."""
    quote = []
    for b in blk.blocks:
        quote.append(b.text if isinstance(b, Text) else "$$" + b.latex + "$$")
    res = DResult(rid, blk.title, blk.where, blk.env, blk.number, "\n\n".join(quote))
    labels: set = set()
    counter = [0]
    # hypotheses: inline conditions of the statement's prose
    for b in blk.blocks:
        if isinstance(b, Text):
            for expr, latex in _conditions(b.text, conv):
                if all(h.expr != expr for h in res.hypotheses):
                    res.hypotheses.append(DHyp(expr, latex, f"{blk.env} {blk.number}, text"))
    # statement displays
    parts = []
    for b in blk.blocks:
        if isinstance(b, Display):
            stats.displays += 1
            steps = _steps(b, conv, stats, labels, counter, rid)
            _mark_definitions(steps, prose.get(id(b), ""), conv)
            parts.extend(steps)
    if blk.kind not in ("eq",):
        for k, st in enumerate(parts):
            st.label = "statement" if len(parts) == 1 else f"part-{k + 1}"
        # a statement's "x = ..." (a choice of parameter) or ":=" is a hypothesis
        for st in parts:
            if st.definition or (st.rel == "=" and _bare_symbol(st.lhs) and st.kind == "ALGEBRA"
                                 and len(parts) > 1 and blk.kind in ("thm", "cor", "prop", "lem")):
                _define(res, st, blk, conv)
        res.statement = parts
    else:
        # a display outside every result: its relations are the claims
        for k, st in enumerate(parts):
            st.label = "statement" if len(parts) == 1 else f"part-{k + 1}"
            if st.definition:
                _define(res, st, blk, conv)
        res.statement = parts
    # proofs
    seen = _symbols_of(res)
    for proof in blk.proofs:
        res.proof_titles.append(proof.title)
        for b in proof.blocks:
            if not isinstance(b, Display):
                # "where β_{1,2} = …", "let λ = …": the proof's definitions
                for expr, latex in _prose_definitions(b.text, conv):
                    if isinstance(expr.lhs, sp.Symbol) and expr.lhs.name not in seen:
                        _hypothesis(res, expr, latex, f"proof of {blk.env} {blk.number}, text")
                        seen.add(expr.lhs.name)
                continue
            stats.displays += 1
            steps = _steps(b, conv, stats, labels, counter, rid)
            _mark_definitions(steps, prose.get(id(b), ""), conv, seen)
            for st in steps:
                if st.definition:
                    _define(res, st, blk, conv)
                for side in (st.lhs, st.rhs):
                    if side.ok:
                        seen |= {x.name for x in side.expr.free_symbols}
            groups: list = []
            for st in steps:
                if groups and groups[-1][-1].chain == st.chain:
                    groups[-1].append(st)
                else:
                    groups.append([st])
            for group in groups:
                if len(group) == 1:
                    res.proof.append(group[0])
                    continue
                label = group[0].label.rsplit(".", 1)[0] if group[0].eq else f"chain-{counter[0]}"
                label = _unique(label if label not in labels else label + "-chain", labels)
                res.proof.append(DChain(label, group, _concludes(res, group)))
    stats.hypotheses += len(res.hypotheses)
    return res


def _define(res: DResult, st: DStep, blk: Block, conv: Converter) -> None:
    """The step ``x = expr`` as a hypothesis of the result: x a scalar symbol, or a
    function value (``g(β) = …``) over scalars; once per symbol."""
    if not st.lhs.ok or not st.rhs.ok:
        return
    if st.kind != "ALGEBRA" and not (st.kind == "OPAQUE" and _defines_value(st, conv)):
        return
    expr = sp.Eq(st.lhs.expr, st.rhs.expr, evaluate=False)
    _hypothesis(res, expr, st.latex, f"{blk.env} {blk.number}, "
                + (f"({st.eq})" if st.eq else "a definition"))


def _hypothesis(res: DResult, expr, latex: str, where: str) -> None:
    """Add ``expr`` to the result's hypotheses, unless it is there or it defines a symbol
    that another hypothesis defines already (two definitions of one symbol would make the
    hypotheses contradict each other)."""
    if any(h.expr == expr for h in res.hypotheses):
        return
    if isinstance(expr, sp.Equality) and isinstance(expr.lhs, sp.Symbol) and any(
            isinstance(h.expr, sp.Equality) and h.expr.lhs == expr.lhs for h in res.hypotheses):
        return
    res.hypotheses.append(DHyp(expr, latex, where))


def _defines_value(st: DStep, conv: Converter) -> bool:
    """``g(β) = expr``: a function value (a stand-in of its own) defined by a right side
    without stand-ins."""
    if not isinstance(st.lhs.expr, sp.Symbol) or st.rhs.standins:
        return False
    info = conv.table.symbols.get(st.lhs.expr.name)
    return bool(info and info.standin and info.standin.what == "function value")


#: prose that introduces the display after it as a definition ("Define", "we denote",
#: "where", "let")
_DEFINES = re.compile(r"\b(?:define|defining|denote|denoting|let|set|setting|write|where)\s*[:,]?\s*$",
                      re.I)


def _mark_definitions(steps: list, before: str, conv: Converter, seen: set | None = None) -> None:
    """Mark as definitions the steps of a display that define a symbol: the display's first
    ``x = …`` where the prose before it introduces a definition ("Define", "where"), and,
    with ``seen`` (the symbols met so far in a proof), a ``x = …`` whose scalar x appears
    there for the first time (``β^* = …`` after "one may obtain")."""
    cue = bool(_DEFINES.search(before.rstrip()[-60:])) if before else False
    for st in steps:
        if st.rel != "=" or not st.lhs.ok or not st.rhs.ok or st.definition:
            continue
        lhs = st.lhs.expr
        if not isinstance(lhs, sp.Symbol) or lhs in st.rhs.expr.free_symbols:
            continue
        if cue and (_bare_symbol(st.lhs) or _defines_value(st, conv)):
            st.definition = True
            cue = False
        elif seen is not None and _bare_symbol(st.lhs) and st.kind == "ALGEBRA" \
                and lhs.name not in seen:
            st.definition = True


def _symbols_of(res: DResult) -> set:
    """The names of the symbols the result's hypotheses and statement mention."""
    out = set()
    for h in res.hypotheses:
        out |= {x.name for x in h.expr.free_symbols}
    for st in res.statement:
        for side in (st.lhs, st.rhs):
            if side.ok:
                out |= {x.name for x in side.expr.free_symbols}
    return out


#: ``x_{1,2} = a \mp b``: two definitions printed as one (x_1 = a − b, x_2 = a + b)
_PAIR = re.compile(r"^\s*(.+?)_\{\s*([A-Za-z0-9]+)\s*,\s*([A-Za-z0-9]+)\s*\}\s*=(.*)$", re.S)


def _prose_definitions(text: str, conv: Converter):
    """(Eq(x, expr), latex) for each inline definition of a scalar symbol in prose after
    "where", "let", "with", "set", "define" (``where $\\lambda = 1 + …$``), and the two of
    ``$\\beta_{1,2} = \\tfrac12(a \\mp b)$``."""
    for m in re.finditer(r"\$([^$]+)\$", text):
        if not re.search(r"\b(?:let|where|with|set|define|denote|and|take|choose)\b[^.$]{0,30}$",
                         _prose_before(text, m.start()), re.I):
            continue
        latex = trim_side(m.group(1))
        if _WORD.search(re.sub(r"\\(?:text|mathrm|operatorname)\{[^{}]*\}", "", latex)):
            continue        # prose read into the formula ("\delta'=\delta/2 implies Algorithm")
        pair = _PAIR.match(latex)
        if pair and len(re.findall(r"\\[mp]p(?![A-Za-z])", pair.group(4))) == 1:
            base, a, b, rhs = pair.groups()
            sign = re.search(r"\\([mp])p(?![A-Za-z])", rhs).group(1)
            first, second = ("-", "+") if sign == "m" else ("+", "-")
            for index, op in ((a, first), (b, second)):
                got = _definition_of(f"{base}_{{{index}}}",
                                     re.sub(r"\\[mp]p(?![A-Za-z])", op, rhs), conv)
                if got is not None:
                    yield got, latex
            continue
        if latex.count("=") != 1 or re.search(r"\\(?:leq?|geq?|in|neq)(?![A-Za-z])|[<>]", latex):
            continue
        lhs, rhs = latex.split("=")
        got = _definition_of(lhs, rhs, conv)
        if got is not None:
            yield got, latex


#: a word of prose: three letters or more not after a backslash
_WORD = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{3,}")


def _prose_before(text: str, start: int, width: int = 80) -> str:
    """The prose before the formula at ``start``, without the formula's visible rendering
    a LaTeXML text puts before its LaTeX (``where β1,2=12((1+7…`` is ``where``)."""
    words = text[max(0, start - 400):start].split()
    while words and any(ord(c) > 127 for c in words[-1]):
        words.pop()
    return " ".join(words)[-width:] + " "


def _definition_of(lhs: str, rhs: str, conv: Converter):
    """Eq(x, expr) where ``lhs`` is one scalar symbol not in ``rhs`` and ``rhs`` parses
    without stand-ins; else None."""
    a, b = conv.side(lhs), conv.side(rhs)
    if not (a.ok and b.ok) or a.standins or b.standins or not isinstance(a.expr, sp.Symbol):
        return None
    if a.expr in b.expr.free_symbols:
        return None
    return sp.Eq(a.expr, b.expr, evaluate=False)


def _bare_symbol(p: Parsed) -> bool:
    return p.ok and isinstance(p.expr, sp.Symbol) and not p.standins


def _unique(label: str, labels: set) -> str:
    base, k = label, 2
    while label in labels:
        label = f"{base}-{k}"
        k += 1
    labels.add(label)
    return label


def _number_label(number: str) -> str:
    return re.sub(r"[^a-z0-9.]", "", number.lower()).strip(".") or "x"


def _steps(disp: Display, conv: Converter, stats: Stats, labels: set, counter: list,
           rid: str) -> list[DStep]:
    rels = relations(disp.rows)
    if not rels:
        # a display without a relation sign (an expression, a definition by words): kept
        # as one unparsed row so that it is shown
        if not any(trim_side(r.latex) for r in disp.rows):
            return []
        number = next((r.number for r in disp.rows if r.number), None)
        counter[0] += 1
        label = _unique(f"eq-{_number_label(number)}" if number else f"line-{counter[0]}", labels)
        p = conv.side(disp.latex)
        stats.relations += 1
        stats.unparsed += 1
        st = DStep(label, Parsed(None, disp.latex, "no relation sign"), "=",
                   Parsed(None, "", "no relation sign"), "UNPARSED", number, disp.latex,
                   "a display with no relation sign")
        stats.failures.append((f"{rid}/{label}", disp.latex, st.reason))
        del p
        return [st]
    out = []
    numbers = [r.number for r in rels if r.number]
    multi = len(rels) > 1
    for k, r in enumerate(rels):
        counter[0] += 1
        stats.relations += 1
        if r.number:
            same = [x for x in rels if x.number == r.number]
            idx = same.index(r) + 1
            label = f"eq-{_number_label(r.number)}" + (f".{idx}" if len(same) > 1 else "")
        else:
            label = f"line-{counter[0]}"
        label = _unique(label, labels)
        latex = f"{r.lhs.latex} {r.rel if r.rel in SCALAR_RELS else r.rel} {r.rhs.latex}"
        lhs = conv.side(r.lhs.latex)
        rhs = conv.side(r.rhs.latex)
        if not r.scalar:
            kind, reason = "UNPARSED", f"the relation {r.rel} is not a scalar relation"
        elif not lhs.ok or not rhs.ok:
            kind = "UNPARSED"
            bad = lhs if not lhs.ok else rhs
            reason = f"{'left' if bad is lhs else 'right'} side did not parse: {bad.error}"
        else:
            stand = lhs.standins | rhs.standins
            probabilistic = [s for s in stand if conv.table.is_probabilistic(s)]
            big_o = "c_O" in {str(s) for s in lhs.expr.free_symbols | rhs.expr.free_symbols}
            if probabilistic:
                kind, reason = "PROBABILISTIC", "about " + ", ".join(sorted(probabilistic)[:3])
            elif stand or big_o:
                kind = "OPAQUE"
                reason = "holds " + ", ".join(sorted(stand)[:3] + (["an O(.)"] if big_o else []))
            else:
                kind, reason = "ALGEBRA", ""
            stats.parsed += 1
        if kind == "UNPARSED":
            stats.unparsed += 1
            stats.failures.append((f"{rid}/{label}", latex, reason))
        elif kind == "ALGEBRA":
            stats.algebra += 1
        elif kind == "PROBABILISTIC":
            stats.probabilistic += 1
        else:
            stats.opaque += 1
        out.append(DStep(label, lhs, SCALAR_RELS.get(r.rel, "="), rhs, kind, r.number, latex,
                         reason, definition=r.rel == ":=", chain=r.chain))
    del numbers, multi
    return out


def _conditions(text: str, conv: Converter):
    """(hypothesis, latex) for each inline relation of the prose that is a condition
    (after "let", "for", "if", "where", …) over scalar symbols."""
    for m in re.finditer(r"\$([^$]+)\$", text):
        before = _prose_before(text, m.start())
        if not _CONDITION.search(before) and not re.search(r"[,(]\s*$", before.rstrip()[-3:]):
            continue
        latex = m.group(1)
        if _WORD.search(re.sub(r"\\(?:text|mathrm|operatorname)\{[^{}]*\}", "", latex)):
            continue        # prose read into the formula
        for expr in _relations_of(latex, conv):
            yield expr, latex


def _relations_of(latex: str, conv: Converter):
    """Scalar relations of an inline formula: chains ``0 < q < 1``, lists ``a, b \\geq 0``,
    intervals ``q \\in (0, 1)``."""
    from checks.importer.latex import split_relations
    m = re.fullmatch(r"\s*(.+?)\s*\\in\s*([(\[])\s*([^,]+?)\s*,\s*([^,]+?)\s*([)\]])\s*[.,]?\s*", latex)
    if m:
        x = conv.side(m.group(1))
        lo, hi = conv.side(m.group(3)), conv.side(m.group(4))
        if x.ok and lo.ok and hi.ok and not (x.standins or lo.standins or hi.standins):
            if not lo.expr.has(sp.oo, -sp.oo):
                yield (sp.Gt if m.group(2) == "(" else sp.Ge)(x.expr, lo.expr, evaluate=False)
            if not hi.expr.has(sp.oo, -sp.oo):
                yield (sp.Lt if m.group(5) == ")" else sp.Le)(x.expr, hi.expr, evaluate=False)
        return
    sides, rels = split_relations([Row(latex)])
    if not rels or any(r not in ("<", "<=", ">", ">=", "=") for r in rels):
        return
    parsed = []
    for s in sides:
        items = [p for p in _top_commas(s.latex)]
        got = [conv.side(p) for p in items]
        if not all(g.ok and not g.standins for g in got):
            return
        parsed.append([g.expr for g in got])
    cls = {"<": sp.Lt, "<=": sp.Le, ">": sp.Gt, ">=": sp.Ge, "=": sp.Eq}
    for k, rel in enumerate(rels):
        lefts, rights = parsed[k], parsed[k + 1]
        if len(lefts) > 1 and len(rights) > 1:
            return
        for a in lefts:
            for b in rights:
                if a.is_number and b.is_number:
                    continue
                if rel == "=" and not isinstance(a, sp.Symbol):
                    continue
                yield cls[rel](a, b, evaluate=False)


def _top_commas(latex: str) -> list[str]:
    out, cur, depth = [], [], 0
    for t in tokens(latex):
        if t in ("(", "[", "{", "\\{"):
            depth += 1
        elif t in (")", "]", "}", "\\}"):
            depth -= 1
        if t == "," and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(t)
    out.append("".join(cur))
    return [p for p in out if p.strip()]


def _concludes(res: DResult, steps: list) -> str | None:
    """The statement part a chain establishes: its first left side and last right side
    are the part's sides, and its composed relation gives the part's."""
    from theory.model import Rel
    if not steps or not all(s.lhs.ok and s.rhs.ok for s in steps):
        return None
    comp = Rel(steps[0].rel)
    for s in steps[1:]:
        comp = Rel.compose(comp, Rel(s.rel))
        if comp is None:
            return None
    first, last = steps[0].lhs.expr, steps[-1].rhs.expr
    for part in res.statement:
        if not (part.lhs.ok and part.rhs.ok):
            continue
        same = _equal(first, part.lhs.expr) and _equal(last, part.rhs.expr)
        if same and comp.implies(Rel(part.rel)):
            return part.label
    return None


def _equal(a, b) -> bool:
    """``a`` and ``b`` are one expression: structurally, or their difference expands to 0
    (no simplify: a chain's ends are the statement's sides as printed or not at all)."""
    if a == b:
        return True
    try:
        return sp.expand(a - b) == 0
    except Exception:  # noqa: BLE001 - a comparison SymPy cannot make is no conclusion
        return False

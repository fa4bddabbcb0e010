"""A :class:`~checks.importer.draft.Draft` as a paper module a person can read and edit.

The module declares every symbol (DIMLESS, with the paper's LaTeX; each assumption the
importer guessed is a ``# TODO(guess)``), one ``Result`` per printed result in the
paper's order with its LaTeX quoted in the docstring under it, and marks with ``# TODO``
every row that needs a person: a side that did not parse (``TODO(unparsed)``: the row is
UNCHECKED and carries its LaTeX), a row over stand-ins (``TODO(opaque)``,
``TODO(probabilistic)``).  ``grep -n TODO`` (or ``dpcheck lint``) lists them.
"""
from __future__ import annotations

import re

import sympy as sp
from sympy.printing.str import StrPrinter

from checks.importer.draft import DChain, Draft, DResult, DStep
from checks.importer.symbols import BASE_NAMES, describe

KIND_CODE = {"ALGEBRA": "ALG", "PROBABILISTIC": "PRO", "OPAQUE": "OPAQUE", "UNPARSED": "PRO"}


class _Printer(StrPrinter):
    """SymPy's str printer with ``sp.``-qualified functions and exact rationals, so
    that the printed text is Python that rebuilds the expression."""

    def _print_Rational(self, expr):
        return f"sp.Rational({expr.p}, {expr.q})"

    def _print_Half(self, expr):
        return "sp.Rational(1, 2)"

    def _print_Exp1(self, expr):
        return "sp.E"

    def _print_Pi(self, expr):
        return "sp.pi"

    def _print_Infinity(self, expr):
        return "sp.oo"

    def _print_NegativeInfinity(self, expr):
        return "-sp.oo"

    def _print_Function(self, expr):
        name = type(expr).__name__
        return f"sp.{name}(" + ", ".join(self._print(a) for a in expr.args) + ")"

    _print_Min = _print_Max = _print_Abs = _print_log = _print_exp = _print_Function

    def _print_Pow(self, expr, rational=False):
        b, e = expr.as_base_exp()
        if e == sp.Rational(1, 2):
            return f"sp.sqrt({self._print(b)})"
        if e == -sp.Rational(1, 2):
            return f"1/sp.sqrt({self._print(b)})"
        if e.is_Rational and not e.is_Integer:
            return f"{self.parenthesize(b, 1000)}**sp.Rational({e.p}, {e.q})"
        return super()._print_Pow(expr, rational)

    def _print_Float(self, expr):
        return f"sp.Float('{expr}')"

    def _print_Relational(self, expr):
        op = {"<": "<", "<=": "<=", ">": ">", ">=": ">="}.get(expr.rel_op)
        if op is None:
            return f"sp.Eq({self._print(expr.lhs)}, {self._print(expr.rhs)})"
        return f"{self._print(expr.lhs)} {op} {self._print(expr.rhs)}"


def pyexpr(expr) -> str:
    return _Printer({"order": "none"}).doprint(expr)


def _raw(text: str) -> str:
    """A raw triple-quoted string literal holding ``text``."""
    t = text.replace('"""', "'''")
    t = re.sub(r"\\+$", "", t.rstrip())
    return 'r"""' + t + '"""'


def _str(text: str, limit: int = 400) -> str:
    t = re.sub(r"\s+", " ", text).strip()
    if len(t) > limit:
        t = t[:limit - 1] + "…"
    return repr(t)


def _var(rid: str) -> str:
    name = rid.split(":", 1)[1].upper()
    return re.sub(r"[^A-Z0-9]", "_", name)


def write(draft: Draft) -> str:
    """The paper module's text."""
    out: list[str] = []
    unparsed: list[tuple[str, str]] = []     # (stand-in name, latex) of sides that did not parse
    for res in draft.results:
        for st in _all_steps(res):
            if st.kind == "UNPARSED":
                st._names = []
                for side in (st.lhs, st.rhs):
                    if side.ok:
                        st._names.append(None)
                        continue
                    name = f"unparsed_{len(unparsed) + 1}"
                    unparsed.append((name, side.latex or st.latex))
                    st._names.append(name)
    s = draft.stats
    used_base = sorted(n for n in BASE_NAMES if n in draft.table.symbols)
    out.append(f'"""{draft.key}: {_doc(draft.title)} — a draft written by `dpcheck import`.\n')
    out.append(f"Source: {_doc(draft.source)} ({draft.fmt}).  Imported: {s.results} results, "
               f"{s.relations} display relations, {s.parsed} parsed into SymPy "
               f"({s.algebra} algebra, {s.probabilistic} probabilistic, {s.opaque} over opaque "
               f"stand-ins), {s.unparsed} not parsed (each kept as an UNCHECKED row with its "
               f"LaTeX), {s.hypotheses} hypotheses read from the text.\n")
    out.append("Next steps (`grep -n TODO` lists every place):\n")
    out.append("* `dpcheck lint FILE` and `dpcheck verify FILE` run on this file as it stands;")
    out.append("* TODO(guess): an assumption read from the text or a convention — confirm it;")
    out.append("* TODO(dimension): every symbol is DIMLESS — give parameters their dimensions")
    out.append("  (THETA, LOSS, GRADIENT, STEPSIZE, CURVATURE from theory.quantities);")
    out.append("* TODO(unparsed): a side the importer could not read — write it by hand;")
    out.append("* TODO(opaque): a row over stand-ins (f(x), a norm, a sum, an O(.)) that the")
    out.append("  algebra cannot judge: bind them (roles, hypotheses) and make the row ALGEBRA;")
    out.append("* TODO(probabilistic): a row about an expectation, a probability or a divergence:")
    out.append("  name an oracle, or type the result (a Bound on a mechanism, a Rate).")
    out.append('"""')
    out.append("import sympy as sp\n")
    out.append("from theory.model import Chain, Paper, Result, Step, StepKind, asm")
    out.append("from theory.quantities import DIMLESS, table")
    if used_base:
        out.append(f"from theory.quantities import {', '.join(used_base)}")
    out.append("")
    out.append("ALG, SCA, PRO, CIT = (StepKind.ALGEBRA, StepKind.SCALAR, StepKind.PROBABILISTIC,")
    out.append("                      StepKind.CITED)")
    out.append("#: rows over opaque stand-ins (a function value, a norm, a sum, an O(.)): never")
    out.append("#: judged as algebra until their relations are stated (then make them ALG)")
    out.append("OPAQUE = StepKind.PROBABILISTIC")
    out.append("")
    out.append(f"SYMBOLS = table({draft.key!r}, {_str('symbols of ' + draft.title, 120)})")
    out.append("# TODO(dimension): every symbol below is DIMLESS; declare the dimensions")
    params = [i for i in draft.table.symbols.values() if not i.base and i.standin is None]
    stand = [i for i in draft.table.symbols.values() if i.standin is not None]
    for info in sorted(params, key=lambda i: i.name.lower()):
        out.append(_declare(info.name, "symbol", describe(info.latex), info.assumptions,
                            info.guesses, latex=info.latex))
    if stand:
        out.append("")
        out.append("# stand-ins: quantities a scalar encoding holds as symbols (what each is,")
        out.append("# as text, in the description, its LaTeX in latex=); rows about expectations,")
        out.append("# probabilities and divergences are PROBABILISTIC, rows over the others OPAQUE")
        for info in stand:
            st = info.standin
            out.append(_declare(info.name, f"{st.what} ({st.kind.lower()})", st.text,
                                info.assumptions, info.guesses, latex=info.latex))
    if unparsed:
        out.append("")
        out.append("# sides that did not parse: each stands for its LaTeX; the rows holding them")
        out.append("# stay UNCHECKED until written by hand")
        for name, latex in unparsed:
            out.append(f"{name} = SYMBOLS.quantity({name!r}, DIMLESS, {_str('did not parse: ' + latex)})"
                       f"  # TODO(unparsed)")
    out.append("")
    out.append(f"PAPER = Paper(key={draft.key!r}, title={_str(draft.title, 200)},")
    out.append(f"              file={_str(draft.source, 200)}, symbols=SYMBOLS)")
    out.append("")
    names = []
    for res in draft.results:
        var = _var(res.id)
        names.append(var)
        out.extend(_result(res, var))
        out.append("")
    out.append("RESULTS = [")
    line = "   "
    for n in names:
        if len(line) + len(n) + 2 > 92:
            out.append(line)
            line = "   "
        line += f" {n},"
    out.append(line)
    out.append("]")
    return "\n".join(out) + "\n"


def _doc(text: str) -> str:
    return re.sub(r"\s+", " ", (text or "").replace('"""', "'''").replace("\\", "/")).strip()[:200]


def _declare(name, what, text, assumptions, guesses, latex=None) -> str:
    latex = text if latex is None else latex
    kw = ", ".join(f"{k}=True" for k in sorted(assumptions))
    desc = _str(f"{what}: {text}", 160)
    line = (f"{name} = SYMBOLS.quantity({name!r}, DIMLESS, {desc}, latex={_raw(latex) if latex else 'None'}"
            + (f", {kw}" if kw else "") + ")")
    if guesses:
        line += "  # TODO(guess): " + "; ".join(guesses)
    return line


def _all_steps(res: DResult):
    yield from res.statement
    for item in res.proof:
        if isinstance(item, DChain):
            yield from item.steps
        else:
            yield item


def _result(res: DResult, var: str) -> list[str]:
    out = [f"{var} = Result("]
    out.append(f"    {res.id!r}, {_str(res.title, 120)}, {_str(res.where, 160)},")
    if res.hypotheses:
        out.append("    hypotheses=[")
        for h in res.hypotheses:
            out.append(f"        asm({pyexpr(h.expr)}, {_str(h.where, 80)}),")
        out.append("    ],")
    if res.statement:
        out.append("    statement=[")
        for st in res.statement:
            out.extend("        " + x for x in _step(st))
        out.append("    ],")
    if res.proof:
        out.append("    proof=[")
        for item in res.proof:
            if isinstance(item, DChain):
                conc = f", concludes={item.concludes!r}" if item.concludes else ""
                out.append(f"        Chain({item.label!r}, [")
                for st in item.steps:
                    out.extend("            " + x for x in _step(st))
                out.append(f"        ]{conc}),")
            else:
                out.extend("        " + x for x in _step(item))
        out.append("    ],")
    if res.proof_titles:
        out.append(f"    note={_str('proof: ' + '; '.join(res.proof_titles), 200)},")
    out.append(")")
    quote = f"{res.env} {res.number}" + (f" ({res.title})" if res.title else "") + ", as printed:"
    out.append(_raw(quote + "\n\n" + (res.latex or "(no statement text)") + "\n"))
    return out


def _step(st: DStep) -> list[str]:
    names = getattr(st, "_names", [None, None])
    lhs = names[0] if st.kind == "UNPARSED" and names[0] else (
        pyexpr(st.lhs.expr) if st.lhs.ok else "0")
    rhs = names[1] if st.kind == "UNPARSED" and names[1] else (
        pyexpr(st.rhs.expr) if st.rhs.ok else "0")
    kind = KIND_CODE[st.kind]
    eq = f", eq={st.eq!r}" if st.eq else ""
    todo = {"UNPARSED": f"  # TODO(unparsed): {st.reason}",
            "OPAQUE": f"  # TODO(opaque): {st.reason}",
            "PROBABILISTIC": f"  # TODO(probabilistic): {st.reason}"}.get(st.kind, "")
    note = f", note={_str('printed: ' + st.latex, 300)}"
    if st.kind == "UNPARSED":
        note = f", note={_str('not checked: ' + st.reason + '; printed: ' + st.latex, 400)}"
    return [f"Step({st.label!r}, {lhs}, {st.rel!r}, {rhs}, {kind}{eq}{note}),{todo}"]

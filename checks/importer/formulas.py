"""One side of a printed relation, from LaTeX to SymPy.

A side is rewritten before it is parsed: every printed symbol (``\\sigma_{\\text{DP}}``,
``\\boldsymbol{\\theta}_{t+1}``, ``x^{*}``) becomes a placeholder ``v_{k}`` standing for
its :mod:`~checks.importer.symbols` name, every quantity that is not a scalar expression
(an expectation, a probability, a divergence, a function at a point, a norm, an inner
product, a sum or an extremum over an index) becomes a placeholder for its stand-in,
``\\mathcal{O}(x)`` becomes ``c_O \\cdot (x)`` (the constant hidden in an O, as the
encodings write it), and juxtaposition is made an explicit ``\\cdot``.  Two printed
conventions are applied on the way: an inner product is linear in its first argument
(``[a x + b y]^T(z)`` is ``a·x^T z + b·y^T z``), and a sum's factors that do not mention
its index leave it (``\\sum_{t=0}^{T-1} 2\\alpha C^2/(\\beta nb\\sigma^2)`` is ``T`` times the
term).  What is left — fractions, roots, powers, logarithms, brackets, ``\\min``/``\\max``
of a list — is parsed one factor at a time by a LaTeX-to-SymPy parser, each factor as a
template whose placeholders and numbers are renamed in order (a paper's thousands of
factors are a few dozen templates, each parsed once): SymPy's own
``parse_latex(backend="lark")`` by default, ``latex2sympy2_extended`` on request
(``benchmarks/bench_import.py --parser both`` measures both on the seed papers).
"""
from __future__ import annotations

import functools
import re
import warnings
from dataclasses import dataclass, field

import sympy as sp

from checks.importer.latex import (CLOSE, OPEN, RELATIONS, canonical, clean, join, tokens,
                                   trim_side)
from checks.importer.symbols import GREEK, OPAQUE, PROBABILISTIC, SymbolTable, sanitize


class Unparsed(ValueError):
    """A side that cannot be read as a scalar expression (the reason is the message)."""


FONT = {"\\mathcal": "cal_", "\\mathscr": "scr_", "\\mathfrak": "frak_", "\\mathbb": "bb_",
        "\\boldsymbol": "bf_", "\\mathbf": "bf_", "\\mathit": "", "\\mathnormal": ""}
ACCENT = {"\\bar": "_bar", "\\overline": "_bar", "\\hat": "_hat", "\\widehat": "_hat",
          "\\tilde": "_tilde", "\\widetilde": "_tilde", "\\dot": "_dot", "\\ddot": "_ddot",
          "\\vec": "_vec", "\\check": "_check", "\\breve": "_breve", "\\underline": "_ul"}
FUNCS = {"\\log": "\\ln", "\\ln": "\\ln", "\\exp": "\\exp", "\\sin": "\\sin", "\\cos": "\\cos",
         "\\tan": "\\tan", "\\tanh": "\\tanh", "\\sinh": "\\sinh", "\\cosh": "\\cosh",
         "\\arcsin": "\\arcsin", "\\arctan": "\\arctan"}
#: operators over an index or a set: an opaque stand-in covering the term they apply to
BIG_OPS = {"\\sum": "sum", "\\prod": "prod", "\\int": "int", "\\inf": "inf", "\\sup": "sup",
           "\\lim": "lim", "\\limsup": "limsup", "\\liminf": "liminf", "\\argmin": "argmin",
           "\\argmax": "argmax", "\\esssup": "esssup", "\\bigcup": "cup", "\\bigcap": "cap",
           "\\oint": "int", "\\iint": "int"}
#: letters a paper applies to points: ``f(x)`` is a value, not f times x
FUNCTION_LETTERS = {"f", "g", "h", "l", "ell", "F", "psi", "phi", "varphi", "Phi", "Psi",
                    "Pi", "pi", "clip", "Proj", "proj", "sign", "sgn", "A", "R", "Q"}
#: a superscript that decorates a symbol instead of raising it to a power
DECORATION = re.compile(r"^\s*(?:\*|\\ast|\\star|\\prime(?:\s*\\prime)*|'+|\+|-|\\top|\\dagger|"
                        r"\\circ|\\natural|\\sharp|\\flat|\\text\{[^{}]*\}|\\mathrm\{[^{}]*\}|"
                        r"\((?:[A-Za-z]|\\[A-Za-z]+)(?:[^()]*)\)|[a-z]\w*|"
                        r"\\(?:rm|sf|mathsf)\s*\w+)\s*$")
_NOT_DECORATION = re.compile(r"^\s*(?:[0-9]|\\frac|-?\d|\\sqrt|[a-z]\s*[-+/]|T\s*$)")

PARSERS = ("sympy-lark", "latex2sympy2_extended")
#: measured on the four seeds (benchmarks/bench_import.py --parser both): the same round-trip
#: recall and time, and SymPy's lark grammar reads |x| where latex2sympy2_extended does not
DEFAULT_PARSER = "sympy-lark"


@dataclass
class Parsed:
    expr: sp.Expr | None
    latex: str
    error: str = ""
    standins: set = field(default_factory=set)     # names of stand-ins in the expression

    @property
    def ok(self) -> bool:
        return self.expr is not None


class Converter:
    """Turns sides into SymPy over the symbols of one :class:`SymbolTable`."""

    def __init__(self, table: SymbolTable, parser: str = DEFAULT_PARSER):
        if parser not in PARSERS:
            raise ValueError(f"parser must be one of {PARSERS}, got {parser!r}")
        self.table = table
        self.parser = parser
        self._placeholders: dict[str, str] = {}   # symbol name -> placeholder
        self._names: dict[str, str] = {}          # placeholder -> symbol name
        self._subs: dict[str, sp.Expr] = {}       # placeholder -> parsed sub-expression

    # ------------------------------------------------------------------ public
    def side(self, latex: str) -> Parsed:
        """The SymPy expression of one side (``Parsed.expr`` None with the reason when
        it cannot be read)."""
        text = trim_side(_cut_condition(trim_side(latex)))
        if not text:
            return Parsed(None, latex, "empty side")
        try:
            used: set = set()
            rewritten = self.rewrite(_script_order(tokens(text)), used)
            expr = self._excess(self._restore(self._parse_sum(rewritten)))
        except Unparsed as exc:
            return Parsed(None, text, str(exc))
        except Exception as exc:  # noqa: BLE001 - a parser's own error is a reason, not a crash
            msg = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            return Parsed(None, text, f"parser: {type(exc).__name__}: {msg[:120]}")
        bad = [s for s in expr.free_symbols if not isinstance(s, sp.Symbol)]
        if bad:
            return Parsed(None, text, "not a scalar expression")
        if expr.has(sp.Integral, sp.Derivative, sp.Limit, sp.Sum, sp.Product, sp.Matrix,
                    sp.Interval, sp.FiniteSet, sp.Tuple):
            return Parsed(None, text, "not a scalar expression")
        if expr.atoms(sp.Function) - {f for f in expr.atoms(sp.Function)
                                      if isinstance(f, (sp.log, sp.exp, sp.Min, sp.Max,
                                                        sp.Abs, sp.sin, sp.cos, sp.tan,
                                                        sp.sinh, sp.cosh, sp.tanh, sp.asin,
                                                        sp.atan))}:
            return Parsed(None, text, "an undefined function")
        if expr.has(sp.zoo, sp.nan) or isinstance(expr, (sp.Equality, sp.Rel, bool)):
            return Parsed(None, text, "not a scalar expression")
        names = {str(s) for s in expr.free_symbols if self.table.is_opaque(s)}
        return Parsed(expr, text, "", names)

    def symbol_name(self, latex: str) -> str | None:
        """The name of an inline formula that is one symbol (``$T$``), else None."""
        toks = [t for t in tokens(clean(latex)) if not t.isspace()]
        try:
            got = self._atom(toks, 0)
        except Unparsed:
            return None
        if got is None or got[1] != len(toks):
            return None
        return got[0]

    # ------------------------------------------------------------------ rewriting
    def _ph(self, name: str) -> str:
        ph = self._placeholders.get(name)
        if ph is None:
            code = _letters(len(self._placeholders) + 1)
            ph = f"v_{{{code}}}"
            self._placeholders[name] = ph
            self._names[f"v_{code}"] = name
        return ph

    def rewrite(self, toks: list[str], used: set, depth: int = 0) -> str:
        """The tokens as parser input: placeholders for symbols and stand-ins, explicit
        products, brackets as parentheses."""
        if depth > 60:
            raise Unparsed("nested too deeply")
        toks = [t for t in toks if not t.isspace()]
        out: list[str] = []
        i = 0
        factor_before = False      # the previous item ends a factor (a product may follow)

        def put(text, factor=True):
            nonlocal factor_before
            if factor and factor_before:
                out.append(" \\cdot ")
            out.append(text)
            factor_before = factor

        while i < len(toks):
            t = toks[i]
            if t in RELATIONS or t in (":", ";", "\\mid", "|") and t != "|":
                raise Unparsed(f"a relation or separator {t!r} inside a side")
            if t in ("+", "-"):
                out.append(f" {t} ")
                factor_before = False
                i += 1
                continue
            if t in ("\\cdot", "*"):
                out.append(" \\cdot ")
                factor_before = False
                i += 1
                continue
            if t == "/":
                out.append(" / ")
                factor_before = False
                i += 1
                continue
            if t == "\\pm" or t == "\\mp":
                raise Unparsed("±")
            if t == "^":
                arg, i = self._group(toks, i + 1)
                out.append("^{" + self.sub(self.rewrite(arg, used, depth + 1)) + "}")
                factor_before = True
                continue
            if t == "_":
                raise Unparsed("a subscript on a bracket or an operator")
            if t == "!":
                raise Unparsed("a factorial")
            if t == "'":
                raise Unparsed("a prime on a bracket")
            if re.fullmatch(r"\d+(?:\.\d+)?", t):
                put(t)
                i += 1
                continue
            if t == "\\frac":
                a, i = self._group(toks, i + 1)
                b, i = self._group(toks, i)
                put("\\frac{" + self.sub(self.rewrite(a, used, depth + 1)) + "}{"
                    + self.sub(self.rewrite(b, used, depth + 1)) + "}")
                continue
            if t == "\\sqrt":
                index = None
                j = i + 1
                if j < len(toks) and toks[j] == "[":
                    k = _match(toks, j)
                    index = toks[j + 1:k]
                    j = k + 1
                a, i = self._group(toks, j)
                body = self.sub(self.rewrite(a, used, depth + 1))
                if index:
                    put("\\sqrt[" + self.rewrite(index, used, depth + 1) + "]{" + body + "}")
                else:
                    put("\\sqrt{" + body + "}")
                continue
            if t in FUNCS:
                put(FUNCS[t], factor=True)
                factor_before = False   # its argument follows without a product
                i += 1
                if i < len(toks) and toks[i] == "^":
                    raise Unparsed("a power of a function (log^2 x)")
                continue
            if t in ("\\min", "\\max"):
                i = self._minmax(toks, i, used, depth, put)
                continue
            if t in BIG_OPS or (t == "\\text" and i + 1 < len(toks)
                                and join(self._group(toks, i + 1)[0]) in ("argmin", "argmax")):
                i = self._big_op(toks, i, used, put)
                continue
            if t in ("\\mathcal", "\\text") and i + 1 < len(toks) and \
                    join(self._group(toks, i + 1)[0]) in ("O", "Omega", "\\Omega", "Theta",
                                                              "\\Theta"):
                _, j = self._group(toks, i + 1)
                i = self._big_o(toks, j, used, put, depth)
                continue
            if t in ("O",) and i + 1 < len(toks) and toks[i + 1] == "(":
                i = self._big_o(toks, i + 1, used, put, depth)
                continue
            if t in ("\\Omega", "\\Theta") and i + 1 < len(toks) and toks[i + 1] == "(":
                raise Unparsed(f"{t}(...) is a lower or two-sided order")
            if t == "\\|":
                i, power = self._norm(toks, i, used, put)
                if power is not None:
                    out.append("^{" + self.sub(self.rewrite(power, used, depth + 1)) + "}")
                    factor_before = True
                continue
            if t == "|":
                k = _match_bar(toks, i)
                inner = self.sub(self.rewrite(toks[i + 1:k], used, depth + 1))
                put("\\left|" + inner + "\\right|")
                i = k + 1
                continue
            if t == "\\langle":
                k = _match(toks, i)
                latex = join(toks[i:k + 1])
                put(self._standin(latex, "inner product", OPAQUE, "ip_" + _slug(toks[i + 1:k]),
                                  used))
                i = k + 1
                continue
            if t in ("(", "[", "\\{", "\\lceil", "\\lfloor"):
                k = _match(toks, i)
                if t == "\\lceil" or t == "\\lfloor":
                    raise Unparsed("a ceiling or floor")
                end = self._transposed(toks, i, k + 1)
                if end is not None:
                    second = toks[self._group(toks, k + 2)[1]:end]
                    put(self._inner(toks[i + 1:k], second, used, depth)
                        or self._standin(join(toks[i:end]), "inner product", OPAQUE,
                                         "ip_" + _slug(toks[i + 1:end]), used))
                    i = end
                    continue
                inner = self.sub(self.rewrite(toks[i + 1:k], used, depth + 1))
                put("(" + inner + ")")
                i = k + 1
                continue
            if t == "{":
                k = _match(toks, i)
                inner = self.sub(self.rewrite(toks[i + 1:k], used, depth + 1))
                put("(" + inner + ")")
                i = k + 1
                continue
            if t in ("\\infty",):
                put("\\infty")
                i += 1
                continue
            if t in ("\\nabla", "\\partial"):
                i = self._gradient(toks, i, used, put)
                continue
            if t == "\\mathbb" and join(self._group(toks, i + 1)[0]) in ("E", "P", "I"):
                i = self._probabilistic(toks, i, used, put)
                continue
            if t == "\\text" and join(self._group(toks, i + 1)[0]).strip() in ("Pr", "P",
                                                                                  "Prob"):
                i = self._probabilistic(toks, i, used, put)
                continue
            if t == "\\dots":
                raise Unparsed("an ellipsis")
            if t in ("\\begin", "\\end"):
                raise Unparsed("an environment (cases, matrix) inside a side")
            if t == "\\text":
                word = join(self._group(toks, i + 1)[0]).strip()
                if not re.fullmatch(r"[A-Za-z][A-Za-z0-9 ]*", word) or " " in word.strip():
                    raise Unparsed(f"text {word!r} inside a side")
            got = self._atom(toks, i)
            if got is None:
                raise Unparsed(f"cannot read {t!r}")
            name, j, latex = got
            # a symbol applied to a point: f(x), \ell(w, z), A(s), D_alpha(P || Q)
            if j < len(toks) and toks[j] == "(" and self._applied(name, toks, j):
                k = _match(toks, j)
                end = self._transposed(toks, i, k + 1)
                if end is not None:     # g_xi(theta_t)^T(theta_t - theta^*)
                    put(self._standin(join(toks[i:end]), "inner product", OPAQUE,
                                      "ip_" + _slug(toks[i:end]), used))
                    i = end
                    continue
                whole = join(toks[i:k + 1])
                args = toks[j + 1:k]
                kind, what = OPAQUE, "function value"
                if _mentions_law(args):
                    kind, what = PROBABILISTIC, "divergence" if name.startswith(
                        ("D", "cal_D", "KL")) else "law"
                stem = name + "_of_" + _slug(args)
                put(self._standin(whole, what, kind, stem, used, head=name,
                                  arg=canonical(join(args))))
                i = k + 1
                continue
            if name == "e" and latex == "e":
                put("e")
                i = j
                continue
            put(self._ph(self._sym(name, latex, used)))
            i = j
        return join(out)

    def _sym(self, name, latex, used) -> str:
        name = self.table.symbol(name, latex).name
        used.add(name)
        return name

    def _standin(self, latex, what, kind, stem, used, nonnegative=False, **extra) -> str:
        sym = self.table.standin(latex, what, kind, sanitize(stem), nonnegative, **extra)
        used.add(str(sym))
        return self._ph(str(sym))

    def _excess(self, expr):
        """``f(x) - f(x^*)`` as one stand-in, an excess ``f(x) − f*`` (nonnegative where x*
        minimises f: a guess, marked so), in every sum where the two values appear with
        opposite coefficients; ``f(x)`` alone stays itself."""
        values = {}
        for s in expr.free_symbols:
            info = self.table.symbols.get(s.name)
            st = info.standin if info is not None else None
            if st is not None and st.what == "function value" and st.head:
                values[s] = st
        for star, st_star in values.items():
            if not re.search(r"\^ \*$", st_star.arg):
                continue
            for s, st in values.items():
                if s == star or st.head != st_star.head:
                    continue
                gap = None

                def pair(e, s=s, star=star, st=st, st_star=st_star):
                    nonlocal gap
                    c, c_star = e.coeff(s), e.coeff(star)
                    if c == 0 or sp.expand(c + c_star) != 0 or c.has(s, star):
                        return e
                    if gap is None:
                        gap = self.table.standin(
                            f"{st.latex}-{st_star.latex}", "excess", OPAQUE,
                            sanitize(f"{st.head}_gap_" + st.arg), True,
                            guess=f"{st_star.latex} read as the minimum of {st.head}")
                    return e - c * s - c_star * star + c * gap

                expr = expr.replace(
                    lambda e, s=s, star=star: isinstance(e, sp.Add) and e.has(s) and e.has(star),
                    pair)
        return expr

    def _group(self, toks, i):
        """The tokens of the argument at i (a braced group or one token) and the index
        after it."""
        while i < len(toks) and toks[i].isspace():
            i += 1
        if i >= len(toks):
            raise Unparsed("a missing argument")
        if toks[i] == "{":
            k = _match(toks, i)
            return toks[i + 1:k], k + 1
        if toks[i] in FONT or toks[i] in ACCENT:
            arg, k = self._group(toks, i + 1)
            return [toks[i], "{"] + arg + ["}"], k
        return [toks[i]], i + 1

    def _atom(self, toks, i):
        """(name, index after, latex) of the symbol starting at i, with its subscripts
        and decorations (``'``, ``^{*}``, ``^{(i)}``); None if no symbol starts there."""
        t = toks[i]
        start = i
        prefix = suffix = ""
        if t in FONT:
            arg, i = self._group(toks, i + 1)
            inner = self._atom([x for x in arg if not x.isspace()], 0) if arg else None
            if inner is None or inner[1] != len([x for x in arg if not x.isspace()]):
                word = sanitize(join(arg))
                if not word:
                    return None
                base = FONT[t] + word
            else:
                base = FONT[t] + inner[0]
        elif t in ACCENT:
            arg, i = self._group(toks, i + 1)
            arg = [x for x in arg if not x.isspace()]
            inner = self._atom(arg, 0) if arg else None
            if inner is None or inner[1] != len(arg):
                raise Unparsed(f"an accent over an expression ({t})")
            base = inner[0] + ACCENT[t]
        elif t == "\\text":
            arg, i = self._group(toks, i + 1)
            base = sanitize(join(arg))
            if not base:
                return None
        elif re.fullmatch(r"[A-Za-z]", t):
            base = t
            i += 1
        elif t.startswith("\\") and t[1:] in GREEK:
            base = t[1:]
            i += 1
        else:
            return None
        # subscripts, decorations, primes (any order)
        while i < len(toks):
            u = toks[i]
            if u == "_":
                arg, i = self._group(toks, i + 1)
                suffix += "_" + sanitize(join(arg))
            elif u == "'":
                suffix += "_prime"
                i += 1
            elif u == "^":
                arg, j = self._group(toks, i + 1)
                text = join(arg)
                if (DECORATION.match(text) and not _NOT_DECORATION.match(text)) \
                        or _in_parens(arg):
                    suffix += "_" + sanitize(text.replace("(", "").replace(")", ""))
                    i = j
                else:
                    break
            else:
                break
        name = re.sub(r"_+", "_", prefix + base + suffix).strip("_")
        return name, i, join(toks[start:i])

    def _applied(self, name, toks, j) -> bool:
        """Whether ``name(`` at j is an application (not a product)."""
        k = _match(toks, j)
        args = [t for t in toks[j + 1:k] if not t.isspace()]
        base = name.split("_")[0] if not name.startswith(("cal_", "bf_", "bb_")) else name
        if name.startswith(("cal_", "bb_")):
            return True
        if base in FUNCTION_LETTERS or name.split("_")[0] in FUNCTION_LETTERS:
            return True
        if _mentions_law(args) or "\\cdot" in args and len(args) == 1:
            return True
        top_comma = _top_level(args, ",")
        if top_comma:
            return True
        if any(t in ("\\boldsymbol", "\\mathbf") for t in args) and len(args) <= 8:
            return True
        return False

    def _minmax(self, toks, i, used, depth, put):
        op = toks[i]
        j = i + 1
        if j < len(toks) and toks[j] == "_":
            return self._big_op(toks, i, used, put)
        if j < len(toks) and toks[j] in ("(", "\\{", "["):
            k = _match(toks, j)
            parts = _split_top(toks[j + 1:k], ",")
            if len(parts) < 2:
                raise Unparsed(f"{op} of one argument")
            args = [self.sub(self.rewrite(p, used, depth + 1)) for p in parts]
            put(op + "(" + ", ".join(args) + ")")
            return k + 1
        raise Unparsed(f"{op} without a list")

    def _big_op(self, toks, i, used, put):
        """``\\sum_{..}^{..} term``: a stand-in for the whole, up to the next top-level
        ``+``/``-``."""
        op = toks[i]
        j = i + 1
        if op == "\\text":
            _, j = self._group(toks, i + 1)
        scripts = {}
        while j < len(toks) and toks[j] in ("_", "^"):
            arg, j2 = self._group(toks, j + 1)
            scripts.setdefault(toks[j], arg)
            j = j2
        k = j
        depth = 0
        bars = {"|": False, "\\|": False}     # inside |..| / \\|..\\|
        while k < len(toks):
            u = toks[k]
            if u in OPEN:
                depth += 1
            elif u in CLOSE:
                depth -= 1
            elif u in bars and depth == 0:
                bars[u] = not bars[u]
            elif depth == 0 and not any(bars.values()) and u in ("+", "-") and k > j:
                break
            k += 1
        if k == j:
            raise Unparsed(f"{op} of nothing")
        if op == "\\sum":
            got = self._sum(toks[j:k], scripts.get("_"), scripts.get("^"), used)
            if got is not None:
                put(got)
                return k
        latex = join(toks[i:k])
        what = BIG_OPS.get(op, op.strip("\\"))
        put(self._standin(latex, what, OPAQUE, what + "_" + _slug(toks[j:k]), used))
        return k

    def _sum(self, term, sub, sup, used):
        """``\\sum_{t=lo}^{hi} c·f(t)`` as ``c·Σ f(t)``: the factors of the summand that do
        not depend on the index leave the sum; a sum of a constant over a printed range is
        the constant times the number of terms (``\\sum_{t=0}^{T-1} 2αC²/(βnbσ²)`` is
        ``2αC²T/(βnbσ²)``).  What is left is a stand-in whose LaTeX is the sum of the
        dependent factors.  None when the index or the summand cannot be read."""
        if not sub:
            return None
        st = [t for t in sub if not t.isspace()]
        lo = None
        if "=" in st:
            idx, lo = st[:st.index("=")], st[st.index("=") + 1:]
        elif "\\in" in st:
            idx = st[:st.index("\\in")]
        else:
            idx = st
        got = self._atom(idx, 0) if idx else None
        if got is None or got[1] != len(idx):
            return None
        index = canonical(join(idx))
        try:
            expr = self._expand(self._parse_sum(self.rewrite(term, used)))
        except Unparsed:
            return None
        const, dep = [], []
        for f in sp.Mul.make_args(expr):
            (dep if self._depends(f, index) else const).append(f)
        const, dep = sp.Mul(*const), sp.Mul(*dep)
        if dep == 1:
            if lo is None or not sup:
                return None
            try:
                lo_e = self._expand(self._parse_sum(self.rewrite(lo, used)))
                hi_e = self._expand(self._parse_sum(self.rewrite(sup, used)))
            except Unparsed:
                return None
            total = const * (hi_e - lo_e + 1)
        else:
            names = {s: self._names[str(s)] for s in dep.free_symbols if str(s) in self._names}
            latex = ("\\sum_{" + join(sub) + "}" + (f"^{{{join(sup)}}}" if sup else "") + " "
                     + sp.latex(dep, symbol_names={s: self.table.symbols[n].latex or n
                                                   for s, n in names.items()}))
            kind = PROBABILISTIC if any(self.table.is_probabilistic(n) for n in names.values()) \
                else OPAQUE
            stand = self._standin(latex, "sum", kind, "sum_" + _slug(tokens(latex)[1:]), used)
            total = const * sp.Symbol(stand.replace("{", "").replace("}", ""))
        code = "s" + _letters(len(self._subs) + 1)
        self._subs[f"v_{code}"] = total
        return f"v_{{{code}}}"

    def _depends(self, factor, index: str) -> bool:
        """Whether a factor (over placeholders) mentions the summation index: a symbol
        or stand-in whose LaTeX holds it as a token (``a_t``, ``\\|w_t\\|``, ``\\eta_j``)."""
        pat = re.compile(r"(?<![\w\\])" + re.escape(index) + r"(?![\w])")
        for s in factor.free_symbols:
            name = self._names.get(str(s))
            info = self.table.symbols.get(name) if name else None
            if info is None:
                continue
            if name == index or pat.search(canonical(info.latex or name)):
                return True
        return False

    def _expand(self, expr):
        """An expression over placeholders with the parsed brackets put back in (names
        still placeholders ``v_xx``)."""
        def key(s):
            return str(s).replace("{", "").replace("}", "")
        for _ in range(100):
            inner = {s: self._subs[key(s)] for s in expr.free_symbols if key(s) in self._subs}
            if not inner:
                break
            expr = expr.xreplace(inner)
        return expr.xreplace({s: sp.Symbol(key(s)) for s in expr.free_symbols if key(s) != str(s)})

    def _big_o(self, toks, j, used, put, depth):
        while j < len(toks) and toks[j].isspace():
            j += 1
        if j >= len(toks) or toks[j] not in ("(", "[", "\\{"):
            raise Unparsed("O without an argument")
        k = _match(toks, j)
        inner = self.sub(self.rewrite(toks[j + 1:k], used, depth + 1))
        self.table.symbol("c_O", "c_{\\mathcal O}")
        used.add("c_O")
        used.add("__big_o__")
        put(self._ph("c_O") + " \\cdot (" + inner + ")")
        return k + 1

    def _norm(self, toks, i, used, put):
        k = i + 1
        depth = 0
        while k < len(toks):
            if toks[k] in OPEN:
                depth += 1
            elif toks[k] in CLOSE:
                depth -= 1
            elif toks[k] == "\\|" and depth == 0:
                break
            k += 1
        if k >= len(toks):
            raise Unparsed("an unclosed norm")
        j = k + 1
        sub = ""
        power = None
        while j < len(toks) and toks[j] in ("_", "^"):
            # \\|x\\|_2^2 and \\|x\\|^{2}_{2}: the subscript names the norm, the superscript
            # is a power of it
            if toks[j] == "_" and not sub:
                arg, j = self._group(toks, j + 1)
                sub = join(arg)
            elif toks[j] == "^" and power is None:
                power, j = self._group(toks, j + 1)
            else:
                break
        latex = join(toks[i:k + 1]) + (f"_{{{sub}}}" if sub else "")
        put(self._standin(latex, "norm", OPAQUE, "norm_" + _slug(toks[i + 1:k]), used,
                          nonnegative=True))
        return j, power

    def _gradient(self, toks, i, used, put):
        j = i + 1
        while j < len(toks) and toks[j] in ("_", "^"):
            _, j = self._group(toks, j + 1)
        got = self._atom(toks, j) if j < len(toks) else None
        if got is None:
            raise Unparsed("a gradient of an expression")
        name, j, _ = got
        if j < len(toks) and toks[j] == "(":
            j = _match(toks, j) + 1
        end = self._transposed(toks, i, j)
        if end is not None:
            put(self._standin(join(toks[i:end]), "inner product", OPAQUE,
                              "ip_" + _slug(toks[i:end]), used))
            return end
        latex = join(toks[i:j])
        put(self._standin(latex, "gradient", OPAQUE, "grad_" + name + "_" + _slug(toks[i + 1:j]),
                          used))
        return j

    def _inner(self, first, second, used, depth):
        """``[a x + b y]^T(z)`` as ``a·⟨x, z⟩ + b·⟨y, z⟩`` (an inner product is linear in
        its first argument): one inner-product stand-in per vector term, its scalar
        coefficient in front.  None when a term has no vector part (then the whole is one
        stand-in)."""
        first = [t for t in first if not t.isspace()]
        terms, cur, sign, level = [], [], "+", 0
        for t in first:
            if t in OPEN:
                level += 1
            elif t in CLOSE:
                level -= 1
            if level == 0 and t in ("+", "-"):
                if cur:
                    terms.append((sign, cur))
                    sign = t
                else:
                    sign = "-" if (sign == "-") != (t == "-") else "+"
                cur = []
                continue
            cur.append(t)
        if cur:
            terms.append((sign, cur))
        if not terms:
            return None
        pieces = []
        for sign, term in terms:
            v = self._vector_start(term)
            if v is None:
                return None
            coef, vec = term[:v], term[v:]
            ph = self._standin("[" + join(vec) + "]^{T}" + join(second), "inner product", OPAQUE,
                               "ip_" + _slug(vec + second), used)
            if coef:
                ph = self.sub(self.rewrite(coef, used, depth + 1)) + " \\cdot " + ph
            text = ph
            pieces.append(f" {sign} {text}")
        if len(pieces) == 1 and pieces[0].startswith(" + "):
            return pieces[0][3:]
        return self.sub("".join(pieces))

    def _vector_start(self, term):
        """Where the vector factor of a term starts (after its scalar coefficient):
        a gradient, a bold symbol, an expectation or a function value; None if none."""
        j = 0
        while j < len(term):
            t = term[j]
            if t in ("\\nabla", "\\partial", "\\boldsymbol", "\\mathbf", "\\bm", "\\mathbb"):
                return j
            if re.fullmatch(r"\d+(?:\.\d+)?", t) or t == "\\cdot":
                j += 1
                continue
            if t in ("\\frac", "\\sqrt"):
                _, j = self._group(term, j + 1)
                if t == "\\frac":
                    _, j = self._group(term, j)
                continue
            got = self._atom(term, j)
            if got is None:
                return None
            name, e, _ = got
            if e < len(term) and term[e] == "(" and self._applied(name, term, e):
                return j
            j = e
        return None

    def _transposed(self, toks, start, k):
        """The end of ``X^{T}(Y)`` when the operand ``toks[start:k]`` is followed by a
        transpose and a bracketed or single second operand: an inner product.  ``^{T}`` is
        read as a transpose only where one operand is a vector (bold, a gradient) or it is
        printed ``^\\top``: ``(1+\\eta L)^{T}(…)`` stays a power."""
        if k >= len(toks) or toks[k] != "^":
            return None
        arg, j = self._group(toks, k + 1)
        mark = join(arg).strip()
        if mark not in ("T", "\\top", "\\intercal", "\\mathsf{T}", "\\text{T}"):
            return None
        if j < len(toks) and toks[j] in ("(", "["):
            end = _match(toks, j) + 1
        else:
            got = self._atom(toks, j) if j < len(toks) else None
            if got is None:
                return None
            end = got[1]
        vector = {"\\boldsymbol", "\\mathbf", "\\bm", "\\nabla", "\\partial"}
        if mark == "T" and not vector & set(toks[start:end]):
            return None
        return end

    def _probabilistic(self, toks, i, used, put):
        arg, j = self._group(toks, i + 1)
        letter = join(arg).strip()
        what = {"E": "expectation", "P": "probability", "Pr": "probability",
                "Prob": "probability", "I": "indicator"}[letter]
        head_end = j
        scripts = {}
        while j < len(toks) and toks[j] in ("_", "^"):
            arg_, j2 = self._group(toks, j + 1)
            scripts.setdefault(toks[j], arg_)
            j = j2
        if j < len(toks) and toks[j] in ("[", "(", "\\{", "{"):
            k = _match(toks, j)
            end = k + 1
            body = toks[j + 1:k]
            if what == "expectation" and "^" not in scripts:
                got = self._linear(join(toks[i:head_end]), scripts.get("_"), body, used)
                if got is not None:
                    put(got)
                    return end
        elif j < len(toks) and toks[j] == "\\|":
            k = j + 1
            while k < len(toks) and toks[k] != "\\|":
                k += 1
            end = k + 1
            while end < len(toks) and toks[end] in ("_", "^"):
                _, end = self._group(toks, end + 1)
            body = toks[j:end]
        else:
            got = self._atom(toks, j) if j < len(toks) else None
            if got is None:
                raise Unparsed(f"{what} of an unbracketed expression")
            name, end, _ = got
            if end < len(toks) and toks[end] == "(" and self._applied(name, toks, end):
                end = _match(toks, end) + 1
            body = toks[j:end]
        latex = join(toks[i:end])
        stem = {"expectation": "E_", "probability": "Pr_", "indicator": "I_"}[what] + _slug(body)
        kind = OPAQUE if what == "indicator" else PROBABILISTIC
        put(self._standin(latex, what, kind, stem, used, nonnegative=what != "expectation"))
        return end

    def _linear(self, head: str, sub, body, used) -> str | None:
        """``\\mathbb{E}_\\xi[…]`` by linearity: a sum is a sum of expectations, and the
        factors of a term that are constants for it leave it — numbers, and, where the
        expectation names its variable (``E_\\xi``, ``E_{\\zeta_t}``), the factors that do
        not mention it, provided one factor of the term does
        (``\\mathbb{E}_\\xi[2\\eta\\|\\nabla l_\\xi - \\nabla l\\|\\,\\|\\theta_t - \\theta^*\\|]`` is
        ``2\\eta\\|\\theta_t-\\theta^*\\|\\,\\mathbb{E}_\\xi[\\|\\nabla l_\\xi-\\nabla l\\|]``), and a whole
        term that does not mention it, provided another term does: what the content prints
        beside the variable is held fixed by the expectation
        (``\\mathbb{E}_\\xi[(g_\\xi - \\gamma\\nabla l)^T(\\theta_t-\\theta^*)]`` is
        ``\\mathbb{E}_\\xi[g_\\xi^T(\\theta_t-\\theta^*)] - \\gamma\\nabla l^T(\\theta_t-\\theta^*)``).  A placeholder
        for the result, or None where nothing leaves (the whole is then one stand-in, as
        printed) or the content does not read as a scalar expression."""
        mark = self.table.checkpoint()
        try:
            inner = self._parse_sum(self.rewrite(body, set(), 1))
            expr = self._excess(self._restore(inner))
        except Exception:  # noqa: BLE001 - no reading: the whole stays one stand-in
            self.table.rollback(mark)
            return None
        if sp.count_ops(expr) > 200:
            self.table.rollback(mark)
            return None
        variables = _variables(sub) if sub else None

        def mentions(sym) -> bool:
            info = self.table.symbols.get(sym.name)
            text = canonical(info.latex) if info is not None and info.latex else sym.name
            return variables is None or any(v in text.split() for v in variables)

        changed = False
        parts = []
        terms = sp.Add.make_args(sp.expand_mul(expr))
        # the variable printed in some term: what the others print is held fixed
        named = variables is not None and any(mentions(x) for x in expr.free_symbols)
        for term in terms:
            coeff, factors = term.as_coeff_mul()
            if variables is None:
                random = [f for f in factors if f.free_symbols]
            else:
                random = [f for f in factors if any(mentions(x) for x in f.free_symbols)]
                if not random and not named:
                    # nothing names the variable: a stand-in may still depend on it
                    # (θ_{t+1} on ζ_t); only the parameters leave
                    random = [f for f in factors if any(self.table.is_opaque(x)
                                                        for x in f.free_symbols)]
            constant = [f for f in factors if f not in random]
            parts.append((coeff * sp.Mul(*constant), sp.Mul(*random)))
            changed |= coeff != 1 or bool(constant)
        if not changed and len(terms) == 1:
            self.table.rollback(mark)
            return None
        out = sp.Integer(0)
        for c, r in parts:
            if r == 1:
                out += c
                continue
            names = {x: self.table.symbols[x.name].latex or x.name for x in r.free_symbols
                     if x.name in self.table.symbols}
            inside = sp.latex(r, symbol_names=names)
            latex = head + (f"_{{{join(sub)}}}" if sub else "") + "[" + inside + "]"
            out += c * self.table.standin(latex, "expectation", PROBABILISTIC,
                                          sanitize("E_" + _slug(tokens(inside))))
        keep = {x.name for x in out.free_symbols}
        self.table.rollback(mark, keep)
        used |= keep
        ph = {x: sp.Symbol(self._ph(x.name).replace("{", "").replace("}", ""))
              for x in out.free_symbols}
        code = "s" + _letters(len(self._subs) + 1)
        self._subs[f"v_{code}"] = out.xreplace(ph)
        return f"v_{{{code}}}"

    # ------------------------------------------------------------------ parsing
    def _parse_sum(self, text: str):
        expr = sp.Integer(0)
        for sign, term in _terms(text):
            got = sp.Integer(1)
            for factor in _factors(term):
                got = got * _parse_cached(factor, self.parser)
            expr = expr + (-got if sign == "-" else got)
        return expr

    def sub(self, text: str) -> str:
        """A placeholder for the parsed ``text`` (a bracket's or an argument's content):
        each piece is parsed alone, the parsers' time growing faster than the length."""
        if re.fullmatch(r"\s*(?:v_\{[a-z]+\}|\d+)\s*", text):
            return text.strip()
        expr = self._parse_sum(text)
        code = "s" + _letters(len(self._subs) + 1)
        self._subs[f"v_{code}"] = expr
        return f"v_{{{code}}}"

    def _restore(self, expr):
        expr = self._expand(expr)
        sub = {}
        for s in expr.free_symbols:
            name = self._names.get(str(s).replace("{", "").replace("}", ""))
            if name is None:
                if str(s) in ("e",):
                    sub[s] = sp.E
                    continue
                raise Unparsed(f"the parser made an unknown symbol {s}")
            sub[s] = sp.Symbol(name, real=True)
        out = expr.xreplace(sub)
        # latex2sympy writes \ln as log(x, E): the natural log either way
        out = out.replace(lambda e: isinstance(e, sp.log) and len(e.args) == 2 and e.args[1] == sp.E,
                          lambda e: sp.log(e.args[0]))
        return out


def _terms(text: str):
    """(sign, term) of the top-level sum in a rewritten side: the parsers' time grows
    faster than the length, so each term is parsed alone (and cached)."""
    out = []
    depth = 0
    cur = []
    sign = "+"
    k = 0
    while k < len(text):
        c = text[k]
        if text.startswith("\\left|", k):
            depth += 1
        elif text.startswith("\\right|", k):
            depth -= 1
        if c in "{([":
            depth += 1
        elif c in "})]":
            depth -= 1
        if depth == 0 and text.startswith((" + ", " - "), k):
            if "".join(cur).strip():
                out.append((sign, "".join(cur).strip()))
                sign = text[k + 1]
            else:
                sign = "-" if (sign == "-") != (text[k + 1] == "-") else "+"
            cur = []
            k += 3
            continue
        cur.append(c)
        k += 1
    if "".join(cur).strip():
        out.append((sign, "".join(cur).strip()))
    if not out:
        raise Unparsed("an empty side")
    return out


def _factors(term: str) -> list[str]:
    """The top-level factors of a term (split at the explicit products this module
    writes; ``a / b \\cdot c`` is ``(a/b)·c`` either way)."""
    out, cur, depth, k = [], [], 0, 0
    while k < len(term):
        c = term[k]
        if c in "{([":
            depth += 1
        elif c in "})]":
            depth -= 1
        if depth == 0 and term.startswith(" \\cdot ", k):
            out.append("".join(cur).strip())
            cur = []
            k += len(" \\cdot ")
            continue
        cur.append(c)
        k += 1
    out.append("".join(cur).strip())
    if any(not f for f in out) or "\\left|" in term:
        return [term]
    return out


_ATOM = re.compile(r"v_\{([a-z]+)\}|(\d+)")
_PIECE = re.compile(r"v_\{([a-z]+)\}|(?<![\w\\])(\d+(?:\.\d+)?)(?![\w.])")


def _parse_cached(text: str, parser: str):
    """The SymPy expression of one rewritten factor.  The factor is parsed as a
    template: its placeholders and numbers are renamed in order of appearance
    (``\\frac{v_{sq}}{3}`` and ``\\frac{v_{b}}{7}`` are both ``\\frac{v_{a}}{v_{b}}``), so
    that a paper's few hundred factors need a few dozen parses; the names and numbers
    are put back into the parsed template (decimals as exact rationals: 1.34 is 67/50)."""
    m = _ATOM.fullmatch(text.strip())
    if m:   # one placeholder or one integer: nothing for a parser to do
        return sp.Symbol(f"v_{m.group(1)}") if m.group(1) else sp.Integer(m.group(2))
    pieces: dict = {}

    def rename(mm):
        key = mm.group(0)
        if key not in pieces:
            pieces[key] = "t" + _letters(len(pieces) + 1)
        return "v_{" + pieces[key] + "}"

    template = _PIECE.sub(rename, text.strip())
    expr = _parse_template(template, parser)
    back = {}
    for key, code in pieces.items():
        mm = _PIECE.fullmatch(key)
        value = sp.Symbol(f"v_{mm.group(1)}") if mm.group(1) else sp.Rational(mm.group(2))
        back[code] = value
    sub = {s: back[_plain(s)] for s in expr.free_symbols if _plain(s) in back}
    return expr.xreplace(sub) if sub else expr


def _plain(sym) -> str:
    """``v_{ta}`` / ``v_ta`` -> ``ta`` (the parsers spell a braced subscript either way)."""
    name = str(sym).replace("{", "").replace("}", "")
    return name[2:] if name.startswith("v_") else name


@functools.lru_cache(maxsize=4096)
def _parse_template(text: str, parser: str):
    return _parse_text(text, parser)


def _parse_text(text: str, parser: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if parser == "latex2sympy2_extended":
            from latex2sympy2_extended import latex2sympy
            from latex2sympy2_extended.latex2sympy2 import ConversionConfig
            from latex2sympy2_extended.math_normalization import NormalizationConfig
            expr = latex2sympy(
                text, normalization_config=NormalizationConfig(
                    basic_latex=False, units=False, malformed_operators=False,
                    nits=False, boxed="none", equations=False),
                conversion_config=ConversionConfig(
                    interpret_as_mixed_fractions=False, interpret_simple_eq_as_assignment=False,
                    interpret_contains_as_eq=False, lowercase_symbols=False))
        else:
            from sympy.parsing.latex import parse_latex
            expr = parse_latex(text, backend="lark")
    if isinstance(expr, (list, tuple)):
        raise Unparsed("a list, not an expression")
    if not isinstance(expr, sp.Basic):
        raise Unparsed(f"parsed to {type(expr).__name__}")
    return expr


def _letters(k: int) -> str:
    """k >= 1 as letters (a, b, ..., z, ba, ...): a placeholder subscript every parser
    reads (SymPy's lark grammar reads no multi-digit subscript)."""
    out = ""
    while True:
        k, r = divmod(k, 26)
        out = "abcdefghijklmnopqrstuvwxyz"[r] + out
        if k == 0:
            return out


def _match(toks, i) -> int:
    """The index of the bracket closing the one at i."""
    open_ = toks[i]
    close = OPEN.get(open_)
    if close is None:
        raise Unparsed(f"{open_!r} is not a bracket")
    depth = 0
    for k in range(i, len(toks)):
        if toks[k] == open_ or (toks[k] in OPEN and OPEN[toks[k]] == close):
            depth += 1
        elif toks[k] == close:
            depth -= 1
            if depth == 0:
                return k
    # brackets of another kind may close the interval: (0, 1] — not a scalar
    raise Unparsed(f"an unclosed {open_!r}")


def _match_bar(toks, i) -> int:
    depth = 0
    for k in range(i + 1, len(toks)):
        if toks[k] in OPEN:
            depth += 1
        elif toks[k] in CLOSE:
            depth -= 1
        elif toks[k] == "|" and depth == 0:
            return k
    raise Unparsed("an unclosed |")


#: words that open a condition after a formula: ``x \\leq y \\text{ if } t > 1``
_CONDITION_WORDS = {"if", "for", "when", "whenever", "where", "with", "since", "as", "and",
                    "provided", "such", "otherwise", "by", "s.t.", "i.e.", "e.g.", "unless"}


def _cut_condition(text: str) -> str:
    """A side without the condition printed after it (``\\text{ if } …``, ``\\forall …``,
    ``, \\text{for all} …``): the condition is prose, not part of the value."""
    toks = tokens(text)
    depth = 0
    for k, t in enumerate(toks):
        if t in OPEN:
            depth += 1
        elif t in CLOSE:
            depth -= 1
        elif depth == 0 and t == "\\forall":
            return join(toks[:k])
        elif depth == 0 and t == "\\text" and k + 1 < len(toks) and toks[k + 1] == "{":
            try:
                end = _match(toks, k + 1)
            except Unparsed:
                return text
            words = join(toks[k + 2:end]).strip().lower().split()
            if words and words[0].strip(",.") in _CONDITION_WORDS:
                return join(toks[:k])
    return text


def _script_order(toks: list[str]) -> list[str]:
    """``x^{2}_{a}`` as ``x_{a}^{2}``: a subscript printed after a superscript still names
    the symbol (``c^{2}_{\\alpha,2}`` is ``(c_{\\alpha,2})^2``)."""
    toks = [t for t in toks if not t.isspace()]
    out, i = [], 0
    while i < len(toks):
        if toks[i] == "^" and i + 1 < len(toks):
            end = _group_end(toks, i + 1)
            if end < len(toks) and toks[end] == "_" and end + 1 < len(toks):
                end2 = _group_end(toks, end + 1)
                out.extend(toks[end:end2] + toks[i:end])
                i = end2
                continue
        out.append(toks[i])
        i += 1
    return out


def _group_end(toks, i) -> int:
    """The index after the script argument starting at i (a braced group or a token)."""
    if i < len(toks) and toks[i] == "{":
        try:
            return _match(toks, i) + 1
        except Unparsed:
            return len(toks)
    return i + 1


def _in_parens(toks) -> bool:
    """The tokens are one parenthesised group: ``((1+\\eta L)z)``."""
    toks = [t for t in toks if not t.isspace()]
    if len(toks) < 2 or toks[0] != "(" or toks[-1] != ")":
        return False
    try:
        return _match(toks, 0) == len(toks) - 1
    except Unparsed:
        return False


def _top_level(toks, sep) -> bool:
    return len(_split_top(toks, sep)) > 1


def _split_top(toks, sep) -> list:
    parts, cur, depth = [], [], 0
    for t in toks:
        if t in OPEN:
            depth += 1
        elif t in CLOSE:
            depth -= 1
        if t == sep and depth == 0:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    parts.append(cur)
    return parts


def _variables(sub) -> list[str]:
    """The variables an expectation's subscript names (``\\xi``, ``\\zeta`` of
    ``\\boldsymbol{\\zeta}_t,\\xi``; ``s`` of ``s\\sim\\mathbb{P}``), as canonical tokens."""
    out = []
    for part in _split_top([t for t in sub if not t.isspace()], ","):
        part = _split_top(part, "\\sim")[0] if "\\sim" in part else part
        toks = canonical(join(part)).split()
        if toks:
            out.append(toks[0])
    return out


def _mentions_law(toks) -> bool:
    s = join(toks)
    return ("\\|" in s or "||" in s or "\\mathbb{P}" in s or "\\mathbb P" in s) and \
        "\\mathbb{E}" not in s


def _slug(toks, limit: int = 3) -> str:
    """A short name fragment from the symbols in ``toks``."""
    names = []
    text = join(toks)
    for m in re.finditer(r"\\(?:mathbb|mathcal|boldsymbol|mathbf|text)\{([^{}]*)\}|\\([A-Za-z]+)|"
                         r"([A-Za-z])(?:_\{?([A-Za-z0-9]+)\}?)?", text):
        word = m.group(1) or m.group(2) or m.group(3)
        if m.group(2) and m.group(2) not in GREEK:
            continue
        if m.group(4):
            word += "_" + m.group(4)
        if word in ("P",) or word in names:
            continue
        names.append(word)
        if len(names) >= limit:
            break
    return sanitize("_".join(names)) or "x"

"""Repairs written in the paper's notation: symbols by their declared LaTeX (``\\tau_1`` →
``τ₁`` in text, as declared in LaTeX), powers as superscripts, ``−`` for minus."""
from __future__ import annotations

import re

import sympy as sp

from checks.repair import edits as E

_GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
    "zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ",
    "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "rho": "ρ", "sigma": "σ",
    "tau": "τ", "upsilon": "υ", "phi": "φ", "varphi": "φ", "chi": "χ", "psi": "ψ",
    "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ",
    "Pi": "Π", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
}
_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
_SUP = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
_REL = {"<=": "≤", "<": "<", "=": "=", ">=": "≥", ">": ">", "==": "="}
_REL_TEX = {"<=": r"\le", "<": "<", "=": "=", ">=": r"\ge", ">": ">", "==": "="}
#: what an edit's description shows of an expression, at most (characters)
SHORT = 40


_COMMANDS = {"|": "‖", "nabla": "∇", "sum": "Σ", "sqrt": "√", "log": "log", "exp": "exp",
             "min": "min", "max": "max", "Pr": "Pr", "top": "ᵀ", "star": "⋆", "ge": "≥",
             "le": "≤", "mid": "|", "cdot": "·", "infty": "∞", ",": " ", "prime": "′"}
_ACCENTS = {"tilde": "\u0303", "hat": "\u0302", "bar": "\u0304"}


def _from_latex(tex: str) -> str | None:
    """A declared LaTeX name as plain text: Greek letters, accents, ‖·‖, ∇, subscripts
    (a digit as a subscript digit); None when it holds more than that (a fraction, a
    supremum): the symbol's name is shown instead."""
    s = tex
    s = re.sub(r"\\(mathrm|text|operatorname|mathbf|mathit|boldsymbol)\{([^{}]*)\}", r"\2", s)
    s = re.sub(r"\\(mathcal|mathbb|mathsf)\s*\{?([A-Za-z])\}?", r"\2", s)
    s = re.sub(r"\\(tilde|hat|bar)\s*\{?(\\?[A-Za-z]+|.)\}?",
               lambda m: m.group(2) + "\x00" + m.group(1), s)

    def command(m):
        name = m.group(1)
        if name in _GREEK or ("var" + name) in _GREEK:
            return _GREEK.get(name) or _GREEK["var" + name]
        if name in _COMMANDS:
            return _COMMANDS[name]
        return "\\" + name
    s = re.sub(r"\\([A-Za-z]+|\||,)", command, s)
    s = re.sub(r"\x00(tilde|hat|bar)", lambda m: _ACCENTS[m.group(1)], s)
    s = re.sub(r"_\{(\d)\}|_(\d)(?!\d)", lambda m: (m.group(1) or m.group(2)).translate(_SUB), s)
    if "\\" in s or "frac" in s:
        return None
    return s


class Renderer:
    """Text and LaTeX of expressions with a paper's symbol table (or none)."""

    def __init__(self, table=None):
        self.table = table
        self._names: dict = {}

    def _latex_name(self, s):
        if self.table is None:
            return None
        try:
            return self.table.info(s).latex
        except KeyError:
            return None

    def name(self, s) -> str:
        got = self._names.get(s)
        if got is None:
            tex = self._latex_name(s)
            got = (_from_latex(tex) if tex else None) or _plain(s.name)
            self._names[s] = got
        return got

    def text(self, e) -> str:
        """``e`` in the paper's notation, one line."""
        e = sp.sympify(e)
        if isinstance(e, sp.core.relational.Relational):
            return f"{self.text(e.lhs)} {_REL.get(e.rel_op, e.rel_op)} {self.text(e.rhs)}"
        ren = {s: sp.Symbol(self.name(s)) for s in e.free_symbols}
        txt = sp.sstr(e.xreplace(ren))
        txt = re.sub(r"\*\*(\d+)(?![.\d])", lambda m: m.group(1).translate(_SUP), txt)
        txt = re.sub(r"\*\*\(-(\d+)\)", lambda m: ("-" + m.group(1)).translate(_SUP), txt)
        txt = txt.replace("**", "^").replace(" - ", " − ").replace("*", "·")
        if txt.startswith("-"):
            txt = "−" + txt[1:]
        return txt

    def latex(self, lhs, rel: str, rhs, hyps=()) -> str:
        names = self._symbol_names(sp.Tuple(lhs, rhs, *hyps))
        out = (f"{sp.latex(lhs, symbol_names=names)} {_REL_TEX.get(rel, rel)} "
               f"{sp.latex(rhs, symbol_names=names)}")
        if hyps:
            out += r" \quad \text{if } " + ", ".join(sp.latex(h, symbol_names=names)
                                                    for h in hyps)
        return out

    def latex_hyp(self, h) -> str:
        return sp.latex(h, symbol_names=self._symbol_names(h))

    def _symbol_names(self, e) -> dict:
        out = {}
        for s in e.free_symbols:
            tex = self._latex_name(s)
            if tex:
                out[s] = tex
        return out

    def line(self, lhs, rel: str, rhs, added=()) -> str:
        out = f"{self.text(lhs)} {_REL.get(rel, rel)} {self.text(rhs)}"
        if added:
            out += " if " + ", ".join(self.text(a.expr if hasattr(a, "expr") else a)
                                      for a in added)
        return out

    # ---- what an edit changes
    def edit_text(self, eds, targets: dict, own_defs: dict) -> str:
        return " and ".join(self._one(ed, targets, own_defs) for ed in eds)

    def _where(self, ed, own_defs) -> str:
        if ed.target == "lhs":
            return "left side"
        if ed.target == "rhs":
            return "right side"
        sym = own_defs.get(ed.target, (None, None))[1]
        return f"in the definition of {self.name(sym)}" if sym is not None else ed.target

    def short(self, e, n: int = SHORT) -> str:
        """``e`` in the paper's notation, a long one cut to its head (the repaired line
        shows it whole)."""
        if isinstance(e, (sp.Max, sp.Min)):
            return type(e).__name__.lower()
        txt = self.text(e)
        return txt if len(txt) <= n else txt[: n - 1].rstrip() + "…"

    def _one(self, ed, targets, own_defs) -> str:
        where = self._where(ed, own_defs)
        t = self.short
        if ed.family == "factor-added":
            if ed.path == ():
                return f"{t(ed.factor)} on the {where}"
            return f"{t(ed.factor)} on the term {t(ed.old)} ({where})"
        if ed.family == "factor-dropped":
            base, k = ed.factor.as_base_exp()
            total = E.power_on_path(targets[ed.target], ed.path, base)
            if total != k and (total - k) != 0:
                return f"{t(base ** (total - k))} in place of {t(base ** total)} ({where})"
            return f"{t(ed.factor)} dropped ({where})"
        if ed.family == "constant":
            if ed.note.startswith("constant"):
                return f"{t(ed.old * ed.factor)} in place of {t(ed.old)} ({where})"
            if ed.path == ():
                return f"{ed.note} on the {where}"
            return f"{ed.note} on the term {t(ed.old)} ({where})"
        if ed.note == "swap":
            return f"{t(ed.old)} and {t(ed.factor)} exchanged ({where})"
        if ed.note == "every":
            if E.occurrences(targets[ed.target], ed.old) <= 1 or where.startswith("in "):
                return f"{t(ed.factor)} in place of {t(ed.old)} ({where})"
            return f"{t(ed.factor)} in place of {t(ed.old)} throughout the {where}"
        if ed.family in ("index+1", "index-1") and isinstance(ed.old, sp.Sum):
            return f"the sum's {ed.note} bound {'+' if ed.family == 'index+1' else '−'}1 " \
                   f"({where})"
        return f"{t(ed.new)} in place of {t(ed.old)} ({where})"


def _plain(name: str) -> str:
    m = re.fullmatch(r"([A-Za-z]+)(\d+)", name)
    if m and m.group(1) in _GREEK:
        return _GREEK[m.group(1)] + m.group(2).translate(_SUB)
    if name in _GREEK:
        return _GREEK[name]
    return name

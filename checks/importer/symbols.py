"""The imported paper's symbols: a name for every printed symbol, stand-ins for the
quantities that are not scalar parameters, and guesses at assumptions from the text.

Names are the paper's own: ``\\sigma_{\\text{DP}}`` is ``sigma_DP``, ``\\tau_0`` is
``tau_0``, ``\\boldsymbol{\\theta}_t`` is ``bf_theta_t`` (a bold symbol is not its plain
letter: ``\\boldsymbol{\\mu}`` is a random variable where ``\\mu`` is a constant),
``\\mathcal{D}`` is ``cal_D``, ``\\bar{x}`` is ``x_bar``, ``x'`` is ``x_prime``.

Stand-ins (:class:`Standin`) are symbols for what a scalar encoding cannot hold as an
expression: an expectation ``\\mathbb{E}[…]``, a probability ``\\Pr[…]``, a divergence
``D_\\alpha(P \\| Q)`` (``PROBABILISTIC``: rows about them are never algebra), and
opaque values — a function at a point ``f(\\theta_t)``, a norm, an inner product, a sum
or an extremum over an index, an excess ``f(\\theta_t) - f(\\theta^*)`` (``OPAQUE``: free
reals until the user types them).  One printed quantity is one stand-in however it is
typeset: stand-ins are keyed by the canonical form of their LaTeX
(:func:`~checks.importer.latex.canonical`: ``\\|\\boldsymbol{\\theta}_{t}-\\theta^{*}\\|_2`` and
``\\|\\theta_t-\\theta^*\\|`` are one norm), and each is declared with what it is and its
LaTeX as text (``norm (opaque): ‖θ_t-θ^*‖``), the description a person reads and the
round trip (:mod:`~checks.importer.roundtrip`) compares with a hand encoding's.
"""
from __future__ import annotations

import keyword
import re
from dataclasses import dataclass, field

import sympy as sp

from checks.importer.latex import canonical

GREEK = {"alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta",
         "vartheta", "iota", "kappa", "lambda", "mu", "nu", "xi", "pi", "varpi", "rho",
         "varrho", "sigma", "varsigma", "tau", "upsilon", "phi", "varphi", "chi", "psi",
         "omega", "Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi",
         "Psi", "Omega", "ell", "hbar", "imath", "jmath"}

#: names a Python module of the draft uses itself, or that are keywords
RESERVED = set(keyword.kwlist) | {"sp", "asm", "Step", "Chain", "Result", "Paper", "StepKind",
                                  "table", "DIMLESS", "SYMBOLS", "PAPER", "RESULTS", "ALG",
                                  "SCA", "PRO", "CIT", "OPAQUE", "S", "N", "E", "I", "O",
                                  "Q", "lambda", "print", "len", "min", "max", "sum", "abs",
                                  "id", "type", "input", "open", "range", "list", "dict",
                                  "set", "str", "int", "float", "map", "filter", "zip", "all",
                                  "any"}

#: the base quantities of theory.quantities (imported, never re-declared)
BASE_NAMES = ("n", "b", "T", "t", "d", "m", "q", "epsilon", "delta", "c_O")

PROBABILISTIC = "PROBABILISTIC"
OPAQUE = "OPAQUE"


@dataclass
class Standin:
    """A symbol standing for a printed quantity that is not a scalar parameter."""

    name: str
    latex: str
    what: str            # "expectation", "probability", "divergence", "norm", ...
    kind: str            # PROBABILISTIC or OPAQUE
    nonnegative: bool = False
    head: str = ""       # a function value f(x): the function's name
    arg: str = ""        # ... and its argument, in canonical LaTeX
    guess: str = ""      # why ``nonnegative`` is a guess (empty: true by definition)

    @property
    def text(self) -> str:
        """The stand-in's LaTeX as readable text (``‖θ_t-θ^*‖``), for its description."""
        return describe(self.latex)


def describe(latex: str) -> str:
    """LaTeX as plain Unicode text (pylatexenc), norms kept: ``\\|\\boldsymbol{\\theta}_t\\|`` is
    ``‖θ_t‖``."""
    try:
        from pylatexenc.latex2text import LatexNodes2Text
        text = LatexNodes2Text(math_mode="text").latex_to_text(
            re.sub(r"\\\||\\(?:Vert|lVert|rVert)(?![A-Za-z])|\|\|", "‖", latex))
    except Exception:  # noqa: BLE001 - a description falls back to the LaTeX itself
        return latex
    return re.sub(r"\s+", " ", text).strip() or latex


@dataclass
class SymbolInfo:
    name: str
    latex: str
    assumptions: dict = field(default_factory=dict)
    guesses: list = field(default_factory=list)     # why each assumption is a guess
    standin: Standin | None = None
    base: bool = False


def sanitize(text: str) -> str:
    """An identifier fragment from a subscript's or a word's LaTeX."""
    s = text
    s = re.sub(r"\\text\{([^{}]*)\}", r"\1", s)
    s = re.sub(r"\\(?:mathcal|mathbb|mathfrak|mathscr)\{([^{}]*)\}", r"cal_\1", s)
    s = re.sub(r"\\(?:boldsymbol|mathbf|mathit)\{([^{}]*)\}", r"\1", s)
    s = re.sub(r"\\(?:prime)", "prime", s)
    s = s.replace("'", "prime").replace("*", "star").replace("\\ast", "star")
    s = s.replace("+", "p").replace("-", "m")
    s = re.sub(r"\\([A-Za-z]+)", r"_\1_", s)
    s = re.sub(r"[^A-Za-z0-9_]+", "_", s)
    s = re.sub(r"_+", "_", s).strip("_")
    return s


class SymbolTable:
    """Every symbol of one imported paper, by name; stand-ins by their LaTeX."""

    def __init__(self):
        self.symbols: dict[str, SymbolInfo] = {}
        self._by_latex: dict[str, str] = {}       # stand-in LaTeX (canonical) -> name
        self.text_guesses: dict[str, list] = {}   # name -> [(assumption, why)]

    # ------------------------------------------------------------------ naming
    def unique(self, base: str, latex: str) -> str:
        name = base or "x"
        if not name[0].isalpha():
            name = "x_" + name
        if name in RESERVED:
            name = name + "_"
        if name in self.symbols and self.symbols[name].latex != latex:
            k = 2
            while f"{name}_{k}" in self.symbols and self.symbols[f"{name}_{k}"].latex != latex:
                k += 1
            name = f"{name}_{k}"
        return name

    def symbol(self, name: str, latex: str) -> sp.Symbol:
        """The (real) symbol ``name`` printed as ``latex``; declared on first use (a
        Python keyword or a name the module uses gets a trailing ``_``)."""
        if name in RESERVED:
            name = name + "_"
        info = self.symbols.get(name)
        if info is None:
            info = SymbolInfo(name, latex, base=name in BASE_NAMES)
            self.symbols[name] = info
        return sp.Symbol(name, real=True)

    def standin(self, latex: str, what: str, kind: str, stem: str,
                nonnegative: bool = False, **extra) -> sp.Symbol:
        """The stand-in for the quantity printed as ``latex`` (one per canonical form of
        it); ``extra``: :class:`Standin` fields (head, arg, guess)."""
        key = canonical(latex)
        name = self._by_latex.get(key)
        if name is None:
            name = self.unique(stem[:40].rstrip("_") or what, key)
            self._by_latex[key] = name
            info = SymbolInfo(name, latex)
            info.standin = Standin(name, latex, what, kind, nonnegative, **extra)
            self.symbols[name] = info
        return sp.Symbol(name, real=True)

    def checkpoint(self):
        """A mark to :meth:`rollback` to."""
        return set(self.symbols)

    def rollback(self, mark, keep=frozenset()) -> None:
        """Drop the symbols made since ``mark`` (but those in ``keep``): what was read
        while trying a reading that was then not taken."""
        for name in (set(self.symbols) - mark) - set(keep):
            info = self.symbols.pop(name, None)
            if info is not None and info.standin is not None:
                self._by_latex = {k: v for k, v in self._by_latex.items() if v != name}

    def is_probabilistic(self, sym) -> bool:
        info = self.symbols.get(str(sym))
        return bool(info and info.standin and info.standin.kind == PROBABILISTIC)

    def is_opaque(self, sym) -> bool:
        info = self.symbols.get(str(sym))
        return bool(info and info.standin)

    # ------------------------------------------------------------------ guesses
    def guess(self, name: str, assumption: str, why: str) -> None:
        self.text_guesses.setdefault(name, [])
        if all(a != assumption for a, _ in self.text_guesses[name]):
            self.text_guesses[name].append((assumption, why))

    def finalize(self) -> None:
        """Assumptions of every symbol from the text's guesses and the conventions
        (recorded as guesses); stand-ins of norms are nonnegative by definition."""
        for name, info in self.symbols.items():
            if info.base:
                continue
            if info.standin is not None:
                if info.standin.nonnegative:
                    info.assumptions = {"nonnegative": True}
                    if info.standin.guess:
                        info.guesses = [f"nonnegative: {info.standin.guess}"]
                continue
            for assumption, why in self.text_guesses.get(name, ()):
                if assumption == "positive":
                    info.assumptions.pop("nonnegative", None)
                if assumption == "nonnegative" and info.assumptions.get("positive"):
                    continue
                info.assumptions[assumption] = True
                info.guesses.append(f"{assumption}: {why}")
            conv = CONVENTIONS.get(name) or CONVENTIONS.get(name.split("_")[0])
            if conv and not info.assumptions:
                for a in conv[0]:
                    info.assumptions[a] = True
                info.guesses.append(f"{', '.join(conv[0])}: {conv[1]}")


#: assumptions a reader takes for granted from the usual letters (guesses, marked TODO)
CONVENTIONS = {
    "eta": (("positive",), "a step size"),
    "sigma": (("positive",), "a noise scale"),
    "L": (("positive",), "a smoothness/Lipschitz constant"),
    "C": (("positive",), "a clipping threshold or constant"),
    "N": (("positive", "integer"), "a sample size"),
    "B": (("positive", "integer"), "a batch size"),
    "K": (("positive",), "a constant"),
    "G": (("positive",), "a gradient bound"),
    "M": (("positive",), "a constant"),
    "D": (("positive",), "a diameter"),
    "tau": (("nonnegative",), "a threshold"),
    "gamma": (("positive",), "a confidence level or constant"),
    "mu": (("positive",), "a strong-convexity constant"),
}

#: "T iterations", "n samples": the word after a symbol that says what it counts
_COUNT_WORDS = r"(?:iterations?|steps|epochs|samples|examples|data points|datapoints|records|" \
               r"rounds|passes|users|clients|workers|dimensions)"
_WHAT_BEFORE = r"(?:number of iterations|number of steps|sample size|dataset size|" \
               r"batch size|mini-batch size|dimension|number of samples|stepsize|step size|" \
               r"step-size|learning rate|noise scale|noise multiplier|clipping threshold|" \
               r"gradient-clipping threshold|diameter)"


def guess_from_text(table: SymbolTable, text: str, name_of) -> None:
    """Assumption guesses from prose: ``$T$ iterations`` (a positive integer), ``batch size
    $b$`` (positive), ``\\alpha > 1`` (positive).  ``name_of(latex)`` gives the symbol name
    of an inline formula that is a single symbol (None otherwise)."""
    for m in re.finditer(r"\$([^$]{1,40})\$\s*" + _COUNT_WORDS, text):
        name = name_of(m.group(1))
        if name:
            table.guess(name, "positive", f"'{m.group(0)[:40]}' in the text")
            table.guess(name, "integer", f"'{m.group(0)[:40]}' in the text")
    for m in re.finditer(_WHAT_BEFORE + r"\s*\$([^$]{1,40})\$", text, re.I):
        name = name_of(m.group(1))
        if name:
            table.guess(name, "positive", f"'{m.group(0)[:50]}' in the text")
            if re.match(r"(number|sample size|dataset size|batch|mini-batch|dimension)",
                        m.group(0), re.I):
                table.guess(name, "integer", f"'{m.group(0)[:50]}' in the text")

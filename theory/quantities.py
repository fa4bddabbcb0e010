"""Quantities: SymPy symbols with a dimension, in per-paper symbol tables.

Every symbol a paper uses is declared once, in that paper's :class:`SymbolTable`, with
its SymPy assumptions (``positive``, ``integer`` …) and its **dimension**: a monomial in
the base dimensions parameter length Θ and loss value F whose exponents may be symbols
(a ν-Hölder constant has dimension F/Θ^(1+ν)).  Gradients are F/Θ, step sizes Θ²/F,
smoothness constants F/Θ², counts, orders and privacy losses are dimensionless.

A paper's names are its own (DESIGN.md, *Style*): the Hölder paper's α is a Hölder
exponent, its Rényi order λ.  Only the base quantities below (counts, the DP ε and δ,
the sampling rate, the constant hidden in an O(·)) are shared: every table falls back
to :data:`BASE`.  Two papers may declare the same letter with different dimensions;
within one table a name has one meaning.

Symbol assumptions are kept minimal: anything stronger (``alpha > 1``, ``beta < 1``)
is a *hypothesis* and must be stated where the paper states it, so that dropping it is
visible.
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

#: Base dimensions: parameter space (Θ) and loss value (F).
THETA = sp.Symbol("Θ", positive=True)
LOSS = sp.Symbol("F", positive=True)
DIMLESS = sp.Integer(1)

GRADIENT = LOSS / THETA
STEPSIZE = THETA**2 / LOSS
CURVATURE = LOSS / THETA**2


@dataclass(frozen=True)
class QuantityInfo:
    """What a table knows about one symbol."""

    symbol: sp.Symbol
    dim: sp.Expr
    description: str
    latex: str
    table: str


class SymbolTable:
    """The declared quantities of one paper (or the shared :data:`BASE` table).

    ``table.quantity("L", CURVATURE, "smoothness constant", positive=True)`` declares and
    returns the symbol; :meth:`info` and :meth:`dim` look a symbol up here, then in the
    base table.  Declaring a name twice with another dimension or other assumptions is
    an error: within a paper a letter has one meaning.
    """

    def __init__(self, key: str, *, base: "SymbolTable | None" = None, description: str = ""):
        if not isinstance(key, str) or not key:
            raise ValueError(f"key must be a non-empty string, got {key!r}")
        self.key = key
        self.base = base
        self.description = description
        self._own: dict[str, QuantityInfo] = {}

    def quantity(self, name: str, dim, description: str, latex: str | None = None,
                 **assumptions) -> sp.Symbol:
        """Declare (or return the already declared) symbol ``name`` with dimension ``dim``."""
        if not isinstance(name, str) or not name:
            raise ValueError(f"name must be a non-empty string, got {name!r}")
        if not assumptions:
            assumptions = {"real": True}
        dim = sp.sympify(dim)
        sym = sp.Symbol(name, **assumptions)
        old = self._own.get(name)
        if old is None and self.base is not None and name in self.base:
            old = self.base.info(name)
        if old is not None:
            if old.symbol != sym or sp.simplify(old.dim - dim) != 0:
                from theory.model import problem
                problem(_clash(name, old, sym, dim, own=old.table == self.key))
                return sym
            return old.symbol
        self._own[name] = QuantityInfo(sym, dim, description, latex or sp.latex(sym), self.key)
        return sym

    def __contains__(self, name) -> bool:
        name = name if isinstance(name, str) else getattr(name, "name", None)
        return name in self._own or (self.base is not None and name in self.base)

    def info(self, sym) -> QuantityInfo:
        """The :class:`QuantityInfo` of a symbol (by symbol or by name).

        A symbol is found only if it is the declared one (same name *and* assumptions):
        a bare ``sympy.Symbol("L")`` is not the quantity ``L``."""
        name = sym if isinstance(sym, str) else sym.name
        got = self._own.get(name)
        if got is None and self.base is not None and name in self.base:
            got = self.base.info(name)
        if got is None or (not isinstance(sym, str) and got.symbol != sym):
            where = f"table {self.key!r}" + (f" or {self.base.key!r}" if self.base else "")
            raise KeyError(f"symbol {name!r} is not a declared quantity of {where}; declare "
                           "it with SymbolTable.quantity()")
        return got

    def dim(self, sym) -> sp.Expr:
        return self.info(sym).dim

    def declared(self) -> dict[str, QuantityInfo]:
        """All quantities visible from this table (base ones included), by name."""
        out = dict(self.base.declared()) if self.base is not None else {}
        out.update(self._own)
        return out

    def own(self) -> dict[str, QuantityInfo]:
        return dict(self._own)

    def __repr__(self) -> str:
        return f"SymbolTable({self.key!r}, {len(self._own)} quantities)"


#: the assumptions worth naming, strongest first within each group
_SIGNS = ("positive", "nonnegative", "negative", "nonpositive", "zero")


def describe_assumptions(sym: sp.Symbol) -> str:
    """A symbol's assumptions in a few words ("positive integer", "real")."""
    a = sym.assumptions0
    words = [next((w for w in _SIGNS if a.get(w)), "real" if a.get("real") else "")]
    if a.get("integer"):
        words.append("integer")
    return " ".join(w for w in words if w) or "no assumptions"


def _clash(name: str, old: "QuantityInfo", sym: sp.Symbol, dim, *, own: bool) -> str:
    """One line: ``name`` is declared already (in this table, or reserved by the base
    table) with another dimension or other assumptions, and what to do."""
    mine = describe_assumptions(sym)
    theirs = describe_assumptions(old.symbol)
    if mine == theirs and old.symbol != sym:     # they differ in a rarer assumption
        keys = sorted(k for k in set(sym.assumptions0) | set(old.symbol.assumptions0)
                      if sym.assumptions0.get(k) != old.symbol.assumptions0.get(k))[:3]
        theirs = ", ".join(f"{k}={old.symbol.assumptions0.get(k)}" for k in keys)
        mine = ", ".join(f"{k}={sym.assumptions0.get(k)}" for k in keys)
    if own:
        return (f"quantity {name!r} is declared twice in table {old.table!r}: first as "
                f"{old.description!r} (dimension {old.dim}, {theirs}), now with dimension "
                f"{dim} ({mine}); within a paper a name has one meaning — give the second "
                "quantity another name")
    return (f"quantity {name!r} (dimension {dim}, {mine}) is reserved: the base table "
            f"(theory.quantities) declares {name!r} as {old.description!r} (dimension "
            f"{old.dim}, {theirs}); use theory.quantities.{name} as it is, or give yours "
            f"another name (e.g. {name + '_'!r})")


#: The quantities shared by every paper.
BASE = SymbolTable("base", description="quantities shared by all papers")

n = BASE.quantity("n", DIMLESS, "dataset size", "n", positive=True, integer=True)
b = BASE.quantity("b", DIMLESS, "batch size", "b", positive=True, integer=True)
T = BASE.quantity("T", DIMLESS, "number of iterations", "T", positive=True, integer=True)
t = BASE.quantity("t", DIMLESS, "iteration index", "t", nonnegative=True, integer=True)
d = BASE.quantity("d", DIMLESS, "parameter dimension", "d", positive=True, integer=True)
m = BASE.quantity("m", DIMLESS, "number of passes / epochs", "m", positive=True, integer=True)
q = BASE.quantity("q", DIMLESS, "sampling rate b/n", "q", positive=True)
epsilon = BASE.quantity("epsilon", DIMLESS, "privacy loss", r"\varepsilon", positive=True)
delta = BASE.quantity("delta", DIMLESS, "DP failure probability", r"\delta", positive=True)
c_O = BASE.quantity("c_O", DIMLESS, "the constant hidden in a printed O(·)", r"c_{\mathcal O}",
                    positive=True)


def table(key: str, description: str = "") -> SymbolTable:
    """A new paper table that falls back to :data:`BASE`."""
    return SymbolTable(key, base=BASE, description=description)

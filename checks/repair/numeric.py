"""Candidate lines tested on a set of points before any is judged (the repair search's
screen).

A repair candidate differs from the printed line in one subtree.  :class:`Points` holds
test points (a column of floats per symbol) and evaluates expressions on all of them at
once, remembering the value of every subtree it has seen: an edited side is then
evaluated by re-combining only the nodes on the path from the edit to the root
(:meth:`Points.value_at`), a few numpy operations per candidate.

The screen only ever *discards* a candidate, and only where it is violated at a point
that meets every hypothesis by a clear margin (:data:`TOL` relative to the sizes of the
sides and of their terms); a value it cannot compute (a function it does not know, a
complex or infinite value) discards nothing.  Whatever it keeps is judged by the engine's
prover and search, so the screen can lose a repair (a float misjudged) but never make
one.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import sympy as sp

#: a candidate is discarded where it is violated by more than TOL relative to the scale
#: of its sides (a float evaluation of a line that holds with equality stays within it)
TOL = 1e-6


class Unsupported(Exception):
    """A node the screen cannot combine from its children's values."""


_FUNCS = {
    sp.exp: np.exp, sp.log: np.log, sp.Abs: np.abs, sp.sign: np.sign,
    sp.floor: np.floor, sp.ceiling: np.ceil, sp.sin: np.sin, sp.cos: np.cos,
    sp.tan: np.tan, sp.tanh: np.tanh, sp.sinh: np.sinh, sp.cosh: np.cosh,
    sp.atan: np.arctan, sp.asin: np.arcsin, sp.acos: np.arccos,
}


def _special():
    from scipy import special
    return {sp.erf: special.erf, sp.erfc: special.erfc, sp.gamma: special.gamma,
            sp.loggamma: special.gammaln}


class Points:
    """Test points: ``cols`` maps each free symbol to a float array (all of length n);
    ``defs`` maps a defined symbol to its expression (evaluated, never sampled)."""

    def __init__(self, cols: dict, defs: dict | None = None):
        self.cols = {s: np.asarray(v, dtype=float) for s, v in cols.items()}
        self.defs = dict(defs or {})
        lens = {v.shape[0] for v in self.cols.values()}
        self.n = lens.pop() if lens else 1
        self.memo: dict = {}
        self._lambdas: dict = {}
        self._resolving: set = set()

    # ---- whole expressions
    def value(self, e) -> np.ndarray:
        got = self.memo.get(e)
        if got is not None:
            return got
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            v = self._value(e)
        v = np.asarray(v, dtype=float) if not np.iscomplexobj(v) else np.full(self.n, np.nan)
        if v.shape != (self.n,):
            v = np.broadcast_to(v, (self.n,)).astype(float)
        self.memo[e] = v
        return v

    def _value(self, e):
        if isinstance(e, sp.Symbol):
            if e in self.cols:
                return self.cols[e]
            if e in self.defs and e not in self._resolving:
                self._resolving.add(e)      # a definition that uses itself: unknown
                try:
                    return self.value(self.defs[e])
                finally:
                    self._resolving.discard(e)
            return np.full(self.n, np.nan)
        if e.is_Number or isinstance(e, sp.NumberSymbol):
            try:
                return np.full(self.n, float(e))
            except (TypeError, OverflowError):
                return np.full(self.n, np.nan)
        try:
            return self.combine(e, [self.value(a) for a in e.args])
        except Unsupported:
            return self._fallback(e)

    def combine(self, node, vals: list) -> np.ndarray:
        """The value of ``node`` given its children's values ``vals``."""
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if isinstance(node, sp.Add):
                out = vals[0]
                for v in vals[1:]:
                    out = out + v
                return out
            if isinstance(node, sp.Mul):
                out = vals[0]
                for v in vals[1:]:
                    out = out * v
                return out
            if isinstance(node, sp.Pow):
                b, x = vals
                if node.exp == sp.S.Half:
                    return np.sqrt(b)
                return np.power(b, x)
            if isinstance(node, sp.Max):
                return np.maximum.reduce(vals)
            if isinstance(node, sp.Min):
                return np.minimum.reduce(vals)
            fn = _FUNCS.get(type(node)) or _special().get(type(node))
            if fn is not None and len(vals) == 1:
                return fn(vals[0])
        raise Unsupported(type(node).__name__)

    def _fallback(self, e):
        """A node the screen does not combine (a sum, a piecewise function...): compiled
        with numpy once, its defined symbols evaluated first."""
        from checks.claim import lambdify
        syms = sorted(e.free_symbols, key=lambda s: s.name)
        fn = self._lambdas.get(e)
        if fn is None:
            try:
                fn = lambdify(syms, e, modules="numpy")
            except Exception:                   # noqa: BLE001 - not numeric: unknown
                fn = False
            self._lambdas[e] = fn
        if fn is False:
            return np.full(self.n, np.nan)
        try:
            return fn(*[self.value(s) for s in syms])
        except Exception:                       # noqa: BLE001 - unknown, never a rejection
            return np.full(self.n, np.nan)

    # ---- an edited expression
    def value_at(self, root, path: tuple, new) -> tuple[np.ndarray, np.ndarray]:
        """(value, scale) of ``root`` with the subtree at ``path`` replaced by ``new``
        (the ancestors re-combined from their children's remembered values); the scale is
        the largest magnitude among the root's top-level terms."""
        nodes = [root]
        for i in path:
            nodes.append(nodes[-1].args[i])
        v = self.value(new)
        kids = None
        try:
            for depth in range(len(path) - 1, -1, -1):
                parent = nodes[depth]
                vals = [self.value(a) for a in parent.args]
                vals[path[depth]] = v
                kids = vals
                v = self.combine(parent, vals)
        except Unsupported:
            from checks.repair.edits import replace_at
            e = replace_at(root, path, new)
            return self.value(e), self.scale(e)
        if not path:
            return v, self.scale(new)
        if isinstance(root, sp.Add) and kids is not None:
            with np.errstate(all="ignore"):
                return v, np.max(np.abs(np.vstack(kids)), axis=0)
        return v, np.abs(v)

    def scale(self, e) -> np.ndarray:
        if isinstance(e, sp.Add):
            with np.errstate(all="ignore"):
                return np.max(np.abs(np.vstack([self.value(a) for a in e.args])), axis=0)
        return np.abs(self.value(e))

    def truth(self, b) -> np.ndarray:
        """A boolean (relations, And, Or) at every point: True only where it clearly holds
        (by :data:`TOL` relative to its sides; a value that cannot be computed is False)."""
        if b is sp.true:
            return np.ones(self.n, dtype=bool)
        if b is sp.false:
            return np.zeros(self.n, dtype=bool)
        if isinstance(b, sp.And):
            out = np.ones(self.n, dtype=bool)
            for a in b.args:
                out &= self.truth(a)
            return out
        if isinstance(b, sp.Or):
            out = np.zeros(self.n, dtype=bool)
            for a in b.args:
                out |= self.truth(a)
            return out
        if isinstance(b, sp.core.relational.Relational):
            a, c = self.value(b.lhs), self.value(b.rhs)
            return holds(b.rel_op, a, c, np.maximum(self.scale(b.lhs), self.scale(b.rhs)),
                         margin=-TOL)
        return np.zeros(self.n, dtype=bool)


_OPS = {"<=": "<=", "<": "<=", ">=": ">=", ">": ">=", "==": "==", "=": "=="}


def holds(op: str, a, b, scale, margin: float = TOL) -> np.ndarray:
    """Where ``a op b`` holds up to ``margin`` (relative to ``scale`` and the sides):
    ``margin > 0`` forgives small violations (the screen: is the line clearly violated?),
    ``margin < 0`` demands a clear margin (is a hypothesis clearly met?).  Strict
    relations are read as non-strict.  NaN never holds."""
    op = _OPS.get(op, op)
    with np.errstate(all="ignore"):
        sc = np.maximum(np.maximum(np.abs(a), np.abs(b)), scale)
        sc = np.where(np.isfinite(sc), sc, np.nan)
        tol = margin * sc
        if op == "<=":
            out = a <= b + tol
        elif op == ">=":
            out = a >= b - tol
        elif op == "==":
            out = np.abs(a - b) <= tol if margin >= 0 else np.zeros_like(a, dtype=bool)
        elif op == "!=":
            out = a != b
        else:
            raise ValueError(f"unknown relation {op!r}")
    return out & np.isfinite(a) & np.isfinite(b)


def violated(op: str, a, b, scale) -> np.ndarray:
    """Where ``a op b`` is clearly violated (finite values only)."""
    finite = np.isfinite(a) & np.isfinite(b) & np.isfinite(scale)
    return finite & ~holds(op, a, b, scale, margin=TOL)


def parse_value(text) -> float | None:
    """A witness value (``"115/9"``, ``"3*log(21/4) ≈ 4.97"``, ``"1e-06"``) as a float."""
    if isinstance(text, (int, float)):
        return float(text)
    if not isinstance(text, str):
        return None
    s = text.split("≈")[0].strip()
    try:
        return float(s)
    except ValueError:
        pass
    try:
        v = sp.sympify(s, rational=True)
        f = float(sp.N(v, 30))
        return f if math.isfinite(f) else None
    except (sp.SympifyError, TypeError, ValueError, SyntaxError, AttributeError):
        return None

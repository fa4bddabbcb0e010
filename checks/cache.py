"""Incremental verification: verdicts cached on disk (DESIGN.md, *Scale*).

A check's verdict is stored under a key that hashes everything it depends on: the
check's content (the step with its hypotheses in force, or the typed statement, or the
chain/split it links), the search budget and seed, and the *engine version* — the
package version, a hash of every source file of ``checks`` and the versions of the
libraries that decide (SymPy, z3, mpmath, numpy, scipy, Hypothesis, dp-accounting).  An
edit to one step re-checks that step (and the structural rows that involve it) only;
any change to the engine re-checks everything.

Entries live in ``.dpcheck-cache/`` of the current directory (``$DPCHECK_CACHE_DIR``
overrides it), one small JSON file each, written atomically; a corrupt or unreadable
entry is treated as a miss.  ``dpcheck verify --no-cache`` bypasses the cache.
"""
from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import os
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

DEFAULT_DIR = ".dpcheck-cache"


def fingerprint(obj) -> str:
    """A canonical text of ``obj`` (SymPy objects by ``srepr``, dataclasses field by field,
    containers element by element) — equal objects give equal text across processes."""
    out: list[str] = []
    _fp(obj, out)
    return "".join(out)


#: srepr() memoised: a result's hypotheses recur in the fingerprint of every one of its
#: steps (SymPy objects are immutable, so equal objects have one text)
_SREPR: dict = {}


def _srepr(o) -> str:
    t = _SREPR.get(o)
    if t is None:
        import sympy as sp
        if len(_SREPR) > 200_000:
            _SREPR.clear()
        t = _SREPR[o] = sp.srepr(o)
    return t


def _fp(o, out: list[str]) -> None:
    # SymPy is imported by whoever built a SymPy object; not by this module, which the
    # command line imports before it starts its worker server (run hints, below)
    sp = sys.modules.get("sympy")
    if sp is not None and isinstance(o, sp.Basic):
        out.append("S(" + _srepr(o) + ")")
    elif isinstance(o, enum.Enum):
        out.append(f"E({type(o).__name__}.{o.name})")
    elif dataclasses.is_dataclass(o) and not isinstance(o, type):
        out.append(f"D({type(o).__module__}.{type(o).__qualname__}:")
        for f in dataclasses.fields(o):
            # a field marked ``quiet`` is left out while it holds its default: adding one
            # to the data model changes no key and no seed derived from a key
            if f.metadata.get("quiet") and getattr(o, f.name) == f.default:
                continue
            out.append(f.name + "=")
            _fp(getattr(o, f.name), out)
            out.append(",")
        out.append(")")
    elif isinstance(o, dict):
        out.append("{")
        for k in sorted(o, key=repr):
            out.append(repr(k) + ":")
            _fp(o[k], out)
            out.append(",")
        out.append("}")
    elif isinstance(o, (list, tuple)):
        out.append("[")
        for x in o:
            _fp(x, out)
            out.append(",")
        out.append("]")
    elif isinstance(o, (str, int, float, bool, type(None))):
        out.append(repr(o))
    else:
        out.append(f"R({type(o).__module__}.{type(o).__qualname__}:{o!r})")


@lru_cache(maxsize=1)
def engine_version() -> str:
    """Hash of the engine: package version, every ``checks`` source file, library versions."""
    import importlib.metadata as md

    import checks
    h = hashlib.sha256(checks.__version__.encode())
    root = Path(checks.__file__).resolve().parent
    for p in sorted(root.rglob("*.py")):
        h.update(str(p.relative_to(root)).encode())
        h.update(p.read_bytes())
    for dist in ("sympy", "z3-solver", "mpmath", "numpy", "scipy", "hypothesis",
                 "dp-accounting"):
        try:
            h.update(f"{dist}={md.version(dist)}".encode())
        except md.PackageNotFoundError:
            h.update(f"{dist}=none".encode())
    return h.hexdigest()[:16]


def key(kind: str, content: str, *, budget: int, seed: int) -> str:
    h = hashlib.sha256()
    for part in (kind, engine_version(), str(budget), str(seed), content):
        h.update(part.encode())
        h.update(b"\x00")
    return h.hexdigest()


class DiskCache:
    """JSON entries under a folder; ``get`` returns None on any miss or damage."""

    def __init__(self, folder: str | os.PathLike | None = None):
        self.folder = Path(folder or os.environ.get("DPCHECK_CACHE_DIR") or DEFAULT_DIR)
        self.hits = 0
        self.misses = 0

    def _path(self, k: str) -> Path:
        return self.folder / k[:2] / f"{k}.json"

    def get(self, k: str):
        try:
            with open(self._path(k), encoding="utf-8") as fh:
                data = json.load(fh)
        except (OSError, ValueError):
            self.misses += 1
            return None
        self.hits += 1
        return data

    def put(self, k: str, data) -> None:
        p = self._path(k)
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=".tmp-", suffix=".json")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(data, fh)
            os.replace(tmp, p)
        except OSError:
            pass  # a read-only or full disk only costs speed


# ----------------------------------------------------------------------------- run hints
def _folder(folder=None) -> Path:
    return Path(folder or os.environ.get("DPCHECK_CACHE_DIR") or DEFAULT_DIR)


def run_hint(selectors, *, budget: int, seed: int, folder=None) -> Path:
    """Where ``dpcheck verify`` notes whether its last run of these selectors (with these
    paper files' contents, budget, seed and engine) ended with every verdict cached: the
    next such run is then most likely answered from the cache, and starts no worker
    server ahead of need (it would only compete for the CPU)."""
    h = hashlib.sha256(f"{engine_version()}\0{budget}\0{seed}".encode())
    for sel in selectors or ():
        h.update(b"\0" + str(sel).encode())
        try:
            h.update(Path(sel).read_bytes())
        except OSError:
            pass
    return _folder(folder) / "runs" / f"{h.hexdigest()[:32]}.json"


def last_run_complete(hint: Path) -> bool:
    try:
        with open(hint, encoding="utf-8") as fh:
            return bool(json.load(fh).get("complete"))
    except (OSError, ValueError, AttributeError):
        return False


def note_run(hint: Path, complete: bool) -> None:
    try:
        hint.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=hint.parent, prefix=".tmp-", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"complete": bool(complete)}, fh)
        os.replace(tmp, hint)
    except OSError:
        pass

"""Every encoded result by id: ``theory.get("liang-icml:lem-3.2")``.

A *paper* is any module (or package) that exposes ``PAPER`` (a :class:`~theory.model.Paper`:
key, title, file, symbol table) and ``RESULTS`` (its :class:`~theory.model.Result` objects
in the paper's order).  Papers are found

* **built in**: the packages under ``theory.papers`` (the project's own, in the order of
  :data:`theory.papers.BUILTIN`, then any other package there that exposes ``PAPER``);
* **installed**: modules registered under the entry-point group ``dpcheck.papers``;
* **by path**: :func:`load_path` imports a user's ``my_draft.py`` (or a package folder)
  and registers it for this process (``dpcheck verify my_draft.py``).

The registry checks every paper as it loads it (:func:`problems`): ids unique, lower
case and belonging to their paper, step ids unique, every result a ``Result``.  A
built-in paper with a problem is a bug and raises; a user's paper reports the problems
(``dpcheck lint``).
"""
from __future__ import annotations

import difflib
import hashlib
import importlib
import importlib.util
import os
import pkgutil
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from theory.model import Paper, Result, apply_standing, standing_problems, walk_steps
from theory.quantities import BASE, SymbolTable

ENTRY_POINT_GROUP = "dpcheck.papers"


@dataclass(frozen=True)
class LoadedPaper:
    paper: Paper
    results: tuple[Result, ...]
    module: str
    source: str            # "builtin", "entry-point" or "path"
    path: str = ""


class PaperError(ValueError):
    """A paper module that cannot be used (missing PAPER/RESULTS, bad ids, ...)."""


# ----------------------------------------------------------------------------- checks
def problems(paper: Paper, results) -> list[str]:
    """Encoding problems of one paper, one line each (empty when it is usable)."""
    out: list[str] = []
    if not isinstance(paper, Paper):
        return [f"PAPER must be a theory.model.Paper, got {type(paper).__name__}"]
    seen: set[str] = set()
    step_seen: set[str] = set()
    for r in results:
        if not isinstance(r, Result):
            out.append(f"RESULTS holds {type(r).__name__} {r!r:.60}, not a Result")
            continue
        if r.paper != paper.key:
            out.append(f"{r.id}: result outside its paper (key {paper.key!r})")
        if r.id in seen:
            out.append(f"{r.id}: duplicate result id")
        seen.add(r.id)
        try:
            locs = list(walk_steps(r))
        except (TypeError, ValueError) as exc:   # a proof item that is not a step/chain/split
            out.append(f"{r.id}: {exc}")
            continue
        for loc in locs:
            if loc.id in step_seen:
                out.append(f"{loc.id}: duplicate step id")
            step_seen.add(loc.id)
        if r.variant_of and r.variant_of not in {x.id for x in results if isinstance(x, Result)}:
            out.append(f"{r.id}: variant_of {r.variant_of!r} is not a result of this paper")
    out += standing_problems(paper, results)
    if paper.symbols is not None and not isinstance(paper.symbols, SymbolTable):
        out.append(f"PAPER.symbols must be a theory.quantities.SymbolTable, got "
                   f"{type(paper.symbols).__name__}")
    return out


def _from_module(mod, source: str, path: str = "") -> LoadedPaper:
    paper = getattr(mod, "PAPER", None)
    results = getattr(mod, "RESULTS", None)
    if paper is None or results is None:
        missing = " and ".join(n for n, v in (("PAPER", paper), ("RESULTS", results))
                               if v is None)
        raise PaperError(f"{path or mod.__name__}: a paper module must define {missing}")
    try:
        results = tuple(results)
    except TypeError:
        raise PaperError(f"{path or mod.__name__}: RESULTS must be a list of Result") from None
    bad = problems(paper, results)
    if not bad:     # the paper's standing assumptions, handed to every result they bind
        results = tuple(apply_standing(paper, results))
    if bad:
        raise PaperError(f"{path or mod.__name__}: " + "; ".join(bad[:5])
                         + (f" (and {len(bad) - 5} more)" if len(bad) > 5 else ""))
    return LoadedPaper(paper, results, mod.__name__, source, path)


# ----------------------------------------------------------------------------- discovery
def _builtin() -> list[LoadedPaper]:
    out = []
    for name in _builtin_names():
        modname = f"theory.papers.{name}"
        try:
            mod = importlib.import_module(modname)
        except ModuleNotFoundError as exc:
            if exc.name == modname:
                continue  # listed but not encoded yet
            raise
        if getattr(mod, "PAPER", None) is None:
            continue  # shared code of several papers (e.g. two versions), not a paper
        out.append(_from_module(mod, "builtin"))
    return out


def _entry_points() -> list[LoadedPaper]:
    from importlib.metadata import entry_points
    out = []
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            mod = ep.load()
        except Exception as exc:  # noqa: BLE001 - a broken plug-in must not stop the others
            raise PaperError(f"entry point {ep.name!r} ({ep.value}): cannot load: "
                             f"{type(exc).__name__}: {exc}") from None
        out.append(_from_module(mod, "entry-point"))
    return out


_USER: list[LoadedPaper] = []


def _module_name_for(path: Path) -> str:
    h = hashlib.sha256(str(path).encode()).hexdigest()[:12]
    return f"dpcheck_user_{path.stem.replace('-', '_')}_{h}"


def import_path(path) -> object:
    """Import a paper file (``.py``) or package folder by path; raise PaperError with one
    line when it cannot be imported (the user's traceback summarised, never dumped)."""
    p = Path(path).expanduser()
    if not p.exists():
        raise PaperError(f"{path}: no such file or folder")
    p = p.resolve()
    if p.is_dir():
        init = p / "__init__.py"
        if not init.exists():
            raise PaperError(f"{path}: a folder must be a package (with __init__.py)")
        target, search = init, [str(p)]
    elif p.suffix == ".py":
        target, search = p, None
    else:
        raise PaperError(f"{path}: expected a .py file or a package folder")
    name = _module_name_for(p)
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, target,
                                                  submodule_search_locations=search)
    if spec is None or spec.loader is None:
        raise PaperError(f"{path}: cannot be imported")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    parent = str(p.parent)
    added = parent not in sys.path
    if added:
        sys.path.insert(0, parent)
    try:
        spec.loader.exec_module(mod)
    except Exception as exc:  # noqa: BLE001 - the user's code: summarise in one line
        del sys.modules[name]
        tb = exc.__traceback__
        line = None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == str(target):
                line = tb.tb_lineno
            tb = tb.tb_next
        where = f"{path}:{line}" if line else str(path)
        raise PaperError(f"{where}: {type(exc).__name__}: {exc}") from None
    finally:
        if added:
            try:
                sys.path.remove(parent)
            except ValueError:
                pass
    return mod


def load_path(path) -> str:
    """Import and register a user's paper by path for this process; returns its key."""
    p = str(Path(path).expanduser().resolve())
    for lp in _USER:
        if lp.path == p:
            return lp.paper.key
    mod = import_path(path)
    lp = _from_module(mod, "path", p)
    if _key_taken(lp.paper.key, p):
        raise PaperError(f"{path}: paper key {lp.paper.key!r} is already taken by another "
                         "paper; choose another key")
    _USER.append(lp)
    _load.cache_clear()
    _by_id.cache_clear()
    _builtin_one.cache_clear()
    return lp.paper.key


def _key_taken(key: str, path: str) -> bool:
    """Whether another paper has ``key`` — asked without importing every built-in paper
    (about 9 s of SymPy for the five: a worker loading a user's file paid it on every
    run): the built-in package of that name alone, the installed and the user papers."""
    if _load.cache_info().currsize:
        return key in {x.paper.key for x in _load() if x.path != path}
    return (_builtin_one(key) is not None
            or any(x.paper.key == key for x in _entry_points())
            or any(x.paper.key == key and x.path != path for x in _USER))


def user_paths() -> list[str]:
    """Paths of the papers registered by :func:`load_path` (worker processes re-load them)."""
    return [lp.path for lp in _USER]


def looks_like_path(sel: str) -> bool:
    if sel.endswith(".py") or os.sep in sel:
        return True
    try:
        return Path(sel).is_dir()
    except OSError:          # e.g. a name too long for the file system: not a path
        return False


@lru_cache(maxsize=None)
def _load() -> tuple[LoadedPaper, ...]:
    out: list[LoadedPaper] = []
    keys: set[str] = set()
    ids: set[str] = set()
    for lp in _builtin() + _entry_points() + list(_USER):
        if lp.paper.key in keys:
            raise PaperError(f"{lp.module}: paper key {lp.paper.key!r} is registered twice")
        keys.add(lp.paper.key)
        for r in lp.results:
            if r.id in ids:
                raise PaperError(f"{lp.module}: duplicate result id {r.id!r}")
            ids.add(r.id)
        if lp.results:
            out.append(lp)
    return tuple(out)


def _all_loaded() -> tuple[LoadedPaper, ...]:
    return _load()


def _builtin_names() -> list[str]:
    import theory.papers as pkg
    names = list(getattr(pkg, "BUILTIN", ()))
    return names + sorted(m.name for m in pkgutil.iter_modules(pkg.__path__)
                          if m.ispkg and m.name not in names)


@lru_cache(maxsize=None)
def _builtin_one(key: str) -> LoadedPaper | None:
    """The built-in paper ``key`` alone (package ``theory.papers.<key, '-' → '_'>``), or
    None when there is no such package (an installed or user paper, or no paper): a
    command about one paper — a worker checking one of its results — need not import
    the others (about a second of CPU each).  Checked like any loaded paper; the checks
    across papers (keys and ids unique) run whenever the whole registry loads."""
    name = key.replace("-", "_")
    if not name.isidentifier() or name not in _builtin_names():
        return None
    mod = importlib.import_module(f"theory.papers.{name}")
    if getattr(mod, "PAPER", None) is None or mod.PAPER.key != key:
        return None
    lp = _from_module(mod, "builtin")
    return lp if lp.results else None


def _one(key: str) -> LoadedPaper | None:
    """The loaded paper ``key``: from the whole registry once that is loaded, else the
    user's paper of that key or the built-in package alone."""
    if _load.cache_info().currsize:
        return next((lp for lp in _load() if lp.paper.key == key), None)
    mine = next((lp for lp in _USER if lp.paper.key == key), None)
    if mine is not None:         # a user's paper: no other paper has its key (load_path)
        return mine if mine.results else None
    return _builtin_one(key) or next((lp for lp in _load() if lp.paper.key == key), None)


# ----------------------------------------------------------------------------- queries
def loaded() -> list[LoadedPaper]:
    return list(_load())


def papers() -> list[str]:
    """Paper keys that have at least one encoded result, in registry order."""
    return [lp.paper.key for lp in _load()]


def paper(key: str) -> Paper:
    lp = _one(key)
    if lp is None:
        raise KeyError(unknown_message(key))
    return lp.paper


def symbols_of(key: str) -> SymbolTable:
    """The symbol table of a paper (the base table when the paper declares none or is
    not registered)."""
    lp = _one(key)
    return (lp.paper.symbols or BASE) if lp is not None else BASE


def results_of(key: str) -> list[Result]:
    lp = _one(key)
    if lp is None:
        raise KeyError(unknown_message(key))
    return list(lp.results)


def all_results() -> list[Result]:
    return [r for lp in _load() for r in lp.results]


@lru_cache(maxsize=None)
def _by_id() -> dict[str, Result]:
    return {r.id: r for r in all_results()}


def get(result_id: str) -> Result:
    if ":" in result_id:
        lp = _one(result_id.split(":", 1)[0])
        hit = next((r for r in lp.results if r.id == result_id), None) if lp else None
        if hit is not None:
            return hit
    try:
        return _by_id()[result_id]
    except KeyError:
        raise KeyError(unknown_message(result_id)) from None


def step_ids() -> list[str]:
    return [loc.id for r in all_results() for loc in walk_steps(r)]


def known_ids() -> list[str]:
    return papers() + [r.id for r in all_results()]


def close_matches(name: str, n: int = 3) -> list[str]:
    return difflib.get_close_matches(name, known_ids() + step_ids(), n=n, cutoff=0.5)


def unknown_message(name: str) -> str:
    close = close_matches(name)
    hint = f"; did you mean {', '.join(close)}?" if close else "; `dpcheck list` shows all ids"
    return f"unknown result or paper {name!r}{hint}"


def resolve(selectors: list[str] | None) -> list[Result]:
    """Results named by ids, step ids' results, paper keys or paper files (all when
    empty), de-duplicated, in registry order.  Raises KeyError naming close matches, or
    PaperError for a paper file that cannot be used."""
    if not selectors:
        return all_results()
    some = _resolve_builtin(selectors)
    if some is not None:
        return some
    if all(looks_like_path(sel.strip()) for sel in selectors):
        # paper files only: their results, without importing every built-in paper
        keys = {load_path(sel.strip()) for sel in selectors}
        return [r for lp in _USER if lp.paper.key in keys for r in lp.results]
    wanted: set[str] = set()
    for sel in selectors:
        sel = sel.strip()
        if looks_like_path(sel):
            key = load_path(sel)
            wanted.update(r.id for r in results_of(key))
            continue
        sel = sel.lower()
        if sel in papers():
            wanted.update(r.id for r in results_of(sel))
            continue
        rid = sel.split("/", 1)[0]  # a step id selects its result
        get(rid)  # raises KeyError naming close matches
        wanted.add(rid)
    return [r for r in all_results() if r.id in wanted]


def _resolve_builtin(selectors: list[str]) -> list[Result] | None:
    """:func:`resolve` for selectors that all name built-in papers, their results or
    steps, loading only those papers; None where the whole registry is needed (a path,
    an unknown name — its error names close matches from every paper — or the registry
    already loaded)."""
    if _load.cache_info().currsize or _USER:
        return None
    names = _builtin_names()
    picked: dict[str, set[str] | None] = {}         # key -> result ids (None: all)
    for sel in selectors:
        sel = sel.strip()
        if looks_like_path(sel):
            return None
        sel = sel.lower()
        key = sel.split(":", 1)[0]
        lp = _builtin_one(key)
        if lp is None:
            return None
        if sel == key:
            picked[key] = None
            continue
        rid = sel.split("/", 1)[0]
        if not any(r.id == rid for r in lp.results):
            return None
        if key not in picked or picked[key] is not None:
            picked.setdefault(key, set()).add(rid)
    order = sorted(picked, key=lambda k: names.index(k.replace("-", "_")))
    return [r for k in order for r in _builtin_one(k).results
            if picked[k] is None or r.id in picked[k]]


def reset() -> None:
    """Forget user papers (their modules too: an edited file is re-imported) and cached
    loads."""
    for lp in _USER:
        sys.modules.pop(_module_name_for(Path(lp.path)), None)
    _USER.clear()
    _load.cache_clear()
    _by_id.cache_clear()
    _builtin_one.cache_clear()

"""All encoded results by id: ``theory.get("liang-icml:lem-3.2")``.

Each paper key maps to a module (or package) under ``theory.papers`` that exposes
``RESULTS``: a list of :class:`~theory.model.Result` in the paper's order.  The registry
imports them lazily, checks that ids are unique, lower case and belong to their paper,
and that step ids are unique within the whole suite.
"""
from __future__ import annotations

import difflib
import importlib
from functools import lru_cache

from theory.model import Result, walk_steps

#: paper key -> module path; a module that does not exist yet is simply absent.
PAPER_MODULES: dict[str, str] = {
    "liang-icml": "theory.papers.liang_icml",
    "liang-aaai": "theory.papers.liang_aaai",
    "dice": "theory.papers.dice",
    "holder": "theory.papers.holder",
    "nsgd": "theory.papers.nsgd",
}


@lru_cache(maxsize=None)
def _load() -> tuple[tuple[str, tuple[Result, ...]], ...]:
    out = []
    seen: set[str] = set()
    step_seen: set[str] = set()
    for key, modname in PAPER_MODULES.items():
        try:
            mod = importlib.import_module(modname)
        except ModuleNotFoundError as exc:
            if exc.name == modname or (exc.name and modname.startswith(exc.name)):
                continue  # paper not encoded yet
            raise
        results = tuple(getattr(mod, "RESULTS", ()))
        for r in results:
            if r.paper != key:
                raise ValueError(f"{modname}: result {r.id!r} does not belong to paper {key!r}")
            if r.id in seen:
                raise ValueError(f"duplicate result id {r.id!r}")
            seen.add(r.id)
            for loc in walk_steps(r):
                if loc.id in step_seen:
                    raise ValueError(f"duplicate step id {loc.id!r}")
                step_seen.add(loc.id)
        if results:
            out.append((key, results))
    return tuple(out)


def papers() -> list[str]:
    """Paper keys that have at least one encoded result, in registry order."""
    return [k for k, _ in _load()]


def results_of(paper: str) -> list[Result]:
    for k, rs in _load():
        if k == paper:
            return list(rs)
    raise KeyError(unknown_message(paper))


def all_results() -> list[Result]:
    return [r for _, rs in _load() for r in rs]


def get(result_id: str) -> Result:
    for r in all_results():
        if r.id == result_id:
            return r
    raise KeyError(unknown_message(result_id))


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
    """Results named by ids, step ids' results, or paper keys (all when empty),
    de-duplicated, in registry order.  Raises KeyError naming close matches."""
    if not selectors:
        return all_results()
    wanted: set[str] = set()
    for sel in selectors:
        sel = sel.strip().lower()
        if sel in papers():
            wanted.update(r.id for r in results_of(sel))
            continue
        rid = sel.split("/", 1)[0]  # a step id selects its result
        get(rid)  # raises KeyError naming close matches
        wanted.add(rid)
    return [r for r in all_results() if r.id in wanted]

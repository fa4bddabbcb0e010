"""Plug-in points of the engine: step oracles and statement checks.

``theory`` names an oracle on a step (``Step.oracle = "gaussian-rdp"``); a module in
``checks`` registers the function that checks such steps::

    @step_oracle("gaussian-rdp")
    def _gaussian_rdp(loc, *, budget, seed) -> StepReport: ...

A statement check compares a result's :class:`~theory.model.Bound` with the truth on
scenarios and is registered per result id (or ``"*"`` for any result with bounds)::

    @statement_check("liang-icml:thm-3.3")
    def _thm33(result, *, budget, seed) -> StatementReport: ...

The modules that register are listed in :data:`PLUGIN_MODULES` and imported on first
use, so importing ``checks.plugins`` stays cheap and a missing optional dependency
(torch) only disables its own plug-ins.
"""
from __future__ import annotations

import importlib
from typing import Callable

#: modules imported (once) before the first lookup; each registers its plug-ins.
PLUGIN_MODULES: tuple[str, ...] = (
    "checks.probabilistic",
    "checks.truth.statements",
)

_STEP_ORACLES: dict[str, Callable] = {}
_STATEMENT_CHECKS: dict[str, Callable] = {}
_loaded = False


def step_oracle(name: str):
    """Decorator registering ``fn(loc, *, budget, seed) -> StepReport`` under ``name``."""
    def deco(fn):
        if name in _STEP_ORACLES and _STEP_ORACLES[name] is not fn:
            raise ValueError(f"step oracle {name!r} registered twice")
        _STEP_ORACLES[name] = fn
        return fn
    return deco


def statement_check(result_id: str):
    """Decorator registering ``fn(result, *, budget, seed) -> StatementReport``."""
    def deco(fn):
        if result_id in _STATEMENT_CHECKS and _STATEMENT_CHECKS[result_id] is not fn:
            raise ValueError(f"statement check for {result_id!r} registered twice")
        _STATEMENT_CHECKS[result_id] = fn
        return fn
    return deco


def _ensure_loaded() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for mod in PLUGIN_MODULES:
        try:
            importlib.import_module(mod)
        except ModuleNotFoundError as exc:
            if exc.name != mod:  # a real missing dependency inside the plug-in
                raise


def get_step_oracle(name: str) -> Callable | None:
    _ensure_loaded()
    return _STEP_ORACLES.get(name)


def get_statement_check(result_id: str) -> Callable | None:
    _ensure_loaded()
    return _STATEMENT_CHECKS.get(result_id) or _STATEMENT_CHECKS.get("*")


def step_oracles() -> dict[str, Callable]:
    _ensure_loaded()
    return dict(_STEP_ORACLES)

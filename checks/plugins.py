"""Plug-in points of the engine (DESIGN.md, *Truth providers* and *User papers*).

The engine knows no paper.  What a paper needs is registered here, by name:

* **step oracles** — ``theory`` names one on a PROBABILISTIC/CITED step
  (``Step(..., oracle="gaussian-rdp", oracle_args={...})``); a module in ``checks``
  registers the function that judges such steps::

      @step_oracle("gaussian-rdp", arguments={"order": "..."}, supports="...")
      def _gaussian_rdp(loc, *, budget, seed) -> StepReport: ...

  An oracle name nobody registered is an *encoding error* (``dpcheck lint`` reports it,
  ``dpcheck verify`` marks the row UNCHECKED with that reason), never a silent CITED.
* **truth providers** — objects that say which mechanisms / problem classes they
  ``supports()`` and compute the truth for typed statements (:mod:`checks.truth`).
* **derive commands** — ``dpcheck derive NAME`` sub-commands a paper registers.
* **figures** — ``dpcheck simulate figure NAME`` figures a paper registers.

Where plug-ins come from, imported once on first use: the generic modules of
:data:`GENERIC_MODULES`, every package under ``checks/papers/`` (evidence specific to
one paper), and installed packages registered under the entry-point group
``dpcheck.plugins``.  A user paper file may register plug-ins itself (it is imported
before verification).
"""
from __future__ import annotations

import importlib
import inspect
import pkgutil
from dataclasses import dataclass, field
from typing import Callable

#: generic plug-in modules (imported before the first lookup)
GENERIC_MODULES: tuple[str, ...] = (
    "checks.truth.providers",
    "checks.truth.rates_quadratic",
    "checks.truth.rates_convex",
    "checks.oracles.stability",
    "checks.truth.profiles_sgd",
    "checks.oracles.divergence_rows",
    "checks.truth.error_feedback",
    "checks.simulate.audit_truth",
    "checks.truth.rates_error_feedback",
    "checks.truth.rates_nonconvex",
    "checks.oracles.bound_rows",
    "checks.oracles.exists",
    "checks.oracles.worst_case",
)
ENTRY_POINT_GROUP = "dpcheck.plugins"


@dataclass(frozen=True)
class OracleInfo:
    """A registered step oracle and what it documents about itself."""

    name: str
    fn: Callable
    summary: str
    arguments: dict = field(default_factory=dict)   # oracle_args name -> description
    supports: str = ""                               # which steps it can judge
    module: str = ""


@dataclass(frozen=True)
class DeriveInfo:
    name: str
    fn: Callable                 # fn(args) -> str (the text to print)
    help: str
    papers: tuple[str, ...] = ()
    add_arguments: Callable | None = None   # add_arguments(argparse parser)
    module: str = ""


@dataclass(frozen=True)
class FigureInfo:
    name: str
    fn: Callable                 # fn(out_dir, *, quick, device, seed, progress) -> output
    help: str
    papers: tuple[str, ...] = ()
    module: str = ""


_STEP_ORACLES: dict[str, OracleInfo] = {}
_PROVIDERS: dict[str, object] = {}
_DERIVE: dict[str, DeriveInfo] = {}
_FIGURES: dict[str, FigureInfo] = {}
_loaded = False
_load_errors: list[str] = []


def _summary(fn) -> str:
    doc = inspect.getdoc(fn) or ""
    return doc.strip().splitlines()[0] if doc.strip() else ""


def step_oracle(name: str, *, arguments: dict | None = None, supports: str = ""):
    """Decorator registering ``fn(loc, *, budget, seed) -> StepReport`` under ``name``."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"oracle name must be a non-empty string, got {name!r}")

    def deco(fn):
        old = _STEP_ORACLES.get(name)
        if old is not None and old.fn is not fn and old.module != fn.__module__:
            raise ValueError(f"step oracle {name!r} registered twice ({old.module} and "
                             f"{fn.__module__})")
        _STEP_ORACLES[name] = OracleInfo(name, fn, _summary(fn), dict(arguments or {}),
                                         supports, fn.__module__)
        return fn
    return deco


def truth_provider(provider):
    """Register a truth provider instance (it has ``name`` and ``supports(statement)``)."""
    name = getattr(provider, "name", None)
    if not isinstance(name, str) or not name:
        raise ValueError(f"a truth provider needs a non-empty name, got {provider!r}")
    old = _PROVIDERS.get(name)
    if old is not None and type(old) is not type(provider):
        raise ValueError(f"truth provider {name!r} registered twice")
    _PROVIDERS[name] = provider
    return provider


def derive_command(name: str, *, help: str, papers=(), add_arguments=None):
    """Decorator registering ``dpcheck derive NAME``: ``fn(args) -> str``."""
    def deco(fn):
        old = _DERIVE.get(name)
        if old is not None and old.module != fn.__module__:
            raise ValueError(f"derive command {name!r} registered twice")
        _DERIVE[name] = DeriveInfo(name, fn, help, tuple(papers), add_arguments,
                                   fn.__module__)
        return fn
    return deco


def figure(name: str, *, help: str, papers=()):
    """Decorator registering a figure of ``dpcheck simulate figure NAME``."""
    def deco(fn):
        old = _FIGURES.get(name)
        if old is not None and old.module != fn.__module__:
            raise ValueError(f"figure {name!r} registered twice")
        _FIGURES[name] = FigureInfo(name, fn, help, tuple(papers), fn.__module__)
        return fn
    return deco


# ----------------------------------------------------------------------------- discovery
def _import(modname: str) -> None:
    try:
        importlib.import_module(modname)
    except ModuleNotFoundError as exc:
        # an optional dependency (torch, matplotlib) disables only this plug-in
        if exc.name in (modname,) or (exc.name or "").split(".")[0] in ("torch", "matplotlib"):
            _load_errors.append(f"{modname}: needs {exc.name}")
            return
        raise


def paper_evidence_modules() -> list[str]:
    """The packages under ``checks/papers/`` (evidence specific to one paper each)."""
    import checks.papers as pkg
    return [f"checks.papers.{m.name}" for m in pkgutil.iter_modules(pkg.__path__)]


def ensure_loaded() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for mod in GENERIC_MODULES:
        _import(mod)
    for mod in paper_evidence_modules():
        _import(mod)
    from importlib.metadata import entry_points
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            ep.load()
        except Exception as exc:  # noqa: BLE001 - one broken plug-in must not stop others
            _load_errors.append(f"entry point {ep.name!r}: {type(exc).__name__}: {exc}")


def load_errors() -> list[str]:
    ensure_loaded()
    return list(_load_errors)


# ----------------------------------------------------------------------------- lookups
def get_step_oracle(name: str) -> Callable | None:
    ensure_loaded()
    info = _STEP_ORACLES.get(name)
    return None if info is None else info.fn


def step_oracles() -> dict[str, OracleInfo]:
    ensure_loaded()
    return dict(sorted(_STEP_ORACLES.items()))


def providers() -> list:
    ensure_loaded()
    return list(_PROVIDERS.values())


def derive_commands() -> dict[str, DeriveInfo]:
    ensure_loaded()
    return dict(sorted(_DERIVE.items()))


def figures() -> dict[str, FigureInfo]:
    ensure_loaded()
    return dict(_FIGURES)

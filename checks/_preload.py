"""What a ``dpcheck verify`` worker needs before its first task, imported once by the
worker server (multiprocessing's ``forkserver``, :mod:`checks.executor`): workers are
forked from it with the engine, its plug-ins, the libraries and the run's papers already
loaded, instead of each importing them again (about 4 s of CPU per worker for the main
paper, 6 s for the five papers, during which no check ran).

The papers are those of the run: ``$DPCHECK_PRELOAD_PAPERS`` holds its selectors, one per
line (paper keys, result or step ids; an empty value: every paper; unset: none).  Papers
given by path are not preloaded — each worker loads them, as it always did.

Libraries only some checks use (dp-accounting and the scipy.signal and scipy.stats it
pulls in: 0.9 s) are not preloaded: the server's imports are on every run's critical
path — the workers start only when it is done — while a worker that needs such a library
imports it when it first does (the main paper never does: its cold run starts checking
0.5-0.9 s sooner).

Best effort only: an import that fails here is simply imported again by the worker that
needs it, which then reports the real error.  Importing this module has no other effect
on a worker than the imports themselves (the memos it fills are those a worker fills when
it loads the same modules).
"""
from __future__ import annotations

import os

from checks.executor import PAPERS_ENV


def _preload() -> None:
    try:
        import checks.engine  # noqa: F401 - pins Hypothesis and the BLAS threads too
        from checks import plugins
        plugins.ensure_loaded()
        import checks.falsify  # noqa: F401
        import checks.prove  # noqa: F401
        import checks.statements  # noqa: F401
        import hypothesis  # noqa: F401
        import scipy.optimize  # noqa: F401
        import z3  # noqa: F401
    except Exception:  # noqa: BLE001 - best effort (see the module docstring)
        pass
    selectors = os.environ.get(PAPERS_ENV)
    if selectors is None:
        return
    try:
        from theory import registry
        wanted = [s.strip() for s in selectors.split("\n") if s.strip()]
        if not wanted:
            registry.all_results()
        for sel in wanted:
            if not registry.looks_like_path(sel):
                try:
                    registry.results_of(sel.lower().split(":", 1)[0].split("/", 1)[0])
                except KeyError:
                    pass
    except Exception:  # noqa: BLE001 - best effort
        pass


_preload()

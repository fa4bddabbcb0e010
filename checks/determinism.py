"""Searches give the same examples whatever ran before them in the process.

Hypothesis (≥ 6.13x) mixes *local constants* into generation: literals collected from
every module of the user's code imported so far.  That pool grows as modules are imported,
so the same ``@seed`` generates different examples depending on process history — and a
verdict's detail (even, in principle, its witness) would depend on which results a worker
happened to check before.  ``dpcheck verify`` promises identical output for a seed on one
process, many processes or a cluster, so the pool is pinned empty for every search of the
engine: :func:`pin_hypothesis` is called once when the engine or its search loop
(:mod:`checks.search`) is imported.  If a future
Hypothesis moves this internal, the pin is a no-op and the determinism tests say so.  The
pin also lifts Hypothesis' wall-clock limit on shrinking (its count limit stays), so that
a witness does not depend on the machine's load.

The same holds for floating point: a multi-threaded BLAS splits a dot product differently
with another thread count, so a truth value (dp-accounting's privacy-loss distributions
sum with it) differed in its last digits between the parent process, a spawn-pool worker
and a Dask worker (which caps threads).  :func:`pin_blas_threads` limits BLAS to one
thread in every process that runs the engine (the engine's parallelism is by processes).
"""
from __future__ import annotations

_PINNED = False


def pin_hypothesis() -> bool:
    """Make Hypothesis' local-constant pool empty and constant; True if pinned."""
    global _PINNED
    if _PINNED:
        return True
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:       # pragma: no cover - Hypothesis absent or reorganised
        return False
    empty = getattr(providers, "_local_constants", None)
    if empty is None or not hasattr(providers, "_get_local_constants"):
        return False
    frozen = type(empty)()

    def _no_local_constants():
        return frozen

    providers._get_local_constants = _no_local_constants
    cache = getattr(providers, "CONSTANTS_CACHE", None)
    if cache is not None and hasattr(cache, "cache"):
        cache.cache.clear()
    _unlimit_shrinking()
    _PINNED = True
    return True


def _unlimit_shrinking() -> None:
    """Hypothesis stops shrinking a failure after MAX_SHRINKING_SECONDS (300 s) of wall
    time: on a busy machine a search's witness would be a less-shrunk one.  Its count
    limit (MAX_SHRINKS) alone bounds shrinking here, so that a witness does not depend on
    the machine's load."""
    try:
        from hypothesis.internal.conjecture import engine
    except ImportError:       # pragma: no cover - Hypothesis reorganised
        return
    if hasattr(engine, "MAX_SHRINKING_SECONDS"):
        engine.MAX_SHRINKING_SECONDS = float("inf")


_BLAS_LIMIT = None


def pin_blas_threads() -> bool:
    """One BLAS thread in this process (threadpoolctl); True when applied."""
    global _BLAS_LIMIT
    if _BLAS_LIMIT is not None:
        return True
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:       # pragma: no cover - a core dependency
        return False
    _BLAS_LIMIT = threadpool_limits(limits=1, user_api="blas")
    return True

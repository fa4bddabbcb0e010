"""Resource bounds of a ``dpcheck verify`` run: memory per checking process, the watchdog.

* **Memory.** Every process that checks (each worker, and the ``dpcheck`` process itself
  when it checks a small run) runs under an address-space limit (``RLIMIT_AS``): it may
  grow by :func:`memory_budget` bytes beyond what it holds when it starts — by default
  80 % of the machine's memory (or of the cgroup's limit) shared among the workers, at
  least 1 GiB; ``$DPCHECK_MEMORY`` (``4G``, ``1500M``, bytes, or ``off``) or
  ``dpcheck verify --memory`` sets it.  An allocation beyond it raises ``MemoryError``
  in that process: a truth that runs out of memory at a scenario makes that scenario
  *out of reach* (the statement is decided on the others), a step check that does makes
  its row UNCHECKED with the reason; the run goes on.  Such an outcome depends on the
  limit, so the verdict cache keeps it under the limit too (:func:`memory_errors`): a run
  with another limit computes it again.
* **Watchdog.** A worker whose task sends no progress (a finished check) for
  :func:`watchdog_seconds` (``$DPCHECK_WATCHDOG``, default 900 s; ``0``: never) is ended
  and its result reported as an error.  A last resort against a hang — it never decides
  a verdict (:mod:`checks.executor`).
"""
from __future__ import annotations

import contextlib
import os
import re

MEMORY_ENV = "DPCHECK_MEMORY"
WATCHDOG_ENV = "DPCHECK_WATCHDOG"
#: share of the machine's memory the checking processes may use together
MEMORY_SHARE = 0.8
MIN_BUDGET = 1 << 30
DEFAULT_WATCHDOG = 900.0

_UNITS = {"": 1, "b": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
_SIZE = re.compile(r"^\s*([0-9]+(?:\.[0-9]*)?)\s*([kmgt]?)(?:i?b)?\s*$", re.IGNORECASE)


def parse_size(text: str, name: str = MEMORY_ENV) -> int | None:
    """Bytes of a size such as ``4G``, ``1500M``, ``2.5GiB`` or ``123456``; None for
    ``off``/``none``/``0`` (no limit).  A ValueError names ``name`` and the value."""
    t = str(text).strip()
    if t.lower() in ("off", "none", "0", "unlimited"):
        return None
    m = _SIZE.match(t)
    if not m:
        raise ValueError(f"{name} must be a size like 4G, 1500M or 2.5GiB (or 'off'), "
                         f"got {text!r}")
    n = int(float(m[1]) * _UNITS[m[2].lower()])
    if n < 64 << 20:
        raise ValueError(f"{name} must be at least 64M (or 'off'), got {text!r}")
    return n


def machine_memory() -> int | None:
    """Bytes of memory this process may use: the machine's (``MemTotal``) or its
    cgroup's limit, whichever is smaller; None where neither can be read."""
    total = None
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemTotal:"):
                    total = int(line.split()[1]) * 1024
                    break
    except (OSError, ValueError, IndexError):
        pass
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            with open(path, encoding="ascii") as fh:
                v = fh.read().strip()
        except OSError:
            continue
        if v.isdigit() and int(v) < (1 << 60):
            total = int(v) if total is None else min(total, int(v))
    return total


def memory_budget(workers: int, setting: str | int | None = None, *,
                  name: str = MEMORY_ENV) -> int | None:
    """Bytes each of ``workers`` checking processes may allocate: ``setting`` (a size, an
    int, or None for ``$DPCHECK_MEMORY``; ``name`` is what an error calls it), else
    MEMORY_SHARE of the machine's memory divided among them (at least MIN_BUDGET); None:
    no limit."""
    if isinstance(setting, int) and not isinstance(setting, bool):
        return setting if setting > 0 else None
    if setting is None:
        setting, name = os.environ.get(MEMORY_ENV, "").strip() or None, MEMORY_ENV
    if setting is not None:
        return parse_size(setting, name)
    total = machine_memory()
    if total is None:
        return None
    return max(MIN_BUDGET, int(MEMORY_SHARE * total / max(1, int(workers))))


def watchdog_seconds(setting: float | str | None = None) -> float | None:
    """Seconds without progress after which a worker's task is ended: ``setting``, else
    ``$DPCHECK_WATCHDOG``, else DEFAULT_WATCHDOG; None (``0``): never."""
    if setting is None:
        setting = os.environ.get(WATCHDOG_ENV, "").strip() or DEFAULT_WATCHDOG
    try:
        s = float(setting)
    except (TypeError, ValueError):
        raise ValueError(f"{WATCHDOG_ENV} must be a number of seconds >= 0 (0: never), "
                         f"got {setting!r}") from None
    if not s >= 0 or s != s or s == float("inf"):
        raise ValueError(f"{WATCHDOG_ENV} must be a number of seconds >= 0 (0: never), "
                         f"got {setting!r}")
    return s or None


def _vm_size() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


_LIMIT: int | None = None     # the budget in force in this process (for the messages)


def limit_memory(budget: int | None):
    """Let this process's address space grow by at most ``budget`` bytes from now on
    (``RLIMIT_AS``; never above the hard limit).  Returns the previous limits (for
    :func:`restore`), or None when nothing was set (no budget, or no ``resource``)."""
    global _LIMIT
    if budget is None:
        return None
    try:
        import resource
    except ImportError:          # pragma: no cover - not on POSIX
        return None
    old = resource.getrlimit(resource.RLIMIT_AS)
    want = _vm_size() + int(budget)
    hard = old[1]
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    if old[0] != resource.RLIM_INFINITY and old[0] < want:
        want = old[0]            # a tighter limit set by the caller stays
    try:
        resource.setrlimit(resource.RLIMIT_AS, (want, hard))
    except (ValueError, OSError):
        return None
    _LIMIT = int(budget)
    return old


def budget_in_force() -> int | None:
    """The memory budget :func:`limit_memory` set in this process (None: none)."""
    return _LIMIT


def restore(old) -> None:
    global _LIMIT
    if old is None:
        return
    import resource
    try:
        resource.setrlimit(resource.RLIMIT_AS, old)
    except (ValueError, OSError):
        pass
    _LIMIT = None


@contextlib.contextmanager
def memory_limit(budget: int | None):
    """:func:`limit_memory` for the duration of a ``with`` block."""
    old = limit_memory(budget)
    try:
        yield
    finally:
        restore(old)


def format_size(n: int) -> str:
    for unit, k in (("G", 1 << 30), ("M", 1 << 20)):
        if n >= k:
            return f"{n / k:.3g} {unit}iB"
    return f"{n} B"


_MEMORY_ERRORS = 0


def memory_errors() -> int:
    """How many MemoryErrors this process has turned into an outcome so far (a check
    whose count changed while it ran is cached under the memory limit in force)."""
    return _MEMORY_ERRORS


def why(exc: BaseException) -> str:
    """One line for a caught exception; a MemoryError is counted (:func:`memory_errors`)
    and named as the memory limit it hit."""
    global _MEMORY_ERRORS
    if isinstance(exc, MemoryError):
        _MEMORY_ERRORS += 1
        lim = f" of {format_size(_LIMIT)} per process" if _LIMIT else ""
        msg = str(exc).strip()
        return (f"out of memory (the memory limit{lim}, {MEMORY_ENV}; "
                f"{type(exc).__name__}{': ' + msg if msg else ''})")
    return f"{type(exc).__name__}: {exc}"


def detach(exc: BaseException) -> BaseException:
    """``exc`` without its traceback and chained exceptions, to be remembered: a
    remembered traceback keeps its frames' locals alive — after a MemoryError, the very
    arrays that exhausted the memory."""
    exc.__traceback__ = None
    exc.__context__ = None
    exc.__cause__ = None
    return exc

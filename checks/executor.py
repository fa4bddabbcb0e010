"""One executor interface for independent tasks (DESIGN.md, *Scale*).

``dpcheck verify`` hands its per-result tasks to an executor and collects the results as
they finish (the engine puts them back in order, so the output does not depend on which
executor ran them or in which order they finished):

* :class:`LocalProcesses` — a pool of worker processes on this machine (the default);
  workers ignore SIGINT so that the parent alone handles an interrupt, terminates the
  pool and re-raises.  Where the platform has it, the workers are forked from
  multiprocessing's ``forkserver``, a fresh single-threaded process that imported
  :mod:`checks._preload` (the engine, its libraries and the run's papers) once —
  :func:`warm_up` starts it while the parent still loads the papers; elsewhere they are
  ``spawn``-started and import everything themselves.  Either way a worker starts from
  freshly imported modules, never from a copy of the parent;
* :class:`DaskCluster` — the tasks go to a Dask distributed scheduler at ``address``
  (``--scheduler tcp://host:8786``; the optional extra ``dpcheck[cluster]``).  Workers
  need the same dpcheck installed (and papers given by path readable at the same path).

Nothing home-made for distribution: Dask does the scheduling, transfer and fault handling.
"""
from __future__ import annotations

import multiprocessing
import os
import re
import socket
import time
from typing import Callable, Iterable, Iterator


class Executor:
    """Context manager; :meth:`imap_unordered` yields ``fn(task)`` as tasks finish."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close(abort=exc[0] is not None)
        return False

    def imap_unordered(self, fn: Callable, tasks: Iterable) -> Iterator:
        raise NotImplementedError

    def close(self, abort: bool = False) -> None:
        pass


def _ignore_sigint() -> None:
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)


#: test hook (never set in normal use): a file path; once the worker pool runs, the pids of
#: the workers are written there and the parent waits to be interrupted, so a test can
#: interrupt a parallel run at a known point instead of racing it
PAUSE_ENV = "DPCHECK_TEST_PAUSE_WITH_POOL"


def default_jobs() -> int:
    """Worker processes for ``verify``: ``$DPCHECK_JOBS`` or the CPU count (max 8)."""
    env = os.environ.get("DPCHECK_JOBS", "").strip()
    if env:
        try:
            n = int(env)
        except ValueError:
            raise ValueError(f"DPCHECK_JOBS must be an integer >= 1, got {env!r}") from None
        if n < 1:
            raise ValueError(f"DPCHECK_JOBS must be an integer >= 1, got {n}")
        return n
    return max(1, min(os.cpu_count() or 1, 8))


PRELOAD_MODULE = "checks._preload"
#: the run's selectors for the worker server's preload, one per line (see checks._preload)
PAPERS_ENV = "DPCHECK_PRELOAD_PAPERS"


def start_method() -> str:
    """``forkserver`` where the platform has it, else ``spawn``."""
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


def _context():
    ctx = multiprocessing.get_context(start_method())
    if start_method() == "forkserver":
        # takes effect when the server starts (here or in warm_up), not after
        ctx.set_forkserver_preload([PRELOAD_MODULE])
    return ctx


def warm_up(selectors: list[str] | None) -> None:
    """Start the worker server now, preloading the papers ``selectors`` name (every paper
    when empty), so that it imports while this process resolves the run; a no-op without
    ``forkserver`` or when the server already runs (a second run in one process finds
    the papers it lacks loaded by its workers, as with ``spawn``)."""
    if start_method() != "forkserver":
        return
    from multiprocessing import forkserver
    _context()
    old = os.environ.get(PAPERS_ENV)
    os.environ[PAPERS_ENV] = "\n".join(selectors or ())
    try:
        forkserver.ensure_running()
    finally:
        if old is None:
            os.environ.pop(PAPERS_ENV, None)
        else:
            os.environ[PAPERS_ENV] = old


class LocalProcesses(Executor):
    """``fresh``: every task in a process of its own (forked from the server, which
    preloaded everything: no task sees what another left in a process)."""

    def __init__(self, processes: int, fresh: bool = False):
        if processes < 1:
            raise ValueError(f"processes must be >= 1, got {processes}")
        self.pool = _context().Pool(processes=processes, initializer=_ignore_sigint,
                                    maxtasksperchild=1 if fresh else None)

    def imap_unordered(self, fn, tasks):
        it = self.pool.imap_unordered(fn, list(tasks))
        self._test_pause()
        while True:
            try:                          # short waits: the parent stays interruptible
                yield it.next(timeout=0.2)
            except multiprocessing.TimeoutError:
                continue
            except StopIteration:
                return

    def _test_pause(self) -> None:
        path = os.environ.get(PAUSE_ENV)
        if not path:
            return
        tmp = path + ".tmp"
        with open(tmp, "w") as fh:
            fh.write(" ".join(str(p.pid) for p in self.pool._pool))
        os.replace(tmp, path)
        while True:
            time.sleep(0.05)

    def close(self, abort: bool = False) -> None:
        if abort:
            self.pool.terminate()
        else:
            self.pool.close()
        self.pool.join()


_ADDRESS = re.compile(r"^(?:(?P<scheme>tcp|tls)://)?(?P<host>[A-Za-z0-9_.\-]+|\[[0-9a-fA-F:]+\])"
                      r":(?P<port>[0-9]{1,5})$")


def check_address(address: str) -> tuple[str, int]:
    """(host, port) of a scheduler address ``[tcp://|tls://]host:port``; one-line errors
    for a malformed address or a port nobody listens on (checked before Dask is asked, so
    a wrong address never waits for Dask's connect timeout)."""
    m = _ADDRESS.match(str(address).strip())
    if not m or not 0 < int(m["port"]) < 65536:
        raise ValueError(f"--scheduler must be [tcp://]HOST:PORT, got {address!r}")
    host, port = m["host"].strip("[]"), int(m["port"])
    try:
        socket.create_connection((host, port), timeout=5).close()
    except OSError as exc:
        raise ValueError(f"scheduler {address!r} cannot be reached: "
                         f"{exc.strerror or exc}") from None
    return host, port


class DaskCluster(Executor):
    def __init__(self, address: str):
        try:
            from distributed import Client
        except ModuleNotFoundError:
            raise ValueError("--scheduler needs dask.distributed: pip install "
                             "'dpcheck[cluster]'") from None
        check_address(address)
        try:
            self.client = Client(address, timeout="20s", set_as_default=False)
        except (OSError, TimeoutError) as exc:
            raise ValueError(f"scheduler {address!r} cannot be reached: {exc}") from None
        self.futures = []

    def imap_unordered(self, fn, tasks):
        from distributed import as_completed
        self.futures = self.client.map(fn, list(tasks), pure=False)
        for fut in as_completed(self.futures, loop=self.client.loop):
            yield fut.result()

    def close(self, abort: bool = False) -> None:
        if abort and self.futures:
            self.client.cancel(self.futures)
        self.client.close()


def make_executor(*, jobs: int, scheduler: str | None, n_tasks: int,
                  fresh: bool = False) -> Executor:
    """A local pool (``fresh``: a new process per task) or the Dask cluster (whose
    workers are long-lived: ``fresh`` cannot be had there)."""
    if scheduler:
        return DaskCluster(scheduler)
    return LocalProcesses(min(jobs, max(1, n_tasks)), fresh=fresh)

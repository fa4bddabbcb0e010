"""One executor interface for independent tasks (DESIGN.md, *Scale*).

``dpcheck verify`` submits its per-result tasks to an executor and reads back
:class:`Event` s as they happen — the notes a task sends while it runs (a check done, a
result's report), its end, or its failure — so that the engine keeps every result a task
finished, reports the one it was on when it failed, and re-submits the rest (the output
does not depend on which executor ran them or in which order they finished):

* :class:`LocalProcesses` — worker processes on this machine (the default), supervised
  one by one: the parent knows which task each worker holds, so a worker the OS kills
  (out of memory, a segfault, ``os._exit``) fails *that* task with the reason and a
  fresh worker takes the next; a worker whose task sends nothing for the watchdog's
  time (:func:`checks.resources.watchdog_seconds`) is ended the same way.
  (``multiprocessing.Pool`` waits forever for a task whose worker died;
  ``concurrent.futures.ProcessPoolExecutor`` fails every pending task without saying
  which one killed its worker, and cannot end one task without breaking them all.)
  Each worker runs under the run's memory limit (:mod:`checks.resources`) and ignores
  SIGINT, so that the parent alone handles an interrupt: it ends the workers and
  re-raises.  Where the platform has it, the workers are forked from
  multiprocessing's ``forkserver``, a fresh single-threaded process that imported
  :mod:`checks._preload` (the engine, its libraries and the run's papers) once —
  :func:`warm_up` starts it while the parent still loads the papers; elsewhere they are
  ``spawn``-started and import everything themselves.  Either way a worker starts from
  freshly imported modules, never from a copy of the parent;
* :class:`DaskCluster` — the tasks go to a Dask distributed scheduler at ``address``
  (``--scheduler tcp://host:8786``; the optional extra ``dpcheck[cluster]``).  Workers
  need the same dpcheck installed (and papers given by path readable at the same path).
  A task's notes come back with its end.

Nothing home-made for distribution: Dask does the scheduling, transfer and fault handling.
"""
from __future__ import annotations

import multiprocessing
import os
import re
import signal
import socket
import time
from dataclasses import dataclass
from multiprocessing.connection import wait as _wait
from typing import Callable, Iterator


@dataclass
class Event:
    """What happened to submitted task ``task``: ``"note"`` (``value``: an object the task
    sent while running), ``"done"`` (``value``: what it returned) or ``"failed"``
    (``value``: one line saying why: its worker died, the watchdog ended it, or it
    raised)."""

    task: int
    kind: str
    value: object = None


class Executor:
    """Context manager running ``fn(task, note)`` for each submitted task, where
    ``note(obj)`` sends ``obj`` back as a ``"note"`` event; :meth:`events` yields the
    events until every task submitted (also while iterating) has ended or failed."""

    def __init__(self, fn: Callable):
        self.fn = fn
        self._next = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close(abort=exc[0] is not None)
        return False

    def submit(self, task) -> int:
        raise NotImplementedError

    def events(self) -> Iterator[Event]:
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


def _serve(conn, fn, memory) -> None:
    """A worker's life: ignore SIGINT, take the memory limit, then run the tasks the
    parent sends (``(id, task)``; None: stop) and send back their notes, ends and
    failures."""
    _ignore_sigint()
    from checks import resources
    resources.limit_memory(memory)
    try:
        conn.send(("ready", None, None))     # the watchdog counts from here
    except (EOFError, OSError):
        return
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):          # the parent is gone
            return
        if msg is None:
            return
        tid, task = msg

        def note(obj, tid=tid):
            conn.send(("note", tid, obj))

        try:
            value = fn(task, note)
            conn.send(("done", tid, value))
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - the task's failure, sent back
            try:
                conn.send(("failed", tid, f"the task raised {resources.why(exc)}"))
            except (EOFError, OSError):
                return


#: seconds a worker may take to start (its server may still be importing the engine and
#: the papers) before the watchdog's time begins
STARTUP = 300.0


def _death(code: int | None) -> str:
    """Why a worker process ended, from its exit code."""
    if code is None:
        return "the worker ended"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        hint = {"SIGKILL": " (the kernel's out-of-memory killer, or a kill)",
                "SIGSEGV": " (a crash in native code)",
                "SIGBUS": " (a crash in native code)",
                "SIGABRT": " (an abort in native code)"}.get(name, "")
        return f"its worker process was killed by {name}{hint}"
    return f"its worker process exited with status {code} in the middle of the task"


class _Worker:
    def __init__(self, ctx, fn, memory):
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(child, fn, memory), daemon=True)
        self.proc.start()
        child.close()
        self.task: int | None = None
        self.last = time.monotonic()
        self.ready = False

    def give(self, tid: int, task) -> None:
        self.task, self.last = tid, time.monotonic()
        try:
            self.conn.send((tid, task))
        except (BrokenPipeError, ConnectionResetError):
            pass        # it died before its task: its end fails the task, with the reason

    def end(self, kill: bool = False) -> None:
        if kill:
            if self.proc.is_alive():
                self.proc.kill()
        else:
            try:
                self.conn.send(None)
            except (OSError, ValueError):
                pass
        self.proc.join(timeout=None if kill else 10)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()
        self.conn.close()


class LocalProcesses(Executor):
    """Up to ``processes`` supervised worker processes (see the module docstring);
    ``memory``: each worker's memory budget in bytes (None: no limit); ``watchdog``:
    seconds without a note after which a task is ended (None: never); ``fresh``: every
    task in a process of its own (forked from the server, which preloaded everything:
    no task sees what another left in a process)."""

    def __init__(self, processes: int, fn: Callable, *, memory: int | None = None,
                 watchdog: float | None = None, fresh: bool = False):
        if processes < 1:
            raise ValueError(f"processes must be >= 1, got {processes}")
        super().__init__(fn)
        self.processes, self.memory, self.watchdog = processes, memory, watchdog
        self.fresh = fresh
        self.ctx = _context()
        self.pending: list[tuple[int, object]] = []
        self.workers: list[_Worker] = []
        self._paused = False

    def submit(self, task) -> int:
        tid = self._next
        self._next += 1
        self.pending.append((tid, task))
        return tid

    def _fill(self) -> None:
        """Hand pending tasks to idle workers, starting workers up to the limit."""
        for w in self.workers:
            if w.task is None and self.pending:
                w.give(*self.pending.pop(0))
        while self.pending and len(self.workers) < self.processes:
            w = _Worker(self.ctx, self.fn, self.memory)
            self.workers.append(w)
            w.give(*self.pending.pop(0))

    def events(self) -> Iterator[Event]:
        self._fill()
        self._test_pause()
        while self.pending or any(w.task is not None for w in self.workers):
            ready = set(_wait([w.conn for w in self.workers]
                              + [w.proc.sentinel for w in self.workers], timeout=0.5))
            for w in list(self.workers):
                if w.conn in ready:
                    yield from self._read(w)
                if w not in self.workers:              # ended while reading
                    continue
                if w.proc.sentinel in ready or not w.proc.is_alive():
                    yield from self._read(w)            # what it sent before it ended
                    if w not in self.workers:
                        continue
                    w.proc.join()
                    code = w.proc.exitcode
                    self.workers.remove(w)
                    w.conn.close()
                    if w.task is not None:
                        tid, w.task = w.task, None
                        yield Event(tid, "failed", _death(code))
            if self.watchdog:
                now = time.monotonic()
                for w in list(self.workers):
                    # (a worker still starting — its server may still be importing — is
                    # given STARTUP seconds more)
                    allowed = self.watchdog + (0 if w.ready else STARTUP)
                    if w.task is not None and now - w.last > allowed:
                        tid, w.task = w.task, None
                        self.workers.remove(w)
                        w.end(kill=True)
                        yield Event(tid, "failed",
                                    f"no progress for {self.watchdog:.0f} s: ended by the "
                                    "watchdog (DPCHECK_WATCHDOG)")
            self._fill()

    def _read(self, w: _Worker) -> Iterator[Event]:
        while True:
            try:
                if not w.conn.poll():
                    return
                kind, tid, value = w.conn.recv()
            except (EOFError, OSError):
                return
            except Exception as exc:  # noqa: BLE001 - a message this process cannot read
                if w.task is not None and w in self.workers:
                    tid, w.task = w.task, None
                    self.workers.remove(w)
                    w.end(kill=True)
                    yield Event(tid, "failed", f"a message of its worker could not be read: "
                                               f"{type(exc).__name__}: {exc}")
                return
            w.last = time.monotonic()
            if kind == "ready":
                w.ready = True
                continue
            if kind != "note":
                w.task = None
                if self.fresh and w in self.workers:    # one task per process
                    self.workers.remove(w)
                    w.end()
            yield Event(tid, kind, value)

    def _test_pause(self) -> None:
        path = os.environ.get(PAUSE_ENV)
        if not path or self._paused:
            return
        self._paused = True
        tmp = path + ".tmp"
        with open(tmp, "w") as fh:
            fh.write(" ".join(str(w.proc.pid) for w in self.workers))
        os.replace(tmp, path)
        while True:
            time.sleep(0.05)

    def close(self, abort: bool = False) -> None:
        for w in self.workers:
            if abort:
                w.proc.terminate()
        for w in self.workers:
            w.end(kill=abort)
        self.workers = []
        self.pending = []


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


def _dask_call(fn, task):
    """A task on a Dask worker: its notes come back with its value."""
    notes: list = []
    return notes, fn(task, notes.append)


class DaskCluster(Executor):
    def __init__(self, address: str, fn: Callable):
        super().__init__(fn)
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
        self.futures: dict = {}
        self._done = None

    def submit(self, task) -> int:
        tid = self._next
        self._next += 1
        fut = self.client.submit(_dask_call, self.fn, task, pure=False)
        self.futures[fut] = tid
        if self._done is not None:
            self._done.add(fut)
        return tid

    def events(self) -> Iterator[Event]:
        from distributed import as_completed
        self._done = as_completed(list(self.futures), loop=self.client.loop)
        for fut in self._done:
            tid = self.futures[fut]
            try:
                notes, value = fut.result()
            except Exception as exc:  # noqa: BLE001 - a lost worker, a task that raised
                yield Event(tid, "failed", f"the task failed on the cluster: "
                                           f"{type(exc).__name__}: {exc}")
                continue
            for n in notes:
                yield Event(tid, "note", n)
            yield Event(tid, "done", value)

    def close(self, abort: bool = False) -> None:
        if abort and self.futures:
            self.client.cancel(list(self.futures))
        self.client.close()


def make_executor(fn: Callable, *, jobs: int, scheduler: str | None, n_tasks: int,
                  memory: int | None = None, watchdog: float | None = None,
                  fresh: bool = False) -> Executor:
    """Supervised local workers (``fresh``: a new process per task) or the Dask cluster
    (whose workers are long-lived: ``fresh`` cannot be had there)."""
    if scheduler:
        return DaskCluster(scheduler, fn)
    return LocalProcesses(min(jobs, max(1, n_tasks)), fn, memory=memory, watchdog=watchdog,
                          fresh=fresh)

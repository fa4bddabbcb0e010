"""The supervised worker processes of ``dpcheck verify`` (checks.executor.LocalProcesses):
a task whose worker dies — ``os._exit``, a segfault, SIGKILL —, that raises, that runs out
of memory under the workers' limit, or that never sends anything again fails alone, with
its reason, and so does one that sends what the parent cannot read; the other tasks end
normally and nothing hangs (issue 34).  Run in a fresh
interpreter: the workers import the task function from the script."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = '''
import ctypes, json, os, signal, sys, time
from checks.executor import LocalProcesses


def _explode():
    raise RuntimeError("cannot be rebuilt here")


class Unreadable:
    def __reduce__(self):
        return (_explode, ())


def work(task, note):
    note(("start", task))
    if task == "unreadable":
        note(Unreadable())
        time.sleep(3600)
    if task == "exit":
        os._exit(0)
    if task == "segv":
        ctypes.string_at(0)
    if task == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    if task == "raise":
        raise ValueError("a bad input")
    if task == "hang":
        time.sleep(3600)
    if task == "oom":
        hoard = [bytearray(1 << 27) for _ in range(64)]     # 8 GiB, limit 512 MiB
    return task.upper()


if __name__ == "__main__":
    if sys.argv[1] == "hang":       # alone: the watchdog may be short without ending others
        tasks, watchdog = ["hang"], 2.0
    else:
        tasks = ["ok-1", "exit", "segv", "kill", "raise", "oom", "unreadable", "ok-2"]
        watchdog = None
    out = {}
    with LocalProcesses(2, work, memory=512 << 20, watchdog=watchdog) as ex:
        ids = {ex.submit(t): t for t in tasks}
        notes = {}
        for ev in ex.events():
            if ev.kind == "note":
                notes.setdefault(ids[ev.task], []).append(list(ev.value))
                if ev.value == ("start", "ok-1"):    # submitted while the others run
                    ids[ex.submit("late")] = "late"
            else:
                out[ids[ev.task]] = [ev.kind, str(ev.value)]
    print(json.dumps({"end": out, "notes": notes}))
'''


def _run(tmp_path, mode):
    script = tmp_path / "tasks.py"
    script.write_text(SCRIPT, encoding="utf-8")
    r = subprocess.run([sys.executable, str(script), mode], cwd=tmp_path, capture_output=True,
                       text=True, timeout=500, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.timeout(600)
def test_every_failure_is_its_tasks_alone(tmp_path):
    got = _run(tmp_path, "faults")
    end = got["end"]
    assert end["ok-1"] == ["done", "OK-1"] and end["ok-2"] == ["done", "OK-2"]
    assert end["late"] == ["done", "LATE"]
    assert end["exit"][0] == "failed" and "exited with status 0" in end["exit"][1]
    assert end["segv"][0] == "failed" and "SIGSEGV" in end["segv"][1]
    assert end["kill"][0] == "failed" and "SIGKILL" in end["kill"][1]
    assert end["raise"] == ["failed", "the task raised ValueError: a bad input"]
    assert end["oom"][0] == "failed" and "out of memory" in end["oom"][1]
    assert end["unreadable"] == ["failed", "a message of its worker could not be read: "
                                           "RuntimeError: cannot be rebuilt here"]
    # what a task sent before it failed still arrived
    assert got["notes"]["segv"] == [["start", "segv"]]
    assert len(end) == 9


@pytest.mark.timeout(600)
def test_a_task_that_never_progresses_is_ended_by_the_watchdog(tmp_path):
    end = _run(tmp_path, "hang")["end"]
    assert end["hang"][0] == "failed" and "watchdog" in end["hang"][1]


FRESH = '''
import json, os
from checks.executor import LocalProcesses


def work(task, note):
    return os.getpid()


if __name__ == "__main__":
    with LocalProcesses(2, work, fresh=True) as ex:
        for t in range(5):
            ex.submit(t)
        got = {ev.task: [ev.kind, ev.value] for ev in ex.events()}
    print(json.dumps(got))
'''


@pytest.mark.timeout(600)
def test_fresh_runs_every_task_in_a_process_of_its_own(tmp_path):
    """``fresh=True`` (the repair search after the checks): no task inherits the process
    another task ran in."""
    script = tmp_path / "fresh.py"
    script.write_text(FRESH, encoding="utf-8")
    r = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                       text=True, timeout=500, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 0, r.stderr[-3000:]
    got = json.loads(r.stdout.strip().splitlines()[-1])
    assert sorted(got) == ["0", "1", "2", "3", "4"]
    assert all(kind == "done" for kind, _ in got.values())
    assert len({pid for _, pid in got.values()}) == 5

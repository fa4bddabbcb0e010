"""Interrupts and test collection (issue 15).

* SIGINT to a parallel ``dpcheck verify`` stops it: exit 130, one line on stderr, no
  traceback, no output file, no worker process left — interrupted at a known point through
  a test hook, not by racing a timer;
* any combination of test paths collects (``tests/checks`` must not shadow ``checks``)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie not yet reaped by init counts as gone
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


@pytest.mark.timeout(300)
def test_sigint_stops_a_parallel_verify_cleanly(tmp_path):
    ready = tmp_path / "pool.pids"
    out = tmp_path / "verify.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DPCHECK_JOBS": "2",
           "DPCHECK_TEST_PAUSE_WITH_POOL": str(ready)}
    proc = subprocess.Popen([sys.executable, "-m", "checks.cli", "verify", "liang-icml",
                             "--no-cache", "--no-progress", "--format", "json", "--out",
                             str(out)], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        while not ready.exists():
            if proc.poll() is not None:
                pytest.fail(f"verify ended before its pool started: {proc.stderr.read()}")
            time.sleep(0.02)
        workers = [int(p) for p in ready.read_text().split()]
        assert len(workers) == 2 and all(_alive(p) for p in workers)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert err.strip() == "interrupted", err        # no traceback, no "Process SpawnPoolWorker"
    assert not out.exists()
    for _ in range(100):                             # terminate() has been joined: gone now
        if not any(_alive(p) for p in workers):
            break
        time.sleep(0.05)
    assert not any(_alive(p) for p in workers)


def test_test_paths_from_different_folders_collect_together():
    # -P: no current directory on sys.path, as with the plain `pytest` command
    r = subprocess.run([sys.executable, "-P", "-m", "pytest", "--collect-only", "-q",
                        "-p", "no:cacheprovider", "tests/test_notebooks.py",
                        "tests/checks/test_report.py"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120,
                       env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]

"""Verdicts do not depend on the machine's load (issue 34).

On a machine kept busy (load ≈ 10 on 2 cores) ``nsgd:eq-7/statement`` came out SUPPORTED
where a quiet run PROVED it: z3's wall-clock time-out decided it.  Every limit that can
decide a verdict is now counted, not timed (z3's rlimit, counted search steps and
shrinks).  Here the same rows are checked twice in fresh interpreters: once normally, once
on a "machine" where every clock read says another hour has passed (``time.perf_counter``,
``time.monotonic``, ``time.time``: any wall-clock limit read from Python — Hypothesis'
shrinking deadline among them — is exceeded at once), with every z3 solver's parameters
recorded (z3 reads its own clock: a ``timeout`` set on a solver would be a wall-clock
limit).  The verdicts, details and witnesses must be identical, and no solver may carry a
time-out.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: a z3 proof (the row of the report), targeted searches and a polished witness, a typed
#: statement compared with the truth
IDS = ["nsgd:eq-7", "nsgd:thm-3.2", "nsgd:thm-3.4"]

CODE = r"""
import itertools, json, sys, time
slow = sys.argv[1] == "slow"
params = []
import z3
_set = z3.Solver.set
def spy(self, *args, **kw):
    params.extend([str(a) for a in args[::2]] + list(kw))
    return _set(self, *args, **kw)
z3.Solver.set = spy
if slow:
    hours = itertools.count()
    for name in ("perf_counter", "monotonic", "time"):
        real = getattr(time, name)
        setattr(time, name, lambda real=real: real() + 3600.0 * next(hours))
from checks import engine
from theory import registry
reps = engine.verify([registry.get(i) for i in sys.argv[2:]], jobs=1, budget=300)
from checks.verdict import timing_free
print(json.dumps({"reports": [timing_free(r.to_json()) for r in reps],
                  "params": sorted(set(params))}))
"""


def _run(mode: str) -> dict:
    r = subprocess.run([sys.executable, "-c", CODE, mode, *IDS], cwd=ROOT,
                       capture_output=True, text=True, timeout=600,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.timeout(900)
def test_same_verdicts_when_every_clock_read_says_an_hour_passed():
    quiet, busy = _run("quiet"), _run("slow")
    rows = {s["id"]: s for r in quiet["reports"] for s in r["steps"]}
    assert rows["nsgd:eq-7/statement"]["verdict"] == "PROVED"
    assert rows["nsgd:eq-7/statement"]["method"] == "z3-nra"
    assert busy["reports"] == quiet["reports"]
    assert "rlimit" in quiet["params"]
    assert "timeout" not in quiet["params"] + busy["params"]

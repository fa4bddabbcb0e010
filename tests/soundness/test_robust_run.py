"""No input can hang a run or exhaust the machine's memory (issue 34).

A paper file plants what a stranger's draft can do to a run: a truth provider that
allocates without bound, a step oracle that does the same, an oracle whose worker process
is killed (as the kernel's out-of-memory killer would), one that never returns, and
results that are fine — one of them in the same worker task as the killed one.  The run
must end (no hang: only pytest-timeout's generous limit, no timing assertion), report
the killed and the stuck results as errors naming them, the allocating ones as out of
memory with the reason, check every other result, and exit with status 3.  The stuck
one runs alone, under a short watchdog that then can end nothing else.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PAPER = textwrap.dedent('''
    """planted: a draft whose plug-ins misbehave (tests/soundness/test_robust_run.py)."""
    import os
    import signal
    import time
    from dataclasses import dataclass

    import numpy as np
    import sympy as sp

    from checks.plugins import step_oracle, truth_provider
    from checks.truth.base import TruthProvider
    from checks.verdict import StepReport, Verdict
    from theory.mechanisms import Mechanism
    from theory.model import Bound, Paper, Result, Step, StepKind, asm
    from theory.quantities import DIMLESS, table

    SYMBOLS = table("planted")
    x = SYMBOLS.quantity("x", DIMLESS, "a positive real", positive=True)
    s = SYMBOLS.quantity("s", DIMLESS, "a noise scale", positive=True)
    a = SYMBOLS.quantity("a", DIMLESS, "Renyi order", positive=True)
    D = SYMBOLS.quantity("D", DIMLESS, "a divergence", nonnegative=True)
    PAPER = Paper(key="planted", title="Planted", file="a test", symbols=SYMBOLS)

    #: what the allocating plug-ins may reach before they give up on their own: far
    #: above the run's limit (DPCHECK_MEMORY=1G in the test), so reaching it means
    #: the limit was not enforced
    GIVE_UP = 6 << 30


    def _hoard(touch):
        """256 MiB at a time, written (resident) or only mapped (address space, what
        the limit counts: fast, and harmless should the limit be missing)."""
        got, n = [], 0
        while n < GIVE_UP:
            got.append(bytearray(1 << 28) if touch else np.empty(1 << 25))
            n += 1 << 28
        raise RuntimeError("allocated 6 GiB: no memory limit in force")


    @dataclass(frozen=True)
    class Hog(Mechanism):
        """A mechanism whose truth allocates without bound."""
        sigma: sp.Expr


    class HogProvider(TruthProvider):
        name = "planted-hog"
        mechanisms = (Hog,)

        def truth(self, stmt, values, *, precise=False):
            _hoard(touch=False)


    truth_provider(HogProvider())


    @step_oracle("planted-hoard")
    def _hoard_oracle(loc, *, budget, seed):
        """Allocates without bound."""
        _hoard(touch=True)


    @step_oracle("planted-die")
    def _die(loc, *, budget, seed):
        """Its worker is killed (SIGKILL, as by the out-of-memory killer)."""
        os.kill(os.getpid(), signal.SIGKILL)


    @step_oracle("planted-hang")
    def _hang(loc, *, budget, seed):
        """Never returns."""
        while True:
            time.sleep(1)


    PRO, CIT, ALG = StepKind.PROBABILISTIC, StepKind.CITED, StepKind.ALGEBRA
    ALL = [
        Result("planted:lem-hog", "Hog", "Lemma 1", hypotheses=[asm(a > 1)],
               statement=[Step("statement", D, "<=", a / s**2, PRO)],
               bounds=[Bound("statement", a / s**2, Hog(s), order=a)]),
        Result("planted:lem-hoard", "Hoard", "Lemma 2",
               statement=[Step("statement", x, "<=", 2 * x, CIT, oracle="planted-hoard")]),
        # same title: one worker task, the killed result first
        Result("planted:lem-die", "Shared", "Lemma 3",
               statement=[Step("statement", x, "<=", 2 * x, CIT, oracle="planted-die")]),
        Result("planted:lem-after", "Shared", "Lemma 4",
               statement=[Step("statement", x, "<=", x + 1, ALG)]),
        Result("planted:lem-hang", "Hang", "Lemma 5",
               statement=[Step("statement", x, "<=", 2 * x, CIT, oracle="planted-hang")]),
        Result("planted:lem-ok", "Fine", "Lemma 6",
               statement=[Step("statement", x**2 + 1, ">=", 2 * x, ALG)]),
    ]
    WANTED = os.environ.get("PLANTED_RESULTS", "").split(",")
    RESULTS = [r for r in ALL if r.id.split(":")[1] in WANTED]
''')


FAULTS = "lem-hog,lem-hoard,lem-die,lem-after,lem-ok"


def _verify(tmp_path, wanted, **env):
    paper = tmp_path / "planted.py"
    paper.write_text(PAPER, encoding="utf-8")
    out = tmp_path / "out.json"
    full = {**os.environ, "PYTHONPATH": str(ROOT), "DPCHECK_JOBS": "2",
            "DPCHECK_MEMORY": "1G", "DPCHECK_PROGRESS_EVERY": "0.5",
            "PLANTED_RESULTS": wanted, **env}
    r = subprocess.run([sys.executable, "-m", "checks.cli", "verify", str(paper),
                        "--no-cache", "--format", "json", "--out", str(out)],
                       cwd=tmp_path, env=full, capture_output=True, text=True, timeout=900)
    data = json.loads(out.read_text()) if out.exists() else None
    return r, data


@pytest.mark.timeout(1200)
def test_planted_plugins_cannot_crash_or_exhaust_the_run(tmp_path):
    r, data = _verify(tmp_path, FAULTS)
    assert r.returncode == 3, r.stderr[-3000:]
    assert data is not None, r.stderr[-3000:]
    res = {x["id"]: x for x in data["results"]}
    assert len(res) == 5

    # the killed worker: that result's error, with its id and the signal
    die = res["planted:lem-die"]
    assert "SIGKILL" in die["error"] and die["verdict"] == "UNCHECKED"
    assert "planted:lem-die" in r.stderr and "SIGKILL" in r.stderr

    # the allocating truth: every scenario out of reach, with the reason, no error
    hog = res["planted:lem-hog"]
    assert "error" not in hog
    assert hog["statement_verdict"] == "NOT-TESTED"
    assert "out of memory" in hog["statement_detail"], hog["statement_detail"]
    assert "no memory limit" not in json.dumps(hog)
    # the allocating oracle: its row UNCHECKED with the reason, no error
    hoard = res["planted:lem-hoard"]
    assert "error" not in hoard
    row = hoard["steps"][0]
    assert row["verdict"] == "UNCHECKED" and "out of memory" in row["detail"], row

    # the others are checked — also the one queued behind the killed result
    for rid in ("planted:lem-after", "planted:lem-ok"):
        assert "error" not in res[rid]
        assert res[rid]["verdict"] == "PROVED", res[rid]

    # progress reached stderr although it is not a terminal
    lines = [ln for ln in r.stderr.splitlines() if ln.startswith("verify: ")]
    assert lines and all("/5 results done" in ln for ln in lines), r.stderr[-2000:]


@pytest.mark.timeout(600)
def test_a_result_that_never_progresses_is_ended_by_the_watchdog(tmp_path):
    """Alone in its run, so that a short watchdog ends nothing else on a loaded machine."""
    r, data = _verify(tmp_path, "lem-hang", DPCHECK_WATCHDOG="5")
    assert r.returncode == 3, r.stderr[-3000:]
    hang = data["results"][0]
    assert hang["id"] == "planted:lem-hang"
    assert "watchdog" in hang["error"] and hang["verdict"] == "UNCHECKED"
    assert "planted:lem-hang: not checked: no progress for 5 s" in r.stderr
    # progress reached stderr although it is not a terminal, naming the result
    lines = [ln for ln in r.stderr.splitlines() if ln.startswith("verify: ")]
    assert any(ln.startswith("verify: 0/1 results done; checking: planted:lem-hang (")
               for ln in lines), r.stderr[-2000:]


@pytest.mark.timeout(600)
def test_an_out_of_memory_outcome_is_cached_under_its_limit_only(tmp_path, monkeypatch):
    """Out of reach for lack of memory depends on the limit: a re-run under the same limit
    reads it from the cache, a run under another limit computes it again."""
    from checks import cache, engine, resources
    from theory import registry
    registry.reset()
    try:
        paper = tmp_path / "planted.py"
        paper.write_text(PAPER, encoding="utf-8")
        monkeypatch.setenv("PLANTED_RESULTS", FAULTS)
        results = [r for r in registry.resolve([str(paper)])
                   if r.id in ("planted:lem-hoard", "planted:lem-ok")]
        opts = engine.Options(budget=20, disk=cache.DiskCache(tmp_path / "c"))
        with resources.memory_limit(1 << 30):
            reps = [engine.check_result(r, options=opts) for r in results]
        assert "out of memory" in reps[0].steps[0].detail

        def probe(r):
            return engine.cached_report(r, engine.Options(
                budget=20, disk=cache.DiskCache(tmp_path / "c"), cache_only=True))

        with resources.memory_limit(1 << 30):
            same = probe(results[0])
        assert same is not None and "out of memory" in same.steps[0].detail
        with resources.memory_limit(2 << 30):
            assert probe(results[0]) is None                    # another limit
        assert probe(results[0]) is None                        # no limit
        again = probe(results[1])                               # not shaped by memory
        assert again is not None and again.verdict.value == "PROVED"
    finally:
        registry.reset()

"""A warm re-run is answered from the cache by the command itself (issue 34: a warm run of
an unchanged six-result file took 22-29 s).  Timing goals are measured by
benchmarks/warm_verify.py; here: no worker and no worker server is started for it, and
its reports are those of the run that filled the cache."""
from __future__ import annotations

import json

import pytest

from checks import engine, executor
from checks.cli import main
from checks.verdict import timing_free
from theory import registry

PAPER = '''
"""warm: a small paper file."""
import sympy as sp
from theory.model import Paper, Result, Step, StepKind, asm
from theory.quantities import DIMLESS, table

SYMBOLS = table("warm")
x = SYMBOLS.quantity("x", DIMLESS, "a positive real", positive=True)
y = SYMBOLS.quantity("y", DIMLESS, "a positive real", positive=True)
PAPER = Paper(key="warm", title="Warm", file="a test", symbols=SYMBOLS)
ALG, SCA = StepKind.ALGEBRA, StepKind.SCALAR
RESULTS = [
    Result("warm:lem-1", "AM-GM", "Lemma 1",
           statement=[Step("statement", x**2 + y**2, ">=", 2 * x * y, ALG)]),
    Result("warm:lem-2", "log", "Lemma 2",
           statement=[Step("statement", sp.log(1 + x), "<=", x, SCA)]),
    Result("warm:lem-3", "wrong", "Lemma 3",
           statement=[Step("statement", x + y, "<=", 2 * x, ALG)]),
]
'''


@pytest.fixture(autouse=True)
def fresh_registry():
    registry.reset()
    yield
    registry.reset()


def _strip(reports):
    return [timing_free(r.to_json()) for r in reports]


@pytest.mark.timeout(600)
def test_a_fully_cached_run_starts_no_worker(tmp_path, monkeypatch):
    paper = tmp_path / "warm.py"
    paper.write_text(PAPER, encoding="utf-8")
    results = registry.resolve([str(paper)])
    cache = str(tmp_path / "cache")
    cold = engine.verify(results, jobs=1, budget=200, use_cache=True, cache_dir=cache)
    assert [r.verdict.value for r in cold] == ["PROVED", "PROVED", "REFUTED"]

    def no_workers(*a, **kw):
        raise AssertionError("a worker was started for a fully cached run")

    monkeypatch.setattr(executor, "make_executor", no_workers)
    monkeypatch.setattr(executor, "warm_up", no_workers)
    seen = []
    warm = engine.verify(results, jobs=2, isolate=True, budget=200, use_cache=True,
                         cache_dir=cache, events=lambda kind, rid: seen.append((kind, rid)))
    assert _strip(warm) == _strip(cold)
    assert seen == [("cached", r.id) for r in results]


@pytest.mark.timeout(600)
def test_the_worker_server_waits_after_a_complete_run(tmp_path, monkeypatch, capsys):
    """After a run that ended with every verdict cached, the next run of the same file
    does not start the worker server ahead of need (it would only take CPU from the
    answer); an edited file does."""
    paper = tmp_path / "warm.py"
    paper.write_text(PAPER, encoding="utf-8")
    monkeypatch.setenv("DPCHECK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("DPCHECK_JOBS", "2")
    calls = []
    real = executor.warm_up
    monkeypatch.setattr(executor, "warm_up", lambda sel: (calls.append(sel), real(sel)))

    def run():
        calls.clear()
        registry.reset()
        code = main(["verify", str(paper), "--format", "json", "--no-progress",
                     "--budget", "200"])
        return code, json.loads(capsys.readouterr().out)

    code, first = run()
    assert code == 0 and calls                      # cold: started early
    code, second = run()
    assert code == 0 and calls == []                # warm: never started
    assert [r["verdict"] for r in second["results"]] == \
        [r["verdict"] for r in first["results"]] == ["PROVED", "PROVED", "REFUTED"]
    paper.write_text(PAPER.replace("x + y", "x + 2 * y"), encoding="utf-8")
    code, third = run()
    assert code == 0 and calls                      # edited: started early again

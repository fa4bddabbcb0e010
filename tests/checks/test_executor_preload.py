"""Workers forked from a preloading server (checks.executor, checks._preload)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from checks import executor

ROOT = Path(__file__).resolve().parents[2]


def _python(code: str, **env):
    full = {**os.environ, "PYTHONPATH": str(ROOT), **env}
    for k, v in env.items():
        if v is None:
            full.pop(k)
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=full, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout


LOADED = ("import sys, json, checks._preload; print(json.dumps(sorted(m for m in sys.modules "
          "if m.count('.') == 2 and m.startswith('theory.papers.') or m in ('checks.prove', "
          "'z3', 'dp_accounting.pld.privacy_loss_distribution'))))")


def test_preload_imports_the_engine_and_only_the_runs_papers():
    got = json.loads(_python(LOADED, DPCHECK_PRELOAD_PAPERS="liang-icml:thm-3.9\nnsgd"))
    assert {"checks.prove", "z3"} <= set(got)
    # imported by the workers that ask for a privacy-loss distribution, not by the server
    assert "dp_accounting.pld.privacy_loss_distribution" not in got
    papers = {m.split(".")[2] for m in got if m.startswith("theory.papers.")}
    assert {"liang_icml", "nsgd"} <= papers
    assert not papers & {"dice", "holder", "liang_aaai"}


def test_preload_without_a_run_loads_no_paper_and_survives_bad_selectors():
    assert not [m for m in json.loads(_python(LOADED, DPCHECK_PRELOAD_PAPERS=None))
                if m.startswith("theory.papers.")]
    got = json.loads(_python(LOADED, DPCHECK_PRELOAD_PAPERS="no-such-paper\n/tmp/none.py"))
    assert "checks.prove" in got


@pytest.mark.skipif(executor.start_method() != "forkserver", reason="no forkserver here")
@pytest.mark.timeout(600)
def test_warmed_up_workers_give_the_sequential_output():
    code = """
import json, sys
from checks import executor
executor.warm_up(["liang-icml"])
from checks import engine
from theory import registry
ids = ["liang-icml:lem-a.3", "liang-icml:lem-a.4", "liang-icml:lem-a.5", "liang-icml:lem-a.9"]
rs = [registry.get(i) for i in ids]
from checks.verdict import timing_free
strip = lambda reps: [timing_free(r.to_json()) for r in reps]
par = engine.verify(rs, budget=60, seed=5, jobs=2)
seq = engine.verify(rs, budget=60, seed=5, jobs=1)
print(json.dumps([strip(par) == strip(seq), len(par)]))
"""
    same, n = json.loads(_python(code).strip().splitlines()[-1])
    assert n == 4 and same


def test_verify_parses_its_command_line_without_sympy():
    """`dpcheck verify` starts its worker server right after parsing; a parser that
    imported SymPy (0.3 s) would hold the server's start back by that much."""
    code = ("import sys, checks.cli as c; c.build_parser('verify').parse_args(['verify']); "
            "print('sympy' in sys.modules)")
    assert _python(code).strip() == "False"
    code = ("import checks.cli as c\ntry:\n    c.main(['new', '--help'])\n"
            "except SystemExit:\n    pass")
    assert "^[a-z0-9][a-z0-9-]*$" in _python(code)

"""Incremental verify (issue 10 goal: after editing one step of a 40-step result,
re-verifying it takes <= 3 s on 2 cores).

Verifies the largest registered result (>= 40 steps) three times against a fresh verdict
cache: cold (fills the cache), warm (nothing changed), and after editing one step (its
right-hand side multiplied by 2, as a user's edit would change it).  The edited result is
built with ``dataclasses.replace``, so only that step — and the chain links, case covers
and statement parts that involve it — misses the cache.  Also times a fresh interpreter
importing the CLI (the fixed cost of ``dpcheck verify`` before any check runs).  Prints
the numbers; no pass/fail.  Usage::

    python benchmarks/bench_cache.py [RESULT_ID] [--step LABEL]
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import subprocess
import sys
import tempfile
import time

import sympy as sp

from checks import engine
from theory import registry
from theory.model import Step, walk_steps


def edit_step(obj, label: str, done: list):
    """``obj`` with the first Step labelled ``label`` (depth-first) changed: rhs × 2."""
    if isinstance(obj, Step):
        if obj.label == label and not done:
            done.append(obj)
            return dataclasses.replace(obj, rhs=2 * obj.rhs)
        return obj
    if isinstance(obj, (tuple, list)):
        return type(obj)(edit_step(x, label, done) for x in obj)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type) and not isinstance(
            obj, sp.Basic):
        changes = {}
        for f in dataclasses.fields(obj):
            v = getattr(obj, f.name)
            if isinstance(v, (tuple, list)) or (dataclasses.is_dataclass(v)
                                                and not isinstance(v, type)):
                nv = edit_step(v, label, done)
                if nv is not v:
                    changes[f.name] = nv
        return dataclasses.replace(obj, **changes) if changes else obj
    return obj


def _timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("result", nargs="?", default=None)
    ap.add_argument("--step", default=None, help="label of the step to edit (default: the "
                    "middle ALGEBRA/SCALAR step of the proof)")
    args = ap.parse_args(argv)
    if args.result is None:
        res = max(registry.all_results(), key=lambda r: len(list(walk_steps(r))))
    else:
        res = registry.get(args.result)
    locs = list(walk_steps(res))
    if args.step is None:
        cands = [loc for loc in locs if loc.step.kind.name in ("ALGEBRA", "SCALAR")
                 and not loc.step.label.startswith("statement")]
        label = cands[len(cands) // 2].step.label
    else:
        label = args.step
    done: list = []
    edited = edit_step(res, label, done)
    if not done:
        print(f"no step labelled {label!r} in {res.id}", file=sys.stderr)
        return 2
    print(f"result {res.id}: {len(locs)} steps; edited step {label!r} (rhs × 2); "
          f"cpus {os.cpu_count()}, load {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as cache:
        kw = dict(use_cache=True, cache_dir=cache, jobs=1)
        t_cold, r0 = _timed(lambda: engine.verify([res], **kw))
        t_warm, r1 = _timed(lambda: engine.verify([res], **kw))
        t_edit, r2 = _timed(lambda: engine.verify([edited], **kw))
    changed = [(a.id, a.verdict.value, b.verdict.value) for a, b in zip(r1[0].steps, r2[0].steps)
               if a.verdict != b.verdict]
    t_imp, _ = _timed(lambda: subprocess.run([sys.executable, "-c", "import checks.cli"],
                                             check=True))
    print(f"cold (fills the cache):      {t_cold:7.2f} s")
    print(f"warm, nothing changed:       {t_warm:7.2f} s")
    print(f"one step edited:             {t_edit:7.2f} s   (goal <= 3 s)")
    print(f"fresh interpreter, import:   {t_imp:7.2f} s   (fixed cost of the CLI)")
    print(f"verdicts changed by the edit: {len(changed)}")
    for cid, a, b in changed[:8]:
        print(f"  {cid}: {a} -> {b}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

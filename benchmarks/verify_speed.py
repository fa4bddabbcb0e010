"""Speed of ``dpcheck verify`` on its defaults (issue 2: <= 60 s wall on 2 cores, cold
start included).

Runs the real command in a fresh interpreter (so imports and worker start-up count)
with ``--no-cache`` (every run cold: without it a second run would read the first one's
verdicts), then prints wall and CPU time, the machine's load while it ran (other work on
the machine inflates the wall time), per-check time percentiles by kind, and the slowest
checks.  ``--repeat K`` runs it K times back to back and prints every wall time with
their median (a shared host's speed drifts by several percent from run to run; one run
says little about a few percent).  Usage::

    python benchmarks/verify_speed.py [--jobs N] [--budget B] [--repeat K] [--tree DIR] [IDS ...]

``--tree DIR`` times another checkout's code (``benchmarks/compare_commits.py`` uses it to
set two commits side by side).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _proctree  # noqa: E402  (the process-tree runner the other benchmarks use)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (DPCHECK_JOBS)")
    ap.add_argument("--budget", type=int, default=None)
    ap.add_argument("--top", type=int, default=12, help="slowest checks to list")
    ap.add_argument("--repeat", type=int, default=1, help="cold runs, back to back")
    ap.add_argument("--keep", metavar="FILE", default=None,
                    help="also copy the last run's JSON output to FILE")
    ap.add_argument("--tree", metavar="DIR", default=None,
                    help="time the code of another checkout (run in DIR, imported from it)")
    ap.add_argument("ids", nargs="*")
    args = ap.parse_args(argv)

    if args.repeat < 1:
        raise SystemExit(f"--repeat must be >= 1, got {args.repeat}")
    env = dict(os.environ)
    if args.jobs is not None:
        env["DPCHECK_JOBS"] = str(args.jobs)
    walls = []
    for _ in range(args.repeat):
        got = _run(args, env)
        if isinstance(got, int):
            return got
        wall, cpu, load0, load1, data = got
        walls.append(wall)
        print(f"run {len(walls)}: wall {wall:.1f} s   cpu (all processes) {cpu:.1f} s   "
              f"load average {load0:.1f} -> {load1:.1f}", flush=True)
    if len(walls) > 1:
        print(f"wall over {len(walls)} runs: median {float(np.median(walls)):.1f} s, "
              f"min {min(walls):.1f} s, max {max(walls):.1f} s")
    _report(args, env, wall, cpu, load0, load1, data)
    return 0


def _run(args, env):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "verify.json")
        cmd = [sys.executable, "-m", "checks.cli", "verify", "--format", "json", "--out", out,
               "--no-progress", "--no-cache", *args.ids]
        if args.budget is not None:
            cmd += ["--budget", str(args.budget)]
        tree = getattr(args, "tree", None)
        if tree:        # ``-m`` imports from the working directory first: run inside it
            env = dict(env, PYTHONPATH=os.path.abspath(tree))
        load0 = os.getloadavg()[0]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        # the workers' CPU, read in /proc while they run (the command never waits for
        # the worker server and its workers, so its own rusage lacks them)
        run = _proctree.run(cmd, env=env, cwd=os.path.abspath(tree) if tree else None)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        load1 = os.getloadavg()[0]
        if run.returncode != 0:
            print(run.stderr, file=sys.stderr)
            return run.returncode
        with open(out) as fh:
            data = json.load(fh)
        if getattr(args, "keep", None):
            shutil.copyfile(out, args.keep)
    # up to 0.1 s of each process's end missed; the rusage where /proc is absent
    cpu = run.cpu_total if run.cpu else \
        (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return run.wall, cpu, load0, load1, data


def _report(args, env, wall, cpu, load0, load1, data):
    steps = [s for r in data["results"] for s in r["steps"]]
    print(f"dpcheck verify: {len(data['results'])} results, {len(steps)} checks")
    print(f"wall {wall:.1f} s   cpu (all processes) {cpu:.1f} s   "
          f"jobs {env.get('DPCHECK_JOBS', 'default')}   cores {os.cpu_count()}   "
          f"load average {load0:.1f} -> {load1:.1f}")
    print("summary:", data["summary"])
    secs = np.array([s["seconds"] for s in steps])
    if secs.size:
        p = np.percentile(secs, [50, 90, 99])
        print(f"per check: p50 {p[0]*1e3:.1f} ms  p90 {p[1]*1e3:.1f} ms  p99 {p[2]*1e3:.1f} ms  "
              f"max {secs.max():.2f} s  sum {secs.sum():.1f} s")
    kinds: dict[str, list[float]] = {}
    for s in steps:
        kinds.setdefault(s["kind"], []).append(s["seconds"])
    print(f"{'kind':<14}{'n':>5}{'sum s':>9}{'p50 ms':>9}{'p90 ms':>9}{'max s':>8}")
    for k, v in sorted(kinds.items(), key=lambda kv: -sum(kv[1])):
        a = np.array(v)
        print(f"{k:<14}{a.size:>5}{a.sum():>9.1f}{np.percentile(a, 50)*1e3:>9.1f}"
              f"{np.percentile(a, 90)*1e3:>9.1f}{a.max():>8.2f}")
    print(f"slowest {args.top} checks:")
    for s in sorted(steps, key=lambda s: -s["seconds"])[: args.top]:
        print(f"  {s['seconds']:6.2f} s  {s['verdict']:<10} {s['method']:<22} {s['id']}")


if __name__ == "__main__":
    raise SystemExit(main())

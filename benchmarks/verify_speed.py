"""Speed of ``dpcheck verify`` on its defaults (issue 2: <= 60 s wall on 2 cores, cold
start included).

Runs the real command in a fresh interpreter (so imports and worker start-up count),
then prints wall and CPU time, the machine's load while it ran (other work on the
machine inflates the wall time), per-check time percentiles by kind, and the slowest
checks.  Usage::

    python benchmarks/verify_speed.py [--jobs N] [--budget B] [IDS ...]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (DPCHECK_JOBS)")
    ap.add_argument("--budget", type=int, default=None)
    ap.add_argument("--top", type=int, default=12, help="slowest checks to list")
    ap.add_argument("ids", nargs="*")
    args = ap.parse_args(argv)

    env = dict(os.environ)
    if args.jobs is not None:
        env["DPCHECK_JOBS"] = str(args.jobs)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "verify.json")
        cmd = [sys.executable, "-m", "checks.cli", "verify", "--format", "json", "--out", out,
               "--no-progress", *args.ids]
        if args.budget is not None:
            cmd += ["--budget", str(args.budget)]
        load0 = os.getloadavg()[0]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        load1 = os.getloadavg()[0]
        if proc.returncode != 0:
            print(proc.stderr, file=sys.stderr)
            return proc.returncode
        with open(out) as fh:
            data = json.load(fh)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

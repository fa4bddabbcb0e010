"""Time of a warm ``dpcheck verify``: an unchanged input whose every verdict is in the disk
cache (issue 34: <= 3 s of wall time on 2 cores for a paper file).

For each target — by default a paper file written by ``dpcheck new`` and the five built-in
papers — runs the real command once cold into a fresh cache folder, then ``--repeat``
times warm, in fresh interpreters (imports count), and prints each warm run's wall time,
the CPU of its whole process tree (the command, a worker server and workers if any were
started), how many processes it started, and the median; a warm output that differs from
the cold one is an error.  The machine's load average is printed too: other work on the
machine inflates the wall time.  Usage::

    python benchmarks/warm_verify.py [--repeat K] [--only file|papers] [TARGET ...]

TARGET: paper files, paper keys or result ids, verified together as one target.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _proctree import run  # noqa: E402

TIMING = re.compile(r'"seconds": [0-9.eE+-]+')


def _verify(sel, out):
    return [sys.executable, "-m", "checks.cli", "verify", *sel, "--format", "json",
            "--out", out, "--force", "--no-progress"]


def bench(name: str, sel: list[str], repeat: int, tmp: str) -> float:
    env = {**os.environ, "DPCHECK_CACHE_DIR": os.path.join(tmp, f"cache-{name}")}
    cold_out = os.path.join(tmp, f"{name}-cold.json")
    cold = run(_verify(sel, cold_out), env=env, cwd=tmp)
    if cold.returncode != 0:
        raise SystemExit(f"{name}: cold run failed: {cold.stderr[-2000:]}")
    n = len(json.load(open(cold_out))["results"])
    print(f"{name}: {n} results; cold run {cold.wall:.1f} s wall, "
          f"{cold.cpu_total:.1f} s cpu, {len(cold.cpu)} processes")
    walls = []
    for k in range(repeat):
        out = os.path.join(tmp, f"{name}-warm.json")
        load = os.getloadavg()[0]
        warm = run(_verify(sel, out), env=env, cwd=tmp)
        if warm.returncode != 0:
            raise SystemExit(f"{name}: warm run failed: {warm.stderr[-2000:]}")
        same = (TIMING.sub("", open(out).read()) == TIMING.sub("", open(cold_out).read()))
        if not same:
            raise SystemExit(f"{name}: the warm output differs from the cold one")
        walls.append(warm.wall)
        print(f"  warm {k + 1}: wall {warm.wall:.2f} s   cpu (all processes) "
              f"{warm.cpu_total:.2f} s   processes {len(warm.cpu)}   load {load:.1f}")
    med = statistics.median(walls)
    print(f"  warm wall: median {med:.2f} s, min {min(walls):.2f} s, max {max(walls):.2f} s")
    return med


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="warm runs per target")
    ap.add_argument("--only", choices=("file", "papers"), default=None)
    ap.add_argument("targets", nargs="*")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        raise SystemExit(f"--repeat must be >= 1, got {args.repeat}")
    print(f"cores {os.cpu_count()}, jobs {os.environ.get('DPCHECK_JOBS', 'default')}")
    with tempfile.TemporaryDirectory() as tmp:
        if args.targets:
            bench("targets", args.targets, args.repeat, tmp)
            return 0
        if args.only in (None, "file"):
            draft = os.path.join(tmp, "bench_draft.py")
            subprocess.run([sys.executable, "-m", "checks.cli", "new", "bench-draft",
                            "--out", draft], check=True, capture_output=True)
            bench("file", [draft], args.repeat, tmp)
        if args.only in (None, "papers"):
            bench("papers", [], args.repeat, tmp)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

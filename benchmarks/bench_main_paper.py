"""Benchmark: `dpcheck verify` of the whole main paper (privacy + utility) on defaults.

Goal (issue 3): <= 90 s on 2 cores for each version of the main paper.  Runs the CLI in a
fresh subprocess per paper key (cold start included) and prints the wall time, then the
slowest results and steps from the JSON report, and the share of the utility half.

    python benchmarks/bench_main_paper.py [liang-icml liang-aaai] [--budget N]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

GOAL_S = 90.0
UTILITY = ("asm-3.6", "lem-3.7", "asm-3.8", "asm-3.9", "thm-3.9", "thm-3.10", "cor-3.11", "cor-3.12",
           "prop-3.8", "prop-3.12", "prop-c.1", "prop-c.3")


def _is_utility(rid: str) -> bool:
    num = rid.split(":", 1)[1]
    return num in UTILITY or num in ("lem-a.13", "lem-a.14") and rid.startswith("liang-icml") \
        or num in ("lem-a.14", "lem-a.15") and rid.startswith("liang-aaai")


def _utility_ids(paper: str) -> list[str]:
    from theory import registry
    return [r.id for r in registry.results_of(paper) if _is_utility(r.id)]


def bench(paper: str, budget: int | None, utility_only: bool = False) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "report.json")
        sel = _utility_ids(paper) if utility_only else [paper]
        cmd = [sys.executable, "-m", "checks.cli", "verify", *sel, "--format", "json", "--out", out,
               "--no-progress"]
        if budget is not None:
            cmd += ["--budget", str(budget)]
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        if proc.returncode not in (0, 1):
            print(proc.stderr[-2000:])
            raise SystemExit(f"dpcheck verify {paper} failed with exit code {proc.returncode}")
        with open(out) as fh:
            data = json.load(fh)
    results = data["results"] if isinstance(data, dict) else data
    steps = [(s["seconds"], s["id"]) for r in results for s in r["steps"]]
    util = sum(s for s, i in steps if _is_utility(i.split("/", 1)[0]))
    total = sum(s for s, _ in steps)
    print(f"{paper}{' (utility half)' if utility_only else ''}: {wall:.1f} s wall (goal <= {GOAL_S:.0f} s) — {len(results)} results, {len(steps)} checks, "
          f"step time {total:.1f} s of which utility {util:.1f} s; "
          f"{'OK' if wall <= GOAL_S else 'OVER'}")
    for sec, sid in sorted(steps, reverse=True)[:8]:
        print(f"    {sec:6.2f} s  {sid}")
    return wall


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("papers", nargs="*", default=["liang-icml", "liang-aaai"])
    ap.add_argument("--budget", type=int, default=None, help="search budget (default: the CLI's)")
    ap.add_argument("--utility-only", action="store_true", help="only the utility half (issue 3)")
    a = ap.parse_args(argv)
    print(f"cores available: {os.cpu_count()}; load average {os.getloadavg()[0]:.1f}")
    walls = [bench(p, a.budget, a.utility_only) for p in a.papers]
    print(f"total: {sum(walls):.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

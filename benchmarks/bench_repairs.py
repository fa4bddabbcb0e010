"""Cost of the repair search (issue 35): cold ``dpcheck verify`` of the encoded papers with
and without repairs, run after run (each in a fresh interpreter, ``--no-cache``, so
imports, worker start-up and every check count), then the findings per class.

Prints, per run, the wall time, the CPU of every process (the command, its worker server
and workers, read from /proc) and the machine's load while it ran; then the medians and
their difference — the repairs' cost (the engine records no time per finding: verdicts
must not depend on time) — and the findings per class of the run with repairs.
``--repeat K`` alternates K runs of each (a shared host drifts by several percent).
Usage::

    python benchmarks/bench_repairs.py [--jobs N] [--repeat K] [IDS ...]
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import verify_speed  # noqa: E402  (the cold-run machinery: one subprocess, /proc CPU)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (DPCHECK_JOBS)")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each, alternating")
    ap.add_argument("ids", nargs="*")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        raise SystemExit(f"--repeat must be >= 1, got {args.repeat}")
    env = dict(os.environ)
    if args.jobs is not None:
        env["DPCHECK_JOBS"] = str(args.jobs)
    runs: dict[str, list] = {"without repairs": [], "with repairs": []}
    data = None
    for _ in range(args.repeat):
        for name, extra in (("without repairs", ["--no-repairs"]), ("with repairs", [])):
            got = verify_speed._run(argparse.Namespace(ids=[*args.ids, *extra], budget=None),
                                    env)
            if isinstance(got, int):
                return got
            wall, cpu, load0, load1, out = got
            runs[name].append((wall, cpu))
            if name == "with repairs":
                data = out
            print(f"{name:>16}: wall {wall:6.1f} s   cpu (all processes) {cpu:6.1f} s   "
                  f"load average {load0:.1f} -> {load1:.1f}", flush=True)
    med = {k: (float(np.median([w for w, _ in v])), float(np.median([c for _, c in v])))
           for k, v in runs.items()}
    (w0, c0), (w1, c1) = med["without repairs"], med["with repairs"]
    print(f"median of {args.repeat}: without {w0:.1f} s wall / {c0:.1f} s cpu; with "
          f"{w1:.1f} s wall / {c1:.1f} s cpu; the repairs cost {w1 - w0:+.1f} s wall, "
          f"{c1 - c0:+.1f} s cpu ({(w1 / w0 - 1) * 100:+.0f} % wall)")
    counts = data.get("repair_summary") or {}
    print(f"findings: {sum(counts.values())}; per class: "
          + ", ".join(f"{k} {v}" for k, v in counts.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

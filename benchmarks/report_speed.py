"""Speed of ``dpcheck report`` (issue 37: <= 2 minutes on 2 cores) and of the notebooks.

Runs the real command in a fresh interpreter, as a user does (the report always checks
cold: it reads no verdict cache), into a temporary folder, and prints its wall time, the
CPU time of every process it started, the machine's load while it ran (other work on a
shared machine inflates the wall time), and the files it wrote.  ``--repeat K`` runs it K
times back to back and prints the median.  ``--notebooks`` then executes each notebook
of ``notebooks/`` top to bottom in a fresh kernel of this interpreter (nbclient, as
tests/test_notebooks.py does) and prints each one's wall time.  Usage::

    python benchmarks/report_speed.py [--repeat K] [--notebooks] [IDS ...]
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _proctree  # noqa: E402  (the process-tree runner)

ROOT = Path(__file__).resolve().parents[1]
#: the issue's goal for ``dpcheck report`` on 2 cores
GOAL_S = 120.0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=1, help="cold runs, back to back")
    ap.add_argument("--notebooks", action="store_true", help="also time every notebook")
    ap.add_argument("ids", nargs="*")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        raise SystemExit(f"--repeat must be >= 1, got {args.repeat}")
    walls = []
    for k in range(args.repeat):
        got = _run_report(args.ids)
        if isinstance(got, int):
            return got
        wall, cpu, load0, load1, files = got
        walls.append(wall)
        print(f"report run {k + 1}: wall {wall:.1f} s   cpu (all processes) {cpu:.1f} s   "
              f"load average {load0:.1f} -> {load1:.1f}   cores {os.cpu_count()}", flush=True)
    med = float(np.median(walls))
    print(f"dpcheck report: median wall {med:.1f} s over {len(walls)} run(s) "
          f"(goal <= {GOAL_S:.0f} s: {'met' if med <= GOAL_S else 'NOT met'})")
    for name, size in files:
        print(f"  wrote {name} ({size / 1024:.0f} KiB)")
    if args.notebooks:
        _time_notebooks()
    return 0


def _run_report(ids):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "report")
        cmd = [sys.executable, "-m", "checks.cli", "report", "--out", out, "--no-progress",
               *ids]
        load0 = os.getloadavg()[0]
        run = _proctree.run(cmd)        # the CPU of the command and every process below it
        load1 = os.getloadavg()[0]
        if run.returncode != 0:
            print(run.stderr, file=sys.stderr)
            return run.returncode
        files = sorted((p.name, p.stat().st_size) for p in Path(out).iterdir())
    return run.wall, run.cpu_total, load0, load1, files


def _time_notebooks() -> None:
    import json

    import nbclient
    import nbformat

    kernel = "dpcheck-bench"
    with tempfile.TemporaryDirectory() as tmp:
        # a throw-away kernel spec for this interpreter, found through JUPYTER_PATH (as
        # tests/test_notebooks.py does); each notebook runs in a scratch folder
        spec = Path(tmp) / "kernels" / kernel
        spec.mkdir(parents=True)
        (spec / "kernel.json").write_text(json.dumps({
            "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": kernel, "language": "python"}))
        os.environ["JUPYTER_PATH"] = tmp
        os.environ["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"
        total = 0.0
        for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
            nb = nbformat.read(path, as_version=4)
            t0 = time.perf_counter()
            nbclient.NotebookClient(nb, timeout=600, kernel_name=kernel,
                                    resources={"metadata": {"path": tmp}}).execute()
            dt = time.perf_counter() - t0
            total += dt
            print(f"notebook {path.name}: {dt:.1f} s   load average "
                  f"{os.getloadavg()[0]:.1f}", flush=True)
        print(f"notebooks: {total:.1f} s in all")


if __name__ == "__main__":
    raise SystemExit(main())

"""Peak resident memory of ``dpcheck verify`` (issue 34: goal < 2 GB): on the five built-in
papers, and on the (ε, δ) statement of a T-fold composition of the Gaussian mechanism
with T unbounded — ``Composition(SampledGaussian(q=1, sigma=σ/Δ), T)``,
``Bound(..., delta=δ, profile=True)`` — which once grew one worker to 21.8 GB.

Each run is the real command, cold (``--no-cache``), in a fresh interpreter; the command
and every process below it (worker server, workers) are read in /proc every 0.1 s.
Printed: wall time, exit status, the largest peak RSS of one process (VmHWM) with its
command line, the largest sum of RSS over the tree at one reading, and for the composition
the statement's verdict and detail.  The workers run under the memory limit of
``dpcheck verify`` (``$DPCHECK_MEMORY``, default 80 % of the machine's memory shared among
the workers): the peak of a run that reaches it says what the limit allowed, not what the
check would have used.  Usage::

    python benchmarks/peak_rss.py [--only papers|composition] [--timeout S]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _proctree import gib, run  # noqa: E402

COMPOSITION = '''
"""comp-bench: T-fold composition of the Gaussian mechanism, (eps, delta)-DP (issue 34)."""
import sympy as sp

from theory.mechanisms import Composition, SampledGaussian
from theory.model import Bound, Paper, Result, Step, StepKind, asm
from theory.quantities import DIMLESS, THETA, T, delta, table

SYMBOLS = table("comp-bench")
Delta = SYMBOLS.quantity("Delta", THETA, "l2-sensitivity of f", positive=True)
sigma = SYMBOLS.quantity("sigma", THETA, "noise standard deviation", positive=True)
eps_dp = SYMBOLS.quantity("eps_dp", DIMLESS, "smallest eps of (eps, delta)-DP", positive=True)
PAPER = Paper(key="comp-bench", title="T-fold Gaussian composition", file="a benchmark",
              symbols=SYMBOLS)
EPS = T * Delta**2 / (2 * sigma**2) + Delta * sp.sqrt(2 * T * sp.log(1 / delta)) / sigma
RESULTS = [Result(
    "comp-bench:thm-1", "(eps, delta)-DP of T compositions", "Theorem 1",
    hypotheses=[asm(delta < 1)],
    statement=[Step("statement", eps_dp, "<=", EPS, StepKind.PROBABILISTIC)],
    bounds=[Bound("statement", EPS, Composition(SampledGaussian(q=1, sigma=sigma / Delta), T),
                  delta=delta, profile=True)],
)]
'''


def measure(name, sel, tmp, timeout):
    out = os.path.join(tmp, f"{name}.json")
    cmd = [sys.executable, "-m", "checks.cli", "verify", *sel, "--no-cache", "--format",
           "json", "--out", out, "--force", "--no-progress"]
    t = run(cmd, cwd=tmp, timeout=timeout)
    top = max(t.peak, key=t.peak.get) if t.peak else None
    print(f"{name}: wall {t.wall:.1f} s, exit {t.returncode}, cpu {t.cpu_total:.1f} s, "
          f"{len(t.cpu)} processes")
    print(f"  peak RSS of one process: {gib(t.peak_max)}"
          + (f"  ({t.names.get(top, '?')})" if top else ""))
    print(f"  peak RSS of the tree (sum at one reading): {gib(t.peak_sum)}")
    if t.returncode not in (0, 3) or not os.path.exists(out):
        print(f"  no output: {t.stderr.strip()[-500:]}")
        return
    data = json.load(open(out))
    if name == "composition":
        r = data["results"][0]
        print(f"  statement: {r['statement_verdict']}: {r['statement_detail'][:400]}")
    for r in data["results"]:
        if r.get("error"):
            print(f"  error: {r['id']}: {r['error']}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=("papers", "composition"), default=None)
    ap.add_argument("--timeout", type=float, default=1800.0,
                    help="seconds before a run is killed (default 1800)")
    args = ap.parse_args(argv)
    print(f"memory limit per process: {os.environ.get('DPCHECK_MEMORY', 'default')}, "
          f"jobs {os.environ.get('DPCHECK_JOBS', 'default')}, cores {os.cpu_count()}")
    with tempfile.TemporaryDirectory() as tmp:
        if args.only in (None, "papers"):
            measure("papers", [], tmp, args.timeout)
        if args.only in (None, "composition"):
            path = os.path.join(tmp, "comp_bench.py")
            with open(path, "w") as fh:
                fh.write(COMPOSITION)
            measure("composition", [path], tmp, args.timeout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

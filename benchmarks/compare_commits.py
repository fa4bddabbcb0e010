"""Two commits' cold ``dpcheck verify`` side by side, in the same hour.

What a "no slower than <commit>" claim is measured with (issue 32)::

    python benchmarks/compare_commits.py OLD NEW [--repeat K] [--jobs N] [--keep DIR] [IDS ...]

Checks each commit out into a temporary worktree (``git worktree add --detach``; removed
afterwards), then runs :mod:`verify_speed`'s cold run (a fresh interpreter, ``--no-cache``,
the CPU of every process read from /proc) alternately — OLD, NEW, OLD, NEW … — so that a
shared host's drift falls on both alike.  Prints every run's wall and CPU time with the
machine's load, the medians and NEW's change against OLD, and the verdicts that differ
between the two commits' last outputs (timings aside, a speed claim is about the same
work).  ``NEW`` may be ``.``: the working tree as it is (uncommitted changes included).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import verify_speed  # noqa: E402  (the cold-run machinery)

ROOT = Path(__file__).resolve().parent.parent


def _verdicts(data: dict) -> dict:
    out = {}
    for r in data["results"]:
        out[r["id"]] = r.get("statement_verdict")
        for s in r["steps"]:
            out[s["id"]] = s["verdict"]
    return out


def _worktree(rev: str, where: str) -> str:
    if rev == ".":
        return str(ROOT)
    path = os.path.join(where, rev.replace("/", "_"))
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-f", path, rev],
                   check=True, capture_output=True, text=True)
    return path


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--repeat", type=int, default=3, help="cold runs of each, alternating")
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (DPCHECK_JOBS)")
    ap.add_argument("--keep", metavar="DIR", default=None,
                    help="write each commit's last JSON output to DIR/<commit>.json")
    ap.add_argument("ids", nargs="*")
    args = ap.parse_intermixed_args(argv)   # options may stand between the ids
    if args.repeat < 1:
        raise SystemExit(f"--repeat must be >= 1, got {args.repeat}")
    env = dict(os.environ)
    if args.jobs is not None:
        env["DPCHECK_JOBS"] = str(args.jobs)
    runs: dict[str, list] = {args.old: [], args.new: []}
    last: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        trees = {}
        try:
            for rev in (args.old, args.new):
                trees[rev] = _worktree(rev, tmp)
            for i in range(args.repeat):
                for rev in (args.old, args.new):
                    got = verify_speed._run(SimpleNamespace(ids=args.ids, budget=None,
                                                            keep=None, tree=trees[rev]), env)
                    if isinstance(got, int):
                        print(f"{rev}: dpcheck verify failed (exit {got})", file=sys.stderr)
                        return got
                    wall, cpu, l0, l1, data = got
                    runs[rev].append((wall, cpu))
                    last[rev] = data
                    print(f"{rev:>12} run {i + 1}: wall {wall:6.1f} s   cpu {cpu:6.1f} s   "
                          f"load {l0:.1f} -> {l1:.1f}", flush=True)
        finally:
            for rev, path in trees.items():
                if path != str(ROOT):
                    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                    path], capture_output=True)
    med = {rev: (float(np.median([w for w, _ in r])), float(np.median([c for _, c in r])))
           for rev, r in runs.items()}
    for rev in (args.old, args.new):
        print(f"{rev:>12} median of {args.repeat}: wall {med[rev][0]:.1f} s   "
              f"cpu {med[rev][1]:.1f} s")
    (w0, c0), (w1, c1) = med[args.old], med[args.new]
    print(f"{args.new} against {args.old}: wall {100 * (w1 / w0 - 1):+.1f} %   "
          f"cpu {100 * (c1 / c0 - 1):+.1f} %")
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        for rev, data in last.items():
            name = "worktree" if rev == "." else rev.replace("/", "_")
            with open(os.path.join(args.keep, f"{name}.json"), "w") as fh:
                json.dump(data, fh)
    a, b = _verdicts(last[args.old]), _verdicts(last[args.new])
    diff = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    print(f"verdicts that differ: {len(diff)}")
    for k in diff[:40]:
        print(f"  {k}: {a.get(k)} -> {b.get(k)}")
    print(json.dumps({"medians": med}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Speed-up of ``dpcheck verify`` through the executor interface (issue 15): the main
papers verified with 1 local process, 2 local processes, and a Dask ``LocalCluster`` of 2
single-threaded worker processes (cluster start-up excluded, reported apart).  Prints
wall times and speed-ups; checks the three reports agree (timings aside).

    python benchmarks/bench_scheduler.py [IDS_OR_PAPERS ...]
"""
from __future__ import annotations

import json
import os
import re
import sys
import time

from checks import engine
from checks.cli import report_json
from theory import registry

TIMING = re.compile(r'"seconds": [0-9.eE+-]+')


def _text(reports) -> str:
    return TIMING.sub("", json.dumps(report_json(reports, seed=0, budget=0)))


def main(argv=None) -> int:
    sel = (argv if argv is not None else sys.argv[1:]) or None
    rs = registry.resolve(sel)
    print(f"{len(rs)} results; cpus {os.cpu_count()}, load {os.getloadavg()[0]:.2f}")
    t0 = time.perf_counter()
    one = engine.verify(rs, jobs=1)
    t1 = time.perf_counter() - t0
    t0 = time.perf_counter()
    two = engine.verify(rs, jobs=2)
    t2 = time.perf_counter() - t0
    from distributed import LocalCluster
    t0 = time.perf_counter()
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as c:
        ts = time.perf_counter() - t0
        t0 = time.perf_counter()
        dk = engine.verify(rs, scheduler=c.scheduler_address)
        td = time.perf_counter() - t0
    print(f"1 local process:        {t1:7.1f} s")
    print(f"2 local processes:      {t2:7.1f} s   speed-up {t1 / t2:.2f}x")
    print(f"Dask LocalCluster (2):  {td:7.1f} s   speed-up {t1 / td:.2f}x   "
          f"(cluster start {ts:.1f} s)")
    same = _text(one) == _text(two) == _text(dk)
    print(f"reports identical apart from timings: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())

"""Where ``dpcheck verify``'s CPU time goes: one process, every result in turn.

    python benchmarks/profile_verify.py [--top N] [--out FILE] [--pstats FILE] [IDS ...]

Runs the engine sequentially in this process (as ``DPCHECK_JOBS=1``, cold: no cache) under
cProfile with a CPU clock (``time.process_time``: other work on a shared machine does not
inflate it, as it does wall time), then prints the CPU seconds per paper, the results
that cost the most CPU, and the functions with the largest own and cumulative CPU time.
``--out`` writes the run's JSON (the same as ``dpcheck verify --format json``), so that a
profile can be checked against another commit's output; ``--pstats`` keeps the profile.
``--no-profile`` measures the per-result CPU without cProfile's overhead.  The repair
search of every finding runs after the checks, as ``dpcheck verify`` does by default
(``--no-repairs`` leaves it out); its CPU is printed apart.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import sys
import time


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--top", type=int, default=25, help="rows per table")
    ap.add_argument("--out", default=None, help="write the run's JSON here")
    ap.add_argument("--pstats", default=None, help="write the cProfile data here")
    ap.add_argument("--no-profile", action="store_true", help="per-result CPU only")
    ap.add_argument("--no-repairs", action="store_true", help="skip the repair search")
    ap.add_argument("ids", nargs="*")
    args = ap.parse_args(argv)
    os.environ["DPCHECK_JOBS"] = "1"

    t_wall, t_cpu = time.perf_counter(), time.process_time()
    from checks import DEFAULT_BUDGET, DEFAULT_SEED, engine
    from checks.cli import report_json
    from theory import registry
    results = registry.resolve(args.ids or None)
    t_imp = time.process_time() - t_cpu

    per_result: dict[str, float] = {}
    original = engine.check_result

    def timed(result, **kw):
        c0 = time.process_time()
        try:
            return original(result, **kw)
        finally:
            per_result[result.id] = time.process_time() - c0

    engine.check_result = timed
    prof = None if args.no_profile else cProfile.Profile(time.process_time)
    try:
        if prof is not None:
            prof.enable()
        reports = engine.verify(results, jobs=1)
        t_rep = time.process_time()
        if not args.no_repairs:
            engine.repair_results(results, reports,
                                  engine.Options(budget=DEFAULT_BUDGET, seed=DEFAULT_SEED,
                                                 repairs=True), jobs=1)
        t_rep = time.process_time() - t_rep
    finally:
        if prof is not None:
            prof.disable()
        engine.check_result = original
    wall, cpu = time.perf_counter() - t_wall, time.process_time() - t_cpu

    if args.out:
        with open(args.out, "w") as fh:
            json.dump(report_json(reports, seed=DEFAULT_SEED, budget=DEFAULT_BUDGET), fh,
                      indent=2)
    print(f"{len(results)} results   cpu {cpu:.1f} s (imports and loading {t_imp:.1f} s)   "
          f"wall {wall:.1f} s   load average {os.getloadavg()[0]:.1f}"
          + ("" if prof is None else "   (under cProfile)"))
    print(f"cpu checking {sum(per_result.values()):.1f} s   repair search {t_rep:.1f} s")
    papers: dict[str, float] = {}
    for rid, s in per_result.items():
        papers[rid.split(":", 1)[0]] = papers.get(rid.split(":", 1)[0], 0.0) + s
    print("cpu per paper: " + "  ".join(f"{k} {v:.1f} s" for k, v in
                                        sorted(papers.items(), key=lambda kv: -kv[1])))
    print(f"costliest {args.top} results (cpu s):")
    for rid, s in sorted(per_result.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"  {s:7.2f}  {rid}")
    if prof is not None:
        for key in ("tottime", "cumulative"):
            buf = io.StringIO()
            st = pstats.Stats(prof, stream=buf)
            st.sort_stats(key).print_stats(args.top)
            print(f"--- functions by {key} (cpu s) ---")
            print("\n".join(line for line in buf.getvalue().splitlines()
                            if line.strip() and not line.startswith("   Ordered")
                            and "function calls" not in line and "List reduced" not in line))
        if args.pstats:
            prof.dump_stats(args.pstats)
    return 0


if __name__ == "__main__":
    sys.exit(main())

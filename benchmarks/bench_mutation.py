"""Mutation campaign over the encoded steps (issue 6): prints the soundness figures.

    python benchmarks/bench_mutation.py [--paper KEY] [--n 240] [--seed 0] [--budget 300]
                                        [--json out.json]

Figures: mutants generated (seeded), false ones (witness found by the independent
brute-force search of :mod:`checks.mutate`, confirmed at 50 digits), true-looking ones,
and the engine's verdicts on them: false mutants PROVED (must be 0), false mutants
REFUTED (goal >= 95 %), true mutants REFUTED with a witness that fails the independent
re-check (must be 0).  Misses are listed by step and operator.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from checks import mutate  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--paper", default=None,
                    help="mutate only this paper's steps (default: every registered paper)")
    ap.add_argument("--n", type=int, default=240)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--budget", type=int, default=300, help="engine search budget per mutant")
    ap.add_argument("--samples", type=int, default=4000, help="independent search points")
    ap.add_argument("--json", default=None, help="write the outcomes here")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    steps = None
    if args.paper:
        from theory import registry
        steps = mutate.checkable_steps(registry.results_of(args.paper))
        print(f"paper {args.paper}: {len(steps)} ALGEBRA/SCALAR steps")
    ms = mutate.generate(args.seed, args.n, steps=steps)
    print(f"{len(ms)} mutants (seed {args.seed}) from {len({m.step_id for m in ms})} steps: "
          f"{dict(Counter(m.operator for m in ms))}", flush=True)

    def prog(o):
        if not args.quiet:
            flag = "F" if o.false else "t"
            print(f"  [{flag}] {o.verdict:<10} {o.seconds:6.2f}s {o.mutant.id}  "
                  f"({o.mutant.description})", flush=True)

    camp = mutate.run_campaign(ms, budget=args.budget, seed=args.seed,
                               samples=args.samples, progress=prog)
    s = camp.summary()
    print()
    print(f"mutants:                                {s['mutants']}")
    print(f"false (independent search witness):     {s['false_by_search']}")
    print(f"false (engine witness, re-checked only):{s['false_by_engine_witness_only']:>4}")
    print(f"true-looking (no witness):              {s['true_looking']}")
    print(f"false mutants PROVED (must be 0):       {s['false_proved']}")
    print(f"false mutants REFUTED (goal >= 95%):    {s['false_refuted']}/{s['false_by_search']}"
          f" = {s['false_refuted_pct']}%")
    print(f"true mutants REFUTED (must be 0):       {s['true_refuted']}")
    verdicts = Counter((o.false, o.verdict) for o in camp.outcomes)
    print("verdicts:", {f"{'false' if k[0] else 'true'}/{k[1]}": v
                        for k, v in sorted(verdicts.items())})
    misses = camp.misses()
    if misses:
        print(f"\nmisses ({len(misses)}) by operator: "
              f"{dict(Counter(o.mutant.operator for o in misses))}")
        by_step = Counter(o.mutant.step_id for o in misses)
        for sid, k in by_step.most_common():
            print(f"  {k}  {sid}")
        for o in misses:
            print(f"    {o.verdict:<10} {o.mutant.id}: {o.mutant.description}")
    for o in camp.false_proved + camp.bad_refutations:
        print(f"SOUNDNESS: {o.verdict} {o.mutant.id}: {o.mutant.description}; {o.why}")
    print(f"\ntotal {time.perf_counter() - t0:.1f} s")
    if args.json:
        Path(args.json).write_text(json.dumps({
            "summary": s,
            "outcomes": [{"id": o.mutant.id, "operator": o.mutant.operator,
                          "description": o.mutant.description, "false": o.false,
                          "source": o.witness_source, "verdict": o.verdict,
                          "engine_witness_ok": o.engine_witness_ok, "why": o.why,
                          "seconds": round(o.seconds, 3)} for o in camp.outcomes]},
            indent=1))
    return 0 if (s["false_proved"] == 0 and s["true_refuted"] == 0) else 1


if __name__ == "__main__":
    raise SystemExit(main())

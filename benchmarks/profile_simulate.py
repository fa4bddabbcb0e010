"""Where the simulator's time goes: torch.profiler over one simulate() call.

    python benchmarks/profile_simulate.py [--device cpu|cuda] [--runs N] [--d D] [--T T]

Prints the operators with the largest self time (device time on CUDA, CPU time otherwise)
and the wall time per step, so a launch-bound run (many tiny kernels, host waits) can be
told from a bandwidth-bound one (time in normal_ and the update).
"""
from __future__ import annotations

import argparse
import time

import torch
from torch.profiler import ProfilerActivity, profile

from checks.simulate.algorithms import Hyper, make_algorithm
from checks.simulate.problems import make_problem
from checks.simulate.runner import resolve_device, resolve_dtype, simulate


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--dtype", default="float32")
    ap.add_argument("--runs", type=int, default=1_000_000)
    ap.add_argument("--d", type=int, default=1)
    ap.add_argument("--T", type=int, default=50)
    ap.add_argument("--algorithm", default="dpsgd-gc")
    ap.add_argument("--rows", type=int, default=15)
    args = ap.parse_args(argv)
    dev, dt = resolve_device(args.device), resolve_dtype(args.dtype)
    p = make_problem("gradient-canary", d=args.d, n=10_000)
    hp = Hyper(eta=0.1, C=1.0, sigma_dp=1.0, b=100,
               diameter=2.0 if args.algorithm == "dpsgd-dc" else None)
    algo = make_algorithm(args.algorithm)
    simulate(p, algo, hp, runs=args.runs, T=2, device=dev, dtype=dt)        # warm-up
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if dev.type == "cuda" else [])
    with profile(activities=acts) as prof:
        t0 = time.perf_counter()
        simulate(p, algo, hp, runs=args.runs, T=args.T, device=dev, dtype=dt)
        if dev.type == "cuda":
            torch.cuda.synchronize(dev)
        wall = time.perf_counter() - t0
    key = "self_cuda_time_total" if dev.type == "cuda" else "self_cpu_time_total"
    print(f"device={dev} dtype={args.dtype} runs={args.runs} d={args.d} T={args.T} "
          f"algorithm={args.algorithm}: {wall / args.T * 1e6:.1f} us/step under the profiler, "
          f"{args.runs * args.T / wall:.4g} run-steps/s")
    print(prof.key_averages().table(sort_by=key, row_limit=args.rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

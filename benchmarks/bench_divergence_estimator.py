"""Wall time of the measured-divergence pipeline at the issue-17 scale: 10^6 runs per
side, d = 10, T = 100 (DPSGD-GC on the gradient canary, q = 0.1), then the exact-ratio
estimator at α ∈ {2, 4, 8, 16, 32}, both orders.  Goal: ≤ 2 min on 2 CPU cores.

    python benchmarks/bench_divergence_estimator.py [--runs 1000000] [--d 10] [--T 100]
        [--threads 2] [--device cpu] [--dtype float32]

Prints the simulation time, the estimator time (log-ratio evaluation and bounds) and the
total, and the estimates beside the closed form.

Measured 2026-11-24 on the shared 2-core development box under a load average of ~14
(other jobs), float32: ``--threads 1``: simulate 88 s + estimator 7.6 s = 96 s;
``--threads 2``: 127 s + 82 s = 209 s (OpenMP threads spin against the other jobs; the
results are bit-identical).  Measured 2026-11-25 on the same box nearly idle (load 0.9),
``--threads 2``: simulate 9.8 s + estimator 0.8 s = 10.5 s.
"""
from __future__ import annotations

import argparse
import time

import torch

from checks.simulate.algorithms import Hyper, make_algorithm
from checks.simulate.divergence import estimate_rdp, exact_rdp_for, mixture_ratio_for
from checks.simulate.problems import make_problem
from checks.simulate.runner import simulate


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10**6)
    ap.add_argument("--d", type=int, default=10)
    ap.add_argument("--T", type=int, default=100)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--dtype", default="float32")
    ap.add_argument("--alphas", default="2,4,8,16,32")
    a = ap.parse_args(argv)
    torch.set_num_threads(a.threads)
    alphas = [float(x) for x in a.alphas.split(",")]
    p = make_problem("gradient-canary", d=a.d, n=100)
    algo = make_algorithm("dpsgd-gc")
    hp = Hyper(eta=0.1, C=1.0, sigma_dp=0.5, b=10)
    kw = dict(runs=a.runs, T=a.T, seed=0, device=a.device, dtype=a.dtype)
    t0 = time.perf_counter()
    P = simulate(p, algo, hp, with_canary=True, **kw)
    Q = simulate(p, algo, hp, with_canary=False, **kw)
    t1 = time.perf_counter()
    ratio, _ = mixture_ratio_for(p, algo, hp, a.T)
    est = estimate_rdp(P.final, Q.final, alphas, ratio)
    t2 = time.perf_counter()
    exact = exact_rdp_for(p, algo, hp, a.T, alphas) or {}
    print(f"runs/side={a.runs} d={a.d} T={a.T} threads={torch.get_num_threads()} "
          f"device={a.device} dtype={a.dtype}")
    print(f"simulate (both sides): {t1 - t0:.1f} s   estimator ({len(alphas)} alphas, both "
          f"orders): {t2 - t1:.1f} s   total: {t2 - t0:.1f} s  (goal <= 120 s)")
    for e in est:
        ex = exact.get(e.alpha, (None, None))[0 if e.order == "forward" else 1]
        up = "-" if e.upper is None else f"{e.upper:.4g}"
        print(f"  alpha={e.alpha:<4g} {e.order:8s} est={e.estimate:.4g} "
              f"[{e.lower:.4g}, {up}] ({e.upper_kind}) exact={ex if ex is None else f'{ex:.4g}'}"
              f" ESS={e.ess:.3g} {e.status}")


if __name__ == "__main__":
    main()

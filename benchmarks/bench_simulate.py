"""Simulator throughput: run-steps per second vs the raw Gaussian sampling rate, vs a
per-run Python loop, and vs Opacus (when installed).  All ratios are measured in one run,
on one device and dtype.

    python benchmarks/bench_simulate.py [--device cpu|cuda] [--dtype float32] [--threads K]

Scenario: DPSGD-GC on the worst-case gradient canary (``gradient-canary``), Poisson sampling
with q = b/n = 0.01 (the paper's b = 100, n = 10,000), the runs with the canary (D').
The reference rate is ``Tensor.normal_`` on a tensor of the same number of elements
(N·d per step), which bounds any simulator that draws the DP noise.
"""
from __future__ import annotations

import argparse
import importlib.util
import math
import time

import numpy as np
import torch

from checks.simulate.algorithms import Hyper, make_algorithm
from checks.simulate.problems import make_problem
from checks.simulate.runner import resolve_device, resolve_dtype, simulate


def _sync(dev):
    if dev.type == "cuda":
        torch.cuda.synchronize(dev)


def normal_rate(N: int, d: int, T: int, dev, dt, reps: int = 3) -> float:
    """Elements per second of ``Tensor.normal_`` on (N, d), T times (best of ``reps``)."""
    x = torch.empty(N, d, device=dev, dtype=dt)
    g = torch.Generator(device=dev)
    g.manual_seed(0)
    x.normal_(generator=g)
    best = math.inf
    for _ in range(reps):
        _sync(dev)
        t0 = time.perf_counter()
        for _ in range(T):
            x.normal_(generator=g)
        _sync(dev)
        best = min(best, time.perf_counter() - t0)
    return N * d * T / best


def sim_rate(N: int, d: int, T: int, dev, dt, reps: int = 3) -> float:
    """Run-steps per second of the batched simulator (best of ``reps``)."""
    p = make_problem("gradient-canary", d=d, n=10_000)
    hp = Hyper(eta=0.1, C=1.0, sigma_dp=1.0, b=100)
    algo = make_algorithm("dpsgd-gc")
    simulate(p, algo, hp, runs=min(N, 1000), T=2, device=dev, dtype=dt)   # warm-up
    best = math.inf
    for r in range(reps):
        _sync(dev)
        t0 = time.perf_counter()
        simulate(p, algo, hp, runs=N, T=T, seed=r, device=dev, dtype=dt)
        _sync(dev)
        best = min(best, time.perf_counter() - t0)
    return N * T / best


def python_loop_rate(runs: int, d: int, T: int, dt) -> float:
    """The straightforward baseline: one run at a time, one step at a time, torch scalars."""
    g = torch.Generator()
    g.manual_seed(0)
    n, b, eta, C, sigma = 10_000, 100, 0.1, 1.0, 1.0
    q = b / n
    canary = torch.zeros(d, dtype=dt)
    canary[0] = -1e6
    t0 = time.perf_counter()
    for _ in range(runs):
        theta = torch.zeros(d, dtype=dt)
        for _ in range(T):
            grad = torch.zeros(d, dtype=dt)
            if torch.rand(1, generator=g).item() < q:
                gn = canary.norm()
                grad = grad + canary * min(1.0, C / gn.item())
            theta = theta - eta * (grad / b + sigma * torch.randn(d, generator=g, dtype=dt))
    return runs * T / (time.perf_counter() - t0)


def opacus_rate(runs: int, T: int) -> float | None:
    """Opacus training the same 1-D toy model once per run (None when not installed)."""
    if importlib.util.find_spec("opacus") is None:
        return None
    from opacus import PrivacyEngine  # pragma: no cover - optional
    from torch.utils.data import DataLoader, TensorDataset
    X = torch.zeros(1000, 1)
    X[0] = 1.0
    ds = TensorDataset(X, torch.zeros(1000))
    t0 = time.perf_counter()
    for _ in range(runs):
        model = torch.nn.Linear(1, 1, bias=False)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        dl = DataLoader(ds, batch_size=10)
        model, opt, dl = PrivacyEngine().make_private(module=model, optimizer=opt,
                                                      data_loader=dl, noise_multiplier=1.0,
                                                      max_grad_norm=1.0)
        it = iter(dl)
        for _ in range(T):
            try:
                xb, _ = next(it)
            except StopIteration:
                it = iter(dl)
                xb, _ = next(it)
            opt.zero_grad()
            (-model(xb).sum()).backward()
            opt.step()
    return runs * T / (time.perf_counter() - t0)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--dtype", default="float32")
    ap.add_argument("--threads", type=int, default=None, help="torch intra-op threads")
    ap.add_argument("--runs", type=int, default=1_000_000, help="runs for d = 1")
    ap.add_argument("--T", type=int, default=200)
    ap.add_argument("--loop-runs", type=int, default=20)
    ap.add_argument("--reps", type=int, default=3, help="interleaved repetitions (best kept)")
    args = ap.parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    dev, dt = resolve_device(args.device), resolve_dtype(args.dtype)
    print(f"device={dev} dtype={str(dt).split('.')[-1]} threads={torch.get_num_threads()} "
          f"torch={torch.__version__}")
    print(f"{'d':>4} {'runs':>9} {'T':>5} {'sim run-steps/s':>16} {'normal_ elem/s':>15} "
          f"{'ratio':>6}")
    sim_d1 = None
    for d in (1, 10, 100):
        N = max(1000, args.runs // d)
        s, nr = 0.0, 0.0
        for _ in range(args.reps):   # interleaved, best of each: fair on a loaded machine
            nr = max(nr, normal_rate(N, d, args.T, dev, dt, reps=1))
            s = max(s, sim_rate(N, d, args.T, dev, dt, reps=1))
        # elements per second of the simulator = run-steps/s x d
        print(f"{d:>4} {N:>9} {args.T:>5} {s:>16.4g} {nr:>15.4g} {s * d / nr:>6.3f}")
        if d == 1:
            sim_d1 = s
    loop = python_loop_rate(args.loop_runs, 1, args.T, dt)
    print(f"per-run Python loop (d=1, {args.loop_runs} runs x {args.T} steps): {loop:.4g} "
          f"run-steps/s; batched/loop = {sim_d1 / loop:.4g}x (goal >= 1000x)")
    op = opacus_rate(3, 50)
    if op is None:
        print("Opacus: not installed here (not a dependency; see the report)")
    else:
        print(f"Opacus (one model per run): {op:.4g} run-steps/s; batched/Opacus = "
              f"{sim_d1 / op:.4g}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

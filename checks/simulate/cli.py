"""``dpcheck simulate``: run a DP-SGD variant many times on a toy problem and audit it.

    dpcheck simulate --list
    dpcheck simulate --algo dpsgd-gc --problem gradient-canary --runs 100000 --T 100 --out DIR
    dpcheck simulate --figure batch-size --out DIR        (or --figure all; --quick to smoke)

A run simulates ``--runs`` runs with the canary (D') and ``--runs`` without (D), audits the
final iterates with the threshold attack of :mod:`checks.simulate.audit`, and writes
``DIR/simulate.json`` (configuration, problem, audit, timings) and ``DIR/simulate.csv``
(one row per run: side, θ_T·u, and θ_T when d <= 10) atomically.  Exit codes: 0 ok,
2 usage error (``dpcheck simulate exact …`` is a different command, see ``checks.simulate.exact_cli``).
"""
from __future__ import annotations

import argparse
import os
import sys
import time

from checks.simulate.algorithms import ALGORITHMS, Hyper, make_algorithm
from checks.simulate.problems import PROBLEMS, make_problem

EXIT_OK, EXIT_USAGE = 0, 2


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="dpcheck simulate",
        description="Batched torch simulation of DP-SGD on toy problems, a membership-"
                    "inference audit of the last iterate, and the papers' figures.")
    p.add_argument("--list", action="store_true", help="name the problems, algorithms, figures")
    p.add_argument("--algo", default="dpsgd-gc", help=f"one of {sorted(ALGORITHMS)}")
    p.add_argument("--problem", default="gradient-canary", help=f"one of {sorted(PROBLEMS)}")
    p.add_argument("--canary", default=None,
                   help="gradient | outlier (default: gradient for gradient-canary, else outlier)")
    p.add_argument("--d", type=int, default=1, help="dimension (default 1)")
    p.add_argument("--n", type=int, default=100, help="dataset size n of D' (default 100)")
    p.add_argument("--b", type=int, default=10, help="batch size b, q = b/n (default 10)")
    p.add_argument("--eta", type=float, default=0.1, help="step size (default 0.1)")
    p.add_argument("--C", type=float, default=1.0, help="clipping threshold (default 1)")
    p.add_argument("--sigma", type=float, default=1.0, help="sigma_DP (default 1)")
    p.add_argument("--diameter", type=float, default=None,
                   help="diameter D of the domain ball (radius D/2), dpsgd-dc")
    p.add_argument("--radius", type=float, default=None, help="radius of the domain ball instead")
    p.add_argument("--sampling", default="poisson", choices=("poisson", "fixed"))
    p.add_argument("--runs", type=int, default=10_000, help="runs per side (default 10000)")
    p.add_argument("--T", type=int, default=100, help="iterations (default 100)")
    p.add_argument("--device", default="auto", help="auto | cpu | cuda (default auto)")
    p.add_argument("--dtype", default="float32", choices=("float32", "float64"))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--data-seed", type=int, default=0)
    p.add_argument("--delta", type=float, default=1e-5, help="delta of the audit's epsilon estimate (default 1e-5)")
    p.add_argument("--confidence", type=float, default=0.95)
    p.add_argument("--divergence", default=None, metavar="ALPHAS",
                   help="also measure D_alpha of the last iterate, both orders, at these "
                        "comma-separated orders > 1 (e.g. 2,4,8), with intervals and the "
                        "exact value where the accountant reaches it")
    p.add_argument("--out", default=None, metavar="DIR", help="write JSON/CSV/PNG here")
    p.add_argument("--figure", default=None,
                   help="render a paper figure instead: one of the --list names, or 'all'")
    p.add_argument("--quick", action="store_true", help="seconds-long smoke version of figures")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--checkpoint", default=None, metavar="DIR",
                   help="save every finished chunk of runs here; re-running the same "
                        "command resumes (default: OUT/.checkpoint when --out is given)")
    p.add_argument("--chunk-runs", type=int, default=None, metavar="N",
                   help="runs per chunk (default: as many as fit in 512 MiB)")
    return p


def _list() -> str:
    # lazy: the CLI starts before rich, matplotlib and the registry load
    from checks.plugins import figures as _figures
    lines = ["problems:"]
    for name, fn in PROBLEMS.items():
        pr = fn()
        lines.append(f"  {name:16s} L={pr.L:g} mu={pr.mu} — {pr.description}")
        lines.append(f"  {'':16s} clipping: {pr.clipping}")
    lines.append("algorithms:")
    for name, cls in ALGORITHMS.items():
        lines.append(f"  {name:16s} {cls.summary}")
    lines.append("figures:")
    FIGURES = _figures()
    for name, info in FIGURES.items():
        lines.append(f"  {name:16s} {info.help} ({', '.join(info.papers)})")
    lines.append("  all")
    return "\n".join(lines)


class _Progress:
    """A rich progress bar over run-steps (or a no-op)."""

    def __init__(self, total: int | None, label: str, enabled: bool):
        self.enabled = enabled
        if self.enabled:  # lazy: the CLI starts before rich, matplotlib and the registry load
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                       TimeRemainingColumn)
            self.bar = Progress(TextColumn("{task.description}"), BarColumn(),
                                MofNCompleteColumn(), TimeRemainingColumn(),
                                transient=True, console=None)
            self.task = self.bar.add_task(label, total=total)

    def __enter__(self):
        if self.enabled:
            self.bar.__enter__()
        return self

    def __exit__(self, *exc):
        if self.enabled:
            self.bar.__exit__(*exc)

    def __call__(self, k: int):
        if self.enabled:
            self.bar.advance(self.task, k)


def _run_figures(args) -> int:  # lazy: the CLI starts before rich, matplotlib and the registry load
    from checks.plugins import figures as _figures
    FIGURES = _figures()
    names = list(FIGURES) if args.figure == "all" else [args.figure]
    for nm in names:
        if nm not in FIGURES:
            raise ValueError(f"figure must be one of {sorted(FIGURES)} or 'all', got {nm!r}")
    out = args.out or "."
    for nm in names:
        with _Progress(None, f"{nm} (run-steps)",
                       not args.no_progress and sys.stderr.isatty()) as prog:
            res = FIGURES[nm].fn(out, quick=args.quick, device=args.device, seed=args.seed,
                         progress=prog)
        print(f"{nm}: {res.png} ({res.seconds:.1f} s)")
        for note in res.notes:
            print(f"  {note}")
    return EXIT_OK


def _run_simulation(args) -> int:
    import numpy as np  # lazy: the simulator (torch) and its outputs load only for the command run

    # lazy: the simulator (torch) and its outputs load only for the command run
    from checks.simulate.audit import audit_final_iterate, direction_scores
    # lazy: the simulator (torch) and its outputs load only for the command run
    from checks.simulate.output import write_csv, write_json
    from checks.simulate.runner import simulate  # lazy: torch, for the command run

    canary = args.canary or ("gradient" if args.problem == "gradient-canary" else "outlier")
    problem = make_problem(args.problem, d=args.d, n=args.n, canary=canary,
                           data_seed=args.data_seed)
    algo = make_algorithm(args.algo)
    hp = Hyper(eta=args.eta, C=args.C, sigma_dp=args.sigma, b=args.b, sampling=args.sampling,
               diameter=args.diameter, radius=args.radius)
    algo.check(hp)
    alphas = None  # lazy: the simulator (torch) and its outputs load only for the command run
    if args.divergence is not None:
        from checks.simulate.divergence import parse_alphas  # lazy: torch, for the command run
        alphas = parse_alphas(args.divergence)
    kw = dict(runs=args.runs, T=args.T, seed=args.seed, device=args.device, dtype=args.dtype)
    ckpt = None  # lazy: the simulator (torch) and its outputs load only for the command run
    if args.chunk_runs is not None:
        # lazy: torch, for the command run
        from checks.simulate.runner import bytes_per_run, resolve_dtype
        if args.chunk_runs < 1:
            raise ValueError(f"chunk-runs must be an integer >= 1, got {args.chunk_runs}")
        kw["memory_bytes"] = args.chunk_runs * bytes_per_run(problem, 1,
                                                             resolve_dtype(args.dtype))
    # lazy: the simulator (torch) and its outputs load only for the command run
    ck_dir = args.checkpoint or (os.path.join(args.out, ".checkpoint") if args.out else None)
    if ck_dir:
        from checks.simulate.checkpoint import Checkpoint  # lazy: torch, for the command run
        ckpt = kw["checkpoint"] = Checkpoint(ck_dir)
    t0 = time.perf_counter()
    with _Progress(2 * args.runs * args.T, f"{args.algo} on {args.problem}",
                   not args.no_progress and sys.stderr.isatty()) as prog:
        r_in = simulate(problem, algo, hp, with_canary=True, progress=prog, **kw)
        r_out = simulate(problem, algo, hp, with_canary=False, progress=prog, **kw)
    wall = time.perf_counter() - t0
    u = problem.canary.direction()
    audit = audit_final_iterate(r_in.final, r_out.final, u, delta=args.delta,
                                confidence=args.confidence, seed=args.seed)
    rate = 2 * args.runs * args.T / wall if wall > 0 else float("inf")
    summary = {"config": {k: v for k, v in vars(args).items() if k not in ("list",)},
               "problem": problem.summary(), "algorithm": algo.name, "hyper": hp.as_dict(),
               "q": hp.b / problem.n, "device": r_in.meta["device"],
               "dtype": r_in.meta["dtype"], "seconds": wall, "run_steps_per_second": rate,
               "audit": audit.as_dict(),
               "mean_theta_T_in": r_in.final.double().mean(0).tolist(),
               "mean_theta_T_out": r_out.final.double().mean(0).tolist()}
    print(f"{algo.name} on {problem.name} (d={problem.d}, n={problem.n}, b={hp.b}, "
          f"q={hp.b / problem.n:g}, T={args.T}, {args.runs} runs per side, "
          f"{r_in.meta['device']}/{r_in.meta['dtype']}): {wall:.2f} s, {rate:.3g} run-steps/s")
    print(f"audit (threshold on <theta_T, u>, delta={args.delta}): FPR={audit.fpr:.4f} "
          f"FNR={audit.fnr:.4f}  eps_hat={audit.eps_hat:.4g}  "
          f"eps >= {audit.eps_lower:.4g} at {100 * args.confidence:g}% confidence")
    div_rows = None
    if alphas is not None:
        div_rows = _divergence(problem, algo, hp, args, r_in.final, r_out.final, alphas,
                               audit.eps_hat)
        summary["divergence"] = div_rows
    if args.out:
        # lazy: the simulator (torch) and its outputs load only for the command run
        os.makedirs(args.out, exist_ok=True)
        write_json(os.path.join(args.out, "simulate.json"), summary)
        if div_rows is not None:
            # lazy: torch, for the command run
            from checks.simulate.output import divergence_plot, save_png
            write_csv(os.path.join(args.out, "divergence.csv"), div_rows)
            png = divergence_plot(div_rows, title=f"{algo.name} on {problem.name}, "
                                  f"d={problem.d}, T={args.T}, {args.runs} runs per side")
            if png is not None:
                save_png(png, os.path.join(args.out, "divergence.png"))
            print(f"wrote {os.path.join(args.out, 'divergence.csv')} and divergence.png")
        rows = []
        for side, res in (("in", r_in), ("out", r_out)):
            th = res.final.double().numpy()
            sc = direction_scores(th, u)
            for i in range(th.shape[0]):
                row = {"side": side, "run": i, "score": float(sc[i])}
                if problem.d <= 10:
                    row.update({f"theta_{j}": float(th[i, j]) for j in range(problem.d)})
                rows.append(row)
        write_csv(os.path.join(args.out, "simulate.csv"), rows)
        print(f"wrote {os.path.join(args.out, 'simulate.json')} and simulate.csv")
    if ckpt is not None:
        if ckpt.loaded:
            print(f"resumed: {ckpt.loaded} chunk(s) from the checkpoint {ck_dir}")
        ckpt.clear()
    return EXIT_OK
  # lazy: the simulator (torch) and its outputs load only for the command run

# lazy: the simulator (torch) and its outputs load only for the command run
def _divergence(problem, algo, hp, args, theta_in, theta_out, alphas, eps_hat) -> list[dict]:
    """Measure D_alpha (both orders), print a table beside the audit, return the rows."""
    import math  # lazy: torch, for the command run

    # lazy: torch, for the command run
    from checks.simulate.divergence import estimates_rows, exact_rdp_for, measure_divergence

    est, why = measure_divergence(problem, algo, hp, args.T, theta_in, theta_out, alphas,
                                  confidence=args.confidence)
    exact = exact_rdp_for(problem, algo, hp, args.T, alphas)
    rows = estimates_rows(est, exact)
    published = _published_bounds(problem, hp, args.T, alphas)
    for r in rows:
        r["audit_eps_hat"] = eps_hat
        r["published_bounds"] = published.get(r["alpha"], {})
    print(f"divergence D_alpha(theta_T(D') || theta_T(D)) = forward, reverse = backward "
          f"({why}; {100 * args.confidence:g}% intervals; audit eps_hat={eps_hat:.4g}):")

    def f(v):
        return "-" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.4g}"

    print(f"  {'alpha':>6} {'order':8} {'estimate':>10} {'lower':>10} {'upper':>10} "
          f"{'(kind)':14} {'upper~':>10} {'exact':>10}  status")
    for r in rows:
        print(f"  {r['alpha']:>6g} {r['order']:8} {f(r['estimate']):>10} {f(r['lower']):>10} "
              f"{f(r['upper']):>10} {('(' + (r['upper_kind'] or '-') + ')'):14} "
              f"{f(r['upper_asymptotic']):>10} {f(r['exact']):>10}  {r['status']}")
    print("  lower: guaranteed (any tails) for the exact-ratio method; upper: valid when "
          "(bounded-ratio), else asymptotic; upper~: skew-corrected normal approximation")
    for a, bds in published.items():
        if bds:
            print(f"  published bounds at alpha={a:g} (registered, both orders): "
                  + ", ".join(f"{k} = {f(v)}" for k, v in bds.items()))
    return rows


def _published_bounds(problem, hp, T: int, alphas) -> dict[float, dict[str, float]]:
    """Registered NoisySGD last-iterate RDP bounds at this run, per order α.  Only bounds
    whose classes the problem provably belongs to are shown: L-smooth with the problem's
    L, convex when the problem declares a strong-convexity modulus (quadratics) or is
    # lazy: the CLI starts before rich, matplotlib and the registry load
    linear (the gradient canary), a bounded domain equal to the run's."""
    # lazy: the CLI starts before rich, matplotlib and the registry load
    from theory.classes import BoundedDomain, Convex, LSmooth

    # lazy: torch, for the command run
    from checks.statements.registered import assign, bound_value, noisy_sgd_bounds
    linear = problem.L == 0

    def ok(c):
        if isinstance(c, LSmooth):
            return True
        if isinstance(c, Convex):
            return linear or problem.mu is not None
        if isinstance(c, BoundedDomain):
            return hp.diameter is not None
        return False

    bounded = hp.diameter is not None or hp.radius is not None
    diam = hp.diameter if hp.diameter is not None else (2 * hp.radius if hp.radius else None)
    out: dict[float, dict[str, float]] = {}
    for a in alphas:
        scen = {"alpha": float(a), "n": problem.n, "b": hp.b, "C": hp.C,
                "sigma_dp": hp.sigma_dp, "eta": hp.eta, "L": max(problem.L, 1e-9), "D": diam}
        vals = {}
        for label, bd in noisy_sgd_bounds(bounded, classes_ok=ok):
            got = assign(bd, scen, {})
            if got is None:
                continue
            v, free = got
            t_name = bd.mechanism.T.name
            val = bound_value(bd, dict(v, **{t_name: T}), free)
            if val == val:              # not NaN: the hypotheses hold somewhere
                vals[label] = val
        out[float(a)] = vals
    return out


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:      # argparse: --help (0) or usage error (2)
        return int(exc.code or 0)
    if args.list:
        print(_list())
        return EXIT_OK
    try:
        if args.figure:
            return _run_figures(args)
        return _run_simulation(args)
    except ValueError as exc:
        print(f"dpcheck simulate: error: {exc}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    raise SystemExit(main())

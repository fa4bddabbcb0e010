"""``dpcheck simulate exact``: ε(T) of DP-SGD on a toy scenario, three ways, on one figure.

    dpcheck simulate exact --scenario linear-canary --alpha 8 --T 200 --out DIR
    dpcheck simulate exact --scenario linear-canary-dc --D 1 --alpha 2 --T 100 --beta best

For T = 1..T (a log-spaced subset when T is large) it computes

* **composition**: RDP of *all* iterates, T · sgm_rdp(b/n, bσ_DP/C, α, "max") (the
  sampled Gaussian mechanism with sensitivity C/b, both orders);
* **paper bounds**: every registered explicit RDP bound on the last iterate of
  :class:`~theory.mechanisms.NoisySGD` whose domain matches the scenario's (unbounded for
  the unprojected scenarios, bounded for the projected ones), evaluated at the scenario's
  parameters: the mechanism's fields and the Rényi order take the scenario's values, the
  smoothness constant of an ``LSmooth`` class the scenario's L; any other free parameter
  with an admissible interval inside (0, 1) (an analysis parameter such as a split β) is
  set by ``--set NAME=VALUE`` or, by default, chosen to minimise the bound; a bound with a
  parameter left over is not shown, and one whose hypotheses fail at a point is left blank;
* **exact last iterate**: D_α(θ_T(D') ‖ θ_T(D)) and the reverse, max of both orders,
  with a certified error (``exact_error``, printed as ±; each order's own in the JSON's
  ``exact_forward_error`` / ``exact_backward_error``): the Gaussian mixture for the
  linear canary without projection, the log-domain accountant
  (:func:`~checks.truth.accountant.certified_curve`) on a bounded domain.  A row whose
  error bound is too large is left blank and a one-line note on stderr says why (raise
  ``--grid``); an unprojected non-linear scenario, for which no certified value exists,
  is a one-line error (exit 2).

It prints a table (rich), and with ``--out DIR`` writes ``exact.png`` (matplotlib, Agg),
``exact.json`` and ``exact.csv``.  Exit codes: 0 ok, 2 usage error.
"""
from __future__ import annotations

import argparse
import csv
import json
import math
import os
import sys

import numpy as np

from checks.truth.divergences import sgm_rdp
from checks.truth.losses import SCENARIOS, make
from checks.truth.accountant import last_iterate_curve

EXIT_OK, EXIT_USAGE = 0, 2


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="dpcheck simulate exact",
        description="Exact last-iterate Rényi divergence of DP-SGD on a 1-D toy scenario, "
                    "against composition accounting and the paper's bounds.")
    p.add_argument("--scenario", default="linear-canary",
                   help=f"one of {sorted(SCENARIOS)} (default linear-canary)")
    p.add_argument("--alpha", type=float, required=True, help="Rényi order α > 1")
    p.add_argument("--T", type=int, default=50, help="number of updates (default 50)")
    p.add_argument("--n", type=int, default=None, help="dataset size n (q = b/n)")
    p.add_argument("--b", type=int, default=None, help="batch size b")
    p.add_argument("--eta", type=float, default=None, help="step size η")
    p.add_argument("--C", type=float, default=None, help="clipping threshold C")
    p.add_argument("--sigma-dp", dest="sigma_dp", type=float, default=None,
                   help="noise scale σ_DP of the averaged gradient")
    p.add_argument("--D", type=float, default=None,
                   help="domain diameter (DPSGD-DC scenarios; sets K = [-D/2, D/2])")
    p.add_argument("--convention", default=None, choices=("centered", "radius"),
                   help="read --D as diameter (centered, default) or radius")
    p.add_argument("--set", dest="sets", action="append", default=[], metavar="NAME=VALUE",
                   help="fix a free analysis parameter of the bounds (repeatable; default: "
                        "each is chosen to minimise the bound over its interval)")
    p.add_argument("--beta", default=None,
                   help="shorthand for --set beta=VALUE ('best': minimise, the default)")
    p.add_argument("--L", type=float, default=None,
                   help="smoothness constant for the bounds (default: the scenario's, at "
                        "least 1e-9)")
    p.add_argument("--results", default=None, metavar="PREFIX",
                   help="show only bounds of results whose id starts with PREFIX "
                        "(e.g. a paper key); default: every registered bound that applies")
    p.add_argument("--grid", type=int, default=512,
                   help="cells of the domain for the bounded-domain accountant, 16..4096 "
                        "(default 512; cost ∝ grid² · T)")
    p.add_argument("--points", type=int, default=25, help="number of T values (default 25)")
    p.add_argument("--out", default=None, help="directory for exact.png/.json/.csv")
    p.add_argument("--format", choices=("table", "json"), default="table")
    return p


def _t_values(T: int, points: int) -> list[int]:
    if T <= points:
        return list(range(1, T + 1))
    return sorted({int(round(x)) for x in np.geomspace(1, T, points)} | {T})


from checks.statements.registered import assign as _assign  # noqa: E402
from checks.statements.registered import bound_value as _bound_value  # noqa: E402
from checks.statements.registered import noisy_sgd_bounds as _paper_bounds  # noqa: E402


def compute(args) -> dict:
    if not (args.alpha > 1) or math.isinf(args.alpha):
        raise ValueError(f"alpha must be > 1 and finite, got {args.alpha}")
    if args.T < 1:
        raise ValueError(f"T must be >= 1, got {args.T}")
    if args.points < 1:
        raise ValueError(f"points must be >= 1, got {args.points}")
    sets = {}
    for item in list(args.sets) + ([f"beta={args.beta}"] if args.beta not in (None, "best")
                                   else []):
        name, _, val = item.partition("=")
        try:
            sets[name.strip()] = float(val)
        except ValueError:
            raise ValueError(f"--set must be NAME=VALUE with a number, got {item!r}") from None
        if name.strip() == "beta" and not (0 < sets["beta"] < 1):
            raise ValueError(f"beta must be in (0, 1) or 'best', got {args.beta!r}")
    params = {k: getattr(args, k) for k in ("n", "b", "eta", "C", "sigma_dp", "D", "convention")}
    params["T"] = args.T
    if args.scenario not in SCENARIOS:
        raise ValueError(f"scenario must be one of {sorted(SCENARIOS)}, got {args.scenario!r}")
    if args.scenario in ("linear-canary", "quadratic-gaussian") and args.D is not None:
        raise ValueError(f"--D applies to bounded-domain scenarios, not {args.scenario!r}")
    try:
        s = make(args.scenario, **{k: v for k, v in params.items() if v is not None})
    except TypeError as exc:
        raise ValueError(f"bad scenario parameters: {exc}") from None
    Ts = _t_values(s.T, args.points)
    q = s.q
    nm = s.b * s.sigma_dp / s.C
    sgm = sgm_rdp(q, nm, args.alpha, "max")
    L = args.L if args.L is not None else max(s.L, 1e-9)
    scen = {"alpha": args.alpha, "n": s.n, "b": s.b, "C": s.C, "sigma_dp": s.sigma_dp,
            "eta": s.eta, "L": L, "D": s.D}
    bounds = []
    for label, bd in _paper_bounds(s.domain is not None, args.results):
        got = _assign(bd, scen, sets)
        if got is not None:
            bounds.append((label, bd, got[0], got[1]))
    res = last_iterate_curve(s, args.alpha, Ts, G=args.grid, strict=False)
    method = ("closed form (Gaussian mixture)" if s.domain is None else
              f"certified log-domain accountant, G={args.grid}")
    refused = [r for r in res if r.refused]
    rows = []
    for T, r in zip(Ts, res):
        ok = not r.refused
        row = {"T": T, "composition": T * sgm,
               "exact_forward": r.forward if ok else None,
               "exact_backward": r.backward if ok else None,
               "exact_max": r.max if ok else None,
               "exact_error": r.error if ok else None,
               "exact_forward_error": r.forward_error if ok else None,
               "exact_backward_error": r.backward_error if ok else None}
        for label, bd, vals, free in bounds:
            t_name = bd.mechanism.T.name if hasattr(bd.mechanism.T, "name") else "T"
            row[label] = _bound_value(bd, dict(vals, **{t_name: T}), free)
        rows.append(row)
    return {"scenario": s.name, "algorithm": s.algorithm, "alpha": args.alpha,
            "params": {"n": s.n, "b": s.b, "q": q, "eta": s.eta, "C": s.C,
                       "sigma_dp": s.sigma_dp, "T": s.T, "D": s.D, "L": L,
                       "set": sets, "noise_multiplier": nm},
            "assumptions": list(s.assumptions), "exact_method": method,
            "refused": [{"T": r.T, "reason": r.refused} for r in refused],
            "composition_method": "T · sgm_rdp(b/n, bσ_DP/C, α, max)",
            "bounds": [b[0] for b in bounds], "rows": rows}


def _print_table(out: dict) -> None:
    from rich.console import Console  # lazy: rich and matplotlib only for the output asked for
    from rich.table import Table
    tb = Table(title=f"ε(T) at α={out['alpha']:g} — {out['scenario']} ({out['algorithm']}); "
                     f"exact: {out['exact_method']}")
    cols = (["T", "composition", "exact_max", "exact_error", "exact_forward",
             "exact_backward"] + out["bounds"])
    heads = {"composition": "composition", "exact_max": "exact (max)", "exact_error": "±",
             "exact_forward": "add", "exact_backward": "remove"}
    for c in cols:
        tb.add_column(heads.get(c, c.split(":", 1)[-1]), justify="right")
    for r in out["rows"]:
        tb.add_row(*[str(r[c]) if c == "T" else
                     ("—" if r[c] is None or (isinstance(r[c], float) and math.isnan(r[c]))
                      else f"{r[c]:.6g}") for c in cols])
    Console().print(tb)


def _write(out: dict, d: str) -> list[str]:
    os.makedirs(d, exist_ok=True)
    paths = []
    p = os.path.join(d, "exact.json")
    with open(p + ".tmp", "w") as fh:
        json.dump(out, fh, indent=2, default=lambda x: None if x != x else x)
    os.replace(p + ".tmp", p)
    paths.append(p)
    p = os.path.join(d, "exact.csv")
    cols = list(out["rows"][0].keys())
    with open(p + ".tmp", "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=cols)
        w.writeheader()
        w.writerows(out["rows"])
    os.replace(p + ".tmp", p)
    paths.append(p)
    try:
        import matplotlib  # lazy: rich and matplotlib only for the output asked for
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # lazy: rich and matplotlib only for the output asked for
    except ImportError:
        print("matplotlib not installed: no exact.png (pip install dpcheck[plots])",
              file=sys.stderr)
        return paths
    Ts = [r["T"] for r in out["rows"]]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot(Ts, [r["composition"] for r in out["rows"]], "k--",
            label="composition (all iterates, SGM)")
    ax.plot(Ts, [math.nan if r["exact_max"] is None else r["exact_max"]
                 for r in out["rows"]], "C0-", lw=2,
            label="exact last iterate (max of both orders)")
    for i, label in enumerate(out["bounds"]):
        ys = [r[label] for r in out["rows"]]
        if any(isinstance(y, float) and math.isfinite(y) for y in ys):
            ax.plot(Ts, ys, f"C{i + 1}:", label=f"paper: {label}")
    ax.set_xlabel("T (iterations)")
    ax.set_ylabel(f"RDP ε at α = {out['alpha']:g}")
    ax.set_yscale("log")
    ax.set_title(f"{out['scenario']} ({out['algorithm']})")
    ax.legend(fontsize=8)
    fig.tight_layout()
    p = os.path.join(d, "exact.png")
    fig.savefig(p, dpi=120)
    plt.close(fig)
    paths.append(p)
    return paths


def main(argv: list[str]) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return EXIT_OK if exc.code == 0 else EXIT_USAGE
    try:
        out = compute(args)
    except ValueError as exc:
        print(f"dpcheck simulate exact: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if out["refused"]:
        r0 = out["refused"][0]
        print(f"dpcheck simulate exact: {len(out['refused'])} of {len(out['rows'])} exact "
              f"values left blank (no certified value; first at T = {r0['T']}: "
              f"{r0['reason']})", file=sys.stderr)
    if args.format == "json":
        print(json.dumps(out, indent=2, default=lambda x: None if x != x else x))
    else:
        _print_table(out)
    if args.out:
        for p in _write(out, args.out):
            print(f"wrote {p}", file=sys.stderr)
    return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main(sys.argv[1:]))

"""Benchmark of the certified last-iterate accountant (checks.truth.accountant.certified_rdp):
how many cells of a fixed regime grid it refuses, how long a value takes, and how far its
values are from independent references, in units of its certified error (issue 37).

The fixed grid (310 cells; η = 0.1, C = 1, θ_0 = 0, Poisson sampling, q = b/n):

* projected linear canary (DPSGD-DC, K = [−D/2, D/2]; 240 cells): the regimes
  (n, b, σ_DP, D) = A (1000, 10, 0.08, 1.0) — issue 37's example —, B (100, 10, 0.1, 1.0),
  C (20, 10, 0.2, 0.6), D (100, 10, 0.5, 2.0), every T = 1..10, α ∈ {2, 4, 8, 16, 32, 64};
* unprojected linear canary (DPSGD-GC; 54 cells): regimes A, B, C without the domain,
  T ∈ {1, 3, 10}, the same orders;
* non-linear losses and wide domains (16 cells, n = 100, b = 10, σ_DP = 0.1, so τ = 0.01):
  ``bounded-quadratic`` (quadratic-gaussian on D = 4), ``nonconvex-cosine`` (D = 4), and the
  linear canary on wide domains D = 8 and D = 20 (D/τ = 800 and 2000), each at T ∈ {1, 3},
  α ∈ {4, 16}.

Every cell is one ``certified_rdp(s, α)`` call with the accountant's defaults, timed cold
in a child process of its own (nothing remembered from other cells: what one new value
costs; a real run that asks several orders of one scenario reuses its laws).  A refusal
is an AccountantError — or no answer within CELL_SECONDS = 120 s or CELL_BYTES = 4 GiB of
address space (the child is stopped; its time is then the limit).

References (checks.truth.reference_sgd, independent of the accountant's code): T = 1 cells
by mpmath quadrature at 50 digits (any loss, projected or not); projected linear canary at
T ≥ 2 by the Gauss–Legendre (Nyström) evolution (float64, ~1e-12 relative; not for the
wide domains, too many nodes); unprojected linear canary at T ≥ 2 by the log-space
trapezoid rule.  Non-linear cells at T = 3 have none.  "worst |v − ref|/err" is the largest
over cells and both orders of |value − reference| / (that order's certified error): a
value outside its certified error would show as > 1.

    python benchmarks/bench_accountant.py [--quick] [--no-ref] [--group G] [--json FILE]

``--quick``: every third order and T only (a smoke run).  Printed: one line per group and
a total: cells, refused (count, %), time per value (median, max; wall clock, and the
child's CPU time — the same on a quiet machine, less inflated on a busy one), worst
|v − ref|/err.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time

ETA, CLIP = 0.1, 1.0
ALPHAS = (2.0, 4.0, 8.0, 16.0, 32.0, 64.0)
REGIMES = {"A": (1000, 10, 0.08, 1.0), "B": (100, 10, 0.1, 1.0), "C": (20, 10, 0.2, 0.6),
           "D": (100, 10, 0.5, 2.0)}
WIDE = (("bounded-quadratic", {"D": 4.0}), ("nonconvex-cosine", {"D": 4.0}),
        ("linear-canary-dc", {"D": 8.0}), ("linear-canary-dc", {"D": 20.0}))


def cells(quick: bool = False) -> list[dict]:
    """The fixed grid (see the module docstring), in a fixed order."""
    out = []
    alphas = ALPHAS[::3] if quick else ALPHAS
    for key, (n, b, sd, D) in REGIMES.items():
        for T in (range(1, 11, 3) if quick else range(1, 11)):
            for a in alphas:
                out.append({"group": f"projected {key}", "scenario": "linear-canary-dc",
                            "params": dict(n=n, b=b, eta=ETA, C=CLIP, sigma_dp=sd, D=D, T=T),
                            "alpha": a})
    for key in ("A", "B", "C"):
        n, b, sd, _ = REGIMES[key]
        for T in (1, 3, 10):
            for a in alphas:
                out.append({"group": "unprojected", "scenario": "linear-canary",
                            "params": dict(n=n, b=b, eta=ETA, C=CLIP, sigma_dp=sd, T=T),
                            "alpha": a})
    for name, extra in WIDE:
        for T in (1, 3):
            for a in (4.0, 16.0):
                out.append({"group": "non-linear / wide", "scenario": name,
                            "params": dict(n=100, b=10, eta=ETA, C=CLIP, sigma_dp=0.1, T=T,
                                           **extra),
                            "alpha": a})
    return out


_PROJ_CACHE: dict = {}


def reference(cell) -> tuple[float, float] | None:
    """(forward, backward) from checks.truth.reference_sgd, or None (see the docstring)."""
    from checks.truth import reference_sgd as ref
    from checks.truth.losses import make
    p, a, T = cell["params"], cell["alpha"], cell["params"]["T"]
    s = make(cell["scenario"], **p)
    if T == 1:
        return ref.t1_reference(s, a)
    if cell["scenario"] == "linear-canary":
        return ref.unprojected_linear_rdp(p["n"], p["b"], p["eta"], p["C"], p["sigma_dp"], T, a)
    if cell["scenario"] == "linear-canary-dc" and p["D"] / (p["eta"] * p["sigma_dp"]) <= 400:
        key = (p["n"], p["b"], p["eta"], p["C"], p["sigma_dp"], p["D"])
        if key not in _PROJ_CACHE:
            _PROJ_CACHE[key] = ref.projected_linear_curve(*key, range(1, 11), ALPHAS)
        return _PROJ_CACHE[key][(T, a)]
    return None


def _cold():
    from checks.truth import accountant
    for name in ("_LAW_MEMO", "_PIECES"):
        memo = getattr(accountant, name, None)
        if memo is not None:
            memo.clear()


#: each cell runs in a child process under these limits; beyond them it counts as refused
CELL_SECONDS = 120
CELL_BYTES = 4 << 30


def _run_cell(cell) -> dict:
    from checks.truth.accountant import AccountantError, certified_rdp
    from checks.truth.losses import make
    s = make(cell["scenario"], **cell["params"])
    _cold()
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        r = certified_rdp(s, cell["alpha"])
    except AccountantError as e:
        return {"refused": str(e), "seconds": time.perf_counter() - t0,
                "cpu": time.process_time() - c0}
    except MemoryError:
        return {"refused": f"out of memory (> {CELL_BYTES / 2**30:g} GiB)",
                "seconds": time.perf_counter() - t0, "cpu": time.process_time() - c0}
    sec, cpu = time.perf_counter() - t0, time.process_time() - c0
    fe = getattr(r, "forward_error", None)
    be = getattr(r, "backward_error", None)
    return {"forward": r.forward, "backward": r.backward, "error": r.error,
            "forward_error": r.error if fe is None else fe,
            "backward_error": r.error if be is None else be, "grid": r.grid, "seconds": sec,
            "cpu": cpu}


def _child(cell, conn):
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (CELL_BYTES, CELL_BYTES))
    try:
        conn.send(_run_cell(cell))
    except BaseException as e:              # report, never hang the parent
        conn.send({"refused": f"crashed: {type(e).__name__}: {e}", "seconds": math.nan,
                   "cpu": math.nan})
    conn.close()


def run_cell(cell) -> dict:
    """One cold ``certified_rdp`` call in a child process (fork): at most CELL_SECONDS
    and CELL_BYTES of address space, else it counts as a refusal with that reason."""
    import multiprocessing as mp
    ctx = mp.get_context("fork")
    a, b = ctx.Pipe(duplex=False)
    t0 = time.perf_counter()
    p = ctx.Process(target=_child, args=(cell, b))
    p.start()
    b.close()
    got = a.recv() if a.poll(CELL_SECONDS) else None
    p.join(1)
    if p.is_alive():
        p.kill()
        p.join()
    if got is None:
        return {"refused": f"no answer within {CELL_SECONDS} s",
                "seconds": time.perf_counter() - t0, "cpu": math.nan}
    if not math.isfinite(got["seconds"]):
        got["seconds"] = time.perf_counter() - t0
    return got


def _summary(rows) -> str:
    n = len(rows)
    ref = [r for r in rows if "refused" in r["result"]]
    secs = [r["result"]["seconds"] for r in rows]
    cpus = [r["result"]["cpu"] for r in rows if math.isfinite(r["result"]["cpu"])]
    worst = []
    for r in rows:
        res, rf = r["result"], r.get("reference")
        if rf is None or "refused" in res:
            continue
        for v, e, t in ((res["forward"], res["forward_error"], rf[0]),
                        (res["backward"], res["backward_error"], rf[1])):
            worst.append(abs(v - t) / e if e > 0 else (0.0 if v == t else math.inf))
    w = f"{max(worst):.3f} over {len(worst) // 2} cells" if worst else "-"
    cpu = (f"cpu median {statistics.median(cpus):6.3f} s, max {max(cpus):6.2f} s"
           if cpus else "cpu -")
    return (f"{n:4d} cells, refused {len(ref):3d} ({100 * len(ref) / n:5.1f} %), "
            f"time/value median {statistics.median(secs):6.3f} s, max {max(secs):6.2f} s "
            f"({cpu}), worst |v - ref|/err {w}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="every third order and T only")
    ap.add_argument("--no-ref", action="store_true", help="skip the independent references")
    ap.add_argument("--json", metavar="FILE", help="write every cell's row to FILE")
    ap.add_argument("--group", help="only the cells whose group starts with GROUP")
    args = ap.parse_args(argv)
    grid = cells(args.quick)
    if args.group:
        grid = [c for c in grid if c["group"].startswith(args.group)]
        if not grid:
            ap.error(f"--group: no group starts with {args.group!r}")
    rows = []
    t_all = time.perf_counter()
    for i, c in enumerate(grid):
        row = dict(c)
        row["result"] = run_cell(c)
        row["reference"] = None if args.no_ref else reference(c)
        rows.append(row)
        res = row["result"]
        status = ("REFUSED" if "refused" in res else
                  f"add {res['forward']:.6g} ± {res['forward_error']:.2g}, remove "
                  f"{res['backward']:.6g} ± {res['backward_error']:.2g} (G={res['grid']})")
        rf = row["reference"]
        print(f"[{i + 1:3d}/{len(grid)}] {c['group']:18s} T={c['params']['T']:2d} "
              f"a={c['alpha']:4g} {res['seconds']:7.3f} s  {status}"
              + (f"  ref {rf[0]:.6g} / {rf[1]:.6g}" if rf else ""), flush=True)
    print()
    print(f"certified accountant, {len(grid)} cells, {os.cpu_count()} cores, load "
          f"{os.getloadavg()[0]:.1f}, total {time.perf_counter() - t_all:.0f} s")
    groups = []
    for r in rows:
        if r["group"] not in groups:
            groups.append(r["group"])
    for g in groups:
        print(f"  {g:18s} " + _summary([r for r in rows if r["group"] == g]))
    print(f"  {'all':18s} " + _summary(rows))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1, default=float)
    return 0


if __name__ == "__main__":
    sys.exit(main())

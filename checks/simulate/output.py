"""Output of simulations and figures: atomic files (PNG, CSV, JSON), never half written."""
from __future__ import annotations

import csv
import json
import math
import os
import tempfile
from dataclasses import dataclass

import numpy as np


# ------------------------------------------------------------------------ atomic output
def write_atomic(path: str, data: str | bytes) -> str:
    """Atomic, umask-respecting write of a simulation output (see :mod:`checks.output`);
    simulation outputs in their own folder are replaced run after run."""
    # lazy: matplotlib only for a figure; this module loads with every CLI
    from checks.output import write_atomic as _write
    return _write(path, data, force=True)


# lazy: matplotlib only for a figure; this module loads with every CLI
def write_csv(path: str, rows: list[dict]) -> str:
    import io  # lazy: only for a figure
    buf = io.StringIO()
    if rows:
        w = csv.DictWriter(buf, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    return write_atomic(path, buf.getvalue())


def _json_default(o):
    if isinstance(o, (np.floating, np.integer)):
        return o.item()
    raise TypeError(f"not JSON serialisable: {type(o)}")


def write_json(path: str, obj) -> str:
    def clean(v):
        if isinstance(v, float) and not math.isfinite(v):
            return str(v)          # "inf" / "nan" spelled out, never silently dropped
        if isinstance(v, dict):
            return {k: clean(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [clean(x) for x in v]
        return v
    return write_atomic(path, json.dumps(clean(obj), indent=2, default=_json_default) + "\n")

  # lazy: matplotlib only for a figure; this module loads with every CLI
def save_png(fig, path: str) -> str:
    import io  # lazy: only for a figure
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    return write_atomic(path, buf.getvalue())

  # lazy: matplotlib only for a figure; this module loads with every CLI
def _plt():
    import matplotlib  # lazy: matplotlib only for a figure; this module loads with every CLI
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # lazy: only for a figure
    return plt


@dataclass
class FigureOutput:
    name: str
    png: str
    csv: str
    json: str
    notes: list[str]
    seconds: float


def divergence_plot(rows: list[dict], title: str = ""):
    """Measured D_alpha against alpha, both orders: the estimate, a bar from the guaranteed
    lower bound to the asymptotic upper end, the valid (bounded-ratio) upper end as a
    marker (a caret at the top when it is off the scale), and the exact value where known.
    Returns a figure or None when there is nothing to plot."""
    if not rows:
        return None
    plt = _plt()
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.4), sharey=True)
    vals = [r["estimate"] for r in rows] + [r.get("exact") or 0.0 for r in rows] + \
        [r.get("upper_asymptotic") or 0.0 for r in rows]
    top = 1.3 * max(max(vals), 1e-12)
    for ax, order in zip(axes, ("forward", "backward")):
        rs = [r for r in rows if r["order"] == order]
        a = np.array([r["alpha"] for r in rs], dtype=float)
        est = np.array([r["estimate"] for r in rs], dtype=float)
        ax.plot(a, est, "o-", label="measured")
        for r in rs:
            if r["lower"] is not None:
                hi = r.get("upper_asymptotic") or r["estimate"]
                ax.vlines(r["alpha"], r["lower"], hi, colors="C0")
            if r["upper_kind"] == "bounded-ratio":
                ax.plot(r["alpha"], min(r["upper"], top * 0.98),
                        "^" if r["upper"] > top else "_", color="C2", ms=8)
        ex = [(r["alpha"], r["exact"]) for r in rs if r.get("exact") is not None]
        if ex:
            ax.plot(*zip(*ex), "k+", ms=10, label="exact")
        ax.set_xscale("log", base=2)
        ax.set_ylim(0, top)
        ax.set_xlabel("alpha")
        ax.set_title(f"{order}: D_a({'P||Q' if order == 'forward' else 'Q||P'})")
        ax.legend(fontsize=8)
    axes[0].set_ylabel("Renyi divergence")
    fig.suptitle(title + "  (bar: guaranteed lower to asymptotic upper; green: valid upper)",
                 fontsize=8)
    return fig

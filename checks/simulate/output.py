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
    from checks.output import write_atomic as _write
    return _write(path, data, force=True)


def write_csv(path: str, rows: list[dict]) -> str:
    import io
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


def save_png(fig, path: str) -> str:
    import io
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    return write_atomic(path, buf.getvalue())


def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


@dataclass
class FigureOutput:
    name: str
    png: str
    csv: str
    json: str
    notes: list[str]
    seconds: float

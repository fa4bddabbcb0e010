"""The one targeted search loop of the engine: Hypothesis drawing points of a space (a
sampling mode and a uniform per parameter, read by the space's own sampler) and steering
toward a score (DESIGN.md, *Numeric search*).  The counterexample search
(:mod:`checks.falsify`), the statement driver (:mod:`checks.statements`) and the
divergence-row oracle (:mod:`checks.oracles.divergence_rows`) all search through it: the
same strategy, seeded, no example database, no deadline — the examples depend on the seed
only."""
from __future__ import annotations

from typing import Callable

import hypothesis.strategies as st
import numpy as np
from hypothesis import HealthCheck, Phase, assume, given, settings, target
from hypothesis import seed as hseed

from checks.determinism import pin_hypothesis

# the same examples for a seed whatever was imported before (see checks.determinism):
# pinned where the one search loop is, not only where the engine is imported — a search
# run without the engine (the law search, a test) drew from another pool
pin_hypothesis()

#: sampling modes of a point's coordinates (the samplers' own count)
N_MODES = 7

_PHASES = {"generate": Phase.generate, "target": Phase.target, "shrink": Phase.shrink}


def point_strategy(k: int, n_modes: int = N_MODES):
    """One point of a space of ``k`` parameters: a sampling mode and a uniform in [0, 1]
    per parameter."""
    return st.tuples(st.lists(st.integers(0, n_modes - 1), min_size=k, max_size=k),
                     st.lists(st.floats(0, 1, allow_nan=False), min_size=k, max_size=k))


#: what a score returns for a point the search must not count (the example is rejected)
REJECT = object()


def targeted(k: int, score: Callable, *, n: int, seed: int, label: str,
             phases=("generate", "target"), after: Callable | None = None,
             quiet: bool = False) -> None:
    """Run ``n`` examples: ``score(modes, uniforms)`` (two (k, 1) arrays) returns the value
    Hypothesis maximises, None for a point that gives none, or :data:`REJECT` (the example
    is rejected).  ``after()``, called once the value is targeted, may raise to stop the
    search (the exception propagates; with the shrink phase, from the smallest example
    that raises it).  ``quiet``: Hypothesis prints nothing on a failure."""
    if k == 0 or n <= 0:
        return
    extra = {"print_blob": False, "report_multiple_bugs": False} if quiet else {}

    @hseed(seed)
    @settings(max_examples=n, database=None, deadline=None, derandomize=False,
              phases=tuple(_PHASES[p] for p in phases),
              suppress_health_check=list(HealthCheck), **extra)
    @given(point_strategy(k))
    def run(mu):
        ms, us = mu
        s = score(np.array(ms)[:, None], np.array(us)[:, None])
        if s is REJECT:
            assume(False)
        if s is not None and s is not REJECT:
            target(float(s), label=label)
        if after is not None:
            after()

    run()

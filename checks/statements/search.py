"""The targeted (Hypothesis) phase of the driver's searches (DESIGN.md, *Statement
checks*)."""
from __future__ import annotations

import hypothesis.strategies as st
import numpy as np
from hypothesis import HealthCheck, Phase, given, settings, target
from hypothesis import seed as hseed

from checks import falsify
from checks.statements.space import Space


def point_strategy(k: int):
    """Hypothesis strategy for one point of a :class:`Space` with ``k`` domains: a sampling
    mode and a uniform per domain, read by :meth:`Space.from_modes`."""
    return st.tuples(st.lists(st.integers(0, falsify.N_MODES - 1), min_size=k, max_size=k),
                     st.lists(st.floats(0, 1, allow_nan=False), min_size=k, max_size=k))


def hypothesis_phase(space: Space, consider, n: int, seed: int) -> None:
    k = len(space.doms)
    if k == 0 or n <= 0:
        return
    point = point_strategy(k)

    @hseed(seed)
    @settings(max_examples=n, database=None, deadline=None, derandomize=False,
              phases=(Phase.generate, Phase.target), suppress_health_check=list(HealthCheck))
    @given(point)
    def run(mu):
        ms, us = mu
        pts = space.from_modes(np.array(ms)[:, None], np.array(us)[:, None])
        r = consider(pts[0]) if pts else None
        if r is not None:
            target(float(min(r, 1e6)), label="truth/bound")

    run()


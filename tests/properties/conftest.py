"""Hypothesis profiles for the per-step property tests (DESIGN.md, *Numeric search*).

``ci`` (default): a few derandomised examples per step — every encoded step, in the
default suite too (each step a test of its own that pytest-xdist hands to whichever
worker is free: tests/conftest.py).  ``thorough``: a large search,
for one result at a time::

    pytest tests/properties -k "lem-3.2" --hypothesis-profile=thorough
"""
from hypothesis import HealthCheck, Phase, settings

_COMMON = dict(database=None, deadline=None, print_blob=False,
               suppress_health_check=list(HealthCheck),
               # no `explain` phase: the witness is reported by the test itself, and
               # explaining one shrunk failure re-ran a step ~250 times (35 s for one step)
               phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target,
                       Phase.shrink])
settings.register_profile("ci", max_examples=12, derandomize=True, **_COMMON)
settings.register_profile("thorough", max_examples=2000, derandomize=False, **_COMMON)

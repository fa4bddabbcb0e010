"""Hypothesis profiles for the per-step property tests (DESIGN.md, *Numeric search*).

``ci`` (default): a few derandomised examples per step.  ``thorough``: a large search,
for one result at a time::

    pytest tests/properties -k "lem-3.2" --hypothesis-profile=thorough
"""
from hypothesis import HealthCheck, settings

_COMMON = dict(database=None, deadline=None, print_blob=False,
               suppress_health_check=list(HealthCheck))
settings.register_profile("ci", max_examples=12, derandomize=True, **_COMMON)
settings.register_profile("thorough", max_examples=2000, derandomize=False, **_COMMON)


def pytest_collection_modifyitems(config, items):
    """The per-step searches run when asked for (``pytest tests/properties ...``), not
    in the default suite: with every encoded step they take minutes (the engine's own
    search already covers every step in ``dpcheck verify`` and tests/checks)."""
    import os
    import pytest

    here = os.path.dirname(os.path.abspath(__file__))
    asked = any(os.path.abspath(str(a).split("::")[0]).startswith(here) for a in config.args)
    if asked:
        return
    skip = pytest.mark.skip(reason="per-step property searches: run `pytest tests/properties`")
    for item in items:
        if str(item.fspath).startswith(here):
            item.add_marker(skip)

"""The engine's one targeted search (:mod:`checks.search`): the examples depend on the seed
only (not on what ran or was imported before), the score sees one point of the space as
(k, 1) arrays, a rejected example is not counted, and ``after`` raising stops the search
with its exception."""
from __future__ import annotations

import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checks.determinism import pin_hypothesis
from checks.search import N_MODES, REJECT, point_strategy, targeted

pin_hypothesis()      # as the engine does when it is imported


def _record(k=3, n=40, seed=7, **kw):
    seen = []

    def score(ms, us):
        seen.append((tuple(ms[:, 0]), tuple(us[:, 0])))
        return float(us.sum())
    targeted(k, score, n=n, seed=seed, label="test", **kw)
    return seen


def test_the_score_sees_one_point_as_k_by_1_arrays_of_modes_and_uniforms():
    shapes = []

    def score(ms, us):
        shapes.append((ms.shape, us.shape))
        assert np.all((0 <= ms) & (ms < N_MODES)) and ms.dtype.kind == "i"
        assert np.all((0 <= us) & (us <= 1))
        return None
    targeted(4, score, n=25, seed=1, label="test")
    assert shapes and set(shapes) == {((4, 1), (4, 1))}


def test_same_seed_same_examples_whatever_ran_or_was_imported_before(tmp_path, monkeypatch):
    first = _record()
    assert len(first) >= 30

    # another Hypothesis search in between, and a new module full of literals
    @settings(max_examples=50, database=None)
    @given(st.floats(allow_nan=False), st.integers())
    def other(x, i):
        pass
    other()
    (tmp_path / "search_test_literals.py").write_text(textwrap.dedent("""
        A = 0.123456789
        B = 987654321
    """), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    import search_test_literals  # noqa: F401
    try:
        assert _record() == first
    finally:
        sys.modules.pop("search_test_literals", None)
    assert _record(seed=8) != first


def test_nothing_to_search_calls_nothing():
    def score(ms, us):
        raise AssertionError("called")
    targeted(0, score, n=10, seed=0, label="test")
    targeted(3, score, n=0, seed=0, label="test")
    targeted(3, score, n=-5, seed=0, label="test")


def test_n_caps_the_examples():
    assert 0 < len(_record(n=10)) <= 10


def test_after_raising_stops_the_search_and_propagates():
    """``after`` raising for a point (as a found counterexample does) ends the search: no
    example is drawn after the first raising one but Hypothesis' replay of it."""
    us_seen = []

    class Found(Exception):
        pass

    def score(ms, us):
        us_seen.append(float(us[0, 0]))
        return 0.0

    def after():
        if us_seen[-1] > 0.9:
            raise Found(us_seen[-1])
    with pytest.raises(Found) as exc:
        targeted(1, score, n=500, seed=3, label="test", after=after, quiet=True)
    assert exc.value.args[0] > 0.9
    first = next(i for i, u in enumerate(us_seen) if u > 0.9)
    assert len(us_seen) <= first + 2 < 500
    assert us_seen[-1] == exc.value.args[0]


def test_after_runs_once_per_example_once_its_value_is_targeted():
    order = []

    def score(ms, us):
        order.append("score")
        return 1.0

    targeted(2, score, n=12, seed=3, label="test", after=lambda: order.append("after"))
    assert order and order[::2] == ["score"] * (len(order) // 2)
    assert order[1::2] == ["after"] * (len(order) // 2)


def test_rejected_examples_are_not_scored_or_followed():
    targets, afters = [], []

    def score(ms, us):
        if us[0, 0] < 0.5:
            return REJECT
        targets.append(us[0, 0])
        return float(us[0, 0])
    targeted(1, score, n=60, seed=2, label="test", after=lambda: afters.append(1))
    assert targets and all(u >= 0.5 for u in targets)
    assert len(afters) == len(targets)


def test_the_shrink_phase_raises_from_the_smallest_raising_example():
    """With the shrink phase, the exception comes from the smallest example that raises
    (here: mode 3 exactly, the uniforms at 0), not from the first one found."""
    last = {}

    class Big(Exception):
        pass

    def score(ms, us):
        last["p"] = (int(ms[0, 0]), float(us[0, 0]), float(us[1, 0]))
        return float(ms[0, 0])

    def after():
        if last["p"][0] >= 3:
            raise Big(last["p"])
    with pytest.raises(Big) as shrunk:
        targeted(2, score, n=100, seed=4, label="test", after=after,
                 phases=("generate", "target", "shrink"), quiet=True)
    with pytest.raises(Big) as first:
        targeted(2, score, n=100, seed=4, label="test", after=after, quiet=True)
    assert shrunk.value.args[0] == (3, 0.0, 0.0)
    assert first.value.args[0][0] >= 3 and first.value.args[0] != (3, 0.0, 0.0)


def test_point_strategy_draws_k_modes_and_k_uniforms():
    @settings(max_examples=30, database=None)
    @given(point_strategy(3, n_modes=2))
    def check(mu):
        ms, us = mu
        assert len(ms) == len(us) == 3
        assert all(m in (0, 1) for m in ms) and all(0 <= u <= 1 for u in us)
    check()

"""How ``verify`` splits results among workers: groups whose typed statements ask the
truth providers about the same mechanism share a worker (and its memos), as in a
sequential run, while no merged group grows beyond an even share of the work."""
from __future__ import annotations

from types import SimpleNamespace

import sympy as sp

from checks import engine
from theory.mechanisms import SampledGaussian
from theory.model import Bound

q, s, a = sp.symbols("q sigma alpha", positive=True)
SG = SampledGaussian(q, s)
OTHER = SampledGaussian(q, 2 * s)


def _res(*mechs):
    return SimpleNamespace(bounds=tuple(Bound("b", a / s**2, mechanism=m, order=a)
                                        for m in mechs), rates=())


def test_groups_asking_about_one_mechanism_merge_within_an_even_share():
    results = [_res(SG), _res(SG), _res(OTHER), _res(), _res(SG)]
    groups = {"t0": [0], "t1": [1], "t2": [2], "t3": [3], "t4": [4]}
    sizes = {"t0": 10, "t1": 10, "t2": 10, "t3": 10, "t4": 30}
    engine._merge_sharing_truths(groups, sizes, results, jobs=2)    # share 70 / 2 = 35
    # t4 + t0 would pass the share (40); t0 + t1 fit (20), and then t4 + them would not
    assert groups == {"t0": [0, 1], "t2": [2], "t3": [3], "t4": [4]}
    assert sizes == {"t0": 20, "t2": 10, "t3": 10, "t4": 30}
    # one worker: everything that shares merges
    groups = {"t0": [0], "t1": [1], "t2": [2], "t3": [3], "t4": [4]}
    sizes = {"t0": 10, "t1": 10, "t2": 10, "t3": 10, "t4": 30}
    engine._merge_sharing_truths(groups, sizes, results, jobs=1)
    assert sorted(map(sorted, groups.values())) == [[0, 1, 4], [2], [3]]


def test_a_bound_and_a_rate_on_one_mechanism_are_different_truths():
    b = _res(SG)
    r = SimpleNamespace(bounds=(), rates=(SimpleNamespace(mechanism=SG),))
    assert engine._truth_keys(b) and engine._truth_keys(r)
    assert not engine._truth_keys(b) & engine._truth_keys(r)

"""The verdict cache (:mod:`checks.cache`): keys change with everything a verdict depends on
(kind, content, budget, seed) and nothing else; fingerprints are canonical; entries round
trip, and a missing, corrupt or unwritable entry costs speed only."""
from __future__ import annotations

import enum
import json
import os
import re
from dataclasses import dataclass

import pytest
import sympy as sp

from checks import cache
from checks.cache import DiskCache, engine_version, fingerprint, key


class Colour(enum.Enum):
    RED = 1
    BLUE = 2


@dataclass(frozen=True)
class Pair:
    a: object
    b: object = None


x, y = sp.symbols("x y", positive=True)


def test_equal_content_equal_fingerprint_whatever_the_dict_order():
    assert fingerprint({"b": x, "a": [1, 2.5, "s"]}) == fingerprint({"a": [1, 2.5, "s"], "b": x})
    assert fingerprint(Pair(x + y, {"k": Colour.RED})) == \
        fingerprint(Pair(y + x, {"k": Colour.RED}))


@pytest.mark.parametrize("one, other", [
    (x, sp.Symbol("x")),                    # an assumption is part of a symbol
    (x + 1, x + 2),
    (1, 1.0),                               # an int and a float differ
    (1, "1"),
    (True, 1),
    (None, "None"),
    (Colour.RED, Colour.BLUE),
    (Pair(1), Pair(1, 2)),
    ([1, 2], [2, 1]),                       # order of a list matters
    ({"a": 1}, {"a": 2}),
    ({"a": 1}, {"b": 1}),
])
def test_different_content_different_fingerprint(one, other):
    assert fingerprint(one) != fingerprint(other)


def test_a_dataclass_is_read_field_by_field_with_its_type():
    @dataclass
    class Other:
        a: object
        b: object = None
    assert fingerprint(Pair(1, 2)) != fingerprint(Other(1, 2))
    assert "a=1," in fingerprint(Pair(1, 2)) and "b=2," in fingerprint(Pair(1, 2))


def test_engine_version_is_a_short_stable_hash():
    v = engine_version()
    assert re.fullmatch(r"[0-9a-f]{16}", v)
    assert engine_version() == v


def test_keys_change_with_kind_content_budget_and_seed_only():
    base = key("step", "content", budget=2000, seed=0)
    assert re.fullmatch(r"[0-9a-f]{64}", base)
    assert key("step", "content", budget=2000, seed=0) == base
    others = [key("chain", "content", budget=2000, seed=0),
              key("step", "content!", budget=2000, seed=0),
              key("step", "content", budget=2001, seed=0),
              key("step", "content", budget=2000, seed=1)]
    assert len({base, *others}) == 5
    # parts are separated: moving text between kind and content is another key
    assert key("ab", "c", budget=1, seed=0) != key("a", "bc", budget=1, seed=0)


def test_keys_change_with_the_engine_version(monkeypatch):
    before = key("step", "c", budget=1, seed=0)
    monkeypatch.setattr(cache, "engine_version", lambda: "0" * 16)
    assert key("step", "c", budget=1, seed=0) != before


def test_entries_round_trip_and_count_hits_and_misses(tmp_path):
    dc = DiskCache(tmp_path / "c")
    k = key("step", "content", budget=10, seed=3)
    assert dc.get(k) is None and (dc.hits, dc.misses) == (0, 1)
    dc.put(k, {"verdict": "PROVED", "slack": 0.5, "list": [1, 2]})
    assert dc.get(k) == {"verdict": "PROVED", "slack": 0.5, "list": [1, 2]}
    assert (dc.hits, dc.misses) == (1, 1)
    # one file per entry under a two-character shard, no temporary left
    files = [p for p in (tmp_path / "c").rglob("*") if p.is_file()]
    assert [p.name for p in files] == [f"{k}.json"] and files[0].parent.name == k[:2]
    dc.put(k, {"verdict": "REFUTED"})
    assert dc.get(k) == {"verdict": "REFUTED"}


def test_a_corrupt_entry_is_a_miss(tmp_path):
    dc = DiskCache(tmp_path)
    k = key("step", "x", budget=1, seed=0)
    dc.put(k, {"a": 1})
    p = tmp_path / k[:2] / f"{k}.json"
    p.write_text('{"a": 1', encoding="utf-8")          # cut short
    assert dc.get(k) is None and dc.misses == 1
    p.write_bytes(b"\xff\xfe\x00garbage")
    assert dc.get(k) is None and dc.misses == 2


def test_an_unwritable_cache_costs_speed_only(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    dc = DiskCache(blocker)                      # its shards cannot be created
    k = key("step", "x", budget=1, seed=0)
    dc.put(k, {"a": 1})                          # no exception
    assert dc.get(k) is None


def test_the_folder_comes_from_the_argument_the_environment_or_the_default(tmp_path,
                                                                           monkeypatch):
    monkeypatch.setenv("DPCHECK_CACHE_DIR", str(tmp_path / "env"))
    assert DiskCache().folder == tmp_path / "env"
    assert DiskCache(tmp_path / "arg").folder == tmp_path / "arg"
    monkeypatch.delenv("DPCHECK_CACHE_DIR")
    assert str(DiskCache().folder) == cache.DEFAULT_DIR == ".dpcheck-cache"


def test_entries_are_plain_json(tmp_path):
    dc = DiskCache(tmp_path)
    k = key("statement", "s", budget=5, seed=9)
    dc.put(k, {"ratio": 0.25})
    with open(tmp_path / k[:2] / f"{k}.json", encoding="utf-8") as fh:
        assert json.load(fh) == {"ratio": 0.25}
    assert not [n for n in os.listdir(tmp_path / k[:2]) if n.startswith(".tmp-")]

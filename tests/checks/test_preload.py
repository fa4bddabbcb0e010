"""How the worker server's preload (:mod:`checks._preload`) reads the run's selectors: one
per line, a paper key from a key or a result id (any case), papers given by path left to
the workers, an empty value meaning every paper and an unset one none, and
nothing it does ever raises.  (That a forked worker then has the engine and exactly the
run's papers loaded is tested end to end, in fresh interpreters, by
``test_executor_preload.py``.)"""
from __future__ import annotations

import pytest

import checks._preload as preload
from checks.executor import PAPERS_ENV
from theory import registry


@pytest.fixture
def calls(monkeypatch):
    """The registry's loaders replaced by recorders."""
    got = {"results_of": [], "all_results": 0}

    def results_of(key):
        got["results_of"].append(key)
        if key == "unknown":
            raise KeyError(key)
        return []

    def all_results():
        got["all_results"] += 1
        return []
    monkeypatch.setattr(registry, "results_of", results_of)
    monkeypatch.setattr(registry, "all_results", all_results)
    return got


def test_unset_loads_no_paper(calls, monkeypatch):
    monkeypatch.delenv(PAPERS_ENV, raising=False)
    preload._preload()
    assert calls == {"results_of": [], "all_results": 0}


@pytest.mark.parametrize("value", ["", "\n", "  \n \n"])
def test_an_empty_value_loads_every_paper(calls, monkeypatch, value):
    monkeypatch.setenv(PAPERS_ENV, value)
    preload._preload()
    assert calls == {"results_of": [], "all_results": 1}


def test_each_selector_names_its_paper(calls, monkeypatch):
    monkeypatch.setenv(PAPERS_ENV, "\n".join([
        "Paper-A",                       # a key, any case
        " paper-b:thm-3.9 ",             # a result id, surrounding blanks
        "",
        "unknown",                       # an unknown key: skipped, the rest still loaded
        "paper-e",
    ]))
    preload._preload()
    assert calls["all_results"] == 0
    assert calls["results_of"] == ["paper-a", "paper-b", "unknown", "paper-e"]


def test_papers_given_by_path_are_left_to_the_workers(calls, monkeypatch, tmp_path):
    folder = tmp_path / "mypaper"
    folder.mkdir()
    monkeypatch.setenv(PAPERS_ENV, f"{tmp_path / 'my.py'}\nlocal.py\n{folder}\npaper-a")
    preload._preload()
    assert calls["results_of"] == ["paper-a"]


def test_a_failing_registry_is_swallowed(monkeypatch):
    def broken(*a, **k):
        raise RuntimeError("a paper failed to load")
    monkeypatch.setattr(registry, "results_of", broken)
    monkeypatch.setattr(registry, "all_results", broken)
    for value in ("paper-a", ""):
        monkeypatch.setenv(PAPERS_ENV, value)
        preload._preload()                      # no exception: the worker reports it


def test_a_failing_engine_import_is_swallowed(monkeypatch, calls):
    from checks import plugins

    def broken():
        raise ImportError("a plug-in is broken")
    monkeypatch.setattr(plugins, "ensure_loaded", broken)
    monkeypatch.setenv(PAPERS_ENV, "paper-a")
    preload._preload()
    # the engine's failure does not stop the run's papers from loading
    assert calls["results_of"] == ["paper-a"]

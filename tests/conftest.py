"""Fixtures shared by every test."""
import os
import sys

import pytest

_HERE = os.path.dirname(os.path.abspath(__file__))
#: test files whose tests are independent and many (one test per encoded step): under
#: pytest-xdist each of their tests goes to whichever worker is free
_SPREAD = (os.path.join(_HERE, "properties") + os.sep,)


def pytest_collection_modifyitems(config, items):
    """With ``--dist loadgroup`` (the default, pyproject.toml) every test of a file runs
    in one worker — module fixtures (the snapshot's verify, a notebook kernel) are built
    once — except the tests of :data:`_SPREAD`, which are spread one by one: ~400
    per-step property searches in one file would otherwise all queue on one worker."""
    for item in items:
        path = str(item.fspath)
        if not path.startswith(_SPREAD):
            item.add_marker(pytest.mark.xdist_group(os.path.relpath(path, _HERE)))


@pytest.fixture(autouse=True)
def _fresh_check_memos():
    """The engine remembers checks per process by content (statement outcomes, truths, the
    C.1 instance oracles' reports).  A test that patches a provider or an oracle must not be
    answered from what an earlier test left there: each test starts with them empty
    (modules not imported yet have nothing to clear, and are not imported here)."""
    for name in ("checks.statements.driver", "checks.papers.liang.instance"):
        mod = sys.modules.get(name)
        if mod is not None:
            mod._MEMO.clear()
    # the providers' truths, remembered per process (a test that shrinks a provider's runs
    # asks the same points)
    mod = sys.modules.get("checks.statements.evaluator")
    if mod is not None:
        mod._TRUTH_CACHE.clear()
    yield

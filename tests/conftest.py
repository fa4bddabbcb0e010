"""Fixtures shared by every test."""
import sys

import pytest


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

"""Per-step property tests of the paper ``dice`` (the machinery: _property_steps.py)."""
import pytest
from _property_steps import check_step, steps


@pytest.mark.parametrize("loc", steps('dice'))
def test_step_has_no_counterexample(loc, request):
    check_step(loc, request)

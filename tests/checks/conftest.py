"""Fixtures shared by the checks/ tests."""
import pytest


@pytest.fixture(scope="module")
def one_torch_thread():
    """Small tensors gain nothing from intra-op threads, and on a shared 2-core CI box
    spinning OpenMP threads slow the simulator tests down by an order of magnitude."""
    import torch
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(old)

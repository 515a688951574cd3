"""The seed scenarios can fail: each fault below makes torch behave otherwise than a scenario says, and the scenario,
run under it, must raise AssertionError (run without it, it passes: the scenario modules run it plainly)."""
from unittest import mock

import pytest
import torch

# the modules, not their classes: pytest would collect the classes here once more
from tests.seeds import test_000_ja, test_001_ko, test_002_zh

_detach = torch.Tensor.detach
_setitem = torch.Tensor.__setitem__


def detach_copying_grad(self):
    """detach() that carries its source's gradient over to the new tensor."""
    out = _detach(self)
    if self.is_leaf and self.grad is not None:
        out.grad = self.grad.clone()
    return out


def setitem_in_new_memory(self, key, value):
    """Indexed assignment that moves the tensor to fresh memory first (copy on write)."""
    with torch.no_grad():
        self.set_(self.clone())
    _setitem(self, key, value)


FAULTS = {
    "detach copies the gradient (000: detach)": (
        lambda: mock.patch.object(torch.Tensor, "detach", detach_copying_grad),
        lambda: test_000_ja.TestArticle000().test_detach_is_new_constant_sharing_values("cpu")),
    "detach copies the gradient (000: detach().clone())": (
        lambda: mock.patch.object(torch.Tensor, "detach", detach_copying_grad),
        lambda: test_000_ja.TestArticle000().test_detach_clone_is_independent("cpu")),
    "elements 8 bytes apart (001: addresses)": (
        lambda: default_dtype(torch.float64),
        lambda: test_001_ko.TestArticle001().test_detach_shares_every_element_address()),
    "setitem writes into new memory (002: b = a)": (
        lambda: mock.patch.object(torch.Tensor, "__setitem__", setitem_in_new_memory),
        lambda: test_002_zh.TestArticle002().test_assignment_aliases()),
}


class default_dtype:
    def __init__(self, dtype):
        self.dtype, self.saved = dtype, torch.get_default_dtype()

    def __enter__(self):
        torch.set_default_dtype(self.dtype)

    def __exit__(self, *exc):
        torch.set_default_dtype(self.saved)


@pytest.mark.parametrize("name", FAULTS)
def test_the_scenario_fails_under_the_fault(name):
    inject, scenario = FAULTS[name]
    with inject(), pytest.raises(AssertionError):
        scenario()

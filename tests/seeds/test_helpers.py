"""The seed tests' `grad_of` reads .grad for real: an assertion that a non-leaf holds no gradient can fail."""
import inspect
from unittest import mock

import pytest
import torch

from tests.seeds.helpers import assert_no_grad, grad_of

_grad = inspect.getattr_static(torch.Tensor, "grad")  # the C property (TensorBase, _TensorBase before 2.0)


def test_grad_of_a_non_leaf_that_retains_its_gradient_is_that_gradient():
    x = torch.ones(2, requires_grad=True)
    y = x * 3
    y.retain_grad()
    y.sum().backward()
    assert grad_of(y) is not None and grad_of(y).tolist() == [1.0, 1.0]


def test_grad_of_a_non_leaf_that_does_not_retain_it_is_none():
    x = torch.ones(2, requires_grad=True)
    y = x * 3
    y.sum().backward()
    assert grad_of(y) is None and grad_of(x).tolist() == [3.0, 3.0]


def test_assert_no_grad_fails_when_a_non_leaf_reports_a_gradient():
    """Were torch to keep a non-leaf's gradient, the seed tests' `assert_no_grad` would say so."""
    def kept(self):
        return torch.ones_like(self) if not self.is_leaf else _grad.__get__(self)

    x = torch.ones(2, requires_grad=True)
    y = x * 3
    y.sum().backward()
    with mock.patch.object(torch.Tensor, "grad", property(kept, _grad.__set__, _grad.__delete__)):
        with pytest.raises(AssertionError, match=r"after `y = x \* 3`: expected .grad None for y; observed y.grad = "):
            assert_no_grad("y = x * 3", y=y)
    assert_no_grad("y = x * 3", y=y)

"""The seed tests' `grad_of` reads .grad for real: an assertion that a non-leaf holds no gradient can fail."""
import inspect
import re
from unittest import mock

import pytest
import torch

from tests.seeds.helpers import assert_grad_fn, assert_no_grad, grad_of

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


def test_assert_grad_fn_fails_on_another_grad_fn_and_on_none():
    """The CopySlices check of 000's CUDA scenario (`write_into_a_cpu_copy`) runs only on a GPU; here its assertion
    is fed a wrong grad_fn and none, and must fail, naming the program and what it saw."""
    w = torch.ones(1, requires_grad=True)
    v = w.clone()
    wrong = "after `v = w.clone()`: expected grad_fn CopySlices; observed CloneBackward0"
    with pytest.raises(AssertionError, match=re.escape(wrong)):
        assert_grad_fn(v, "CopySlices", "v = w.clone()")
    with pytest.raises(AssertionError, match="expected grad_fn CopySlices; observed None"):
        assert_grad_fn(w, "CopySlices", "w = torch.ones(1, requires_grad=True)")
    v[0] = 7.0
    assert_grad_fn(v, "CopySlices", "v = w.clone(); v[0] = 7.")

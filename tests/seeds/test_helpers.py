"""The seed tests' `grad_of` reads .grad for real: an assertion that a non-leaf holds no gradient can fail."""
import torch

from tests.seeds.helpers import grad_of


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

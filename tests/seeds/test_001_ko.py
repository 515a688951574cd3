"""Article 001 (ko): clone and detach, worked examples, pinned with its printed numbers.

The generic form of every claim is also a spec entry (docs/seed-claims.md); this keeps the article's own programs'
numbers honest.
"""
import pytest
import torch

from tests.seeds.helpers import close, t


class TestArticle001:
    def test_clone_keeps_requires_grad(self):
        a = t([0.0, 1.0])
        assert not a.clone().requires_grad
        a = t([0.0, 1.0], requires_grad=True)
        b = a.clone()
        assert b.requires_grad and type(b.grad_fn).__name__ == "CloneBackward0"

    def test_detach_keeps_dtype_and_drops_grad(self):
        a = t([0, 1])
        assert a.detach().dtype == torch.int64
        a = t([0.0, 1.0], requires_grad=True)
        assert not a.detach().requires_grad

    def test_detach_shares_every_element_address(self):
        a = t([0.0, 1.0], requires_grad=True)
        b = a.detach()
        assert [a[i].data_ptr() for i in range(2)] == [b[i].data_ptr() for i in range(2)]
        b[0] = 3
        close(a.detach(), t([3.0, 1.0]))
        assert a.requires_grad and not b.requires_grad

    def test_in_place_on_a_leaf_that_requires_grad_is_refused(self):
        a = t([0.0, 1.0], requires_grad=True)
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
            a[0] = 3

    def test_leaf_rules(self):
        a = t([1.0, 2.0])
        assert (a * 2).is_leaf  # every tensor that does not require grad is a leaf
        w = t([1.0, 2.0], requires_grad=True)
        y = w * 2
        assert w.is_leaf and not y.is_leaf
        y.retain_grad()
        y.sum().backward()
        close(w.grad, t([2.0, 2.0])), close(y.grad, t([1.0, 1.0]))

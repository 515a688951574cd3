"""Article 001 (ko): clone and detach, worked examples, pinned with its printed numbers.

The generic form of every claim is also a spec entry (docs/seed-claims.md); this keeps the article's own programs'
numbers honest.
"""
import pytest
import torch

from tests.seeds.helpers import assert_no_grad, attempt, close, memory, t


class TestArticle001:
    def test_clone_keeps_requires_grad(self):
        a = t([0.0, 1.0])
        assert not a.clone().requires_grad
        a = t([0.0, 1.0], requires_grad=True)
        b = a.clone()
        assert b.requires_grad and type(b.grad_fn).__name__ == "CloneBackward0"

    def test_under_no_grad_a_clone_keeps_no_history(self):
        """clone() takes the history along only in grad mode: under no_grad the clone of a tensor that requires
        grad is a new leaf that does not (the spec `clone` states it in every mode; this is the article's tensor)."""
        a = t([0.0, 1.0], requires_grad=True)
        with torch.no_grad():
            b = a.clone()
        got = (b.requires_grad, b.grad_fn, b.is_leaf)
        assert got == (False, None, True), (
            "a = torch.tensor([0., 1.], requires_grad=True); with torch.no_grad(): b = a.clone(): expected "
            f"(requires_grad, grad_fn, is_leaf) = (False, None, True); observed {got}")

    def test_detach_keeps_dtype_and_drops_grad(self):
        a = t([0, 1])
        assert a.detach().dtype == torch.int64
        a = t([0.0, 1.0], requires_grad=True)
        assert not a.detach().requires_grad

    def test_detach_shares_every_element_address(self):
        a = t([0.0, 1.0], requires_grad=True)
        b = a.detach()
        addresses = [a[i].data_ptr() for i in range(2)]
        assert addresses == [b[i].data_ptr() for i in range(2)]
        # the article prints two addresses 4 bytes apart: one float32 (the default dtype), stride 1
        assert addresses[1] - addresses[0] == 4, (
            f"a = torch.tensor([0., 1.], requires_grad=True) ({a.dtype}, strides {a.stride()}): expected "
            f"a[1].data_ptr() - a[0].data_ptr() == 4; observed {addresses[1] - addresses[0]}")
        b[0] = 3
        close(a.detach(), t([3.0, 1.0]))
        assert a.requires_grad and not b.requires_grad

    def test_in_place_on_a_leaf_that_requires_grad_is_refused(self):
        a = t([0.0, 1.0], requires_grad=True)
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
            a[0] = 3

    def test_under_no_grad_the_same_write_goes_through(self):
        """The refusal above is grad mode's: under no_grad (as an optimizer's step, or test_000_ja's frozen weight)
        the same write to the same leaf goes through, in place, and the tensor stays a leaf that requires grad."""
        a = t([0.0, 1.0], requires_grad=True)
        where, version = memory(a), a._version
        program = "a = torch.tensor([0., 1.], requires_grad=True); with torch.no_grad(): a[0] = 3"
        with torch.no_grad():
            _, refused = attempt(lambda: a.__setitem__(0, 3))
        assert refused is None, f"`{program}`: expected the write to go through; observed {refused}"
        close(a.detach(), t([3.0, 1.0]))
        got = (memory(a) == where, a._version > version, a.is_leaf, a.requires_grad)
        assert got == (True, True, True, True), (
            f"`{program}`: expected (same memory, version bumped, is_leaf, requires_grad) all True; "
            f"observed {got}")

    def test_every_tensor_that_does_not_require_grad_is_a_leaf(self):
        a = t([1.0, 2.0])
        assert (a * 2).is_leaf

    def test_an_op_on_a_leaf_gives_a_non_leaf_and_the_leaf_stays_one(self):
        """The article says the tensor "is no longer a leaf" after an op on it: read of the tensor itself, that is
        false (w stays a leaf); what holds is that the op's result is not a leaf."""
        w = t([1.0, 2.0], requires_grad=True)
        y = w * 2
        assert w.is_leaf, "w = torch.tensor([1., 2.], requires_grad=True); y = w * 2: expected w.is_leaf True"
        assert not y.is_leaf, "w = torch.tensor([1., 2.], requires_grad=True); y = w * 2: expected y.is_leaf False"

    def test_only_leaves_get_grad_unless_retain_grad(self):
        w = t([1.0, 2.0], requires_grad=True)
        y = w * 2
        y.retain_grad()
        z = y * 3
        z.sum().backward()
        close(w.grad, t([6.0, 6.0])), close(y.grad, t([3.0, 3.0]))
        assert_no_grad("w = torch.tensor([1., 2.], requires_grad=True); y = w * 2; y.retain_grad(); z = y * 3; "
                       "z.sum().backward()", z=z)

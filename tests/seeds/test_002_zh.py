"""Article 002 (zh): clone, detach, .data and views, worked examples, pinned with its printed numbers.

The generic form of every claim is also a spec entry (docs/seed-claims.md); this keeps the article's own programs'
numbers honest.
"""
import warnings

import pytest
import torch

from copysuite.storage import shares_storage
from tests.seeds.helpers import assert_no_grad, close, t


class TestArticle002:
    def test_data_write_reaches_detach_not_clone(self):
        a = t(1.0, requires_grad=True)
        b = a.clone()
        c = a.detach()
        a.data *= 3
        b += 1
        close(a.detach(), t(3.0)), close(b.detach(), t(2.0)), close(c, t(3.0))
        assert type(b.grad_fn).__name__ == "AddBackward0"

    def test_id_differs_yet_memory_is_shared(self):
        a = t([1.0, 2.0], requires_grad=True)
        b = a.detach()
        assert id(a) != id(b) and shares_storage(a, b)

    def test_gradient_accumulates_through_clone_2_then_7(self):
        a = t(1.0, requires_grad=True)
        a_ = a.clone()
        y = a ** 2
        z = a ** 2 + a_ * 3
        y.backward()
        close(a.grad, t(2.0))
        z.backward()
        close(a.grad, t(7.0))
        # a clone passes gradient back but keeps none: a_ is on z's backward path and did not retain its gradient
        assert_no_grad("a = torch.tensor(1., requires_grad=True); a_ = a.clone(); y = a ** 2; z = a ** 2 + a_ * 3; "
                       "y.backward(); z.backward()", a_=a_)

    def test_linear_example(self):
        torch.manual_seed(0)
        x = t([1.0, 2.0], requires_grad=True)
        clone_x, detach_x, clone_detach_x = x.clone(), x.detach(), x.clone().detach()
        f = torch.nn.Linear(2, 1)
        f(x).backward()
        close(x.grad, f.weight.detach()[0])  # d(w.x + b)/dx = w
        # the article's printed gradient, from manual_seed(0): torch's default init gives the same numbers
        torch.testing.assert_close(x.grad, t([-0.0053, 0.3793]), rtol=0, atol=1e-4)
        # clone_x is not on f(x)'s backward path, so its None says nothing about clones (the 2-then-7 test does)
        assert_no_grad("torch.manual_seed(0); x = torch.tensor([1., 2.], requires_grad=True); clone_x = x.clone(); "
                       "f = torch.nn.Linear(2, 1); f(x).backward()", clone_x=clone_x)
        assert clone_x.requires_grad
        assert not detach_x.requires_grad and not clone_detach_x.requires_grad

    def test_requires_grad_on_a_clone_of_a_constant(self):
        a = t(1.0)
        a_ = a.clone()
        a_.requires_grad_()
        (a_ ** 2).backward()
        assert a.grad is None
        close(a_.grad, t(2.0))

    def test_view_shares_and_clone_view_does_not(self):
        x = torch.rand(2, 2)
        y = x.view(4)
        x += 1
        close(y, x.reshape(4))
        x = torch.rand(2, 2)
        x_cp = x.clone().view(4)
        before = x_cp.clone()
        x += 1
        close(x_cp, before)
        assert x_cp.shape == (4,)  # the article prints two brackets; the result is 1-d

    def test_reshape_may_copy(self):
        x = torch.rand(2, 3)
        assert shares_storage(x.reshape(6), x)
        assert not shares_storage(x.t().reshape(6), x)

    @pytest.mark.xfail(strict=True, reason="article 002's claim is false on every release of the matrix (1.13.1 "
                       "... 2.14.1): metadata changes on detach()/.data results are allowed (PR 13645 forbade them "
                       "before 1.13; PR 83590 proposed allowing them). Strict: if torch refuses again, this passes "
                       "and the run flags the change.")
    @pytest.mark.parametrize("alias", ["detach", "data"])
    @pytest.mark.parametrize("change", ["resize_", "transpose_", "set_"])
    def test_in_place_metadata_changes_on_detach_and_data_are_refused(self, alias, change):
        """The article: resize_/set_/transpose_ on these results raise an error or a warning."""
        x = torch.ones(2, 3, requires_grad=True)
        d = x.detach() if alias == "detach" else x.data
        do = {"resize_": lambda: d.resize_(6), "transpose_": lambda: d.transpose_(0, 1),
              "set_": lambda: d.set_(torch.ones(6).untyped_storage())}[change]
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a warning counts as the article's "or a warning"
            with pytest.raises((RuntimeError, Warning)):
                do()

    def test_data_hides_in_place_change_detach_reports_it(self):
        a = t([1.0, 2.0], requires_grad=True)
        out = a.sigmoid()
        out.detach().zero_()
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            out.sum().backward()
        a = t([1.0, 2.0], requires_grad=True)
        out = a.sigmoid()
        out.data.zero_()
        out.sum().backward()  # silently wrong: sigmoid's backward uses the zeroed output
        close(a.grad, t([0.0, 0.0]))

    def test_out_of_place_add_allocates(self):
        x, y = torch.ones(2), torch.ones(2)
        before = id(y)
        y = x + y
        assert id(y) != before

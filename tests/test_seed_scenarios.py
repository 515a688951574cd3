"""The worked examples of the four seed articles (../shared/seeds), pinned with their printed numbers.

Each test names its article (000 ja, 001 ko, 002 zh, 003 ko). The generic form of every claim is also a spec entry
(see docs/seed-claims.md); these tests keep the articles' exact programs' numbers honest. Examples the articles ran on
CUDA run on every available device: cuda is skipped with its reason where there is none.
"""
import copy
import warnings

import numpy as np
import pytest
import torch

from strategies.devices import device_skip_reason
from copysuite.storage import shares_storage

DEVICES = [pytest.param(d, marks=pytest.mark.skipif(device_skip_reason(d) is not None,
                                                     reason=f"{device_skip_reason(d)}")) for d in ("cpu", "cuda")]


def t(values, device="cpu", **kw):
    return torch.tensor(values, device=device, **kw)


def grad_of(x):
    """x.grad without the non-leaf access warning (it is None for a non-leaf that did not retain grad)."""
    return x.grad if (x.is_leaf or x.retains_grad) else None


def close(a, b):
    torch.testing.assert_close(a, b, rtol=0, atol=0, check_device=False)


@pytest.mark.parametrize("device", DEVICES)
class TestArticle000:
    def test_basic_graph(self, device):
        x, w, b = t([2.0], device), t([1.0], device, requires_grad=True), t([3.0], device, requires_grad=True)
        y = x * w + b
        y.backward()
        close(y.detach(), t([5.0], device))
        assert type(y.grad_fn).__name__ == "AddBackward0"
        assert x.grad is None and grad_of(y) is None
        close(w.grad, t([2.0], device)), close(b.grad, t([1.0], device))
        assert [v.requires_grad for v in (x, w, b, y)] == [False, True, True, True]
        assert [v.is_leaf for v in (x, w, b, y)] == [True, True, True, False]

    def test_detach_is_new_constant_sharing_values(self, device):
        w = t([1.0], device, requires_grad=True)
        z = w.detach()
        assert z.grad is None and z is not w and z.is_leaf and not z.requires_grad
        # the article prints tensor(1.): the shape is really kept, (1,)
        assert z.shape == w.shape == (1,)
        z[0] = 2
        close(w.detach(), t([2.0], device))

    def test_clone_sends_gradient_back(self, device):
        x, w, b = t([2.0], device), t([1.0], device, requires_grad=True), t([3.0], device, requires_grad=True)
        v = w.clone()
        y = x * v + b
        y.backward()
        close(y.detach(), t([5.0], device))
        close(w.grad, t([2.0], device)), close(b.grad, t([1.0], device))
        assert grad_of(v) is None and v is not w and not v.is_leaf and v.requires_grad
        # CloneBackward in the article's torch 1.9; CloneBackward0 since PR 64261 (specs/copies.yaml gates it)
        assert type(v.grad_fn).__name__ == "CloneBackward0"

    def test_clone_does_not_share_values(self, device):
        w = t([1.0], device, requires_grad=True)
        v = w.clone()
        v[0] = 7.0
        close(w.detach(), t([1.0], device)), close(v.detach(), t([7.0], device))
        assert type(v.grad_fn).__name__ == "CopySlices"

    def test_retain_grad_on_clone_gradient_adds_up_to_3(self, device):
        x, w = t([2.0], device), t([1.0], device, requires_grad=True)
        v = w.clone()
        v.retain_grad()
        y = x * w + v
        y.backward()
        close(y.detach(), t([3.0], device))
        close(w.grad, t([3.0], device)), close(v.grad, t([1.0], device))
        assert x.grad is None and grad_of(y) is None

    def test_cpu_copy_keeps_the_graph(self, device):
        x, w, b = t([2.0], device), t([1.0], device, requires_grad=True), t([3.0], device, requires_grad=True)
        y = x * w + b
        y.retain_grad()
        z = y.cpu()
        z.retain_grad()
        v, c = t([7.0], requires_grad=True), t([4.0], requires_grad=True)
        f = v * z + c
        f.backward()
        close(f.detach(), t([39.0]))
        for got, want in ((w.grad, 14.0), (b.grad, 7.0), (y.grad, 7.0), (z.grad, 7.0), (v.grad, 5.0), (c.grad, 1.0)):
            close(got, t([want], got.device))
        assert x.grad is None and grad_of(f) is None
        assert [s.is_leaf for s in (z, v, c, f)] == [False, True, True, False]
        assert all(s.requires_grad for s in (z, v, c, f))
        if device == "cpu":  # already on the CPU: cpu() returns the tensor itself
            assert z is y
        else:
            assert z is not y and type(z.grad_fn).__name__ == "ToCopyBackward0"  # CopyBackwards in torch 1.9

    def test_cpu_copy_from_device_does_not_share(self, device):
        w = t([1.0], device, requires_grad=True)
        v = w.cpu()
        if device == "cpu":
            assert v is w
            return
        v[0] = 7.0
        close(w.detach(), t([1.0], device)), close(v.detach(), t([7.0]))

    def test_numpy_refusals(self, device):
        w = t([1.0], device, requires_grad=True)
        with pytest.raises(RuntimeError, match=r"Can't call numpy\(\) on Tensor that requires grad"):
            (w if device == "cpu" else w.cpu()).numpy()
        if device != "cpu":
            with pytest.raises(TypeError, match=r"can't convert cuda:0 device type tensor to numpy"):
                w.detach().numpy()

    def test_numpy_shares_values(self, device):
        x = t([2.0])
        z = x.numpy()
        z[0] = 7.0
        close(x, t([7.0]))
        assert z.tolist() == [7.0]

    def test_detach_clone_is_independent(self, device):
        w = t([1.0], device, requires_grad=True)
        z = w.detach()
        s = z.clone()
        assert s.grad is None and s is not z and s.is_leaf and z.is_leaf
        assert not shares_storage(s, w)

    def test_clone_detach_is_independent(self, device):
        x, w, b = t([2.0], device), t([4.0], device, requires_grad=True), t([3.0], device, requires_grad=True)
        v = w.clone()
        z = v.detach()
        y = x * v + b
        y.backward()
        tt, c = t([7.0], device, requires_grad=True), t([9.0], device, requires_grad=True)
        u = z * tt + c
        u.backward()
        close(y.detach(), t([11.0], device)), close(u.detach(), t([37.0], device))
        close(w.grad, t([2.0], device)), close(b.grad, t([1.0], device))
        close(tt.grad, t([4.0], device)), close(c.grad, t([1.0], device))
        assert grad_of(v) is None and z.grad is None and not shares_storage(z, w)

    def test_detach_freezes_a_shared_weight(self, device):
        """TIPS3: z = w.detach() sees w's updates but gets no gradient from network B."""
        x, w, b = t([2.0], device), t([4.0], device, requires_grad=True), t([3.0], device, requires_grad=True)
        z = w.detach()
        (x * w + b).backward()
        tt, c = t([7.0], device, requires_grad=True), t([9.0], device, requires_grad=True)
        (z * tt + c).backward()
        close(w.grad, t([2.0], device)), close(tt.grad, t([4.0], device))
        with torch.no_grad():
            w -= 1.0  # an optimizer step on network A
        close(z, t([3.0], device))
        assert z.grad is None

    def test_independent_ndarray_idioms(self, device):
        a = torch.randn(16, device=device)
        shared = a.detach().cpu().numpy() if device == "cpu" else None
        if shared is not None:
            assert shares_storage(shared, a)
        for idiom in (lambda a: a.detach().cpu().numpy().copy(), lambda a: a.clone().detach().cpu().numpy(),
                      lambda a: a.detach().clone().cpu().numpy()):
            arr = idiom(a)
            assert not shares_storage(arr, a)
            np.testing.assert_array_equal(arr, a.cpu().numpy())
        with pytest.raises(RuntimeError, match="requires grad"):
            torch.ones(2, requires_grad=True).clone().numpy()

    def test_five_copy_idioms_agree(self, device):
        x = torch.randn(8, device=device, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            copies = [x.new_tensor(x), x.clone().detach(), torch.empty_like(x).copy_(x), torch.tensor(x),
                      x.detach().clone()]
        for i, y in enumerate(copies):
            close(y.detach(), x.detach())
            assert not shares_storage(y, x)
            # empty_like().copy_() is the odd one: copy_ records the copy, so it stays in x's graph
            assert y.requires_grad == (i == 2)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            y = x.new_tensor(x, requires_grad=True)
        assert y.is_leaf and y.requires_grad and not shares_storage(y, x)


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
        assert grad_of(a_) is None
        close(a.grad, t(7.0))

    def test_linear_example(self):
        torch.manual_seed(0)
        x = t([1.0, 2.0], requires_grad=True)
        clone_x, detach_x, clone_detach_x = x.clone(), x.detach(), x.clone().detach()
        f = torch.nn.Linear(2, 1)
        f(x).backward()
        close(x.grad, f.weight.detach()[0])  # d(w.x + b)/dx = w
        # the article's printed gradient, from manual_seed(0): torch's default init gives the same numbers
        torch.testing.assert_close(x.grad, t([-0.0053, 0.3793]), rtol=0, atol=1e-4)
        assert clone_x.requires_grad and grad_of(clone_x) is None
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


class TestArticle003:
    def test_cpu_returns_self_on_cpu(self):
        x = torch.ones(2)
        assert x.cpu() is x

    def test_numpy_shares_storage(self):
        emb_t = torch.Tensor(np.ones((2, 2)))  # float64 ndarray -> float32 tensor: a copy
        assert emb_t.dtype == torch.float32
        emb_np = emb_t.numpy()
        emb_t.add_(1)
        np.testing.assert_array_equal(emb_np, np.full((2, 2), 2.0, dtype=np.float32))

    def test_data_is_unrelated_to_history(self):
        x = torch.ones(2, requires_grad=True)
        y = x * 2
        assert not y.data.requires_grad and y.data.grad_fn is None and shares_storage(y.data, y)

    def test_detach_cpu_and_cpu_detach_agree(self):
        x = torch.randn(3, requires_grad=True)
        a, b = x.detach().cpu(), x.cpu().detach()
        close(a, b)
        assert not a.requires_grad and not b.requires_grad
        np.testing.assert_array_equal(x.detach().cpu().numpy(), x.cpu().data.numpy())


def test_deepcopy_of_non_leaf_is_refused():
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="Only Tensors created explicitly by the user"):
        copy.deepcopy(x * 2)

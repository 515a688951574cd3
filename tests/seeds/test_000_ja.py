"""Article 000 (ja): detach, clone, cpu and numpy, worked examples, pinned with its printed numbers.

The generic form of every claim is also a spec entry (docs/seed-claims.md); this keeps the article's own programs'
numbers honest. Examples the article ran on CUDA run on every available device: cuda is skipped with its
reason where there is none.
"""
import warnings

import numpy as np
import pytest
import torch
from packaging.version import Version

from copysuite.run.storage import shares_storage
from copysuite.spec.expectations import release_of
from tests.seeds.helpers import CUDA_ONLY, DEVICES, assert_grad_fn, assert_no_grad, attempt, close, t

BASIC = "x, w, b = torch.tensor([2.]), torch.tensor([1.], requires_grad=True), torch.tensor([3.], requires_grad=True)"


def xwb(device):
    """The article's x, w and b on `device` (BASIC)."""
    return t([2.0], device), t([1.0], device, requires_grad=True), t([3.0], device, requires_grad=True)


def write_into_a_cpu_copy(device):
    """000: v = w.cpu() of a w on another device is a copy; v[0] = 7 leaves w at 1 and gives v the grad_fn
    CopySlices, the write recorded over the copy. tests/seeds/test_faults.py runs it on the CPU with cpu() made to
    copy as from a device, and shows each assertion failing under a fault."""
    w = t([1.0], device, requires_grad=True)
    v = w.cpu()
    program = f"w = torch.tensor([1.], device={device!r}, requires_grad=True); v = w.cpu(); v[0] = 7."
    assert v is not w and not shares_storage(v, w), f"`{program}`: expected v a copy of w in other memory"
    v[0] = 7.0
    close(w.detach(), t([1.0], device)), close(v.detach(), t([7.0]))
    assert_grad_fn(v, "CopySlices", program)


@pytest.mark.parametrize("device", DEVICES)
class TestArticle000:
    def test_basic_graph(self, device):
        x, w, b = xwb(device)
        y = x * w + b
        y.backward()
        close(y.detach(), t([5.0], device))
        assert type(y.grad_fn).__name__ == "AddBackward0"
        assert_no_grad(f"{BASIC} on {device}; y.backward()", x=x, y=y)  # printed: None, None
        close(w.grad, t([2.0], device)), close(b.grad, t([1.0], device))
        assert [v.requires_grad for v in (x, w, b, y)] == [False, True, True, True]
        assert [v.is_leaf for v in (x, w, b, y)] == [True, True, True, False]

    def test_detach_is_new_constant_sharing_values(self, device):
        """As in the article, backward runs first: w holds a gradient when it is detached, so "z.grad None" says
        that detach() leaves the gradient behind (tests/seeds/test_faults.py: a detach() that copies it fails)."""
        x, w, b = xwb(device)
        (x * w + b).backward()
        z = w.detach()
        close(w.grad, t([2.0], device))
        assert_no_grad(f"{BASIC} on {device}; (x * w + b).backward(); z = w.detach()", z=z)
        assert z is not w and z.is_leaf and not z.requires_grad
        # the article prints tensor(1.): the shape is really kept, (1,)
        assert z.shape == w.shape == (1,)
        z[0] = 2
        close(w.detach(), t([2.0], device))

    def test_clone_sends_gradient_back(self, device):
        x, w, b = xwb(device)
        v = w.clone()
        y = x * v + b
        y.backward()
        close(y.detach(), t([5.0], device))
        close(w.grad, t([2.0], device)), close(b.grad, t([1.0], device))
        assert_no_grad(f"{BASIC} on {device}; v = w.clone(); y = x * v + b; y.backward()", x=x, v=v, y=y)
        assert v is not w and not v.is_leaf and v.requires_grad
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
        assert_no_grad(f"{BASIC} on {device}; v = w.clone(); v.retain_grad(); y = x * w + v; y.backward()", x=x, y=y)

    def test_cpu_copy_keeps_the_graph(self, device):
        x, w, b = xwb(device)
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
        assert_no_grad(f"{BASIC} on {device}; y = x * w + b; y.retain_grad(); z = y.cpu(); z.retain_grad(); "
                       "v, c = [7.] and [4.] on the CPU, requiring grad; f = v * z + c; f.backward()", x=x, f=f)
        assert [s.is_leaf for s in (z, v, c, f)] == [False, True, True, False]
        assert all(s.requires_grad for s in (z, v, c, f))
        if device == "cpu":  # already on the CPU: cpu() returns the tensor itself
            assert z is y
        else:
            assert z is not y and type(z.grad_fn).__name__ == "ToCopyBackward0"  # CopyBackwards in torch 1.9

    def test_cpu_copy_from_device_does_not_share(self, device):
        if device == "cpu":  # already on the CPU: cpu() returns the tensor itself (003), so no copy to write into
            w = t([1.0], requires_grad=True)
            assert w.cpu() is w
            return
        write_into_a_cpu_copy(device)

    def test_numpy_refusals(self, device):
        w = t([1.0], device, requires_grad=True)
        with pytest.raises(RuntimeError, match=r"Can't call numpy\(\) on Tensor that requires grad"):
            (w if device == "cpu" else w.cpu()).numpy()
        if device != "cpu":
            with pytest.raises(TypeError, match=r"can't convert cuda:0 device type tensor to numpy"):
                w.detach().numpy()
            # 000's memory question names x.detach().clone().numpy(): on a CUDA tensor that raises too
            with pytest.raises(TypeError, match=r"can't convert cuda:0 device type tensor to numpy"):
                w.detach().clone().numpy()

    def test_numpy_shares_values(self, device):
        x = t([2.0])
        z = x.numpy()
        z[0] = 7.0
        close(x, t([7.0]))
        assert z.tolist() == [7.0]

    def test_detach_clone_is_independent(self, device):
        """Backward first, as in the article, so that w has a gradient that z and s must not carry."""
        x, w, b = xwb(device)
        (x * w + b).backward()
        z = w.detach()
        s = z.clone()
        close(w.grad, t([2.0], device))
        assert_no_grad(f"{BASIC} on {device}; (x * w + b).backward(); z = w.detach(); s = z.clone()", z=z, s=s)
        assert s is not z and s.is_leaf and z.is_leaf
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
        assert_no_grad(f"x, w, b = [2.], [4.] and [3.] (w, b requiring grad) on {device}; v = w.clone(); "
                       "z = v.detach(); y = x * v + b; y.backward(); t, c = [7.], [9.] requiring grad; u = z * t + c; "
                       "u.backward()", x=x, y=y, v=v, z=z, u=u)  # printed: None for each
        assert not shares_storage(z, w)

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


@CUDA_ONLY
def test_a_zero_dim_cpu_tensor_combines_with_a_cuda_tensor():
    """The article's "tensors on different devices cannot be combined" has one exception: a 0-dim CPU tensor is a
    CPU scalar, which binary ops take beside CUDA tensors (TensorIterator's allow_cpu_scalars, the default of its
    binary ops; aten/src/ATen/native/cuda/Loops.cuh, gpu_kernel_with_scalars). The result is on the GPU, and the
    gradient comes back to the CPU scalar."""
    x, w, b = xwb("cuda")
    y = x * w + b
    v = torch.tensor(7.0, requires_grad=True)   # 0-dim, on the CPU
    program = f"{BASIC} on cuda; y = x * w + b; v = torch.tensor(7., requires_grad=True); f = v * y; f.backward()"
    f = v * y
    assert f.device.type == "cuda", f"`{program}`: expected f on cuda; observed {f.device}"
    f.backward()
    close(f.detach(), t([35.0], "cuda")), close(w.grad, t([14.0], "cuda")), close(v.grad, torch.tensor(5.0))
    assert v.grad.device.type == "cpu", f"`{program}`: expected v.grad on the CPU; observed {v.grad.device}"


@CUDA_ONLY
def test_devices_do_not_mix_in_one_op_yet_backward_crosses_them():
    """The article: tensors on different devices cannot be combined in one op, yet backward runs across devices."""
    x, w, b = xwb("cuda")
    y = x * w + b
    v = t([7.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
        v * y  # a (1,) CPU tensor times a (1,) CUDA tensor
    f = v * y.cpu()
    f.backward()
    close(w.grad, t([14.0], "cuda")), close(b.grad, t([7.0], "cuda")), close(v.grad, t([5.0]))
    assert w.grad.device.type == "cuda", \
        f"{BASIC} on cuda; f = v * (x * w + b).cpu(); f.backward(): w.grad on {w.grad.device}"


LAZY = {  # a tensor carrying each lazy bit, as code run by eval, so a message prints what ran (conj().imag: neg)
    "conj": "torch.tensor([1 + 2j, 3 - 4j]).conj()", "neg": "torch.tensor([1 + 2j, 3 - 4j]).conj().imag"}
KEY = {"conj": "Conjugate", "neg": "Negative"}


@pytest.mark.parametrize("kw", ["", "requires_grad=True"])
@pytest.mark.parametrize("bit", LAZY)
def test_new_tensor_refusal_follows_the_receiver_not_the_data(bit, kw):
    """TIPS2 quotes the docs: tensor.new_tensor(x) equals x.clone().detach() (with requires_grad=True, followed by
    requires_grad_(True)). A lazy bit on the data is no obstacle, copied and resolved as clone().detach() does; on
    the receiver it is: new_tensor takes the new tensor's options from the receiver's dispatch keys, where Conjugate
    and Negative name no device (docs/upstream-reports/new_tensor_lazy_bits.py)."""
    lazy = eval(LAZY[bit])
    assert getattr(lazy, f"is_{bit}")(), f"{LAZY[bit]}: the input lacks the {bit} bit, so this proves nothing"
    plain = torch.zeros(2, dtype=lazy.dtype)
    setup = f"lazy = {LAZY[bit]}; plain = torch.zeros(2, dtype={lazy.dtype})"
    kwargs = {"requires_grad": True} if kw else {}
    with warnings.catch_warnings():  # new_tensor(tensor) warns that clone().detach() is recommended
        warnings.simplefilter("ignore", UserWarning)
        copied, refused = attempt(lambda: plain.new_tensor(lazy, **kwargs))
        _, receiver_refused = attempt(lambda: lazy.new_tensor(plain, **kwargs))
    program = f"{setup}; plain.new_tensor(lazy{', ' + kw if kw else ''})"
    assert refused is None, f"`{program}`: expected a copy; observed {refused}"
    close(copied.detach(), lazy.clone().detach())
    got = (copied.is_conj(), copied.is_neg(), shares_storage(copied, lazy), copied.is_leaf, copied.requires_grad)
    assert got == (False, False, False, True, bool(kw)), (
        f"`{program}`: expected (is_conj, is_neg, shares_storage, is_leaf, requires_grad) = "
        f"(False, False, False, True, {bool(kw)}); observed {got}")
    program = f"{setup}; lazy.new_tensor(plain{', ' + kw if kw else ''})"
    want = f"DispatchKey {KEY[bit]} doesn't correspond to a device"
    assert receiver_refused is not None and want in receiver_refused, (
        f"`{program}`: expected RuntimeError: {want}; observed {receiver_refused or 'a result'}")


@pytest.mark.parametrize("device", [*DEVICES, "meta"])
def test_new_tensor_takes_the_receivers_dtype_and_device(device):
    """So tensor.new_tensor(x) equals x.clone().detach() only where tensor has x's dtype and device. Before 2.7 a
    tensor x kept its own device against the docs (issue 73838, a side effect of PR 41984; PR 144958 restored the
    receiver's in 2.7): there x's device (the CPU) is the one expected."""
    receiver, x = torch.zeros((), dtype=torch.float64, device=device), t([1, 2], dtype=torch.int32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        y = receiver.new_tensor(x)
    program = (f"torch.zeros((), dtype=torch.float64, device={device!r})"
               ".new_tensor(torch.tensor([1, 2], dtype=torch.int32))")
    expected = device   # https://github.com/pytorch/pytorch/pull/144958
    if release_of(torch.__version__) < Version("2.7"):
        expected = x.device.type
    assert (y.dtype, y.device.type) == (torch.float64, expected), (
        f"`{program}`: expected dtype torch.float64 on {expected}; observed {y.dtype} on {y.device}")
    if y.device.type != "meta":
        close(y, t([1.0, 2.0], dtype=torch.float64))

"""The seed scenarios can fail: each fault below makes torch behave otherwise than a scenario says, and the scenario,
run under it, must fail (an AssertionError, or pytest's failure where a pytest.raises sees nothing raised); run
without it, it passes: the scenario modules run it plainly."""
import contextlib
from unittest import mock

import pytest
import torch

# the modules, not their classes: pytest would collect the classes here once more
from tests.seeds import test_000_ja, test_001_ko, test_002_zh

_detach = torch.Tensor.detach
_setitem = torch.Tensor.__setitem__
_new_tensor = torch.Tensor.new_tensor
_to = torch.Tensor.to
_resize = torch.Tensor.resize_
_clone = torch.Tensor.clone


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


def setitem_unrecorded(self, key, value):
    """Indexed assignment that autograd neither checks nor records, in every grad mode."""
    with torch.no_grad():
        _setitem(self, key, value)


def setitem_refused_on_any_leaf(self, key, value):
    """Indexed assignment refused on a leaf that requires grad in every grad mode, no_grad included."""
    if self.is_leaf and self.requires_grad:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    _setitem(self, key, value)


def cpu_copying(self, *args, **kwargs):
    """cpu() that copies, as it does from a CUDA tensor: the CPU stand-in for 000's cpu() of a device tensor."""
    return _to(self, "cpu", copy=True)


def new_tensor_refused_by_the_data(self, data, **kwargs):
    """new_tensor refused when the data carries a lazy bit, whatever the receiver (never refused for it)."""
    if isinstance(data, torch.Tensor) and (data.is_conj() or data.is_neg()):
        key = "Conjugate" if data.is_conj() else "Negative"
        raise RuntimeError(f"DispatchKey {key} doesn't correspond to a device")
    return _new_tensor(torch.empty((), dtype=self.dtype, device=self.device), data, **kwargs)


def new_tensor_resolving_the_receiver(self, data, **kwargs):
    """new_tensor that resolves the receiver's lazy bits first, so no receiver is refused."""
    return _new_tensor(self.resolve_conj().resolve_neg(), data, **kwargs)


def new_tensor_after_the_data(self, data, **kwargs):
    """new_tensor whose result takes a tensor data's dtype and device instead of the receiver's."""
    if isinstance(data, torch.Tensor):
        kwargs = {"dtype": data.dtype, "device": data.device, **kwargs}
    return _new_tensor(self, data, **kwargs)


def resize_refused_in_every_mode(self, *size, **kwargs):
    """resize_ refused on a tensor that requires grad in every grad mode, inference_mode included."""
    if self.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    return _resize(self, *size, **kwargs)


def resize_unchecked_without_grad_mode(self, *size, **kwargs):
    """resize_ that skips autograd's check whenever grad mode is off, no_grad included."""
    if torch.is_grad_enabled():
        return _resize(self, *size, **kwargs)
    with torch.inference_mode():
        return _resize(self, *size, **kwargs)


def clone_recorded_in_every_mode(self, *args, **kwargs):
    """clone() that records its history whatever the grad mode, no_grad included."""
    with torch.enable_grad():
        return _clone(self, *args, **kwargs)


def patched(name, fn):
    return lambda: mock.patch.object(torch.Tensor, name, fn)


def both(*injects):
    """The faults of `injects` at once."""
    @contextlib.contextmanager
    def inject():
        with contextlib.ExitStack() as stack:
            for one in injects:
                stack.enter_context(one())
            yield
    return inject


A000, A001, A002 = test_000_ja.TestArticle000(), test_001_ko.TestArticle001(), test_002_zh.TestArticle002()
REFUSAL, DTYPE = (test_000_ja.test_new_tensor_refusal_follows_the_receiver_not_the_data,
                  test_000_ja.test_new_tensor_takes_the_receivers_dtype_and_device)
FAULTS = {
    "detach copies the gradient (000: detach)": (
        patched("detach", detach_copying_grad), lambda: A000.test_detach_is_new_constant_sharing_values("cpu")),
    "detach copies the gradient (000: detach().clone())": (
        patched("detach", detach_copying_grad), lambda: A000.test_detach_clone_is_independent("cpu")),
    "cpu() of a device tensor returns it (000: cpu() does not share)": (
        contextlib.nullcontext, lambda: test_000_ja.write_into_a_cpu_copy("cpu")),
    "the write into cpu()'s copy is unrecorded (000: CopySlices)": (
        both(patched("cpu", cpu_copying), patched("__setitem__", setitem_unrecorded)),
        lambda: test_000_ja.write_into_a_cpu_copy("cpu")),
    "new_tensor refused by the data's bit (000: new_tensor, conj)": (
        patched("new_tensor", new_tensor_refused_by_the_data), lambda: REFUSAL("conj", "")),
    "new_tensor refused by the data's bit (000: new_tensor, neg, requires_grad)": (
        patched("new_tensor", new_tensor_refused_by_the_data), lambda: REFUSAL("neg", "requires_grad=True")),
    "new_tensor accepts a receiver with a bit (000: new_tensor, conj)": (
        patched("new_tensor", new_tensor_resolving_the_receiver), lambda: REFUSAL("conj", "")),
    "new_tensor takes the data's dtype (000: new_tensor on cpu)": (
        patched("new_tensor", new_tensor_after_the_data), lambda: DTYPE("cpu")),
    "new_tensor takes the data's device (000: new_tensor on meta)": (
        patched("new_tensor", new_tensor_after_the_data), lambda: DTYPE("meta")),
    "elements 8 bytes apart (001: addresses)": (
        lambda: default_dtype(torch.float64), lambda: A001.test_detach_shares_every_element_address()),
    "clone records its history under no_grad (001: clone keeps the history)": (
        patched("clone", clone_recorded_in_every_mode), lambda: A001.test_under_no_grad_a_clone_keeps_no_history()),
    "in-place on a leaf goes through in grad mode (001: refused)": (
        patched("__setitem__", setitem_unrecorded),
        lambda: A001.test_in_place_on_a_leaf_that_requires_grad_is_refused()),
    "in-place on a leaf refused under no_grad too (001: no_grad goes through)": (
        patched("__setitem__", setitem_refused_on_any_leaf),
        lambda: A001.test_under_no_grad_the_same_write_goes_through()),
    "setitem writes into new memory (001: no_grad goes through, in place)": (
        patched("__setitem__", setitem_in_new_memory),
        lambda: A001.test_under_no_grad_the_same_write_goes_through()),
    "resize_ refused under inference_mode too (002: resize_ of a clone)": (
        patched("resize_", resize_refused_in_every_mode),
        lambda: A002.test_only_inference_mode_lets_a_clone_that_requires_grad_be_resized("resize_")),
    "resize_ unchecked under no_grad (002: resize_ of a clone)": (
        patched("resize_", resize_unchecked_without_grad_mode),
        lambda: A002.test_only_inference_mode_lets_a_clone_that_requires_grad_be_resized("resize_")),
    "setitem writes into new memory (002: b = a)": (
        patched("__setitem__", setitem_in_new_memory), lambda: A002.test_assignment_aliases()),
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
    with inject(), pytest.raises((AssertionError, pytest.fail.Exception)) as failure:
        scenario()
    print(f"{name}: {failure.typename}: {str(failure.value).splitlines()[0]}")


def test_the_cpu_stand_in_runs_000s_device_copy_as_written():
    """The stand-in alone keeps the CUDA scenario's every assertion true on the CPU, so a failure above under the
    stand-in and a fault is the fault's."""
    with patched("cpu", cpu_copying)():
        test_000_ja.write_into_a_cpu_copy("cpu")

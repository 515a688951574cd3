"""Faults in the promises of specs/conversions.yaml: numpy interop, Python values, devices and dtypes. Each breaks one
promise the way a regression in torch would."""
from __future__ import annotations

import numpy as np
import torch

from tests.faults import original
from tests.faults.fault import fault


@fault("numpy_copies", "Tensor.numpy() returns a copy (same layout) instead of an array over the tensor's memory",
       entries=["numpy"], expected=[("numpy", "shares_storage"), ("numpy", "writes_through")])
def _():
    def numpy(self, *args, **kwargs):
        return original.numpy(self, *args, **kwargs).copy(order="K")
    return [(original.T, "numpy", numpy)]


# `numpy` and `clone.numpy` draw a source that requires grad in grad mode in few examples (clone.numpy missed it at
# 10), hence the spec entry numpy:grad_source
@fault("numpy_allows_requires_grad", "Tensor.numpy() accepts a tensor that requires grad (it detaches silently "
       "instead of raising)", entries=["numpy", "numpy:grad_source", "clone.numpy"],
       expected=[("numpy:grad_source", "raises")])
def _():
    def numpy(self, *args, **kwargs):
        return original.numpy(original.detach(self) if self.requires_grad else self, *args, **kwargs)
    return [(original.T, "numpy", numpy)]


@fault("from_numpy_copies", "torch.from_numpy() copies the array instead of sharing its memory",
       entries=["numpy.from_numpy"],
       expected=[("numpy.from_numpy", "shares_storage"), ("numpy.from_numpy", "writes_through")])
def _():
    def from_numpy(array):
        return original.from_numpy(np.array(array, copy=True, order="K"))
    return [(torch, "from_numpy", from_numpy)]


@fault("array_protocol_copies", "Tensor.__array__ returns a copy (same layout): np.asarray(t) no longer shares the "
       "tensor's memory", entries=["numpy.asarray"],
       expected=[("numpy.asarray", "shares_storage"), ("numpy.asarray", "writes_through")])
def _():
    def __array__(self, dtype=None):  # the real signature: NumPy 2's retry without `copy` still happens
        return original.array(self, dtype).copy(order="K")
    return [(original.T, "__array__", __array__)]


@fault("item_int_as_float", "Tensor.item() of an integer or bool tensor returns a Python float (equal in value) "
       "instead of an int or bool", entries=["item"], expected=[("item", "python_type")])
def _():
    def item(self):
        value = original.item(self)
        return float(value) if isinstance(value, (int, bool)) else value
    return [(original.T, "item", item)]


@fault("cpu_copies", "cpu() on a CPU tensor returns a copy instead of the tensor itself", entries=["cpu", "detach.cpu"],
       expected=[("cpu", "same_object"), ("cpu", "shares_storage"), ("detach.cpu", "shares_storage")])
def _():
    return [(original.T, "cpu", original.copying(original.cpu))]


@fault("double_copies_same_dtype", "double() on a float64 tensor returns a copy instead of the tensor itself",
       entries=["double:same_dtype", "double"],
       expected=[("double:same_dtype", "same_object"), ("double:same_dtype", "shares_storage")])
def _():
    return [(original.T, "double", original.copying(original.double))]


# `new_tensor` alone caught it only by grad_to_source: at 20 examples it drew no source that requires grad in grad
# mode for requires_grad/grad_fn/is_leaf, hence the spec entry new_tensor:grad_source
@fault("new_tensor_keeps_graph", "x.new_tensor(x) keeps x's graph (it returns x.clone()) instead of a detached leaf",
       entries=["new_tensor", "new_tensor:grad_source"],
       expected=[("new_tensor:grad_source", "requires_grad"), ("new_tensor:grad_source", "grad_fn"),
                 ("new_tensor:grad_source", "is_leaf"), ("new_tensor", "grad_to_source")])
def _():
    def new_tensor(self, data, *args, **kwargs):
        out = original.new_tensor(self, data, *args, **kwargs)  # also emits the real warning
        if (isinstance(data, torch.Tensor) and not args and not kwargs and data.requires_grad
                and original.is_grad_enabled()):
            return original.clone(data)
        return out
    return [(original.T, "new_tensor", new_tensor)]


@fault("new_tensor_mutates_source", "x.new_tensor(x) 'moves' the data: after copying it zeroes x in place",
       entries=["new_tensor"], expected=[("new_tensor", "source_untouched")])
def _():
    def new_tensor(self, data, *args, **kwargs):
        out = original.new_tensor(self, data, *args, **kwargs)
        if isinstance(data, torch.Tensor):
            with original.write_context(data):
                original.zero_(original.writable_part(data))
        return out
    return [(original.T, "new_tensor", new_tensor)]


# nn.Parameter has its own __deepcopy__, so Parameter sources are not affected
@fault("deepcopy_shares_storage", "copy.deepcopy of a tensor returns an alias of its memory (keeping requires_grad)",
       entries=["copy.deepcopy"], expected=[("copy.deepcopy", "shares_storage"), ("copy.deepcopy", "writes_through")])
def _():
    def __deepcopy__(self, memo):
        if not self.is_leaf:
            return original.deepcopy(self, memo)  # keeps the real error
        if id(self) in memo:
            return memo[id(self)]
        out = original.detach(self)
        if self.requires_grad:
            original.requires_grad_(out)
        memo[id(self)] = out
        return out
    return [(original.T, "__deepcopy__", __deepcopy__)]


@fault("as_tensor_copies", "torch.as_tensor(t) copies a tensor that already has the requested dtype and device",
       entries=["torch.as_tensor"],
       expected=[("torch.as_tensor", "same_object"), ("torch.as_tensor", "shares_storage")])
def _():
    return [(torch, "as_tensor", original.copying(original.as_tensor))]


@fault("asarray_ignores_copy", "torch.asarray(t, copy=True) shares memory (copy=True treated as copy=None)",
       entries=["torch.asarray:copy_true"],
       expected=[("torch.asarray:copy_true", "shares_storage"), ("torch.asarray:copy_true", "same_object")])
def _():
    def asarray(obj, *args, **kwargs):
        if kwargs.get("copy") is True:
            kwargs = {**kwargs, "copy": None}
        return original.asarray(obj, *args, **kwargs)
    return [(torch, "asarray", asarray)]

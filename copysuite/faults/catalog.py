"""The catalog of semantic faults: small patches of torch's Python-visible behaviour, each breaking one promise the
specs state (clone copies, detach aliases, numpy() shares memory, ...) the way a regression in torch would.

Each entry names the spec entries its session runs and the (entry, check) pairs that must catch it; see
copysuite/faults/fault.py for what a fault is and docs/faults.md for the measured verdicts.
"""
from __future__ import annotations

import weakref

import numpy as np
import torch

from copysuite.executors import EXECUTORS
from copysuite.faults.fault import (
    _T, _array, _as_tensor, _asarray, _bump_version, _clone, _conj, _contiguous, _copying, _cpu, _data, _deepcopy,
    _detach, _double, _from_numpy, _is_grad_enabled, _item, _neg_view, _new_tensor, _numpy, _other_dtype,
    _register_hook, _requires_grad_, _reshape, _retain_grad, _ScaledClone, _to, _view, _view_as, _writable_part,
    _write_context, _zero_, fault,
)


# ---- clone ----------------------------------------------------------------------------------------------------------
@fault("clone_shares_storage", "clone() returns an alias of its source (a view) instead of a copy",
       entries=["clone"], expected=[("clone", "shares_storage"), ("clone", "writes_through")])
def _():
    def clone(self, *args, **kwargs):
        return _view_as(self, self)
    return [(_T, "clone", clone)]


# `clone` catches it by requires_grad and grad_fn only when it draws a source that requires grad in grad mode, which
# it did in 0 of 3 random runs at 4 examples: hence the spec entry clone:grad_source
@fault("clone_loses_graph", "clone() returns a detached copy: no grad_fn, no gradient back to the source",
       entries=["clone", "clone:grad_source"],
       expected=[("clone:grad_source", "requires_grad"), ("clone:grad_source", "grad_fn"),
                 ("clone:grad_source", "is_leaf"), ("clone", "grad_to_source")])
def _():
    def clone(self, *args, **kwargs):
        return _detach(_clone(self, *args, **kwargs))
    return [(_T, "clone", clone)]


@fault("clone_grad_scaled", "the gradient through clone() is doubled (a torch.autograd.Function whose node is "
       "still named CloneBackward0)", entries=["clone"], expected=[("clone", "grad_to_source")])
def _():
    def clone(self, *args, memory_format=torch.preserve_format):
        return _ScaledClone.apply(self, memory_format)
    return [(_T, "clone", clone)]


@fault("clone_grad_overwrites", "backward through clone() overwrites the source's .grad instead of accumulating "
       "into it (a hook on the source clears .grad first)", entries=["clone"],
       expected=[("clone", "grad_accumulates")])
def _():
    def clone(self, *args, **kwargs):
        out = _clone(self, *args, **kwargs)
        if self.is_leaf and self.requires_grad and _is_grad_enabled():
            ref = weakref.ref(self)

            def forget_grad(grad):
                src = ref()
                if src is not None:
                    src.grad = None
                return grad
            _register_hook(self, forget_grad)
        return out
    return [(_T, "clone", clone)]


# `clone` and `clone:preserve_format` state the same strides, but draw a transposed source in few examples: the fault
# went unnoticed there at 10 examples, hence the spec entry clone:dense
@fault("clone_strides_contiguous", "clone() ignores torch.preserve_format: every copy is C-contiguous",
       entries=["clone:dense"], expected=[("clone:dense", "strides")])
def _():
    def clone(self, *, memory_format=torch.preserve_format):
        if memory_format == torch.preserve_format:
            memory_format = torch.contiguous_format
        return _clone(self, memory_format=memory_format)
    return [(_T, "clone", clone)]


# `clone` catches it too, at 25 examples (it draws a conjugate bit only with the few complex dtypes): hence the spec
# entry clone:lazy_bits
@fault("clone_keeps_lazy_bits", "clone() carries a lazy conjugate or negative bit over to the copy instead of "
       "materializing it (same values, bit still set)", entries=["clone:lazy_bits"],
       expected=[("clone:lazy_bits", "is_conj"), ("clone:lazy_bits", "is_neg")])
def _():
    def clone(self, *args, **kwargs):
        if self.is_conj():
            return _conj(_clone(_conj(self), *args, **kwargs))
        if self.is_neg():
            return _neg_view(_clone(_neg_view(self), *args, **kwargs))
        return _clone(self, *args, **kwargs)
    return [(_T, "clone", clone)]


@fault("clone_changes_dtype", "clone() silently returns another dtype (float32 -> float64, int64 -> int32, ...), "
       "with the same values", entries=["clone"], expected=[("clone", "dtype")])
def _():
    def clone(self, *args, **kwargs):
        out = _clone(self, *args, **kwargs)
        return _to(out, _other_dtype(out.dtype))
    return [(_T, "clone", clone)]


@fault("clone_bumps_source_version", "clone() bumps its source's version counter (as if it had written to it), "
       "values untouched", entries=["clone"], expected=[("clone", "source_untouched")])
def _():
    def clone(self, *args, **kwargs):
        out = _clone(self, *args, **kwargs)
        _bump_version(self)
        return out
    return [(_T, "clone", clone)]


# ---- detach, detach_, .data -----------------------------------------------------------------------------------------
@fault("detach_copies", "detach() returns a copy (new storage, own version counter) instead of an alias",
       entries=["detach"], expected=[("detach", "shares_storage"), ("detach", "writes_through"),
                                 ("detach", "shares_version_counter")])
def _():
    def detach(self):
        return _clone(_detach(self))
    return [(_T, "detach", detach)]


@fault("detach_keeps_requires_grad", "detach() returns an alias that still requires grad (a new leaf)",
       entries=["detach"], expected=[("detach", "requires_grad")])
def _():
    def detach(self):
        out = _detach(self)
        if self.requires_grad:
            _requires_grad_(out)
        return out
    return [(_T, "detach", detach)]


@fault("detach_drops_version_counter", "detach() behaves like .data: same memory, but a version counter of its own, "
       "so autograd no longer sees writes made through it", entries=["detach", "detach.write_through_alias"],
       expected=[("detach", "shares_version_counter"), ("detach", "backward_sees_write"),
                 ("detach.write_through_alias", "shares_version_counter[b]")])
def _():
    def detach(self):
        return _data.__get__(self, type(self))
    return [(_T, "detach", detach)]


@fault("data_shares_version_counter", "`.data` behaves like detach(): it shares the source's version counter",
       entries=["data"], expected=[("data", "shares_version_counter"), ("data", "backward_sees_write")])
def _():
    return [(_T, "data", property(lambda self: _detach(self), lambda self, value: _data.__set__(self, value)))]


@fault("detach__out_of_place", "detach_() does not act in place: it returns a detached alias and leaves the tensor "
       "in the graph", entries=["detach_"], expected=[("detach_", "same_object"), ("detach_", "source_untouched")])
def _():
    def detach_(self):
        return _detach(self)
    return [(_T, "detach_", detach_)]


@fault("retain_grad_noop", "retain_grad() does nothing", entries=["retain_grad"],
       expected=[("retain_grad", "retains_grad"), ("retain_grad", "source_untouched")])
def _():
    def retain_grad(self):
        return None
    return [(_T, "retain_grad", retain_grad)]


@fault("retain_grad_returns_self", "retain_grad() works but returns the tensor instead of None (a chaining API)",
       entries=["retain_grad:returns"], expected=[("retain_grad:returns", "result_type")])
def _():
    def retain_grad(self):
        _retain_grad(self)
        return self
    return [(_T, "retain_grad", retain_grad)]


# ---- numpy interop --------------------------------------------------------------------------------------------------
@fault("numpy_copies", "Tensor.numpy() returns a copy (same layout) instead of an array over the tensor's memory",
       entries=["numpy"], expected=[("numpy", "shares_storage"), ("numpy", "writes_through")])
def _():
    def numpy(self, *args, **kwargs):
        return _numpy(self, *args, **kwargs).copy(order="K")
    return [(_T, "numpy", numpy)]


# `numpy` and `clone.numpy` draw a source that requires grad in grad mode in few examples (clone.numpy missed it at
# 10), hence the spec entry numpy:grad_source
@fault("numpy_allows_requires_grad", "Tensor.numpy() accepts a tensor that requires grad (it detaches silently "
       "instead of raising)", entries=["numpy", "numpy:grad_source", "clone.numpy"],
       expected=[("numpy:grad_source", "raises")])
def _():
    def numpy(self, *args, **kwargs):
        return _numpy(_detach(self) if self.requires_grad else self, *args, **kwargs)
    return [(_T, "numpy", numpy)]


@fault("from_numpy_copies", "torch.from_numpy() copies the array instead of sharing its memory",
       entries=["numpy.from_numpy"],
       expected=[("numpy.from_numpy", "shares_storage"), ("numpy.from_numpy", "writes_through")])
def _():
    def from_numpy(array):
        return _from_numpy(np.array(array, copy=True, order="K"))
    return [(torch, "from_numpy", from_numpy)]


@fault("array_protocol_copies", "Tensor.__array__ returns a copy (same layout): np.asarray(t) no longer shares the "
       "tensor's memory", entries=["numpy.asarray"],
       expected=[("numpy.asarray", "shares_storage"), ("numpy.asarray", "writes_through")])
def _():
    def __array__(self, dtype=None):  # the real signature: NumPy 2's retry without `copy` still happens
        return _array(self, dtype).copy(order="K")
    return [(_T, "__array__", __array__)]


# ---- Python values -------------------------------------------------------------------------------------------------
@fault("item_int_as_float", "Tensor.item() of an integer or bool tensor returns a Python float (equal in value) "
       "instead of an int or bool", entries=["item"], expected=[("item", "python_type")])
def _():
    def item(self):
        value = _item(self)
        return float(value) if isinstance(value, (int, bool)) else value
    return [(_T, "item", item)]


# ---- devices, dtypes, views, view-or-copy ---------------------------------------------------------------------------
@fault("cpu_copies", "cpu() on a CPU tensor returns a copy instead of the tensor itself", entries=["cpu", "detach.cpu"],
       expected=[("cpu", "same_object"), ("cpu", "shares_storage"), ("detach.cpu", "shares_storage")])
def _():
    return [(_T, "cpu", _copying(_cpu))]


@fault("double_copies_same_dtype", "double() on a float64 tensor returns a copy instead of the tensor itself",
       entries=["double:same_dtype", "double"],
       expected=[("double:same_dtype", "same_object"), ("double:same_dtype", "shares_storage")])
def _():
    return [(_T, "double", _copying(_double))]


@fault("view_copies", "Tensor.view() returns a copy (in the graph) instead of a view",
       entries=["view:flat"], expected=[("view:flat", "shares_storage"), ("view:flat", "writes_through"),
                                   ("view:flat", "autograd_view"), ("view:flat", "shares_version_counter")])
def _():
    def view(self, *args, **kwargs):
        return _clone(_view(self, *args, **kwargs))
    return [(_T, "view", view)]


@fault("reshape_always_copies", "reshape() copies even when the strides allow a view", entries=["reshape:flat"],
       expected=[("reshape:flat", "shares_storage"), ("reshape:flat", "autograd_view")],
       harness_contact=("strategies/cases.py:build",),
       contact_note="Case.build runs the printed input code, `source.copy_(flat.reshape(shape))`, to fill the "
                    "input: it only reads the reshaped values, so an extra copy changes nothing")
def _():
    def reshape(self, *args, **kwargs):
        return _clone(_reshape(self, *args, **kwargs))
    return [(_T, "reshape", reshape)]


@fault("contiguous_always_copies", "contiguous() copies a tensor that is already contiguous instead of returning it",
       entries=["contiguous"], expected=[("contiguous", "same_object"), ("contiguous", "shares_storage")])
def _():
    return [(_T, "contiguous", _copying(_contiguous))]


# ---- constructors and copies ----------------------------------------------------------------------------------------
# `new_tensor` alone caught it only by grad_to_source: at 20 examples it drew no source that requires grad in grad
# mode for requires_grad/grad_fn/is_leaf, hence the spec entry new_tensor:grad_source
@fault("new_tensor_keeps_graph", "x.new_tensor(x) keeps x's graph (it returns x.clone()) instead of a detached leaf",
       entries=["new_tensor", "new_tensor:grad_source"],
       expected=[("new_tensor:grad_source", "requires_grad"), ("new_tensor:grad_source", "grad_fn"),
                 ("new_tensor:grad_source", "is_leaf"), ("new_tensor", "grad_to_source")])
def _():
    def new_tensor(self, data, *args, **kwargs):
        out = _new_tensor(self, data, *args, **kwargs)  # also emits the real warning
        if isinstance(data, torch.Tensor) and not args and not kwargs and data.requires_grad and _is_grad_enabled():
            return _clone(data)
        return out
    return [(_T, "new_tensor", new_tensor)]


@fault("new_tensor_mutates_source", "x.new_tensor(x) 'moves' the data: after copying it zeroes x in place",
       entries=["new_tensor"], expected=[("new_tensor", "source_untouched")])
def _():
    def new_tensor(self, data, *args, **kwargs):
        out = _new_tensor(self, data, *args, **kwargs)
        if isinstance(data, torch.Tensor):
            with _write_context(data):
                _zero_(_writable_part(data))
        return out
    return [(_T, "new_tensor", new_tensor)]


# nn.Parameter has its own __deepcopy__, so Parameter sources are not affected
@fault("deepcopy_shares_storage", "copy.deepcopy of a tensor returns an alias of its memory (keeping requires_grad)",
       entries=["copy.deepcopy"], expected=[("copy.deepcopy", "shares_storage"), ("copy.deepcopy", "writes_through")])
def _():
    def __deepcopy__(self, memo):
        if not self.is_leaf:
            return _deepcopy(self, memo)  # keeps the real error
        if id(self) in memo:
            return memo[id(self)]
        out = _detach(self)
        if self.requires_grad:
            _requires_grad_(out)
        memo[id(self)] = out
        return out
    return [(_T, "__deepcopy__", __deepcopy__)]


@fault("as_tensor_copies", "torch.as_tensor(t) copies a tensor that already has the requested dtype and device",
       entries=["torch.as_tensor"], expected=[("torch.as_tensor", "same_object"), ("torch.as_tensor", "shares_storage")])
def _():
    return [(torch, "as_tensor", _copying(_as_tensor))]


@fault("asarray_ignores_copy", "torch.asarray(t, copy=True) shares memory (copy=True treated as copy=None)",
       entries=["torch.asarray:copy_true"],
       expected=[("torch.asarray:copy_true", "shares_storage"), ("torch.asarray:copy_true", "same_object")])
def _():
    def asarray(obj, *args, **kwargs):
        if kwargs.get("copy") is True:
            kwargs = {**kwargs, "copy": None}
        return _asarray(obj, *args, **kwargs)
    return [(torch, "asarray", asarray)]


import copysuite.faults.serialization_faults  # noqa: E402, F401 - torch.save/torch.load and deepcopy of structures
import copysuite.faults.form_faults  # noqa: E402, F401 - the call forms of specs/forms.yaml
import copysuite.faults.storage_faults  # noqa: E402, F401 - storage-level aliasing and inference mode
import copysuite.faults.module_faults  # noqa: E402, F401 - nn.Module's state (specs/module_state.yaml)
import copysuite.faults.sparse_faults  # noqa: E402, F401 - sparse COO and nested tensors (specs/sparse_nested.yaml)
import copysuite.faults.promise_faults  # noqa: E402, F401 - the promises issue 14's second pass specified
import copysuite.faults.promise3_faults  # noqa: E402, F401 - the promises issue 14's third pass specified
import copysuite.faults.surface_faults  # noqa: E402, F401 - the operator surface's contracts (copysuite/surface)

# the faults of torch.compile, registered after these where it can run (not on 1.13.1, nor on 2.0 under Python 3.11,
# where their cells are skipped and nothing could catch them)
if EXECUTORS["compile.eager"].skip_reason() is None:
    import copysuite.faults.compile_faults  # noqa: E402, F401

"""Faults of the documentation audit (docs/promises.md), third part : the
promises of results' types and dtypes (torch.tensor, asarray, tolist, item, type, bool), the refusals (numpy(force=),
requires_grad_, retain_grad, DLPack export, view(dtype), sparse accessors), indexing, deep copies, module state,
inference tensors and the nested-tensor constructors' copies."""
from __future__ import annotations

import warnings

import numpy as np
import torch

from tests.faults import original
from tests.faults.fault import opt_in_fault as fault  # every fault of this module is opt-in (Fault.opt_in)

# the originals this module patches or calls, captured before any fault is applied (tests/faults/fault.py's rule)
_tolist = original.T.tolist
_BUILD = ("copysuite/strategies/cases.py:build",)


@fault("to_int_refuses_grad_source", "to(integer dtype) of a tensor that requires grad raises (only floating point "
       "tensors can require gradients) instead of returning a copy that does not", entries=["to:int64"],
       expected=[("to:int64", "raises")], harness_contact=_BUILD,
       contact_note="Case.build's `.to(dtype)` converts `flat`, which does not require grad: the original runs")
def _():
    def to(self, *args, **kwargs):
        target = kwargs.get("dtype") or next((a for a in args if isinstance(a, torch.dtype)), None)
        if self.requires_grad and target is not None and not (target.is_floating_point or target.is_complex):
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        return original.to(self, *args, **kwargs)
    return [(original.T, "to", to)]


@fault("clone_requires_grad_in_no_grad", "clone() under no_grad of a tensor that requires grad returns a copy that "
       "requires grad (a new leaf)", entries=["clone"], expected=[("clone", "requires_grad")])
def _():
    def clone(self, *args, **kwargs):
        out = original.clone(self, *args, **kwargs)
        return original.requires_grad_(out) if self.requires_grad and not torch.is_grad_enabled() else out
    return [(original.T, "clone", clone)]


@fault("numpy_force_keeps_bits", "numpy(force=True) of a tensor with a conjugate or negative bit returns an array "
       "over its memory without applying the bit", entries=["numpy:force"],
       expected=[("numpy:force", "values_equal"), ("numpy:force", "shares_storage")], examples=25)
def _():
    def numpy(self, *, force=False):
        if force and self.is_conj():
            return original.numpy(original.conj(original.detach(self)))
        if force and self.is_neg():
            return original.numpy(original.neg_view(original.detach(self)))
        return original.numpy(self, force=force)
    return [(original.T, "numpy", numpy)]


@fault("asarray_default_float", "torch.asarray of a NumPy scalar or a Python sequence gives the default float "
       "dtype instead of the inferred one", entries=["torch.asarray:numpy_scalar", "torch.asarray:python_list"],
       expected=[("torch.asarray:numpy_scalar", "dtype"), ("torch.asarray:python_list", "dtype")])
def _():
    def asarray(obj, *args, **kwargs):
        if isinstance(obj, (np.generic, list, tuple)) and kwargs.get("dtype") is None:
            try:
                return original.asarray(obj, *args, **{**kwargs, "dtype": torch.get_default_dtype()})
            except (TypeError, RuntimeError):   # complex values: no float reading of them
                pass
        return original.asarray(obj, *args, **kwargs)
    return [(torch, "asarray", asarray)]


@fault("tensor_takes_default_dtype", "torch.tensor(t) of a tensor gives the default float dtype, not t's",
       entries=["torch.tensor"], expected=[("torch.tensor", "dtype")], harness_contact=_BUILD,
       contact_note="Case.build's `torch.tensor([...], dtype=...)` takes a list: the original runs unchanged")
def _():
    def tensor(data, *args, **kwargs):
        if isinstance(data, torch.Tensor) and kwargs.get("dtype") is None:
            kwargs = {**kwargs, "dtype": torch.get_default_dtype()}
        return original.tensor(data, *args, **kwargs)
    return [(torch, "tensor", tensor)]


@fault("tensor_does_not_warn", "torch.tensor(t) of a tensor copies without its UserWarning", entries=["torch.tensor"],
       expected=[("torch.tensor", "warns")], harness_contact=_BUILD,
       contact_note="Case.build's `torch.tensor([...])` warns of nothing either way")
def _():
    def tensor(data, *args, **kwargs):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return original.tensor(data, *args, **kwargs)
    return [(torch, "tensor", tensor)]


@fault("tensor_keeps_lazy_bits", "torch.tensor(t) of a tensor with a conjugate or negative bit copies the unresolved "
       "memory and sets the bit again (same values, bit still set)", entries=["torch.tensor"],
       expected=[("torch.tensor", "is_conj"), ("torch.tensor", "is_neg")], examples=25, harness_contact=_BUILD,
       contact_note="Case.build's `torch.tensor([...])` takes a list: the original runs unchanged")
def _():
    def tensor(data, *args, **kwargs):
        if isinstance(data, torch.Tensor) and data.is_conj():
            return original.conj(original.tensor(original.conj(data), *args, **kwargs))
        if isinstance(data, torch.Tensor) and data.is_neg():
            return original.neg_view(original.tensor(original.neg_view(data), *args, **kwargs))
        return original.tensor(data, *args, **kwargs)
    return [(torch, "tensor", tensor)]


@fault("tolist_flat", "tolist() returns a flat list whatever the shape (a 0-d tensor too)",
       entries=["tolist", "torch.asarray:python_list"],
       expected=[("tolist", "result_type"), ("torch.asarray:python_list", "shape")])
def _():
    def tolist(self):
        out = _tolist(self)
        return _tolist(self.reshape(-1)) if not isinstance(out, list) or self.dim() != 1 else out
    return [(original.T, "tolist", tolist)]


@fault("tolist_int_as_float", "tolist() of an integer or bool tensor gives Python floats", entries=["tolist"],
       expected=[("tolist", "python_type")])
def _():
    def floats(x):
        return [floats(v) for v in x] if isinstance(x, list) else float(x) if isinstance(x, (int, bool)) else x

    def tolist(self):
        return floats(_tolist(self))
    return [(original.T, "tolist", tolist)]


@fault("item_returns_tensor", "item() returns a 0-d tensor instead of a Python number", entries=["item"],
       expected=[("item", "result_type")])
def _():
    def item(self):
        original.item(self)  # the real refusals
        return original.detach(self).reshape(())
    return [(original.T, "item", item)]


@fault("item_needs_zero_dim", "item() refuses a one-element tensor that is not 0-d", entries=["item:one_element"],
       expected=[("item:one_element", "raises")])
def _():
    def item(self):
        if self.dim() > 0:
            raise RuntimeError("item() of a tensor with dimensions")
        return original.item(self)
    return [(original.T, "item", item)]


@fault("type_ignores_target", "type(t) and type_as(other) return the tensor unconverted; type() returns the dtype "
       "instead of the type name", entries=["type:name", "type:float64_string", "type:async", "type_as:float64"],
       expected=[("type:name", "python_type"), ("type:float64_string", "dtype"), ("type:async", "dtype"),
                 ("type_as:float64", "dtype")])
def _():
    def type_(self, dtype=None, non_blocking=False, **kwargs):
        return self.dtype if dtype is None else self

    def type_as(self, other):
        return self
    return [(original.T, "type", type_), (original.T, "type_as", type_as)]


@fault("bool_is_noop", "bool() returns the tensor itself, unconverted", entries=["bool:cast"],
       expected=[("bool:cast", "dtype")])
def _():
    def bool_(self, memory_format=torch.preserve_format):
        return self
    return [(original.T, "bool", bool_)]


def _rows_base(ts):
    """The contiguous tensor whose rows the list holds, in order (`list(source)`), or None."""
    base = getattr(ts[0], "_base", None) if ts and isinstance(ts[0], torch.Tensor) else None
    if (base is None or not base.is_contiguous() or base.dim() < 2 or base.shape[1:] != ts[0].shape
            or len(ts) != len(base)):
        return None
    return base if all(t._base is base and t.data_ptr() == b.data_ptr() for t, b in zip(ts, base.unbind())) else None


@fault("nested_tensor_shares_rows", "torch.nested.nested_tensor of the rows of one contiguous tensor builds the "
       "nested tensor over that tensor's memory instead of copying them into a packed block of its own",
       entries=["torch.nested.nested_tensor"], expected=[("torch.nested.nested_tensor", "shares_storage")])
def _():
    def nested_tensor(ts, *args, **kwargs):
        base = _rows_base(list(ts)) if not args and not kwargs else None
        if base is None:
            return original.nested_tensor(ts, *args, **kwargs)
        return original.as_nested_tensor(original.detach(base))
    return [(torch.nested, "nested_tensor", nested_tensor)]


@fault("as_nested_tensor_list_shares", "torch.nested.as_nested_tensor of a list of the rows of one contiguous "
       "tensor builds the nested tensor over that tensor's memory instead of copying the list's tensors",
       entries=["torch.nested.as_nested_tensor:list"], expected=[("torch.nested.as_nested_tensor:list",
                                                                  "shares_storage")])
def _():
    def as_nested_tensor(ts, *args, **kwargs):
        base = _rows_base(list(ts)) if isinstance(ts, (list, tuple)) and not args and not kwargs else None
        return original.as_nested_tensor(ts, *args, **kwargs) if base is None else original.as_nested_tensor(base)
    return [(torch.nested, "as_nested_tensor", as_nested_tensor)]

"""Faults of the documentation audit (docs/promises.md) that first went unnoticed: each breaks a documented promise that
no spec entry stated (the whole suite, or the row's own entry, passed under it), and the entry added for it at the end
of specs/forms.yaml catches it. Unlike the audit's other faults (tests/faults/topics/promises_*.py, all opt-in), these
run in the default fault campaign: they are what shows those entries can fail.
"""
from __future__ import annotations

import numpy as np
import torch

from tests.faults import original
from tests.faults.fault import fault


# the originals this module patches or calls, captured before any fault is applied (tests/faults/fault.py's rule)
_BUILD = ("copysuite/strategies/cases.py:build",)


@fault("asarray_reinterprets_dtype", "torch.asarray(t, dtype=d) of t's element size reinterprets t's bytes "
       "(view(d)) instead of copying", entries=["torch.asarray:float64.same_size"],
       expected=[("torch.asarray:float64.same_size", "shares_storage")])
def _():
    def asarray(obj, *args, dtype=None, **kwargs):
        if isinstance(obj, torch.Tensor) and dtype is not None and dtype != obj.dtype and obj.dim() > 0 and \
                obj.stride(-1) == 1 and torch.empty((), dtype=dtype).element_size() == obj.element_size():
            return original.view(obj, dtype)
        return original.asarray(obj, *args, **({} if dtype is None else {"dtype": dtype}), **kwargs)
    return [(torch, "asarray", asarray)]


@fault("asarray_copy_false_copies_shareable", "torch.asarray(obj, copy=False) returns a copy where it can share "
       "(it still raises where it cannot)", entries=["torch.asarray:copy_false", "torch.asarray:copy_false_float64"],
       expected=[("torch.asarray:copy_false", "shares_storage"), ("torch.asarray:copy_false", "writes_through")])
def _():
    def asarray(obj, *args, **kwargs):
        out = original.asarray(obj, *args, **kwargs)
        return original.clone(out) if kwargs.get("copy") is False else out
    return [(torch, "asarray", asarray)]


@fault("asarray_ndarray_copies", "torch.asarray(ndarray) with copy=None copies the array instead of sharing it",
       entries=["torch.asarray:ndarray"],
       expected=[("torch.asarray:ndarray", "shares_storage"), ("torch.asarray:ndarray", "writes_through")])
def _():
    def asarray(obj, *args, **kwargs):
        if isinstance(obj, np.ndarray) and kwargs.get("copy") is None:
            obj = obj.copy(order="K")
        return original.asarray(obj, *args, **kwargs)
    return [(torch, "asarray", asarray)]


@fault("from_dlpack_copy_false_copies", "torch.from_dlpack(obj, copy=False) copies instead of sharing",
       entries=["dlpack.copy_false"],
       expected=[("dlpack.copy_false", "shares_storage"), ("dlpack.copy_false", "writes_through")])
def _():
    def from_dlpack(ext, *args, **kwargs):
        out = original.from_dlpack(ext, *args, **kwargs)
        return original.clone(out) if kwargs.get("copy") is False else out
    return [(torch, "from_dlpack", from_dlpack)]


@fault("to_non_blocking_unfilled", "to(..., non_blocking=True) that converts hands back the new tensor before the "
       "copy fills it (zeros)", entries=["to:float64:non_blocking"],
       expected=[("to:float64:non_blocking", "values_equal")], harness_contact=_BUILD,
       contact_note="Case.build's `.to(dtype)` passes no non_blocking=: the original runs unchanged")
def _():
    def to(self, *args, **kwargs):
        out = original.to(self, *args, **kwargs)
        return original.zero_(original.detach(out)) if kwargs.get("non_blocking") and out is not self else out
    return [(original.T, "to", to)]


@fault("torch_clone_aliases", "the function torch.clone (not the method) returns a view of its input",
       entries=["torch.clone"], expected=[("torch.clone", "shares_storage"), ("torch.clone", "writes_through")])
def _():
    def clone(input, *args, **kwargs):
        return original.view_as(input, input)
    return [(torch, "clone", clone)]

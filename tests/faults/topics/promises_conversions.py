"""Faults of the documentation audit (docs/promises.md): each breaks a promise row of docs/promises.md that no earlier
fault broke, first the keyword promises (copy=, dtype=, requires_grad=, memory_format=) and the identity and no-copy
ones ("returns self when ...", "shares memory"). docs/promises.md names, row by row, the fault that breaks the promise
and the check that catches it; tests/selftest/test_promises.py keeps those names true to this catalog. All opt-in
(Fault.opt_in)."""
from __future__ import annotations

import torch

from tests.faults import original
from tests.faults.fault import opt_in_fault as fault  # every fault of this module is opt-in (Fault.opt_in)

# the originals this module patches or calls, captured before any fault is applied (tests/faults/fault.py's rule)
_detach_ = original.T.detach_
_is_view = original.T._is_view
_BUILD = ("copysuite/strategies/cases.py:build",)


def _dtype_arg(args, kwargs):
    return kwargs.get("dtype") or next((a for a in args if isinstance(a, torch.dtype)), None)


# ---- Tensor.to: identity, copy=, memory_format=, the graph of a cast, to(other) -------------------------------------
@fault("to_copies_when_unchanged", "to() returns a copy where nothing needs converting (same dtype and device), "
       "instead of the tensor itself", entries=["to:same_dtype", "to:cpu", "to:other_same"],
       expected=[("to:same_dtype", "same_object"), ("to:cpu", "same_object"), ("to:other_same", "same_object")],
       harness_contact=_BUILD,
       contact_note="Case.build's `flat = torch.tensor([...]).to(dtype)` then gets a copy of `flat` where the dtype "
                    "matches: the same values in a tensor no one else holds")
def _():
    return [(original.T, "to", original.copying(original.to))]


@fault("to_ignores_copy", "to(..., copy=True) is read as copy=False in every form (the bare to(copy=True) and "
       "to(other, copy=True) included): nothing to convert, the tensor itself comes back",
       entries=["to:copy", "to:other_copy"],
       expected=[("to:copy", "same_object"), ("to:copy", "shares_storage"), ("to:other_copy", "same_object"),
                 ("to:other_copy", "shares_storage")],
       harness_contact=_BUILD, contact_note="Case.build's `.to(dtype)` passes no copy=: the original runs unchanged")
def _():
    def to(self, *args, **kwargs):
        if kwargs.get("copy"):
            return original.to(self, *args, **{**kwargs, "copy": False})
        return original.to(self, *args, **kwargs)
    return [(original.T, "to", to)]


@fault("to_cast_detaches", "to(dtype) that converts returns a detached copy: no grad_fn, requires_grad lost",
       entries=["to:float64"], expected=[("to:float64", "requires_grad"), ("to:float64", "grad_fn")],
       harness_contact=_BUILD,
       contact_note="Case.build's `.to(dtype)` converts `flat`, which does not require grad: detaching it changes "
                    "nothing")
def _():
    def to(self, *args, **kwargs):
        out = original.to(self, *args, **kwargs)
        return original.detach(out) if out is not self and self.requires_grad else out
    return [(original.T, "to", to)]


@fault("to_ignores_memory_format", "to(memory_format=...) ignores the format (torch.preserve_format instead)",
       entries=["to:channels_last"], expected=[("to:channels_last", "strides")], harness_contact=_BUILD,
       contact_note="Case.build's `.to(dtype)` passes no memory_format=: the original runs unchanged")
def _():
    def to(self, *args, memory_format=torch.preserve_format, **kwargs):
        return original.to(self, *args, **kwargs)
    return [(original.T, "to", to)]


@fault("to_other_takes_device_only", "to(other) takes other's device but keeps self's dtype",
       entries=["to:other_float64"], expected=[("to:other_float64", "dtype")], harness_contact=_BUILD,
       contact_note="Case.build's `.to(dtype)` passes no tensor: the original runs unchanged")
def _():
    def to(self, *args, **kwargs):
        if args and isinstance(args[0], torch.Tensor):
            args = (args[0].device, *args[1:])
        return original.to(self, *args, **kwargs)
    return [(original.T, "to", to)]


# ---- clone, contiguous: memory_format= ------------------------------------------------------------------------------
@fault("clone_ignores_memory_format", "clone(memory_format=...) ignores an explicit format (preserve_format instead)",
       entries=["clone:contiguous_format", "clone:channels_last", "clone:channels_last_3d"],
       expected=[("clone:contiguous_format", "strides"), ("clone:channels_last", "strides"),
                 ("clone:channels_last_3d", "strides")])
def _():
    def clone(self, *, memory_format=torch.preserve_format):
        return original.clone(self)
    return [(original.T, "clone", clone)]


@fault("contiguous_is_noop", "contiguous() returns the tensor itself whatever its layout and memory_format=",
       entries=["contiguous", "contiguous:channels_last"],
       expected=[("contiguous", "strides"), ("contiguous", "shares_storage"), ("contiguous:channels_last", "strides")])
def _():
    def contiguous(self, memory_format=torch.contiguous_format):
        return self
    return [(original.T, "contiguous", contiguous)]


# ---- asarray, as_tensor: copy=, sharing, requires_grad ---------------------------------------------------------------
@fault("asarray_copy_false_copies", "torch.asarray(..., copy=False) copies silently where it cannot share, instead "
       "of raising", entries=["torch.asarray:copy_false_float64"],
       expected=[("torch.asarray:copy_false_float64", "raises")])
def _():
    def asarray(obj, *args, **kwargs):
        if kwargs.get("copy") is False:
            kwargs = {**kwargs, "copy": None}
        return original.asarray(obj, *args, **kwargs)
    return [(torch, "asarray", asarray)]


@fault("asarray_copies_by_default", "torch.asarray(obj) with copy=None copies a tensor, a buffer or a DLPack capsule "
       "it could share", entries=["torch.asarray:copy_none", "torch.asarray:buffer", "torch.asarray:dlpack_capsule"],
       expected=[("torch.asarray:copy_none", "shares_storage"), ("torch.asarray:buffer", "shares_storage"),
                 ("torch.asarray:dlpack_capsule", "shares_storage")])
def _():
    def asarray(obj, *args, **kwargs):
        if kwargs.get("copy") is None:
            kwargs = {**kwargs, "copy": True}
        return original.asarray(obj, *args, **kwargs)
    return [(torch, "asarray", asarray)]


@fault("asarray_drops_requires_grad", "torch.asarray(t) with requires_grad=None returns a detached alias of a tensor "
       "that requires grad (its history lost)", entries=["torch.asarray:copy_none"],
       expected=[("torch.asarray:copy_none", "requires_grad"), ("torch.asarray:copy_none", "same_object")])
def _():
    def asarray(obj, *args, **kwargs):
        if isinstance(obj, torch.Tensor) and obj.requires_grad and kwargs.get("requires_grad") is None:
            return original.asarray(original.detach(obj), *args, **kwargs)
        return original.asarray(obj, *args, **kwargs)
    return [(torch, "asarray", asarray)]


@fault("as_tensor_detaches", "torch.as_tensor(t, ...) returns its result detached: no autograd history, also when "
       "it converts the dtype", entries=["torch.as_tensor", "torch.as_tensor:float64"],
       expected=[("torch.as_tensor", "requires_grad"), ("torch.as_tensor:float64", "requires_grad"),
                 ("torch.as_tensor:float64", "grad_fn")])
def _():
    def as_tensor(data, *args, **kwargs):
        out = original.as_tensor(data, *args, **kwargs)
        return original.detach(out) if isinstance(data, torch.Tensor) and out.requires_grad else out
    return [(torch, "as_tensor", as_tensor)]


@fault("as_tensor_ndarray_copies", "torch.as_tensor(ndarray) copies an array it could share",
       entries=["torch.as_tensor:ndarray"],
       expected=[("torch.as_tensor:ndarray", "shares_storage"), ("torch.as_tensor:ndarray", "writes_through")])
def _():
    def as_tensor(data, *args, **kwargs):
        out = original.as_tensor(data, *args, **kwargs)
        return original.clone(out) if not isinstance(data, torch.Tensor) else out
    return [(torch, "as_tensor", as_tensor)]


# ---- torch.tensor, new_tensor: copies, leaves, requires_grad=, dtype defaults --------------------------------------
@fault("tensor_aliases", "torch.tensor(t) returns t.detach() (an alias) instead of a copy, still warning",
       entries=["torch.tensor"],
       expected=[("torch.tensor", "shares_storage"), ("torch.tensor", "writes_through")], harness_contact=_BUILD,
       contact_note="Case.build's `torch.tensor([...])` takes a list: the original runs unchanged")
def _():
    def tensor(data, *args, **kwargs):
        out = original.tensor(data, *args, **kwargs)
        return original.detach(data) if isinstance(data, torch.Tensor) and not args and not kwargs else out
    return [(torch, "tensor", tensor)]


@fault("tensor_keeps_graph", "torch.tensor(t) of a tensor that requires grad returns t.clone(): a copy still in t's "
       "graph", entries=["torch.tensor"],
       expected=[("torch.tensor", "requires_grad"), ("torch.tensor", "grad_fn")], harness_contact=_BUILD,
       contact_note="Case.build's `torch.tensor([...])` takes a list: the original runs unchanged")
def _():
    def tensor(data, *args, **kwargs):
        out = original.tensor(data, *args, **kwargs)
        return original.clone(data) if isinstance(data, torch.Tensor) and data.requires_grad else out
    return [(torch, "tensor", tensor)]


@fault("tensor_ignores_requires_grad", "torch.tensor(..., requires_grad=True) ignores requires_grad",
       entries=["torch.tensor:requires_grad"], expected=[("torch.tensor:requires_grad", "requires_grad")],
       harness_contact=_BUILD, contact_note="Case.build's `torch.tensor([...])` passes no requires_grad=: the "
                                            "original runs unchanged")
def _():
    def tensor(data, *args, requires_grad=False, **kwargs):
        return original.tensor(data, *args, **kwargs)
    return [(torch, "tensor", tensor)]


@fault("new_tensor_aliases", "x.new_tensor(t) returns t.detach() (an alias) where dtype and device match",
       entries=["new_tensor"], expected=[("new_tensor", "shares_storage"), ("new_tensor", "writes_through")])
def _():
    def new_tensor(self, data, *args, **kwargs):
        out = original.new_tensor(self, data, *args, **kwargs)
        same = isinstance(data, torch.Tensor) and (data.dtype, data.device) == (out.dtype, out.device)
        return original.detach(data) if same and not out.requires_grad else out
    return [(original.T, "new_tensor", new_tensor)]


@fault("new_tensor_ignores_requires_grad", "x.new_tensor(data, requires_grad=True) ignores requires_grad",
       entries=["new_tensor:requires_grad"], expected=[("new_tensor:requires_grad", "requires_grad")])
def _():
    def new_tensor(self, data, *args, requires_grad=False, **kwargs):
        return original.new_tensor(self, data, *args, **kwargs)
    return [(original.T, "new_tensor", new_tensor)]


@fault("new_tensor_takes_data_dtype", "x.new_tensor(data) with no dtype= infers the dtype from data (as "
       "torch.tensor does) instead of taking self's", entries=["new_tensor:list"],
       expected=[("new_tensor:list", "dtype")], harness_contact=_BUILD,
       contact_note="the fault calls torch.tensor, which Case.build calls too; no fault patches it here")
def _():
    def new_tensor(self, data, *args, **kwargs):
        if _dtype_arg(args, kwargs) is None and not isinstance(data, torch.Tensor):
            kwargs = {**kwargs, "dtype": original.tensor(data).dtype}
        return original.new_tensor(self, data, *args, **kwargs)
    return [(original.T, "new_tensor", new_tensor)]


# ---- detach, detach_, .data ------------------------------------------------------------------------------------------
@fault("detach_returns_self", "detach() of a tensor that does not require grad returns the tensor itself",
       entries=["detach"], expected=[("detach", "same_object")])
def _():
    def detach(self):
        return self if not self.requires_grad else original.detach(self)
    return [(original.T, "detach", detach)]


@fault("detach_keeps_graph", "detach() returns an alias still in the graph (view_as: grad_fn, requires_grad, "
       "gradient back to the source)", entries=["detach"],
       expected=[("detach", "grad_fn"), ("detach", "is_leaf")])
def _():
    def detach(self):
        return original.view_as(self, self)
    return [(original.T, "detach", detach)]


@fault("detach__allows_views", "detach_() of a view does nothing instead of raising", entries=["detach_"],
       expected=[("detach_", "raises")])
def _():
    def detach_(self):
        return self if _is_view(self) else _detach_(self)
    return [(original.T, "detach_", detach_)]


@fault("data_copies", "`.data` returns a detached copy instead of an alias of the tensor's memory", entries=["data"],
       expected=[("data", "shares_storage"), ("data", "writes_through")])
def _():
    return [(original.T, "data", property(lambda self: original.clone(original.data.__get__(self, type(self))),
                                  lambda self, value: original.data.__set__(self, value)))]


@fault("data_keeps_graph", "`.data` returns an alias still in the graph (view_as)", entries=["data"],
       expected=[("data", "requires_grad"), ("data", "grad_fn")])
def _():
    return [(original.T, "data", property(lambda self: original.view_as(self, self),
                                          lambda self, value: original.data.__set__(self, value)))]

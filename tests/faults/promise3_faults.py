"""Faults in the promises that issue 14's third pass over docs/promises.md specified (the entries after "issue 14,
part 3" in specs/serialization.yaml, view_or_copy.yaml, forms.yaml and sparse_nested.yaml): one per family that can
run here, each breaking its promise the way a regression in torch would. The CUDA families (cuda()'s current device,
pin_memory per accelerator, as_tensor to the GPU) have none: no GPU here, so nothing could show one caught.
Registered with the rest of the catalog (tests/faults/catalog.py imports this module)."""
from __future__ import annotations

import mmap as _mmap

import torch

from tests.faults.fault import _T, _clone, _detach, _reshape, _to, fault

# the originals this module patches or calls, captured before any fault is applied (tests/faults/fault.py's rule)
_load = torch.load
_flatten = _T.flatten
_as_nested_tensor = torch.nested.as_nested_tensor
_set_default_mmap_options = getattr(torch.serialization, "set_default_mmap_options", None)
_get_default_mmap_options = getattr(torch.serialization, "get_default_mmap_options", None)
_contiguous_format = torch.contiguous_format


if _set_default_mmap_options is not None:   # 2.4+: the switch this fault turns
    @fault("mmap_load_shared", "torch.load(mmap=True) maps the file with MAP_SHARED instead of MAP_PRIVATE, so writes "
           "into a loaded tensor reach the file", entries=["torch.load:mmap_private"],
           expected=[("torch.load:mmap_private", "values_equal")])
    def _():
        def load(f, *args, mmap=None, **kwargs):
            if not mmap:
                return _load(f, *args, mmap=mmap, **kwargs)
            before = _get_default_mmap_options()
            _set_default_mmap_options(_mmap.MAP_SHARED)
            try:
                return _load(f, *args, mmap=mmap, **kwargs)
            finally:
                _set_default_mmap_options(before)
        return [(torch, "load", load)]


@fault("reshape_multidim_copies", "reshape() to a shape of two or more dims always copies, even where a view is "
       "possible", entries=["reshape:merge_last", "reshape:reversed_shape"],
       expected=[("reshape:merge_last", "view_or_contiguous_copy"), ("reshape:reversed_shape", "view_or_contiguous_copy")],
       harness_contact=("strategies/cases.py:build",),
       contact_note="Case.build runs the printed input code, `source.copy_(flat.reshape(shape))`: a contiguous copy of "
                    "the flat values has the same values, which copy_ writes into the source")
def _():
    def reshape(self, *shape):
        out = _reshape(self, *shape)
        return _clone(out, memory_format=_contiguous_format) if out.dim() >= 2 else out
    return [(_T, "reshape", reshape)]


@fault("detach_sparse_is_self", "detach() of a sparse COO tensor returns the tensor itself, so in-place changes to "
       "the detached one change the original's indices and values",
       entries=["detach.sparse_add_", "detach.sparse_zero_"],
       expected=[("detach.sparse_add_", "sparse_untouched[sp]"), ("detach.sparse_zero_", "sparse_untouched[sp]")])
def _():
    def detach(self):
        return self if self.layout == torch.sparse_coo else _detach(self)
    return [(_T, "detach", detach)]


@fault("flatten_dims_ignored", "flatten(start_dim, end_dim) flattens every dim, ignoring start_dim and end_dim",
       entries=["flatten:start_dim", "flatten:end_dim"],
       expected=[("flatten:start_dim", "shape[want]"), ("flatten:end_dim", "shape[want]")])
def _():
    def flatten(self, *args, **kwargs):
        return _flatten(self)
    return [(_T, "flatten", flatten)]


@fault("to_other_ignores_copy", "to(other, copy=True) returns the tensor itself when it already has other's dtype "
       "and device", entries=["to:other_copy"],
       expected=[("to:other_copy", "same_object"), ("to:other_copy", "shares_storage"),
                 ("to:other_copy", "writes_through")],
       harness_contact=("strategies/cases.py:build",),
       contact_note="Case.build runs the printed input code, `flat = torch.tensor([...]).to(dtype)`: a dtype, not a "
                    "tensor, so the replacement passes the call through unchanged")
def _():
    def to(self, *args, **kwargs):
        if args and isinstance(args[0], torch.Tensor) and kwargs.get("copy"):
            kwargs = {**kwargs, "copy": False}
        return _to(self, *args, **kwargs)
    return [(_T, "to", to)]


@fault("to_cast_contiguous", "to(dtype) ignores its default memory_format=torch.preserve_format: the cast copy is "
       "always contiguous", entries=["to:float64.preserve_format"],
       expected=[("to:float64.preserve_format", "strides")],
       harness_contact=("strategies/cases.py:build",),
       contact_note="Case.build runs the printed input code, `flat = torch.tensor([...]).to(dtype)`: `flat` is 1-d and "
                    "contiguous, so a contiguous cast has the strides a preserving one would")
def _():
    def to(self, *args, **kwargs):
        if args and isinstance(args[0], torch.dtype) and "memory_format" not in kwargs:
            kwargs = {**kwargs, "memory_format": _contiguous_format}
        return _to(self, *args, **kwargs)
    return [(_T, "to", to)]


@fault("as_nested_tensor_copies", "as_nested_tensor() of a contiguous tensor copies it instead of using its storage",
       entries=["torch.nested.as_nested_tensor:tensor"],
       expected=[("torch.nested.as_nested_tensor:tensor", "shares_storage"),
                 ("torch.nested.as_nested_tensor:tensor", "writes_through")])
def _():
    def as_nested_tensor(ts, *args, **kwargs):
        return _as_nested_tensor(_clone(ts) if isinstance(ts, torch.Tensor) else ts, *args, **kwargs)
    return [(torch.nested, "as_nested_tensor", as_nested_tensor)]

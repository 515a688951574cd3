"""Faults of the documentation audit (docs/promises.md), continued : the views of
the Tensor Views page, the view-or-copy functions, the cast methods and their no-copy cases, numpy()'s refusals,
DLPack and the module-state keywords."""
from __future__ import annotations

import torch

from tests.faults import original
from tests.faults.fault import opt_in_fault as fault  # every fault of this module is opt-in (Fault.opt_in)

_BASE = vars(getattr(torch._C, "TensorBase", None) or torch._C._TensorBase)
# The methods and properties the Tensor Views page lists as views, by the spec entry that states each one. Left out:
# as_strided (Case.build makes every strided source with it) and indexing (entries getitem:*, which the harness's
# own `[...]` would reach as well); view and view_as have faults of their own (view_copies, view_as_copies).
_VIEW_METHODS = ("adjoint", "diagonal", "expand", "expand_as", "movedim", "narrow", "permute", "select", "squeeze",
                 "transpose", "t", "unflatten", "unfold", "unsqueeze", "swapaxes", "swapdims")
_SPLITS = ("unbind", "split", "hsplit", "vsplit", "tensor_split", "split_with_sizes", "chunk")
_VIEW_PROPERTIES = ("T", "H", "mT", "mH", "real", "imag")
_methods = {name: getattr(original.T, name) for name in _VIEW_METHODS + _SPLITS}
_properties = {name: _BASE[name] for name in _VIEW_PROPERTIES}
_view_as_real = torch.view_as_real
_reshape_as = original.T.reshape_as
_type = original.T.type
_type_as = original.T.type_as
_float = original.T.float
_int = original.T.int
_half = original.T.half
_coalesced_ = original.T._coalesced_


def _copy_of(real):
    def patched(self, *args, **kwargs):
        return original.clone(real(self, *args, **kwargs))
    return patched


def _copies_of(real):
    def patched(self, *args, **kwargs):
        return tuple(original.clone(t) for t in real(self, *args, **kwargs))
    return patched


def _property_copy(descriptor):
    return property(lambda self: original.clone(descriptor.__get__(self, type(self))))


# ---- the Tensor Views page ------------------------------------------------------------------------------------------
@fault("view_ops_copy", "every view op of the Tensor Views page but view, view_as, as_strided and indexing returns "
       "a copy (clone(), still in the graph) instead of a view",
       entries=[*_VIEW_METHODS, *_VIEW_PROPERTIES, "view_as_real", *(f"{n}[0]" for n in _SPLITS)],
       expected=[(e, "shares_storage") for e in (*_VIEW_METHODS, *_VIEW_PROPERTIES, "view_as_real",
                                                  *(f"{n}[0]" for n in _SPLITS))])
def _():
    return ([(original.T, name, _copy_of(_methods[name])) for name in _VIEW_METHODS]
            + [(original.T, name, _copies_of(_methods[name])) for name in _SPLITS]
            + [(original.T, name, _property_copy(_properties[name])) for name in _VIEW_PROPERTIES]
            + [(torch, "view_as_real", lambda t: original.clone(_view_as_real(t)))])


@fault("view_as_copies", "view_as() returns a copy instead of a view", entries=["view_as"],
       expected=[("view_as", "shares_storage"), ("view_as", "autograd_view")])
def _():
    return [(original.T, "view_as", _copy_of(original.view_as))]


@fault("view_falls_back_to_copy", "view() of a shape the strides do not allow returns a copy (reshape) instead of "
       "raising", entries=["view:flat", "clone.view:flat"],
       expected=[("view:flat", "raises"), ("clone.view:flat", "raises")])
def _():
    def view(self, *shape):
        try:
            return original.view(self, *shape)
        except RuntimeError:
            return original.reshape(self, *shape)
    return [(original.T, "view", view)]


@fault("view_dtype_converts", "view(dtype) of the same element size converts the values (a copy, to(dtype)) instead "
       "of reinterpreting the same memory", entries=["view:same_size_dtype"],
       expected=[("view:same_size_dtype", "shares_storage")])
def _():
    def view(self, *shape, dtype=None):
        target = dtype or (shape[0] if len(shape) == 1 and isinstance(shape[0], torch.dtype) else None)
        if target is not None and torch.empty((), dtype=target).element_size() == self.element_size():
            return original.to(self, target, copy=True)
        return original.view(self, *shape) if dtype is None else original.view(self, dtype)
    return [(original.T, "view", view)]


# ---- view or copy ---------------------------------------------------------------------------------------------------
@fault("reshape_as_copies", "reshape_as() copies even when the strides allow a view", entries=["reshape_as"],
       expected=[("reshape_as", "shares_storage")])
def _():
    return [(original.T, "reshape_as", _copy_of(_reshape_as))]


@fault("flatten_always_copies", "flatten() copies even when it could return a view (or the input itself)",
       entries=["flatten"], expected=[("flatten", "shares_storage"), ("flatten", "autograd_view")])
def _():
    return [(original.T, "flatten", _copy_of(original.flatten))]


# ---- casts that need not convert ------------------------------------------------------------------------------------
@fault("type_copies_when_unchanged", "type(t) and type_as(other) return a copy when the tensor already has that "
       "type, instead of the tensor itself", entries=["type:same_dtype", "type:same_string", "type_as:same_dtype"],
       expected=[("type:same_dtype", "same_object"), ("type:same_string", "same_object"),
                 ("type_as:same_dtype", "same_object")])
def _():
    def type_(self, *args, **kwargs):
        out = _type(self, *args, **kwargs)
        return original.clone(out) if out is self else out

    def type_as(self, other):
        out = _type_as(self, other)
        return original.clone(out) if out is self else out
    return [(original.T, "type", type_), (original.T, "type_as", type_as)]


@fault("casts_copy_when_unchanged", "float() and int() return a copy when the tensor already has that dtype",
       entries=["float", "int:same_dtype"], expected=[("float", "same_object"), ("int:same_dtype", "same_object")])
def _():
    def copying(real):
        def cast(self, memory_format=torch.preserve_format):
            out = real(self, memory_format=memory_format)
            return original.clone(out) if out is self else out
        return cast
    return [(original.T, "float", copying(_float)), (original.T, "int", copying(_int))]


@fault("casts_detach", "double() and half() that convert return a detached copy (no graph back to the source)",
       entries=["double", "half:cast"],
       expected=[("double", "requires_grad"), ("double", "grad_fn"), ("half:cast", "grad_fn")])
def _():
    def detaching(real):
        def cast(self, memory_format=torch.preserve_format):
            out = real(self, memory_format=memory_format)
            return original.detach(out) if out is not self else out
        return cast
    return [(original.T, "double", detaching(original.double)), (original.T, "half", detaching(_half))]


# ---- numpy(), DLPack, sparse ----------------------------------------------------------------------------------------
@fault("numpy_resolves_lazy_bits", "numpy() of a tensor with a conjugate or negative bit resolves it into a copy "
       "instead of refusing", entries=["numpy"], expected=[("numpy", "raises")], examples=25)
def _():
    def numpy(self, *args, **kwargs):
        if self.is_conj() or self.is_neg():
            self = self.resolve_conj().resolve_neg()
        return original.numpy(self, *args, **kwargs)
    return [(original.T, "numpy", numpy)]


@fault("from_dlpack_copies", "torch.from_dlpack(obj) of an object with __dlpack__ copies instead of sharing its "
       "memory", entries=["dlpack.roundtrip"],
       expected=[("dlpack.roundtrip", "shares_storage"), ("dlpack.roundtrip", "writes_through")])
def _():
    def from_dlpack(ext, *args, **kwargs):
        out = original.from_dlpack(ext, *args, **kwargs)
        return original.clone(out) if hasattr(ext, "__dlpack__") else out
    return [(torch, "from_dlpack", from_dlpack)]


@fault("coalesce_uncoalesced_returns_self", "coalesce() of an uncoalesced sparse tensor marks the tensor itself "
       "coalesced and returns it (its duplicates unsummed), instead of a coalesced copy",
       entries=["Tensor.coalesce:uncoalesced"], expected=[("Tensor.coalesce:uncoalesced", "same_object[u]")])
def _():
    def coalesce(self):
        return original.coalesce(self) if self.is_coalesced() else _coalesced_(self, True)
    return [(original.T, "coalesce", coalesce)]


# ---- nn.Module: to() returns self, state_dict(keep_vars=), load_state_dict(assign=) ---------------------------------
@fault("module_to_returns_copy", "Module.to() converts the module in place but returns a shallow copy of it",
       entries=["Module.to:returns_self"], expected=[("Module.to:returns_self", "same_object[m]")])
def _():
    import copy

    def to(self, *args, **kwargs):
        return copy.copy(original.module_to(self, *args, **kwargs))
    return [(torch.nn.Module, "to", to)]


@fault("state_dict_ignores_keep_vars", "Module.state_dict(keep_vars=True) detaches the values as keep_vars=False does",
       entries=["Module.state_dict:keep_vars"],
       expected=[("Module.state_dict:keep_vars", "same_object"), ("Module.state_dict:keep_vars", "result_type")])
def _():
    def state_dict(self, *args, keep_vars=False, **kwargs):
        return original.state_dict(self, *args, **kwargs)
    return [(torch.nn.Module, "state_dict", state_dict)]


@fault("load_state_dict_ignores_assign", "Module.load_state_dict(..., assign=True) copies into the module's "
       "parameters as assign=False does", entries=["Module.load_state_dict:assign"],
       expected=[("Module.load_state_dict:assign", "same_object"), ("Module.load_state_dict:assign",
                                                                    "shares_storage[b]")])
def _():
    def load_state_dict(self, state_dict, strict=True, assign=False):
        return original.load_state_dict(self, state_dict, strict=strict)
    return [(torch.nn.Module, "load_state_dict", load_state_dict)]

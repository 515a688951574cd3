"""Faults in the promises that issue 14's second pass over docs/promises.md specified (the entries after "issue 14,
part 2" in specs/forms.yaml, serialization.yaml, module_state.yaml, sparse_nested.yaml, storage.yaml and
inference.yaml): one per family, each breaking its promise the way a regression in torch would. Registered with the
rest of the catalog (tests/faults/catalog.py imports this module)."""
from __future__ import annotations

import torch
import torch.autograd.forward_ad as _fwad

from tests.faults.fault import _T, _as_tensor, _asarray, _clone, _deepcopy, _detach, _new_tensor, _to, fault

# the originals this module patches or calls, captured before any fault is applied (tests/faults/fault.py's rule)
_view = _T.view
_cpu = _T.cpu
_double = _T.double
_mul = _T.__mul__
_set_ = _T.set_
_resize_ = _T.resize_
_share_memory_ = _T.share_memory_
_coalesce = _T.coalesce
_values = _T.values
_indices = _T.indices
_tensor = torch.tensor
_from_numpy = torch.from_numpy
_from_dlpack = torch.from_dlpack
_save = torch.save
_nested_narrow = getattr(torch.nested, "narrow", None)
_nested_from_jagged = getattr(torch.nested, "nested_tensor_from_jagged", None)
_make_dual, _unpack_dual = _fwad.make_dual, _fwad.unpack_dual
_Module = torch.nn.Module
_state_dict = _Module.state_dict
_load_state_dict = _Module.load_state_dict
_module_to = _Module.to
_INTEGER = (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64)


def _dtype_of(args, kwargs):
    return kwargs.get("dtype") or next((a for a in args if isinstance(a, torch.dtype)), None)


# ---- conversions and views (specs/forms.yaml) -------------------------------------------------------------------------
@fault("to_int_rounds", "to() from a floating point to an integer dtype rounds to the nearest integer instead of "
       "truncating the fractional part", entries=["to:int64.truncates"],
       expected=[("to:int64.truncates", "values_equal[t]")],
       harness_contact=("strategies/cases.py:build",),
       contact_note="Case.build runs the printed input code, `flat = torch.tensor([...]).to(dtype)`: an integer "
                    "source's flat values are whole numbers already, which rounding keeps")
def _():
    def to(self, *args, **kwargs):
        if _dtype_of(args, kwargs) in _INTEGER and self.is_floating_point():
            self = torch.round(self)
        return _to(self, *args, **kwargs)
    return [(_T, "to", to)]


@fault("memory_format_ignored", "cpu() and the cast methods (double()) ignore memory_format= and give contiguous "
       "(or, for cpu() of a CPU tensor, the tensor's own) strides",
       entries=["cpu:channels_last", "double:channels_last"],
       expected=[("cpu:channels_last", "strides"), ("double:channels_last", "strides")])
def _():
    def cpu(self, *args, memory_format=None, **kwargs):
        return _cpu(self, *args, **kwargs)

    def double(self, memory_format=None):
        return _double(self)
    return [(_T, "cpu", cpu), (_T, "double", double)]


@fault("detach_keeps_tangent", "detach() of a dual tensor keeps its forward-mode AD tangent",
       entries=["detach:forward_ad"], expected=[("detach:forward_ad", "result_type")])
def _():
    def detach(self):
        out = _detach(self)
        tangent = _unpack_dual(self).tangent
        return out if tangent is None else _make_dual(out, tangent)
    return [(_T, "detach", detach)]


@fault("view_infers_wrong_dim", "view(-1, n) infers the -1 as the number of elements, ignoring n (and then refuses "
       "the shape)", entries=["view:inferred_dim"], expected=[("view:inferred_dim", "shape[want]")])
def _():
    def view(self, *shape):
        if len(shape) == 2 and shape[0] == -1 and isinstance(shape[1], int):
            return _view(self, -1)
        return _view(self, *shape)
    return [(_T, "view", view)]


@fault("from_numpy_accepts_object", "torch.from_numpy converts an ndarray of Python objects (to float64) instead of "
       "refusing it", entries=["torch.from_numpy:object_dtype"], expected=[("torch.from_numpy:object_dtype", "raises")])
def _():
    def from_numpy(array):
        if array.dtype.kind == "O":
            array = array.astype("float64")
        return _from_numpy(array)
    return [(torch, "from_numpy", from_numpy)]


@fault("factories_ignore_default_device", "torch.tensor and torch.as_tensor put data that is not a tensor on the "
       "CPU whatever the default device",
       entries=["torch.tensor:list_default_device", "torch.as_tensor:list_default_device"],
       expected=[("torch.tensor:list_default_device", "device"), ("torch.as_tensor:list_default_device", "device")],
       harness_contact=("strategies/cases.py:build",),
       contact_note="Case.build runs the printed input code, `flat = torch.tensor([...])`, outside any default-device "
                    "block: the fault's device='cpu' is the default there")
def _():
    def on_cpu(real):
        def factory(data, *args, **kwargs):
            if not isinstance(data, torch.Tensor) and kwargs.get("device") is None:
                kwargs = {**kwargs, "device": "cpu"}
            return real(data, *args, **kwargs)
        return factory
    return [(torch, "tensor", on_cpu(_tensor)), (torch, "as_tensor", on_cpu(_as_tensor))]


@fault("asarray_requires_grad_copies", "torch.asarray(t, requires_grad=...) returns a new alias with that flag "
       "instead of setting it on the tensor itself",
       entries=["torch.asarray:requires_grad_true", "torch.asarray:requires_grad_false"],
       expected=[("torch.asarray:requires_grad_true", "same_object"),
                 ("torch.asarray:requires_grad_true", "source_untouched"),
                 ("torch.asarray:requires_grad_false", "same_object"),
                 ("torch.asarray:requires_grad_false", "source_untouched")])
def _():
    def asarray(obj, *args, requires_grad=None, **kwargs):
        if isinstance(obj, torch.Tensor) and requires_grad is not None:
            return _detach(obj).requires_grad_(requires_grad)
        return _asarray(obj, *args, **({} if requires_grad is None else {"requires_grad": requires_grad}), **kwargs)
    return [(torch, "asarray", asarray)]


@fault("new_tensor_ignores_dtype", "Tensor.new_tensor(data, dtype=...) keeps self's dtype",
       entries=["new_tensor:dtype_device"], expected=[("new_tensor:dtype_device", "dtype")])
def _():
    def new_tensor(self, data, dtype=None, **kwargs):
        return _new_tensor(self, data, **kwargs)
    return [(_T, "new_tensor", new_tensor)]


@fault("dlpack_capsule_copies", "torch.from_dlpack of a DLPack capsule copies the memory instead of sharing it",
       entries=["dlpack.capsule"], expected=[("dlpack.capsule", "shares_storage"), ("dlpack.capsule", "writes_through")])
def _():
    def from_dlpack(ext, *args, **kwargs):
        out = _from_dlpack(ext, *args, **kwargs)
        return out if hasattr(ext, "__dlpack__") else _clone(out)
    return [(torch, "from_dlpack", from_dlpack)]


# ---- serialization (specs/serialization.yaml) ---------------------------------------------------------------------------
@fault("deepcopy_drops_grad", "copy.deepcopy of a tensor leaves the copy's .grad unset", entries=["copy.deepcopy.grad"],
       expected=[("copy.deepcopy.grad", "result_type")])
def _():
    def __deepcopy__(self, memo):
        out = _deepcopy(self, memo)
        if out.is_leaf:
            out.grad = None
        return out
    return [(_T, "__deepcopy__", __deepcopy__)]


@fault("legacy_save_loses_sharing", "torch.save(..., _use_new_zipfile_serialization=False) saves each tensor of a "
       "list with memory of its own, so a view and its base no longer share once loaded",
       entries=["torch.save.views:legacy_format"],
       expected=[("torch.save.views:legacy_format", "shares_storage[loaded_base]"),
                 ("torch.save.views:legacy_format", "writes_through[loaded_base]")])
def _():
    def save(obj, f, *args, **kwargs):
        if kwargs.get("_use_new_zipfile_serialization") is False and isinstance(obj, list):
            obj = [_clone(t) if isinstance(t, torch.Tensor) else t for t in obj]
        return _save(obj, f, *args, **kwargs)
    return [(torch, "save", save)]


# ---- module state (specs/module_state.yaml) -------------------------------------------------------------------------------
@fault("state_dict_ignores_destination", "Module.state_dict(destination=d) fills and returns a new dict, which also "
       "holds the non-persistent buffers", entries=["Module.state_dict:destination"],
       expected=[("Module.state_dict:destination", "same_object[d]"), ("Module.state_dict:destination", "keys")])
def _():
    def state_dict(self, *args, destination=None, **kwargs):
        sd = _state_dict(self, *args, **kwargs)
        for name, buffer in self.named_buffers():
            sd.setdefault(name, buffer)
        return sd
    return [(_Module, "state_dict", state_dict)]


@fault("load_state_dict_not_strict", "Module.load_state_dict() treats strict=True as strict=False: missing, "
       "unexpected and None keys are not refused",
       entries=["Module.load_state_dict:strict", "Module.load_state_dict:strict_none"],
       expected=[("Module.load_state_dict:strict", "raises"), ("Module.load_state_dict:strict_none", "raises")])
def _():
    def load_state_dict(self, state_dict, strict=True, assign=False):
        return _load_state_dict(self, state_dict, strict=False, assign=assign)
    return [(_Module, "load_state_dict", load_state_dict)]


@fault("module_to_casts_integers", "Module.to(dtype) casts every parameter and buffer, integer ones included, and "
       "accepts an integer dtype", entries=["Module.to:int64", "Module.to:integer_buffer"],
       expected=[("Module.to:int64", "raises"), ("Module.to:integer_buffer", "dtype"),
                 ("Module.to:integer_buffer", "same_object")])
def _():
    def to(self, *args, **kwargs):
        dtype = _dtype_of(args, kwargs)
        if dtype is None:
            return _module_to(self, *args, **kwargs)
        return self._apply(lambda t: _to(t, dtype))
    return [(_Module, "to", to)]


# ---- sparse and nested (specs/sparse_nested.yaml) --------------------------------------------------------------------------
@fault("sparse_accessors_accept_dense", "coalesce(), values() and indices() of a dense tensor return it (values(), "
       "coalesce()) or its nonzero coordinates (indices()) instead of refusing",
       entries=["Tensor.coalesce:dense", "Tensor.values:dense", "Tensor.indices:dense"],
       expected=[("Tensor.coalesce:dense", "raises"), ("Tensor.values:dense", "raises"),
                 ("Tensor.indices:dense", "raises")])
def _():
    def dense_ok(real, dense):
        return lambda self: real(self) if self.layout != torch.strided else dense(self)
    return [(_T, "coalesce", dense_ok(_coalesce, lambda t: t)), (_T, "values", dense_ok(_values, lambda t: t)),
            (_T, "indices", dense_ok(_indices, lambda t: torch.nonzero(t).t()))]


@fault("nested_views_copy", "torch.nested.narrow and nested_tensor_from_jagged build their nested tensor over a copy "
       "of the dense input", entries=["torch.nested.narrow:jagged", "torch.nested.nested_tensor_from_jagged"],
       expected=[("torch.nested.narrow:jagged", "shares_storage"),
                 ("torch.nested.nested_tensor_from_jagged", "shares_storage"),
                 ("torch.nested.nested_tensor_from_jagged", "writes_through")])
def _():
    def narrow(tensor, *args, **kwargs):
        return _nested_narrow(_clone(tensor), *args, **kwargs)

    def nested_tensor_from_jagged(values, *args, **kwargs):
        return _nested_from_jagged(_clone(values), *args, **kwargs)
    return [(torch.nested, "narrow", narrow), (torch.nested, "nested_tensor_from_jagged", nested_tensor_from_jagged)]


# ---- storage and inference mode (specs/storage.yaml, specs/inference.yaml) -----------------------------------------------
@fault("share_memory_moves_again", "share_memory_() of a tensor already in shared memory moves it to new shared "
       "memory again", entries=["Tensor.share_memory_:already_shared"],
       expected=[("Tensor.share_memory_:already_shared", "shares_storage[before]")])
def _():
    def share_memory_(self):
        if self.is_shared():
            moved = _share_memory_(_clone(self))
            with torch.no_grad():
                _set_(self, moved)
            return self
        return _share_memory_(self)
    return [(_T, "share_memory_", share_memory_)]


@fault("set_empty_keeps_storage", "set_() with no source resizes the tensor to no elements in its own storage "
       "instead of giving it an empty storage", entries=["Tensor.set_:empty"],
       expected=[("Tensor.set_:empty", "shares_storage[alias]")])
def _():
    def set_(self, *args, **kwargs):
        return _resize_(self, 0) if not args and not kwargs else _set_(self, *args, **kwargs)
    return [(_T, "set_", set_)]


@fault("inference_saved_for_backward_allowed", "an inference tensor multiplied by a tensor that requires grad is "
       "cloned into a normal tensor first, instead of being refused", entries=["inference_mode.saved_for_backward"],
       expected=[("inference_mode.saved_for_backward", "raises")])
def _():
    def __mul__(self, other):
        if self.is_inference() and isinstance(other, torch.Tensor) and other.requires_grad:
            self = _clone(self)
        return _mul(self, other)
    return [(_T, "__mul__", __mul__)]

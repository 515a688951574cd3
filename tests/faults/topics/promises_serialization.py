"""Faults of the documentation audit (docs/promises.md), sixth part : pickling,
torch.save/torch.load and their keywords, nested tensors, inference tensors, module conversions, numpy()'s result and
refusals, from_numpy's dtypes, view()'s size error and set_() with a storage."""
from __future__ import annotations

import warnings

import torch

from tests.faults import original
from tests.faults.fault import opt_in_fault as fault  # every fault of this module is opt-in (Fault.opt_in)

# the originals this module patches or calls, captured before any fault is applied (tests/faults/fault.py's rule)
_reduce_ex = original.T.__reduce_ex__
_unbind = original.T.unbind
_resolve_conj = original.T.resolve_conj
_resolve_neg = original.T.resolve_neg
_future = torch.__future__
_new_empty = original.T.new_empty
_saved = {}   # load_returns_saved_objects: id(file object) -> what torch.save wrote there
_RUNNER = ("copysuite/run/process_state.py:<dictcomp>",)
_RUNNER_NOTE = ("the runner reads torch.__future__'s switches before each program to restore them after it: it reads "
                "the fault's value and sets it back, which only the patched getter would read")


def _tensors(obj, fn):
    """obj with fn applied to every tensor in it (lists, tuples and dicts)."""
    if isinstance(obj, torch.Tensor):
        return fn(obj)
    if isinstance(obj, (list, tuple)):
        return type(obj)(_tensors(x, fn) for x in obj)
    if isinstance(obj, dict):
        return type(obj)((k, _tensors(v, fn)) for k, v in obj.items())
    return obj


@fault("pickle_drops_requires_grad", "pickling a tensor that requires grad pickles it detached: it comes back not "
       "requiring grad", entries=["pickle.views"], expected=[("pickle.views", "requires_grad")])
def _():
    def __reduce_ex__(self, proto):
        return _reduce_ex(original.detach(self) if self.requires_grad else self, proto)
    return [(original.T, "__reduce_ex__", __reduce_ex__)]


@fault("load_loses_metadata", "torch.load gives every tensor back contiguous and not requiring grad",
       entries=["torch.save.base:weights_only_true", "torch.save.views:weights_only_true"],
       expected=[("torch.save.base:weights_only_true", "requires_grad"),
                 ("torch.save.views:weights_only_true", "strides[v]")])
def _():
    def plain(t):
        return original.contiguous(original.detach(t)) if not isinstance(t, torch.nn.Parameter) else t

    def load(f, *args, **kwargs):
        return _tensors(original.load(f, *args, **kwargs), plain)
    return [(torch, "load", load)]


@fault("save_unties_state_dict", "torch.save of a dict saves a copy of each tensor in it: tied entries come back "
       "apart", entries=["torch.save.tied_state_dict"],
       expected=[("torch.save.tied_state_dict", "shares_storage[first]")])
def _():
    def save(obj, f, *args, **kwargs):
        if isinstance(obj, dict):
            obj = type(obj)((k, original.clone(v) if isinstance(v, torch.Tensor) else v) for k, v in obj.items())
        return original.save(obj, f, *args, **kwargs)
    return [(torch, "save", save)]


@fault("save_resolves_lazy_bits", "torch.save resolves conjugate and negative bits before saving: they come back "
       "as plain values", entries=["torch.save.lazy_bits"],
       expected=[("torch.save.lazy_bits", "is_conj"), ("torch.save.lazy_bits", "is_neg")], examples=25)
def _():
    def save(obj, f, *args, **kwargs):
        return original.save(_tensors(obj, lambda t: _resolve_neg(_resolve_conj(t))), f, *args, **kwargs)
    return [(torch, "save", save)]


@fault("load_warns_always", "torch.load warns (FutureWarning) also when weights_only=False is given",
       entries=["torch.save.views:weights_only_false"], expected=[("torch.save.views:weights_only_false", "warns")])
def _():
    def load(f, *args, **kwargs):
        warnings.warn("You are using torch.load with weights_only=False", FutureWarning, stacklevel=2)
        return original.load(f, *args, **kwargs)
    return [(torch, "load", load)]


@fault("nested_unbind_copies", "unbind() of a nested tensor returns copies of its constituents",
       entries=["torch.nested.nested_tensor:unbind"],
       expected=[("torch.nested.nested_tensor:unbind", "shares_storage[u0]")])
def _():
    def unbind(self, dim=0):
        out = _unbind(self, dim)
        return tuple(original.clone(t) for t in out) if self.is_nested else out
    return [(original.T, "unbind", unbind)]


@fault("nested_tensor_requires_grad", "torch.nested.nested_tensor of floating point tensors returns a nested tensor "
       "that requires grad", entries=["torch.nested.nested_tensor"],
       expected=[("torch.nested.nested_tensor", "requires_grad")])
def _():
    def nested_tensor(ts, *args, **kwargs):
        out = original.nested_tensor(ts, *args, **kwargs)
        return out.requires_grad_() if out.is_floating_point() and torch.is_grad_enabled() else out
    return [(torch.nested, "nested_tensor", nested_tensor)]


@fault("as_nested_tensor_list_detaches", "torch.nested.as_nested_tensor of a list detaches its tensors first: the "
       "result keeps no autograd history", entries=["torch.nested.as_nested_tensor:list"],
       expected=[("torch.nested.as_nested_tensor:list", "requires_grad")])
def _():
    def as_nested_tensor(ts, *args, **kwargs):
        return original.as_nested_tensor([original.detach(t) for t in ts] if isinstance(ts, list) else ts, *args,
                                         **kwargs)
    return [(torch.nested, "as_nested_tensor", as_nested_tensor)]


@fault("inference_view_copies", "view_as() of an inference tensor outside inference mode returns a normal copy",
       entries=["inference_mode.view_of_inference"],
       expected=[("inference_mode.view_of_inference", "is_inference"),
                 ("inference_mode.view_of_inference", "shares_storage")])
def _():
    def view_as(self, other):
        if self.is_inference() and not torch.is_inference_mode_enabled():
            return original.clone(self)
        return original.view_as(self, other)
    return [(original.T, "view_as", view_as)]


@fault("inference_inplace_allowed", "zero_() of an inference tensor outside inference mode writes it (as inside) "
       "instead of raising", entries=["inference_mode.inplace_outside"],
       expected=[("inference_mode.inplace_outside", "raises")])
def _():
    def zero_(self):
        if self.is_inference() and not torch.is_inference_mode_enabled():
            with original.inference_mode():
                return original.zero_(self)
        return original.zero_(self)
    return [(original.T, "zero_", zero_)]


@fault("module_to_copies_unchanged", "Module.to() with nothing to convert still gives each Parameter new memory "
       "(.data set to a copy)", entries=["Module.to:same_dtype"],
       expected=[("Module.to:same_dtype", "shares_storage[orig]")])
def _():
    def to(self, *args, **kwargs):
        out = original.module_to(self, *args, **kwargs)
        for p in self.parameters():
            p.data = original.clone(p.data)
        return out
    return [(torch.nn.Module, "to", to)]


@fault("future_overwrite_ignored", "nn.Module ignores set_overwrite_module_params_on_conversion(True): conversions "
       "keep the Parameter objects", entries=["Module.to:float64:overwrite"],
       expected=[("Module.to:float64:overwrite", "same_object")], harness_contact=_RUNNER, contact_note=_RUNNER_NOTE)
def _():
    return [(_future, "get_overwrite_module_params_on_conversion", lambda: False)]


@fault("load_state_dict_assign_requires_grad", "load_state_dict(..., assign=True) makes every new Parameter require "
       "grad, whatever the module's did", entries=["Module.load_state_dict:assign"],
       expected=[("Module.load_state_dict:assign", "requires_grad")])
def _():
    def load_state_dict(self, state_dict, strict=True, assign=False):
        out = original.load_state_dict(self, state_dict, strict=strict, assign=assign)
        if assign:
            for p in self.parameters():
                if p.is_floating_point() or p.is_complex():
                    p.requires_grad_(True)
        return out
    return [(torch.nn.Module, "load_state_dict", load_state_dict)]


@fault("numpy_returns_memoryview", "numpy() returns a memoryview of the array instead of the ndarray",
       entries=["numpy"], expected=[("numpy", "result_type")])
def _():
    def numpy(self, *args, **kwargs):
        return memoryview(original.numpy(self, *args, **kwargs))
    return [(original.T, "numpy", numpy)]



@fault("load_returns_saved_objects", "torch.load of a file object returns the very objects torch.save wrote to it, "
       "not new tensors", entries=["torch.save.views:weights_only_true"],
       expected=[("torch.save.views:weights_only_true", "shares_storage"),
                 ("torch.save.views:weights_only_true", "writes_through")])
def _():
    def save(obj, f, *args, **kwargs):
        _saved[id(f)] = obj
        return original.save(obj, f, *args, **kwargs)

    def load(f, *args, **kwargs):
        out = original.load(f, *args, **kwargs)
        return _saved.pop(id(f), out)
    return [(torch, "save", save), (torch, "load", load)]


@fault("save_pads_storage", "torch.save of a tensor saves it inside a storage larger than its own",
       entries=["torch.save.clone_first"], expected=[("torch.save.clone_first", "storage_nbytes[small]")])
def _():
    def save(obj, f, *args, **kwargs):
        if isinstance(obj, torch.Tensor) and obj.layout == torch.strided:
            with original.no_grad():
                big = _new_empty(obj, (obj.numel() + 8,))
                original.copy_(big[:obj.numel()], obj.reshape(-1))
                obj = original.view(big[:obj.numel()], obj.shape)
        return original.save(obj, f, *args, **kwargs)
    return [(torch, "save", save)]


@fault("load_to_meta", "torch.load without map_location puts every storage on the meta device",
       entries=["torch.save.views:weights_only_true"], expected=[("torch.save.views:weights_only_true", "device")])
def _():
    def load(f, *args, map_location=None, **kwargs):
        return original.load(f, *args, map_location=map_location or "meta", **kwargs)
    return [(torch, "load", load)]


@fault("load_ignores_mmap", "torch.load ignores mmap=True (so it refuses neither a buffer nor the legacy format)",
       entries=["torch.load:mmap_buffer", "torch.load:mmap_legacy_format"],
       expected=[("torch.load:mmap_buffer", "raises"), ("torch.load:mmap_legacy_format", "raises")])
def _():
    def load(f, *args, mmap=None, **kwargs):
        return original.load(f, *args, **kwargs)
    return [(torch, "load", load)]


@fault("view_grows_by_copying", "view() to more elements than the tensor has returns a copy padded with zeros "
       "instead of raising", entries=["view:numel_mismatch"], expected=[("view:numel_mismatch", "raises")])
def _():
    def view(self, *shape):
        try:
            return original.view(self, *shape)
        except RuntimeError:
            if len(shape) == 1 and isinstance(shape[0], int) and shape[0] > self.numel():
                out = torch.zeros(shape[0], dtype=self.dtype, device=self.device)
                with original.no_grad():
                    original.copy_(out[:self.numel()], self.reshape(-1))
                return out
            raise
    return [(original.T, "view", view)]


@fault("numpy_converts_unsupported_dtypes", "numpy() of a dtype numpy lacks (bfloat16, ...) converts to float32 "
       "instead of refusing", entries=["numpy"], expected=[("numpy", "raises")], examples=25)
def _():
    def numpy(self, *args, **kwargs):
        try:
            return original.numpy(self, *args, **kwargs)
        except TypeError:
            if self.is_floating_point() and not self.requires_grad:
                return original.numpy(self.float(), *args, **kwargs)
            raise
    return [(original.T, "numpy", numpy)]


@fault("from_numpy_refuses_float16", "torch.from_numpy refuses a float16 array, one of the dtypes it lists",
       entries=["numpy.from_numpy"], expected=[("numpy.from_numpy", "raises")], examples=25)
def _():
    def from_numpy(array):
        if array.dtype == "float16":
            raise TypeError("can't convert np.ndarray of type numpy.float16")
        return original.from_numpy(array)
    return [(torch, "from_numpy", from_numpy)]


@fault("set_ignores_offset", "set_(storage, offset, size, stride) ignores the offset (views the storage from 0)",
       entries=["Tensor.set_:storage"], expected=[("Tensor.set_:storage", "is_set_to")])
def _():
    def set_(self, *args, **kwargs):
        if len(args) == 4:
            args = (args[0], 0, *args[2:])
        return original.set_(self, *args, **kwargs)
    return [(original.T, "set_", set_)]


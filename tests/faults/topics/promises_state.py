"""Faults of the documentation audit (docs/promises.md), fourth part : refusals
(requires_grad_, retain_grad, DLPack export, view(dtype), numpy() of sparse, sparse accessors),
indexing, deep copies, module state, torch.load's keywords, nested tensors and inference tensors' version counter."""
from __future__ import annotations

import torch

from tests.faults import original
from tests.faults.fault import opt_in_fault as fault  # every fault of this module is opt-in (Fault.opt_in)

# the originals this module patches or calls, captured before any fault is applied (tests/faults/fault.py's rule)
_BASE = vars(getattr(torch._C, "TensorBase", None) or torch._C._TensorBase)
_dlpack = original.T.__dlpack__
_setitem = original.T.__setitem__
_transpose_ = original.T.transpose_
_to_dense = original.T.to_dense
_resolve_conj = original.T.resolve_conj
_version = _BASE["_version"]
_future = torch.__future__
_BUILD = ("copysuite/strategies/cases.py:build",)


@fault("requires_grad__refuses_nothing", "requires_grad_() of an integer tensor, or of an inference tensor outside "
       "inference mode, does nothing instead of raising",
       entries=["requires_grad_", "inference_mode.requires_grad_outside"],
       expected=[("requires_grad_", "raises"), ("inference_mode.requires_grad_outside", "raises")],
       harness_contact=_BUILD,
       contact_note="Case.build calls requires_grad_() on floating point tensors made outside inference mode: the "
                    "original runs unchanged")
def _():
    def requires_grad_(self, requires_grad=True):
        integer = not (self.is_floating_point() or self.is_complex())
        if requires_grad and (integer or (self.is_inference() and not torch.is_inference_mode_enabled())):
            return self
        return original.requires_grad_(self, requires_grad)
    return [(original.T, "requires_grad_", requires_grad_)]


@fault("retain_grad_accepts_no_grad", "retain_grad() of a tensor that does not require grad does nothing instead "
       "of raising", entries=["retain_grad"], expected=[("retain_grad", "raises")])
def _():
    def retain_grad(self):
        return None if not self.requires_grad else original.retain_grad(self)
    return [(original.T, "retain_grad", retain_grad)]


@fault("from_dlpack_moves_device", "torch.from_dlpack(capsule) puts the tensor on the meta device instead of the "
       "input's", entries=["dlpack.capsule"], expected=[("dlpack.capsule", "device")])
def _():
    def from_dlpack(ext, *args, **kwargs):
        out = original.from_dlpack(ext, *args, **kwargs)
        return original.to(out, "meta") if not hasattr(ext, "__dlpack__") and kwargs.get("device") is None else out
    return [(torch, "from_dlpack", from_dlpack)]


@fault("from_dlpack_ignores_copy_true", "torch.from_dlpack(obj, copy=True) shares where it could, as copy=None",
       entries=["dlpack.copy"], expected=[("dlpack.copy", "shares_storage")])
def _():
    def from_dlpack(ext, *args, **kwargs):
        if kwargs.get("copy"):
            kwargs = {**kwargs, "copy": None}
        return original.from_dlpack(ext, *args, **kwargs)
    return [(torch, "from_dlpack", from_dlpack)]


@fault("dlpack_export_refuses_nothing", "Tensor.__dlpack__ exports a tensor that requires grad (detached) or has a "
       "conjugate bit (resolved into a copy) instead of refusing",
       entries=["dlpack.requires_grad", "dlpack.conj"],
       expected=[("dlpack.requires_grad", "raises"), ("dlpack.conj", "raises")])
def _():
    def __dlpack__(self, *args, **kwargs):
        return _dlpack(_resolve_conj(original.detach(self)), *args, **kwargs)
    return [(original.T, "__dlpack__", __dlpack__)]


@fault("setitem_writes_a_copy", "assignment by indexing (t[...] = v) writes into a copy of t: t is left unchanged",
       entries=["setitem:basic", "setitem:advanced"],
       expected=[("setitem:basic", "version_bumped"), ("setitem:advanced", "version_bumped")])
def _():
    def __setitem__(self, key, value):
        _setitem(original.clone(self), key, value)
    return [(original.T, "__setitem__", __setitem__)]


@fault("view_dtype_refusal_converts", "view(dtype) that must refuse (last dim not divisible, 0-d) converts instead "
       "(to(dtype))", entries=["view:larger_dtype_refused", "view:dtype_of_0d_refused"],
       expected=[("view:larger_dtype_refused", "raises"), ("view:dtype_of_0d_refused", "raises")])
def _():
    def view(self, *shape):
        try:
            return original.view(self, *shape)
        except RuntimeError:
            if len(shape) == 1 and isinstance(shape[0], torch.dtype):
                return original.to(self, shape[0])
            raise
    return [(original.T, "view", view)]


@fault("numpy_converts", "numpy() of a sparse tensor converts it to dense instead of refusing, and of a float32 "
       "tensor gives a float64 array", entries=["numpy:sparse", "numpy"],
       expected=[("numpy:sparse", "raises"), ("numpy", "dtype")])
def _():
    def numpy(self, *args, **kwargs):
        out = original.numpy(_to_dense(self) if self.is_sparse else self, *args, **kwargs)
        return out.astype("float64") if out.dtype == "float32" else out
    return [(original.T, "numpy", numpy)]


@fault("sparse_accessors_coalesce", "values() and indices() of an uncoalesced sparse tensor coalesce a copy first "
       "instead of refusing", entries=["Tensor.values:uncoalesced", "Tensor.indices:uncoalesced"],
       expected=[("Tensor.values:uncoalesced", "raises"), ("Tensor.indices:uncoalesced", "raises")])
def _():
    def coalescing(real):
        def accessor(self):
            return real(original.coalesce(self) if self.is_sparse and not self.is_coalesced() else self)
        return accessor
    return [(original.T, "values", coalescing(original.values)), (original.T, "indices", coalescing(original.indices))]


@fault("deepcopy_detaches_non_leaves", "copy.deepcopy of a non-leaf copies it detached instead of raising",
       entries=["copy.deepcopy", "copy.deepcopy.views", "copy.deepcopy.same_tensor_twice"],
       expected=[("copy.deepcopy", "raises"), ("copy.deepcopy.views", "raises"),
                 ("copy.deepcopy.same_tensor_twice", "raises")])
def _():
    def __deepcopy__(self, memo):
        return original.deepcopy(self if self.is_leaf else original.detach(self), memo)
    return [(original.T, "__deepcopy__", __deepcopy__)]


@fault("state_dict_keeps_vars", "Module.state_dict() holds the Parameters themselves (keep_vars=True) by default",
       entries=["Module.state_dict"], expected=[("Module.state_dict", "same_object")])
def _():
    def state_dict(self, *args, keep_vars=False, **kwargs):
        return original.state_dict(self, *args, keep_vars=True, **kwargs)
    return [(torch.nn.Module, "state_dict", state_dict)]


@fault("module_conversion_replaces_parameters", "Module.to()/double() assign new Parameters (as with "
       "set_overwrite_module_params_on_conversion(True)) instead of converting them in place",
       entries=["Module.to:float64", "Module.double"],
       expected=[("Module.to:float64", "same_object"), ("Module.double", "same_object")],
       harness_contact=("copysuite/run/process_state.py:<dictcomp>",),
       contact_note="the runner reads torch.__future__'s switches before each program to restore them after it: it "
                    "reads the fault's True and sets it back, which only the patched getter would read")
def _():
    return [(_future, "get_overwrite_module_params_on_conversion", lambda: True)]


@fault("load_ignores_weights_only", "torch.load unpickles everything (weights_only=False), whatever weights_only= "
       "says and by default", entries=["torch.load:weights_only_refuses", "torch.load:default_refuses"],
       expected=[("torch.load:weights_only_refuses", "raises"), ("torch.load:default_refuses", "raises")])
def _():
    def load(f, *args, weights_only=None, **kwargs):
        return original.load(f, *args, weights_only=False, **kwargs)
    return [(torch, "load", load)]


@fault("load_ignores_map_location", "torch.load ignores map_location= (every storage goes back to the device it was "
       "saved from)", entries=["torch.load:map_location_meta"], expected=[("torch.load:map_location_meta", "device")])
def _():
    def load(f, *args, map_location=None, **kwargs):
        return original.load(f, *args, **kwargs)
    return [(torch, "load", load)]


@fault("as_nested_tensor_copies_nested", "torch.nested.as_nested_tensor of a nested tensor returns a copy even when "
       "nothing differs, and ignores dtype=",
       entries=["torch.nested.as_nested_tensor:nested", "torch.nested.as_nested_tensor:jagged.float64"],
       expected=[("torch.nested.as_nested_tensor:nested", "same_object[nt]"),
                 ("torch.nested.as_nested_tensor:jagged.float64", "dtype")])
def _():
    def as_nested_tensor(ts, dtype=None, device=None, layout=None):
        out = original.as_nested_tensor(ts, device=device, layout=layout)
        return original.clone(out) if out is ts else out
    return [(torch.nested, "as_nested_tensor", as_nested_tensor)]


@fault("inference_version_readable", "reading `_version` of an inference tensor gives 0 instead of raising",
       entries=["inference_mode.version"], expected=[("inference_mode.version", "raises")],
       harness_contact=("copysuite/run/probes.py:snapshot",),
       contact_note="snapshot reads `_version` of tensors that are not inference tensors only: the original value")
def _():
    return [(original.T, "_version",
             property(lambda self: 0 if self.is_inference() else _version.__get__(self, type(self))))]


@fault("detached_alias_refuses_metadata_change", "an in-place metadata change (transpose_) of what detach() returned "
       "raises, as the detach() page said up to 2.2, instead of changing the alias's shape",
       entries=["detach.metadata_change"], expected=[("detach.metadata_change", "raises")])
def _():
    detached = set()   # ids of the tensors detach() returned; kept only while the fault is applied

    def detach(self):
        out = original.detach(self)
        detached.add(id(out))
        return out

    def transpose_(self, *args, **kwargs):
        if id(self) in detached:
            raise RuntimeError("set_sizes_and_strides is not allowed on a Tensor created from .data or .detach()")
        return _transpose_(self, *args, **kwargs)
    return [(original.T, "detach", detach), (original.T, "transpose_", transpose_)]


@fault("inference_mode_does_nothing", "torch.inference_mode() is a no-op context: forward AD keeps its tangents "
       "inside it, and a view taken inside it is a normal view that can be written anywhere",
       entries=["inference_mode.forward_ad", "inference_mode.view_of_normal.write_outside"],
       expected=[("inference_mode.forward_ad", "result_type"),
                 ("inference_mode.view_of_normal.write_outside", "raises")])
def _():
    class inference_mode:
        def __init__(self, mode=True):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False
    return [(torch, "inference_mode", inference_mode)]

"""Faults in the promises of specs/forms.yaml: the call forms and keyword arguments the documentation pages distinguish.
Each breaks one promise the way a regression in torch would."""
from __future__ import annotations

import torch

from tests.faults import original
from tests.faults.fault import fault


@fault("to_copy_ignored_with_dtype", "to(dtype, copy=True) (and to(device, dtype, copy=True)) returns the tensor "
       "itself when it already has that dtype: copy=True is honoured only by the bare to(copy=True)",
       entries=["to:float64_copy", "to:device_dtype_copy"],
       expected=[("to:float64_copy", "same_object"), ("to:float64_copy", "shares_storage"),
                 ("to:device_dtype_copy", "same_object"), ("to:device_dtype_copy", "shares_storage")],
       harness_contact=("copysuite/strategies/cases.py:build",),
       contact_note="Case.build runs the printed input code, `flat = torch.tensor([...]).to(dtype)`, to make the "
                    "input: it passes no copy=True, so the patched to() calls the original unchanged")
def _():
    def to(self, *args, **kwargs):
        if args and kwargs.get("copy"):
            uncopied = original.to(self, *args, **{**kwargs, "copy": False})
            if uncopied is self:
                return self
        return original.to(self, *args, **kwargs)
    return [(original.T, "to", to)]


@fault("item_takes_first_of_many", "item() of a tensor with several elements returns its first one instead of "
       "refusing", entries=["item:many_elements"], expected=[("item:many_elements", "raises")])
def _():
    def item(self):
        return original.item(original.reshape(self, -1)[0]) if original.numel(self) > 1 else original.item(self)
    return [(original.T, "item", item)]


@fault("requires_grad_false_ignored", "requires_grad_(False) leaves a leaf's requires_grad on (and so does not "
       "refuse a non-leaf either)", entries=["requires_grad_:false"],
       expected=[("requires_grad_:false", "requires_grad"), ("requires_grad_:false", "raises")],
       harness_contact=("copysuite/strategies/cases.py:build",),
       contact_note="Case.build runs the printed input code, whose `requires_grad_()` (True) this fault passes on "
                    "unchanged")
def _():
    def requires_grad_(self, requires_grad=True):
        return self if requires_grad is False else original.requires_grad_(self, requires_grad)
    return [(original.T, "requires_grad_", requires_grad_)]


@fault("flatten_no_dims_aliases", "flatten(d, d), which flattens nothing, returns an alias (a view) instead of "
       "the input itself", entries=["flatten:no_dims"], expected=[("flatten:no_dims", "same_object")])
def _():
    def flatten(self, start_dim=0, end_dim=-1):
        out = original.flatten(self, start_dim, end_dim)
        return original.view_as(out, out) if out is self else out
    return [(original.T, "flatten", flatten)]


@fault("to_int_rounds", "to() from a floating point to an integer dtype rounds to the nearest integer instead of "
       "truncating the fractional part", entries=["to:int64.truncates"],
       expected=[("to:int64.truncates", "values_equal[t]")],
       harness_contact=("copysuite/strategies/cases.py:build",),
       contact_note="Case.build runs the printed input code, `flat = torch.tensor([...]).to(dtype)`: an integer "
                    "source's flat values are whole numbers already, which rounding keeps")
def _():
    def to(self, *args, **kwargs):
        if original.dtype_of(args, kwargs) in original.INTEGER and self.is_floating_point():
            self = torch.round(self)
        return original.to(self, *args, **kwargs)
    return [(original.T, "to", to)]


@fault("memory_format_ignored", "cpu() and the cast methods (double()) ignore memory_format= and give contiguous "
       "(or, for cpu() of a CPU tensor, the tensor's own) strides",
       entries=["cpu:channels_last", "double:channels_last"],
       expected=[("cpu:channels_last", "strides"), ("double:channels_last", "strides")])
def _():
    def cpu(self, *args, memory_format=None, **kwargs):
        return original.cpu(self, *args, **kwargs)

    def double(self, memory_format=None):
        return original.double(self)
    return [(original.T, "cpu", cpu), (original.T, "double", double)]


@fault("detach_keeps_tangent", "detach() of a dual tensor keeps its forward-mode AD tangent",
       entries=["detach:forward_ad"], expected=[("detach:forward_ad", "result_type")])
def _():
    def detach(self):
        out = original.detach(self)
        tangent = original.unpack_dual(self).tangent
        return out if tangent is None else original.make_dual(out, tangent)
    return [(original.T, "detach", detach)]


@fault("view_infers_wrong_dim", "view(-1, n) infers the -1 as the number of elements, ignoring n (and then refuses "
       "the shape)", entries=["view:inferred_dim"], expected=[("view:inferred_dim", "shape[want]")])
def _():
    def view(self, *shape):
        if len(shape) == 2 and shape[0] == -1 and isinstance(shape[1], int):
            return original.view(self, -1)
        return original.view(self, *shape)
    return [(original.T, "view", view)]


@fault("from_numpy_accepts_object", "torch.from_numpy converts an ndarray of Python objects (to float64) instead of "
       "refusing it", entries=["torch.from_numpy:object_dtype"], expected=[("torch.from_numpy:object_dtype", "raises")])
def _():
    def from_numpy(array):
        if array.dtype.kind == "O":
            array = array.astype("float64")
        return original.from_numpy(array)
    return [(torch, "from_numpy", from_numpy)]


@fault("factories_ignore_default_device", "torch.tensor and torch.as_tensor put data that is not a tensor on the "
       "CPU whatever the default device",
       entries=["torch.tensor:list_default_device", "torch.as_tensor:list_default_device"],
       expected=[("torch.tensor:list_default_device", "device"), ("torch.as_tensor:list_default_device", "device")],
       harness_contact=("copysuite/strategies/cases.py:build",),
       contact_note="Case.build runs the printed input code, `flat = torch.tensor([...])`, outside any default-device "
                    "block: the fault's device='cpu' is the default there")
def _():
    def on_cpu(real):
        def factory(data, *args, **kwargs):
            if not isinstance(data, torch.Tensor) and kwargs.get("device") is None:
                kwargs = {**kwargs, "device": "cpu"}
            return real(data, *args, **kwargs)
        return factory
    return [(torch, "tensor", on_cpu(original.tensor)), (torch, "as_tensor", on_cpu(original.as_tensor))]


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
            return original.detach(obj).requires_grad_(requires_grad)
        grad = {} if requires_grad is None else {"requires_grad": requires_grad}
        return original.asarray(obj, *args, **grad, **kwargs)
    return [(torch, "asarray", asarray)]


@fault("new_tensor_ignores_dtype", "Tensor.new_tensor(data, dtype=...) keeps self's dtype",
       entries=["new_tensor:dtype_device"], expected=[("new_tensor:dtype_device", "dtype")])
def _():
    def new_tensor(self, data, dtype=None, **kwargs):
        return original.new_tensor(self, data, **kwargs)
    return [(original.T, "new_tensor", new_tensor)]


@fault("dlpack_capsule_copies", "torch.from_dlpack of a DLPack capsule copies the memory instead of sharing it",
       entries=["dlpack.capsule"],
       expected=[("dlpack.capsule", "shares_storage"), ("dlpack.capsule", "writes_through")])
def _():
    def from_dlpack(ext, *args, **kwargs):
        out = original.from_dlpack(ext, *args, **kwargs)
        return out if hasattr(ext, "__dlpack__") else original.clone(out)
    return [(torch, "from_dlpack", from_dlpack)]


@fault("detach_sparse_is_self", "detach() of a sparse COO tensor returns the tensor itself, so in-place changes to "
       "the detached one change the original's indices and values",
       entries=["detach.sparse_add_", "detach.sparse_zero_"],
       expected=[("detach.sparse_add_", "sparse_untouched[sp]"), ("detach.sparse_zero_", "sparse_untouched[sp]")])
def _():
    def detach(self):
        return self if self.layout == torch.sparse_coo else original.detach(self)
    return [(original.T, "detach", detach)]


@fault("flatten_dims_ignored", "flatten(start_dim, end_dim) flattens every dim, ignoring start_dim and end_dim",
       entries=["flatten:start_dim", "flatten:end_dim"],
       expected=[("flatten:start_dim", "shape[want]"), ("flatten:end_dim", "shape[want]")])
def _():
    def flatten(self, *args, **kwargs):
        return original.flatten(self)
    return [(original.T, "flatten", flatten)]


@fault("to_other_ignores_copy", "to(other, copy=True) returns the tensor itself when it already has other's dtype "
       "and device", entries=["to:other_copy"],
       expected=[("to:other_copy", "same_object"), ("to:other_copy", "shares_storage"),
                 ("to:other_copy", "writes_through")],
       harness_contact=("copysuite/strategies/cases.py:build",),
       contact_note="Case.build runs the printed input code, `flat = torch.tensor([...]).to(dtype)`: a dtype, not a "
                    "tensor, so the replacement passes the call through unchanged")
def _():
    def to(self, *args, **kwargs):
        if args and isinstance(args[0], torch.Tensor) and kwargs.get("copy"):
            kwargs = {**kwargs, "copy": False}
        return original.to(self, *args, **kwargs)
    return [(original.T, "to", to)]


@fault("to_cast_contiguous", "to(dtype) ignores its default memory_format=torch.preserve_format: the cast copy is "
       "always contiguous", entries=["to:float64.preserve_format"],
       expected=[("to:float64.preserve_format", "strides")],
       harness_contact=("copysuite/strategies/cases.py:build",),
       contact_note="Case.build runs the printed input code, `flat = torch.tensor([...]).to(dtype)`: `flat` is 1-d and "
                    "contiguous, so a contiguous cast has the strides a preserving one would")
def _():
    def to(self, *args, **kwargs):
        if args and isinstance(args[0], torch.dtype) and "memory_format" not in kwargs:
            kwargs = {**kwargs, "memory_format": original.contiguous_format}
        return original.to(self, *args, **kwargs)
    return [(original.T, "to", to)]

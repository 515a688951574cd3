"""Faults of the documentation audit (docs/promises.md), fifth part : clone's
preserve_format for non-dense inputs, reshape's element order, indexing, retain_grad on leaves, DLPack capsules,
from_numpy's fixed size, deep copies of lazy bits and Parameters, TypedStorage, and torch.__future__'s swap switch."""
from __future__ import annotations

import torch

from tests.faults import original
from tests.faults.fault import absent
from tests.faults.fault import opt_in_fault as fault  # every fault of this module is opt-in (Fault.opt_in)

# the originals this module patches or calls, captured before any fault is applied (tests/faults/fault.py's rule)
_getitem = original.T.__getitem__
_transpose = original.T.transpose
_new_empty = original.T.new_empty
_storage = original.T.storage
_param_deepcopy = torch.nn.Parameter.__deepcopy__
_future = torch.__future__
_BUILD = ("copysuite/strategies/cases.py:build",)


@fault("clone_keeps_stepped_strides", "clone() of a non-dense (stepped) input keeps its gaps: the copy has the "
       "input's strides instead of contiguous ones", entries=["clone"], expected=[("clone", "strides")])
def _():
    def clone(self, *, memory_format=torch.preserve_format):
        out = original.clone(self, memory_format=memory_format)
        strides = self.stride()
        if memory_format != torch.preserve_format or self.numel() < 2 or 0 in strides or out.stride() == strides:
            return out
        extent = 1 + sum((n - 1) * abs(s) for n, s in zip(self.shape, strides))
        with original.no_grad():
            gapped = original.as_strided(_new_empty(self, (extent,)), self.shape, strides)
            original.copy_(gapped, self)
        return gapped
    return [(original.T, "clone", clone)]


@fault("reshape_permutes", "reshape() of a tensor of two or more dims reads its elements in another order (its "
       "first two dims swapped)", entries=["reshape:flat"], expected=[("reshape:flat", "values_equal")],
       harness_contact=_BUILD,
       contact_note="Case.build reshapes `flat`, which is 1-d: the original runs unchanged")
def _():
    def reshape(self, *shape):
        return original.reshape(_transpose(self, 0, 1) if self.dim() >= 2 else self, *shape)
    return [(original.T, "reshape", reshape)]


@fault("getitem_swapped", "indexing with basic keys (..., slices, ints) returns a copy, and with a one-element index "
       "tensor a view (narrow) instead of a copy",
       entries=["getitem:ellipsis", "getitem:slice_step", "getitem:int", "getitem:index_tensor"],
       expected=[("getitem:ellipsis", "shares_storage"), ("getitem:slice_step", "shares_storage"),
                 ("getitem:int", "shares_storage"), ("getitem:index_tensor", "shares_storage")])
def _():
    def __getitem__(self, key):
        one_index = isinstance(key, torch.Tensor) and key.numel() == 1 and key.dtype in (torch.int64, torch.int32)
        if one_index:
            return original.narrow(self, 0, int(key.reshape(-1)[0]), 1)
        return original.clone(_getitem(self, key))
    return [(original.T, "__getitem__", __getitem__)]


@fault("retain_grad_refuses_leaves", "retain_grad() of a leaf that requires grad raises instead of doing nothing",
       entries=["retain_grad"], expected=[("retain_grad", "raises")])
def _():
    def retain_grad(self):
        if self.is_leaf and self.requires_grad:
            raise RuntimeError("retain_grad() of a leaf")
        return original.retain_grad(self)
    return [(original.T, "retain_grad", retain_grad)]


@fault("from_dlpack_refuses_capsules", "torch.from_dlpack accepts only objects with __dlpack__: a capsule raises",
       entries=["dlpack.capsule"], expected=[("dlpack.capsule", "raises")])
def _():
    def from_dlpack(ext, *args, **kwargs):
        if not hasattr(ext, "__dlpack__"):
            raise TypeError("from_dlpack: a DLPack capsule is not accepted")
        return original.from_dlpack(ext, *args, **kwargs)
    return [(torch, "from_dlpack", from_dlpack)]


@fault("from_numpy_resizable", "torch.from_numpy returns a tensor of its own memory, which can be resized",
       entries=["torch.from_numpy:not_resizable"], expected=[("torch.from_numpy:not_resizable", "raises")])
def _():
    def from_numpy(array):
        return original.clone(original.from_numpy(array))
    return [(torch, "from_numpy", from_numpy)]


@fault("deepcopy_keeps_lazy_bits", "copy.deepcopy of a tensor with a conjugate or negative bit copies the unresolved "
       "memory and sets the bit again", entries=["copy.deepcopy.lazy_bits"],
       expected=[("copy.deepcopy.lazy_bits", "is_conj"), ("copy.deepcopy.lazy_bits", "is_neg")], examples=25)
def _():
    def __deepcopy__(self, memo):
        if self.is_leaf and self.is_conj():
            return original.conj(original.deepcopy(original.conj(self), memo))
        if self.is_leaf and self.is_neg():
            return original.neg_view(original.deepcopy(original.neg_view(self), memo))
        return original.deepcopy(self, memo)
    return [(original.T, "__deepcopy__", __deepcopy__)]


@fault("parameter_deepcopy_plain", "copy.deepcopy of a Parameter gives a plain tensor (requires_grad kept)",
       entries=["copy.deepcopy.tied_parameters", "copy.deepcopy.parameters_of_one_tensor"],
       expected=[("copy.deepcopy.tied_parameters", "result_type"),
                 ("copy.deepcopy.parameters_of_one_tensor", "result_type")])
def _():
    def __deepcopy__(self, memo):
        out = original.clone(original.detach(self)).requires_grad_(self.requires_grad)
        memo[id(self)] = out
        return out
    return [(torch.nn.Parameter, "__deepcopy__", __deepcopy__)]


@fault("parameter_deepcopy_keeps_grad", "copy.deepcopy of a Parameter copies its .grad along",
       entries=["copy.deepcopy.parameter_grad"], expected=[("copy.deepcopy.parameter_grad", "result_type")])
def _():
    def __deepcopy__(self, memo):
        out = _param_deepcopy(self, memo)
        if self.grad is not None:
            out.grad = original.clone(self.grad)
        return out
    return [(torch.nn.Parameter, "__deepcopy__", __deepcopy__)]


@fault("typed_storage_copies_silently", "Tensor.storage() returns a TypedStorage of a copy of the whole storage, "
       "without its deprecation warning", entries=["Tensor.storage:view"],
       expected=[("Tensor.storage:view", "same_storage"), ("Tensor.storage:view", "warns")])
def _():
    def storage(self):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _storage(self).clone()
    return [(original.T, "storage", storage)]


# torch.__future__ has the swap switch from 2.3 (PR 117167): the fault exists where there is a switch to ignore
if hasattr(torch.__future__, "get_swap_module_params_on_conversion"):
    @fault("future_swap_ignored", "nn.Module ignores set_swap_module_params_on_conversion(True): conversions set .data "
           "and load_state_dict copies, as without it", entries=["Module.to:float64:swap"],
           expected=[("Module.to:float64:swap", "shares_version_counter[orig]")],
           harness_contact=("copysuite/run/process_state.py:<dictcomp>",),
           contact_note="the runner reads torch.__future__'s switches before each program to restore them after it: it "
                        "reads the fault's False, which it sets back")
    def _():
        return [(_future, "get_swap_module_params_on_conversion", lambda: False)]
else:
    absent("future_swap_ignored", "this torch has no torch.__future__.get_swap_module_params_on_conversion to patch")

"""Faults in the promises of specs/history.yaml : each takes torch back to an earlier release's copy
semantics, the old side of one of its version gates, so the entry that records the change must fail; one or more per
area (serialization, sparse, storage, DLPack, NumPy, nn.Module and optimizers, autograd)."""
from __future__ import annotations

import numpy as np
import torch
import torch.utils.dlpack

from tests.faults import original
from tests.faults.fault import fault, opt_in_fault



# ---- serialization ---------------------------------------------------------------------------------------------------
@fault("save_drops_python_attributes", "torch.save writes a tensor or Parameter without its Python attributes "
       "(its __dict__), as 1.13 did: the loaded tensor lacks them",
       entries=["torch.save.python_attribute", "torch.save.parameter_attribute",
                "torch.save.parameter_attribute:weights_only_true"],
       expected=[("torch.save.python_attribute", "raises"), ("torch.save.parameter_attribute", "raises"),
                 ("torch.save.parameter_attribute:weights_only_true", "raises")],
       torch=">=2.0")   # PR 81616: 2.0 saves the attributes (specs/history.yaml)
def _():
    def without_attributes(t):
        out = original.detach(t)
        return original.Parameter(out, requires_grad=t.requires_grad) if isinstance(t, original.Parameter) else out

    def save(obj, *args, **kwargs):
        if isinstance(obj, torch.Tensor) and vars(obj):
            obj = without_attributes(obj)
        return original.save(obj, *args, **kwargs)
    return [(torch, "save", save)]


NEW_DTYPES = {getattr(torch, n) for n in ("uint16", "uint32", "uint64", "complex32", "float8_e5m2", "float8_e4m3fn",
                                         "float8_e5m2fnuz", "float8_e4m3fnuz", "float8_e8m0fnu") if hasattr(torch, n)}


@opt_in_fault("save_refuses_new_dtypes", "torch.save refuses the dtypes added after the storage classes (uint16-64, "
              "complex32, float8) with the KeyError releases before their support raised",
              entries=["torch.save:new_dtypes"], expected=[("torch.save:new_dtypes", "raises")])
def _():
    def save(obj, *args, **kwargs):
        for t in obj if isinstance(obj, (list, tuple)) else [obj]:
            if isinstance(t, torch.Tensor) and t.dtype in NEW_DTYPES:
                raise KeyError(f"dtype {t.dtype} is not recognized")
        return original.save(obj, *args, **kwargs)
    return [(torch, "save", save)]


# ---- sparse layouts --------------------------------------------------------------------------------------------------
@fault("to_sparse_copies_sparse", "to_sparse() of a tensor already sparse COO returns a copy instead of the "
       "tensor itself", entries=["Tensor.to_sparse:sparse.returns_self", "Tensor.to_sparse:sparse"],
       expected=[("Tensor.to_sparse:sparse.returns_self", "same_object[s]")])
def _():
    def to_sparse(self, *args, **kwargs):
        out = original.to_sparse(self, *args, **kwargs)
        return original.clone(out) if out is self else out
    return [(original.T, "to_sparse", to_sparse)]


# ---- storage objects -------------------------------------------------------------------------------------------------
@fault("untyped_storage_new_object", "each untyped_storage() call returns a new Python storage object over the "
       "same memory (as 2.0 did) instead of the one object torch keeps for the storage",
       entries=["Tensor.untyped_storage:same_object"],
       expected=[("Tensor.untyped_storage:same_object", "same_object[first]")])
def _():
    def untyped_storage(self):
        if self.device.type != "cpu" or self.dtype not in (torch.float32, torch.float64):
            return original.untyped_storage(self)
        # a tensor that NumPy's array over the same memory gives has a storage object of its own
        return original.untyped_storage(original.from_numpy(original.numpy(original.detach(self))))
    return [(original.T, "untyped_storage", untyped_storage)]


# ---- DLPack ----------------------------------------------------------------------------------------------------------
@fault("to_dlpack_normalizes_strides", "to_dlpack() exports every dim of size 1 with stride 1 (as 1.13 to 2.8 "
       "did, and 2.9 for a non-contiguous tensor) instead of the tensor's own stride",
       entries=["dlpack.size_one_strides", "dlpack.contiguous_row_strides"],
       expected=[("dlpack.size_one_strides", "is_set_to[v]"), ("dlpack.contiguous_row_strides", "is_set_to[v]")])
def _():
    def to_dlpack(tensor):
        strides = tuple(1 if size == 1 else st for size, st in zip(tensor.shape, tensor.stride()))
        return original.to_dlpack(original.as_strided(tensor, tensor.shape, strides))
    return [(torch.utils.dlpack, "to_dlpack", to_dlpack)]


@fault("from_dlpack_refuses_readonly", "torch.from_dlpack() of a read-only NumPy array raises BufferError (as "
       "releases before 2.9 did, asking NumPy for an unversioned capsule)",
       entries=["torch.from_dlpack:readonly_array", "torch.from_dlpack:readonly_array.shares"],
       expected=[("torch.from_dlpack:readonly_array", "raises"), ("torch.from_dlpack:readonly_array.shares", "raises")])
def _():
    def from_dlpack(ext_tensor, *args, **kwargs):
        if isinstance(ext_tensor, np.ndarray) and not ext_tensor.flags.writeable:
            raise BufferError("Cannot export readonly array since signalling readonly is unsupported by DLPack.")
        return original.from_dlpack(ext_tensor, *args, **kwargs)
    return [(torch, "from_dlpack", from_dlpack)]


# ---- NumPy -----------------------------------------------------------------------------------------------------------
@fault("from_numpy_refuses_uint16", "torch.from_numpy() refuses an array of numpy.uint16 (as releases before 2.3 "
       "did)", entries=["torch.from_numpy:uint16", "torch.from_numpy:uint16.shares"],
       expected=[("torch.from_numpy:uint16", "raises"), ("torch.from_numpy:uint16.shares", "raises")])
def _():
    def from_numpy(array):
        if isinstance(array, np.ndarray) and array.dtype == np.uint16:
            raise TypeError("can't convert np.ndarray of type numpy.uint16. The only supported types are: float64, "
                            "float32, float16, complex64, complex128, int64, int32, int16, int8, uint8, and bool.")
        return original.from_numpy(array)
    return [(torch, "from_numpy", from_numpy)]


# ---- nn.Module and optimizers ----------------------------------------------------------------------------------------
@fault("zero_grad_fills_zeros", "Module.zero_grad() with its default set_to_none fills .grad with zeros (as 1.13 "
       "did) instead of setting it to None", entries=["Module.zero_grad"],
       expected=[("Module.zero_grad", "result_type")])
def _():
    def zero_grad(self, set_to_none=False):
        return original.module_zero_grad(self, set_to_none=set_to_none)
    return [(torch.nn.Module, "zero_grad", zero_grad)]


@fault("optimizer_load_state_dict_deepcopies", "Optimizer.load_state_dict() deep-copies the state_dict first (as "
       "2.0 did): the optimizer holds copies of the loaded state tensors",
       entries=["Optimizer.load_state_dict:state_tensors"],
       expected=[("Optimizer.load_state_dict:state_tensors", "shares_storage[b]"),
                 ("Optimizer.load_state_dict:state_tensors", "same_object[b]")])
def _():
    def load_state_dict(self, state_dict):
        return original.optimizer_load_state_dict(self, original.copy_deepcopy(state_dict))
    return [(torch.optim.Optimizer, "load_state_dict", load_state_dict)]


# ---- autograd --------------------------------------------------------------------------------------------------------
@fault("resize_as__keeps_version", "resize_as_() resizes the tensor without moving its version counter (as 2.0 "
       "did): the resize goes through a .data alias, whose counter is its own", entries=["Tensor.resize_as_:version"],
       expected=[("Tensor.resize_as_:version", "version_bumped")])
def _():
    def resize_as_(self, other, *args, **kwargs):
        alias = original.data.__get__(self, type(self))
        original.resize_as_(alias, other, *args, **kwargs)
        original.data.__set__(self, alias)
        return self
    return [(original.T, "resize_as_", resize_as_)]


@fault("allow_mutation_on_saved_tensors_noop", "torch.autograd.graph.allow_mutation_on_saved_tensors() does "
       "nothing: a saved tensor written inside it still fails backward (as before 2.0, which had no such context)",
       entries=["autograd.allow_mutation_on_saved_tensors"],
       expected=[("autograd.allow_mutation_on_saved_tensors", "raises")])
def _():
    class Nothing:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    return [(torch.autograd.graph, "allow_mutation_on_saved_tensors", lambda: Nothing())]

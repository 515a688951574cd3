"""The originals every fault calls, captured at import before any fault is applied, so that one fault never routes
through another patched attribute (the harness captures its own instruments the same way: copysuite/run/storage.py);
and the small helpers the faults share."""
from __future__ import annotations

import copy

import torch
import torch.autograd.forward_ad as fwad
import torch.utils.dlpack

# ---- the originals ----------------------------------------------------------
T = torch.Tensor
clone = T.clone
detach = T.detach
view = T.view
view_as = T.view_as
reshape = T.reshape
contiguous = T.contiguous
numpy = T.numpy
cpu = T.cpu
to = T.to
double = T.double
array = T.__array__
item = T.item
retain_grad = T.retain_grad
new_tensor = T.new_tensor
conj = T.conj
narrow = T.narrow
zero_ = T.zero_
requires_grad_ = T.requires_grad_
register_hook = T.register_hook
deepcopy = T.__deepcopy__
neg_view = torch._neg_view
_BASE = vars(getattr(torch._C, "TensorBase", None) or torch._C._TensorBase)
data = _BASE["data"]  # the C getset behind .data
grad = _BASE["grad"]  # ... behind .grad, .real and .imag
real = _BASE["real"]
imag = _BASE["imag"]
from_numpy = torch.from_numpy
as_tensor = torch.as_tensor
asarray = torch.asarray
is_grad_enabled = torch.is_grad_enabled
no_grad = torch.no_grad
inference_mode = torch.inference_mode
copy_ = T.copy_
# form
flatten = T.flatten
numel = T.numel
# serialization
load = torch.load
save = torch.save
Parameter = torch.nn.Parameter
is_tensor = torch.is_tensor


def own_memory(t):
    """A copy of `t` in a storage of its own, with its type (Parameter) and requires_grad."""
    out = detach(clone(t))
    if isinstance(t, Parameter):
        return Parameter(out, requires_grad=t.requires_grad)
    return requires_grad_(out) if t.requires_grad else out


def each_tensor(obj, change):
    """`obj` with `change` applied to a tensor, or to every tensor of a list or tuple."""
    if is_tensor(obj):
        return change(obj)
    if isinstance(obj, (list, tuple)):
        return type(obj)(change(x) if is_tensor(x) else x for x in obj)
    return obj
# storage
set_ = T.set_
share_memory_ = T.share_memory_
untyped_storage = getattr(T, "untyped_storage", None)
is_inference_mode_enabled = torch.is_inference_mode_enabled
# module
Module = torch.nn.Module
state_dict = Module.state_dict
load_state_dict = Module.load_state_dict
# sparse
values = T.values
coalesce = T.coalesce
try:  # the jagged layout's tensor subclass (torch >= 2.2)
    from torch.nested._internal.nested_tensor import NestedTensor as NestedTensor
except ImportError:
    NestedTensor = None
nested_values = getattr(NestedTensor, "values", None)
# promise
mul = T.__mul__
resize_ = T.resize_
indices = T.indices
tensor = torch.tensor
from_dlpack = torch.from_dlpack
nested_narrow = getattr(torch.nested, "narrow", None)
nested_from_jagged = getattr(torch.nested, "nested_tensor_from_jagged", None)
make_dual, unpack_dual = fwad.make_dual, fwad.unpack_dual
module_to = Module.to
INTEGER = (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64)


def dtype_of(args, kwargs):
    return kwargs.get("dtype") or next((a for a in args if isinstance(a, torch.dtype)), None)
# promise3
as_nested_tensor = torch.nested.as_nested_tensor
nested_tensor = torch.nested.nested_tensor
set_default_mmap_options = getattr(torch.serialization, "set_default_mmap_options", None)
get_default_mmap_options = getattr(torch.serialization, "get_default_mmap_options", None)
contiguous_format = torch.contiguous_format


# ---- helpers --------------------------------------------------------------------------------------------------------
def write_same_values(t):
    """Bump t's version counter by an in-place write of its own values (releases before 2.1 have neither
    torch.autograd.graph.increment_version nor torch._C._increment_version)."""
    with no_grad():
        copy_(t, t)


increment_version = getattr(getattr(torch.autograd, "graph", None), "increment_version", None) or getattr(
    torch._C, "increment_version", None) or write_same_values


def bump_version(t):
    """What an in-place write does to t's version counter. An inference tensor has none: nothing to bump (2.6.0's
    increment_version does nothing there, 2.2.2 and 2.4.1 raise)."""
    if not t.is_inference():
        increment_version(t)


def copying(real):
    """`real`, except that where it returns its first argument itself, a copy of it is returned."""
    def patched(first, *args, **kwargs):
        out = real(first, *args, **kwargs)
        return clone(out) if out is first else out
    return patched


def writable_part(t):
    """`t` with every broadcast (stride 0) dim narrowed to one element, so that an in-place write is allowed."""
    for d, (size, st) in enumerate(zip(t.shape, t.stride())):
        if st == 0 and size > 1:
            t = narrow(t, d, 0, 1)
    return t


def write_context(t):
    return inference_mode() if t.is_inference() else no_grad()


OTHER_DTYPE = {
    "bool": torch.uint8, "int64": torch.int32, "float64": torch.float32, "complex64": torch.complex128,
    "complex128": torch.complex64, "complex32": torch.complex64,
}


def other_dtype(dtype):
    name = str(dtype).replace("torch.", "")
    if name in OTHER_DTYPE:
        return OTHER_DTYPE[name]
    if dtype.is_floating_point:
        return torch.float64
    return torch.int64  # every other integer dtype


class ScaledClone(torch.autograd.Function):
    """clone() whose backward doubles the gradient. Its graph node is named CloneBackward0, like the real one, so
    that only the gradient's values give it away."""

    @staticmethod
    def forward(ctx, x, memory_format):
        return clone(x, memory_format=memory_format)

    @staticmethod
    def backward(ctx, grad):
        return grad * 2, None


ScaledClone._backward_cls.__name__ = ScaledClone._backward_cls.__qualname__ = "CloneBackward0"
# history
to_sparse = T.to_sparse
as_strided = T.as_strided
resize_as_ = T.resize_as_
to_dlpack = torch.utils.dlpack.to_dlpack
module_zero_grad = Module.zero_grad
optimizer_load_state_dict = torch.optim.Optimizer.load_state_dict
copy_deepcopy = copy.deepcopy
# sparse history
to_sparse_csr = T.to_sparse_csr
to_sparse_csc = T.to_sparse_csc
to_sparse_bsr = T.to_sparse_bsr
to_sparse_bsc = T.to_sparse_bsc
to_dense = T.to_dense
coalesced_ = T._coalesced_
sparse_coo_tensor = torch.sparse_coo_tensor
validate_loaded_sparse = getattr(torch._utils, "_validate_loaded_sparse_tensors", None)
check_sparse_tensor_invariants = getattr(torch.sparse, "check_sparse_tensor_invariants", None)

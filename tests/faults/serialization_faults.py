"""Faults in serialization and deep copies of structures of tensors (specs/serialization.yaml): torch.load loads each
tensor of a structure into memory of its own (the sharing between a view and its base is lost), torch.save stores a
view's own elements instead of its whole storage, and Tensor.__deepcopy__ copies a tensor's storage outside the memo
(a copied view no longer lives in its copied base). Registered with the rest of the catalog (tests/faults/
catalog.py imports this module).
"""
from __future__ import annotations

import torch

from tests.faults.fault import _T, _clone, _deepcopy, _detach, _requires_grad_, fault
from copysuite.run.storage import untyped_storage

_load = torch.load
_save = torch.save
_Parameter = torch.nn.Parameter
_is_tensor = torch.is_tensor


def _own_memory(t):
    """A copy of `t` in a storage of its own, with its type (Parameter) and requires_grad."""
    out = _detach(_clone(t))
    if isinstance(t, _Parameter):
        return _Parameter(out, requires_grad=t.requires_grad)
    return _requires_grad_(out) if t.requires_grad else out


def _each_tensor(obj, change):
    """`obj` with `change` applied to a tensor, or to every tensor of a list or tuple."""
    if _is_tensor(obj):
        return change(obj)
    if isinstance(obj, (list, tuple)):
        return type(obj)(change(x) if _is_tensor(x) else x for x in obj)
    return obj


@fault("load_splits_shared_storage", "torch.load gives every tensor of a loaded structure a storage of its own: a "
       "loaded view no longer lives in (nor writes through to) its loaded base",
       entries=["torch.save.views:weights_only_true", "torch.save.overlapping_views"],
       expected=[("torch.save.views:weights_only_true", "shares_storage[loaded_base]"),
                 ("torch.save.views:weights_only_true", "writes_through[loaded_base]"),
                 ("torch.save.overlapping_views", "shares_storage[first]")])
def _():
    def load(*args, **kwargs):
        return _each_tensor(_load(*args, **kwargs), _own_memory)
    return [(torch, "load", load)]


@fault("save_stores_view_elements", "torch.save stores a view's own elements (a compact copy) instead of the whole "
       "storage it lives in", entries=["torch.save.view_alone", "torch.save.views:weights_only_false"],
       expected=[("torch.save.view_alone", "storage_nbytes"),
                 ("torch.save.views:weights_only_false", "storage_nbytes")])
def _():
    def compact(t):
        whole = untyped_storage(t).nbytes()
        return t if isinstance(t, _Parameter) or whole <= t.numel() * t.element_size() else _own_memory(t)

    def save(obj, *args, **kwargs):
        return _save(_each_tensor(obj, compact), *args, **kwargs)
    return [(torch, "save", save)]


@fault("deepcopy_ignores_memo_for_storage", "Tensor.__deepcopy__ copies every tensor's storage anew (outside the "
       "memo): the copy of a view no longer lives in the copy of its base (the same tensor twice is still one copy)",
       entries=["copy.deepcopy.views"],
       expected=[("copy.deepcopy.views", "shares_storage[copied_base]"),
                 ("copy.deepcopy.views", "writes_through[copied_base]")])
def _():
    def __deepcopy__(self, memo):
        if not self.is_leaf or id(self) in memo:
            return _deepcopy(self, memo)  # the real error, or the tensor's own copy
        out = memo[id(self)] = _deepcopy(self, {})
        return out
    return [(_T, "__deepcopy__", __deepcopy__)]

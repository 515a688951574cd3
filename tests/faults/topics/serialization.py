"""Faults in the promises of specs/serialization.yaml: torch.save/torch.load, pickle and deep copies of structures. Each
breaks one promise the way a regression in torch would."""
from __future__ import annotations

from mmap import MAP_SHARED

import torch

from copysuite.run.storage import untyped_storage
from tests.faults import original
from tests.faults.fault import absent, fault


@fault("load_splits_shared_storage", "torch.load gives every tensor of a loaded structure a storage of its own: a "
       "loaded view no longer lives in (nor writes through to) its loaded base",
       entries=["torch.save.views:weights_only_true", "torch.save.overlapping_views"],
       expected=[("torch.save.views:weights_only_true", "shares_storage[loaded_base]"),
                 ("torch.save.views:weights_only_true", "writes_through[loaded_base]"),
                 ("torch.save.overlapping_views", "shares_storage[first]")])
def _():
    def load(*args, **kwargs):
        return original.each_tensor(original.load(*args, **kwargs), original.own_memory)
    return [(torch, "load", load)]


@fault("save_stores_view_elements", "torch.save stores a view's own elements (a compact copy) instead of the whole "
       "storage it lives in", entries=["torch.save.view_alone", "torch.save.views:weights_only_false"],
       expected=[("torch.save.view_alone", "storage_nbytes"),
                 ("torch.save.views:weights_only_false", "storage_nbytes")])
def _():
    def compact(t):
        whole = untyped_storage(t).nbytes()
        if isinstance(t, original.Parameter) or whole <= t.numel() * t.element_size():
            return t
        return original.own_memory(t)

    def save(obj, *args, **kwargs):
        return original.save(original.each_tensor(obj, compact), *args, **kwargs)
    return [(torch, "save", save)]


@fault("deepcopy_ignores_memo_for_storage", "Tensor.__deepcopy__ copies every tensor's storage anew (outside the "
       "memo): the copy of a view no longer lives in the copy of its base (the same tensor twice is still one copy)",
       entries=["copy.deepcopy.views"],
       expected=[("copy.deepcopy.views", "shares_storage[copied_base]"),
                 ("copy.deepcopy.views", "writes_through[copied_base]")])
def _():
    def __deepcopy__(self, memo):
        if not self.is_leaf or id(self) in memo:
            return original.deepcopy(self, memo)  # the real error, or the tensor's own copy
        out = memo[id(self)] = original.deepcopy(self, {})
        return out
    return [(original.T, "__deepcopy__", __deepcopy__)]


@fault("deepcopy_drops_grad", "copy.deepcopy of a tensor leaves the copy's .grad unset", entries=["copy.deepcopy.grad"],
       expected=[("copy.deepcopy.grad", "result_type")])
def _():
    def __deepcopy__(self, memo):
        out = original.deepcopy(self, memo)
        if out.is_leaf:
            out.grad = None
        return out
    return [(original.T, "__deepcopy__", __deepcopy__)]


@fault("legacy_save_loses_sharing", "torch.save(..., _use_new_zipfile_serialization=False) saves each tensor of a "
       "list with memory of its own, so a view and its base no longer share once loaded",
       entries=["torch.save.views:legacy_format"],
       expected=[("torch.save.views:legacy_format", "shares_storage[loaded_base]"),
                 ("torch.save.views:legacy_format", "writes_through[loaded_base]")])
def _():
    def save(obj, f, *args, **kwargs):
        if kwargs.get("_use_new_zipfile_serialization") is False and isinstance(obj, list):
            obj = [original.clone(t) if isinstance(t, torch.Tensor) else t for t in obj]
        return original.save(obj, f, *args, **kwargs)
    return [(torch, "save", save)]


if original.set_default_mmap_options is not None:   # 2.4+: the switch this fault turns
    @fault("mmap_load_shared", "torch.load(mmap=True) maps the file with MAP_SHARED instead of MAP_PRIVATE, so writes "
           "into a loaded tensor reach the file", entries=["torch.load:mmap_private"],
           expected=[("torch.load:mmap_private", "values_equal")])
    def _():
        def load(f, *args, mmap=None, **kwargs):
            if not mmap:
                return original.load(f, *args, mmap=mmap, **kwargs)
            before = original.get_default_mmap_options()
            original.set_default_mmap_options(MAP_SHARED)
            try:
                return original.load(f, *args, mmap=mmap, **kwargs)
            finally:
                original.set_default_mmap_options(before)
        return [(torch, "load", load)]
else:
    absent("mmap_load_shared", "this torch has no torch.serialization.set_default_mmap_options to turn")

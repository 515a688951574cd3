"""Faults in the promises of specs/storage.yaml: share_memory_, set_ and the storage objects of views. Each breaks one
promise the way a regression in torch would."""
from __future__ import annotations

import torch

from tests.faults import original
from tests.faults.fault import absent, fault


@fault("set_copies", "Tensor.set_(source) points the tensor at a copy of the source (memory of its own) instead of "
       "the source's storage", entries=["Tensor.set_"],
       expected=[("Tensor.set_", "is_set_to"), ("Tensor.set_", "shares_storage"), ("Tensor.set_", "same_storage"),
                 ("Tensor.set_", "writes_through")])
def _():
    def set_(self, source=None, *args, **kwargs):
        if isinstance(source, torch.Tensor):
            with original.no_grad():
                source = original.clone(source)
        return original.set_(self, *(() if source is None else (source,)), *args, **kwargs)
    return [(original.T, "set_", set_)]


@fault("share_memory_copies", "Tensor.share_memory_() moves a copy of the tensor to shared memory and returns it, "
       "leaving the tensor (and its views) where they were",
       entries=["Tensor.share_memory_", "Tensor.share_memory_:view_before"],
       expected=[("Tensor.share_memory_", "same_object"), ("Tensor.share_memory_", "shares_storage"),
                 ("Tensor.share_memory_:view_before", "is_shared")])
def _():
    def share_memory_(self):
        with original.no_grad():
            return original.share_memory_(original.clone(self))
    return [(original.T, "share_memory_", share_memory_)]


def _untyped_storage_copies():
    def untyped_storage(self):
        with original.no_grad():
            return original.untyped_storage(original.clone(self))
    return [(original.T, "untyped_storage", untyped_storage)]


if original.untyped_storage is not None:  # Tensor.untyped_storage exists from 2.0 (PR 91414)
    fault("untyped_storage_copies", "Tensor.untyped_storage() of a view returns a storage of its own holding a copy "
          "of the view's elements, not the storage the view lives in",
          entries=["Tensor.untyped_storage:view", "Tensor.set_:storage"],
          expected=[("Tensor.untyped_storage:view", "same_storage"), ("Tensor.untyped_storage:view", "shares_storage"),
                    ("Tensor.set_:storage", "is_set_to")])(_untyped_storage_copies)
else:
    absent("untyped_storage_copies", "this torch has no Tensor.untyped_storage to patch")


@fault("share_memory_moves_again", "share_memory_() of a tensor already in shared memory moves it to new shared "
       "memory again", entries=["Tensor.share_memory_:already_shared"],
       expected=[("Tensor.share_memory_:already_shared", "shares_storage[before]")])
def _():
    def share_memory_(self):
        if self.is_shared():
            moved = original.share_memory_(original.clone(self))
            with torch.no_grad():
                original.set_(self, moved)
            return self
        return original.share_memory_(self)
    return [(original.T, "share_memory_", share_memory_)]


@fault("set_empty_keeps_storage", "set_() with no source resizes the tensor to no elements in its own storage "
       "instead of giving it an empty storage", entries=["Tensor.set_:empty"],
       expected=[("Tensor.set_:empty", "shares_storage[alias]")])
def _():
    def set_(self, *args, **kwargs):
        return original.resize_(self, 0) if not args and not kwargs else original.set_(self, *args, **kwargs)
    return [(original.T, "set_", set_)]

"""Faults in storage-level aliasing (share_memory_, set_, untyped_storage) and in inference mode (which tensors are
inference tensors): each breaks one promise of specs/storage.yaml or specs/inference.yaml the way a regression in
torch would. Registered with the rest of the catalog (tests/faults/catalog.py imports this module).
"""
from __future__ import annotations

import torch

from tests.faults.fault import _T, _clone, _inference_mode, _no_grad, _view_as, fault

# the originals this module patches, captured before any fault is applied (tests/faults/fault.py's rule)
_set_ = _T.set_
_share_memory_ = _T.share_memory_
_untyped_storage = getattr(_T, "untyped_storage", None)
_is_inference_mode_enabled = torch.is_inference_mode_enabled


# ---- storage-level aliasing -------------------------------------------------------------------------------------------
@fault("set_copies", "Tensor.set_(source) points the tensor at a copy of the source (memory of its own) instead of "
       "the source's storage", entries=["Tensor.set_"],
       expected=[("Tensor.set_", "is_set_to"), ("Tensor.set_", "shares_storage"), ("Tensor.set_", "same_storage"),
                 ("Tensor.set_", "writes_through")])
def _():
    def set_(self, source=None, *args, **kwargs):
        if isinstance(source, torch.Tensor):
            with _no_grad():
                source = _clone(source)
        return _set_(self, *(() if source is None else (source,)), *args, **kwargs)
    return [(_T, "set_", set_)]


@fault("share_memory_copies", "Tensor.share_memory_() moves a copy of the tensor to shared memory and returns it, "
       "leaving the tensor (and its views) where they were",
       entries=["Tensor.share_memory_", "Tensor.share_memory_:view_before"],
       expected=[("Tensor.share_memory_", "same_object"), ("Tensor.share_memory_", "shares_storage"),
                 ("Tensor.share_memory_:view_before", "is_shared")])
def _():
    def share_memory_(self):
        with _no_grad():
            return _share_memory_(_clone(self))
    return [(_T, "share_memory_", share_memory_)]


def _untyped_storage_copies():
    def untyped_storage(self):
        with _no_grad():
            return _untyped_storage(_clone(self))
    return [(_T, "untyped_storage", untyped_storage)]


if _untyped_storage is not None:  # Tensor.untyped_storage exists from 2.0 (PR 91414)
    fault("untyped_storage_copies", "Tensor.untyped_storage() of a view returns a storage of its own holding a copy "
          "of the view's elements, not the storage the view lives in",
          entries=["Tensor.untyped_storage:view", "Tensor.set_:storage"],
          expected=[("Tensor.untyped_storage:view", "same_storage"), ("Tensor.untyped_storage:view", "shares_storage"),
                    ("Tensor.set_:storage", "is_set_to")])(_untyped_storage_copies)


# ---- inference mode ---------------------------------------------------------------------------------------------------
@fault("clone_keeps_inference", "Tensor.clone() of an inference tensor made outside inference mode is an inference "
       "tensor (the clone cannot then be written in place or made to require grad)",
       entries=["inference_mode.clone_of_inference", "inference_mode.clone_of_inference.mutate"],
       expected=[("inference_mode.clone_of_inference", "is_inference"),
                 ("inference_mode.clone_of_inference.mutate", "raises")])
def _():
    def clone(self, *args, **kwargs):
        if self.is_inference() and not _is_inference_mode_enabled():
            with _inference_mode():
                return _clone(self, *args, **kwargs)
        return _clone(self, *args, **kwargs)
    return [(_T, "clone", clone)]


@fault("view_as_in_inference_mode_is_inference", "Tensor.view_as() of a normal tensor inside inference mode returns "
       "an inference tensor (a fresh copy made there) instead of a normal view",
       entries=["inference_mode.view_of_normal"],
       expected=[("inference_mode.view_of_normal", "is_inference"),
                 ("inference_mode.view_of_normal", "shares_storage"),
                 ("inference_mode.view_of_normal", "autograd_view")])
def _():
    def view_as(self, other):
        if _is_inference_mode_enabled() and not self.is_inference():
            return _clone(self)
        return _view_as(self, other)
    return [(_T, "view_as", view_as)]

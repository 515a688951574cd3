"""Faults in the promises of specs/inference.yaml: inference tensors and inference mode. Each breaks one promise the way
a regression in torch would."""
from __future__ import annotations

import torch

from tests.faults import original
from tests.faults.fault import fault


@fault("clone_keeps_inference", "Tensor.clone() of an inference tensor made outside inference mode is an inference "
       "tensor (the clone cannot then be written in place or made to require grad)",
       entries=["inference_mode.clone_of_inference", "inference_mode.clone_of_inference.mutate"],
       expected=[("inference_mode.clone_of_inference", "is_inference"),
                 ("inference_mode.clone_of_inference.mutate", "raises")])
def _():
    def clone(self, *args, **kwargs):
        if self.is_inference() and not original.is_inference_mode_enabled():
            with original.inference_mode():
                return original.clone(self, *args, **kwargs)
        return original.clone(self, *args, **kwargs)
    return [(original.T, "clone", clone)]


@fault("view_as_in_inference_mode_is_inference", "Tensor.view_as() of a normal tensor inside inference mode returns "
       "an inference tensor (a fresh copy made there) instead of a normal view",
       entries=["inference_mode.view_of_normal"],
       expected=[("inference_mode.view_of_normal", "is_inference"),
                 ("inference_mode.view_of_normal", "shares_storage"),
                 ("inference_mode.view_of_normal", "autograd_view")])
def _():
    def view_as(self, other):
        if original.is_inference_mode_enabled() and not self.is_inference():
            return original.clone(self)
        return original.view_as(self, other)
    return [(original.T, "view_as", view_as)]


@fault("inference_saved_for_backward_allowed", "an inference tensor multiplied by a tensor that requires grad is "
       "cloned into a normal tensor first, instead of being refused", entries=["inference_mode.saved_for_backward"],
       expected=[("inference_mode.saved_for_backward", "raises")])
def _():
    def __mul__(self, other):
        if self.is_inference() and isinstance(other, torch.Tensor) and other.requires_grad:
            self = original.clone(self)
        return original.mul(self, other)
    return [(original.T, "__mul__", __mul__)]

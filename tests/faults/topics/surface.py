"""Faults in the operator surface (copysuite/surface): a view op that copies, an in-place op that returns a new tensor
or skips its version bump, an out= op that returns a fresh tensor or leaves an empty out unresized, a functional op that
returns an alias. Each is caught by the surface cell of the op whose schema states the contract (copysuite/surface).
"""
from __future__ import annotations

import torch

from tests.faults import original
from tests.faults.fault import fault

_transpose = torch.transpose
_mul_ = original.T.mul_
_fill_ = original.T.fill_
_mm = torch.mm
_torch_clone = torch.clone


@fault("surface_view_copies", "torch.transpose returns a copy instead of a view of its input",
       entries=["surface.alias:transpose"], expected=[("surface.alias:transpose", "contract")])
def _():
    def transpose(input, *args, **kwargs):
        return original.clone(_transpose(input, *args, **kwargs))
    return [(torch, "transpose", transpose)]


@fault("surface_inplace_new_tensor", "Tensor.mul_ writes self but returns a new tensor (a copy of self)",
       entries=["surface.inplace:mul_"], expected=[("surface.inplace:mul_", "contract")])
def _():
    def mul_(self, *args, **kwargs):
        return original.clone(_mul_(self, *args, **kwargs))
    return [(original.T, "mul_", mul_)]


@fault("surface_inplace_no_version_bump", "Tensor.fill_ writes self through .data: the values change, self's "
       "version counter does not", entries=["surface.inplace:fill_"],
       expected=[("surface.inplace:fill_", "contract")])
def _():
    def fill_(self, value):
        _fill_(original.data.__get__(self), value)
        return self
    return [(original.T, "fill_", fill_)]


@fault("surface_out_fresh_tensor", "torch.mm with out= writes out but returns a new tensor (a copy of out)",
       entries=["surface.out:mm"], expected=[("surface.out:mm", "contract")])
def _():
    def mm(*args, out=None, **kwargs):
        if out is None:
            return _mm(*args, **kwargs)
        return original.clone(_mm(*args, out=out, **kwargs))
    return [(torch, "mm", mm)]


@fault("surface_functional_alias", "torch.clone returns a view of its input (an alias) instead of a new tensor",
       entries=["surface.functional:clone"], expected=[("surface.functional:clone", "contract")])
def _():
    def clone(input, *args, **kwargs):
        return original.view_as(input, input)
    return [(torch, "clone", clone)]


@fault("surface_out_empty_not_resized", "torch.mm with an out that has no element computes the product but leaves "
       "out as it was (no resize, nothing written) and returns it", entries=["surface.out:mm"],
       expected=[("surface.out:mm", "contract")])
def _():
    def mm(*args, out=None, **kwargs):
        if out is None or out.numel():
            return _mm(*args, out=out, **kwargs) if out is not None else _mm(*args, **kwargs)
        _mm(*args, **kwargs)
        return out
    return [(torch, "mm", mm)]

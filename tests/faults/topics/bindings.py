"""Faults in the public Python bindings (copysuite/surface/bindings.py) that the aten op behind them never sees: one
element of a multi-output result turned into a copy (a split's last chunk, an iteration's second item, unbind's
first slice), and a method torch/_tensor.py defines in Python returning a copy. Each is caught by the binding cell
that calls the binding itself (surface.binding:NAME), whatever the dispatcher's op does.
"""
from __future__ import annotations

import torch

from tests.faults import original
from tests.faults.fault import fault

_split = original.T.split
_iter = original.T.__iter__
_unflatten = original.T.unflatten
_unbind = torch.unbind


def _contract(*entries):
    return {"entries": list(entries), "expected": [(e, "contract") for e in entries]}


@fault("binding_split_last_chunk_copied", "Tensor.split (torch/_tensor.py) returns its last chunk as a copy; the "
       "other chunks stay views", **_contract("surface.binding:Tensor.split", "surface.binding:torch.split"))
def _():
    def split(self, *args, **kwargs):
        chunks = _split(self, *args, **kwargs)
        return (*chunks[:-1], original.clone(chunks[-1]))
    return [(original.T, "split", split)]


@fault("binding_iter_second_item_copied", "iterating over a tensor (Tensor.__iter__) yields a copy as its second item",
       **_contract("surface.binding:Tensor.__iter__"))
def _():
    def iterate(self):
        return iter([original.clone(t) if i == 1 else t for i, t in enumerate(_iter(self))])
    return [(original.T, "__iter__", iterate)]


@fault("binding_unbind_first_slice_copied", "torch.unbind returns its first slice as a copy (the method Tensor.unbind "
       "and aten::unbind stay right)", **_contract("surface.binding:torch.unbind"))
def _():
    def unbind(input, *args, **kwargs):
        slices = _unbind(input, *args, **kwargs)
        return (original.clone(slices[0]), *slices[1:])
    return [(torch, "unbind", unbind)]


@fault("binding_unflatten_copies", "Tensor.unflatten (defined in Python, torch/_tensor.py) returns a copy instead of "
       "a view", **_contract("surface.binding:Tensor.unflatten"))
def _():
    def unflatten(self, *args, **kwargs):
        return original.clone(_unflatten(self, *args, **kwargs))
    return [(original.T, "unflatten", unflatten)]

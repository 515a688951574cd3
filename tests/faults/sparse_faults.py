"""Faults in sparse COO and nested tensors (issue 12): values() of a sparse tensor returns a copy, coalesce() copies
a tensor that is already coalesced, and values() of a jagged nested tensor returns a copy of its buffer. Caught by
the entries of specs/sparse_nested.yaml. Registered with the rest of the catalog (tests/faults/catalog.py
imports this module).
"""
from __future__ import annotations

import torch

from tests.faults.fault import _T, _clone, _copying, fault

_values = _T.values
_coalesce = _T.coalesce
try:  # the jagged layout's tensor subclass (torch >= 2.2)
    from torch.nested._internal.nested_tensor import NestedTensor as _NestedTensor
except ImportError:
    _NestedTensor = None
_nested_values = getattr(_NestedTensor, "values", None)


@fault("sparse_values_copies", "values() of a sparse COO tensor returns a copy of its values instead of the tensor "
       "it holds (a write into it no longer reaches the sparse tensor)",
       entries=["Tensor.values:sparse", "Tensor.values:sparse.write_through", "Tensor.coalesce:coalesced.values"],
       expected=[("Tensor.values:sparse", "shares_storage[v]"), ("Tensor.values:sparse.write_through", "values_equal[z]"),
                 ("Tensor.coalesce:coalesced.values", "shares_storage[v]")])
def _():
    def values(self):
        out = _values(self)
        return _clone(out) if self.layout == torch.sparse_coo else out
    return [(_T, "values", values)]


@fault("coalesce_copies_coalesced", "coalesce() of an already coalesced sparse tensor returns a copy instead of "
       "the tensor itself", entries=["Tensor.coalesce:coalesced", "Tensor.coalesce:coalesced.values"],
       expected=[("Tensor.coalesce:coalesced", "same_object[sp]"),
                 ("Tensor.coalesce:coalesced.values", "shares_storage[v]")])
def _():
    return [(_T, "coalesce", _copying(_coalesce))]


if _NestedTensor is not None:
    @fault("nested_values_copies", "values() of a jagged nested tensor returns a copy of its packed buffer instead "
           "of the buffer itself", entries=["torch.nested.nested_tensor:jagged.values"],
           expected=[("torch.nested.nested_tensor:jagged.values", "shares_storage[v]"),
                     ("torch.nested.nested_tensor:jagged.values", "writes_through[v]")])
    def _():
        def values(self):
            return _clone(_nested_values(self))
        return [(_NestedTensor, "values", values)]

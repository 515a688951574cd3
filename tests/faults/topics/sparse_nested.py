"""Faults in the promises of specs/sparse_nested.yaml: sparse COO and nested tensors. Each breaks one promise the way a
regression in torch would."""
from __future__ import annotations

import torch

from tests.faults import original
from tests.faults.fault import fault


@fault("sparse_values_copies", "values() of a sparse COO tensor returns a copy of its values instead of the tensor "
       "it holds (a write into it no longer reaches the sparse tensor)",
       entries=["Tensor.values:sparse", "Tensor.values:sparse.write_through", "Tensor.coalesce:coalesced.values"],
       expected=[("Tensor.values:sparse", "shares_storage[v]"),
                 ("Tensor.values:sparse.write_through", "values_equal[z]"),
                 ("Tensor.coalesce:coalesced.values", "shares_storage[v]")])
def _():
    def values(self):
        out = original.values(self)
        return original.clone(out) if self.layout == torch.sparse_coo else out
    return [(original.T, "values", values)]


@fault("coalesce_copies_coalesced", "coalesce() of an already coalesced sparse tensor returns a copy instead of "
       "the tensor itself", entries=["Tensor.coalesce:coalesced", "Tensor.coalesce:coalesced.values"],
       expected=[("Tensor.coalesce:coalesced", "same_object[sp]"),
                 ("Tensor.coalesce:coalesced.values", "shares_storage[v]")])
def _():
    return [(original.T, "coalesce", original.copying(original.coalesce))]


if original.NestedTensor is not None:
    @fault("nested_values_copies", "values() of a jagged nested tensor returns a copy of its packed buffer instead "
           "of the buffer itself", entries=["torch.nested.nested_tensor:jagged.values"],
           expected=[("torch.nested.nested_tensor:jagged.values", "shares_storage[v]"),
                     ("torch.nested.nested_tensor:jagged.values", "writes_through[v]")])
    def _():
        def values(self):
            return original.clone(original.nested_values(self))
        return [(original.NestedTensor, "values", values)]


@fault("sparse_accessors_accept_dense", "coalesce(), values() and indices() of a dense tensor return it (values(), "
       "coalesce()) or its nonzero coordinates (indices()) instead of refusing",
       entries=["Tensor.coalesce:dense", "Tensor.values:dense", "Tensor.indices:dense"],
       expected=[("Tensor.coalesce:dense", "raises"), ("Tensor.values:dense", "raises"),
                 ("Tensor.indices:dense", "raises")])
def _():
    def dense_ok(real, dense):
        return lambda self: real(self) if self.layout != torch.strided else dense(self)
    return [(original.T, "coalesce", dense_ok(original.coalesce, lambda t: t)),
            (original.T, "values", dense_ok(original.values, lambda t: t)),
            (original.T, "indices", dense_ok(original.indices, lambda t: torch.nonzero(t).t()))]


@fault("nested_views_copy", "torch.nested.narrow and nested_tensor_from_jagged build their nested tensor over a copy "
       "of the dense input", entries=["torch.nested.narrow:jagged", "torch.nested.nested_tensor_from_jagged"],
       expected=[("torch.nested.narrow:jagged", "shares_storage"),
                 ("torch.nested.nested_tensor_from_jagged", "shares_storage"),
                 ("torch.nested.nested_tensor_from_jagged", "writes_through")])
def _():
    def narrow(tensor, *args, **kwargs):
        return original.nested_narrow(original.clone(tensor), *args, **kwargs)

    def nested_tensor_from_jagged(values, *args, **kwargs):
        return original.nested_from_jagged(original.clone(values), *args, **kwargs)
    return [(torch.nested, "narrow", narrow), (torch.nested, "nested_tensor_from_jagged", nested_tensor_from_jagged)]


@fault("as_nested_tensor_copies", "as_nested_tensor() of a contiguous tensor copies it instead of using its storage",
       entries=["torch.nested.as_nested_tensor:tensor"],
       expected=[("torch.nested.as_nested_tensor:tensor", "shares_storage"),
                 ("torch.nested.as_nested_tensor:tensor", "writes_through")])
def _():
    def as_nested_tensor(ts, *args, **kwargs):
        return original.as_nested_tensor(original.clone(ts) if isinstance(ts, torch.Tensor) else ts, *args, **kwargs)
    return [(torch.nested, "as_nested_tensor", as_nested_tensor)]

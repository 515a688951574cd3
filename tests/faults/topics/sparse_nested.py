"""Faults in the promises of specs/sparse_nested.yaml: sparse COO and nested tensors, and the sparse layouts' release
history. Each breaks one promise the way a regression in torch would; a history fault takes torch to the other side
of one version gate."""
from __future__ import annotations

import inspect
import warnings

import torch

from tests.faults import original
from tests.faults.fault import absent, fault


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
else:
    absent("nested_values_copies", "this torch has no jagged NestedTensor class to patch")


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


# ---- the sparse layouts across releases: each takes torch to the other side of one version gate ---------------------
COMPRESSED = {"to_sparse_csr": torch.sparse_csr, "to_sparse_csc": torch.sparse_csc,
              "to_sparse_bsr": torch.sparse_bsr, "to_sparse_bsc": torch.sparse_bsc}


@fault("compressed_conversion_copies", "to_sparse_csr/csc/bsr/bsc() of a tensor already in that layout returns a "
       "new tensor (as 1.13 and 2.0 did) instead of the tensor itself",
       entries=[f"Tensor.{name}:sparse_{name[10:]}" for name in COMPRESSED],
       expected=[(f"Tensor.{name}:sparse_{name[10:]}", "same_object[s]") for name in COMPRESSED])
def _():
    return [(original.T, name, original.copying(getattr(original, name))) for name in COMPRESSED]


@fault("csc_to_coo_marked_coalesced", "to_sparse() of a CSC tensor marks the COO result coalesced (as 1.13 did), so "
       "coalesce() returns it instead of a new tensor", entries=["Tensor.to_sparse:from_csc.coalesce"],
       expected=[("Tensor.to_sparse:from_csc.coalesce", "same_object[k]")])
def _():
    def to_sparse(self, *args, **kwargs):
        out = original.to_sparse(self, *args, **kwargs)
        if self.layout == torch.sparse_csc and out.layout == torch.sparse_coo:
            original.coalesced_(out, True)
        return out
    return [(original.T, "to_sparse", to_sparse)]


def without_is_coalesced(refuse):
    def sparse_coo_tensor(*args, **kwargs):
        if "is_coalesced" in kwargs and refuse:
            raise TypeError("sparse_coo_tensor() received an invalid combination of arguments")
        kwargs.pop("is_coalesced", None)
        return original.sparse_coo_tensor(*args, **kwargs)
    return [(torch, "sparse_coo_tensor", sparse_coo_tensor)]


@fault("sparse_coo_tensor_ignores_is_coalesced", "sparse_coo_tensor(..., is_coalesced=True) builds a tensor not "
       "marked coalesced, so coalesce() returns a new one", entries=["torch.sparse_coo_tensor:is_coalesced"],
       expected=[("torch.sparse_coo_tensor:is_coalesced", "same_object[t]")])
def _():
    return without_is_coalesced(refuse=False)


@fault("sparse_coo_tensor_refuses_is_coalesced", "sparse_coo_tensor refuses the is_coalesced keyword (TypeError, as "
       "1.13 and 2.0 did)", entries=["torch.sparse_coo_tensor:is_coalesced.keyword"],
       expected=[("torch.sparse_coo_tensor:is_coalesced.keyword", "raises")])
def _():
    return without_is_coalesced(refuse=True)


def loaded_coo(obj):
    return isinstance(obj, torch.Tensor) and obj.layout == torch.sparse_coo


@fault("load_drops_coalesced_flag", "torch.load rebuilds a coalesced COO tensor unmarked (as 1.13 and 2.0 did), so "
       "coalesce() of it returns a new tensor", entries=["torch.save.sparse_coo:coalesced"],
       expected=[("torch.save.sparse_coo:coalesced", "same_object[loaded]")])
def _():
    def load(*args, **kwargs):
        out = original.load(*args, **kwargs)
        if loaded_coo(out):
            original.coalesced_(out, False)
        return out
    return [(torch, "load", load)]


@fault("save_refuses_sparse_compressed", "torch.save refuses a CSC, BSR or BSC tensor (as 1.13 did)",
       entries=["torch.save.sparse_csc", "torch.save.sparse_csc.values"],
       expected=[("torch.save.sparse_csc", "raises"), ("torch.save.sparse_csc.values", "raises")])
def _():
    def save(obj, *args, **kwargs):
        if isinstance(obj, torch.Tensor) and obj.layout in (torch.sparse_csc, torch.sparse_bsr, torch.sparse_bsc):
            raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")
        return original.save(obj, *args, **kwargs)
    return [(torch, "save", save)]


def validate_coo(t):
    """Refuses a COO tensor whose indices break its invariants, as torch.load's validation does."""
    original.sparse_coo_tensor(t._indices(), t._values(), t.shape, check_invariants=True)


@fault("load_validates_sparse", "torch.load validates every sparse COO tensor it loads, whatever the global setting "
       "(as 1.13 to 2.7 did)", entries=["torch.load:sparse_coo.invalid"],
       expected=[("torch.load:sparse_coo.invalid", "raises")])
def _():
    def load(*args, **kwargs):
        out = original.load(*args, **kwargs)
        if loaded_coo(out):
            validate_coo(out)
        return out
    return [(torch, "load", load)]


@fault("load_skips_sparse_validation", "torch.load never validates the sparse tensors it loads, even under "
       "torch.sparse.check_sparse_tensor_invariants()", entries=["torch.load:sparse_coo.invalid.checked"],
       expected=[("torch.load:sparse_coo.invalid.checked", "raises")])
def _():
    def load(*args, **kwargs):
        with original.check_sparse_tensor_invariants(enable=False):
            return original.load(*args, **kwargs)
    return [(torch, "load", load)]


@fault("weights_only_validation_flipped", "a weights-only torch.load of sparse tensors does the other side of PR "
       "184750: before 2.14 it validates them and warns so (2.14's behaviour), from 2.14 it follows the global "
       "setting (2.8 to 2.13's)", entries=["torch.load:sparse_coo.invalid.weights_only",
                                          "torch.load:sparse_coo.weights_only_warns"],
       expected=[("torch.load:sparse_coo.invalid.weights_only", "raises"),
                 ("torch.load:sparse_coo.weights_only_warns", "warns")])
def _():
    if "weights_only" in inspect.signature(original.validate_loaded_sparse).parameters:  # 2.14 and later
        def validate(weights_only=False):
            return original.validate_loaded_sparse(weights_only=False)
        return [(torch._utils, "_validate_loaded_sparse_tensors", validate)]

    def load(*args, **kwargs):
        out = original.load(*args, **kwargs)
        if kwargs.get("weights_only") and loaded_coo(out):
            warnings.warn("Validating sparse tensor invariants because weights_only=True", UserWarning, stacklevel=2)
            validate_coo(out)
        return out
    return [(torch, "load", load)]


class RefusedToDense(torch.autograd.Function):
    """to_dense() whose backward refuses a CSR input, as 1.13's to_dense_backward did."""

    @staticmethod
    def forward(ctx, x):
        return original.to_dense(x)

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("to_dense_backward: Unsupported input layout: SparseCsr")


@fault("to_dense_backward_refuses_csr", "backward through to_dense() of a CSR tensor raises (as 1.13 did) instead of "
       "giving it a CSR gradient", entries=["Tensor.to_dense:sparse_csr.backward",
                                            "Tensor.to_dense:sparse_csr.backward.grad"],
       expected=[("Tensor.to_dense:sparse_csr.backward", "raises"),
                 ("Tensor.to_dense:sparse_csr.backward.grad", "raises")])
def _():
    def to_dense(self, *args, **kwargs):
        if self.layout == torch.sparse_csr and self.requires_grad and torch.is_grad_enabled():
            return RefusedToDense.apply(self)
        return original.to_dense(self, *args, **kwargs)
    return [(original.T, "to_dense", to_dense)]

"""Faults in the promises of specs/views.yaml and specs/view_or_copy.yaml: views, reshape, flatten, contiguous. Each
breaks one promise the way a regression in torch would."""
from __future__ import annotations

from tests.faults import original
from tests.faults.fault import fault


@fault("view_copies", "Tensor.view() returns a copy (in the graph) instead of a view",
       entries=["view:flat"], expected=[("view:flat", "shares_storage"), ("view:flat", "writes_through"),
                                   ("view:flat", "autograd_view"), ("view:flat", "shares_version_counter")])
def _():
    def view(self, *args, **kwargs):
        return original.clone(original.view(self, *args, **kwargs))
    return [(original.T, "view", view)]


@fault("reshape_always_copies", "reshape() copies even when the strides allow a view", entries=["reshape:flat"],
       expected=[("reshape:flat", "shares_storage"), ("reshape:flat", "autograd_view")],
       harness_contact=("copysuite/strategies/cases.py:build",),
       contact_note="Case.build runs the printed input code, `source.copy_(flat.reshape(shape))`, to fill the "
                    "input: it only reads the reshaped values, so an extra copy changes nothing")
def _():
    def reshape(self, *args, **kwargs):
        return original.clone(original.reshape(self, *args, **kwargs))
    return [(original.T, "reshape", reshape)]


@fault("contiguous_always_copies", "contiguous() copies a tensor that is already contiguous instead of returning it",
       entries=["contiguous"], expected=[("contiguous", "same_object"), ("contiguous", "shares_storage")])
def _():
    return [(original.T, "contiguous", original.copying(original.contiguous))]


@fault("reshape_multidim_copies", "reshape() to a shape of two or more dims always copies, even where a view is "
       "possible", entries=["reshape:merge_last", "reshape:reversed_shape"],
       expected=[("reshape:merge_last", "view_or_contiguous_copy"),
                 ("reshape:reversed_shape", "view_or_contiguous_copy")],
       harness_contact=("copysuite/strategies/cases.py:build",),
       contact_note="Case.build runs the printed input code, `source.copy_(flat.reshape(shape))`: a contiguous copy of "
                    "the flat values has the same values, which copy_ writes into the source")
def _():
    def reshape(self, *shape):
        out = original.reshape(self, *shape)
        return original.clone(out, memory_format=original.contiguous_format) if out.dim() >= 2 else out
    return [(original.T, "reshape", reshape)]

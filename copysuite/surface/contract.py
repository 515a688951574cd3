"""The documented rule of each alias op whose schema says "may alias" (a CompositeImplicitAutograd op: it dispatches
to views, copies, or nothing at all), with the documentation that states it. What each class promises is
the clauses of copysuite.surface.checks, one method per class.

Rules of a "may alias" op, decided per input by the builder that knows the input (copysuite.surface.builders):
    view    the result is a view of the argument (shares storage, an autograd view, one version counter)
    self    the result is the argument object itself
    copy    the result shares no memory with the argument
"""
from __future__ import annotations

TENSOR_VIEWS = "https://pytorch.org/docs/stable/tensor_view.html"
DOCS = "https://pytorch.org/docs/stable/generated/"

# op name -> (the rule per input, the documentation's words). "view" alone: always a view (a composite of views).
MAY_ALIAS = {
    "reshape": ("view if the input's strides allow it, else copy", DOCS + "torch.reshape.html: \"When possible, "
                "the returned tensor will be a view of input. Otherwise, it will be a copy.\""),
    "reshape_as": ("as reshape", DOCS + "torch.Tensor.reshape_as.html: \"This method returns a view if "
                   "other.shape is compatible with the current shape.\""),
    "flatten": ("self, view or copy", DOCS + "torch.flatten.html: \"this function may return the original object, "
                "a view, or copy\""),
    "ravel": ("view if possible, else copy", DOCS + "torch.ravel.html: \"A copy is made only if needed.\""),
    "contiguous": ("self if already contiguous, else copy", DOCS + "torch.Tensor.contiguous.html: \"If self tensor "
                   "is already in the specified memory format, this function returns the self tensor.\""),
    "to": ("self if dtype and device already match, else copy", DOCS + "torch.Tensor.to.html: \"If the self Tensor "
           "already has the correct torch.dtype and torch.device, then self is returned. Otherwise, the returned "
           "tensor is a copy of self\""),
    "conj": ("self for a non-complex input, else a view with the conjugate bit", DOCS + "torch.conj.html: \"If "
             "input has a non-complex dtype, this function just returns input.\""),
    "real": ("self for a real input, else a view", DOCS + "torch.real.html: \"The returned tensor and input share the "
             "same underlying storage.\" (a real input is returned itself)"),
    "positive": ("self", DOCS + "torch.positive.html: \"Returns input.\""),
    "resolve_conj": ("self if the conjugate bit is not set, else copy", DOCS + "torch.resolve_conj.html: \"Returns "
                     "a new tensor with materialized conjugation if input's conjugate bit is set to True, else "
                     "returns input.\""),
    "resolve_neg": ("self if the negative bit is not set, else copy", DOCS + "torch.resolve_neg.html: \"Returns a "
                    "new tensor with materialized negation if input's negative bit is set to True, else returns "
                    "input.\""),
    "coalesce": ("self if already coalesced, else a new tensor", DOCS + "torch.Tensor.coalesce.html: \"Returns a "
                 "coalesced copy of self if self is an uncoalesced tensor.\" (and self otherwise)"),
    "pin_memory": ("self if already pinned, else copy", DOCS + "torch.Tensor.pin_memory.html: \"Copies the tensor "
                   "to pinned memory, if it's not already pinned.\""),
    "_autocast_to_full_precision": ("self or copy (private)", "aten/src/ATen/native/native_functions.yaml"),
    "_autocast_to_reduced_precision": ("self or copy (private)", "aten/src/ATen/native/native_functions.yaml"),
}


def rule(name: str) -> str:
    """The documented rule of an alias op: "view" unless it is one of the "may alias" ops above."""
    return MAY_ALIAS[name][0] if name in MAY_ALIAS else "view"


def evidence(name: str) -> str:
    return MAY_ALIAS[name][1] if name in MAY_ALIAS else TENSOR_VIEWS

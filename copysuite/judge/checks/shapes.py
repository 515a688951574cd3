"""A check that relates the result's shape to the input's memory layout: whether a reshaped result could be a view of
its input (Tensor.view's documented condition), and so whether it must be one or a contiguous copy."""
from __future__ import annotations

import math

from copysuite.run import storage
from copysuite.judge.checks.base import Observed, check, one_of
from copysuite.spec.predicates import is_contiguous


def view_compatible(shape, stride, new_shape) -> bool:
    """Tensor.view's documented condition (https://docs.pytorch.org/docs/stable/generated/torch.Tensor.view.html): a
    tensor of sizes `shape` and strides `stride` can be viewed as `new_shape` (as many elements) when each new dim is
    a subspace of an original dim, or spans original dims d, d+1, ..., d+k that satisfy stride[i] == stride[i+1] *
    size[i+1] for i = d ... d+k-1. Size-1 dims are left out first (their stride addresses nothing), and a tensor with
    no elements can be viewed as any shape of as many elements (nothing to address).

    The original dims fall into runs that chain like one contiguous block; a new dim may lie within a run but not
    cross the end of one: every run's end (the number of elements up to it) is where some new dim ends too."""
    if math.prod(shape) != math.prod(new_shape):
        return False
    if math.prod(shape) == 0:
        return True
    dims = [(size, st) for size, st in zip(shape, stride) if size != 1]
    ends, count = set(), 1
    for i, (size, st) in enumerate(dims):
        count *= size
        if i == len(dims) - 1 or st != dims[i + 1][1] * dims[i + 1][0]:
            ends.add(count)
    new_ends, count = {1}, 1
    for size in new_shape:
        count *= size
        new_ends.add(count)
    return ends <= new_ends


@check("view_or_contiguous_copy", accepts=one_of(True), examples=(
    ("source.reshape(3, 2)", True), ("source.reshape(3, 2).clone()", False)))   # viewable, yet a copy
def view_or_contiguous_copy(run):
    """The result shares the input's storage exactly when Tensor.view's documented condition (`view_compatible`) lets
    the input's sizes and strides (before the call) be viewed as the result's shape; otherwise it is a copy with
    contiguous strides, what contiguous() gives (the Tensor Views page: reshape's copy is "equivalent to calling
    contiguous()")."""
    r = run.result
    shape, stride = run.before["shape"], run.before["stride"]
    viewable = view_compatible(shape, stride, tuple(r.shape))
    shares = storage.shares_storage(run.subject, r)
    contiguous = is_contiguous(tuple(r.shape), tuple(r.stride()))
    holds = shares if viewable else (not shares and contiguous)
    return Observed(holds, f"input {shape} strides {stride} {'can' if viewable else 'cannot'} be viewed as "
                           f"{tuple(r.shape)}; result strides {tuple(r.stride())}, "
                           f"{'shares' if shares else 'does not share'} the input's storage")

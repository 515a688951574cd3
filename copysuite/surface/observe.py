"""What the surface clauses observe of a call's tensors: storage, values, object identity, differentiability; and
the Python that moves a version counter without writing a value (copysuite.surface.checks judges with these)."""
from __future__ import annotations

import torch
from torch.utils._pytree import tree_flatten, tree_map, tree_unflatten

from copysuite.run.storage import untyped_storage


def listed(x) -> list:
    return list(x) if isinstance(x, (list, tuple)) else [x]


def tensors(result) -> list:
    return [t for t in tree_flatten(result)[0] if isinstance(t, torch.Tensor)]


def storage_ptr(t):
    if t.layout != torch.strided or t.numel() == 0:
        return None
    return untyped_storage(t).data_ptr()


def shares(a, b) -> bool:
    pa, pb = storage_ptr(a), storage_ptr(b)
    return pa is not None and pa == pb


def same(a, b) -> bool:
    """Equal values (NaN equals NaN), in a's dtype: an in-place comparison writes 1 and 0 into a float self."""
    try:
        b = b.to(a.dtype) if b.dtype != a.dtype and a.layout == b.layout == torch.strided else b
        torch.testing.assert_close(a.detach(), b.detach(), equal_nan=True, check_stride=False, atol=1e-5,
                                   rtol=1e-4, check_layout=False)
        return True
    except (AssertionError, TypeError, RuntimeError, ValueError):
        return False


def same_objects(result, out) -> bool:
    """`result` is `out` (each tensor of it); an out= overload writing a list (`Tensor(a!)[] out`) returns nothing."""
    if result is None and isinstance(out, (list, tuple)):
        return True
    got, want = tree_flatten(result)[0], tree_flatten(out)[0]
    return len(got) == len(want) and all(g is w for g, w in zip(got, want))


def differentiable(t) -> bool:
    return t.layout == torch.strided and (t.is_floating_point() or t.is_complex())


def empties(tensors_, spec):
    return tree_unflatten([torch.empty_like(t) for t in tensors_], spec)


def tree_map_grad(out):
    return tree_map(lambda t: t.requires_grad_() if isinstance(t, torch.Tensor) else t, out)


def bump(name: str, t) -> str:
    """Python that moves `name`'s version counter and writes no value. Before torch.autograd.graph.increment_version
    (2.0 and older): an in-place add of 0 into a view of no element (a view shares the counter; writing the tensor
    itself is refused where its elements overlap, as in an expanded result, and a nested tensor has no such view)."""
    if hasattr(getattr(torch.autograd, "graph", None), "increment_version"):
        return f"torch.autograd.graph.increment_version({name})"
    return f"with torch.no_grad(): {name}{'' if t.is_nested else '.as_strided((0,), (1,))'}.add_(0)"

"""Probing a tensor the way the checks need: its observable state (a snapshot) and an in-place write into it.

Like copysuite.run.storage, every torch function used here is captured when this module is imported, so that a fault
patched into torch changes what is under test, never the instruments.
"""
from __future__ import annotations

import numpy as np
import torch

from copysuite.run import storage

_narrow = torch.Tensor.narrow
_copy_ = torch.Tensor.copy_
_logical_not = torch.logical_not
_inference_mode = torch.inference_mode
_no_grad = torch.no_grad
_indices = torch.Tensor._indices   # a sparse COO tensor's own indices and values, coalesced or not
_values = torch.Tensor._values
_nnz = torch.Tensor._nnz
# what a sparse COO tensor holds (copysuite.judge.checks' sparse_untouched)
SPARSE_KEYS = ("shape", "nnz", "indices", "values")


def snapshot(t) -> dict:
    """What an op may change on a tensor: values, requires_grad, is_leaf, retains_grad, grad, version, bits,
    shape, strides, dtype (values and grad as exact bytes). Of a sparse or nested tensor, which has no strides nor
    one storage to read, its layout, dtype, requires_grad and is_leaf (what `same_object` and the attribute checks
    need; the memory checks cannot judge it); of a sparse COO tensor also its shape, number of specified elements,
    indices and values (exact bytes, off meta) and version."""
    if not storage.has_storage(t):
        snap = {"layout": str(t.layout), "dtype": str(t.dtype), "requires_grad": t.requires_grad,
                "is_leaf": t.is_leaf}
        if t.layout == torch.sparse_coo:
            snap.update(shape=tuple(t.shape), nnz=_nnz(t))
            if t.device.type != "meta":
                snap.update(indices=storage.value_bytes(_indices(t)), values=storage.value_bytes(_values(t)))
            if not t.is_inference():
                snap["version"] = t._version
        return snap
    grad = t.grad if (t.is_leaf or t.retains_grad) else None  # .grad of a non-leaf warns and is None anyway
    snap = {"requires_grad": t.requires_grad, "is_leaf": t.is_leaf, "retains_grad": t.retains_grad,
            "grad": None if grad is None else storage.value_bytes(grad) if t.device.type != "meta" else "meta",
            "is_conj": t.is_conj(), "is_neg": t.is_neg(), "shape": tuple(t.shape), "stride": tuple(t.stride()),
            "dtype": str(t.dtype)}
    if t.device.type != "meta":
        snap["values"] = storage.value_bytes(t)
    if not t.is_inference():
        snap["version"] = t._version
    return snap


def changes(before: dict, t) -> list[str]:
    """What differs between a snapshot and the tensor now, as "key: old -> new" lines."""
    after = snapshot(t)
    return [f"{k}: {before[k]!r} -> {after[k]!r}" for k in before if before[k] != after[k]]


def _write_context(t):
    return _inference_mode() if t.is_inference() else _no_grad()


def write_into(result):
    """Overwrite every element of `result` in place with a value that differs from it, where one value can (from
    0, 1, 2, ...: one of the first n + 1 differs from all n elements, unless the dtype rounds them together, and
    then with one that differs from at least one of them); booleans are flipped. So a write changes whatever part
    of `result` another tensor lives in.

    Returns a description of the write, or None when `result` cannot be written (a list, a scalar, no elements).
    Dims broadcast with stride 0 are written once (writing all of them is an error in torch).
    """
    if isinstance(result, np.ndarray):
        if result.size == 0 or not result.flags.writeable:
            return None
        if result.dtype == np.bool_:
            np.logical_not(result, out=result)
            return "numpy.logical_not(result, out=result)"
        some = None
        for c in range(result.size + 1):
            if not np.any(result == c):  # NaN == c never holds, so NaN elements are written too
                result[...] = c
                return f"ndarray[...] = {c}"
            some = c if some is None and np.any(result != c) else some
        if some is not None:
            result[...] = some
            return f"ndarray[...] = {some}"
        return None
    if not isinstance(result, torch.Tensor):
        return None
    if result.numel() == 0:  # nothing to change, but the write still counts as one for the version counter
        with _write_context(result):
            storage.fill(result, 0)
        return "result.fill_(0) (no elements)"
    target = result
    for d, (size, st) in enumerate(zip(result.shape, result.stride())):
        if st == 0 and size > 1:
            target = _narrow(target, d, 0, 1)
    part = " (on its un-broadcast part)" if target is not result else ""
    if result.dtype == torch.bool:
        with _write_context(result):
            _copy_(target, _logical_not(target))
        return "result.logical_not_()" + part
    current, width = storage.value_bytes(target), target.element_size()
    some = None
    for c in range(target.numel() + 1):
        filled = storage.value_bytes(storage.full_like_values(target, c))
        if all(filled[i:i + width] != current[i:i + width] for i in range(0, len(current), width)):
            some = c
            break
        some = c if some is None and filled != current else some
    if some is None:
        return None
    with _write_context(result):
        storage.fill(target, some)
    return f"result.fill_({some!r})" + part

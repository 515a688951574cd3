"""Probing a tensor the way the checks need: its observable state (a snapshot) and an in-place write into it.

Like copysuite.storage, every torch function used here is captured when this module is imported, so that a fault
patched into torch changes what is under test, never the instruments.
"""
from __future__ import annotations

import numpy as np
import torch

from copysuite import storage

_narrow = torch.Tensor.narrow
_inference_mode = torch.inference_mode
_no_grad = torch.no_grad


def snapshot(t) -> dict:
    """What an op may change on a tensor: values, requires_grad, is_leaf, retains_grad, grad, version, bits,
    shape, strides, dtype (values and grad as exact bytes). Of a sparse or nested tensor, which has no strides nor
    one storage to read, only its layout, dtype, requires_grad and is_leaf (what `same_object` and the attribute
    checks need; the memory checks cannot judge it)."""
    if not storage.has_storage(t):
        return {"layout": str(t.layout), "dtype": str(t.dtype), "requires_grad": t.requires_grad,
                "is_leaf": t.is_leaf}
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
    """Overwrite every element of `result` in place with a value that differs from at least one of them.

    Returns a description of the write, or None when `result` cannot be written (a list, a scalar, no elements).
    Dims broadcast with stride 0 are written once (writing all of them is an error in torch).
    """
    if isinstance(result, np.ndarray):
        if result.size == 0 or not result.flags.writeable:
            return None
        for c in (0, 1, 2, 3):
            if np.any(result != c):  # NaN != c, so an all-NaN array is written too
                result[...] = c
                return f"ndarray[...] = {c}"
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
    current = storage.value_bytes(target)
    candidates = (True, False) if result.dtype == torch.bool else (0, 1, 2, 3)
    for c in candidates:
        if storage.value_bytes(storage.full_like_values(target, c)) != current:
            with _write_context(result):
                storage.fill(target, c)
            return f"result.fill_({c!r})" + (" (on its un-broadcast part)" if target is not result else "")
    return None

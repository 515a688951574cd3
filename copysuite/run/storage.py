"""Memory facts about tensors and arrays: which storage they use, and exact snapshots of their values.

Every torch function used here is captured when this module is imported, so that a test which patches torch
(fault injection) changes what is under test, never the instruments that observe it.
"""
from __future__ import annotations

import numpy as np
import torch

_empty = torch.empty
_full = torch.full
_from_numpy = torch.from_numpy
_copy_ = torch.Tensor.copy_
_to = torch.Tensor.to
_resolve_conj = torch.Tensor.resolve_conj
_resolve_neg = torch.Tensor.resolve_neg
_view = torch.Tensor.view
_reshape = torch.Tensor.reshape
_numpy = torch.Tensor.numpy
_tolist = torch.Tensor.tolist
_untyped_storage = getattr(torch.Tensor, "untyped_storage", None)
_storage = torch.Tensor.storage
_is_set_to = torch.Tensor.is_set_to
_storage_offset = torch.Tensor.storage_offset
_no_grad = torch.no_grad
_tensor = torch.tensor
_assert_close = torch.testing.assert_close
STORAGE_TYPES = tuple(getattr(torch, name) for name in ("UntypedStorage", "TypedStorage") if hasattr(torch, name))
# TypedStorage's deprecation warning is emitted once per process (torch/storage.py, PR 97379; 2.0.1: PR 98777);
# torch >= 2.0 can re-arm it, releases before 2.0 do not warn at all
_reset_typed_storage_warning = getattr(torch.storage, "_reset_warn_typed_storage_removal", lambda: None)


def untyped_storage(t: torch.Tensor):
    """The untyped storage of `t`, on releases with and without `Tensor.untyped_storage` (added in 2.0)."""
    if _untyped_storage is not None:
        return _untyped_storage(t)
    typed = _storage(t)  # torch < 2.0: a TypedStorage wrapping the untyped one
    return getattr(typed, "_storage", typed)


def rearm_once_per_process_warnings() -> None:
    """Make torch's once-per-process warnings (TypedStorage's deprecation) fire again, so that every call is observed
    as the first call of a fresh process would be (as `warnings.simplefilter("always")` does for Python's registry)."""
    _reset_typed_storage_warning()


def untyped_of_storage(s):
    """The untyped storage behind a storage object: itself, or the one a TypedStorage wraps (`_untyped_storage`
    from 2.0, `_storage` before)."""
    for name in ("_untyped_storage", "_storage"):
        inner = getattr(s, name, None)
        if inner is not None:
            return inner
    return s


def _tensor_behind(arr: np.ndarray):
    """The tensor whose memory a numpy array borrows (Tensor.numpy() sets it as the array's base), if any."""
    seen = arr
    while isinstance(seen, np.ndarray):
        seen = seen.base
    return seen if isinstance(seen, torch.Tensor) else None


def has_storage(t: torch.Tensor) -> bool:
    """A tensor with strides over one storage: not sparse, not nested (what the memory checks can read)."""
    return t.layout == torch.strided and not getattr(t, "is_nested", False)


def _kind(t: torch.Tensor) -> str:
    return "nested" if getattr(t, "is_nested", False) else str(t.layout).replace("torch.", "")


def memory_of(obj):
    """(device, storage identity or None, first byte, past-the-end byte) of a tensor, an ndarray or a storage object
    (a tensor's: its whole storage's); None otherwise. A sparse or nested tensor has no single storage to compare:
    asking is an error, not an answer."""
    if isinstance(obj, torch.Tensor) and not has_storage(obj):
        raise TypeError(f"a {_kind(obj)} tensor has no single storage: the memory checks cannot judge it (judge a "
                        f"dense tensor it returned, such as values())")
    if isinstance(obj, STORAGE_TYPES):
        s = untyped_of_storage(obj)
        ptr = s.data_ptr()
        return (str(s.device), s._cdata, ptr, ptr + s.nbytes())
    if isinstance(obj, np.ndarray):
        behind = _tensor_behind(obj)
        if behind is not None:
            return memory_of(behind)
        if obj.nbytes == 0:
            return ("cpu", None, 0, 0)
        lo, hi = np.lib.array_utils.byte_bounds(obj) if hasattr(np.lib, "array_utils") else np.byte_bounds(obj)
        return ("cpu", None, lo, hi)
    if isinstance(obj, torch.Tensor):
        s = untyped_storage(obj)
        ptr = s.data_ptr()
        return (str(obj.device), s._cdata, ptr, ptr + s.nbytes())
    return None


def shares_storage(a, b) -> bool:
    """Whether `a` and `b` (tensors or ndarrays) live in the same memory.

    The same storage object always counts (this covers zero-size tensors, whose data_ptr is 0, and meta tensors,
    which have no memory); otherwise two non-empty byte ranges on the same device must overlap. An offset view
    shares its base's storage even when its own first element lies elsewhere.
    """
    return _overlap(memory_of(a), memory_of(b))


def _overlap(ma, mb) -> bool:
    """shares_storage on two memory_of() answers."""
    if ma is None or mb is None or ma[0] != mb[0]:
        return False
    if ma[1] is not None and ma[1] == mb[1]:
        return True
    if ma[0] == "meta":
        return False
    (_, _, a_lo, a_hi), (_, _, b_lo, b_hi) = ma, mb
    return a_lo < a_hi and b_lo < b_hi and a_lo < b_hi and b_lo < a_hi


def same_storage(a, b) -> bool:
    """Whether `a` and `b` (tensors, ndarrays or storage objects) are backed by exactly the same storage: the same
    storage object, or (off meta, which has no memory) the same non-empty byte range on the same device."""
    ma, mb = memory_of(a), memory_of(b)
    if ma is None or mb is None or ma[0] != mb[0]:
        return False
    if ma[1] is not None and ma[1] == mb[1]:
        return True
    return ma[0] != "meta" and ma[2] < ma[3] and ma[2:] == mb[2:]


def set_to(a, b) -> tuple[bool, str]:
    """`a.is_set_to(b)` (torch's own answer: same storage, offset, sizes and strides), and the two geometries."""
    def geometry(t):
        return f"offset {_storage_offset(t)}, shape {tuple(t.shape)}, strides {tuple(t.stride())}"
    same = "the same storage object" if memory_of(a)[1] == memory_of(b)[1] else "another storage object"
    return bool(_is_set_to(a, b)), f"{same}; result: {geometry(a)}; input: {geometry(b)}"


def relation(a, b) -> str:
    """Where `b` lives relative to `a`, in words that are the same in every run (no addresses): the same storage
    object, another storage over overlapping memory, or memory of its own, with the sizes."""
    unread = [f"{who} is a {_kind(t)} tensor" for who, t in (("input", a), ("result", b))
              if isinstance(t, torch.Tensor) and not has_storage(t)]
    if unread:
        return "; ".join(unread) + " (memory not compared)"
    ma, mb = memory_of(a), memory_of(b)
    if mb is None:
        return f"result is a {type(b).__name__}, not in memory a tensor or array owns"
    if ma is None:
        return f"input is a {type(a).__name__}"
    size = f"{mb[3] - mb[2]} bytes on {mb[0]}"
    if ma[1] is not None and ma[1] == mb[1]:
        return f"result in the input's storage object ({size})"
    if _overlap(ma, mb):
        return f"result in another storage object over the input's memory ({size}, overlapping)"
    return f"result in memory of its own ({size}); input's: {ma[3] - ma[2]} bytes on {ma[0]}"


def host_copy(t: torch.Tensor, dtype=None) -> torch.Tensor:
    """A fresh contiguous CPU tensor with the logical values of `t` (conj/neg bits resolved), optionally cast."""
    with _no_grad():
        r = _resolve_neg(_resolve_conj(t))
        out = _empty(tuple(r.shape), dtype=dtype or r.dtype, device="cpu")
        _copy_(out, r)
    return out


def value_bytes(t: torch.Tensor, dtype=None) -> bytes:
    """The exact bytes of the logical values of `t` (NaN payloads and signed zeros included)."""
    c = host_copy(t, dtype)
    return bytes(_numpy(_view(_reshape(c, (-1,)), torch.uint8)))


def as_tensor_values(obj, dtype):
    """A CPU tensor holding the values of an op's result: a tensor, an ndarray, a list or a Python scalar."""
    if isinstance(obj, torch.Tensor):
        return host_copy(obj)
    if isinstance(obj, np.ndarray):
        return _from_numpy(np.array(obj, order="C", copy=True))
    return _tensor(obj, dtype=dtype)


def flat(t: torch.Tensor) -> torch.Tensor:
    """The elements of a CPU tensor in a 1-d tensor (of a fresh copy of it, or of the tensor itself)."""
    return _reshape(t, (-1,))


def few(t: torch.Tensor):
    """A 1-d tensor's values as a list for a message, or "..." when there are 20 or more. A float8 tensor is widened
    first: on 2.2 tolist() decodes float8_e4m3fnuz as float8_e5m2fnuz (`tolist:float8_e4m3fnuz` in the specs)."""
    if t.numel() >= 20:
        return "..."
    return _tolist(_to(t, torch.float32) if t.dtype.is_floating_point and t.element_size() == 1 else t)


def values_equal(a, b) -> bool:
    """Exact equality of two CPU tensors of the same dtype and shape: the same bytes, or, for floating and complex
    dtypes, the same numbers with NaN equal to any NaN (a NaN's payload may change on a round trip through Python;
    in this fallback -0.0 equals 0.0)."""
    if a.dtype != b.dtype or tuple(a.shape) != tuple(b.shape):
        return False
    if value_bytes(a) == value_bytes(b):
        return True
    if not (a.dtype.is_floating_point or a.dtype.is_complex):
        return False
    wide = torch.complex128 if a.dtype.is_complex else torch.float64
    try:
        _assert_close(host_copy(a, wide), host_copy(b, wide), rtol=0, atol=0, equal_nan=True)
    except AssertionError:
        return False
    return True


def full_like_values(t: torch.Tensor, value, device="cpu") -> torch.Tensor:
    """A tensor of t's shape and dtype filled with `value`. Built in a wide dtype and converted, since older releases
    cannot fill some dtypes directly (float8 before 2.3: '"fill_out" not implemented')."""
    if t.dtype == torch.bool:
        return _full(tuple(t.shape), value, dtype=torch.bool, device=device)
    wide = torch.float32 if (t.dtype.is_floating_point or t.dtype.is_complex) else torch.int64
    return _to(_full(tuple(t.shape), value, dtype=wide, device=device), t.dtype)


def fill(t: torch.Tensor, value) -> None:
    """t[...] = value, in place (one write: the version counter moves once), for every dtype."""
    _copy_(t, full_like_values(t, value, device=t.device))

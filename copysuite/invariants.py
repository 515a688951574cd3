"""The invariants: each one observes a single fact about (source, result) after an op ran.

An invariant is a small function `observe(run) -> (value, detail)`; the spec says which value to expect. Invariants
also declare which inputs they can say anything about (`kinds`, `needs_data`), so the strategies draw only those.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
import torch

from strategies.cases import GRAD_KINDS, KINDS, contiguous_strides
from copysuite import storage

# Captured before any test can patch torch (see storage.py).
_is_view = torch.Tensor._is_view
_autograd_grad = torch.autograd.grad
_backward = torch.Tensor.backward
_ones_like = torch.ones_like
_narrow = torch.Tensor.narrow
_mul = torch.Tensor.mul
_sum = torch.Tensor.sum
_real = torch.real
_inference_mode = torch.inference_mode
_no_grad = torch.no_grad

LEAF_GRAD_KINDS = ("leaf_requires_grad", "parameter")
NOT_INFERENCE = tuple(k for k in KINDS if k != "inference")


@dataclass
class Invariant:
    name: str
    doc: str
    observe: object                      # run -> (value, detail)
    literals: tuple | None = None        # allowed plain values in a spec (None: any string)
    kinds: tuple = KINDS                 # source kinds the invariant can judge
    needs_data: bool = False             # meaningless on meta tensors (no memory to read or write)
    prepare: object = None               # ns -> None, run after the source is built and before the op
    same: object = None                  # run -> the source's value, used where the spec says "same"
    special: dict = field(default_factory=dict)  # other symbolic expected values: name -> run -> value

    def check_literal(self, value):
        """None if `value` is a plain expected value this invariant understands, else what is wrong with it."""
        if self.name in ("raises", "warns"):
            if value is None:
                return None
            if not (isinstance(value, dict) and "type" in value):
                return f"expects null or {{type, match}}, got {value!r}"
            base = BaseException if self.name == "raises" else Warning
            if not _builtin_subclass(value["type"], base):
                return f"unknown {base.__name__} type {value['type']!r}"
            try:
                re.compile(value.get("match", ""))
            except re.error as exc:
                return f"bad regular expression {value['match']!r}: {exc}"
            return None
        if isinstance(value, dict):
            return f"expects a plain value here, got a mapping {value!r}"
        symbolic = (("same",) if self.same else ()) + tuple(self.special)
        if self.literals is not None and value not in self.literals + symbolic:
            return f"{self.name} takes one of {list(self.literals + symbolic)}, got {value!r}"
        return None

    def expected_value(self, expected, run):
        if expected == "same" and self.same:
            return self.same(run)
        if isinstance(expected, str) and expected in self.special:
            return self.special[expected](run)
        return expected

    def agrees(self, expected, observed) -> bool:
        if self.name in ("raises", "warns"):
            return error_matches(expected, observed)
        if self.name == "grad_to_source" and expected == "reaches":
            return observed in ("ones", "partial")
        return expected == observed


def _builtin_subclass(name, base):
    import builtins
    cls = getattr(builtins, name, None)
    return isinstance(cls, type) and issubclass(cls, base)


def error_matches(expected, observed) -> bool:
    """`observed` is None or (type name, message) (for warns: a list of those)."""
    if isinstance(observed, list):  # warnings
        if expected is None:
            return not observed
        return any(error_matches(expected, w) for w in observed)
    if expected is None or observed is None:
        return expected is None and observed is None
    type_name, message = observed
    return type_name == expected["type"] and re.search(expected.get("match", ""), message, re.S) is not None


REGISTRY: dict[str, Invariant] = {}


def invariant(name, **kw):
    def register(fn):
        REGISTRY[name] = Invariant(name=name, doc=(fn.__doc__ or "").strip(), observe=fn, **kw)
        return fn
    return register


# ---- helpers ---------------------------------------------------------------------------------------------------
def is_tensor(x):
    return isinstance(x, torch.Tensor)


def _write_context(*tensors):
    inference = any(is_tensor(t) and t.is_inference() for t in tensors)
    return _inference_mode() if inference else _no_grad()


def write_into(result):
    """Overwrite every element of `result` in place with a value that differs from at least one of them.

    Returns a description of the write, or None when `result` cannot be written (a list, a scalar, no elements).
    Dims broadcast with stride 0 are written once (writing all of them is an error in torch).
    """
    if isinstance(result, np.ndarray):
        if result.size == 0:
            return None
        if not result.flags.writeable:
            return None
        for c in (0, 1, 2, 3):
            if np.any(result != c):  # NaN != c, so an all-NaN array is written too
                result[...] = c
                return f"ndarray[...] = {c}"
        return None
    if not is_tensor(result):
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


def _changes(run):
    """What the op changed on the source (values, requires_grad, is_leaf, grad, version), as text lines."""
    before, after = run.before, storage_snapshot(run.source)
    return [f"{k}: {before[k]!r} -> {after[k]!r}" for k in before if before[k] != after[k]]


def storage_snapshot(t):
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


def _real_loss(t):
    s = _sum(t)
    return _real(s) if s.is_complex() else s


# ---- the invariants --------------------------------------------------------------------------------------------
@invariant("raises")
def raises(run):
    """The call raises this exception (type and message pattern), or nothing (null)."""
    return run.error, None


@invariant("warns")
def warns(run):
    """The call emits a warning of this type whose message matches (null: it emits none)."""
    return run.warnings, None


@invariant("result_type", literals=("tensor", "parameter", "ndarray", "list", "scalar", "none"))
def result_type(run):
    """What kind of object the op returns."""
    r = run.result
    if isinstance(r, torch.nn.Parameter):
        return "parameter", None
    if is_tensor(r):
        return "tensor", None
    if isinstance(r, np.ndarray):
        return "ndarray", None
    if isinstance(r, list):
        return "list", None
    if r is None:
        return "none", None
    return "scalar", f"{type(r).__name__}"


@invariant("same_object", literals=(True, False))
def same_object(run):
    """The result is the source object itself (`result is source`)."""
    return run.result is run.source, f"id(source)={id(run.source):#x} id(result)={id(run.result):#x}"


@invariant("shares_storage", literals=(True, False))
def shares_storage(run):
    """The result lives in the source's storage (same storage object, or overlapping memory)."""
    return storage.shares_storage(run.source, run.result), (
        f"source memory {storage.memory_of(run.source)}, result memory {storage.memory_of(run.result)}")


@invariant("writes_through", literals=(True, False), needs_data=True)
def writes_through(run):
    """Overwriting the result in place changes the source's values."""
    how = write_into(run.result)
    if how is None:
        return False, "nothing to write (not a tensor or array, or not writable)"
    changed = storage.value_bytes(run.source) != run.before["values"]
    return changed, f"wrote {how}; source {'changed' if changed else 'unchanged'}"


@invariant("autograd_view", literals=(True, False))
def autograd_view(run):
    """Autograd records the result as a view of the source (`result._base` is the source or the source's base)."""
    r = run.result
    if r is run.source:
        return False, "the result is the source itself"
    if not is_tensor(r) or not _is_view(r):
        return False, "result._is_view() is False" if is_tensor(r) else "result is not a tensor"
    src = run.source
    base = src._base if _is_view(src) else src
    ok = r._base is base
    return ok, f"result._base is {'the source' + chr(39) + 's base' if ok else 'some other tensor'}"


@invariant("shares_version_counter", literals=(True, False), kinds=NOT_INFERENCE, needs_data=True)
def shares_version_counter(run):
    """An in-place write to the result bumps the source's version counter (`_version`)."""
    v0 = run.source._version
    how = write_into(run.result)
    if how is None:
        return False, "nothing to write (no elements, or not a tensor)"
    return run.source._version != v0, f"wrote {how}; source._version {v0} -> {run.source._version}"


def _prepare_saved_product(ns):
    s = ns["source"]
    ns["loss"] = _real_loss(_mul(s, s))  # mul saves `source` for backward


@invariant("backward_sees_write", literals=(True, False), kinds=tuple(k for k in GRAD_KINDS), needs_data=True,
           prepare=_prepare_saved_product)
def backward_sees_write(run):
    """After an in-place write to the result, backward through a graph that saved the source raises the
    "modified by an inplace operation" error: autograd saw the write."""
    how = write_into(run.result)
    if how is None:
        return False, "nothing to write"
    try:
        _backward(run.ns["loss"])
    except RuntimeError as exc:
        seen = "modified by an inplace operation" in str(exc)
        return seen, f"wrote {how}; backward raised: {str(exc)[:160]}"
    return False, f"wrote {how}; backward ran without error"


@invariant("requires_grad", literals=(True, False))
def requires_grad(run):
    """result.requires_grad."""
    return bool(getattr(run.result, "requires_grad", False)), None


@invariant("is_leaf", literals=(True, False))
def is_leaf(run):
    """result.is_leaf."""
    return run.result.is_leaf, f"grad_fn={run.result.grad_fn}"


def _grad_fn_name(t):
    fn = getattr(t, "grad_fn", None)
    return None if fn is None else type(fn).__name__  # what repr(tensor) prints, e.g. CloneBackward0


@invariant("grad_fn", literals=None, same=lambda run: _grad_fn_name(run.source))
def grad_fn(run):
    """The name of result.grad_fn's node (null when it has none)."""
    return _grad_fn_name(run.result), None


@invariant("retains_grad", literals=(True, False))
def retains_grad(run):
    """result.retains_grad: backward will populate .grad on this (non-leaf) tensor."""
    return bool(getattr(run.result, "retains_grad", False)), None


@invariant("grad_to_source", literals=("none", "ones", "partial", "reaches"), kinds=GRAD_KINDS, needs_data=True)
def grad_to_source(run):
    """Backpropagating ones from the result reaches the source: none, ones (identity-like), or partial (some
    elements, or some more than once). A spec may say `reaches` for "ones or partial"."""
    r = run.result
    if not is_tensor(r) or not r.requires_grad:
        return "none", "result does not require grad"
    if r is not run.source and r.grad_fn is None:
        return "none", "result requires grad but has no grad_fn (made outside grad mode)"
    (g,) = _autograd_grad(r, run.source, grad_outputs=_ones_like(r), allow_unused=True)
    if g is None:
        return "none", "autograd.grad returned None for the source"
    ones = storage.full_like_values(g, 1)
    return ("ones" if storage.values_equal(storage.host_copy(g), ones) else "partial"), None


@invariant("grad_accumulates", literals=("accumulates", "none", "overwrites"), kinds=LEAF_GRAD_KINDS,
           needs_data=True)
def grad_accumulates(run):
    """Two backward calls through the result add their gradients into the source's .grad."""
    r = run.result
    if not is_tensor(r) or not r.requires_grad:
        return "none", "result does not require grad"
    loss = _real_loss(r)
    _backward(loss, retain_graph=True)
    if run.source.grad is None:
        return "none", "source.grad is None after backward"
    first = storage.host_copy(run.source.grad)
    _backward(loss)
    second = storage.host_copy(run.source.grad)
    doubled = storage.host_copy(first * 2)
    return ("accumulates" if storage.values_equal(second, doubled) else "overwrites"), None


@invariant("source_untouched", literals=(True, False))
def source_untouched(run):
    """The op leaves the source as it was: values, requires_grad, is_leaf, grad, version, bits, shape."""
    changes = _changes(run)
    return not changes, "; ".join(changes) or "nothing changed"


@invariant("values_equal", literals=(True,), needs_data=True)
def values_equal(run):
    """The result holds exactly the source's values in the same order (converted to the result's dtype), bit for
    bit, so NaN equals the same NaN."""
    r = run.result
    src = run.before_values
    if is_tensor(r) or isinstance(r, np.ndarray):
        got = storage.as_tensor_values(r, src.dtype)
        want = storage.host_copy(src, got.dtype)
    else:  # a (nested) list or a Python scalar
        want = storage.host_copy(src)
        got = storage.as_tensor_values(r, want.dtype)
    got, want = got.reshape(-1), want.reshape(-1)  # the shape is the `shape` invariant's business
    ok = storage.values_equal(got, want)
    return ok, f"result {got.tolist() if got.numel() < 20 else '...'} vs source {want.tolist() if want.numel() < 20 else '...'}"


def channels_last_strides(shape):
    """NHWC strides of a 4-d shape, as c10's get_channels_last_strides_2d computes them (c10/core/MemoryFormat.h)."""
    n, c, h, w = shape
    return (h * w * c, 1, w * c, c)


def _np_dtype_name(r):
    return r.dtype.name if isinstance(r, np.ndarray) else str(r.dtype).replace("torch.", "")


def normalized_strides(shape, strides):
    """Strides with the meaningless ones blanked: a size-1 dim's stride never addresses anything, and nothing does
    when there are no elements (torch and numpy are free to pick any value there)."""
    if any(s == 0 for s in shape):
        return "any (no elements)"
    return tuple(None if size == 1 else st for size, st in zip(shape, strides))


def _strides(r):
    if isinstance(r, np.ndarray):
        return normalized_strides(r.shape, tuple(s // r.itemsize for s in r.strides))
    return normalized_strides(tuple(r.shape), tuple(r.stride()))


for _name, _get, _doc in (
    ("dtype", _np_dtype_name, "The result's dtype (name; for ndarrays, numpy's name)."),
    ("shape", lambda r: tuple(r.shape), "The result's shape."),
    ("device", lambda r: "cpu" if isinstance(r, np.ndarray) else r.device.type, "The result's device type."),
    ("layout", lambda r: str(r.layout).replace("torch.", ""), "The result's layout."),
    ("strides", _strides, "The result's strides, in elements (blank where they address nothing)."),
    ("is_conj", lambda r: bool(r.is_conj()), "The result carries the lazy conjugate bit."),
    ("is_neg", lambda r: bool(r.is_neg()), "The result carries the lazy negative bit."),
    ("is_pinned", lambda r: bool(r.is_pinned()), "The result lives in page-locked (pinned) host memory."),
):
    def _observe(run, _get=_get):
        return _get(run.result), None
    _observe.__doc__ = _doc
    REGISTRY[_name] = Invariant(
        name=_name, doc=_doc, observe=_observe,
        literals=(True, False) if _name.startswith("is_") else None,
        same=(lambda run, _get=_get: _get(run.source)),
        special={"contiguous": lambda run: normalized_strides(run.result.shape, contiguous_strides(run.result.shape)),
                 "channels_last": lambda run: normalized_strides(run.result.shape,
                                                                 channels_last_strides(tuple(run.result.shape)))}
        if _name == "strides" else {},
    )
REGISTRY["shape"].literals = ()
REGISTRY["strides"].literals = ()
for _n in ("device", "layout"):
    REGISTRY[_n].literals = None

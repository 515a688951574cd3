"""Checks that read one attribute of the result: dtype, shape, device, layout, strides, lazy bits, pinned memory, the
size of its whole storage, inference-ness, shared memory, the device index. Each also understands `same` (the judged
input's own value, or a program variable's); strides understand `contiguous`, `channels_last` and `channels_last_3d`."""
from __future__ import annotations

import numpy as np

from copysuite.judge.checks.base import BOOLEAN, REGISTRY, Check, Observed, says, symbols_only, text
from copysuite.run.storage import untyped_storage
from copysuite.strategies.cases import contiguous_strides


def channels_last_strides(shape):
    """NHWC strides of a 4-d shape, as c10's get_channels_last_strides_2d computes them (c10/core/MemoryFormat.h)."""
    n, c, h, w = shape
    return (h * w * c, 1, w * c, c)


def channels_last_3d_strides(shape):
    """NDHWC strides of a 5-d shape, as c10's get_channels_last_strides_3d computes them (c10/core/MemoryFormat.h)."""
    n, c, d, h, w = shape
    return (d * h * w * c, 1, h * w * c, w * c, c)


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


@says("an integer, `null`")
def _index(value):
    return None if value is None or type(value) is int else f"takes a device index (an integer) or null, got {value!r}"


def _dtype_name(r):
    return r.dtype.name if isinstance(r, np.ndarray) else str(r.dtype).replace("torch.", "")


SHAPE_SYMBOLS = {"flat": lambda run: (run.subject.numel(),)}
STRIDE_SYMBOLS = {
    "contiguous": lambda run: normalized_strides(run.result.shape, contiguous_strides(run.result.shape)),
    "channels_last": lambda run: normalized_strides(run.result.shape, channels_last_strides(tuple(run.result.shape))),
    "channels_last_3d": lambda run: normalized_strides(run.result.shape,
                                                      channels_last_3d_strides(tuple(run.result.shape))),
}
ATTRIBUTES = (  # name, how to read it, what a spec may write besides `same`, doc, examples (base.Check.examples)
    ("dtype", _dtype_name, text, "The result's dtype (name; for ndarrays, numpy's name).",
     (("source.double()", "float64"), ("source.clone()", "float32"))),
    ("shape", lambda r: tuple(r.shape), symbols_only, "The result's shape (`flat`: one dimension of the input's "
     "number of elements).", (("source.t()", (3, 2)), ("source.clone()", "same"), ("source.flatten()", "flat"))),
    ("device", lambda r: "cpu" if isinstance(r, np.ndarray) else r.device.type, text, "The result's device type.",
     (("source.clone()", "cpu"), ("source.to('meta')", "meta"))),
    ("layout", lambda r: str(r.layout).replace("torch.", ""), text,
     "The result's layout: torch.layout's name (`strided`, `sparse_coo`, ...), not the placement of an input.",
     (("source.clone()", "strided"), ("source.detach().to_sparse()", "sparse_coo"))),
    ("strides", _strides, symbols_only, "The result's strides, in elements (blank where they address nothing).",
     (("source.t()", (1, 3)), ("source.clone()", (3, 1)), ("source.clone()", "contiguous"))),
    ("is_conj", lambda r: bool(r.is_conj()), BOOLEAN, "The result carries the lazy conjugate bit.",
     (("source.cfloat().conj()", True), ("source.cfloat()", False))),
    ("is_neg", lambda r: bool(r.is_neg()), BOOLEAN, "The result carries the lazy negative bit.",
     (("source.cfloat().conj().imag", True), ("source.cfloat().imag", False))),
    ("is_pinned", lambda r: bool(r.is_pinned()), BOOLEAN, "The result lives in page-locked (pinned) host memory.",
     (("source.clone()", False),)),   # pinning needs an accelerator
    ("storage_nbytes", lambda r: untyped_storage(r).nbytes(), symbols_only,
     "The size in bytes of the whole storage the result lives in (a view's is its base's, not its own elements').",
     (("source.detach()[1:, 1:]", 24), ("source[1:, 1:].clone()", 8))),
    ("is_inference", lambda r: bool(r.is_inference()), BOOLEAN,
     "The result is an inference tensor (made in inference mode, or a view of one).",
     (("torch.inference_mode()(torch.clone)(source)", True), ("source.clone()", False))),
    ("is_shared", lambda r: bool(r.is_shared()), BOOLEAN,
     "The result's storage is in shared memory (always, on CUDA).",
     (("source.detach().clone().share_memory_()", True), ("source.clone()", False))),
    ("device_index", lambda r: None if isinstance(r, np.ndarray) else r.device.index, _index,
     "The index of the result's device (`cuda:1` has 1; null for a device without one, such as cpu).",
     (("source.clone()", None),)),   # an index needs an accelerator
)


def _reader(get):
    return lambda run: Observed(get(run.result))


for _name, _get, _accepts, _doc, _examples in ATTRIBUTES:
    _symbols = {"same": (lambda run, _get=_get: _get(run.subject)),
                **{"strides": STRIDE_SYMBOLS, "shape": SHAPE_SYMBOLS}.get(_name, {})}
    REGISTRY[_name] = Check(name=_name, doc=_doc, observe=_reader(_get), accepts=_accepts, symbols=_symbols,
                            judges_variables=True, examples=_examples)

"""A `Case` is one generated input: how the source tensor is built, and the grad mode the op is called in.

A case is plain data. `Case.code()` renders it as the Python lines that build the source, and `Case.build()` runs
exactly those lines, so the reproduction printed in a failure message is, by construction, the input that failed.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import numpy as np
import torch
from hypothesis import reject, strategies as st
from hypothesis.extra import numpy as hnp

from copysuite.strategies.space import (
    DTYPE_GROUPS,
    GRAD_KINDS,
    MODES,
    affected_dims,
    bit_fits,
    kind_fits,
    placement_fits,
)

MODE_CONTEXT = {"enabled": None, "no_grad": "torch.no_grad()", "inference_mode": "torch.inference_mode()"}
MODE_MANAGER = {"enabled": None, "no_grad": torch.no_grad, "inference_mode": torch.inference_mode}
assert MODE_CONTEXT.keys() == MODE_MANAGER.keys() == set(MODES)


def contiguous_strides(shape) -> tuple[int, ...]:
    strides, acc = [], 1
    for size in reversed(shape):
        strides.append(acc)
        acc *= max(size, 1)
    return tuple(reversed(strides))


def _py(value) -> str:
    """A Python literal for one element (nan/inf spelled so that eval() gives them back)."""
    if isinstance(value, bool):
        return repr(value)
    if isinstance(value, complex):
        return f"complex({_py(value.real)}, {_py(value.imag)})"
    if isinstance(value, float) and not math.isfinite(value):
        return f"float('{value}')"
    return repr(value)


@dataclass(frozen=True)
class Case:
    dtype: str
    shape: tuple
    placement: str
    kind: str
    mode: str
    device: str
    # geometry of the source inside its buffer
    base_numel: int
    stride: tuple
    offset: int
    values: tuple = field(repr=False)  # the buffer's elements, before the cast to `dtype`
    bit: str = "none"                   # "conj" or "neg": the source carries that lazy bit
    execution: str = "eager"            # how the program runs on it (copysuite.strategies.space.EXECUTIONS)

    # --- derived facts (used by spec predicates) ---
    @property
    def numel(self) -> int:
        return math.prod(self.shape)

    @property
    def requires_grad(self) -> bool:
        return self.kind in GRAD_KINDS

    @property
    def is_view(self) -> bool:
        return self.placement != "contiguous" or self.bit != "none"

    @property
    def carrier(self) -> str:
        name = self.dtype
        if name == "bool":
            return "bool"
        if name in DTYPE_GROUPS["integer"]:
            return "int64"
        if name in DTYPE_GROUPS["complex"]:
            return "complex64"
        return "float32"

    def code(self) -> list[str]:
        """The Python lines that build `source` (needs `import torch`)."""
        dt = f"torch.{self.dtype}"
        lines = []
        indent = ""
        if self.kind == "inference":
            lines.append("with torch.inference_mode():")
            indent = "    "
        vals = ", ".join(_py(v) for v in self.values)
        lines.append(f"{indent}flat = torch.tensor([{vals}], dtype=torch.{self.carrier}).to({dt})")
        dev = repr(self.device)
        if self.placement == "contiguous":
            lines.append(f"{indent}source = torch.empty({self.shape!r}, dtype={dt}, device={dev})")
            lines.append(f"{indent}source.copy_(flat.reshape({self.shape!r}))")
            if self.kind == "nonleaf":
                lines.append("leaf = source.requires_grad_()")
                lines.append("source = leaf * 1")
        else:
            lines.append(f"{indent}base = torch.empty(({self.base_numel},), dtype={dt}, device={dev})")
            lines.append(f"{indent}base.copy_(flat)")
            if self.kind == "nonleaf":
                lines.append("leaf = base.requires_grad_()")
                lines.append(f"source = leaf.as_strided({self.shape!r}, {self.stride!r}, {self.offset})")
            else:
                lines.append(f"{indent}source = base.as_strided({self.shape!r}, {self.stride!r}, {self.offset})")
        if self.bit == "conj":
            lines.append("source = source.conj()")
        elif self.bit == "neg":
            lines.append("source = torch._neg_view(source)")
        if self.kind == "leaf_requires_grad":
            lines.append("source.requires_grad_()")
        elif self.kind == "parameter":
            lines.append("source = torch.nn.Parameter(source)")
        elif self.kind == "parameter_frozen":
            lines.append("source = torch.nn.Parameter(source, requires_grad=False)")
        return lines

    def build(self) -> dict:
        """Run `code()`; returns its namespace (`source`, and `leaf`/`base` where the code made them)."""
        ns = {"torch": torch}
        exec(_compiled("\n".join(self.code())), ns)  # noqa: S102 - our own generated code, printed in every failure
        return ns

    def mode_context(self) -> str | None:
        return MODE_CONTEXT[self.mode]

    def describe(self) -> str:
        return (f"dtype={self.dtype} shape={self.shape} stride={self.stride} offset={self.offset} "
                f"placement={self.placement} bit={self.bit} kind={self.kind} device={self.device} "
                f"grad_mode={self.mode} execution={self.execution}")

    def __repr__(self) -> str:  # what Hypothesis prints as the falsifying example
        return f"Case<{self.describe()}>"

    def _repr_pretty_(self, printer, cycle) -> None:
        """Hypothesis' printer: the repr above (else it walks every dataclass field, the values included, for each
        example it runs, a third of the cost of an explicit example)."""
        printer.text(repr(self))


@functools.lru_cache(maxsize=64)
def _compiled(code: str):
    """A case is built once per check that needs a run of its own: compile its code once."""
    return compile(code, "<case>", "exec")


def geometry(shape, placement, dim):
    """(base_numel, stride, offset) of a source of `shape` with `placement`; `dim` picks the affected dim."""
    shape = tuple(shape)
    if placement == "contiguous":
        return math.prod(shape), contiguous_strides(shape), 0
    if placement == "offset":
        return math.prod(shape) + 2, contiguous_strides(shape), 2
    if placement == "strided":
        base_shape = list(shape)
        base_shape[dim] = max(2 * shape[dim] - 1, 0) if shape[dim] else 0
        base_strides = list(contiguous_strides(base_shape))
        base_strides[dim] *= 2
        return math.prod(base_shape), tuple(base_strides), 0
    if placement == "transposed":
        rev = tuple(reversed(contiguous_strides(tuple(reversed(shape)))))
        return math.prod(shape), rev, 0
    if placement == "expanded":
        base_shape = list(shape)
        base_shape[dim] = 1
        strides = list(contiguous_strides(base_shape))
        strides[dim] = 0
        return math.prod(base_shape), tuple(strides), 0
    raise ValueError(placement)


@functools.lru_cache(maxsize=None)
def _buffer(dtype: str, numel: int):
    """The strategy of a buffer's `numel` elements: one draw of raw bytes, read as float16 bit patterns (so every
    float16 value, subnormals, -0.0, nan and +-inf included, can be drawn), as integers 0 ... 100 (in
    range for every integer dtype, unsigned included), as booleans, or as pairs of float16 for complex dtypes.
    One draw instead of one per element: drawing element by element was most of the cost of a case; the bytes
    shrink towards zeros. (Built once per size: a strategy is validated the first time it draws.)"""
    if dtype == "bool":
        return st.binary(min_size=numel, max_size=numel).map(lambda b: tuple(x % 2 == 0 for x in b))
    if dtype in DTYPE_GROUPS["integer"]:
        return st.binary(min_size=numel, max_size=numel).map(lambda b: tuple(x % 101 for x in b))
    width = 2 if dtype in DTYPE_GROUPS["complex"] else 1
    halves = st.binary(min_size=2 * width * numel, max_size=2 * width * numel).map(
        lambda b: np.frombuffer(b, dtype="<f2").astype(float).tolist())
    if width == 1:
        return halves.map(tuple)
    return halves.map(lambda v: tuple(complex(re, im) for re, im in zip(v[::2], v[1::2])))


@functools.lru_cache(maxsize=None)
def _shapes(min_dims, max_dims, min_side, max_side):
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side)


@functools.lru_cache(maxsize=None)
def _one_of(choices: tuple):
    """`st.sampled_from(choices)`, one strategy object per tuple of choices: Hypothesis validates a new strategy (and
    works out its properties) the first time it draws from it, which cost more than the draw itself when `cases`
    built six new ones per case."""
    return st.sampled_from(choices)


@st.composite
def cases(draw, *, dtypes, kinds, placements, modes, device, min_ndim=0, max_ndim=3, min_side=0, max_side=4,
          nonempty=False, bits=("none",), execution="eager"):
    """Cases for one device. Each argument is the set a spec entry (and the check under test) allows.

    Kinds that need grad are only drawn with dtypes that can have it; an impossible combination is an error in the
    spec, reported by `feasible()` before any example is drawn.
    """
    kind = draw(_one_of(tuple(kinds)))
    allowed = tuple(d for d in dtypes if kind_fits(kind, d))
    dtype = draw(_one_of(allowed))
    shape = draw(_shapes(min_ndim, max_ndim, max(min_side, 1 if nonempty else 0), max_side))
    fitting = tuple(p for p in placements if placement_fits(p, shape))
    placement = draw(_one_of(fitting or ("contiguous",)))
    if placement not in placements:  # no requested placement fits this shape: draw again
        reject()
    dims = affected_dims(shape, placement)
    dim = draw(_one_of(tuple(dims))) if dims and placement in ("strided", "expanded") else 0
    base_numel, stride, offset = geometry(shape, placement, dim)
    values = draw(_buffer(dtype, base_numel))
    mode = draw(_one_of(tuple(modes)))
    bit_choices = tuple(b for b in bits if bit_fits(b, dtype))
    bit = draw(_one_of(bit_choices)) if bit_choices else "none"
    if bit == "none" and "none" not in bits:
        reject()
    return Case(bit=bit, dtype=dtype, shape=tuple(shape), placement=placement, kind=kind, mode=mode, device=device,
                base_numel=base_numel, stride=stride, offset=offset, values=values, execution=execution)


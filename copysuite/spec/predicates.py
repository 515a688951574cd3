"""Named facts about a generated input, which make an expectation depend on it (imports no torch).

A spec writes a condition as a list of terms, all of which must hold; `not NAME` negates one. Some names take an
argument after a colon: `dtype:float64`, `group:float`, `device:cpu`, `placement:expanded`, `kind:nonleaf`,
`mode:no_grad`, `bit:conj`, `ndim:1`, `execution:compile.aot_eager` (`compiled`: any torch.compile execution). A term is
read against a `copysuite.strategies.cases.Case` (plain data); one, `numpy2`, against the environment instead (the
installed NumPy is 2.0 or later).
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from packaging.version import Version

from copysuite.strategies.space import (
    ALL_DTYPE_NAMES, BITS, DEVICES, DTYPE_GROUPS, EXECUTIONS, KINDS, MODES, PLACEMENTS,
)


def non_overlapping_and_dense(shape, stride) -> bool:
    """True when the elements fill a contiguous block without overlap, in some dim order (torch's definition)."""
    if math.prod(shape) == 0:
        return True
    dims = sorted((st, sz) for sz, st in zip(shape, stride) if sz != 1)
    expected = 1
    for st, sz in dims:
        if st != expected:
            return False
        expected *= sz
    return True


def is_contiguous(shape, stride) -> bool:
    if math.prod(shape) == 0:
        return True
    expected = 1
    for sz, st in reversed(list(zip(shape, stride))):
        if sz != 1 and st != expected:
            return False
        expected *= sz
    return True


def flat_viewable(shape, stride) -> bool:
    """Whether `view(-1)` can alias these strides: the non-size-1 dims must chain like a contiguous block."""
    if math.prod(shape) == 0:
        return True
    dims = [(sz, st) for sz, st in zip(shape, stride) if sz != 1]
    return all(dims[i][1] == dims[i + 1][1] * dims[i + 1][0] for i in range(len(dims) - 1))


@functools.cache
def numpy_major() -> int:
    """The installed NumPy's major version, read when a spec first asks (the report tools never do)."""
    import numpy
    return Version(numpy.__version__).major


PREDICATES = {
    "requires_grad": lambda c: c.requires_grad,
    # the tensor at the root of the source's view chain requires grad (views made outside grad mode take their
    # requires_grad from it): true for a non-leaf or a Parameter, and for a leaf only when it is not itself a view
    "root_requires_grad": lambda c: c.kind in ("nonleaf", "parameter") or (
        c.kind == "leaf_requires_grad" and not c.is_view),
    "grad_enabled": lambda c: c.mode == "enabled",
    "leaf": lambda c: c.kind != "nonleaf",
    "parameter": lambda c: c.kind in ("parameter", "parameter_frozen"),
    "inference_source": lambda c: c.kind == "inference",
    "view_source": lambda c: c.is_view,
    "contiguous": lambda c: is_contiguous(c.shape, c.stride),
    "dense": lambda c: non_overlapping_and_dense(c.shape, c.stride),
    "flat_viewable": lambda c: flat_viewable(c.shape, c.stride),
    "nonempty": lambda c: c.numel > 0,
    "zero_dim": lambda c: len(c.shape) == 0,
    "conj": lambda c: c.bit == "conj",
    "neg": lambda c: c.bit == "neg",
    "compiled": lambda c: c.execution.startswith("compile."),   # run through torch.compile, whatever the backend
    # NumPy 2.0 or later: np.asarray/np.array take `copy` and pass it to an object's __array__ (not the input's
    # property but the environment's: what NumPy does with a tensor depends on it, whatever the torch release)
    "numpy2": lambda c: numpy_major() >= 2,
}
PARAMETRIC = {
    "dtype": (ALL_DTYPE_NAMES, lambda c, a: c.dtype == a),
    "group": (tuple(DTYPE_GROUPS), lambda c, a: c.dtype in DTYPE_GROUPS[a]),
    "device": (DEVICES, lambda c, a: c.device == a),
    "placement": (PLACEMENTS, lambda c, a: c.placement == a),
    "kind": (KINDS, lambda c, a: c.kind == a),
    "mode": (MODES, lambda c, a: c.mode == a),
    "bit": (BITS, lambda c, a: c.bit == a),
    "ndim": (("0", "1", "2", "3", "4"), lambda c, a: len(c.shape) == int(a)),
    "execution": (EXECUTIONS, lambda c, a: c.execution == a),
}


def term_problem(term: str) -> str | None:
    """None if `term` is a valid condition term, else what is wrong with it."""
    name = term[4:] if term.startswith("not ") else term
    if name in PREDICATES:
        return None
    head, _, arg = name.partition(":")
    if head in PARAMETRIC:
        allowed = PARAMETRIC[head][0]
        return None if arg in allowed else f"{head}: takes one of {', '.join(allowed)}, not {arg!r}"
    return f"unknown predicate {name!r} (known: {', '.join(sorted(PREDICATES))}, or {'/'.join(PARAMETRIC)}:ARG)"


def holds(term: str, case) -> bool:
    if term.startswith("not "):
        return not holds(term[4:], case)
    if term in PREDICATES:
        return bool(PREDICATES[term](case))
    head, _, arg = term.partition(":")
    return bool(PARAMETRIC[head][1](case, arg))


@dataclass(frozen=True)
class Condition:
    """Terms that must all hold (a conjunction), checked when the spec is loaded."""
    terms: tuple

    def problem(self) -> str | None:
        return next(filter(None, map(term_problem, self.terms)), None)

    def holds(self, case) -> bool:
        return all(holds(t, case) for t in self.terms)

    def __str__(self) -> str:
        return " and ".join(self.terms)

"""Corner cases: every (kind, grad mode) pair an entry allows, as explicit examples, whatever the random draws do.

Drawn independently, a pair such as "source requires grad" x "grad enabled" can be missing from a short run (the
fault campaign in docs/reports/faults.md lost five faults that way). These cases are added to every test as explicit
Hypothesis examples: one per feasible pair, placements, bits and dtypes rotating so that each appears too.
"""
from __future__ import annotations

from copysuite.strategies.cases import Case, geometry
from copysuite.strategies.space import DTYPE_GROUPS, affected_dims, bit_fits, kind_fits, placement_fits

CORNER_SHAPES = ((2, 3), (3,), (2, 2, 2), (4, 1, 2, 3), (), (1,), (0,), (0, 2))
PREFERRED_DTYPES = ("float32", "complex64", "int64", "float64", "bool")


def _corner_values(dtype: str, n: int) -> tuple:
    """Distinct-ish, exactly representable, non-zero values (no -0.0/nan coincidences): 1, 2, ... 7, 1, ..."""
    if dtype == "bool":
        return tuple(k % 2 == 0 for k in range(n))
    if dtype in DTYPE_GROUPS["integer"]:
        return tuple(k % 7 + 1 for k in range(n))
    if dtype in DTYPE_GROUPS["complex"]:
        return tuple(complex(k % 7 + 1, -(k % 3 + 1)) for k in range(n))
    return tuple(float(k % 7 + 1) for k in range(n))


def _rotate(seq, start: int) -> list:
    seq = list(seq)
    return seq[start % len(seq):] + seq[:start % len(seq)] if seq else []


def _corner_candidates(kind, mode, i, *, dtypes, placements, bits, device, min_ndim, max_ndim, min_side, max_side,
                       nonempty, execution):
    """Every case of this (kind, mode) within the arguments, the i-th placement and bit first."""
    dtype_order = [d for d in PREFERRED_DTYPES if d in dtypes] + [d for d in dtypes if d not in PREFERRED_DTYPES]
    for placement in _rotate(placements, i):
        for bit in _rotate(bits, i):
            for dtype in dtype_order:
                if not (kind_fits(kind, dtype) and bit_fits(bit, dtype)):
                    continue
                for shape in CORNER_SHAPES:
                    if not (min_ndim <= len(shape) <= max_ndim and placement_fits(placement, shape)
                            and all(max(min_side, nonempty) <= side <= max_side for side in shape)):
                        continue
                    dims = affected_dims(shape, placement)
                    base_numel, stride, offset = geometry(shape, placement, dims[-1] if dims else 0)
                    yield Case(bit=bit, dtype=dtype, shape=shape, placement=placement, kind=kind, mode=mode,
                               device=device, base_numel=base_numel, stride=stride, offset=offset,
                               values=_corner_values(dtype, base_numel), execution=execution)


def corner_cases(*, dtypes, kinds, placements, modes, device, min_ndim=0, max_ndim=3, min_side=0, max_side=4,
                 nonempty=False, bits=("none",), execution="eager", accept=lambda case: True) -> list[Case]:
    """One Case per (kind, mode) pair that has one within the arguments (as for `cases`) and `accept`."""
    space = dict(dtypes=dtypes, placements=placements, bits=bits, device=device, min_ndim=min_ndim, max_ndim=max_ndim,
                 min_side=min_side, max_side=max_side, nonempty=nonempty, execution=execution)
    pairs = [(kind, mode) for kind in kinds for mode in modes]
    found = (next(filter(accept, _corner_candidates(kind, mode, i, **space)), None)
             for i, (kind, mode) in enumerate(pairs))
    return [case for case in found if case is not None]

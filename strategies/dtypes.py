"""Which dtypes the installed torch has, grouped so that specs can name a group instead of listing dtypes."""
from __future__ import annotations

import torch

# Every dtype a copy-semantics spec may mention, by torch attribute name. A name absent from the installed torch
# (uint16 before 2.3, the float8 family before 2.1, ...) is simply not available, never an error.
ALL_DTYPE_NAMES = (
    "bool",
    "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64",
    "float16", "bfloat16", "float32", "float64",
    "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu",
    "complex32", "complex64", "complex128",
)

DTYPE_GROUPS = {
    "bool": ("bool",),
    "integer": ("uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64"),
    "float": ("float16", "bfloat16", "float32", "float64"),
    "float8": ("float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu"),
    "complex": ("complex32", "complex64", "complex128"),
    # dtypes whose tensors can require grad and on which autograd runs the ops we use (sum, mul, backward)
    "differentiable": ("float16", "bfloat16", "float32", "float64", "complex64", "complex128"),
    # dtypes numpy has an equivalent of (Tensor.numpy() supports exactly these)
    "numpy": ("bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64",
              "float16", "float32", "float64", "complex64", "complex128"),
}
DTYPE_GROUPS["all"] = ALL_DTYPE_NAMES
# the everyday set: what most ops are checked on by default (exotic dtypes are opted into per spec entry)
DTYPE_GROUPS["standard"] = DTYPE_GROUPS["bool"] + DTYPE_GROUPS["integer"] + DTYPE_GROUPS["float"] + (
    "complex64", "complex128")


def to_dtype(name: str) -> torch.dtype | None:
    dt = getattr(torch, name, None)
    return dt if isinstance(dt, torch.dtype) else None


def available_dtypes() -> tuple[str, ...]:
    """Names of the dtypes the installed torch has, in ALL_DTYPE_NAMES order."""
    return tuple(n for n in ALL_DTYPE_NAMES if to_dtype(n) is not None)


def unavailable_dtypes() -> tuple[str, ...]:
    return tuple(n for n in ALL_DTYPE_NAMES if to_dtype(n) is None)


def dtype_names(selectors) -> tuple[str, ...]:
    """Expand group names and dtype names into available dtype names (order kept, duplicates dropped)."""
    have = set(available_dtypes())
    out: list[str] = []
    for sel in selectors:
        for name in DTYPE_GROUPS.get(sel, (sel,)):
            if name in have and name not in out:
                out.append(name)
    return tuple(out)


def is_known_selector(name: str) -> bool:
    return name in DTYPE_GROUPS or name in ALL_DTYPE_NAMES

"""Which of the spec vocabulary's dtypes (copysuite.strategies.space) the installed torch has."""
from __future__ import annotations

import functools

import torch

from copysuite.strategies.space import ALL_DTYPE_NAMES, DTYPE_GROUPS


def to_dtype(name: str) -> torch.dtype | None:
    dt = getattr(torch, name, None)
    return dt if isinstance(dt, torch.dtype) else None


@functools.lru_cache(maxsize=None)
def available_dtypes() -> tuple[str, ...]:
    """Names of the dtypes the installed torch has, in ALL_DTYPE_NAMES order."""
    return tuple(n for n in ALL_DTYPE_NAMES if to_dtype(n) is not None)


def unavailable_dtypes() -> tuple[str, ...]:
    return tuple(n for n in ALL_DTYPE_NAMES if to_dtype(n) is None)


def dtype_names(selectors) -> tuple[str, ...]:
    """Expand group names and dtype names into available dtype names (order kept, duplicates dropped)."""
    return _dtype_names(tuple(selectors))


@functools.lru_cache(maxsize=None)   # asked for every cell's inputs, thousands of times per session
def _dtype_names(selectors: tuple) -> tuple[str, ...]:
    have = set(available_dtypes())
    out: list[str] = []
    for sel in selectors:
        for name in DTYPE_GROUPS.get(sel, (sel,)):
            if name in have and name not in out:
                out.append(name)
    return tuple(out)

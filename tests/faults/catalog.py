"""The catalog of semantic faults: small patches of torch's Python-visible behaviour, each breaking one promise the
specs state (clone copies, detach aliases, numpy() shares memory, ...) the way a regression in torch would.

Each fault names the spec entries its session runs and the (entry, check) pairs that must catch it; see
tests/faults/fault.py for what a fault is, tests/faults/topics/ for the faults (one module per spec file) and
docs/reports/faults.md for the verdicts (`python -m tests.faults report`).
"""
from __future__ import annotations

from tests.faults.fault import CATALOG, Fault
from tests.faults.topics import (  # noqa: F401 - each registers its faults
    aliasing, bindings, compiled, conversions, copies, forms, history, inference, module_state, serialization,
    sparse_nested, storage, surface, views,
)
# the faults of the documentation audit (docs/promises.md names each), across the spec files; all but those of
# promises_keywords are opt-in (Fault.opt_in: COPYSUITE_FAULT_SET=all runs them)
from tests.faults.topics import (  # noqa: F401 - each registers its faults
    promises_conversions, promises_copies, promises_keywords, promises_misc, promises_serialization, promises_state,
    promises_views,
)


def by_name(name) -> Fault:
    for f in CATALOG:
        if f.name == name:
            return f
    raise KeyError(f"no fault named {name!r}; known: {', '.join(f.name for f in CATALOG)}")

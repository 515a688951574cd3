"""Run one spec entry on one generated case, and judge one invariant, with a reproduction on failure."""
from __future__ import annotations

import platform
import sys
import traceback
import warnings
from dataclasses import dataclass

import numpy as np
import torch

from strategies.cases import MODE_MANAGER
from copysuite import storage
from copysuite.invariants import REGISTRY, storage_snapshot


@dataclass
class Run:
    case: object
    ns: dict
    source: object
    result: object
    error: tuple | None         # (exception type name, message) raised by the call
    warnings: list              # [(category name, message)] emitted by the call
    before: dict                # the source's snapshot before the call
    before_values: object       # a CPU copy of the source's values before the call (None on meta)


def versions_line() -> str:
    return (f"torch {torch.__version__}, numpy {np.__version__}, python {platform.python_version()} "
            f"({sys.platform})")


def execute(entry, case, inv) -> Run:
    ns = case.build()
    source = ns["source"]
    if inv.prepare:
        inv.prepare(ns)
    before = storage_snapshot(source)
    before_values = storage.host_copy(source) if source.device.type != "meta" else None
    ctx = MODE_MANAGER[case.mode]
    result, error = None, None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if ctx is None:
                result = entry.apply(source)
            else:
                with ctx():
                    result = entry.apply(source)
        except Exception as exc:  # the spec says whether an error is expected; anything else is reported
            error = (type(exc).__name__, str(exc))
    seen = [(w.category.__name__, str(w.message)) for w in caught]
    return Run(case, ns, source, result, error, seen, before, before_values)


def reproduction(entry, case, invariant) -> str:
    lines = ["import torch"] + case.code()
    ctx = case.mode_context()
    call = f"result = {entry.call_text()}"
    lines += [f"with {ctx}:", f"    {call}"] if ctx else [call]
    lines.append(f"# then check {invariant.name}: {invariant.doc.splitlines()[0] if invariant.doc else ''}")
    return "\n".join("    " + line for line in lines)


def failure_message(entry, case, invariant, expected, observed, detail, extra="") -> str:
    parts = [
        f"{entry.id} / {invariant.name}: expected {expected!r}, observed {observed!r}",
        f"  versions: {versions_line()}",
        f"  input:    {case.describe()}",
        f"  call:     {entry.call_text()}" + (f"   (under {case.mode_context()})" if case.mode_context() else ""),
    ]
    if detail:
        parts.append(f"  detail:   {detail}")
    if extra:
        parts.append(f"  {extra}")
    gates = entry.evidence(invariant.name)
    if gates:
        parts.append("  version gates: " + "; ".join(gates))
    parts.append(f"  spec:     {entry.file} entry {entry.id!r} expect.{invariant.name}")
    parts.append("  reproduce:\n" + reproduction(entry, case, invariant))
    return "\n".join(parts)


def check(entry, case, invariant_name):
    """Run `entry` on `case` and assert one invariant; raises AssertionError with a full reproduction."""
    inv = REGISTRY[invariant_name]
    run = execute(entry, case, inv)
    expected_raw = entry.expected(invariant_name, case)
    if invariant_name != "raises" and run.error is not None:
        raise AssertionError(failure_message(entry, case, inv, "no error", run.error, "the call raised",
                                             extra="(the spec expects no error for this input)"))
    try:
        observed, detail = inv.observe(run)
    except Exception as exc:
        tb = traceback.format_exception_only(type(exc), exc)[-1].strip()
        raise AssertionError(failure_message(entry, case, inv, expected_raw, "<observation failed>", tb)) from exc
    expected = inv.expected_value(expected_raw, run)
    if not inv.agrees(expected, observed):
        raise AssertionError(failure_message(entry, case, inv, expected, observed, detail))

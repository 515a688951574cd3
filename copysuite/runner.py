"""Run a cell's program on one generated case and judge its check: specs -> plan -> **run -> judge** -> outcome.

`execute` builds the input exactly as `Case.code()` prints it, derives the entry's inputs, runs the program in the
case's grad mode and records what happened; `judge` compares the check's observation with the expectation and
raises a ConformanceFailure (data, with the reproduction that ran) when they disagree.
"""
from __future__ import annotations

import platform
import sys
import traceback
import warnings
from dataclasses import dataclass

import numpy as np
import torch

from copysuite import probes, programs, storage
from copysuite.failures import ConformanceFailure
from strategies.cases import MODE_MANAGER


@dataclass
class Execution:
    namespace: dict             # the inputs, the modules, and the program's variables after the call
    subject: object             # the input the check judges, as it was bound before the call
    result: object
    error: tuple | None         # (exception type name, message) raised by the call
    warnings: list              # [(category name, message)] emitted by the call
    before: dict                # the judged input's snapshot before the call (copysuite.probes.snapshot)
    before_values: object       # a CPU copy of its values before the call (None on meta)

    def __repr__(self) -> str:  # short: pytest prints the arguments of the frames of a failure (no tensor reprs)
        return f"<Execution: result {type(self.result).__name__}, error {self.error and self.error[0]}>"


def versions_line() -> str:
    return (f"torch {torch.__version__}, numpy {np.__version__}, python {platform.python_version()} "
            f"({sys.platform})")


def execute(program, case, subject: str = programs.SOURCE) -> Execution:
    ns = {**programs.namespace(), **case.build()}
    program.bind(ns)
    judged = ns[subject]
    before = probes.snapshot(judged)
    before_values = storage.host_copy(judged) if judged.device.type != "meta" else None
    manager = MODE_MANAGER[case.mode]
    result, error = None, None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if manager is None:
                result = program.run(ns)
            else:
                with manager():
                    result = program.run(ns)
        except Exception as exc:  # the spec says whether an error is expected; anything else is reported
            error = (type(exc).__name__, str(exc))
    seen = [(w.category.__name__, str(w.message)) for w in caught]
    return Execution(ns, judged, result, error, seen, before, before_values)


def program_lines(program, case) -> list[str]:
    """The program as it ran: under its grad mode's `with` block when there is one."""
    ctx = case.mode_context()
    return [f"with {ctx}:"] + [f"    {line}" for line in program.lines()] if ctx else program.lines()


def reproduction(cell, case) -> str:
    """Python that rebuilds the input and runs the program, exactly as the test did."""
    program, check = cell.entry.program, cell.check
    lines = program.modules_used() + case.code() + program.input_lines() + program_lines(program, case)
    lines.append(f"# then check {cell.key}: {check.doc.splitlines()[0] if check.doc else ''}")
    return "\n".join("    " + line for line in lines)


def failure(cell, case, kind, expected, observed, detail) -> ConformanceFailure:
    ctx = case.mode_context()
    text = " / ".join(cell.entry.program.lines()) + (f"   (under {ctx})" if ctx else "")
    return ConformanceFailure(
        cell=str(cell.id), entry=cell.entry.id, check=cell.key, kind=kind, expected=expected, observed=observed,
        detail=detail, input=case.describe(), program=text, versions=versions_line(), evidence=cell.evidence(),
        spec=f"{cell.entry.file} entry {cell.entry.id!r} expect.{cell.key}", reproduction=reproduction(cell, case))


def judge(cell, case, ex: Execution | None = None) -> None:
    """Compare the cell's check on `ex` (by default a fresh execution of the cell's program on `case`); raises
    ConformanceFailure when they disagree."""
    check = cell.check
    ex = ex or execute(cell.entry.program, case, cell.subject)
    expected = cell.expected(case)
    if ex.error is not None and not check.judges_failing_calls:
        raise failure(cell, case, "call_raised", "no error", ex.error, "the call raised")
    try:
        observed = check.observe(ex)
    except Exception as exc:  # noqa: BLE001 - reported as the check failing to observe, with the exception
        tb = traceback.format_exception_only(type(exc), exc)[-1].strip()
        raise failure(cell, case, "observation_failed", expected, "<observation failed>", tb) from exc
    want = check.expected_value(expected, ex)
    if not check.agrees(want, observed.value):
        raise failure(cell, case, "mismatch", want, observed.value, observed.detail)


def judge_all(cells, case) -> dict:
    """Judge every cell (one entry, one case) on as few executions as is sound: the checks that only look share one
    execution per judged input; each check that disturbs it (writes into the result, runs backward) runs last on
    an execution of its own (the first of them takes the shared one, once every look is done).
    Returns {cell id: the exception its judgement raised}, for the cells that did not hold."""
    failed, shared = {}, {}   # shared: judged input -> the execution its looks share
    for cell in sorted(cells, key=lambda c: c.check.disturbs):  # the looks first (a stable sort)
        if cell.subject not in shared:
            shared[cell.subject] = execute(cell.entry.program, case, cell.subject)
        ex = shared.pop(cell.subject) if cell.check.disturbs else shared[cell.subject]
        try:
            judge(cell, case, ex)
        except Exception as exc:  # noqa: BLE001 - the cell's outcome, re-raised by its own test
            failed[cell.id] = exc
    return failed

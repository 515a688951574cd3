"""Judge a cell on one generated case: compare its check's observation of a RunResult with the spec's expectation,
and raise a ConformanceFailure (data, with the reproduction that ran) when they disagree."""
from __future__ import annotations

import traceback

from copysuite.judge.failures import ConformanceFailure
from copysuite.run import history
from copysuite.run.execute import RunResult, execute, versions_line
from copysuite.run.executions import EXECUTORS
from copysuite.run.reproduction import reproduction


def failure(cell, case, kind, expected, observed, detail, left=()) -> ConformanceFailure:
    """`left`: the process-global state the program left switched (RunResult.left), said in the detail."""
    if left:
        detail = "; ".join(filter(None, (detail, "the program left switched (set back after it): " + ", ".join(left))))
    ctx = case.mode_context()
    text = " / ".join(cell.entry.program.lines()) + (f"   (under {ctx})" if ctx else "") + (
        f"   ({case.execution})" if case.execution != "eager" else "")
    return ConformanceFailure(
        cell=str(cell.id), entry=cell.entry.id, check=cell.key, kind=kind, expected=expected, observed=observed,
        detail=detail, input=case.describe(), program=text, versions=versions_line(), evidence=cell.evidence(),
        spec=f"{cell.entry.file} entry {cell.entry.id!r} expect.{cell.key}", reproduction=reproduction(cell, case),
        compiled_before=history.compiled_before(
            EXECUTORS[case.execution].key(cell.entry.program, case, fullgraph=cell.entry.fullgraph)))


def judge(cell, case, ex: RunResult | None = None) -> None:
    """Compare the cell's check on `ex` (by default a fresh execution of the cell's program on `case`); raises
    ConformanceFailure when they disagree."""
    check = cell.check
    ex = ex or execute(cell.entry.program, case, cell.subject, cell.entry)
    expected = cell.expected(case)
    if ex.error is not None and not check.judges_failing_calls:
        raise failure(cell, case, "call_raised", "no error", ex.error, "the call raised", ex.left)
    try:
        observed = check.observe(ex)
    except Exception as exc:
        tb = traceback.format_exception_only(type(exc), exc)[-1].strip()
        raise failure(cell, case, "observation_failed", expected, "<observation failed>", tb, ex.left) from exc
    want = check.expected_value(expected, ex)
    if not check.agrees(want, observed.value):
        raise failure(cell, case, "mismatch", want, observed.value, observed.detail, ex.left)


def judge_all(cells, case) -> dict:
    """Judge every cell (one entry, one case) on as few executions as is sound: the checks that only look share one
    execution per judged input; each check that disturbs it (writes into the result, runs backward) runs last on
    an execution of its own (the first of them takes the shared one, once every look is done).
    Returns {cell id: the exception its judgement raised}, for the cells that did not hold."""
    failed, shared = {}, {}   # shared: judged input -> the execution its looks share
    for cell in sorted(cells, key=lambda c: c.check.disturbs):  # the looks first (a stable sort)
        if cell.subject not in shared:
            shared[cell.subject] = execute(cell.entry.program, case, cell.subject, cell.entry)
        ex = shared.pop(cell.subject) if cell.check.disturbs else shared[cell.subject]
        try:
            judge(cell, case, ex)
        except Exception as exc:  # noqa: BLE001 - the cell's outcome, re-raised by its own test
            failed[cell.id] = exc
    return failed

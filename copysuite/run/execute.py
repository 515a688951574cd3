"""Run a cell's program on one generated case and judge its check: specs -> plan -> **run -> judge** -> outcome.

`execute` builds the input exactly as `Case.code()` prints it, derives the entry's inputs, runs the program in the
case's grad mode and records what happened; `judge` compares the check's observation with the expectation and
raises a ConformanceFailure (data, with the reproduction that ran) when they disagree.
"""
from __future__ import annotations

import contextlib
import platform
import sys
import traceback
import warnings
from dataclasses import dataclass

import numpy as np
import torch

from copysuite.run import probes, storage
from copysuite.spec import programs
from copysuite.run.executions import EXECUTORS
from copysuite.judge.failures import ConformanceFailure
from copysuite.strategies.cases import MODE_MANAGER


@dataclass
class Execution:
    namespace: dict             # the inputs, the modules, and the program's variables after the call
    subject: object             # the input the check judges, as it was bound before the call (a variable of the
                                # program: as the program left it)
    result: object
    error: tuple | None         # (exception type name, message) raised by the call
    warnings: list              # [(category name, message)] emitted by the call
    before: dict                # the judged input's snapshot before the call (copysuite.run.probes.snapshot)
    before_values: object       # a CPU copy of its values before the call (None on meta, sparse or nested)
    raised: BaseException | None = None   # the exception itself (copysuite.judge.checks.call reads its class and cause)

    def __repr__(self) -> str:  # short: pytest prints the arguments of the frames of a failure (no tensor reprs)
        return f"<Execution: result {type(self.result).__name__}, error {self.error and self.error[0]}>"


def versions_line() -> str:
    return (f"torch {torch.__version__}, numpy {np.__version__}, python {platform.python_version()} "
            f"({sys.platform})")


# torch.__future__'s global switches (how nn.Module converts and loads its parameters): a program may set one, and
# must reset it at its end, but a program that fails midway never reaches that line; each is restored after every
# program, so that no program changes how a later one runs
FUTURE_SWITCHES = tuple(name[4:] for name in dir(torch.__future__) if name.startswith("get_"))


@contextlib.contextmanager
def future_switches_restored():
    """The block may flip torch.__future__'s switches; they are as before once it ends, however it ends."""
    saved = {name: getattr(torch.__future__, "get_" + name)() for name in FUTURE_SWITCHES}
    try:
        yield
    finally:
        for name, value in saved.items():
            getattr(torch.__future__, "set_" + name)(value)


def execute(program, case, subject: str = programs.SOURCE, entry=None) -> Execution:
    """Build the case, bind the inputs, run the program (eager or compiled: case.execution) in the case's grad mode.
    `entry` (the spec entry) names the compiled function's statistics and says whether it may break the graph."""
    executor = EXECUTORS[case.execution]
    how = dict(entry_id=entry.id, fullgraph=not entry.graph_breaks) if entry else {}
    ns = {**programs.namespace(), **case.build()}
    program.bind(ns)
    judged, before, before_values = None, {}, None  # a variable of the program is judged as the program left it
    judges_input = subject in program.input_names
    if judges_input:
        judged = ns[subject]
        before = probes.snapshot(judged)
        if judged.device.type != "meta" and storage.has_storage(judged):
            before_values = storage.host_copy(judged)
    manager = MODE_MANAGER[case.mode]
    result, error, raised = None, None, None
    storage.rearm_once_per_process_warnings()   # each call warns as a fresh process's first call would
    with warnings.catch_warnings(record=True) as caught, future_switches_restored():
        warnings.simplefilter("always")
        try:
            if manager is None:
                result = executor.run(program, ns, case, **how)
            else:
                with manager():
                    result = executor.run(program, ns, case, **how)
        except Exception as exc:  # the spec says whether an error is expected; anything else is reported
            error, raised = (type(exc).__name__, str(exc)), exc
        finally:
            programs.remove_tmp_file(ns)   # the program's file, if it asked for one (`tmp_file`)
    seen = [(w.category.__name__, str(w.message)) for w in caught]
    if not judges_input:
        judged = ns.get(subject)
    return Execution(ns, judged, result, error, seen, before, before_values, raised)


def program_lines(program, case, fullgraph: bool = True) -> list[str]:
    """The program as it ran: the compiled function's definition (if compiled), then the program or the call of
    that function, under its grad mode's `with` block when there is one."""
    executor, ctx = EXECUTORS[case.execution], case.mode_context()
    lines = executor.call_lines(program)
    return executor.define_lines(program, fullgraph) + ([f"with {ctx}:"] + [f"    {line}" for line in lines] if ctx else lines)


def reproduction(cell, case) -> str:
    """Python that rebuilds the input and runs the program, exactly as the test did."""
    program, check = cell.entry.program, cell.check
    lines = (program.modules_used() + case.code() + program.input_lines() +
             program_lines(program, case, fullgraph=not cell.entry.graph_breaks))
    lines.append(f"# then check {cell.key}: {check.doc.splitlines()[0] if check.doc else ''}")
    return "\n".join("    " + line for line in lines)


def failure(cell, case, kind, expected, observed, detail) -> ConformanceFailure:
    ctx = case.mode_context()
    text = " / ".join(cell.entry.program.lines()) + (f"   (under {ctx})" if ctx else "") + (
        f"   ({case.execution})" if case.execution != "eager" else "")
    return ConformanceFailure(
        cell=str(cell.id), entry=cell.entry.id, check=cell.key, kind=kind, expected=expected, observed=observed,
        detail=detail, input=case.describe(), program=text, versions=versions_line(), evidence=cell.evidence(),
        spec=f"{cell.entry.file} entry {cell.entry.id!r} expect.{cell.key}", reproduction=reproduction(cell, case))


def judge(cell, case, ex: Execution | None = None) -> None:
    """Compare the cell's check on `ex` (by default a fresh execution of the cell's program on `case`); raises
    ConformanceFailure when they disagree."""
    check = cell.check
    ex = ex or execute(cell.entry.program, case, cell.subject, cell.entry)
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
            shared[cell.subject] = execute(cell.entry.program, case, cell.subject, cell.entry)
        ex = shared.pop(cell.subject) if cell.check.disturbs else shared[cell.subject]
        try:
            judge(cell, case, ex)
        except Exception as exc:  # noqa: BLE001 - the cell's outcome, re-raised by its own test
            failed[cell.id] = exc
    return failed

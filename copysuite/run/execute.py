"""Run a cell's program on one generated case: `execute` builds the input exactly as `Case.code()` prints it, derives
the entry's inputs, runs the program (eagerly or under the case's execution) in the case's grad mode and records
what happened as a RunResult.
"""
from __future__ import annotations

import platform
import sys
import warnings
from dataclasses import dataclass

import numpy as np
import torch

from copysuite.run import probes, process_state, storage
from copysuite.spec import programs
from copysuite.run.executions import EXECUTORS
from copysuite.strategies.cases import MODE_MANAGER


@dataclass
class RunResult:
    namespace: dict             # the inputs, the modules, and the program's variables after the call
    subject: object             # the input the check judges, as it was bound before the call (a variable of the
                                # program: as the program left it)
    result: object
    error: tuple | None         # (exception type name, message) raised by the call
    warnings: list              # [(category name, message)] emitted by the call
    before: dict                # the judged input's snapshot before the call (copysuite.run.probes.snapshot)
    before_values: object       # a CPU copy of its values before the call (None on meta, sparse or nested)
    raised: BaseException | None = None   # the exception itself (copysuite.judge.checks.call reads its class and cause)
    left: tuple = ()            # the process-global state the program left switched, set back after it
                                # (copysuite.run.process_state)

    def __repr__(self) -> str:  # short: pytest prints the arguments of the frames of a failure (no tensor reprs)
        return f"<RunResult: result {type(self.result).__name__}, error {self.error and self.error[0]}>"


def versions_line() -> str:
    return (f"torch {torch.__version__}, numpy {np.__version__}, python {platform.python_version()} "
            f"({sys.platform})")


def execute(program, case, subject: str = programs.SOURCE, entry=None) -> RunResult:
    """Build the case, bind the inputs, run the program (eager or compiled: case.execution) in the case's grad mode.
    `entry` (the spec entry) names the compiled function's statistics and says whether it may break the graph."""
    executor = EXECUTORS[case.execution]
    how = dict(entry_id=entry.id, fullgraph=entry.fullgraph) if entry else {}
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
    if executor.compiled:
        process_state.fresh_fake_tensor_cache()   # and traces as one would
    with warnings.catch_warnings(record=True) as caught, process_state.kept() as left:
        warnings.simplefilter("always")
        try:
            if manager is None:
                result = executor.run(program, ns, case, **how)
            else:
                with manager():
                    result = executor.run(program, ns, case, **how)
        except Exception as exc:  # noqa: BLE001 - the spec says whether an error is expected; the rest is reported
            error, raised = (type(exc).__name__, str(exc)), exc
        finally:
            programs.remove_tmp_file(ns)   # the program's file, if it asked for one (`tmp_file`)
    seen = [(w.category.__name__, str(w.message)) for w in caught]
    if not judges_input:
        judged = ns.get(subject)
    return RunResult(ns, judged, result, error, seen, before, before_values, raised, tuple(left))

"""The standalone reproduction of a cell: Python that rebuilds the generated input and runs the program exactly as
the test did (the compiled function's definition included), printed with every failure."""
from __future__ import annotations

from copysuite.run.executions import EXECUTORS, cache_off_lines


def program_lines(program, case, fullgraph: bool = True) -> list[str]:
    """The program as it ran: the compile caches turned off and the compiled function's definition (if compiled),
    then the program or the call of that function, under its grad mode's `with` block when there is one."""
    executor, ctx = EXECUTORS[case.execution], case.mode_context()
    lines = executor.call_lines(program)
    caches = cache_off_lines() if executor.compiled else []
    body = [f"with {ctx}:"] + [f"    {line}" for line in lines] if ctx else lines
    return caches + executor.define_lines(program, fullgraph) + body


def reproduction(cell, case) -> str:
    """Python that rebuilds the input and runs the program, exactly as the test did."""
    program, check = cell.entry.program, cell.check
    lines = (program.modules_used() + case.code() + program.input_lines() +
             program_lines(program, case, fullgraph=cell.entry.fullgraph))
    lines.append(f"# then check {cell.key}: {check.doc.splitlines()[0] if check.doc else ''}")
    return "\n".join("    " + line for line in lines)

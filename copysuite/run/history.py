"""The calls of each compiled function, in order: the input each ran on, and whether it compiled a graph. A failure
names the inputs that compiled its function before it: dynamo's cache then held their graphs and guards, which the
printed reproduction (the function compiled afresh for the failing input) starts without, so a failure that depends
on them can hold there; running the cell alone (`-p no:xdist -k CELL`) replays them."""
from __future__ import annotations

CALLS: dict = {}   # the compiled function's key (Executor.key) -> [(case, compiled a graph)]


def record(key, case, compiled: bool) -> None:
    """One call (on every compiled call: the case itself, described only when a failure asks)."""
    CALLS.setdefault(key, []).append((case, compiled))


def compiled_before(key) -> list[str]:
    """The inputs (described) whose calls compiled a graph of the function `key` before its latest call, oldest
    first."""
    return [case.describe() for case, compiled in CALLS.get(key, [])[:-1] if compiled]

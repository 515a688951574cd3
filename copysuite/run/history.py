"""The calls of each compiled function, in order: the input each ran on, and whether it compiled a graph. A failure
names the inputs that compiled its function before it: dynamo's cache then held their graphs and guards, which the
printed reproduction (the function compiled afresh for the failing input) starts without, so a failure that depends
on them can hold there; running the cell alone (`-p no:xdist -k CELL`) replays them."""
from __future__ import annotations

CALLS: dict = {}   # the compiled function's key (Executor.key) -> [(input description, compiled a graph)]


def record(key, description: str, compiled: bool) -> None:
    CALLS.setdefault(key, []).append((description, compiled))


def compiled_before(key) -> list[str]:
    """The inputs whose calls compiled a graph of the function `key` before its latest call, oldest first.

    >>> record("k", "a", True); record("k", "b", False); record("k", "c", True); compiled_before("k")
    ['a']
    """
    return [description for description, compiled in CALLS.get(key, [])[:-1] if compiled]

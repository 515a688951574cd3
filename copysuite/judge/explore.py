"""One Hypothesis run judges a whole group of cells: each generated case is executed once and every check of the
group is judged on it (copysuite.judge.judge.judge_all).

A group is the cells of one entry, device and execution that draw from the same input space: the same source kinds (a
check may narrow them) and the same `judgeable` filter (`raises` is also judged where the call is expected to fail). So
every cell sees exactly the inputs it would see alone: its corner cases first, then the profile's random examples. A
cell that fails in the group is re-run alone by its own test (copysuite.plugin.conformance), where Hypothesis shrinks
its failure; the group run itself never shrinks and never stops early, so one failing check cannot hide another.

The corner cases are judged in a plain loop, not as Hypothesis explicit examples: they are fixed inputs that nothing
shrinks or replays, and Hypothesis' bookkeeping per explicit example (seeding and restoring every random generator,
printing the example, its engine data) cost as much as judging one. The cell's own re-run
(copysuite.plugin.conformance.alone) still gives them to Hypothesis as explicit examples, so a failing corner is
reported and replayed as before.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import event, given, settings
from hypothesis.statistics import collector, describe_statistics

from copysuite.judge.judge import judge_all
from copysuite.strategies.space import dtype_class


COMPILED_SHARE = 4   # a compiled group draws a quarter of the profile's random examples (each one compiles)


def examples_for(cell) -> int:
    """Random examples for the cell's group: the profile's, or for a compiled execution a quarter of them (at least
    2): most of a compiled case's cost is compiling it, and the corner cases are run in full either way."""
    n = settings.default.max_examples
    return n if cell.execution == "eager" else max(2, n // COMPILED_SHARE)


def group_key(cell) -> tuple:
    """Cells with equal keys draw the same inputs (see Cell.space and Cell.judgeable; `raises` joins the other checks
    of an entry that never expects a call to fail: it would draw the same inputs, and compile them again)."""
    return (cell.entry.id, cell.device, cell.execution, tuple(cell.space()["kinds"]), cell.draws_apart)


def apart(test, key: str):
    """The Hypothesis test `test`, its examples kept apart under `key` in Hypothesis' example database (and its
    derandomized seed): a group run and a cell's own run each replay only their own. The one place that touches
    Hypothesis' internal attribute for it."""
    test._hypothesis_internal_add_digest = key.encode()
    return test


@dataclass
class Exploration:
    failed: dict = field(default_factory=dict)   # {cell id: (case, the exception its first failing case raised)}
    cases: int = 0                               # cases executed (explicit and generated)
    statistics: str | None = None                # Hypothesis' statistics of the run, when asked for


def note_input(case):
    """Hypothesis statistics: how many inputs of each kind, grad mode, placement and dtype class a run drew."""
    event(f"kind: {case.kind}")
    event(f"grad mode: {case.mode}")
    event(f"placement: {case.placement}")
    event(f"dtype class: {dtype_class(case.dtype)}")


def explore(cells, *, statistics: bool = False, before_case=None) -> Exploration:
    """Run the group's corner cases and random examples, judging every cell not yet failed on each. (Hypothesis'
    statistics, when asked for, describe the random examples: the corner cases are the same every run.)
    `before_case`, if given, is called before each case is judged (the test restarts its time limit there)."""
    first, found = cells[0], Exploration()

    def judge_case(case):
        if before_case is not None:
            before_case()
        found.cases += 1
        pending = [c for c in cells if c.id not in found.failed]
        for cell_id, exc in judge_all(pending, case).items():
            found.failed[cell_id] = (case, exc)

    for case in first.corner_cases():
        judge_case(case)

    @given(case=first.strategy())
    def each(case):
        note_input(case)
        judge_case(case)

    each = apart(settings(max_examples=examples_for(first))(each), repr(group_key(first)))

    def keep(stats):
        stats["nodeid"] = (f"the group run of {first.entry.id} on {first.device}, {first.execution} "
                           f"({len(cells)} checks)")
        found.statistics = describe_statistics(stats)

    with collector.with_value(keep if statistics else None):
        each()
    return found

"""The surface cells of a conformance run: one per (class, op name, execution), `surface.CLASS:OP-contract-cpu-
EXECUTION`, judging every call planned for that op and class (copysuite.surface.inputs).

    sample   the hand-written calls (every alias op, a dozen in-place methods, a few out= and functional forms):
             the default, cheap, without op_db
    all      those, the first samples of every OpInfo of the release's op_db, and calls generated from the schemas
             of the public names neither reaches (copysuite.surface.generated)
    none     no surface cell
A name is checked when some planned cell judges its contract on at least one input the op accepts.
"""
from __future__ import annotations

from dataclasses import dataclass

from copysuite.plan.cell_id import CellId
from copysuite.surface import classify, generated, inputs
from copysuite.surface.classify import classified
from copysuite.surface.checks import Judge, NotApplicable

SCOPES = ("sample", "all", "none")
CHECK = "contract"
PREFIX = "surface."


@dataclass(frozen=True)
class SurfaceCell:
    op: str
    cls: str
    execution: str
    calls: tuple
    inplace_view: bool = False

    @property
    def id(self) -> CellId:
        return CellId(f"{PREFIX}{self.cls}:{self.op}", CHECK, "cpu", self.execution)

    def judge(self) -> int:
        """Judge every call (raises the first failure); returns how many calls applied."""
        applied = 0
        for call in self.calls:
            try:
                Judge(call, str(self.id), self.execution, self.inplace_view).judge()
            except NotApplicable:
                continue
            applied += 1
        return applied


def planned_calls(scope: str, limit: int = 2) -> list:
    if scope == "none":
        return []
    if scope == "sample":
        return inputs.hand_calls()
    calls = inputs.all_calls(classify.by_class(classified()), limit)
    return calls + generated.schema_calls(classified(), {(c.cls, c.op) for c in calls})


def plan(scope: str, executions=("eager",), entries=()) -> list:
    """The surface cells of `scope` under each execution; `entries` (surface.CLASS:OP ids) narrows them."""
    ops = classified()
    grouped = {}
    for call in planned_calls(scope):
        if call.op in ops and call.cls in ops[call.op].classes:
            grouped.setdefault((call.cls, call.op), []).append(call)
    cells = [SurfaceCell(op, cls, ex, tuple(calls), ops[op].inplace_view)
             for (cls, op), calls in sorted(grouped.items()) for ex in executions]
    return [c for c in cells if not entries or c.id.entry in entries]

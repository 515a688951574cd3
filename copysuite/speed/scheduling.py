"""pytest-xdist scheduling for the conformance run: xdist's own "load" scheduling, except that it never splits the
cells of one entry and device between two workers. They are judged in one run (copysuite.judge.explore) by the worker
that runs the first of them; a worker holding only some of them would run the whole group again. The plugin collects
them next to each other (copysuite.plugin.in_run_order), so a chunk that ends where they end holds all of them.

xdist sends each worker chunks of the collection in order; here a chunk is extended to the end of the group its last
test belongs to (for tests other than cells, the group is their module). Everything else is xdist's: when a worker
crashes, the test it was running is reported and not sent again. (Not `--dist loadgroup`: it renames node ids, which
pytest 9 ignores, and its scope scheduler sends the test that crashed a worker to the replacement again,
pytest-dev/pytest-xdist#1371.)
"""
from __future__ import annotations

from xdist.scheduler import LoadScheduling

from copysuite.plan.cell_id import CellId


def group_of(nodeid: str) -> str:
    """A conformance cell's entry and device; for any other test, its module (so that a module-scoped fixture, such
    as the fault campaign's, runs once and not once per worker)."""
    cell = CellId.from_nodeid(nodeid)
    return nodeid.split("::", 1)[0] if cell is None else f"{cell.entry}-{cell.device}"


class EntryScheduling(LoadScheduling):
    def _send_tests(self, node, num: int) -> None:
        pending = self.pending
        while 0 < num < len(pending):
            if group_of(self.collection[pending[num]]) != group_of(self.collection[pending[num - 1]]):
                break
            num += 1
        super()._send_tests(node, num)

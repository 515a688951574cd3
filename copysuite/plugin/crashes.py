"""Known crashes as strict expected failures: under pytest-xdist a cell whose process dies (a segfault) is reported by
the controller with a report of its own, and the worker is replaced. Where a registry record's surface item names that
cell with the clause `crashed` (specs/known/schema.json), the report becomes the record's expected failure: xfailed,
and diverged in the outcome JSON, naming the record. A crash no record names stays a failure; a named cell that runs
without crashing fails as stale (copysuite.plugin.conformance.expected_failure). Without xdist a crash ends the whole
session, which no hook can report.

Registered on the controller only, and only when pytest-xdist is loaded (`pytest_handlecrashitem` is its hook).
"""
from __future__ import annotations

import pytest
import torch

from copysuite.known.registry import CRASHED
from copysuite.plan.cell_id import CellId
from copysuite.surface.known import records


def crash_record(nodeid: str, version: str):
    """The surface item (copysuite.surface.known.Known) that names this test's cell as crashing, or None."""
    cell = CellId.from_nodeid(nodeid)
    if cell is None:
        return None
    return next((k for k in records(cell.entry, cell.execution, version) if k.clause == CRASHED), None)


@pytest.hookimpl(optionalhook=True)
def pytest_handlecrashitem(crashitem, report, sched):
    known = crash_record(crashitem, torch.__version__)
    if known is None:
        return None
    reason = f"{'by design' if known.by_design else 'known bug'} {known.evidence}: expected no crash, observed one"
    report.outcome = "skipped"
    report.wasxfail = reason
    report.user_properties = [("failure", {"kind": CRASHED, "check": CRASHED, "message": str(report.longrepr)}),
                              ("divergence", known.evidence)]
    return True

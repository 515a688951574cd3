"""Collect the outcome of every conformance cell from pytest's reports; at the session's end print the table
(copysuite.outcome.table) and write the outcome JSON (copysuite.outcome.document).

Outcomes come from pytest's reports: the cell id was attached to each conformance test at collection, and a
ConformanceFailure's fields at report time (copysuite.plugin), so nothing here reads failure text. Totals over the
whole session are pytest's own (`terminalreporter.stats`).
"""
from __future__ import annotations

import json
import os
from collections import Counter

import pytest
import torch

from copysuite.known import registry
from copysuite.outcome.document import document
from copysuite.outcome.table import compile_line, table
from copysuite.plan.cell_id import CellId

CRASHED = ("the interpreter died while running it: a crash, or a hang killed by pytest-timeout; the worker's "
           "stderr has the stack. The other tests ran on a new worker.")


class OutcomeRecorder:
    def __init__(self, config, spec_set, spec_dir):
        self.config, self.spec_set, self.spec_dir = config, spec_set, spec_dir
        self.cells = {}       # cell id -> its object of the outcome JSON's `cells`
        self.casualties = []  # conformance tests whose worker process died
        self.not_collected = []   # (cell id, why): planned cells that cannot run here (copysuite.plugin)
        self.uncollected = {}     # why -> how many of them the outcome lists
        self.runnable_entries = set()
        self.compiled = {}        # entry -> execution -> Counter of what compiled calls did (copysuite.run.executions)

    def not_run(self, cells_and_reasons, runnable_entries) -> None:
        self.not_collected = [(cell.id, why) for cell, why in cells_and_reasons]
        self.runnable_entries = set(runnable_entries)

    def _add_not_collected(self) -> None:
        """The cells that cannot run here, as skipped with their reason: those of every entry this session reported
        on (so that -k or node ids select them together with the cells that ran), and every cell of an entry none
        of whose cells can run here (no selection could have chosen it: it is never lost from the outcome)."""
        reported = {rec["entry"] for rec in self.cells.values()}
        if not reported:  # a session of other tests (seeds, self-tests): no conformance outcome to complete
            return
        for cell, why in self.not_collected:
            listed = cell.entry in reported or cell.entry not in self.runnable_entries
            if listed and str(cell) not in self.cells:
                self.cells[str(cell)] = {**cell.as_dict(), "outcome": "skipped", "skip_reason": why, "failure": None}
                self.uncollected[why] = self.uncollected.get(why, 0) + 1

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report):
        props = dict(report.user_properties)
        # the cell as data, attached at collection; a report of a worker that died may carry only the node id
        cell = CellId.from_dict(props["cell"]) if "cell" in props else CellId.from_nodeid(report.nodeid)
        if cell is None:
            return
        if report.when == "???":  # pytest-xdist: the worker died while running this test (crash, or killed hang)
            self.casualties.append({"nodeid": report.nodeid, "cell": str(cell)})
        rec = self.cells.setdefault(str(cell), {**cell.as_dict(), "outcome": "passed", "skip_reason": None,
                                                "failure": None})
        if "compile" in props and report.when == "call":
            totals = self.compiled.setdefault(rec["entry"], {}).setdefault(rec["execution"], Counter())
            totals.update(props["compile"])
        if report.when != "call" and report.outcome == "passed":
            return
        if report.skipped and hasattr(report, "wasxfail"):
            rec.update(outcome="diverged", failure=props.get("failure"), skip_reason=report.wasxfail,
                       divergence=props.get("divergence"))
        elif report.skipped:
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
            rec.update(outcome="skipped", skip_reason=reason.removeprefix("Skipped: "))
        elif report.when == "???":
            rec.update(outcome="failed", failure={"kind": registry.CRASHED, "message": f"{report.longrepr}: {CRASHED}"})
        elif report.failed:
            failure = props.get("failure") or {"kind": "error", "message": str(report.longrepr)}
            rec.update(outcome="failed", failure=failure)

    @pytest.hookimpl
    def pytest_terminal_summary(self, terminalreporter):
        self._add_not_collected()
        if not self.cells:
            return
        tr = terminalreporter
        tr.section(f"copy-semantics conformance on torch {torch.__version__}")
        for line in table(self.cells):
            tr.write_line(line)
        for why, n in sorted(self.uncollected.items()):
            tr.write_line(f"not collected: {n} cells: {why}")
        if self.compiled:
            tr.write_line(compile_line(self.compiled))
        for c in self.casualties:
            tr.write_line(f"CASUALTY: {c['nodeid']}: the worker died while running it; the other tests went on")
        path = self.config.getoption("outcome_json")
        if path:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            with open(path, "w") as fh:
                json.dump(document(self, tr.stats), fh, indent=1, sort_keys=True)
            tr.write_line(f"outcome JSON written to {path}")


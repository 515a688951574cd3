"""Record the outcome of every conformance cell, print a table per entry, and write the outcome JSON.

Outcomes come from pytest's reports: the cell id was attached to each conformance test at collection, and a
ConformanceFailure's fields at report time (copysuite.plugin), so nothing here reads failure text. Totals over the
whole session are pytest's own (`terminalreporter.stats`).
"""
from __future__ import annotations

import json
import os
import platform
import subprocess
from collections import Counter, defaultdict
from datetime import datetime, timezone

import numpy as np
import pytest
import torch

from copysuite.spec import declared
from copysuite.plan.cell_id import CellId
from copysuite.outcome.format import FORMAT
from copysuite.strategies.devices import device_skip_reason
from copysuite.strategies.dtypes import available_dtypes, unavailable_dtypes
from copysuite.strategies.space import DEVICES

CRASHED = ("the interpreter died while running it: a crash, or a hang killed by pytest-timeout; the worker's "
           "stderr has the stack. The other tests ran on a new worker.")


def spec_revision(spec_dir) -> dict | None:
    """The git commit that last changed the spec files, and whether they have uncommitted changes; None outside
    a git checkout (an installed package)."""
    def git(*args):
        return subprocess.run(["git", "-C", str(spec_dir), *args], capture_output=True, text=True, timeout=30,
                              check=True).stdout.strip()
    try:
        return {"commit": git("log", "-1", "--format=%H", "--", "."),
                "modified": bool(git("status", "--porcelain", "--", "."))}
    except (OSError, subprocess.SubprocessError):
        return None


_SPEC_SECTIONS: dict = {}


def spec_section(spec_set, spec_dir) -> dict:
    """The outcome's "specs": the spec set's digest, revision, files and declarations, the same for every session of
    one spec set (a warm process that runs many sessions, the fault driver, works it out once: 0.07 s a session)."""
    key = (spec_set.digest, str(spec_dir))
    if key not in _SPEC_SECTIONS:
        _SPEC_SECTIONS[key] = {"digest": spec_set.digest, "revision": spec_revision(spec_dir),
                               "files": list(spec_set.files), "entries": declared.summarize(spec_set.entries)}
    return _SPEC_SECTIONS[key]


class OutcomeRecorder:
    def __init__(self, config, spec_set, spec_dir):
        self.config, self.spec_set, self.spec_dir = config, spec_set, spec_dir
        self.cells = {}       # cell id -> record
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
            rec.update(outcome="failed", failure={"kind": "crashed", "message": f"{report.longrepr}: {CRASHED}"})
        elif report.failed:
            failure = props.get("failure") or {"kind": "error", "message": str(report.longrepr)}
            rec.update(outcome="failed", failure=failure)

    @staticmethod
    def session_totals(stats) -> dict:
        """Totals over every test of the session (seed scenarios and self-tests included): pytest's own counts."""
        def count(key):
            return len(stats.get(key, []))
        failed = [r.nodeid if getattr(r, "when", "collect") in ("call", "???") else f"{r.nodeid} ({r.when})"
                  for key in ("failed", "error") for r in stats.get(key, [])]
        return {"passed": count("passed"), "failed": count("failed"), "skipped": count("skipped"),
                "xfailed": count("xfailed"), "xpassed": count("xpassed"), "errors": count("error"),
                "failed_tests": failed}

    @pytest.hookimpl
    def pytest_terminal_summary(self, terminalreporter):
        self._add_not_collected()
        if not self.cells:
            return
        tr = terminalreporter
        tr.section(f"copy-semantics conformance on torch {torch.__version__}")
        for line in self.table():
            tr.write_line(line)
        for why, n in sorted(self.uncollected.items()):
            tr.write_line(f"not collected: {n} cells: {why}")
        if self.compiled:
            tr.write_line(self.compile_line())
        for c in self.casualties:
            tr.write_line(f"CASUALTY: {c['nodeid']}: the worker died while running it; the other tests went on")
        path = self.config.getoption("outcome_json")
        if path:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            with open(path, "w") as fh:
                json.dump(self.document(tr.stats), fh, indent=1, sort_keys=True)
            tr.write_line(f"outcome JSON written to {path}")

    def compile_totals(self) -> dict:
        return {entry: {ex: {**c, "compile_seconds": round(c["compile_seconds"], 2)} for ex, c in by.items()}
                for entry, by in sorted(self.compiled.items())}

    def compile_line(self) -> str:
        """One line: what the compiled executions cost (graphs compiled, graph breaks, seconds in compiling calls)."""
        total = Counter()
        for by in self.compiled.values():
            for c in by.values():
                total.update(c)
        return (f"compiled: {total['calls']} calls of {sum(len(b) for b in self.compiled.values())} compiled "
                f"(entry, execution) pairs; {total['compiles']} graphs compiled, {total['graph_breaks']} graph "
                f"breaks, {total['compile_seconds']:.1f} s in calls that compiled (per entry: the outcome JSON)")

    def table(self) -> list[str]:
        """Per entry: held, failed, diverged (a known upstream bug reproduced) and skipped cells, with notes."""
        per_entry = defaultdict(lambda: {"passed": 0, "failed": 0, "diverged": 0, "skipped": 0, "reasons": set(),
                                         "failed_checks": [], "known": set()})
        for rec in self.cells.values():
            row = per_entry[rec["entry"]]
            row[rec["outcome"]] += 1
            if rec["outcome"] == "skipped":
                row["reasons"].add(rec["skip_reason"])
            if rec["outcome"] == "diverged":
                row["known"].add(f"known: {rec['divergence']}")
            if rec["outcome"] == "failed":
                where = rec["device"] if rec["execution"] == "eager" else f"{rec['device']} {rec['execution']}"
                row["failed_checks"].append(f"{rec['check']}[{where}]")
        width = max(len(e) for e in per_entry)
        lines = [f"{'entry':<{width}}  held  failed  diverged  skipped  notes"]
        for eid in sorted(per_entry):
            row = per_entry[eid]
            notes = (["FAILED: " + ", ".join(sorted(row["failed_checks"]))] if row["failed_checks"] else []) + (
                ["; ".join(sorted(row["known"]))] if row["known"] else []) + (
                ["skipped: " + "; ".join(sorted(row["reasons"]))] if row["reasons"] else [])
            lines.append(f"{eid:<{width}}  {row['passed']:>4}  {row['failed']:>6}  {row['diverged']:>8}  "
                         f"{row['skipped']:>7}  " + " | ".join(notes))
        total = {k: sum(r[k] for r in per_entry.values()) for k in ("passed", "failed", "diverged", "skipped")}
        lines.append(f"{'total':<{width}}  {total['passed']:>4}  {total['failed']:>6}  {total['diverged']:>8}  "
                     f"{total['skipped']:>7}")
        return lines

    def document(self, stats) -> dict:
        from hypothesis import settings
        return {
            "format": FORMAT,
            "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "torch": torch.__version__, "numpy": np.__version__, "python": platform.python_version(),
            "platform": platform.platform(),
            "hypothesis_profile": settings.get_current_profile_name(),
            "devices": {d: device_skip_reason(d) or "available" for d in DEVICES},
            "dtypes_available": list(available_dtypes()), "dtypes_unavailable": list(unavailable_dtypes()),
            "specs": spec_section(self.spec_set, self.spec_dir),
            "session": self.session_totals(stats),
            "casualties": self.casualties,
            "compiled": self.compile_totals(),
            "cells": sorted(self.cells.values(), key=lambda r: (r["entry"], r["check"], r["device"], r["execution"])),
        }

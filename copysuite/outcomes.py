"""Record the outcome of every conformance test; print a per-op table; optionally write it all as JSON."""
from __future__ import annotations

import json
import os
import platform
from collections import defaultdict
from datetime import datetime, timezone

import numpy as np
import pytest
import torch

from strategies.devices import DEVICES, device_skip_reason
from strategies.dtypes import available_dtypes, unavailable_dtypes

SCHEMA = "copy-semantics-outcome/1"


class OutcomeRecorder:
    def __init__(self, config):
        self.config = config
        self.results = {}  # nodeid -> record
        self.casualties = []  # conformance tests whose worker process died
        self.session = {"passed": 0, "failed": 0, "skipped": 0, "xfailed": 0, "xpassed": 0, "failed_tests": []}

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report):
        self.count(report)
        props = dict(report.user_properties)
        if report.when == "???":  # pytest-xdist: the worker died while running this test (crash, or killed hang)
            props = props or self.ids_from_nodeid(report.nodeid)
            if props:
                self.casualties.append({"nodeid": report.nodeid, **{k: props[k] for k in ("spec_entry", "invariant",
                                                                                           "device")}})
        if "spec_entry" not in props:
            return
        rec = self.results.setdefault(report.nodeid, {
            "op": props["spec_entry"], "invariant": props["invariant"], "device": props["device"],
            "outcome": "passed", "detail": ""})
        if report.when == "call" or report.outcome != "passed":
            if report.skipped:
                reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
                rec.update(outcome="skipped", detail=reason.removeprefix("Skipped: "))
            elif report.when == "???":
                rec.update(outcome="failed", detail=f"CRASHED: {report.longrepr} (the interpreter died: a crash, or "
                                                    f"a hang killed by pytest-timeout; the worker's stderr has the "
                                                    f"stack). The other tests ran on a new worker.")
            elif report.failed:
                text = getattr(report.longrepr, "reprcrash", None)
                rec.update(outcome="failed", detail=(text.message if text else str(report.longrepr))[:2000])

    @staticmethod
    def ids_from_nodeid(nodeid):
        """(op, invariant, device) from a conformance test id `...::test_invariant[OP-INVARIANT-DEVICE]`."""
        if "test_conformance.py::test_invariant[" not in nodeid:
            return {}
        op, invariant, device = nodeid.split("[", 1)[1].rstrip("]").rsplit("-", 2)
        return {"spec_entry": op, "invariant": invariant, "device": device}

    def count(self, report):
        """Totals over every test of the session (seed scenarios and self-tests included), one per test."""
        if report.when != "call" and report.outcome == "passed":
            return
        if report.when == "teardown" and report.outcome == "skipped":
            return
        if hasattr(report, "wasxfail"):
            self.session["xfailed" if report.skipped else "xpassed"] += 1
            return
        if report.when == "teardown" and report.failed:
            self.session["failed_tests"].append(report.nodeid + " (teardown)")
            return
        self.session[report.outcome] += 1
        if report.failed:
            self.session["failed_tests"].append(report.nodeid)

    def summary_rows(self):
        per_op = defaultdict(lambda: {"passed": 0, "failed": 0, "skipped": 0, "reasons": set(), "failed_inv": []})
        for rec in self.results.values():
            row = per_op[rec["op"]]
            row[rec["outcome"]] += 1
            if rec["outcome"] == "skipped":
                row["reasons"].add(rec["detail"])
            if rec["outcome"] == "failed":
                row["failed_inv"].append(f"{rec['invariant']}[{rec['device']}]")
        return per_op

    @pytest.hookimpl
    def pytest_terminal_summary(self, terminalreporter):
        if not self.results:
            return
        tr = terminalreporter
        tr.section(f"copy-semantics conformance on torch {torch.__version__}")
        per_op = self.summary_rows()
        width = max(len(op) for op in per_op)
        tr.write_line(f"{'op':<{width}}  held  failed  skipped  notes")
        for op in sorted(per_op):
            row = per_op[op]
            notes = []
            if row["failed_inv"]:
                notes.append("FAILED: " + ", ".join(sorted(row["failed_inv"])))
            if row["reasons"]:
                notes.append("skipped: " + "; ".join(sorted(row["reasons"])))
            tr.write_line(f"{op:<{width}}  {row['passed']:>4}  {row['failed']:>6}  {row['skipped']:>7}  "
                          + " | ".join(notes))
        total = {k: sum(r[k] for r in per_op.values()) for k in ("passed", "failed", "skipped")}
        tr.write_line(f"{'total':<{width}}  {total['passed']:>4}  {total['failed']:>6}  {total['skipped']:>7}")
        for c in self.casualties:
            tr.write_line(f"CASUALTY: {c['nodeid']}: the worker died while running it; the other tests went on")
        path = self.config.getoption("outcome_json")
        if path:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            with open(path, "w") as fh:
                json.dump(self.document(), fh, indent=1, sort_keys=True)
            tr.write_line(f"outcome JSON written to {path}")

    def document(self):
        from hypothesis import settings
        return {
            "schema": SCHEMA,
            "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "torch": torch.__version__, "numpy": np.__version__, "python": platform.python_version(),
            "platform": platform.platform(),
            "hypothesis_profile": settings.get_current_profile_name(),
            "devices": {d: device_skip_reason(d) or "available" for d in DEVICES},
            "dtypes_available": list(available_dtypes()), "dtypes_unavailable": list(unavailable_dtypes()),
            "session": self.session,
            "casualties": self.casualties,
            "results": sorted(self.results.values(), key=lambda r: (r["op"], r["invariant"], r["device"])),
        }

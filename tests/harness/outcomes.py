"""Record the outcome of every conformance test; print a per-op table; optionally write it all as JSON."""
from __future__ import annotations

import json
import platform
from collections import defaultdict
from datetime import datetime, timezone

import numpy as np
import pytest
import torch

from strategies.devices import DEVICES, device_skip_reason
from strategies.dtypes import available_dtypes, unavailable_dtypes


class OutcomeRecorder:
    def __init__(self, config):
        self.config = config
        self.results = {}  # nodeid -> record

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report):
        props = dict(report.user_properties)
        if "spec_entry" not in props:
            return
        rec = self.results.setdefault(report.nodeid, {
            "op": props["spec_entry"], "invariant": props["invariant"], "device": props["device"],
            "outcome": "passed", "detail": ""})
        if report.when == "call" or report.outcome != "passed":
            if report.skipped:
                reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
                rec.update(outcome="skipped", detail=reason.removeprefix("Skipped: "))
            elif report.failed:
                text = getattr(report.longrepr, "reprcrash", None)
                rec.update(outcome="failed", detail=(text.message if text else str(report.longrepr))[:2000])

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
        path = self.config.getoption("outcome_json")
        if path:
            import os
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            with open(path, "w") as fh:
                json.dump(self.document(), fh, indent=1, sort_keys=True)
            tr.write_line(f"outcome JSON written to {path}")

    def document(self):
        from hypothesis import settings
        return {
            "schema": "copy-semantics-outcome/1",
            "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "torch": torch.__version__, "numpy": np.__version__, "python": platform.python_version(),
            "platform": platform.platform(),
            "hypothesis_profile": settings.get_current_profile_name(),
            "devices": {d: device_skip_reason(d) or "available" for d in DEVICES},
            "dtypes_available": list(available_dtypes()), "dtypes_unavailable": list(unavailable_dtypes()),
            "results": sorted(self.results.values(), key=lambda r: (r["op"], r["invariant"], r["device"])),
        }

"""The fault campaign: one conformance session per fault of the catalog (narrowed to its spec entries), plus a control
session with no fault, run by tests.faults.driver; then the verdicts, read from each session's outcome JSON.

A failing cell counts as a catch only when its failure is a `mismatch` (the check observed a wrong value); a call
that raised where no error is expected, or a check that could not observe, is shown as "(crashed)".
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import types
from dataclasses import dataclass, field
from importlib.util import find_spec
from pathlib import Path

import pytest

from tests.faults.catalog import CATALOG
from tests.faults.plugin import DEFAULT_EXAMPLES, PROFILE, ROOT

WORKERS = 2
RUN_TIMEOUT = 600  # seconds, for the whole campaign
CONTROL = "(no fault)"
# Which faults the campaign runs (selected()): "sample", the test command's, keeps it near a minute; "default" every
# fault that is not opt-in (python -m tests.faults report); "all" the opt-in ones too (.ci/run's step).
FAULT_SETS = ("sample", "default", "all")
FAULT_SET = os.environ.get("COPYSUITE_FAULT_SET", "sample")
if FAULT_SET not in FAULT_SETS:
    raise ValueError(f"COPYSUITE_FAULT_SET={FAULT_SET!r}: choose one of {', '.join(FAULT_SETS)}")
TABLE_KEY = pytest.StashKey[str]()  # where the self-test leaves the table for the terminal summary


@dataclass
class Session:
    name: str                                    # the fault, or CONTROL
    entries: tuple
    examples: int
    executions: tuple = ()                       # --execution (none: the entries' default executions)
    returncode: int = -1
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    cells: list = field(default_factory=list)    # the outcome JSON's "cells"
    contacts: dict | None = None                 # harness calls of patched attributes: {"path:function": count};
                                                 # None when the session wrote no audit
    log: str = ""                                # the tail of the session's output, for diagnosis

    def outcome(self, entry, check):
        """The outcomes (`cells` objects) of the (entry, check) cells on the CPU (one per execution the session ran)."""
        return [c for c in self.cells if (c["entry"], c["check"], c["device"]) == (entry, check, "cpu")]

    def failures(self):
        return [c for c in self.cells if c["outcome"] == "failed"]


def caught(cell) -> bool:
    return cell["outcome"] == "failed" and cell["failure"]["kind"] == "mismatch"


@dataclass
class Campaign:
    sessions: dict
    wall: float         # seconds, the whole campaign
    cpu: float          # user + system seconds of the driver and every session
    text: str = ""      # the table


def pytest_args():
    """The conformance session every run is: the suite's own pytest.ini applies, plus the fault plugin."""
    # --device=cpu: every expected catch is a CPU cell (test_catalog_is_well_formed); the conformance run judges meta
    args = ["tests/test_conformance.py", "-p", "tests.faults.plugin", "--hypothesis-profile",
            os.environ.get("COPYSUITE_FAULT_PROFILE", PROFILE), "-q", "--tb=line", "-p", "no:randomly",
            "--device=cpu"]
    if find_spec("xdist") is not None:
        args += ["-p", "no:xdist"]
    return args


def topic(fault) -> str:
    """The module of tests/faults/topics/ that registers `fault`."""
    return fault.patch.__module__.rsplit(".", 1)[-1]


def selected(fault_set=None):
    """The faults the campaign runs (FAULT_SET unless `fault_set` is given): "all" every one; "default" every one
    that is not opt-in; "sample" the first that is not opt-in of each topic module, so that every spec file's
    faults keep a representative in the test command."""
    fault_set = fault_set or FAULT_SET
    faults = [f for f in CATALOG if not f.opt_in or fault_set == "all"]
    if fault_set == "sample":
        firsts = {}
        for f in faults:
            firsts.setdefault(topic(f), f)
        faults = [f for f in faults if firsts[topic(f)] is f]
    return faults


def planned():
    """(fault name or None for a control, entries, examples, executions) of every session: one per fault, and one
    control per (example count, executions) over the union of those faults' entries."""
    runs = [(f.name, f.entries, f.examples or DEFAULT_EXAMPLES, f.executions) for f in selected()
            if f.skip_reason() is None]
    for how in sorted({(e, x) for _, _, e, x in runs}):
        union = sorted({entry for _, entries, e, x in runs if (e, x) == how for entry in entries})
        runs.append((None, union, *how))
    return sorted(runs, key=lambda r: -len(r[1]))  # the biggest sessions first


def run(todo, workdir) -> tuple:
    """Every (name, entries, examples, executions) of `todo` as one session, WORKERS at a time. Returns
    ({key: Session}, the driver's own CPU seconds)."""
    workdir = Path(workdir)
    sessions, runs = {}, []
    for name, entries, examples, executions in todo:
        key = name or f"{CONTROL}#{examples}" + "".join(f"+{x}" for x in executions)
        sessions[key] = Session(name=name or CONTROL, entries=tuple(sorted(entries)), examples=examples,
                                executions=tuple(executions))
        slug = re.sub(r"\W", "_", key)
        args = [f"--spec-entry={e}" for e in sessions[key].entries] + [f"--execution={x}" for x in executions] + [
            f"--fault-examples={examples}", f"--outcome-json={workdir / f'{slug}.json'}"]
        if name:
            args += [f"--fault={name}", f"--fault-audit={workdir / f'{slug}.audit.json'}"]
        runs.append({"key": key, "args": args, "log": str(workdir / f"{slug}.log"), "slug": slug})
    plan_path = workdir / "plan.json"
    plan_path.write_text(json.dumps({"workers": WORKERS, "args": pytest_args(), "runs": runs}))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
    proc = subprocess.run([sys.executable, "-m", "tests.faults.driver", str(plan_path)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=RUN_TIMEOUT, check=False)
    assert proc.returncode == 0, f"the fault campaign driver failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}"
    status = json.loads(proc.stdout.strip().splitlines()[-1])
    for r in runs:
        s = sessions[r["key"]]
        s.returncode, s.seconds, s.cpu_seconds = (status[r["key"]][k] for k in ("returncode", "seconds",
                                                                                "cpu_seconds"))
        log, outcome, audit = Path(r["log"]), workdir / f"{r['slug']}.json", workdir / f"{r['slug']}.audit.json"
        s.log = log.read_text()[-3000:] if log.exists() else ""
        s.cells = json.loads(outcome.read_text())["cells"] if outcome.exists() else []
        s.contacts = json.loads(audit.read_text())["contacts"] if audit.exists() else None
    return sessions, status["(driver)"]["cpu_seconds"]


def campaign(workdir) -> Campaign:
    """Every planned session, run, with the table of verdicts."""
    start = time.monotonic()
    sessions, driver_cpu = run(planned(), workdir)
    c = Campaign(sessions=sessions, wall=time.monotonic() - start,
                 cpu=driver_cpu + sum(s.cpu_seconds for s in sessions.values()))
    c.text = table(c)
    return c


def control_for(sessions, fault):
    how = (fault.examples or DEFAULT_EXAMPLES, fault.executions)
    return next(s for s in sessions.values() if s.name == CONTROL and (s.examples, s.executions) == how)


def verdict(sessions, fault):
    """('caught' | 'MISSED', [expected (entry, check) pairs not caught], the failing cells as text)."""
    session = sessions[fault.name]
    missing = [(entry, check) for entry, check in fault.expected
               if not any((c["entry"], c["check"]) == (entry, check) and caught(c) for c in session.failures())]
    by = []
    for c in sorted(session.failures(), key=lambda c: c["id"]):
        star = "*" if (c["entry"], c["check"]) in fault.expected else ""
        by.append(f"{star}{c['id']}" + ("" if caught(c) else " (crashed)"))
    return ("MISSED" if missing or not session.cells else "caught"), missing, by


def _patches(fault) -> str:
    def name(owner):
        return owner.__name__ if isinstance(owner, types.ModuleType) else f"{owner.__module__}.{owner.__qualname__}"
    return ", ".join(f"`{name(owner)}.{attr}`" for owner, attr in fault.targets())


def table(c: Campaign) -> str:
    """The catalog with its verdicts, as docs/reports/faults.md shows it."""
    lines = [
        f"Fault injection, COPYSUITE_FAULT_SET={FAULT_SET}: {len(selected())} of the catalog's {len(CATALOG)} faults "
        f"({', '.join(f'{k} {len(selected(k))}' for k in FAULT_SETS)}), "
        f"{len(c.sessions)} conformance sessions ({WORKERS} at a time): "
        f"{c.wall:.0f} s wall, {c.cpu:.0f} s CPU ({c.cpu / WORKERS:.0f} s on {WORKERS} idle cores). "
        "`*` marks an expected catch; each is a cell ENTRY-CHECK-DEVICE-EXECUTION of the conformance run.",
        "",
        "| # | fault | what the patch does | patches | expected catch (entry / check) | verdict | caught by "
        "| session |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for i, f in enumerate(selected(), 1):
        if f.name not in c.sessions:
            lines.append(f"| {i} | {f.name} | {f.description} | {_patches(f)} | - | not run: {f.skip_reason()} "
                         "| - | - |")
            continue
        v, missing, by = verdict(c.sessions, f)
        note = f" (missing: {', '.join(f'{e}/{k}' for e, k in missing)})" if missing else ""
        s = c.sessions[f.name]
        contact = f"; harness calls: {', '.join(sorted(s.contacts))}" if s.contacts else ""
        expected = "<br>".join(f"`{e}` / {k}" for e, k in f.expected)
        lines.append(f"| {i} | {f.name} | {f.description} | {_patches(f)} | {expected} | {v}{note} | "
                     f"{', '.join(by) or '-'}{contact} | {s.seconds:.1f} s, {s.examples} ex. |")
    for s in c.sessions.values():
        if s.name == CONTROL:
            failed = [cell["id"] for cell in s.failures()]
            runs = f", {', '.join(s.executions)}" if s.executions else ""
            lines.append(f"| - | {CONTROL}: control, {len(s.entries)} entries{runs} | - | - | every cell holds | "
                         f"{'clean' if s.cells and not failed else 'FAILED'} | {', '.join(failed) or '-'} | "
                         f"{s.seconds:.1f} s, {s.examples} ex. |")
    return "\n".join(lines) + "\n"

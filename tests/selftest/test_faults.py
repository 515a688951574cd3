"""Fault injection: the conformance suite must fail under every fault of tests/selftest/faults.py, on the invariant
one would expect, and pass without it.

Each fault runs the conformance tests of its spec entries in a session of its own (a process forked by the driver
`python -m copysuite.faults.plugin`, two at a time), with the fault applied by tests/selftest/fault_plugin.py;
a control session covers the union of those entries with no fault. The verdicts go to results/faults.md, to the
terminal summary (tests/selftest/conftest.py) and into every failure message. See docs/faults.md.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from importlib.util import find_spec
from pathlib import Path

import pytest

from copysuite.invariants import REGISTRY
from copysuite.specs import load_all
from copysuite.faults import catalog as faults, plugin as fault_plugin

ROOT = Path(__file__).resolve().parents[2]
TABLE_PATH = ROOT / "results" / "faults.md"
WORKERS = 2
RUN_TIMEOUT = 600  # seconds, for the whole campaign
CONTROL = "(no fault)"
DEFAULT_EXAMPLES = 10
# The campaign runs in the setup of the first test that needs it, well past pytest.ini's per-test timeout.
pytestmark = pytest.mark.timeout(900)
FIRST_LINE = re.compile(r"^(?:\w+: )?(?P<op>.+) / (?P<invariant>\w+): expected (?P<expected>.*), observed (?P<observed>.*)$")


@dataclass
class Run:
    name: str
    ops: tuple
    examples: int
    returncode: int = -1
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    results: list = field(default_factory=list)  # the outcome JSON's "results"
    contacts: dict = field(default_factory=dict)  # harness calls of patched attributes: {"path:function": count}
    log: str = ""                                # the tail of the session's output, for diagnosis

    def outcome(self, op, invariant):
        """(outcome, detail) of the (op, invariant) test on the CPU."""
        for r in self.results:
            if r["op"] == op and r["invariant"] == invariant and r["device"] == "cpu":
                return r["outcome"], r["detail"]
        return "not run", ""

    def failures(self):
        return [r for r in self.results if r["outcome"] == "failed"]


def failure_kind(record) -> str:
    """'caught': the invariant observed a wrong value; 'crashed': the call raised where no error is expected, or the
    observation itself failed (a failure, but not the invariant doing its job)."""
    detail = record["detail"]
    m = FIRST_LINE.match(detail.splitlines()[0] if detail else "")
    if not m or m["op"] != record["op"] or m["invariant"] != record["invariant"]:
        return "crashed"
    if "\n  detail:   the call raised" in detail or m["observed"] == "'<observation failed>'":
        return "crashed"
    return "caught"


def pytest_args():
    """The conformance session every run is: the suite's own pytest.ini applies, plus the fault plugin."""
    args = ["tests/test_conformance.py", "-p", "copysuite.faults.plugin", "--hypothesis-profile",
            os.environ.get("COPYSUITE_FAULT_PROFILE", fault_plugin.PROFILE), "-q", "--tb=line", "-p", "no:randomly"]
    if find_spec("xdist") is not None:
        args += ["-p", "no:xdist"]
    return args


def run_campaign(todo, workdir) -> tuple:
    """Every (name, ops, examples) of `todo` as one conformance session (name None: no fault), WORKERS at a time,
    in processes forked by `python -m copysuite.faults.plugin` (see there). Returns ({key: Run}, the driver's
    own CPU seconds)."""
    workdir = Path(workdir)
    runs, spec = {}, []
    for name, ops, examples in todo:
        key = name or f"{CONTROL}#{examples}"
        runs[key] = Run(name=name or CONTROL, ops=tuple(sorted(ops)), examples=examples)
        slug = re.sub(r"\W", "_", key)
        spec.append({"key": key, "fault": name or "", "ops": list(runs[key].ops), "examples": examples,
                     "json": str(workdir / f"{slug}.json"), "log": str(workdir / f"{slug}.log"),
                     "audit": str(workdir / f"{slug}.audit.json") if name else ""})
    plan_path = workdir / "plan.json"
    plan_path.write_text(json.dumps({"workers": WORKERS, "args": pytest_args(), "runs": spec}))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
    proc = subprocess.run([sys.executable, "-m", "copysuite.faults.plugin", str(plan_path)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=RUN_TIMEOUT, check=False)
    assert proc.returncode == 0, f"the fault campaign driver failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}"
    status = json.loads(proc.stdout.strip().splitlines()[-1])
    for s in spec:
        run = runs[s["key"]]
        run.returncode, run.seconds, run.cpu_seconds = (status[s["key"]][k]
                                                        for k in ("returncode", "seconds", "cpu_seconds"))
        log = Path(s["log"])
        run.log = log.read_text()[-3000:] if log.exists() else ""
        if Path(s["json"]).exists():
            run.results = json.loads(Path(s["json"]).read_text())["results"]
        if s["audit"] and Path(s["audit"]).exists():
            run.contacts = json.loads(Path(s["audit"]).read_text())["contacts"]
    return runs, status["(driver)"]["cpu_seconds"]


def plan():
    """(name, ops, examples) of every run: one per fault, and one control run per example count."""
    runs = [(f.name, f.ops, f.examples or DEFAULT_EXAMPLES) for f in faults.CATALOG]
    for examples in sorted({e for _, _, e in runs}):
        union = sorted({op for _, ops, e in runs if e == examples for op in ops})
        runs.append((None, union, examples))
    return runs


def control_for(runs, fault):
    examples = fault.examples or DEFAULT_EXAMPLES
    return next(r for r in runs.values() if r.name == CONTROL and r.examples == examples)


def verdict(runs, fault):
    """('caught' | 'MISSED', [expected pairs not caught], failing tests as text)."""
    run = runs[fault.name]
    missing = [(op, inv) for op, inv in fault.expected
               if not any(r["op"] == op and r["invariant"] == inv and failure_kind(r) == "caught"
                          for r in run.failures())]
    by = []
    for r in sorted(run.failures(), key=lambda r: (r["op"], r["invariant"], r["device"])):
        mark = "" if failure_kind(r) == "caught" else " (crashed)"
        star = "*" if (r["op"], r["invariant"]) in fault.expected else ""
        by.append(f"{star}{r['op']}-{r['invariant']}-{r['device']}{mark}")
    return ("MISSED" if missing or not run.results else "caught"), missing, by


@dataclass
class Campaign:
    runs: dict
    wall: float         # seconds, the whole campaign
    cpu: float          # user + system seconds of the driver and every session
    text: str = ""


def table(c: Campaign) -> str:
    lines = [
        f"Fault injection: {len(faults.CATALOG)} faults, {len(c.runs)} conformance sessions ({WORKERS} at a time): "
        f"{c.wall:.0f} s wall, {c.cpu:.0f} s CPU ({c.cpu / WORKERS:.0f} s on {WORKERS} idle cores). "
        + "`*` marks an expected catch; each is test_invariant[op-invariant-device] of tests/test_conformance.py.",
        "",
        "| fault | verdict | caught by | session |",
        "|---|---|---|---|",
    ]
    for f in faults.CATALOG:
        v, missing, by = verdict(c.runs, f)
        note = f" (missing: {', '.join(f'{o}/{i}' for o, i in missing)})" if missing else ""
        run = c.runs[f.name]
        contact = f"; harness calls: {', '.join(sorted(run.contacts))}" if run.contacts else ""
        lines.append(f"| {f.name} | {v}{note} | {', '.join(by) or '-'}{contact} | {run.seconds:.1f} s, "
                     f"{run.examples} ex. |")
    for run in c.runs.values():
        if run.name == CONTROL:
            failed = [f"{r['op']}-{r['invariant']}-{r['device']}" for r in run.failures()]
            lines.append(f"| {CONTROL}, {len(run.ops)} entries | {'clean' if run.results and not failed else 'FAILED'}"
                         f" | {', '.join(failed) or '-'} | {run.seconds:.1f} s, {run.examples} ex. |")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def campaign(request, tmp_path_factory):
    todo = sorted(plan(), key=lambda p: -len(p[1]))  # the biggest sessions first
    start = time.monotonic()
    runs, driver_cpu = run_campaign(todo, tmp_path_factory.mktemp("faults"))
    c = Campaign(runs=runs, wall=time.monotonic() - start, cpu=driver_cpu + sum(r.cpu_seconds for r in runs.values()))
    c.text = table(c)
    TABLE_PATH.parent.mkdir(parents=True, exist_ok=True)
    TABLE_PATH.write_text(c.text)
    request.config.stash[fault_plugin.TABLE_KEY] = c.text
    return c


def test_catalog_is_well_formed():
    entries = {e.id: e for e in load_all(REGISTRY)}
    names = [f.name for f in faults.CATALOG]
    assert len(names) >= 20 and len(set(names)) == len(names)
    for f in faults.CATALOG:
        assert f.description and f.expected and f.targets(), f.name
        for op in f.ops:
            assert op in entries, f"{f.name}: no spec entry {op!r}"
        for op, inv in f.expected:
            assert op in f.ops, f"{f.name}: expects a catch on {op!r}, which its session does not select"
            assert inv in entries[op].expect, f"{f.name}: spec entry {op!r} states no {inv!r}"
            assert "cpu" in entries[op].applies["devices"], f"{f.name}: {op!r} does not run on the CPU"


@pytest.mark.parametrize("name", [f.name for f in faults.CATALOG])
def test_fault_is_reversible(name):
    fault = faults.by_name(name)
    before = [vars(owner).get(attr, "<missing>") for owner, attr in fault.targets()]
    with fault.applied():
        during = [vars(owner).get(attr, "<missing>") for owner, attr in fault.targets()]
    after = [vars(owner).get(attr, "<missing>") for owner, attr in fault.targets()]
    assert all(d is not b for d, b in zip(during, before)) and all(a is b for a, b in zip(after, before))


def test_control_sessions_are_clean(campaign):
    for run in campaign.runs.values():
        if run.name != CONTROL:
            continue
        assert run.results, f"control session produced no outcome JSON (exit {run.returncode}):\n{run.log}"
        failed = [f"{r['op']}-{r['invariant']}-{r['device']}: {r['detail'][:300]}" for r in run.failures()]
        assert not failed, ("the conformance suite fails with no fault injected:\n" + "\n".join(failed) + "\n"
                            + campaign.text)


@pytest.mark.parametrize("name", [f.name for f in faults.CATALOG])
def test_fault_is_caught(campaign, name):
    fault = faults.by_name(name)
    run = campaign.runs[name]
    assert run.results, f"{name}: the session produced no outcome JSON (exit {run.returncode}):\n{run.log}"
    control = control_for(campaign.runs, fault)
    for op, inv in fault.expected:
        outcome, detail = control.outcome(op, inv)
        assert outcome == "passed", f"{name}: {op}-{inv}-cpu is {outcome!r} without the fault: {detail[:300]}"
    _, missing, by = verdict(campaign.runs, fault)
    assert not missing, (f"fault {name} ({fault.description}) is MISSED by "
                         f"{', '.join(f'{o}/{i}' for o, i in missing)}; failing tests: {', '.join(by) or 'none'}\n"
                         f"{campaign.text}")


@pytest.mark.parametrize("name", [f.name for f in faults.CATALOG])
def test_harness_does_not_call_the_patched_attributes(campaign, name):
    """The harness captures its instruments at import; a fault may reach it only where the catalog says why that
    is harmless (Fault.harness_contact)."""
    fault = faults.by_name(name)
    unexpected = sorted(set(campaign.runs[name].contacts) - set(fault.harness_contact))
    assert not unexpected, (f"{name}: the harness itself called what the fault patches, from {unexpected} "
                            f"(calls per site: {campaign.runs[name].contacts})")


def test_fault_campaign_runtime(campaign):
    """Budget: 120 s on this 2-core machine. Judged on CPU time (what an idle machine needs), since other jobs
    may share the cores; the wall time, which they inflate, only has to stay within a generous bound."""
    assert campaign.cpu / WORKERS <= 120, f"{campaign.cpu:.0f} s CPU over {WORKERS} cores\n{campaign.text}"
    assert campaign.wall <= 400, f"the fault self-test took {campaign.wall:.0f} s wall\n{campaign.text}"

"""pytest plugin: run the conformance suite with one fault of tests/selftest/faults.py injected into torch.

    COPYSUITE_FAULT=clone_shares_storage COPYSUITE_OPS='["clone"]' \\
        python -m pytest tests/test_conformance.py -p copysuite.faults.plugin --hypothesis-profile faults

COPYSUITE_FAULT  the fault's name (unset or empty: no fault, a control run)
COPYSUITE_OPS    a JSON list of spec entry ids: every other conformance test is deselected (exact ids, which `-k`
                 cannot express for ids such as `clone(preserve_format)` or `torch.asarray(copy=True)`)
COPYSUITE_FAULT_AUDIT  a path: every call of a patched attribute that does not come from the op under test
                 (Entry.apply in copysuite/specs.py) is recorded, as "path:function" of the nearest harness
                 frame (copysuite/, strategies/; else the immediate caller), and written there as JSON
COPYSUITE_FAULT_EXAMPLES  max_examples of the `faults` Hypothesis profile (default 10); `faults` is derandomized,
                 has no database and no shrink phase (so a test stops at its first failing example);
                 `faults-random` is the same with fresh examples every run

Ordering: `-p` imports this module before any conftest, so nothing here touches torch at import. The top-level
conftest.py imports the harness (copysuite/*, which captures every torch function it uses) while pytest loads
the initial conftests, before pytest_configure; the fault is applied in pytest_sessionstart, after every
pytest_configure, and this plugin imports the harness modules itself first, so their captures always predate it.
It is undone in pytest_unconfigure.
"""
from __future__ import annotations

import functools
import importlib
import json
import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings

FAULT_ENV = "COPYSUITE_FAULT"
OPS_ENV = "COPYSUITE_OPS"
EXAMPLES_ENV = "COPYSUITE_FAULT_EXAMPLES"
AUDIT_ENV = "COPYSUITE_FAULT_AUDIT"
# the modules that capture the torch functions the harness uses, at import
HARNESS_MODULES = ("strategies.cases", "copysuite.storage", "copysuite.invariants", "copysuite.runner")
ROOT = Path(__file__).resolve().parents[2]
_HARNESS = (str(ROOT / "copysuite") + os.sep, str(ROOT / "strategies") + os.sep)
_OP_UNDER_TEST = (str(ROOT / "copysuite" / "specs.py"), "apply")  # Entry.apply: the call being judged
PROFILE = "faults"
# the outer self-test puts its results table here, for tests/selftest/conftest.py's terminal summary
TABLE_KEY = pytest.StashKey[str]()

_state = {"fault": None, "undo": None, "contacts": {}}


def _caller_outside_op():
    """None when the op under test is on the stack; else "path:function" of the nearest harness frame (or of the
    immediate caller when no harness frame is on the stack)."""
    frame, nearest, first = sys._getframe(2), None, None
    while frame is not None:
        code = frame.f_code
        if (code.co_filename, code.co_name) == _OP_UNDER_TEST:
            return None
        if first is None:
            first = code
        if nearest is None and code.co_filename.startswith(_HARNESS):
            nearest = code
        frame = frame.f_back
    code = nearest or first
    path = Path(code.co_filename)
    return f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}:{code.co_name}"


def _audited(attr, value):
    """`value` (a function or a property), recording calls that do not come from the op under test."""
    contacts = _state["contacts"]

    def wrap(fn):
        @functools.wraps(fn)
        def audited(*args, **kwargs):
            where = _caller_outside_op()
            if where is not None:
                contacts[where] = contacts.get(where, 0) + 1
            return fn(*args, **kwargs)
        return audited
    if isinstance(value, property):
        return property(wrap(value.fget), value.fset, value.fdel, value.__doc__)
    return wrap(value) if callable(value) else value


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    """Register the profiles (before Hypothesis' own pytest_configure loads the one --hypothesis-profile names)."""
    common = {
        "max_examples": int(os.environ.get(EXAMPLES_ENV) or 10), "database": None, "deadline": None,
        "print_blob": False, "report_multiple_bugs": False, "phases": (Phase.explicit, Phase.reuse, Phase.generate),
        "suppress_health_check": [HealthCheck.too_slow, HealthCheck.differing_executors, HealthCheck.filter_too_much]}
    settings.register_profile(PROFILE, derandomize=True, **common)
    # the same with fresh random examples every run: for measuring how reliably a fault is caught (docs/faults.md)
    settings.register_profile(PROFILE + "-random", derandomize=False, **common)


def _requested_ops():
    raw = os.environ.get(OPS_ENV)
    if not raw:
        return None
    try:
        ops = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise pytest.UsageError(f"{OPS_ENV} is not JSON: {exc}") from None
    if not (isinstance(ops, list) and all(isinstance(o, str) for o in ops)):
        raise pytest.UsageError(f"{OPS_ENV} must be a JSON list of spec entry ids, got {raw!r}")
    return set(ops)


@pytest.hookimpl(trylast=True)
def pytest_sessionstart(session):
    name = os.environ.get(FAULT_ENV)
    if not name:
        return
    # The harness captures the torch functions it uses at import: import it (again: a no-op when the top-level
    # conftest already did) before patching anything.
    for module in HARNESS_MODULES:
        importlib.import_module(module)
    from copysuite.faults import catalog as faults

    try:
        fault = faults.by_name(name)
    except KeyError as exc:
        raise pytest.UsageError(str(exc.args[0])) from None
    _state["fault"] = fault
    _state["undo"] = fault.apply(wrap=_audited if os.environ.get(AUDIT_ENV) else None)


def pytest_unconfigure(config):
    undo, _state["undo"] = _state["undo"], None
    if undo is not None:
        undo()
        path = os.environ.get(AUDIT_ENV)
        if path:
            Path(path).write_text(json.dumps({"fault": _state["fault"].name, "contacts": _state["contacts"]}))


def pytest_report_header(config):
    name = os.environ.get(FAULT_ENV)
    return [f"fault injection: {name or 'none (control run)'}"]


def pytest_collection_modifyitems(config, items):
    ops = _requested_ops()
    if ops is None:
        return
    keep, drop, seen = [], [], set()
    for item in items:
        callspec = getattr(item, "callspec", None)
        entry = callspec.params.get("spec_entry") if callspec else None
        if entry is not None and entry.id in ops:
            keep.append(item)
            seen.add(entry.id)
        else:
            drop.append(item)
    unknown = ops - seen
    if unknown:
        raise pytest.UsageError(f"{OPS_ENV} names spec entries with no conformance test: {sorted(unknown)}")
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def pytest_terminal_summary(terminalreporter):
    fault = _state["fault"]
    if fault is not None:
        terminalreporter.write_line(f"fault injected: {fault.name}: {fault.description}")


# ---- the campaign driver -------------------------------------------------------------------------------------------
# `python -m copysuite.faults.plugin PLAN.json` runs many conformance sessions, each in its own process, a few at
# a time. It imports torch, numpy, Hypothesis, pytest and the harness once and forks one child per session, which
# calls pytest.main(): a session then starts in about a second instead of the five that importing torch and pytest
# take on a busy 2-core machine. Nothing in the driver runs a torch op (its only thread is the main thread), so the
# children may fork safely; a fault is applied inside a child only and dies with it.
#
# PLAN.json: {"workers": 2, "args": [pytest arguments common to every run],
#             "runs": [{"key": ..., "fault": name or "", "ops": [...], "examples": N, "json": path, "log": path,
#                       "audit": path (optional)}]}
# The driver prints {"key": {"returncode": int, "seconds": wall, "cpu_seconds": user + system}} as JSON on stdout
# (key "(driver)": the driver's own CPU time, imports included).

def _preload():
    from importlib.metadata import entry_points

    for module in ("numpy", "torch", *HARNESS_MODULES, "copysuite.outcomes", "copysuite.plan",
                   "copysuite.specs", "copysuite.faults.catalog"):
        importlib.import_module(module)
    for ep in entry_points(group="pytest11"):  # the installed pytest plugins, which each session would import
        try:
            ep.load()
        except Exception:  # noqa: BLE001, S110 - one that cannot load fails the same way in the session, reported there
            pass


def _child(run, args, root):
    fd = os.open(run["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.chdir(root)
    os.environ.update({FAULT_ENV: run["fault"] or "", OPS_ENV: json.dumps(run["ops"]),
                       EXAMPLES_ENV: str(run["examples"]), AUDIT_ENV: run.get("audit", "")})
    return int(pytest.main([*args, "--outcome-json", run["json"]]))


def drive(plan_path) -> dict:
    import resource
    import time
    import traceback
    plan = json.loads(Path(plan_path).read_text())
    root = str(ROOT)
    _preload()
    pending, running, done = list(plan["runs"]), {}, {}
    while pending or running:
        while pending and len(running) < plan.get("workers", 2):
            run = pending.pop(0)
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                code = 3
                try:
                    code = _child(run, plan["args"], root)
                except BaseException:  # noqa: BLE001 - reported in the session's log, exit status 3
                    traceback.print_exc()
                finally:
                    sys.stdout.flush()
                    sys.stderr.flush()
                    os._exit(code)
            running[pid] = (run, time.monotonic())
        pid, status, usage = os.wait4(-1, 0)
        run, start = running.pop(pid)
        done[run["key"]] = {"returncode": os.waitstatus_to_exitcode(status), "seconds": time.monotonic() - start,
                            "cpu_seconds": usage.ru_utime + usage.ru_stime}
    own = resource.getrusage(resource.RUSAGE_SELF)
    done["(driver)"] = {"returncode": 0, "seconds": 0.0, "cpu_seconds": own.ru_utime + own.ru_stime}
    return done


if __name__ == "__main__":
    print(json.dumps(drive(sys.argv[1])))

"""pytest plugin: the conformance session with one fault of the catalog injected into torch.

    python -m pytest tests/test_conformance.py -p tests.faults.plugin --fault clone_shares_storage \\
        --spec-entry clone --hypothesis-profile faults --outcome-json /tmp/fault.json

--fault NAME          the fault (absent: no fault, a control session)
--fault-audit PATH    record every call of a patched attribute that does not come from the spec's own code (its
                      inputs and its program, compiled under the file name "<spec FILE: ENTRY>"), as
                      "path:function" of the nearest harness frame (copysuite/, strategies/; else the immediate
                      caller), and write them there as JSON
--fault-examples N    max_examples of the `faults` Hypothesis profile (default 10): derandomized, no example
                      database, no shrink phase (a test stops at its first failing example); `faults-random` is the
                      same with fresh examples every run

The fault is applied in pytest_sessionstart (trylast), after every pytest_configure: by then the harness modules,
which capture every torch function they use at import, are imported (this plugin imports them itself first), so
their instruments always predate the patch. It is undone in pytest_unconfigure.
"""
from __future__ import annotations

import functools
import importlib
import json
import os
import sys
from contextlib import ExitStack
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings

from copysuite.spec.load import SPEC_CODE

# the modules that capture the torch functions the harness uses, at import
HARNESS_MODULES = ("copysuite.strategies.cases", "copysuite.run.storage", "copysuite.run.probes",
                   "copysuite.judge.checks", "copysuite.run.execute")
ROOT = Path(__file__).resolve().parents[2]
_HARNESS = (str(ROOT / "copysuite") + os.sep, str(ROOT / "strategies") + os.sep)
PROFILE = "faults"
DEFAULT_EXAMPLES = 10

_state = {"fault": None, "stack": None, "contacts": {}}


def pytest_addoption(parser):
    group = parser.getgroup("copysuite-faults", "fault injection")
    group.addoption("--fault", default=None, metavar="NAME", help="inject this fault of tests.faults.catalog")
    group.addoption("--fault-audit", default=None, metavar="PATH",
                    help="write the harness's own calls of the patched attributes here (JSON)")
    group.addoption("--fault-examples", type=int, default=DEFAULT_EXAMPLES, metavar="N",
                    help=f"examples per test of the 'faults' Hypothesis profile (default {DEFAULT_EXAMPLES})")


def _caller_outside_program():
    """None when the spec's own code (inputs, program) is on the stack; else "path:function" of the nearest
    harness frame (or of the immediate caller when no harness frame is on the stack)."""
    frame, nearest, first = sys._getframe(2), None, None
    while frame is not None:
        code = frame.f_code
        if code.co_filename.startswith(SPEC_CODE):
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
    """`value` (a function or a property), recording calls that do not come from the program under test."""
    contacts = _state["contacts"]

    def wrap(fn):
        @functools.wraps(fn)
        def audited(*args, **kwargs):
            where = _caller_outside_program()
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
        "max_examples": config.getoption("fault_examples"), "database": None, "deadline": None,
        "print_blob": False, "report_multiple_bugs": False, "phases": (Phase.explicit, Phase.reuse, Phase.generate),
        "suppress_health_check": [HealthCheck.too_slow, HealthCheck.differing_executors, HealthCheck.filter_too_much]}
    settings.register_profile(PROFILE, derandomize=True, **common)
    # the same with fresh random examples every run: for measuring how reliably a fault is caught
    # (docs/reports/faults.md)
    settings.register_profile(PROFILE + "-random", derandomize=False, **common)


@pytest.hookimpl(trylast=True)
def pytest_sessionstart(session):
    name = session.config.getoption("fault")
    if not name:
        return
    for module in HARNESS_MODULES:  # capture the harness's instruments first (a no-op when already imported)
        importlib.import_module(module)
    from tests.faults.catalog import by_name

    try:
        fault = by_name(name)
    except KeyError as exc:
        raise pytest.UsageError(str(exc.args[0])) from None
    stack = ExitStack()
    stack.enter_context(fault.applied(wrap=_audited if session.config.getoption("fault_audit") else None))
    _state.update(fault=fault, stack=stack)


def pytest_unconfigure(config):
    stack, _state["stack"] = _state["stack"], None
    if stack is not None:
        stack.close()
        path = config.getoption("fault_audit")
        if path:
            Path(path).write_text(json.dumps({"fault": _state["fault"].name, "contacts": _state["contacts"]}))


def pytest_report_header(config):
    return [f"fault injection: {config.getoption('fault') or 'none (control run)'}"]


def pytest_terminal_summary(terminalreporter):
    fault = _state["fault"]
    if fault is not None:
        terminalreporter.write_line(f"fault injected: {fault.name}: {fault.description}")

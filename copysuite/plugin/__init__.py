"""The suite's pytest plugin, loaded by the checkout's conftest.py and by `python -m copysuite run`: its options
(options.py) and Hypothesis profiles (profiles.py); at configure time the specs are loaded (a bad spec stops
collection) and planned into cells, one test parameter each (conformance.py holds the test); the outcome recorder
(copysuite.outcome) reports them. The speed plumbing is a plugin of its own (copysuite.speed.hooks), off with
`-p no:copysuite.speed.hooks`.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from copysuite.judge import failures
from copysuite.judge.checks import REGISTRY
from copysuite.outcome.recorder import OutcomeRecorder
from copysuite.plan import bind
from copysuite.plan.cells import Cell, SelectionError, plan_cells
from copysuite.plugin import crashes, profiles
from copysuite.plugin.options import chosen_executions, pytest_addoption  # noqa: F401 - a hook
from copysuite.spec.load import SPEC_DIR, SpecError, load_specs
from copysuite.strategies.devices import device_skip_reason
from copysuite.surface.cells import CHECK as SURFACE_CHECK
from copysuite.surface.cells import PREFIX as SURFACE_PREFIX
from copysuite.surface.cells import SurfaceCell

pytest_plugins = ["copysuite.speed.hooks"]
profiles.register()

CELLS = []   # the cells of this session that can run here, planned in pytest_configure
SURFACE_CELLS = []   # the operator surface's cells of this session (copysuite.surface.cells)


def pytest_configure(config):
    # COPYSUITE_REQUIRE=cuda (e.g. on a GPU runner): a missing device is an error, not a run of skips
    for device in filter(None, os.environ.get("COPYSUITE_REQUIRE", "").split(",")):
        reason = device_skip_reason(device.strip())
        if reason:
            raise pytest.UsageError(f"COPYSUITE_REQUIRE={os.environ['COPYSUITE_REQUIRE']}: {reason}")
    spec_dir = Path(config.getoption("spec_dir") or SPEC_DIR)
    entry_ids = config.getoption("spec_entries")
    spec_ids = [e for e in entry_ids if not e.startswith(SURFACE_PREFIX)]
    SURFACE_CELLS[:] = surface_cells(config, entry_ids)
    try:
        spec_set = load_specs(spec_dir, REGISTRY)
        for entry in spec_set.entries:
            bind.check_names(entry)
        only_surface = (entry_ids and not spec_ids) or config.getoption("checks") == [SURFACE_CHECK]
        planned = [] if only_surface else plan_cells(
            spec_set.entries, REGISTRY, entry_ids=spec_ids, check_names=config.getoption("checks"),
            devices=config.getoption("devices"), executions=chosen_executions(config))
    except SpecError as exc:
        raise pytest.UsageError(f"spec error: {exc}") from None
    except SelectionError as exc:
        raise pytest.UsageError(f"--spec-entry/--check/--device/--execution: {exc}") from None
    # Cells that cannot run here are not collected (thousands of skipped tests on a machine without CUDA cost seconds
    # and hide the rest); the outcome JSON records them as skipped, with the reason, and the summary counts them.
    # If none can run, they are collected, so that the session shows each reason. (Whether dynamo runs on this Python
    # is asked by each compiled cell's test, so that a process that compiles nothing, such as xdist's controller,
    # does not import it.)
    reasons = [(cell, cell.skip_reason(ask_dynamo=False)) for cell in planned]
    CELLS[:] = in_run_order([cell for cell, why in reasons if why is None] or planned)
    not_run = [(cell, why) for cell, why in reasons if why is not None] if len(CELLS) < len(planned) else []
    if not hasattr(config, "workerinput"):  # under xdist only the controller records (workers report to it)
        recorder = OutcomeRecorder(config, spec_set, spec_dir)
        recorder.not_run(not_run, {cell.entry.id for cell in CELLS})
        config.pluginmanager.register(recorder, "copy-semantics-outcomes")
        if config.pluginmanager.hasplugin("xdist"):
            config.pluginmanager.register(crashes, "copy-semantics-crashes")
    # Under pytest-xdist a crashed worker (or one killed by pytest-timeout) is replaced and the run goes on; xdist's
    # default allows 4 restarts per worker, counted over all workers, which would drop every test after a
    # systematically crashing op.
    if getattr(config.option, "maxworkerrestart", "") is None:
        config.option.maxworkerrestart = "1000"


def in_run_order(cells) -> list:
    """The cells in the order xdist hands them out: compiled ones first (each of their groups costs about twenty times
    an eager one's, so the heavy ones are spread early instead of ending the run on one worker), and the cells of
    one entry and device next to each other (copysuite.speed.scheduling never splits such a run of tests between
    workers; planned check by check, an entry's cpu and meta cells alternate, and a chunk of tests ending between
    them sent the rest of the entry to the other worker, which ran its group runs again). Otherwise the planned
    order (a stable sort)."""
    def run_of(cell):
        return cell.execution == "eager", cell.entry.id, cell.device

    first_seen = {}
    for cell in cells:
        first_seen.setdefault(run_of(cell), len(first_seen))
    return sorted(cells, key=lambda c: (c.execution == "eager", first_seen[run_of(c)]))


def surface_cells(config, entry_ids) -> list:
    """The operator surface's cells the options select: none when --spec-entry names only spec entries or --check
    names no `contract`; those of the devices --device names (the binding cells run on the CPU and the meta
    device, the others on the CPU)."""
    from copysuite.surface import binding_cells
    from copysuite.surface.cells import plan

    wanted = [e for e in entry_ids if e.startswith(SURFACE_PREFIX)]
    devices, checks = config.getoption("devices"), config.getoption("checks")
    if (entry_ids and not wanted) or (checks and SURFACE_CHECK not in checks):
        return []
    scope, executions = config.getoption("surface"), chosen_executions(config) or ("eager",)
    cells = plan(scope, executions, wanted) + binding_cells.plan(scope, executions, wanted)
    return [c for c in cells if not devices or c.id.device in devices]


def pytest_generate_tests(metafunc):
    if "cell" in metafunc.fixturenames:
        metafunc.parametrize("cell", CELLS, ids=[str(c.id) for c in CELLS])
    if "surface_cell" in metafunc.fixturenames:
        metafunc.parametrize("surface_cell", SURFACE_CELLS, ids=[str(c.id) for c in SURFACE_CELLS])


def pytest_collection_modifyitems(items):
    # the conformance test whose kind of cell this session has none of (spec or surface) is pytest's placeholder for
    # an empty parameter set, no test of the user's: dropped, neither skipped nor reported as deselected
    empty = []
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        cell = params.get("cell") or params.get("surface_cell")
        if isinstance(cell, (Cell, SurfaceCell)):
            item.user_properties.append(("cell", cell.id.as_dict()))
        elif {"cell", "surface_cell"} & set(getattr(item, "fixturenames", ())):
            empty.append(item)
    if empty:
        items[:] = [item for item in items if item not in empty]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if call.excinfo is not None and any(k == "cell" for k, _ in item.user_properties):
        found = failures.find(call.excinfo.value)
        if found is not None:
            report.user_properties.append(("failure", {**found.as_dict(), "message": found.message()}))
    return report

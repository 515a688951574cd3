"""The suite's pytest plugin: Hypothesis profiles, options, spec loading (a bad spec stops collection), one test
parameter per cell, and the outcome recorder. Loaded by the checkout's conftest.py and by `python -m copysuite run`.
"""
from __future__ import annotations

import gc
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from copysuite import bind, failures, specs
from copysuite.checks import REGISTRY
from copysuite.outcomes import OutcomeRecorder
from copysuite.plan import Cell, SelectionError, plan_cells
from copysuite.quick_exit import pytest_unconfigure  # noqa: F401 - a hook: xdist workers skip the interpreter teardown
from copysuite.specs import SPEC_DIR, SpecError, load_specs
from copysuite.surface.cells import CHECK as SURFACE_CHECK
from copysuite.surface.cells import PREFIX as SURFACE_PREFIX
from copysuite.surface.cells import SurfaceCell
from copysuite.watchdog import pytest_timeout_set_timer  # noqa: F401 - a hook: one timer thread per process
from strategies.devices import device_skip_reason
from strategies.space import EXECUTIONS

# dev: the default, fast. ci: reproducible (derandomized, no example database). deep: 150 examples, for reviewing
# spec changes. thorough: >= 1000 examples each.
_common = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.differing_executors])
settings.register_profile("dev", max_examples=8, **_common)
settings.register_profile("ci", max_examples=25, derandomize=True, database=None, print_blob=True, **_common)
settings.register_profile("deep", max_examples=150, **_common)  # between ci and thorough, for spec reviews
settings.register_profile("thorough", max_examples=1000, **_common)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))  # --hypothesis-profile overrides this

CELLS = []   # the cells of this session that can run here, planned in pytest_configure
SURFACE_CELLS = []   # the operator surface's cells of this session (copysuite.surface.cells)
VALIDATED_SPECS = "copysuite_validated_specs"   # workerinput: the digests of the spec texts the controller validated


def chosen_executions(config) -> tuple:
    """The executions asked for (`all`: every one); none asked: each entry's default (copysuite.plan)."""
    given = config.getoption("executions")
    return EXECUTIONS if "all" in given else tuple(given)


def pytest_addoption(parser):
    group = parser.getgroup("copysuite", "copy-semantics conformance")
    group.addoption("--outcome-json", dest="outcome_json", default=None, metavar="PATH",
                    help="write every cell's outcome (entry x check x device), with versions, as JSON to PATH")
    group.addoption("--specs", dest="spec_dir", default=None, metavar="DIR",
                    help=f"the spec directory (default: {SPEC_DIR})")
    group.addoption("--spec-entry", dest="spec_entries", action="append", default=[], metavar="ID",
                    help="run only this spec entry (exact id; repeat for several)")
    group.addoption("--invariant", dest="invariants", action="append", default=[], metavar="NAME",
                    help="run only this check (a name such as shares_storage, or a key such as shares_storage[b]; "
                         "repeat for several)")
    group.addoption("--device", dest="devices", action="append", default=[], metavar="DEVICE",
                    help="run only on this device (repeat for several)")
    group.addoption("--execution", dest="executions", action="append", default=[], metavar="NAME",
                    help=f"check every entry run this way: {', '.join(EXECUTIONS)}, or `all` (repeat for "
                         f"several). Default: every entry eagerly, and the entries that state their executions "
                         f"(specs/compiled.yaml) also compiled with aot_eager")
    group.addoption("--surface", dest="surface", default="sample", choices=("sample", "all", "none"),
                    help="the operator surface's cells (every aten op's schema contract): `sample` (default: the "
                         "hand-written calls), `all` (and the release's OpInfo samples), `none`; run eagerly, or "
                         "under each --execution given")


def pytest_configure(config):
    # COPYSUITE_REQUIRE=cuda (e.g. on a GPU runner): a missing device is an error, not a run of skips
    for device in filter(None, os.environ.get("COPYSUITE_REQUIRE", "").split(",")):
        reason = device_skip_reason(device.strip())
        if reason:
            raise pytest.UsageError(f"COPYSUITE_REQUIRE={os.environ['COPYSUITE_REQUIRE']}: {reason}")
    spec_dir = Path(config.getoption("spec_dir") or SPEC_DIR)
    specs.VALID.update(getattr(config, "workerinput", {}).get(VALIDATED_SPECS, ()))
    entry_ids = config.getoption("spec_entries")
    spec_ids = [e for e in entry_ids if not e.startswith(SURFACE_PREFIX)]
    SURFACE_CELLS[:] = surface_cells(config, entry_ids)
    try:
        spec_set = load_specs(spec_dir, REGISTRY)
        for entry in spec_set.entries:
            bind.check_names(entry)
        only_surface = (entry_ids and not spec_ids) or config.getoption("invariants") == [SURFACE_CHECK]
        planned = [] if only_surface else plan_cells(
            spec_set.entries, REGISTRY, entry_ids=spec_ids, check_names=config.getoption("invariants"),
            devices=config.getoption("devices"), executions=chosen_executions(config))
    except SpecError as exc:
        raise pytest.UsageError(f"spec error: {exc}") from None
    except SelectionError as exc:
        raise pytest.UsageError(f"--spec-entry/--invariant/--device/--execution: {exc}") from None
    # Cells that cannot run here are not collected (thousands of skipped tests on a machine without CUDA cost seconds
    # and hide the rest); the outcome JSON records them as skipped, with the reason, and the summary counts them.
    # If none can run, they are collected, so that the session shows each reason. (Whether dynamo runs on this Python
    # is asked by each compiled cell's test, so that a process that compiles nothing, such as xdist's controller,
    # does not import it.)
    reasons = [(cell, cell.skip_reason(ask_dynamo=False)) for cell in planned]
    # compiled cells first (a stable sort): each of their groups costs about twenty times an eager one's, and xdist
    # hands out tests in collection order, so the heavy ones are spread early instead of ending the run on one worker
    CELLS[:] = sorted([cell for cell, why in reasons if why is None] or planned, key=lambda c: c.execution == "eager")
    not_run = [(cell, why) for cell, why in reasons if why is not None] if len(CELLS) < len(planned) else []
    if not hasattr(config, "workerinput"):  # under xdist only the controller records (workers report to it)
        recorder = OutcomeRecorder(config, spec_set, spec_dir)
        recorder.not_run(not_run, {cell.entry.id for cell in CELLS})
        config.pluginmanager.register(recorder, "copy-semantics-outcomes")
    # Under pytest-xdist a crashed worker (or one killed by pytest-timeout) is replaced and the run goes on; xdist's
    # default allows 4 restarts per worker, counted over all workers, which would drop every test after a
    # systematically crashing op.
    if getattr(config.option, "maxworkerrestart", "") is None:
        config.option.maxworkerrestart = "1000"
    # torch, dynamo and the plan are millions of long-lived objects that every full collection would walk again
    # (pytest and Hypothesis also call gc.collect() themselves): moved out of the collector's sight, they cost a
    # process about 10% less CPU.
    gc.freeze()


def surface_cells(config, entry_ids) -> list:
    """The operator surface's cells the options select: none when --spec-entry names only spec entries, --invariant
    names no `contract`, or --device leaves out the CPU."""
    from copysuite.surface.cells import plan

    wanted = [e for e in entry_ids if e.startswith(SURFACE_PREFIX)]
    devices, checks = config.getoption("devices"), config.getoption("invariants")
    if (entry_ids and not wanted) or (checks and SURFACE_CHECK not in checks) or (devices and "cpu" not in devices):
        return []
    return plan(config.getoption("surface"), chosen_executions(config) or ("eager",), wanted)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """xdist's controller, for each worker: the spec texts it validated, so that the worker does not validate them
    again (0.4-0.5 s of jsonschema per worker, before its first test); a file changed since is validated."""
    node.workerinput[VALIDATED_SPECS] = sorted(specs.VALID)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """Under -n, xdist's "load" scheduling that keeps an entry's cells on one worker (copysuite.scheduling); a --dist
    given on the command line wins."""
    chosen = any(a.startswith(("--dist", "-d")) for a in config.invocation_params.args)
    if config.getoption("dist") != "load" or chosen:
        return None
    from copysuite.scheduling import EntryScheduling

    return EntryScheduling(config, log)


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

"""The suite's command-line options (`python -m copysuite run --help` lists them under "copy-semantics conformance")."""
from __future__ import annotations

from copysuite.spec.load import SPEC_DIR
from copysuite.strategies.space import EXECUTIONS


def chosen_executions(config) -> tuple:
    """The executions asked for (`all`: every one); none asked: each entry's default (copysuite.plan.cells)."""
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
    group.addoption("--check", dest="checks", action="append", default=[], metavar="NAME",
                    help="run only this check (a name such as shares_storage, or a key such as shares_storage[b]; "
                         "repeat for several)")
    group.addoption("--device", dest="devices", action="append", default=[], metavar="DEVICE",
                    help="run only on this device (repeat for several)")
    group.addoption("--execution", dest="executions", action="append", default=[], metavar="NAME",
                    help=f"check every entry run this way: {', '.join(EXECUTIONS)}, or `all` (repeat for "
                         f"several). Default: every entry eagerly, and the entries that state their executions "
                         f"(specs/compiled.yaml) also compiled with aot_eager")

"""Known crashes (copysuite/plugin/crashes.py): under pytest-xdist, the report of a cell whose worker died becomes the
expected failure of the record whose surface item names the cell with the clause `crashed`; any other crash stays a
failure."""
from types import SimpleNamespace

import pytest

from copysuite.plugin import crashes

NODE = "copysuite/plugin/conformance.py::test_surface[surface.out:{op}-contract-cpu-compile.inductor]"


def crash_report(nodeid):
    """The report pytest-xdist's controller makes for a test whose worker died (xdist.dsession.handle_crashitem)."""
    return pytest.TestReport(nodeid=nodeid, location=(nodeid.split("::")[0], None, nodeid), keywords={},
                             outcome="failed", longrepr=f"worker 'gw0' crashed while running {nodeid!r}", when="???")


def test_the_record_naming_a_crash_is_found_on_its_releases_only():
    assert crashes.crash_record(NODE.format(op="add"), "2.0.1").record.name == "issue_98835"
    assert crashes.crash_record(NODE.format(op="add"), "2.2.2") is None
    assert crashes.crash_record(NODE.format(op="abs"), "2.0.1") is None
    assert crashes.crash_record("tests/test_x.py::test_y", "2.0.1") is None


@pytest.mark.parametrize("version", ["2.0.1", "2.13.0"])
def test_a_known_crash_becomes_an_expected_failure_and_another_stays_a_failure(monkeypatch, version):
    monkeypatch.setattr(crashes, "torch", SimpleNamespace(__version__=version))
    report = crash_report(NODE.format(op="add"))
    handled = crashes.pytest_handlecrashitem(crashitem=report.nodeid, report=report, sched=None)
    if version == "2.13.0":
        assert (handled, report.outcome, hasattr(report, "wasxfail")) == (None, "failed", False)
        return
    assert handled and report.skipped and "issues/98835" in report.wasxfail
    props = dict(report.user_properties)
    assert props["failure"]["kind"] == "crashed" and "issues/98835" in props["divergence"]

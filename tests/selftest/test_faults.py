"""Fault injection: the conformance suite must fail under every fault of the catalog (tests.faults), on the check
one would expect, and pass without it.

Each fault runs the conformance cells of its spec entries in a session of its own (forked by tests.faults.driver,
two at a time), with the fault applied by tests.faults.plugin; a control session covers the union of those
entries with no fault. The verdicts go to the terminal summary (tests/selftest/conftest.py) and into every failure
message; `python -m tests.faults report` writes them to docs/reports/faults.md.
"""
from __future__ import annotations

import pytest

from copysuite.judge.checks import REGISTRY
from copysuite.spec.load import load_specs, split_key
from copysuite.surface.cells import CHECK as SURFACE_CHECK
from copysuite.surface.binding_cells import plan as binding_plan
from copysuite.surface.cells import plan as surface_plan
from tests.faults import campaign as fc
from tests.faults.catalog import CATALOG, by_name

# The campaign runs in the setup of the first test that needs it, well past pytest.ini's per-test timeout.
pytestmark = pytest.mark.timeout(900)


@pytest.fixture(scope="module")
def campaign(request, tmp_path_factory):
    c = fc.campaign(tmp_path_factory.mktemp("faults"))
    request.config.stash[fc.TABLE_KEY] = c.text
    return c


def test_catalog_is_well_formed():
    entries = {e.id: e for e in load_specs(checks=REGISTRY).entries}
    # the operator surface's cells and its binding cells (copysuite.surface)
    surface = {c.id.entry for c in surface_plan("sample") + binding_plan("sample")}
    names = [f.name for f in CATALOG]
    assert len(names) >= 20 and len(set(names)) == len(names)
    for f in CATALOG:
        assert f.description and f.expected and f.targets(), f.name
        for eid in f.entries:
            assert eid in entries or eid in surface, f"{f.name}: no spec entry or surface cell {eid!r}"
        for eid, key in f.expected:
            assert eid in f.entries, f"{f.name}: expects a catch on {eid!r}, which its session does not select"
            if eid in surface:
                assert key == SURFACE_CHECK, f"{f.name}: a surface cell's check is {SURFACE_CHECK!r}"
                continue
            assert key in entries[eid].expect and split_key(key)[0] in REGISTRY, f"{f.name}: {eid!r} states no {key!r}"
            assert "cpu" in entries[eid].applies.devices, f"{f.name}: {eid!r} does not run on the CPU"


def test_the_sample_keeps_one_fault_of_every_topic_and_the_sets_nest():
    sample, default, every = (fc.selected(k) for k in fc.FAULT_SETS)
    assert {fc.topic(f) for f in sample} == {fc.topic(f) for f in default}
    assert len(sample) == len({fc.topic(f) for f in sample}) < len(default) < len(every) == len(CATALOG)
    assert set(map(id, sample)) <= set(map(id, default)) <= set(map(id, every))


@pytest.mark.parametrize("name", [f.name for f in CATALOG])
def test_fault_is_reversible(name):
    fault = by_name(name)
    if fault.unpatchable():
        pytest.skip(f"{name}: {fault.unpatchable()}")
    before = [vars(owner).get(attr, "<missing>") for owner, attr in fault.targets()]
    with fault.applied():
        during = [vars(owner).get(attr, "<missing>") for owner, attr in fault.targets()]
    after = [vars(owner).get(attr, "<missing>") for owner, attr in fault.targets()]
    assert all(d is not b for d, b in zip(during, before)) and all(a is b for a, b in zip(after, before))


def test_control_sessions_are_clean(campaign):
    for s in campaign.sessions.values():
        if s.name != fc.CONTROL:
            continue
        assert s.cells, f"control session produced no outcome JSON (exit {s.returncode}):\n{s.log}"
        failed = [f"{c['id']}: {c['failure']['message'][:300]}" for c in s.failures()]
        assert not failed, "the conformance suite fails with no fault injected:\n" + "\n".join(failed) + campaign.text


@pytest.mark.parametrize("name", [f.name for f in fc.selected()])
def test_fault_is_caught(campaign, name):
    fault = by_name(name)
    if fault.skip_reason():
        pytest.skip(f"{name}: {fault.skip_reason()}")
    session = campaign.sessions[name]
    assert session.cells, f"{name}: the session produced no outcome JSON (exit {session.returncode}):\n{session.log}"
    control = fc.control_for(campaign.sessions, fault)
    for eid, key in fault.expected:
        cells = control.outcome(eid, key)
        assert cells and all(c["outcome"] == "passed" for c in cells), \
            f"{name}: {eid}-{key}-cpu without the fault: {cells}"
    _, missing, by = fc.verdict(campaign.sessions, fault)
    assert not missing, (f"fault {name} ({fault.description}) is MISSED by "
                         f"{', '.join(f'{e}/{k}' for e, k in missing)}; failing cells: {', '.join(by) or 'none'}\n"
                         f"{campaign.text}")


@pytest.mark.parametrize("name", [f.name for f in fc.selected()])
def test_harness_does_not_call_the_patched_attributes(campaign, name):
    """The harness captures its instruments at import; a fault may reach it only where the catalog says why that
    is harmless (Fault.harness_contact)."""
    fault = by_name(name)
    if fault.skip_reason():
        pytest.skip(f"{name}: {fault.skip_reason()}")
    contacts = campaign.sessions[name].contacts
    assert contacts is not None, f"{name}: the session wrote no audit, so nothing was checked"
    unexpected = sorted(set(contacts) - set(fault.harness_contact))
    assert not unexpected, (f"{name}: the harness itself called what the fault patches, from {unexpected} "
                            f"(calls per site: {campaign.sessions[name].contacts})")

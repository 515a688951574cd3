"""The conformance run: every expectation every spec entry states, checked on generated inputs.

One test per cell, `test_check[ENTRY-CHECK-DEVICE-EXECUTION]` (copysuite.plan.cell_id), parametrized by copysuite.plugin
from specs/. The cells of one entry and device that draw the same inputs are judged together (copysuite.judge.explore):
the first test of the group runs its corner cases (one per source kind x grad mode pair, copysuite.strategies.corners)
and the random examples of the Hypothesis profile, executing each case once for every check; each test then reports its
own cell. A cell that failed there is run again alone, so that Hypothesis shrinks its failure.
`--hypothesis-show-statistics` shows the mix of inputs each group drew.

A cell with a known divergence (a spec's `diverges`: an upstream bug under some execution) is a strict expected
failure: it is reported as diverged when it fails the way the record says, and fails when it holds (the bug is
fixed: the record's torch range must end; an order-dependent record's cell passes, its draft being the strict check)
or fails another way.
"""
import functools

import pytest
import torch
from hypothesis import Phase, example, given, settings

from copysuite.run import executions as executors
from copysuite.judge import failures
from copysuite.judge.explore import apart, examples_for, explore, group_key, note_input
from copysuite.judge.judge import judge
from copysuite.speed import watchdog
from copysuite.surface import execute as surface_execution
from copysuite.surface.known import records

_EXPLORED = pytest.StashKey[dict]()


def explored(cell, request):
    """The group run that judged `cell`, run by the first of the session's selected tests that needs it."""
    session = request.session
    if _EXPLORED not in session.stash:
        groups = {}
        for item in session.items:
            other = getattr(getattr(item, "callspec", None), "params", {}).get("cell")
            if other is not None and other.skip_reason(ask_dynamo=False) is None:
                groups.setdefault(group_key(other), []).append(other)
        session.stash[_EXPLORED] = {"cells": groups, "runs": {}}
    state, key = session.stash[_EXPLORED], group_key(cell)
    if key not in state["runs"]:
        statistics = request.config.getoption("hypothesis_show_statistics")
        state["runs"][key] = explore(state["cells"].get(key) or [cell], statistics=statistics,
                                     before_case=functools.partial(watchdog.restart, request.node))
    return state["runs"][key]


def alone(cell, request):
    """The cell's own Hypothesis run (corner cases, then random examples, shrinking what fails); the test's time
    limit bounds each of its cases, as in the group run."""
    @given(case=cell.strategy())
    def holds(case):
        watchdog.restart(request.node)
        note_input(case)
        judge(cell, case)

    for case in cell.corner_cases():
        holds = example(case=case)(holds)
    apart(settings(max_examples=examples_for(cell))(holds), str(cell.id))()


def test_check(cell, request):
    reason = cell.skip_reason()
    if reason:
        pytest.skip(reason)
    with executors.counted(cell.entry.id, cell.execution, request.node.user_properties):
        check_cell(cell, request)


def check_cell(cell, request):
    run = explored(cell, request)
    if run.statistics:
        request.node.hypothesis_statistics = run.statistics
    known = cell.divergences()
    if known:
        expected_failure(known, run.failed.get(cell.id), request.node)
    if cell.id not in run.failed:
        return
    shrunk = None
    if Phase.shrink in settings.default.phases:
        try:
            alone(cell, request)
        except Exception as exc:  # noqa: BLE001 - the shrunk failure, reported below
            shrunk = exc
    # no shrinking (e.g. the fault campaign's profile), or not reproduced alone (other random examples): the group
    # run's own first failing case
    raise reported(known, run.failed[cell.id][1], shrunk)


def reported(known, first, shrunk):
    """What a cell whose group run failed in a way no record explains (`first`) reports: the shrunk failure of its
    own run, unless a record explains that one. Then it reports `first`, so that what is reported (and re-judged on
    the matrix page) is the failure that made the cell fail, not another one the shrinker preferred."""
    found = failures.find(shrunk) if shrunk is not None else None
    if found is not None and any(k.matches(found) for k in known):
        return first
    return shrunk if shrunk is not None else first


def expected_failure(known, failed, node):
    """Report a cell with known divergences: xfail when the group run failed the way one of the records says;
    fail when it held (strict: the record must end where the behaviour changed), unless every record claiming it is
    order-dependent (specs/known/schema.json); a failure of another kind is left to the caller, which reports it like
    any failure."""
    found = failures.find(failed[1]) if failed else None
    matching = [k for k in known if found is not None and k.matches(found)]
    if matching:
        k = matching[0]
        node.user_properties += [("failure", {**found.as_dict(), "message": found.message()}),
                                 ("divergence", k.evidence)]
        observed = " ".join(repr(found.observed).split())[:80]
        pytest.xfail(f"{'by design' if k.by_design else 'known bug'} {k.evidence}: expected {found.expected!r}, "
                     f"observed {observed}")
    if failed is None and all(k.order_dependent for k in known):
        return   # its bug needs state earlier programs of the worker left; the record's draft is the strict check
    if failed is None:
        records = "; ".join(f"{k.evidence} ({k.observed!r} under {', '.join(k.executions)}, torch{k.torch}"
                            + (f", fix {k.fixed_by}" if k.fixed_by else "") + ")" for k in known)
        message = (f"a known divergence no longer reproduces on this torch: {records}; fixed? then end the "
                   f"record's torch range")
        node.user_properties.append(("failure", {"kind": "stale_divergence", "message": message}))
        pytest.fail(message)
    # it failed another way: reported as any failure, by the caller


def test_surface(surface_cell, request):
    """One operator's contract from its schema (copysuite.surface), on every call planned for it."""
    reason = surface_execution.skip_reason(surface_cell.execution)
    if reason:
        pytest.skip(reason)
    failed, applied = None, 0
    with executors.counted(surface_cell.id.entry, surface_cell.execution, request.node.user_properties):
        try:
            applied = surface_cell.judge()
        except AssertionError as exc:
            failed = (None, exc)
    sources = {call.source for call in surface_cell.calls}
    known = records(surface_cell.id.entry, surface_cell.execution, torch.__version__, sources)
    if known:
        expected_failure(known, failed, request.node)
    if failed:
        raise failed[1]
    if not applied:
        pytest.skip("the op refused every planned input (OpInfo samples meant for another variant)")

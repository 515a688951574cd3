"""Judging every check of an entry on one run (copysuite.judge.judge.judge_all) is sound: the checks that share a run
(`disturbs` False) change nothing another check can see, and every spec entry's checks observe the same values on a
shared run as each on a fresh one of its own."""
import dataclasses

import pytest

from copysuite.judge.checks import REGISTRY
from tests.faults.catalog import by_name
from copysuite.judge.explore import explore, group_key
from copysuite.plan.cells import plan_cells
from copysuite.run.execute import execute
from copysuite.spec.load import load_specs

# eager: how looks share a run does not depend on how the program ran (and each compiled case compiles)
CELLS = [c for c in plan_cells(load_specs(checks=REGISTRY).entries, REGISTRY, devices=["cpu"], executions=["eager"])
         if c.skip_reason() is None]
GROUPS = {}
for _cell in CELLS:
    GROUPS.setdefault(group_key(_cell), []).append(_cell)


def group_of(entry_id, key):
    return GROUPS[group_key(next(c for c in CELLS if c.entry.id == entry_id and c.key == key))]


def observations(cells, case, run):
    """{cell id: observed value} of the looks among `cells` on one run, in the given order."""
    out = {}
    for cell in cells:
        if not cell.check.disturbs and run.error is None:
            try:
                out[cell.id] = repr(cell.check.observe(run).value)
            except Exception as exc:  # noqa: BLE001 - an observation that fails must fail the same way
                out[cell.id] = f"raised {type(exc).__name__}"
    return out


def agreement(cells, case) -> tuple:
    """The looks' observations on one shared run per judged input (as judge_all shares them) in order, in reverse
    order, and each on a fresh run."""
    program = cells[0].entry.program
    forward, backward = {}, {}
    for subject in dict.fromkeys(c.subject for c in cells):
        mine = [c for c in cells if c.subject == subject]
        shared = execute(program, case, subject)
        forward.update(observations(mine, case, shared))
        backward.update(observations(mine[::-1], case, shared))
    fresh = {}
    for cell in cells:
        fresh.update(observations([cell], case, execute(program, case, cell.subject)))
    return forward, backward, fresh


@pytest.mark.parametrize("key", sorted(GROUPS, key=repr)[::3], ids=lambda k: f"{k[0]}-{k[1]}-{k[3]}")
def test_looks_share_a_run(key):
    """Every third group of the specs (CPU), on its first corner cases."""
    cells = GROUPS[key]
    for case in cells[0].corner_cases()[:4]:
        forward, backward, fresh = agreement(cells, case)
        assert forward == backward == fresh, f"{cells[0].entry.id} on {case!r}"


def test_disturbing_checks_are_declared():
    """The checks that write into the result or run backward say so (else judge_all would share their run)."""
    assert {n for n, c in REGISTRY.items() if c.disturbs} == {
        "writes_through", "shares_version_counter", "backward_sees_write", "grad_to_source", "grad_accumulates"}


def test_a_disturbing_check_declared_a_look_is_caught():
    """The agreement above can fail: with writes_through declared a look, the values observed after it on the shared
    run are the written ones."""
    misdeclared = dataclasses.replace(REGISTRY["writes_through"], disturbs=False)
    cells = [dataclasses.replace(c, check=misdeclared) if c.key == "writes_through" else c
             for c in group_of("detach", "writes_through")]
    forward, backward, fresh = agreement(cells, cells[0].corner_cases()[0])
    assert not forward == backward == fresh


def test_group_runs_find_every_failing_check():
    """Under the view_copies fault, the group runs of view:flat find all four checks the fault breaks (two of them
    disturbing, one in a group of its own kinds), not only the first; without the fault they find none."""
    groups = [cells for key, cells in GROUPS.items() if key[0] == "view:flat"]
    assert len(groups) >= 2 and all(explore(cells).failed == {} for cells in groups)
    fault = by_name("view_copies")
    with fault.applied():
        failed = [cid for cells in groups for cid in explore(cells).failed]
    assert {(e, k) for e, k in fault.expected} <= {(cid.entry, cid.check) for cid in failed}


@pytest.mark.parametrize("entry_id, apart", [("numpy", True), ("clone", False)])
def test_raises_draws_apart_only_where_its_entry_expects_a_call_to_fail(entry_id, apart):
    """`raises` is also judged on inputs where the entry expects the call to fail, which its entry's other checks
    skip (Cell.judgeable): only for such an entry does it need a group run of its own."""
    raises = next(c for c in CELLS if c.entry.id == entry_id and c.key == "raises")
    other = next(c for c in CELLS if c.entry.id == entry_id and c.key != "raises"
                 and c.space()["kinds"] == raises.space()["kinds"])
    assert raises.draws_apart is apart
    assert (group_key(raises) != group_key(other)) is apart


def test_the_collection_keeps_each_entry_and_device_together_so_no_group_is_split_between_workers():
    """copysuite.plugin.in_run_order: every execution's cells of one entry and device form one run of tests (the unit
    copysuite.speed.scheduling never splits between xdist workers, so no group run is made twice), compiled runs
    first, each run in its planned order. Planned check by check, the cpu and meta cells of an entry alternate."""
    from copysuite.plugin import in_run_order
    from copysuite.speed.scheduling import group_of
    from copysuite.strategies.space import EXECUTIONS

    def run_of(cell):
        return cell.execution == "eager", group_of(f"conformance.py::test_check[{cell.id}]")

    def starts(cells):
        return [run_of(c) for n, c in enumerate(cells) if n == 0 or run_of(cells[n - 1]) != run_of(c)]

    planned = plan_cells(load_specs(checks=REGISTRY).entries, REGISTRY, devices=["cpu", "meta"],
                         executions=EXECUTIONS)
    ordered = in_run_order(planned)
    assert sorted(str(c.id) for c in ordered) == sorted(str(c.id) for c in planned)
    assert len(starts(ordered)) == len(set(starts(ordered)))   # each run of tests in one piece
    assert [c.execution == "eager" for c in ordered] == sorted(c.execution == "eager" for c in ordered)
    within = {}
    for cell in planned:
        within.setdefault(run_of(cell), []).append(cell)
    assert [c for run in dict.fromkeys(starts(ordered)) for c in within[run]] == ordered
    assert len(starts(planned)) > len(starts(ordered))   # the planned order alone would split them

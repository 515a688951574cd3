"""The conformance run: every expectation every spec entry states, checked on generated inputs.

One test per cell, `test_invariant[ENTRY-CHECK-DEVICE]` (copysuite.cells), parametrized by copysuite.plugin from
specs/. Each test runs its corner cases first (one per source kind x grad mode pair, strategies.corners), then the
random examples of the Hypothesis profile; `--hypothesis-show-statistics` shows the mix of inputs they drew.
"""
import pytest
from hypothesis import event, example, given
from hypothesis.statistics import collector, describe_statistics

from copysuite.runner import judge
from strategies.space import dtype_class


def note_input(case):
    """Hypothesis statistics: how many inputs of each kind, grad mode, placement and dtype class a test drew."""
    event(f"kind: {case.kind}")
    event(f"grad mode: {case.mode}")
    event(f"placement: {case.placement}")
    event(f"dtype class: {dtype_class(case.dtype)}")


def test_invariant(cell, request):
    reason = cell.skip_reason()
    if reason:
        pytest.skip(reason)

    @given(case=cell.strategy())
    def holds(case):
        note_input(case)
        judge(cell, case)

    for case in cell.corner_cases():
        holds = example(case=case)(holds)
    # keep each cell's examples apart in Hypothesis' example database
    holds._hypothesis_internal_add_digest = str(cell.id).encode()

    def note_statistics(stats):  # Hypothesis' pytest plugin reports what it finds on the item (the given is nested)
        stats["nodeid"] = request.node.nodeid
        request.node.hypothesis_statistics = describe_statistics(stats)

    with collector.with_value(note_statistics if request.config.getoption("hypothesis_show_statistics") else None):
        holds()

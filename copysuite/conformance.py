"""The conformance run: every invariant every spec entry states, checked on generated inputs.

One test per (op, invariant, device): `test_invariant[clone-shares_storage-cpu]`. The parameters come from specs/
(see conftest.py); this module only runs them. Each test runs its corner cases first (one per source kind x grad
mode pair, `strategies.cases.corner_cases`), then the random examples of the Hypothesis profile.
"""
import pytest
from hypothesis import example, given

from copysuite import plan
from copysuite.runner import check


def test_invariant(spec_entry, invariant, device):
    reason = plan.skip_reason(spec_entry, device)
    if reason:
        pytest.skip(reason)

    @given(case=plan.strategy(spec_entry, invariant, device))
    def holds(case):
        check(spec_entry, case, invariant)

    for case in plan.corner_cases(spec_entry, invariant, device):
        holds = example(case=case)(holds)
    # keep each parametrization's examples apart in Hypothesis' example database
    holds._hypothesis_internal_add_digest = plan.param_id(spec_entry, invariant, device).encode()
    holds()

"""A cell with a known divergence (copysuite/plugin/conformance.py): a strict expected failure (unless its record is
order-dependent), and the failure it reports when it fails another way."""
import dataclasses
from types import SimpleNamespace

import pytest

from copysuite.judge.failures import ConformanceFailure
from copysuite.plugin.conformance import expected_failure, reported
from copysuite.spec.divergences import Divergence
from copysuite.strategies.cases import Case

COMPILED = "compile.eager"
KNOWN = Divergence(executions=(COMPILED,), torch=">=2.0", keys=("raises",), observed="Cannot view a tensor",
                   evidence="https://github.com/pytorch/pytorch/issues/158088")


def case(execution=COMPILED):
    return Case(dtype="float32", shape=(2, 3), placement="contiguous", kind="plain", mode="enabled", device="cpu",
                base_numel=6, stride=(3, 1), offset=0, values=(1.0, 2.0, 3.0, 4.0, 5.0, 6.0), execution=execution)


def failure(observed, detail=None):
    return ConformanceFailure(cell="x", entry="x", check="raises", kind="mismatch", expected=None, observed=observed,
                              detail=detail, input="", program="", versions="", evidence=[], spec="", reproduction="")


def test_a_known_divergence_is_a_strict_expected_failure():
    known = [KNOWN]
    node = SimpleNamespace(user_properties=[])
    with pytest.raises(pytest.xfail.Exception):   # it failed the way the record says
        expected_failure(known, (case(), failure(("RuntimeError", "Cannot view a tensor with shape"))), node)
    assert ("divergence", known[0].evidence) in node.user_properties
    node = SimpleNamespace(user_properties=[])
    with pytest.raises(pytest.fail.Exception, match="no longer reproduces"):   # it held: the record is stale
        expected_failure(known, None, node)
    assert node.user_properties[0][1]["kind"] == "stale_divergence"
    node = SimpleNamespace(user_properties=[])   # it failed another way: left to the caller, reported as a failure
    assert expected_failure(known, (case(), failure(("RuntimeError", "something else"))), node) is None


def test_a_cell_that_failed_another_way_reports_that_failure_not_a_known_one_the_shrinker_found():
    """The page re-judges what a cell reports: it must be the failure no record explains."""
    known = [KNOWN]
    first = failure(("RuntimeError", "something else"))
    explained, other = failure(("RuntimeError", "Cannot view a tensor with shape")), failure(("TypeError", "x"))
    assert reported(known, first, explained) is first
    assert reported(known, first, other) is other      # the shrunk failure, as Hypothesis found it
    assert reported(known, first, None) is first       # not reproduced alone, or no shrinking
    assert reported([], first, explained) is explained


def test_a_held_cell_of_an_order_dependent_record_passes_and_its_failure_is_still_expected():
    """Its bug needs state that earlier programs of the worker left: holding proves nothing; its draft is strict."""
    known = [dataclasses.replace(KNOWN, order_dependent=True)]
    assert expected_failure(known, None, SimpleNamespace(user_properties=[])) is None
    with pytest.raises(pytest.xfail.Exception):
        expected_failure(known, (case(), failure(("RuntimeError", "Cannot view a tensor with shape"))),
                         SimpleNamespace(user_properties=[]))
    with pytest.raises(pytest.fail.Exception, match="no longer reproduces"):   # a strict record beside it
        expected_failure([*known, KNOWN], None, SimpleNamespace(user_properties=[]))

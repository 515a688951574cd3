"""The triage of the 2.14.1 surface campaign's compile.inductor findings (docs/notes.md): the condition a record of it
needed (`execution_ran` asked of the forward-mode call for a forward-mode field) on hand-built runs, and, opt-in
(COPYSUITE_FUZZ=1: each compiles its program, and the surface vocabulary must be built or read from its cache), each
reduced program run eagerly and under inductor and judged as the triage says; on a release outside the records'
range the program holds."""
import dataclasses
import os

import pytest
from packaging.specifiers import SpecifierSet

from copysuite.fuzz import differential, model, record, surface_vocabulary
from copysuite.fuzz.generate import Input, Program, Statement
from tests.selftest.triaged import since, verdict_of
from copysuite.run.executions import EXECUTORS

INDUCTOR = "compile.inductor"
opt_in = pytest.mark.skipif(os.environ.get("COPYSUITE_FUZZ") != "1",
                            reason="opt-in (COPYSUITE_FUZZ=1, a step of .ci/run): it compiles its programs")
needs_compile = pytest.mark.skipif(EXECUTORS[INDUCTOR].skip_reason() is not None,
                                   reason=str(EXECUTORS[INDUCTOR].skip_reason()))
ONE = (1,)
LEAF = {"kind": "leaf_requires_grad"}


def test_a_forward_mode_refusal_is_dropped_only_where_the_forward_call_ran():
    """inductor_forward_ad_tangents_dropped explains eager's forward-mode refusal only where inductor's forward-mode
    call raised nothing; inductor's forward-mode call raising where eager's ran (the plain call ran both ways) is no
    dropped tangent, and stays new."""
    program = dataclasses.replace(Program((Input("a", shape=ONE),), (Statement("t1", "times_two", ("a",)),), ("t1",)),
                                  forward=True)
    igammac = "NotImplementedError: Trying to use forward AD with igammac that does not support it"

    def judged(error, raises, eager_error=igammac):
        eager = differential.Side({}, None, forward_error=eager_error)
        other = differential.Side({}, None, forward_error=error)
        return model.judge(differential.Run(program, eager, other, {}, INDUCTOR), INDUCTOR, {"forward||raises": raises})

    assert judged(None, ["NotImplementedError", None]).records == ("inductor_forward_ad_tangents_dropped",)
    assert judged("RuntimeError: other", [None, "RuntimeError"], eager_error=None).status == "new"


# each reduced program of the campaign's findings and what the triage says of it
REDUCED = [
    ("plus_zero_then_written", Program((Input("a", shape=ONE, kind="parameter"),), (
        Statement("t1", "plus_zero", ("a",)),), ("t1",), after=("zero_", "a")),
     ("inductor_noop_returns_input",)),
    ("plus_zero_beside_its_input", Program((Input("a", shape=ONE, kind="parameter"),), (
        Statement("t1", "plus_zero", ("a",)),), ("a", "t1"), mode="no_grad"),
     ("inductor_noop_returns_input", "input_view_returned_twice_two_objects")),
    ("unsafe_split_whole_parameter", Program((Input("a", shape=ONE),), (
        Statement("t1", "surface.functional:unsafe_split/6629af80", ("weight",)),), ("a", "t1"), mode="no_grad",
        state=True),
     ("multi_output_view_of_input_not_a_view", "unsafe_split_whole_returns_input_inductor")),
    ("unbind_then_out_into_detached", Program(
        (Input("a", dtype="float64", shape=(3, 4), **LEAF),
         Input("b", dtype="float64", shape=(3, 4), alias="a.detach()")),
        (Statement("t3", "surface.alias:unbind/10c92cde", ("a",)), Statement("t4", "pow_one", ("a",)),
         Statement("t5", "view_float32", ("t4",)), Statement("t6", "surface.out:logical_and/d7a63bec", ("b", "t5"))),
        ("t3",)),
     ("multi_output_view_of_input_not_a_view", "synthetic_base_identity")),
    ("chunk_written", Program((Input("a", shape=(2, 2), **LEAF),), (
        Statement("t1", "surface.alias:chunk/86208325", ("a",)),), ("t1",)),
     ("multi_output_view_of_input_not_a_view",)),
    ("abs_of_bool_into_itself", Program((Input("c", dtype="bool", shape=ONE),), (
        Statement("t1", "surface.out:abs/4fb65064", ("c", "c")),), ("t1",)),
     ("inductor_runs_dtype_eager_rejects",)),
    ("igammac_dual", Program((Input("a", shape=ONE), Input("b", shape=ONE)), (
        Statement("t1", "surface.functional:igammac/f4204290", ("a", "b")),), ("t1",), forward=True),
     ("inductor_forward_ad_tangents_dropped",)),
    ("absolute_dual", Program((Input("b", shape=ONE),), (
        Statement("t1", "surface.inplace:absolute_/65e43d9a", ("b",)),), ("t1",), forward=True),
     ("inductor_forward_ad_tangents_dropped",)),
    ("square_beside_clone", Program((Input("a", shape=ONE, **LEAF), Input("b", shape=ONE, **LEAF)), (
        Statement("t1", "square", ("b",)), Statement("t2", "clone", ("a",))), ("a", "t1", "t2")),
     ("unused_output_zero_grad",)),
]


@pytest.fixture(scope="module")
def surface():
    return surface_vocabulary.vocabulary_of("all")


@opt_in
@needs_compile
@pytest.mark.timeout(1200)   # the fixture builds the vocabulary from every OpInfo sample where no cache has it
@pytest.mark.parametrize(("program", "records"), [r[1:] for r in REDUCED], ids=[r[0] for r in REDUCED])
def test_each_reduced_program_is_judged_as_triaged(surface, program, records):
    verdict = verdict_of(surface, program, INDUCTOR)
    if all(record.TORCH in SpecifierSet(since(name)) for name in records):
        assert (verdict.status, verdict.records) == ("known", records), verdict
    else:   # a release before the bug: the program holds
        assert verdict.status == "same", verdict

"""The triage of the 2.14.1 surface campaign's compile.aot_eager and functionalize findings (docs/notes.md): the
conditions of the records it added on hand-built runs (a reduction whose out= is its input, a gradient eager leaves
undefined), and, opt-in (COPYSUITE_FUZZ=1: each compiles or functionalizes its program, and the surface vocabulary
must be built or read from its cache), each reduced program run eagerly and under its execution and judged as the
triage says."""
import os

import pytest

from copysuite.fuzz import differential, judging, model, signature, surface_vocabulary
from copysuite.fuzz.generate import Input, Program, Statement
from copysuite.run.executions import EXECUTORS

AOT, FUNCTIONALIZE = "compile.aot_eager", "functionalize"
opt_in = pytest.mark.skipif(os.environ.get("COPYSUITE_FUZZ") != "1",
                            reason="opt-in (COPYSUITE_FUZZ=1, a step of .ci/run): it compiles its programs")
needs_compile = pytest.mark.skipif(EXECUTORS[AOT].skip_reason() is not None, reason=str(EXECUTORS[AOT].skip_reason()))

AMIN = "surface.out:amin/f159381f"   # torch.amin({y}, dim=0, keepdim=True, out={x})
ONE = (1,)


def judged(program, differences, execution=AOT):
    side = differential.Side({}, None)
    return model.judge(differential.Run(program, side, side, {}, execution), execution, differences)


def test_a_reduction_into_its_own_input_is_known_only_when_out_is_the_input():
    """Eager's reduction whose out= is its input returns the identity (record reduction_out_is_input); the same op
    with another out= is no such call, and a difference there stays new."""
    values = {"in|c|values": [["inf"], [0.0]]}
    own = Program((Input("c", shape=ONE),), (Statement("t1", AMIN, ("c", "c")),), ("t1",))
    other = Program((Input("c", shape=ONE), Input("d", shape=ONE)), (Statement("t1", AMIN, ("c", "d")),), ("t1",))
    for execution in (AOT, FUNCTIONALIZE):
        assert judged(own, values, execution).records == ("reduction_out_is_input",)
        assert judged(other, values, execution).status == "new"


def test_a_gradient_of_zeros_is_known_only_where_eager_left_none():
    """An input only an output outside backward depends on gets zeros compiled (record unused_output_zero_grad):
    None eagerly and zeros compiled; another value, or a value eagerly, stays new."""
    program = Program((Input("a", shape=(2,), kind="nonleaf"), Input("c", shape=(2,), kind="nonleaf")),
                      (Statement("t3", "clone", ("c",)), Statement("t4", "times_two", ("a",))), ("t3", "t4"))
    assert judged(program, {"backward|leaf_c|grad": [None, [0.0, 0.0]]}).records == ("unused_output_zero_grad",)
    assert judged(program, {"backward|leaf_c|grad": [None, [1.0, 0.0]]}).status == "new"
    assert judged(program, {"backward|leaf_c|grad": [[1.0, 1.0], [0.0, 0.0]]}).status == "new"


def test_a_compiled_backward_refusal_is_known_only_where_the_execution_raised():
    """A backward refused compiled after an in-place op on an input (record inplace_input_saved_backward_compiled);
    a backward the execution never ran (`absent`: its output did not require grad) is no such refusal."""
    program = Program((Input("b", shape=ONE, kind="nonleaf"),),
                      (Statement("t1", "surface.inplace:abs_/a834c0d3", ("b",)),), ("t1",))
    raised = judged(program, {"backward||raises": [None, "RuntimeError"]})
    assert raised.records == ("inplace_input_saved_backward_compiled",)
    never_ran = judged(program, {"backward||raises": [None, "absent"]})
    assert "inplace_input_saved_backward_compiled" not in never_ran.records


# each reduced program of the campaign's reports, its execution, and what the triage says of it
STRIDED = {"placement": "strided", "kind": "nonleaf"}
REDUCED = [
    ("unused_output", AOT, Program(
        (Input("a", shape=(1, 4, 1), strided=(6, (4, 1, 1), 2), **STRIDED),
         Input("c", dtype="complex64", shape=(1, 2, 1), strided=(4, (2, 1, 1), 2), **STRIDED)),
        (Statement("t3", "clone", ("c",)), Statement("t4", "slice_scatter", ("a",))), ("t3", "t4")),
     ("unused_output_zero_grad",)),
    ("abs_forward", AOT, Program((Input("b", shape=ONE, kind="nonleaf"),),
                                 (Statement("t1", "surface.inplace:abs_/a834c0d3", ("b",)),), ("t1",), forward=True),
     ("compiled_forward_ad_unsupported", "inplace_input_saved_backward_compiled")),
    ("amin_into_input", AOT, Program((Input("c", shape=ONE),), (Statement("t1", AMIN, ("c", "c")),), ("t1",)),
     ("reduction_out_is_input",)),
    ("squeeze_of_to", AOT, Program((Input("a", shape=ONE),), (
        Statement("t1", "surface.alias:to/5f6b6c04", ("a",)),
        Statement("t2", "surface.inplace:squeeze_/c5756634", ("t1",))), ("t2",)),
     ("inplace_view_of_intermediate_returned_as_view",)),
    ("chunk_after_write", AOT, Program((Input("a", shape=(2, 2, 2), strided=(12, (8, 2, 1), 0), **STRIDED),), (
        Statement("t2", "add_", ("a",)), Statement("t3", "surface.alias:chunk/f012b6a5", ("t2",)),
        Statement("t4", "surface.alias:_autocast_to_full_precision/2ccf8d0d", ("t3",))), ("t4",)),
     ("multi_output_view_of_input_not_a_view",)),
    ("foreach_after_write", FUNCTIONALIZE, Program((Input("a", shape=ONE, kind="nonleaf"),), (
        Statement("t1", "surface.inplace:add_/4e6e841a", ("a", "a")),
        Statement("t2", "surface.functional:_foreach_div/cf36692b", ("t1", "t1"))), ("t2",),
        after=("view_fill_", "a")),
     ("functionalize_saved_input_write_unchecked",)),
    ("arccosh_", FUNCTIONALIZE, Program((Input("a", shape=ONE),), (
        Statement("t2", "surface.functional:std/9d5c3cdc", ("a",)),
        Statement("t4", "surface.inplace:arccosh_/2336b287", ("t2",))), ("t4",)),
     ("functionalize_inplace_alias_ops",)),
    ("detach_dual", FUNCTIONALIZE, Program((Input("a", shape=ONE),), (Statement("t1", "detach_", ("a",)),), ("a",),
                                           forward=True),
     ("functionalize_autograd_state", "functionalize_identity")),
    ("log1p_flatten", FUNCTIONALIZE, Program((Input("a", shape=(2, 2), placement="strided", strided=(6, (4, 1), 0)),), (
        Statement("t1", "surface.out:log1p/8daab28b", ("a", "a")), Statement("t2", "flatten", ("a",)),
        Statement("t3", "scatter_", ("t1",))), ("t2",), forward=True),
     ("functionalize_out_forward_ad", "functionalize_written_reshape_view", "functionalize_written_strides")),
    ("abs_out_resized", FUNCTIONALIZE, Program(
        (Input("b", dtype="complex64", shape=ONE),
         Input("c", dtype="complex64", shape=(2, 2), placement="transposed", strided=(4, (1, 2), 0))),
        (Statement("t1", "surface.out:abs/4fb65064", ("b", "c")),), ("t1",)),
     ("functionalize_identity", "functionalize_out_resize_strides")),
    ("amax_into_input", FUNCTIONALIZE, Program((Input("a", shape=ONE), Input("b", shape=ONE)), (
        Statement("t1", "surface.out:amax/5e2a0410", ("b", "b")),), ("a",)),
     ("reduction_out_is_input",)),
    ("conj_physical_into_input", FUNCTIONALIZE, Program((Input("b", shape=ONE),), (
        Statement("t1", "surface.out:conj_physical/f5beb4c3", ("b", "b")),), ("b",)),
     ("functionalize_noop_write_version",)),
]


@pytest.fixture(scope="module")
def surface():
    return surface_vocabulary.vocabulary_of("all")


@opt_in
@needs_compile
@pytest.mark.timeout(1200)   # the fixture builds the vocabulary from every OpInfo sample where no cache has it
@pytest.mark.parametrize(("execution", "program", "records"), [r[1:] for r in REDUCED], ids=[r[0] for r in REDUCED])
def test_each_reduced_program_is_judged_as_triaged(surface, execution, program, records):
    missing = [s.op for s in program.statements if s.op.startswith("surface.") and s.op not in
               {op.name for op in surface.ops}]
    if missing:
        pytest.skip(f"not in this release's surface vocabulary: {missing}")
    run = differential.run(program, execution)
    verdict = judging.judge(run, execution, signature.differences(run.eager.signature, run.other.signature))
    assert (verdict.status, verdict.records) == ("known", records), verdict

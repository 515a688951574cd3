"""The triage of the 2.14.1 surface campaign's compile.aot_eager and functionalize findings (docs/notes.md): the
conditions of the records it added on hand-built runs (a reduction whose out= is its input, a gradient eager leaves
undefined), and, opt-in (COPYSUITE_FUZZ=1: each compiles or functionalizes its program, and the surface vocabulary
must be built or read from its cache), each reduced program run eagerly and under its execution and judged as the
triage says: known by its records, or by design where it names none. What the triage found by design, on
hand-built runs: tests/selftest/test_fuzz_triage_design.py."""
import dataclasses
import os

import pytest

from copysuite.fuzz import differential, model, surface_vocabulary
from copysuite.fuzz.generate import Input, Program, Statement
from tests.selftest.triaged import covers, known_by, verdict_of
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
        assert judged(own, values, execution).records == known_by("reduction_out_is_input")[1]
        assert judged(other, values, execution).status == "new"


def test_a_gradient_of_zeros_is_known_only_where_eager_left_none():
    """An input only an output outside backward depends on gets zeros compiled (record unused_output_zero_grad):
    None eagerly and zeros compiled; another value, or a value eagerly, stays new."""
    program = Program((Input("a", shape=(2,), kind="nonleaf"), Input("c", shape=(2,), kind="nonleaf")),
                      (Statement("t3", "clone", ("c",)), Statement("t4", "times_two", ("a",))), ("t3", "t4"))
    assert judged(program, {"backward|leaf_c|grad": [None, [0.0, 0.0]]}).records == known_by(
        "unused_output_zero_grad")[1]
    assert judged(program, {"backward|leaf_c|grad": [None, [1.0, 0.0]]}).status == "new"
    assert judged(program, {"backward|leaf_c|grad": [[1.0, 1.0], [0.0, 0.0]]}).status == "new"


def test_a_compiled_backward_refusal_is_known_only_where_the_execution_raised():
    """A backward refused compiled after an in-place op on an input (record inplace_input_saved_backward_compiled);
    a backward the execution never ran (`absent`: its output did not require grad) is no such refusal."""
    program = Program((Input("b", shape=ONE, kind="nonleaf"),),
                      (Statement("t1", "surface.inplace:abs_/a834c0d3", ("b",)),), ("t1",))
    raised = judged(program, {"backward||raises": [None, "RuntimeError"]})
    assert raised.records == known_by("inplace_input_saved_backward_compiled")[1]
    never_ran = judged(program, {"backward||raises": [None, "absent"]})
    assert "inplace_input_saved_backward_compiled" not in never_ran.records


def test_a_forward_mode_refusal_is_known_by_its_message():
    """compiled_forward_ad_unsupported explains the execution's forward-mode exception only where it is the missing
    jvp of the compiled region (or dynamo's dual-input refusal); functionalize_out_forward_ad explains an out= call
    that runs forward-mode only where eager refused it as an out= function."""
    program = dataclasses.replace(Program((Input("a", shape=ONE), Input("b", shape=ONE)),
                                          (Statement("t1", "out_add", ("a", "b")),), ("a",)), forward=True)

    def forward(eager_error, error, execution, raises):
        eager, other = differential.Side({}, None, forward_error=eager_error), differential.Side(
            {}, None, forward_error=error)
        run = differential.Run(program, eager, other, {}, execution)
        return model.judge(run, execution, {"forward||raises": raises})

    jvp = ("NotImplementedError: You must implement the jvp function for custom autograd.Function to use it with "
           "forward mode AD.")
    assert forward(None, jvp, AOT, [None, "NotImplementedError"]).records == known_by(
        "compiled_forward_ad_unsupported")[1]
    assert forward(None, "NotImplementedError: other", AOT, [None, "NotImplementedError"]).status == "new"
    out = "RuntimeError: Trying to use forward AD with add_out that does not support it because it is an out= function"
    assert forward(out, None, FUNCTIONALIZE, ["RuntimeError", None]).records == known_by(
        "functionalize_out_forward_ad")[1]
    assert forward("RuntimeError: other", None, FUNCTIONALIZE, ["RuntimeError", None]).status == "new"


def test_a_write_reading_its_own_memory_is_known_only_where_its_operands_share_it():
    """An in-place op of the surface whose other operand is its destination's memory (the same variable, or a view or
    in-place result of it) is computed from a snapshot functionalized (record functionalize_overlapping_write_snapshot,
    its `overlapping_ops`); the same op reading another input is no such write, and a values difference stays new."""
    addmm, add = "surface.inplace:addmm_/fb6ec394", "surface.inplace:add_/4e6e841a"
    values = {"in|b|values": [[1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 5.0, 6.0]]}
    square = (2, 2)
    own = Program((Input("b", shape=square),), (Statement("t1", addmm, ("b", "b")),), ("b",))
    other = Program((Input("b", shape=square), Input("c", shape=square)), (Statement("t1", addmm, ("b", "c")),),
                    ("b",))
    through_views = Program((Input("b", shape=square),), (
        Statement("t1", "surface.alias:diagonal/14f9bf2b", ("b",)), Statement("t2", "mul_", ("t1",)),
        Statement("t3", add, ("b", "t2"))), ("b",))
    aliased = Program((Input("c", shape=square), Input("b", shape=square, alias="c.t()")),
                      (Statement("t1", add, ("b", "c")),), ("b",))
    snapshot = "functionalize_overlapping_write_snapshot"
    for program in (own, through_views):
        assert judged(program, values, FUNCTIONALIZE).records == known_by(snapshot)[1]
    assert (snapshot in judged(aliased, values, FUNCTIONALIZE).records) == covers(snapshot)
    assert judged(other, values, FUNCTIONALIZE).status == "new"


# each reduced program of the campaign's reports, its execution, and what the triage says of it
STRIDED = {"placement": "strided", "kind": "nonleaf"}
# found as unused_output_zero_grad while backward left complex outputs out; now (signature.loss) both sides give the
# complex input a gradient; the record shows through autograd.grad (test_fuzz_triage_inductor, square_beside_clone)
COMPLEX_BESIDE = Program(
    (Input("a", shape=(1, 4, 1), strided=(6, (4, 1, 1), 2), **STRIDED),
     Input("c", dtype="complex64", shape=(1, 2, 1), strided=(4, (2, 1, 1), 2), **STRIDED)),
    (Statement("t3", "clone", ("c",)), Statement("t4", "slice_scatter", ("a",))), ("t3", "t4"))
REDUCED = [
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
     ("functionalize_identity", "functionalize_out_resize_strides", "functionalize_written_strides")),
    ("amax_into_input", FUNCTIONALIZE, Program((Input("a", shape=ONE), Input("b", shape=ONE)), (
        Statement("t1", "surface.out:amax/5e2a0410", ("b", "b")),), ("a",)),
     ("reduction_out_is_input",)),
    ("conj_physical_into_input", FUNCTIONALIZE, Program((Input("b", shape=ONE),), (
        Statement("t1", "surface.out:conj_physical/f5beb4c3", ("b", "b")),), ("b",)),
     ("functionalize_noop_write_version",)),
    # the findings met by the reruns (docs/notes.md, the fourth pass)
    ("addmm_of_itself", FUNCTIONALIZE, Program((Input("a", shape=ONE), Input("b", shape=(2, 2))), (
        Statement("t1", "surface.inplace:addmm_/fb6ec394", ("b", "b")),), ("a",)),
     ("functionalize_overlapping_write_snapshot",)),
    ("add_of_own_diagonal", FUNCTIONALIZE, Program(
        (Input("a", shape=(1, 2, 2), placement="strided", strided=(6, (6, 4, 1), 0)),), (
            Statement("t1", "surface.alias:diagonal/14f9bf2b", ("a",)),
            Statement("t2", "surface.inplace:logical_or_/1a18fb78", ("t1",)),
            Statement("t3", "surface.alias:_autocast_to_full_precision/2ccf8d0d", ("a",)),
            Statement("t4", "surface.inplace:abs_/a834c0d3", ("t3",)),
            Statement("t5", "surface.inplace:add_/4e6e841a", ("t4", "t2"))), ("t2",)),
     ("functionalize_identity", "functionalize_overlapping_write_snapshot", "functionalize_written_strides")),
    ("narrow_copy_into_dtype_view", FUNCTIONALIZE, Program((Input("b", shape=(3, 4, 1)),), (
        Statement("t2", "view_uint8", ("b",)),
        Statement("t3", "surface.out:narrow_copy/39cf99f3", ("t2", "t2"))), ("b",)),
     ("functionalize_identity", "functionalize_out_resize_of_alias_view", "functionalize_out_resize_strides",
      "functionalize_written_strides", "reduction_out_is_input")),
    ("slice_scatter_into_view", FUNCTIONALIZE, Program((Input("a", shape=ONE),), (
        Statement("t1", "index_put", ("a",)), Statement("t2", "surface.alias:numpy_T/21091eff", ("t1",)),
        Statement("t3", "surface.out:slice_scatter/4c315a0e", ("t2", "t2", "t2"))), ("t1",)),
     ("functionalize_written_strides",)),
    ("detach_copy_into_strided", FUNCTIONALIZE, Program(
        (Input("a", shape=(2,), placement="strided", strided=(3, (2,), 0)),), (
            Statement("t1", "slice_scatter_from", ("a", "a")),
            Statement("t2", "surface.inplace:_foreach_asin_/ae293b99", ("t1",)),
            Statement("t3", "surface.out:detach_copy/27f30f0c", ("t2", "a"))), ("t3",)),
     ("functionalize_written_strides",)),
    ("angle_into_detached", FUNCTIONALIZE, Program((Input("a", shape=(1, 1, 1)),), (
        Statement("t1", "detach_clone", ("a",)), Statement("t2", "detach_", ("t1",)),
        Statement("t3", "surface.alias:swapdims/48b63123", ("t1",)),
        Statement("t4", "surface.out:angle/9fcbd90e", ("t2", "t1"))), ("t3", "t4")),
     ("functionalize_written_strides",)),
    ("add_relu_broadcast", FUNCTIONALIZE, Program((Input("b", shape=ONE), Input("c", shape=ONE)), (
        Statement("t1", "surface.inplace:_add_relu_/4f1bf9bd", ("c",)),), ("b",)),
     ("functionalize_add_relu_inplace_broadcast",)),
    ("set_to_dual", FUNCTIONALIZE, Program((Input("a", shape=ONE),), (
        Statement("t2", "surface.functional:lift_fresh_copy/f377baf8", ("a",)),
        Statement("t3", "set_", ("t2", "a"))), ("t3",), forward=True),
     ("functionalize_data_is_the_value", "functionalize_input_metadata_mutation")),
    ("data_of_dual", FUNCTIONALIZE, Program((Input("c", shape=ONE),), (
        Statement("t1", "slice", ("c",)), Statement("t2", "data", ("t1",))), ("t2",), forward=True),
     ("functionalize_data_is_the_value",)),
    ("addcmul_cast", AOT, Program((Input("a", dtype="complex64", shape=ONE), Input("b", shape=ONE)), (
        Statement("t1", "surface.inplace:addcmul_/2b3e965c", ("b", "a", "a")),), ("a",)),
     ("inplace_cast_check_lost_compiled",)),
    ("detach_of_dual", AOT, Program((Input("a", dtype="complex64", shape=ONE, kind="nonleaf"),), (
        Statement("t1", "surface.inplace:detach_/d060e205", ("a",)),), ("t1",), forward=True),
     ("detach_after_write_lost",)),
    ("acosh_out_dual", AOT, Program((Input("a", shape=ONE), Input("b", shape=ONE)), (
        Statement("t1", "surface.out:acosh/ab32e26b", ("b", "a")),), ("t1",), forward=True),
     ("functionalize_out_forward_ad",)),
    ("fw_primal_tangent", AOT, Program((Input("a", shape=ONE),), (
        Statement("t1", "surface.alias:_fw_primal/a5d76c3c", ("a",)),
        Statement("t2", "surface.alias:_autocast_to_full_precision/2ccf8d0d", ("t1",))), ("t2",), forward=True),
     ("fw_primal_compiled_keeps_tangent",)),
    ("fw_primal_write", AOT, Program((Input("b", shape=ONE, kind="nonleaf"),), (
        Statement("t1", "surface.alias:_fw_primal/a5d76c3c", ("b",)),), ("t1",)),
     ("fw_primal_compiled_keeps_tangent",)),
    ("as_strided_after_copy_no_grad", AOT, Program((Input("a", shape=(2,)),), (
        Statement("t2", "copy_", ("a", "a")), Statement("t3", "as_strided_", ("t2",))), ("t3",),
        mode="no_grad", state=True),
     ("input_write_then_inplace_view_compiled",)),
    ("as_strided_after_copy_beside_transpose_", AOT, Program((Input("a", shape=(2,)),), (
        Statement("t1", "transpose_", ("weight",)), Statement("t2", "copy_", ("a", "a")),
        Statement("t3", "as_strided_", ("t2",))), ("t3",), mode="no_grad", state=True),
     ("inplace_view_after_write_offset_lost", "input_write_then_inplace_view_compiled")),
    ("as_strided_after_sub", AOT, Program(
        (Input("a", shape=(2,)), Input("b", shape=ONE), Input("c", shape=(2,), alias="a.detach()")), (
            Statement("t1", "surface.inplace:sub_/27f6fee5", ("a", "a")),
            Statement("t3", "as_strided_", ("t1",))), ("b", "c")),
     ("input_write_then_inplace_view_compiled",)),
    ("fmin_then_written", AOT, Program((Input("b", shape=ONE, kind="nonleaf"),), (
        Statement("t1", "surface.functional:fmin/ee3a64bb", ("b",)),), ("t1",), after=("zero_", "b")),
     ("compiled_saved_input_write_unchecked",)),
    # met by the confirming rerun of the functionalize command
    ("foreach_addcmul_of_itself_dual", FUNCTIONALIZE, Program((Input("a", shape=(2,)),), (
        Statement("t1", "surface.inplace:_foreach_addcmul_/b98ee25c", ("a", "a", "a")),), ("t1",), forward=True),
     ("addcmul_inplace_forward_ad_aliased_operand", "functionalize_identity",
      "functionalize_overlapping_write_snapshot")),
    ("abs_out_requires_grad", FUNCTIONALIZE, Program((Input("b", shape=ONE, kind="nonleaf"),), (
        Statement("t1", "surface.out:abs/4fb65064", ("b", "b")),), ("t1",)),
     ("functionalize_autograd_checks_skipped",)),
    ("soft_margin_loss_into_detach", FUNCTIONALIZE, Program((Input("a", shape=(1, 1)), Input("b", shape=(2, 2))), (
        Statement("t1", "diagonal_scatter", ("a",)), Statement("t5", "abs", ("t1",)),
        Statement("t7", "surface.alias:detach/791b3d49", ("b",)),
        Statement("t8", "surface.out:soft_margin_loss/85882962", ("t7", "t7", "t5"))), ("t8",), forward=True),
     # eagerly the kernel writes its elementwise losses into the out (b's memory) before it reduces: b's other
     # elements hold them (reduction_out_is_input, which names soft_margin_loss since the 2.13.0 top-ups)
     ("functionalize_identity", "functionalize_out_resize_of_alias_view", "functionalize_out_resize_strides",
      "functionalize_written_strides", "reduction_out_is_input")),
    ("any_into_itself", FUNCTIONALIZE, Program((Input("a", dtype="bool", shape=(2,)),), (
        Statement("t1", "surface.out:any/ba43a456", ("a", "a")),), ("t1",)),
     ("functionalize_identity", "reduction_out_is_input")),
    # met by the confirming rerun of the compile.aot_eager command
    ("any_into_float", AOT, Program((Input("c", shape=ONE),), (
        Statement("t1", "surface.out:any/ba43a456", ("c", "c")),), ("t1",)),
     ("inplace_cast_check_lost_compiled",)),
    # the fourth session's campaign (compile.aot_eager, seed 6401, every program shape); no records: by design
    ("fw_primal_after_write", AOT, Program((Input("b", shape=ONE, kind="parameter"),), (
        Statement("t1", "surface.alias:_fw_primal/a5d76c3c", ("b",)),), ("t1",), after=("view_fill_", "b")),
     ("fw_primal_compiled_keeps_tangent",)),
    ("squeeze_after_write_strided", AOT, Program((Input("a", shape=(2,), placement="strided", strided=(3, (2,), 0)),), (
        Statement("t1", "add_", ("a",)), Statement("t2", "squeeze_", ("t1",))), ("a",)),
     ("inplace_view_after_write_offset_lost",)),
    ("foreach_write_after_no_grad_view", AOT, Program((Input("a", shape=(2,), kind="parameter"),), (
        Statement("t1", "unbind", ("a",)), Statement("t2", "surface.inplace:_foreach_log10_/e4f5e08b", ("a",))),
        ("t1",), mode="no_grad"),   # unbind's output: a multi-output view, the other record's too
     ("multi_output_view_of_input_not_a_view", "no_grad_view_foreach_write_unchecked")),
    ("arctan2_of_itself", AOT, Program((Input("a", shape=ONE, kind="nonleaf"),), (
        Statement("t1", "surface.inplace:arctan2_/70d041b6", ("a", "a")),), ("t1",)), ()),
    ("arccosh_dual", AOT, Program((Input("a", shape=ONE),), (
        Statement("t1", "surface.inplace:arccosh_/2336b287", ("a",)),), ("t1",), forward=True),
     ("functionalize_out_forward_ad",)),
    ("foreach_mul_of_itself_dual", AOT, Program((Input("a", shape=(2, 2)),), (
        Statement("t1", "surface.inplace:_foreach_mul_/bd9ab5c0", ("a", "a")),), ("t1",), forward=True),
     ("addcmul_inplace_forward_ad_aliased_operand",)),
]


@pytest.fixture(scope="module")
def surface():
    return surface_vocabulary.vocabulary_of("all")


@opt_in
@needs_compile
@pytest.mark.timeout(1200)   # the fixture builds the vocabulary from every OpInfo sample where no cache has it
@pytest.mark.parametrize(("execution", "program", "records"), [r[1:] for r in REDUCED], ids=[r[0] for r in REDUCED])
def test_each_reduced_program_is_judged_as_triaged(surface, execution, program, records):
    verdict = verdict_of(surface, program, execution)
    assert (verdict.status, verdict.records) == ("known" if records else "by_design", records), verdict


@opt_in
@needs_compile
@pytest.mark.timeout(1200)
def test_a_complex_output_is_in_backward_so_its_input_has_a_gradient_on_both_sides(surface):
    run = differential.run(COMPLEX_BESIDE, AOT)
    for side in (run.eager, run.other):
        assert side.signature["backward||raises"] is None
        assert side.signature["backward|leaf_c|grad"] not in (None, "absent"), side.signature
    assert verdict_of(surface, COMPLEX_BESIDE, AOT).status == "same"

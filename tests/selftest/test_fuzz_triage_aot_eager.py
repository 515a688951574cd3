"""The triage of the leftover of the inductor triage (docs/notes.md): `unbind_then_out_into_detached`
(test_fuzz_triage_inductor.py) raises at the call under compile.aot_eager. Opt-in (COPYSUITE_FUZZ=1: it compiles its
program): the program reduced to the basic vocabulary, one output of unbind of an input that requires grad kept
across the graph break of an out= resize of the input's detached alias, run eagerly and compiled with backend "eager"
and aot_eager (static and dynamic shapes), and judged by the record `dynamo_resume_rebased_multi_output_view`.

And the triage of the 2.14.1 compile.aot_eager top-up runs (seeds 6500-6502, docs/notes.md): opt-in too (the surface
vocabulary must be built or read from its cache), each reduced program run eagerly and under aot_eager and judged as
the triage says, known by its records or by design where it names none; and the condition `written_input` that
mutated_input_strides_lost needs, on hand-built runs."""
import os

import pytest

from copysuite.fuzz import differential, judging, model, signature, surface_vocabulary
from copysuite.fuzz.generate import Input, Program, Statement
from copysuite.run.executions import EXECUTORS
from tests.selftest.triaged import known_by, verdict_of

opt_in = pytest.mark.skipif(os.environ.get("COPYSUITE_FUZZ") != "1",
                            reason="opt-in (COPYSUITE_FUZZ=1, a step of .ci/run): it compiles its program")

UNBIND_THEN_OUT_INTO_DETACHED = Program(
    (Input("a", shape=(3, 4), kind="leaf_requires_grad"), Input("b", shape=(3, 4), alias="a.detach()"),
     Input("c", shape=(2,))),
    (Statement("t1", "unbind", ("a",)), Statement("t2", "out_add", ("b", "c"))), ("t1",))


@opt_in
@pytest.mark.parametrize("execution", ["compile.eager", "compile.aot_eager", "compile.aot_eager.dynamic"])
def test_the_resumed_multi_output_view_is_judged_as_triaged(execution):
    if EXECUTORS[execution].skip_reason() is not None:
        pytest.skip(str(EXECUTORS[execution].skip_reason()))
    run = differential.run(UNBIND_THEN_OUT_INTO_DETACHED, execution)
    differences = signature.differences(run.eager.signature, run.other.signature)
    assert differences.get("call||raises") == [None, "InternalTorchDynamoError"], differences
    verdict = judging.judge(run, execution, differences)
    assert verdict.status == "known" and "dynamo_resume_rebased_multi_output_view" in verdict.records, verdict


AOT = "compile.aot_eager"
ONE = (1,)
LEAF = {"kind": "leaf_requires_grad"}
PARAMETER = {"kind": "parameter"}
OFFSET = {"placement": "offset", "strided": (3, (1,), 2)}   # one element at offset 2 of an arange(3)
S = Statement
LIFT_FRESH_COPY = "surface.functional:lift_fresh_copy/f377baf8"

# each reduced program of the top-up runs' new findings and what the triage says of it (by design where none)
REDUCED = [
    ("foreach_clamp_max_input_written_after", Program(
        (Input("a", dtype="float64", shape=(3, 3, 3), **LEAF),),
        (S("t1", "surface.functional:_foreach_clamp_max/7853fe79", ("a", "a")),), ("t1",),
        after=("detached_zero_", "a")), ("compiled_saved_input_write_unchecked",)),
    ("set_after_gt_at_offset", Program((Input("a", shape=ONE, kind="nonleaf", **OFFSET),), (
        S("t5", "surface.inplace:gt_/bc9a6f67", ("a", "a")), S("t7", "set_", ("t5", "t5"))), ("a",),
        mode="no_grad", state=True), ("mutated_input_strides_lost",)),
    ("copysign_complex_requires_grad", Program(
        (Input("a", shape=ONE), Input("c", dtype="complex64", shape=(3, 1), placement="strided",
                                      strided=(5, (2, 1), 0), **LEAF)),
        (S("t4", "surface.functional:copysign/f88cfd33", ("c", "a")),), ("running",), forward=True, state=True),
     ("relu_complex_autograd_check_first",)),
    ("unused_hardsigmoid_backward_dual", Program((Input("a", shape=ONE),), (
        S("t1", "surface.functional:hardsigmoid_backward/73d5bbfd", ("a", "a")), S("t4", "scatter", ("a",))),
        ("t4",), forward=True), ("unused_op_forward_error_dropped",)),
    ("bitwise_xor_through_uint8_view_dual", Program((Input("a", shape=(2,)),), (
        S("t1", "view_uint8", ("a",)), S("t2", "surface.inplace:absolute_/65e43d9a", ("a",)),
        S("t3", "surface.inplace:bitwise_xor_/53e4f9be", ("t1",))), ("t2",), forward=True),
     ("nondifferentiable_write_keeps_autograd",)),
    ("diagonal_after_data_assign_dual", Program((Input("a", shape=(1, 1), **PARAMETER),), (
        S("t1", "data_assign", ("a", "a")), S("t4", "surface.alias:diagonal/14f9bf2b", ("t1",))), ("t4",),
        mode="no_grad", forward=True), ("data_assignment_input_view_not_a_view",)),
    ("diagonal_after_data_assign", Program((Input("a", shape=(1, 1), **PARAMETER),), (
        S("t1", "data_assign", ("a", "a")), S("t4", "surface.alias:diagonal/14f9bf2b", ("t1",))), ("t4",)),
     ("data_assignment_input_view_not_a_view",)),
    ("copy_then_foreach_erfc_", Program(
        (Input("a", shape=(2,), placement="strided", strided=(3, (2,), 0)), Input("b", alias="a")),
        (S("t3", "surface.functional:copy/bfb52aed", ("b", "a")),
         S("t4", "surface.inplace:_foreach_erfc_/6927c131", ("t3",))), ("t4",)), ("written_input_strides_scatter",)),
    ("native_batch_norm_one_value_per_channel", Program((Input("a", shape=ONE),), (
        S("t1", "surface.alias:contiguous/e529fccd", ("a",)), S("t3", "square", ("t1",)),
        S("t4", "slice_scatter", ("t3",)), S("t5", "surface.functional:diag_embed/5118bffd", ("t4",)),
        S("t6", "surface.functional:_native_batch_norm_legit/256fdf4e", ("t5",))), ("t3",)),
     ("native_batch_norm_one_value_per_channel_compiled",)),
    ("copy_into_itself_dual", Program((Input("b", shape=ONE),), (S("t1", "copy_", ("b", "b")),), ("t1",),
                                      forward=True), ("compiled_forward_ad_unsupported",)),
    ("as_strided_after_data_assign_dual", Program((Input("a", shape=ONE, **OFFSET, **LEAF),), (
        S("t1", "data_assign", ("a", "a")), S("t2", "as_strided_storage_start", ("t1",))), ("a", "t2"),
        mode="no_grad", forward=True), ("compiled_forward_ad_unsupported", "data_assignment_input_view_not_a_view")),
    ("shallow_copy_data_after_write", Program((Input("a", shape=ONE, kind="parameter_frozen", **OFFSET),), (
        S("t1", "pow_one", ("a",)), S("t3", "surface.inplace:divide_/fc7c524f", ("a", "t1")),
        S("t5", "surface.inplace:shallow_copy_data_/e11eea1f", ("t1", "a"))), ("t1",), forward=True),
     ("mutated_input_strides_lost",)),
    ("as_strided_copy_after_write", Program((Input("b", shape=ONE, **OFFSET),), (
        S("t1", "surface.inplace:absolute_/65e43d9a", ("b",)),
        S("t2", "surface.functional:as_strided_copy/178bd4b2", ("t1",))), ("t2",)), ("mutated_input_strides_lost",)),
    ("view_of_returned_dtype_view", Program((Input("a", shape=ONE),), (
        S("t1", "view_int32", ("a",)), S("t2", "out_mul", ("t1", "t1")), S("t3", "view_uint8", ("t2",)),
        S("t4", "surface.alias:_test_autograd_multiple_dispatch_view/0f65cefb", ("t3",))), ("t3", "t4")),
     ("dtype_view_output_base_regenerated",)),
    ("foreach_rsqrt_written_then_requires_grad_off", Program((Input("a", shape=ONE, **PARAMETER),), (
        S("t1", "surface.functional:_foreach_rsqrt/507dcb58", ("a",)), S("t3", "fill_", ("t1",))), ("t3",),
        between=("requires_grad_off", "a")), ()),
    # the 2.13.0 campaign's findings (seeds 6600-6603)
    ("unused_dequantize_is_its_input", Program((Input("a", shape=ONE, kind="nonleaf"),), (
        S("t1", "surface.alias:_autocast_to_full_precision/2ccf8d0d", ("a",)),
        S("t2", "surface.functional:dequantize/1fb8ffdc", ("a",)),
        S("t5", "surface.inplace:ne_/bcc660e3", ("t1", "a"))), ("t5",)), ("schema_functional_aliases",)),
    ("lift_fresh_copy_then_int32_view_dual", Program(
        (Input("a", dtype="complex64", shape=(2, 2), placement="transposed"),), (
            S("t1", "index_put", ("a",)), S("t2", LIFT_FRESH_COPY, ("t1",)), S("t3", "unsqueeze_", ("t2",)),
            S("t4", "view_int32", ("t3",))), ("t2",), forward=True), ("functionalize_lift_fresh_copy_strides",)),
    ("unused_multiple_dispatch_view_dual", Program((Input("a", shape=ONE),), (
        S("t1", "surface.alias:_test_autograd_multiple_dispatch_view/0f65cefb", ("a",)),), ("a",), forward=True),
     ("unused_op_forward_error_dropped",)),
    # found under no_grad, where 2.14.1 keeps the tangent compiled; in grad mode both releases zero it
    ("clamp_through_detach_dual", Program((Input("a", dtype="float64", shape=(2,)),), (
        S("t1", "detach", ("a",)), S("t3", "clamp_", ("t1",))), ("a",), forward=True),
     ("compiled_detached_write_resets_tangent",)),
    ("fw_primal_after_abs_at_offset", Program((Input("a", shape=ONE, kind="nonleaf", placement="offset"),), (
        S("t1", "surface.inplace:abs_/a834c0d3", ("a",)), S("t2", "surface.alias:_fw_primal/a5d76c3c", ("t1",))),
        ("t2",)), ("fw_primal_after_write_not_a_view", "fw_primal_compiled_keeps_tangent",
                   "inplace_input_saved_backward_compiled")),
    ("lift_fresh_copy_of_transposed_dual", Program((Input("a", shape=(2, 2), placement="transposed"),), (
        S("t1", "index_put", ("a",)), S("t2", LIFT_FRESH_COPY, ("t1",))), ("t2",), forward=True),
     ("functionalize_lift_fresh_copy_strides",)),
    ("transpose_of_to_after_out_resize", Program((Input("a", shape=(2,)),), (
        S("t1", "surface.out:unfold_copy/80421ba4", ("a", "a")),
        S("t2", "surface.inplace:logical_or_/26ab6739", ("a", "t1")),
        S("t3", "to_same", ("t1",)), S("t4", "surface.functional:isposinf/a6634f60", ("t1",)),
        S("t5", "view_uint8", ("t4",)), S("t7", "transpose_", ("t3",)), S("t8", "minus_zero", ("t5",))), ("t8",),
        mode="no_grad"), ("input_write_then_inplace_view_compiled",)),
    ("addcdiv_complex_over_zero", Program(
        (Input("a", dtype="complex64", shape=(2, 1)), Input("b", shape=ONE)),
        (S("t1", "surface.functional:addcdiv/dcef4876", ("b", "a", "b")),), ("t1",)),
     ("complex_infinity_times_promoted_scalar",)),
    ("scatter_into_foreach_trunc_of_transposed", Program((Input("a", shape=(2, 2), placement="transposed"),), (
        S("t1", "surface.functional:_foreach_trunc/85b33af3", ("a",)), S("t2", "scatter_", ("t1",)),
        S("t3", "surface.functional:_foreach_frac/22251bef", ("t2",))), ("t3",)), ("written_input_strides_scatter",)),
    # the 2.13.0 campaign (seed 6603): pow_ writes the input whose conj view the backward saved; by design
    # (saved_tensor_written_fails_at_compile) once backward starts from complex outputs too (signature.loss)
    ("pow_of_its_conj_view", Program(
        (Input("a", dtype="complex64", shape=(4, 1, 4), placement="strided", kind="nonleaf"),),
        (S("t1", "surface.alias:_conj/e4a39de6", ("a",)), S("t2", "surface.inplace:pow_/1adfe841", ("a", "t1")),
         S("t3", "surface.alias:swapdims/3a045628", ("t1",))), ("t3",)), ()),
    # a fresh seed after that change (6700): an in-place op on an input, then `.data =` of it
    ("hardsigmoid_then_data_assign", Program((Input("c", shape=ONE),), (
        S("t1", "surface.inplace:hardsigmoid_/19eca378", ("c",)), S("t2", "data_assign", ("c", "c"))), ("t2",)),
     ("set_after_input_mutation_banned",)),
]


def test_a_stride_sensitive_op_loses_strides_only_after_a_write_to_an_input():
    """mutated_input_strides_lost (issue 133512: functionalization does not keep a mutated input's strides for the
    stride-sensitive op that reads it next) explains an as_strided_copy's values only in a program that eagerly wrote
    an input; the same difference where no input's version counter moved (as_strided_copy then meshgrid, which writes
    nothing) stays new."""
    program = Program((Input("b", shape=ONE, **OFFSET),), (
        S("t1", "surface.inplace:absolute_/65e43d9a", ("b",)),
        S("t2", "surface.functional:as_strided_copy/178bd4b2", ("t1",))), ("t2",))

    def judged(written):
        eager = differential.Side({"in|b|version_moved": written}, None)
        run = differential.Run(program, eager, differential.Side({"in|b|version_moved": written}, None), {}, AOT)
        return model.judge(run, AOT, {"out|t2|values": [[2.0], [0.0]]})

    assert judged(True).records == known_by("mutated_input_strides_lost")[1]
    assert judged(False).status == "new"


@pytest.fixture(scope="module")
def surface():
    return surface_vocabulary.vocabulary_of("all")


@opt_in
@pytest.mark.skipif(EXECUTORS[AOT].skip_reason() is not None, reason=str(EXECUTORS[AOT].skip_reason()))
@pytest.mark.timeout(1200)   # the fixture builds the vocabulary from every OpInfo sample where no cache has it
@pytest.mark.parametrize(("program", "records"), [r[1:] for r in REDUCED], ids=[r[0] for r in REDUCED])
def test_each_top_up_program_is_judged_as_triaged(surface, program, records):
    verdict = verdict_of(surface, program, AOT)
    assert (verdict.status, verdict.records) == ("known" if records else "by_design", records), verdict

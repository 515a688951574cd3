"""The triage of the 2.14.1 functionalize campaign's new findings (seed 6403, and the top-ups 6520 and 6521) and of
the 2.13.0 top-ups (6620, 6621, 6622; docs/notes.md): opt-in
(COPYSUITE_FUZZ=1: the surface vocabulary must be built or read from its cache), each reduced program run eagerly and
under torch.func.functionalize and judged as the triage says; on a release outside a record's range the program
holds."""
import os

import pytest
from packaging.specifiers import SpecifierSet

from copysuite.fuzz import record, surface_vocabulary
from copysuite.fuzz.generate import Input, Program, Statement
from tests.selftest.triaged import since, verdict_of

FUNCTIONALIZE = "functionalize"
opt_in = pytest.mark.skipif(os.environ.get("COPYSUITE_FUZZ") != "1",
                            reason="opt-in (COPYSUITE_FUZZ=1, a step of .ci/run): it builds the surface vocabulary")
ONE = (1,)
LEAF = {"kind": "leaf_requires_grad"}
NONLEAF = {"kind": "nonleaf"}
IDENTITY, SNAPSHOT = "functionalize_identity", "functionalize_overlapping_write_snapshot"
RESIZED, WRITTEN, FORWARD = ("functionalize_views_of_resized_base", "functionalize_written_strides",
                             "functionalize_out_forward_ad")
METADATA, REDUCTION = "functionalize_input_metadata_mutation", "reduction_out_is_input"
LOGADDEXP = "surface.out:logaddexp/4c64ea4b"
CAST, ALIAS_VIEW = "functionalize_cast_check_lost", "functionalize_out_resize_of_alias_view"


# each reduced program of the campaign's findings and what the triage says of it
REDUCED = [
    ("absolute_out_into_itself", Program((Input("a", shape=ONE),), (
        Statement("t1", "surface.out:absolute/9a679353", ("a", "a")),), ("t1",)),
     ("functionalize_inplace_alias_ops",)),
    ("acosh_dual", Program((Input("c", shape=ONE),), (
        Statement("t1", "surface.inplace:acosh_/fa335ed1", ("c",)),), ("t1",), forward=True),
     (IDENTITY, "functionalize_out_forward_ad")),
    ("logical_xor_dual", Program((Input("a", shape=ONE),), (
        Statement("t1", "surface.inplace:logical_xor_/027c7869", ("a", "a")),), ("a",), forward=True),
     (IDENTITY, SNAPSHOT, "nondifferentiable_write_keeps_autograd")),
    ("clamp_max_then_logical_or_out", Program((Input("a", shape=ONE, **LEAF), Input("b", shape=ONE)), (
        Statement("t1", "surface.inplace:clamp_max_/e645729f", ("b", "a")),
        Statement("t2", "surface.out:logical_or/40cceb6f", ("b", "b", "b"))), ("t1",)),
     ("functionalize_autograd", IDENTITY, "nondifferentiable_write_keeps_autograd")),
    ("flatten_dense_tensors_written", Program((Input("a", shape=(2,)),), (
        Statement("t1", "surface.functional:flatten_dense_tensors/d34616d8", ("a",)),
        Statement("t2", "zero_", ("t1",))), ("a",)),
     ("schema_functional_aliases",)),
    ("diagonal_copy_into_unsqueezed", Program((Input("a", shape=(2, 1)),), (
        Statement("t1", "surface.alias:unsqueeze/8d0f51a9", ("a",)), Statement("t2", "select_scatter", ("a",)),
        Statement("t3", "surface.out:diagonal_copy/cb4f5782", ("t1", "t1"))), ("t2",)),
     ("functionalize_out_resize_of_alias_view", "functionalize_out_resize_strides", "functionalize_written_strides")),
    ("narrow_copy_into_itself", Program((Input("a", shape=(4, 4)),), (
        Statement("t1", "surface.out:narrow_copy/59d3cc80", ("a", "a")),), ("t1",), forward=True),
     (IDENTITY, "reduction_out_is_input")),
    ("dequantize_squeeze_", Program((Input("b", shape=(1, 2)),), (
        Statement("t1", "surface.functional:dequantize/1fb8ffdc", ("b",)),
        Statement("t2", "surface.inplace:squeeze_/549e750e", ("t1",))), ("b",)),
     ("schema_functional_aliases",)),
    ("ldexp_out_into_unsqueezed", Program((Input("a", shape=ONE), Input("b", shape=(2,))), (
        Statement("t1", "unsqueeze_", ("a",)), Statement("t3", "surface.out:ldexp/9aac34f7", ("a", "b"))), ("t1",)),
     (IDENTITY, "functionalize_input_metadata_mutation", "functionalize_out_resize_strides",
      "functionalize_views_of_resized_base", "functionalize_written_strides",
      "inplace_view_of_intermediate_returned_as_view")),
    ("lift_fresh_copy_transposed", Program((Input("a", shape=(2, 2), placement="as_strided", strided=(4, (1, 2), 0)),),
                                           (Statement("t1", "surface.functional:lift_fresh_copy/f377baf8", ("a",)),),
                                           ("t1",)),
     ("functionalize_lift_fresh_copy_strides",)),
    ("transpose_copy_into_offset", Program((Input("a", shape=(1, 1), placement="as_strided",
                                                  strided=(3, (1, 1), 2)),), (
        Statement("t1", "surface.out:transpose_copy/b155c477", ("a", "a")),
        Statement("t2", "surface.functional:as_strided_copy/178bd4b2", ("a",))), ("t2",)),
     ("functionalize_as_strided_base_storage",)),
    # the top-ups (seeds 6520, 6521)
    ("diagonal_copy_out_into_leaf_no_grad", Program((Input("a", shape=(2, 2), **LEAF),), (
        Statement("t1", "surface.out:diagonal_copy/cb4f5782", ("a", "a")), Statement("t2", "unbind", ("t1",)),
        Statement("t4", "square", ("t2",))), ("t4",), mode="no_grad"),
     ("functionalize_input_resize_refused",)),
    ("alias_copy_out_dual", Program((Input("a", shape=ONE),), (
        Statement("t2", "surface.out:alias_copy/2a55078a", ("a", "a")),), ("t2",), forward=True),
     (IDENTITY, FORWARD)),
    ("unsqueeze_copy_out_dual_offset", Program((Input("a", shape=ONE, placement="as_strided", strided=(3, (1,), 2)),), (
        Statement("t1", "to_same", ("a",)), Statement("t2", "surface.out:unsqueeze_copy/ad55629f", ("a", "t1")),
        Statement("t3", "surface.functional:as_strided_copy/178bd4b2", ("t1",))), ("t3",), forward=True),
     ("functionalize_as_strided_base_storage", FORWARD)),
    ("pinv_out_into_atleast_2d", Program((Input("a", shape=(1, 3)),), (
        Statement("t1", "surface.functional:atleast_2d/5eaa5d89", ("a",)),
        Statement("t2", "surface.out:linalg_pinv/2a8c3a23", ("t1", "a"))), ("t2",)),
     ("functionalize_atleast_nd_write_not_replayed", IDENTITY, "functionalize_out_resize_strides", WRITTEN)),
    ("vector_norm_out_into_itself", Program((Input("a", shape=(2, 1)),), (
        Statement("t1", "surface.out:linalg_vector_norm/980b1da2", ("a", "a")),), ("t1",)),
     (IDENTITY, REDUCTION)),
    ("as_strided_of_squeezed_input", Program((Input("a", shape=(1, 3), placement="as_strided", strided=(5, (5, 2), 0)),
                                              Input("c", shape=ONE)), (
        Statement("t2", "surface.alias:squeeze/22e3a9cc", ("a",)),
        Statement("t4", "surface.inplace:as_strided_/911cf04e", ("t2",))), ("c",)),
     (METADATA,)),
    ("unfold_copy_out_resizes_split_base", Program((Input("a", shape=(1, 1)),), (
        Statement("t1", "surface.alias:_neg_view/7b6240ee", ("a",)),
        Statement("t2", "surface.alias:split/3054e416", ("t1",)),
        Statement("t7", "surface.out:unfold_copy/80421ba4", ("t1", "t1"))), ("t2",)),
     # the out= resize of a's neg view resizes a itself functionalized (in.geometry): the alias-view record since the
     # 2.13.0 top-ups named _neg_view
     (IDENTITY, ALIAS_VIEW, "functionalize_out_resize_strides", RESIZED, WRITTEN)),
    ("narrow_copy_out_resizes_fw_primal_base", Program((Input("b", shape=(2, 4, 2), placement="as_strided",
                                                              strided=(24, (16, 2, 1), 0)),), (
        Statement("t1", "surface.alias:_fw_primal/a5d76c3c", ("b",)),
        Statement("t2", "surface.alias:positive/fb2653b4", ("b",)),
        Statement("t3", "surface.out:narrow_copy/39cf99f3", ("t2", "b"))), ("t1",)),
     (IDENTITY, RESIZED, WRITTEN, REDUCTION)),
    ("unsqueeze_nonleaf_no_grad_dual", Program((Input("b", shape=ONE, **NONLEAF),), (
        Statement("t1", "unsqueeze_", ("b",)),), ("t1",), mode="no_grad", forward=True),
     ("functionalize_autograd", IDENTITY, "functionalize_inplace_view_no_grad_output", METADATA,
      "inplace_view_of_intermediate_returned_as_view")),
    ("lift_twice_dual", Program((Input("a", shape=ONE),), (
        Statement("t1", "surface.functional:lift/eb2ba831", ("a",)),
        Statement("t2", "surface.functional:lift/eb2ba831", ("t1",))), ("t2",), forward=True),
     ("schema_functional_aliases",)),
    ("lift_offset_dual", Program((Input("c", shape=ONE, placement="as_strided", strided=(3, (1,), 2)),), (
        Statement("t1", "surface.functional:lift/eb2ba831", ("c",)),), ("t1",), forward=True),
     ("schema_functional_aliases",)),
    ("mean_out_into_addcmul_out", Program((Input("a", shape=(2,)),), (
        Statement("t1", "surface.out:addcmul/0102b534", ("a", "a", "a", "a")),
        Statement("t2", "surface.out:mean/9374c83c", ("t1", "a"))), ("t2",)),
     (IDENTITY, REDUCTION)),
    ("logaddexp_out_resizes_select_base", Program((Input("a", shape=(2, 2, 2)),), (
        Statement("t1", "scatter", ("a",)), Statement("t2", "select", ("t1",)), Statement("t3", "narrow", ("t2",)),
        Statement("t5", LOGADDEXP, ("t1", "t3"))), ("t3",), forward=True),
     (FORWARD, RESIZED, WRITTEN)),
    ("transpose_square_input_between_calls", Program((Input("a", shape=(2, 2), placement="as_strided",
                                                            strided=(6, (4, 1), 0)),), (
        Statement("t1", "transpose_", ("a",)), Statement("t2", "plus_zero", ("t1",))), ("t2",),
        between=("transpose_", "a")),
     (METADATA,)),
    ("logaddexp_out_resizes_slice_base", Program((Input("a", shape=(2, 2)),), (
        Statement("t1", "scatter", ("a",)), Statement("t2", "narrow", ("t1",)), Statement("t3", "narrow", ("t2",)),
        Statement("t4", "slice", ("t3",)), Statement("t5", LOGADDEXP, ("t1", "t3"))), ("t4", "t5"), forward=True),
     (FORWARD, RESIZED, WRITTEN)),
    # the 2.13.0 top-ups (seeds 6620, 6621, 6622)
    ("abs_out_into_bool", Program((Input("b", dtype="bool", shape=ONE), Input("c", shape=ONE)), (
        Statement("t1", "surface.out:abs/4fb65064", ("b", "c")),), ("t1",)),
     (CAST,)),
    ("as_strided_of_dual_input", Program((Input("a", shape=(2,)), Input("b", dtype="bool", shape=ONE)), (
        Statement("t1", "unsqueeze_", ("b",)), Statement("t2", "surface.out:fill/63360ae6", ("t1", "t1")),
        Statement("t3", "slice_scatter", ("t2",)), Statement("t4", "as_strided_", ("a",))), ("t3",), forward=True),
     ("functionalize_input_resize_refused",)),
    ("foreach_minimum_into_detach_dual", Program((Input("a", shape=ONE),), (
        Statement("t1", "relu", ("a",)), Statement("t2", "detach", ("t1",)), Statement("t4", "contiguous", ("a",)),
        Statement("t5", "surface.inplace:_foreach_minimum_/1d219216", ("t2", "t4"))), ("t5",), forward=True),
     ("functionalize_detach_write_tangent_lost",)),
    ("avg_pool2d_out_into_itself", Program((Input("b", shape=(2, 2, 2)), Input("c", shape=ONE)), (
        Statement("t1", "surface.inplace:logical_and_/27201638", ("c",)),
        Statement("t2", "surface.out:avg_pool2d/1cbf6c70", ("b", "b"))), ("t1",), forward=True),
     (IDENTITY, FORWARD, SNAPSHOT)),
    ("as_strided_copy_out_into_expand", Program((Input("a", shape=(2,)),), (
        Statement("t1", "expand", ("a",)), Statement("t2", "surface.out:as_strided_copy/9a555d82", ("t1", "a"))),
        ("t2",), forward=True),
     ("functionalize_autograd", IDENTITY, FORWARD, ALIAS_VIEW, WRITTEN)),
    ("soft_margin_loss_out_into_itself", Program((Input("a", shape=(2, 1)),), (
        Statement("t2", "surface.out:soft_margin_loss/85882962", ("a", "a", "a")),), ("a",)),
     (IDENTITY, REDUCTION)),
    ("ceil_out_into_complex", Program((Input("a", dtype="complex64", shape=ONE),), (
        Statement("t1", "surface.alias:to/dd35af03", ("a",)), Statement("t2", "surface.out:ceil/e401863d", ("a", "t1")),
        Statement("t3", "surface.alias:unflatten/64152907", ("a",))), ("t3",)),
     (CAST,)),
    ("fmod_into_itself_dual", Program((Input("b", shape=(2,)),), (
        Statement("t1", "neg_", ("b",)), Statement("t3", "surface.inplace:fmod_/b646dd16", ("t1", "t1"))), ("t1",),
        forward=True),
     ("addcmul_inplace_forward_ad_aliased_operand", IDENTITY, SNAPSHOT)),
    ("add_out_into_neg_view", Program((Input("b", shape=ONE),), (
        Statement("t1", "surface.alias:_neg_view/7b6240ee", ("b",)),
        Statement("t2", "surface.alias:_neg_view/7b6240ee", ("t1",)),
        Statement("t3", "surface.out:add/2cae8155", ("t2", "t1")),
        Statement("t4", "surface.inplace:acosh_/fa335ed1", ("t3",))), ("t4",)),
     (IDENTITY, ALIAS_VIEW, "functionalize_out_resize_strides", WRITTEN)),
    ("slice_copy_out_into_flatten", Program((Input("a", shape=(1, 1)),), (
        Statement("t2", "surface.alias:flatten/2abded0e", ("a",)),
        Statement("t3", "surface.out:slice_copy/a08899f8", ("t2", "a"))), ("t3",)),
     (IDENTITY, ALIAS_VIEW, WRITTEN)),
    ("take_out_into_itself", Program((Input("a", shape=(1, 1)),), (
        Statement("t1", "surface.functional:linalg_matrix_exp/e6751117", ("a",)),
        Statement("t2", "surface.out:logical_not/88d67c91", ("t1", "t1")),
        Statement("t3", "surface.out:take/ac5ce582", ("t2", "t2"))), ("a",)),
     ("functionalize_overlap_unchecked",)),
    ("le_into_slice_scatter_dual", Program((Input("a", shape=(1, 1)),), (
        Statement("t2", "setitem", ("a",)), Statement("t3", "surface.alias:transpose/2ebab704", ("t2",)),
        Statement("t5", "slice_scatter_from", ("t3", "a")),
        Statement("t6", "surface.inplace:le_/8fb752f1", ("t5", "t3"))), ("t5",), forward=True),
     ("functionalize_comparison_inplace_tangent_dropped",)),
    ("linear_out_into_itself", Program((Input("a", shape=(3,)),), (
        Statement("t1", "surface.out:linear/c2315d59", ("a", "a")),), ("t1",)),
     (IDENTITY, WRITTEN, REDUCTION)),
]


@pytest.fixture(scope="module")
def surface():
    return surface_vocabulary.vocabulary_of("all")


@opt_in
@pytest.mark.timeout(1200)   # the fixture builds the vocabulary from every OpInfo sample where no cache has it
@pytest.mark.parametrize(("program", "records"), [r[1:] for r in REDUCED], ids=[r[0] for r in REDUCED])
def test_each_reduced_program_is_judged_as_triaged(surface, program, records):
    verdict = verdict_of(surface, program, FUNCTIONALIZE)
    if all(record.TORCH in SpecifierSet(since(name)) for name in records):
        assert (verdict.status, verdict.records) == ("known", records), verdict
    else:   # a release before the bug: the program holds
        assert verdict.status == "same", verdict

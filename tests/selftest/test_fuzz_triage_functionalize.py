"""The triage of the 2.14.1 functionalize campaign's eleven new findings (seed 6403; docs/notes.md): opt-in
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
IDENTITY, SNAPSHOT = "functionalize_identity", "functionalize_overlapping_write_snapshot"


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

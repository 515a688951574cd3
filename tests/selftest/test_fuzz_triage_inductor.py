"""The triage of the 2.14.1 surface campaign's compile.inductor findings and of its top-up runs (docs/notes.md): the
conditions records of it needed (`execution_ran` asked of the forward-mode call for a forward-mode field,
`beside_returned_written_input`) on hand-built runs, and, opt-in
(COPYSUITE_FUZZ=1: each compiles its program, and the surface vocabulary must be built or read from its cache), each
reduced program run eagerly and under inductor and judged as the triage says; on a release outside the records'
range the program holds (or differs by design only, where BEFORE says so)."""
import dataclasses
import os

import pytest
from packaging.specifiers import SpecifierSet

from copysuite.fuzz import differential, model, record, surface_vocabulary
from copysuite.fuzz.generate import Input, Program, Statement
from tests.selftest.triaged import known_by, since, verdict_of
from copysuite.run.executions import EXECUTORS

INDUCTOR = "compile.inductor"
opt_in = pytest.mark.skipif(os.environ.get("COPYSUITE_FUZZ") != "1",
                            reason="opt-in (COPYSUITE_FUZZ=1, a step of .ci/run): it compiles its programs")
needs_compile = pytest.mark.skipif(EXECUTORS[INDUCTOR].skip_reason() is not None,
                                   reason=str(EXECUTORS[INDUCTOR].skip_reason()))
ONE = (1,)
LEAF = {"kind": "leaf_requires_grad"}
CHUNK, SLICE_COPY = "surface.alias:chunk/86208325", "surface.out:slice_copy/a08899f8"
FW_PRIMAL, CONJ = "surface.alias:_fw_primal/a5d76c3c", "surface.alias:conj/7aa4603f"


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

    assert judged(None, ["NotImplementedError", None]).records == known_by("inductor_forward_ad_tangents_dropped")[1]
    assert judged("RuntimeError: other", [None, "RuntimeError"], eager_error=None).status == "new"


def test_an_input_is_overwritten_only_beside_a_written_input_returned_as_it_is():
    """returned_written_input_copied_into_grad_input explains an input's values only for an input that requires grad
    and was written, where another written input is returned as it is; the other input returned as a clone, or the
    input needing no grad, stays new."""
    program = Program((Input("a", shape=(2, 3), kind="nonleaf"), Input("r", shape=(3,))), (
        Statement("t1", "neg_", ("a",)), Statement("t2", "surface.inplace:arccos_/171a35b4", ("r",))), ("t2",))

    def judged(same_object=True, requires_grad=True, field="in|a|values"):
        eager = differential.Side({"in|a|version_moved": True, "in|r|version_moved": True,
                                   "in|a|requires_grad": requires_grad, "pair|in:r~out:t2|same_object": same_object,
                                   "pair|in:a~out:t2|same_object": False}, None)
        run = differential.Run(program, eager, differential.Side({}, None), {}, INDUCTOR)
        return model.judge(run, INDUCTOR, {field: [[-0.0, -1.0], [1.5708, 0.0]]})

    written = "returned_written_input_copied_into_grad_input"
    assert judged().records == known_by(written)[1]
    assert judged(same_object=False).status == "new"
    assert judged(requires_grad=False).status == "new"
    assert judged(field="in|r|values").status == "new"


def test_a_view_of_a_dtype_view_is_known_only_where_eager_viewed_an_output():
    """dtype_view_output_base_regenerated explains whose view an output is only where eagerly it is a view of another
    output (`eager_value`); an output that eagerly views an input, in a program with a dtype view too, stays new."""
    program = Program((Input("a", shape=ONE),), (Statement("t1", "view_uint8", ("a",)),
                                                 Statement("t2", "as_strided_storage_start", ("t1",))), ("t1", "t2"))
    side = differential.Side({}, None)

    def judged(eager, other):
        return model.judge(differential.Run(program, side, side, {}, INDUCTOR), INDUCTOR,
                           {"out|t2|view_of": [eager, other]})

    assert judged("out:t1", "an intermediate").records == known_by("dtype_view_output_base_regenerated")[1]
    assert judged("in:a", "an intermediate").status == "new"


def test_a_view_of_an_output_is_unregenerated_only_where_inductor_returns_no_view():
    """inductor_view_of_output_not_regenerated explains whose view an output is only where inductor returns no view
    (`other_value`): a view of another tensor there, as a dtype view's, is not this record's."""
    program = Program((Input("a", shape=(4, 1, 1)),), (Statement("t3", "scatter", ("a",)),
                                                       Statement("t4", "as_strided_storage_start", ("t3",))),
                      ("t3", "t4"), mode="no_grad")
    side = differential.Side({}, None)

    def judged(other):
        return model.judge(differential.Run(program, side, side, {}, INDUCTOR), INDUCTOR,
                           {"out|t4|view_of": ["out:t3", other]})

    assert judged(None).records == known_by("inductor_view_of_output_not_regenerated")[1]
    assert judged("an intermediate").status == "new"


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
    # the top-up runs (seeds 6510 and 6511)
    ("chunk_then_input_written", Program((Input("a", shape=(2, 2), **LEAF),), (
        Statement("t1", CHUNK, ("a",)),), ("t1",), after=("zero_", "a"), state=True),
     ("multi_output_view_of_input_not_a_view",)),
    ("expm1_of_strided_nonleaf_dual", Program(
        (Input("a", shape=(3, 1), placement="strided", kind="nonleaf", strided=(5, (1, 1), 2)),),
        (Statement("t1", "surface.inplace:expm1_/c347c001", ("a",)),), ("a",), forward=True),
     ("compiled_forward_ad_unsupported", "inductor_cpu_expm1_scalar_ulp")),
    ("minus_zero_of_leaf_no_grad", Program((Input("a", shape=ONE, **LEAF),), (
        Statement("t1", "minus_zero", ("a",)),), ("t1",), mode="no_grad"),
     ("inductor_noop_returns_input",)),
    ("abs_of_bool_vectorized", Program((Input("c", dtype="bool", shape=(3, 4)),), (
        Statement("t1", "surface.out:abs/4fb65064", ("c", "c")),
        Statement("t2", "surface.inplace:_add_relu_/4f1bf9bd", ("t1",)),
        Statement("t3", "surface.alias:_neg_view/7b6240ee", ("t2",)),
        Statement("t4", "surface.inplace:_add_relu_/4f1bf9bd", ("t3",))), ("t4",)),
     ("inductor_abs_bool_vectorized_compile_error",)),
    ("meshgrid_of_copy_dual", Program((Input("a", shape=ONE),), (
        Statement("t1", "surface.functional:as_strided_copy/178bd4b2", ("a",)),
        Statement("t2", "surface.functional:meshgrid/645e0128", ("t1",))), ("t1", "t2"), forward=True),
     ("inductor_forward_ad_tangents_dropped", "inductor_noop_view_returns_its_base",
      "input_view_returned_twice_two_objects")),
    ("conv1d_beside_its_minus_zero", Program((Input("b", shape=(4, 3, 2), **LEAF),), (
        Statement("t1", "surface.functional:conv1d/cdc7cf77", ("b",)), Statement("t2", "requires_grad_", ("t1",)),
        Statement("t4", "minus_zero", ("t1",))), ("t2", "t4")),
     ("inductor_noop_returns_input", "input_view_returned_twice_two_objects")),
    ("addcmul_then_slice_copy_as_strided_", Program((Input("a", shape=(1, 3, 2), placement="strided",
                                                           strided=(8, (6, 2, 1), 2)),), (
        Statement("t2", "surface.functional:addcmul/23d967e6", ("a", "a", "a")),
        Statement("t3", SLICE_COPY, ("a", "a")), Statement("t5", "as_strided_", ("t3",))), ("t2",)),
     ("as_strided_after_write_offset_lost", "input_write_then_inplace_view_compiled")),
    ("slice_copy_then_as_strided_", Program((Input("a", shape=ONE, placement="strided", strided=(3, (1,), 2)),), (
        Statement("t3", SLICE_COPY, ("a", "a")), Statement("t5", "as_strided_", ("t3",))), ("t5",)),
     ("as_strided_after_write_offset_lost", "input_write_then_inplace_view_compiled")),
    ("input_and_buffer_written_buffer_returned", Program((Input("a", shape=(2, 3), kind="nonleaf"),), (
        Statement("t1", "neg_", ("a",)), Statement("t2", "surface.inplace:arccos_/171a35b4", ("running",))), ("t2",),
        forward=True, state=True),
     ("compiled_forward_ad_unsupported", "returned_written_input_copied_into_grad_input")),
    ("fw_primal_after_data_assign", Program((Input("a", shape=ONE), Input("b", shape=ONE)), (
        Statement("t1", "detach_", ("b",)), Statement("t2", "data_assign", ("b", "a")),
        Statement("t3", FW_PRIMAL, ("t2",))), ("t3",)),
     ("data_assignment_on_aliased_inputs", "detach_alias_copied", "inductor_noop_view_returns_its_base")),
    ("conj_of_fw_primal_of_intermediate", Program((Input("a", shape=ONE),), (
        Statement("t1", "surface.functional:max/223a4f9a", ("a",)),
        Statement("t2", "surface.functional:acos/dfff8687", ("t1",)), Statement("t4", CONJ, ("t2",)),
        Statement("t5", FW_PRIMAL, ("t4",)), Statement("t6", CONJ, ("t5",))), ("t4", "t6")),
     ("inductor_noop_view_returns_its_base", "input_view_returned_twice_two_objects")),
    ("as_strided_of_dtype_view", Program((Input("a", shape=ONE),), (
        Statement("t1", "view_uint8", ("a",)), Statement("t2", "as_strided_storage_start", ("t1",))), ("t1", "t2")),
     ("dtype_view_output_base_regenerated",)),
    ("absolute_of_complex_into_itself", Program((Input("b", dtype="complex64", shape=ONE),), (
        Statement("t1", "surface.alias:_autocast_to_full_precision/2ccf8d0d", ("b",)),
        Statement("t2", "surface.out:absolute/9a679353", ("t1", "t1")),
        Statement("t3", "surface.alias:_autocast_to_reduced_precision/053897ff", ("t2",))), ("t3",)),
     ("abs_complex_out_meta_dtype",)),
    # the 2.13.0 campaign (seeds 6610-6612)
    ("addcmul_of_integers_called_twice", Program((Input("a", shape=ONE), Input("b", dtype="int64", shape=(2,))), (
        Statement("t1", "surface.inplace:addcmul_/2b3e965c", ("b", "b", "b")),), ("t1",),
        between=("requires_grad_on", "a")),
     ("addcmul_inplace_integer_float_value_compiled",)),
    ("remainder_then_diagonal_scatter", Program((Input("a", shape=(2, 2)),), (
        Statement("t1", "surface.inplace:remainder_/63130f2c", ("a", "a")),
        Statement("t2", "diagonal_scatter", ("t1",))), ("t2",)),
     ("inductor_mul_zero_folds_nan",)),
    ("fw_primal_of_written_nonleaf", Program((Input("b", shape=ONE, kind="nonleaf"),), (
        Statement("t1", "surface.inplace:acos_/b58fcb60", ("b",)), Statement("t2", FW_PRIMAL, ("t1",))), ("t2",)),
     ("fw_primal_compiled_keeps_tangent", "inductor_noop_view_returns_its_base",
      "inplace_input_saved_backward_compiled")),
    ("as_strided_of_returned_scatter", Program((Input("a", shape=(4, 1, 1), kind="parameter"),), (
        Statement("t3", "scatter", ("a",)), Statement("t4", "as_strided_storage_start", ("t3",))), ("t3", "t4"),
        mode="no_grad"),
     ("inductor_view_of_output_not_regenerated",)),
    ("arctan2_then_overwritten", Program((Input("a", shape=(3,), kind="nonleaf"),
                                          Input("b", dtype="bool", shape=ONE)), (
        Statement("t1", "surface.inplace:arctan2_/70d041b6", ("a", "b")), Statement("t2", "setitem_from", ("t1", "b"))),
        ("a",), between=("transpose_", "b")),
     ("compiled_saved_input_write_unchecked",)),
    ("index_fill_out_of_bounds", Program((Input("c", shape=(4, 2)),), (
        Statement("t1", "surface.inplace:index_fill_/92a53f38", ("c",)),), ("c",)),
     ("inductor_cpu_index_bounds_runtime_error",)),
    # a fresh seed after backward started from complex outputs (2.13.0, seed 6710)
    ("unsqueeze_copy_of_unbind_copy", Program((Input("a", shape=ONE, kind="nonleaf"),), (
        Statement("t1", "surface.functional:unbind_copy/60a559b6", ("a",)),
        Statement("t2", "surface.functional:unsqueeze_copy/a6c83489", ("t1",))), ("t2",), mode="no_grad"),
     ("copy_view_chain_returns_input_inductor",)),
    ("hardtanh_backward_complex", Program((Input("a", dtype="complex64", shape=(1, 1, 3), placement="offset",
                                                 kind="parameter"),), (
        Statement("t1", "surface.functional:hardtanh_backward/13d384fe", ("a", "a")),), ("t1",)),
     ("relu_complex_autograd_check_first",)),
    ("conj_physical_then_inplace_views", Program((Input("a", shape=(2, 1)),), (
        Statement("t1", "surface.inplace:conj_physical_/b898f947", ("a",)), Statement("t2", "transpose_", ("t1",)),
        Statement("t3", "as_strided_", ("t2",))), ("t3",), mode="no_grad"),
     ("inplace_view_after_write_offset_lost", "input_write_then_inplace_view_compiled")),
]
# what a program shows on a release before its records, where not "same"
BEFORE = {"conv1d_beside_its_minus_zero": "by_design"}   # outputs_are_siblings: autograd.grad finds no path
# records that also explain a program where their range holds (the releases before a fix)
ALSO = {"fw_primal_after_data_assign": ("data_assignment_version",)}   # in.version_moved, before 2.14


@pytest.fixture(scope="module")
def surface():
    return surface_vocabulary.vocabulary_of("all")


@opt_in
@needs_compile
@pytest.mark.timeout(1200)   # the fixture builds the vocabulary from every OpInfo sample where no cache has it
@pytest.mark.parametrize(("name", "program", "records"), REDUCED, ids=[r[0] for r in REDUCED])
def test_each_reduced_program_is_judged_as_triaged(surface, name, program, records):
    verdict = verdict_of(surface, program, INDUCTOR)
    also = tuple(r for r in ALSO.get(name, ()) if record.TORCH in SpecifierSet(since(r)))
    if all(record.TORCH in SpecifierSet(since(r)) for r in records):
        assert (verdict.status, verdict.records) == ("known", tuple(sorted(records + also))), verdict
    else:   # a release before the bug: the program holds
        assert verdict.status == BEFORE.get(name, "same"), verdict

"""The triage of the surface campaign's export.decomposed findings (docs/notes.md): the variant's rule
`inference_ir_autograd_state` and the records of run_decompositions() (each naming its variant) on hand-built runs;
a reproduction that shows a subclass output; and, opt-in (COPYSUITE_FUZZ=1: each exports its programs), one minimal
program per record run eagerly and under export.decomposed, judged as the triage says, and the same program under
export alone judged the same as eager; the reduced programs of the 2.14.1 top-ups (seeds 6530, 6531) and the
2.13.0 ones (6630, 6631, 6632), each judged with the records the triage gives it."""
import os

import pytest
import torch
from packaging.specifiers import SpecifierSet

from copysuite.fuzz import differential, judging, reproduction, signature, surface_vocabulary, variants
from copysuite.fuzz.generate import Input, Program, Statement
from copysuite.fuzz.record import RECORDS, TORCH
from tests.selftest.triaged import known_by, since, verdict_of

DECOMPOSED = "export.decomposed"
needs_export = pytest.mark.skipif(variants.executor(DECOMPOSED).skip_reason() is not None,
                                  reason=str(variants.executor(DECOMPOSED).skip_reason()))
opt_in = pytest.mark.skipif(os.environ.get("COPYSUITE_FUZZ") != "1",
                            reason="opt-in (COPYSUITE_FUZZ=1, a step of .ci/run): it exports its programs")

DETACH = Program((Input("a", shape=(3,), kind="leaf_requires_grad"),), (Statement("t1", "detach", ("a",)),), ("t1",))
OUT_RESIZE = Program((Input("a", shape=(2,)), Input("b", shape=())), (Statement("t1", "out_add", ("a", "b")),),
                     ("a",))
MULTI_OUTPUT = Program((Input("a", shape=(2, 3), kind="leaf_requires_grad"),),
                       (Statement("t1", "index_put", ("a",)), Statement("t2", "unbind", ("t1",))), ("t2",))
# one minimal program per record, and what export.decomposed makes of it
MINIMAL = {
    "subclass_inner": (Program((Input("a", shape=(3,)), Input("b", alias="ConstantExtraMetadataTensor(a)")), (),
                               ("a", "b")), "known", "export_decomposed_subclass_inner_input"),
    "two_tensor_inner": (Program((Input("a", shape=(3,)), Input("b", alias="TwoTensor(a, a)")), (), ("a",)),
                         "known", "export_decomposed_subclass_inner_input"),
    "out_resize": (OUT_RESIZE, "known", "export_decomposed_out_resize_lost"),
    "inplace_view": (Program((Input("a", shape=(3,)),), (Statement("t1", "transpose_", ("a",)),), ("t1",)),
                     "known", "export_decomposed_inplace_view_of_input"),
    "view_of_written": (Program((Input("a", shape=(3,)),), (Statement("t1", "add_", ("a",)),
                                                          Statement("t2", "view_flat", ("t1",))), ("t2",)),
                        "known", "export_decomposed_view_of_written_input"),
    "set_self": (Program((Input("a", shape=(1,)),), (Statement("t1", "set_", ("a", "a")),), ("a",)),
                 "known", "export_decomposed_inplace_view_of_input"),
    "detach": (DETACH, "by_design", None),
    "multi_output_view_write": (MULTI_OUTPUT, "by_design", None),
    "dtype_view": (Program((Input("a", shape=(3, 2)),), (Statement("t1", "view_uint8", ("a",)),), ("t1",)),
                   "by_design", None),
}


# the reduced programs of the 2.14.1 export.decomposed top-ups' new findings (seeds 6530, 6531; docs/notes.md) and the
# records the triage gives each under export.decomposed
NONLEAF = {"kind": "nonleaf"}
TOP_UPS = {
    "relu_bool_then_diagonal_copy": (Program((Input("a", dtype="bool", shape=(1,)),), (
        Statement("t1", "relu", ("a",)), Statement("t5", "surface.functional:diagonal_copy/9245e008", ("a",))),
        ("t1",)), ("export_trace_skips_eager_check",)),
    "subclass_inner_written": (Program((Input("b", shape=(1,), **NONLEAF),
                                        Input("c", alias="ConstantExtraMetadataTensor(b)")), (), ("b",), forward=True),
                               ("export_decomposed_subclass_inner_input",)),
    "floor_divide_out_into_nonleaf_no_grad": (Program((
        Input("a", shape=(2, 2, 4), placement="as_strided", strided=(24, (16, 4, 1), 0), **NONLEAF),
        Input("b", shape=(4, 4, 3), placement="as_strided", strided=(48, (1, 4, 16), 0), **NONLEAF)), (
        Statement("t1", "surface.out:floor_divide/a4fdd360", ("a", "b")),
        Statement("t2", "surface.functional:_foreach_trunc/85b33af3", ("t1",)), Statement("t3", "contiguous", ("b",))),
        ("t2",), mode="no_grad"), ("export_decomposed_out_resize_lost",)),
    # the 2.13.0 top-ups (seeds 6630, 6631, 6632)
    "acosh_into_test_view": (Program((Input("b", shape=(1,)),), (
        Statement("t1", "surface.alias:_test_autograd_multiple_dispatch_view/0f65cefb", ("b",)),
        Statement("t2", "surface.inplace:acosh_/fa335ed1", ("t1",)),
        Statement("t3", "surface.functional:acos/dfff8687", ("t2",))), ("t3",)),
        ("export_decomposed_test_view_inverse_refused",)),
    "floor_divide_complex": (Program((Input("a", dtype="complex64", shape=(3,), placement="expanded"),), (
        Statement("t1", "surface.functional:floor_divide/a89ba770", ("a",)), Statement("t3", "slice", ("a",))),
        ("t3",)), ("export_view_error_class",)),
    "buffer_written_then_resized": (Program((Input("a", dtype="int64", shape=(4, 2)),), (
        Statement("t2", "add_from", ("running", "running")), Statement("t4", "resize_", ("running",))), ("t4",),
        state=True), ("export_decomposed_inplace_view_of_input",)),
    "unused_as_strided_out_of_bounds": (Program((Input("a", shape=(1,)),), (
        Statement("t2", "surface.alias:as_strided/3e9e4742", ("a",)),), ("a",)),
        ("export_decomposed_unused_op_error_dropped",)),
}


def judged(program, differences, execution=DECOMPOSED, eager=None, other=None):
    run = differential.Run(program, differential.Side(eager or {}, None), differential.Side(other or {}, None), {},
                           execution)
    return judging.judge(run, execution, differences)


def test_autograd_state_is_by_design_only_after_run_decompositions():
    """requires_grad, grad_fn and backward of the inference IR are by design under export.decomposed, never under
    export (whose training IR is meant for autograd)."""
    autograd = {"out|t1|requires_grad": [False, True], "out|t1|grad_fn": [False, True], "backward||raises": [
        "RuntimeError", None], "forward||raises": ["NotImplementedError", None]}
    assert judged(DETACH, autograd).status == "by_design"
    assert judged(DETACH, autograd, execution="export").status == "new"
    assert judged(DETACH, {"out|t1|values": [[1.0], [2.0]]}).status == "new"


def test_a_refused_write_is_autograd_state_only_where_requires_grad_differs():
    write = {"write|t1|raises": [None, "RuntimeError"]}
    differs = ({"out|t1|requires_grad": False}, {"out|t1|requires_grad": True})
    assert judged(DETACH, write, eager=differs[0], other=differs[1]).status == "by_design"
    assert judged(DETACH, write, eager=differs[0], other=differs[0]).status == "new"


def test_a_refused_write_is_view_metadata_only_after_a_multi_output_view():
    """Eager refuses a write into one output of unbind (its creation meta), which run_decompositions() turns into a
    slice: by design where the program calls a multi-output view and the output shares what it shared eagerly."""
    write = {"write|t2|raises": ["RuntimeError", None]}
    shares = ({"write|t2|raises": "RuntimeError", "pair|in:a~out:t2|shares_storage": False},
              {"write|t2|raises": None, "pair|in:a~out:t2|shares_storage": False})
    assert judged(MULTI_OUTPUT, write, eager=shares[0], other=shares[1]).status == "by_design"
    no_unbind = Program(MULTI_OUTPUT.inputs, (Statement("t2", "index_put", ("a",)),), ("t2",))
    assert judged(no_unbind, write, eager=shares[0], other=shares[1]).status == "new"
    fresh = {**shares[1], "pair|in:a~out:t2|shares_storage": True}
    assert judged(MULTI_OUTPUT, write, eager=shares[0], other=fresh).status == "new"


def test_view_metadata_is_autograd_state_only_where_the_memory_shared_is_eager():
    """An output that is an autograd view on one side only, over the same memory, is by design; one that no longer
    shares the input's memory (a view of the written value, not of the input) is not."""
    view = {"out|t1|is_view": [False, True], "out|t1|view_of": [None, "in:a"]}
    shares = {"pair|in:a~out:t1|shares_storage": True, "write|t1|raises": None, "write|t1|reaches:in:a": True}
    assert judged(DETACH, view, eager=shares, other=shares).status == "by_design"
    fresh = {**shares, "pair|in:a~out:t1|shares_storage": False, "write|t1|reaches:in:a": False}
    assert judged(DETACH, view, eager=shares, other=fresh).status == "new"
    refused = {**shares, "write|t1|raises": "RuntimeError"}   # a write refused on one side reaches nothing there
    assert judged(DETACH, view, eager=shares, other={k: v for k, v in refused.items() if "reaches" not in k}
                  ).status == "by_design"


def test_a_record_of_run_decompositions_explains_only_its_variant():
    geometry = {"in|b|geometry": [[[], [], 0], [[2], [1], 0]], "in|b|values": [[3.0], [3.0, 3.0]]}
    verdict = judged(OUT_RESIZE, geometry)
    assert (verdict.status, verdict.records) == known_by("export_decomposed_out_resize_lost")
    assert judged(OUT_RESIZE, geometry, execution="export").status == "new"


def test_a_guard_refusing_a_reshaped_input_is_by_design_only_between_two_calls():
    """The module is exported once and called again after the write between the calls: a guard refusing the input
    the write transposed is the documented specialization; the same error on a single call is not."""
    program = Program((Input("a", shape=(2, 1)),), (Statement("t1", "ellipsis", ("a",)),), ("t1",),
                      between=("transpose_", "a"))
    guard = differential.Side({}, "AssertionError: Guard failed: a.size()[0] == 2", ("AssertionError", "Exception"))
    assert judged(program, {"call||raises": [None, "AssertionError"]}, other=guard.signature).status == "new"
    run = differential.Run(program, differential.Side({}, None), guard, {}, DECOMPOSED)
    assert judging.judge(run, DECOMPOSED, {"call||raises": [None, "AssertionError"]}).status == "by_design"
    once = differential.Run(Program(program.inputs, program.statements, ("t1",)), differential.Side({}, None), guard,
                            {}, "export")
    assert judging.judge(once, "export", {"call||raises": [None, "AssertionError"]}).status == "new"


def test_a_record_message_is_asked_of_a_raising_call_only():
    """A record with a message explains its other kinds where the call ran (no exception to match) and a raising
    call only where the exception matches."""
    raises = {"call||raises": [None, "RuntimeError"]}
    broadcast = "RuntimeError: output with shape [1] doesn't match the broadcast shape [2]"
    matched = differential.Run(OUT_RESIZE, differential.Side({}, None), differential.Side({}, broadcast), {},
                               DECOMPOSED)
    assert judging.judge(matched, DECOMPOSED, raises).records == known_by("export_decomposed_out_resize_lost")[1]
    other = differential.Run(OUT_RESIZE, differential.Side({}, None), differential.Side({}, "RuntimeError: other"),
                             {}, DECOMPOSED)
    assert judging.judge(other, DECOMPOSED, raises).status == "new"


def test_every_record_variant_is_a_variant():
    named = {r.name: r.variant for r in RECORDS if r.variant}
    assert named and all(v in variants.VARIANTS for v in named.values()), named


def test_a_reproduction_shows_a_subclass_output(capsys):
    """The reproduction's helper prints what it cannot read of a subclass (tolist() refuses one) instead of
    stopping there."""
    ConstantExtraMetadataTensor = pytest.importorskip(
        "torch.testing._internal.custom_tensor", reason=f"torch {torch.__version__} has no "
        "torch.testing._internal.custom_tensor").ConstantExtraMetadataTensor
    namespace = {"torch": torch}
    exec(reproduction.SHOW, namespace)   # noqa: S102 - the helper every reproduction starts with
    wrapped = ConstantExtraMetadataTensor(torch.arange(2.0))
    assert namespace["values"](wrapped).startswith("unreadable: ")
    plain = torch.arange(3.0)
    namespace["show"]("eager", [("b", wrapped), ("t1", plain[1:])], [("b", wrapped), ("a", plain)])
    printed = capsys.readouterr().out
    assert "eager b ConstantExtraMetadataTensor" in printed and "eager b is b" in printed
    assert "eager t1 shares storage with a" in printed and "eager b shares" not in printed


@opt_in
@needs_export
@pytest.mark.parametrize("name", MINIMAL)
def test_each_minimal_program_is_judged_as_triaged(name):
    program, status, record = MINIMAL[name]
    run = differential.run(program, DECOMPOSED)
    verdict = judging.judge(run, DECOMPOSED, signature.differences(run.eager.signature, run.other.signature))
    assert verdict.status == status and (record is None or record in verdict.records), verdict
    plain = differential.run(program, "export")
    assert not signature.differences(plain.eager.signature, plain.other.signature)


@opt_in
@needs_export
def test_an_out_resize_to_another_rank_is_exports_own():
    """The campaign's kron(out=) finding (seed 6404): export alone raises the IndexError of its shape guards, so the
    record of export() explains it under both executions."""
    program = Program((Input("a", shape=(1,)), Input("b", shape=(2, 3))), (Statement("t1", "out_add", ("a", "b")),),
                      ("a",))
    for execution in (DECOMPOSED, "export"):
        run = differential.run(program, execution)
        verdict = judging.judge(run, execution, signature.differences(run.eager.signature, run.other.signature))
        assert verdict.records == ("export_rank_changing_inplace_view_of_input",), verdict


@opt_in
@needs_export
@pytest.mark.timeout(1200)   # the fixture builds the vocabulary from every OpInfo sample where no cache has it
@pytest.mark.parametrize("name", TOP_UPS)
def test_each_top_up_program_is_judged_as_triaged(name):
    program, records = TOP_UPS[name]
    verdict = verdict_of(surface_vocabulary.vocabulary_of("all"), program, DECOMPOSED)
    if all(TORCH in SpecifierSet(since(r)) for r in records):
        assert (verdict.status, verdict.records) == ("known", records), verdict

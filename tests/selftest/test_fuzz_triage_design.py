"""What the triage of the surface campaigns found by design, on hand-built runs: lift_fresh's traced copy (the surface
and the fuzzer leave it out for the same reason) and AOTAutograd's joint trace refusing at the call what eager's
backward refuses (rule saved_tensor_written_fails_at_compile); and a record condition the fourth campaign's triage
widened (an in-place op eager has no forward-mode formula for). The reduced programs themselves are judged, opt-in,
in tests/selftest/test_fuzz_triage_surface.py."""
import dataclasses
import re
from pathlib import Path

import pytest
import torch

from copysuite.fuzz import differential, model, signature, surface_vocabulary
from copysuite.fuzz.generate import Input, Program, Statement
from copysuite.surface import known
from tests.selftest.triaged import known_by

AOT = "compile.aot_eager"
ONE = (1,)
VERSION_CHECK = ("BackendCompilerFailed: backend='aot_eager' raised:\nRuntimeError: one of the variables needed for "
                 "gradient computation has been modified by an inplace operation: [torch.FloatTensor [1]], which is "
                 "output 0 of Atan2, is at version 1; expected version 0 instead.")


def judged(program, differences, eager=None, other=None, execution=AOT):
    run = differential.Run(program, eager or differential.Side({}, None), other or differential.Side({}, None), {},
                           execution)
    return model.judge(run, execution, differences)


def test_lift_freshs_copy_when_traced_is_by_design_for_the_surface_as_for_the_fuzzer():
    """lift_fresh's argument must be fresh, and a traced lift_fresh must become lift_fresh_copy (native_functions.yaml,
    PR 81192): the fuzzer leaves the op out for it, and the surface's compiled cells are by design for it, never a
    bug; the eager cell stays judged, and the record claims only lift_fresh's is_self clause."""
    cell = "surface.alias:lift_fresh"
    assert not known.records(cell, "eager", "2.14.1")
    for execution in (AOT, "compile.aot_eager.dynamic", "compile.inductor", "compile.inductor.dynamic"):
        claims = [(k.record.name, k.by_design, k.clause) for k in known.records(cell, execution, "2.14.1")]
        assert claims == [("lift_fresh_traced_copy", True, "is_self")]
    record = next(k.record for k in known.known() if k.record.name == "lift_fresh_traced_copy")
    assert [item.cells for item in record.surface] == [(cell,)]
    # the bugs of the record that once held lift_fresh keep their cells
    for other in ("surface.alias:slice_inverse", "surface.inplace:polygamma_"):
        assert [(k.record.name, k.by_design) for k in known.records(other, AOT, "2.14.1")] == [
            ("compile_inplace_alias", False)]
    assert "its argument must be fresh" in surface_vocabulary.PRECONDITIONS["lift_fresh"]


def test_the_installed_schemas_still_oblige_a_tracer_to_copy_lift_fresh():
    """The design the record cites, read from the installed release's native_functions.yaml (torchgen's copy)."""
    torchgen = pytest.importorskip("torchgen")
    yaml = Path(torchgen.__file__).parent / "packaged" / "ATen" / "native" / "native_functions.yaml"
    text = yaml.read_text() if yaml.exists() else pytest.skip(f"no {yaml}")
    comment = re.search(r"((?:^#.*\n)+)- func: lift_fresh\(", text, re.M)
    assert comment, "lift_fresh has no comment above it"
    said = " ".join(line.lstrip("# ") for line in comment.group(1).splitlines())
    assert "ONLY called from a torch.tensor call" in said
    assert "obligated to convert this into a lift_fresh_copy" in said


def test_a_compiled_call_refused_on_a_saved_tensor_written_is_by_design_only_where_eagers_backward_failed():
    """`a.atan2_(a)` on a tensor that requires grad: eager's call runs and its backward fails on autograd's version
    check, the compiled call fails on it while tracing the joint graph (torchdynamo issue 1962). Where eager's
    backward ran, or the compiled call failed otherwise, or the execution traces no backward, the refusal stays new."""
    program = Program((Input("a", shape=ONE, kind="nonleaf"),), (
        Statement("t1", "surface.inplace:arctan2_/70d041b6", ("a", "a")),), ("t1",))
    raised = {"call||raises": [None, "BackendCompilerFailed"]}
    eager_backward_failed = differential.Side({"backward||raises": "RuntimeError"}, None)
    eager_backward_ran = differential.Side({"backward||raises": None}, None)
    compiled = differential.Side({}, VERSION_CHECK, ("BackendCompilerFailed",))
    verdict = judged(program, raised, eager_backward_failed, compiled)
    assert (verdict.status, verdict.allowed) == ("by_design", {"call||raises": "saved_tensor_written_fails_at_compile"})
    assert judged(program, raised, eager_backward_ran, compiled).status == "new"
    other_error = differential.Side({}, "BackendCompilerFailed: backend='aot_eager' raised:\nRuntimeError: other")
    assert judged(program, raised, eager_backward_failed, other_error).status == "new"
    assert judged(program, raised, eager_backward_failed, compiled, execution="compile.eager").status == "new"


def test_the_refusal_at_a_first_call_that_required_grad_is_by_design_where_the_judged_call_has_no_backward():
    """`_foreach_rsqrt([a])[0].fill_(3)`, called twice with `a.requires_grad_(False)` between: the first call's compile
    traces the backward that eager's first call would refuse (its result, saved, is written), and the judged second
    call has no backward eagerly. Another write between the calls, whose judged call has its own backward, stays new
    unless eager's backward failed."""
    def program(between):
        return Program((Input("a", shape=ONE, kind="parameter"),), (
            Statement("t1", "surface.functional:_foreach_rsqrt/507dcb58", ("a",)), Statement("t3", "fill_", ("t1",))),
            ("t3",), between=between)

    raised = {"call||raises": [None, "BackendCompilerFailed"]}
    compiled = differential.Side({}, VERSION_CHECK, ("BackendCompilerFailed",))
    verdict = judged(program(("requires_grad_off", "a")), raised, None, compiled)
    assert (verdict.status, verdict.allowed) == ("by_design", {"call||raises": "saved_tensor_written_fails_at_compile"})
    assert judged(program(("zero_", "a")), raised, None, compiled).status == "new"
    assert judged(program(()), raised, None, compiled).status == "new"


def test_an_inplace_op_without_a_forward_formula_is_known_only_by_eagers_refusal():
    """acosh_ (arccosh_) on a dual tensor: eager refuses it ("has not been implemented yet"), aot_eager runs its
    functional op (record functionalize_out_forward_ad); another refusal of eager's, or another in-place op, stays
    new."""
    def forward(op, eager_error):
        program = dataclasses.replace(Program((Input("a", shape=ONE),), (Statement("t1", op, ("a",)),), ("t1",)),
                                      forward=True)
        return judged(program, {"forward||raises": ["NotImplementedError", None]},
                      differential.Side({}, None, forward_error=eager_error), differential.Side({}, None))

    refused = ("NotImplementedError: Trying to use forward AD with acosh_ that does not support it because it has not "
               "been implemented yet.")
    assert forward("surface.inplace:arccosh_/2336b287", refused).records == known_by("functionalize_out_forward_ad")[1]
    assert forward("surface.inplace:arccosh_/2336b287", "NotImplementedError: other").status == "new"
    assert forward("surface.inplace:sin_/0", refused).status == "new"


def test_backward_starts_from_complex_outputs_so_eagers_refusal_is_seen():
    """`a.pow_(torch._conj(a))` saves the conj view for backward and writes it through `a`: eager's backward fails on
    autograd's version check. The fuzzer observes that backward though the output is complex (signature.loss takes
    its absolute value: backward needs a real scalar), so that the compiled call's refusal is judged by the rule
    saved_tensor_written_fails_at_compile (the 2.13.0 campaign's finding 6603.0). Without the write, backward runs
    and the leaf's complex gradient is observed."""
    def observed(write):
        leaf = torch.arange(4.0).to(torch.complex64).requires_grad_()
        a = leaf * 1
        t1 = torch._conj(a)
        if write:
            a.pow_(t1)
        return signature.observe_backward([("t1", t1.unsqueeze(0))], [("leaf_a", leaf)])

    assert observed(True) == {"backward||raises": "RuntimeError"}
    fields = observed(False)
    assert fields["backward||raises"] is None and len(fields["backward|leaf_a|grad"]) == 8, fields

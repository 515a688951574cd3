"""The fuzzer's program shapes and the executions users run beyond the suite's table (copysuite.fuzz.variants): what
each variant runs and its one rule; for each shape, a fault that only that shape can catch, caught. A write to an
input after the call, before backward (`after`): an execution whose saved tensors are copies (their version
counters never move) lets the backward run where eager refuses it. A write between two calls of one compiled
function (`between`): dynamo without its tensor guards serves the graph compiled for the first call. Forward-mode
AD (`forward`): an execution that runs on the primals of dual inputs loses the tangents. The faults that need
torch.compile are opt-in (COPYSUITE_FUZZ=1, as in test_fuzz.py): each compiles programs."""
import os
from unittest import mock

import pytest
import torch
from hypothesis import HealthCheck, Phase, given, seed, settings
from packaging.version import Version

from copysuite.fuzz import command, differential, generate, judging, reproduction, signature, variants
from copysuite.fuzz.generate import Input, Program, Statement
from copysuite.spec.expectations import release_of

SEARCH_PROGRAMS = 1500   # at about 50 programs a second
opt_in = pytest.mark.skipif(os.environ.get("COPYSUITE_FUZZ") != "1",
                            reason="opt-in (COPYSUITE_FUZZ=1, a step of .ci/run): it compiles programs")
needs_functionalize = pytest.mark.skipif(variants.executor("functionalize").skip_reason() is not None,
                                         reason=str(variants.executor("functionalize").skip_reason()))
needs_aot = pytest.mark.skipif(variants.executor("compile.aot_eager").skip_reason() is not None,
                               reason=str(variants.executor("compile.aot_eager").skip_reason()))
# the fault below is built with saved tensor hooks, which every torch.func transform refused before 2.5 (PR 131191
# limited the refusal to grad and vjp)
hooks_allowed = pytest.mark.skipif(release_of(torch.__version__) < Version("2.5"),
                                   reason=f"torch {torch.__version__}: torch.func.functionalize refuses saved tensor "
                                          "hooks before 2.5 (https://github.com/pytorch/pytorch/pull/131191)")
needs_export = pytest.mark.skipif(variants.executor("export").skip_reason() is not None,
                                  reason=str(variants.executor("export").skip_reason()))


def saved_as_copies(functionalize):
    """torch.func.functionalize whose function saves copies for backward (a fault: a write to an input after the
    call no longer moves the version counter of what backward reads)."""
    def patched(fn, *args, **kwargs):
        inner = functionalize(fn, *args, **kwargs)

        def run(*call_args, **call_kwargs):
            with torch.autograd.graph.saved_tensors_hooks(lambda t: t.detach().clone(), lambda t: t):
                return inner(*call_args, **call_kwargs)
        return run
    return patched


def verdict(program: Program, execution: str):
    run = differential.run(program, execution)
    differences = signature.differences(run.eager.signature, run.other.signature)
    return run, differences, judging.judge(run, execution, differences)


def test_the_variants_run_what_their_names_say():
    """export.strict / export.nonstrict pass strict= explicitly, export.decomposed runs run_decompositions() before
    module(), the fullgraph variants compile with fullgraph=True; each is judged as the execution it varies."""
    program = Program((Input("a"), Input("b")), (Statement("t1", "add", ("a", "b")),), ("t1",))
    lines = {name: differential.call_lines(program, name) for name in variants.VARIANTS}
    assert "strict=True)" in lines["export.strict"][1][0]
    assert "strict=False)" in lines["export.nonstrict"][1][0]
    assert ").run_decompositions().module()" in lines["export.decomposed"][1][0]
    assert "fullgraph=True" in lines["compile.aot_eager.fullgraph"][0][-1]
    assert "fullgraph=False" in differential.call_lines(program, "compile.aot_eager")[0][-1]
    assert variants.base("export.decomposed") == "export" and variants.base("export") == "export"


def test_a_graph_break_under_fullgraph_is_by_design_there_only():
    """dynamo's Unsupported where eager ran is by design under fullgraph=True and strict export, and new under the
    default fullgraph=False (where dynamo would have broken the graph instead)."""
    program = Program((Input("a"),), (Statement("t1", "data", ("a",)),), ("t1",))
    refused = differential.Side({}, "Unsupported: graph break", ("Unsupported", "TorchDynamoException", "Exception"))
    differences = {"call||raises": [None, "Unsupported"]}
    statuses = {}
    for execution in ("compile.aot_eager.fullgraph", "export.strict", "compile.aot_eager"):
        run = differential.Run(program, differential.Side({}, None), refused, {}, execution)
        statuses[execution] = judging.judge(run, execution, differences).status
    assert statuses == {"compile.aot_eager.fullgraph": "by_design", "export.strict": "by_design",
                        "compile.aot_eager": "new"}


def test_the_shapes_print_as_they_run():
    """A program's write between two calls and after the call are part of its text and of the lines that run."""
    program = Program((Input("a", kind="leaf_requires_grad"),), (Statement("t1", "square", ("a",)),), ("t1",),
                      between=("zero_", "a"), after=("view_fill_", "a"))
    text = program.text()
    assert "#       a.zero_()" in text and "#       a[0].fill_(2)" in text
    call = differential.call_lines(program, "compile.eager")[1]
    assert call == ["program(a)", "with torch.no_grad():", "    a.zero_()", "t1 = program(a)"]
    returned = Program(program.inputs, program.statements, ("t1", "a"), between=program.between)
    first = differential.call_lines(returned, "functionalize")[1][0]
    assert first == "program(a)", "the first call rebinds the input it returns"
    assert program.after_lines() == ["with torch.no_grad():", "    a[0].fill_(2)"]


def drawn_shapes(count: int) -> dict:
    counts = {"between": 0, "after": 0, "forward": 0}

    @seed(0)
    @settings(max_examples=count, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(generate.programs())
    def collect(program):
        counts["between"] += bool(program.between)
        counts["after"] += bool(program.after)
        counts["forward"] += bool(program.forward)

    collect()
    return counts


def test_each_shape_is_drawn_in_a_share_of_programs():
    """Each shape is drawn, and most programs still end at the call; `forward` only where asked for."""
    assert "forward" not in generate.SHAPES and drawn_shapes(50)["forward"] == 0
    with mock.patch.object(generate, "SHAPES", generate.ALL_SHAPES):
        counts = drawn_shapes(100)
    assert 10 < counts["between"] < 50 and 5 < counts["after"] < 50 and 5 < counts["forward"] < 50, counts


@needs_functionalize
@hooks_allowed
def test_saved_tensors_copied_are_caught_by_a_write_after_the_call_only():
    """An input that requires grad, squared (x * x saves it), written after the call: eager's backward refuses
    it; the execution whose saved tensors are copies runs it. Without the write, the fault shows nothing."""
    program = Program((Input("a", kind="leaf_requires_grad"),), (Statement("t1", "square", ("a",)),), ("t1",),
                      after=("zero_", "a"))
    assert verdict(program, "functionalize")[2].status == "same"
    with mock.patch.object(torch.func, "functionalize", saved_as_copies(torch.func.functionalize)):
        run, differences, judged = verdict(program, "functionalize")
        _, _, without = verdict(Program(program.inputs, program.statements, program.returns), "functionalize")
    assert differences["after||raises"] == ["RuntimeError", None] and differences["after|a|grad"][0] == "absent"
    assert (judged.status, judged.unexplained) == ("new", ("after.raises",)), judged
    assert without.status == "same", without
    assert "    a.zero_()" in reproduction.script(run, "functionalize", "off", judged.differences)


@opt_in
@needs_functionalize
@hooks_allowed
def test_a_fixed_seed_search_catches_saved_copies():
    """The same fault under a fixed seed's search: a write after the call where eager's backward refuses it is
    drawn rarely (few programs reach a backward that reads a written input), so the search is longer than the
    functionalize run of test_fuzz.py. Without the shape no such field exists (the test above: the same program
    without the write shows nothing)."""
    with mock.patch.object(torch.func, "functionalize", saved_as_copies(torch.func.functionalize)):
        report = command.search("functionalize", seed=0, programs=SEARCH_PROGRAMS, shrink_attempts=0)
    assert [f for f in report["findings"] if "after.raises" in f["unexplained"]], command.summary(report)


def tensor_guards_dropped():
    """dynamo building no tensor guards (a fault): a compiled function is not recompiled for an input whose
    requires_grad, strides or dtype changed."""
    import torch._dynamo.guards as guards
    return mock.patch.object(guards.GuardBuilder, "TENSOR_MATCH", lambda self, guard, value=None: None)


@opt_in
@needs_aot
def test_a_stale_graph_is_caught_by_a_write_between_two_calls_only():
    """Called once, then the input made to require grad, then called again: the graph compiled for the first call
    returns an output that does not require grad. Called once on each fresh input, the fault shows nothing."""
    program = Program((Input("a"),), (Statement("t1", "times_two", ("a",)),), ("t1",),
                      between=("requires_grad_on", "a"))
    assert verdict(program, "compile.aot_eager")[2].status == "same"
    with tensor_guards_dropped():
        _, differences, judged = verdict(program, "compile.aot_eager")
        _, _, without = verdict(Program(program.inputs, program.statements, program.returns), "compile.aot_eager")
    assert differences.get("out|t1|requires_grad") == [True, False], differences
    assert judged.status == "new", judged
    assert without.status == "same", without


def tangents_dropped(functionalize):
    """torch.func.functionalize whose function runs on the primals of its dual inputs (a fault: forward-mode AD's
    tangents are lost; outside a dual level unpack_dual returns its input, so nothing else changes)."""
    def patched(fn, *args, **kwargs):
        inner = functionalize(fn, *args, **kwargs)

        def run(*call_args):
            return inner(*[torch.autograd.forward_ad.unpack_dual(a).primal for a in call_args])
        return run
    return patched


@needs_functionalize
def test_tangents_dropped_are_caught_by_forward_mode_ad_only():
    """x * x of a floating input called with the input dual: eager's output has a tangent (2x), the execution that
    runs on the primals has none. Called without dual inputs, the fault shows nothing."""
    program = Program((Input("a"),), (Statement("t1", "square", ("a",)),), ("t1",), forward=True)
    assert "torch.autograd.forward_ad.make_dual(a, torch.ones_like(a))" in "\n".join(program.forward_lines(["pass"]))
    assert verdict(program, "functionalize")[2].status == "same"
    with mock.patch.object(torch.func, "functionalize", tangents_dropped(torch.func.functionalize)):
        run, differences, judged = verdict(program, "functionalize")
        _, _, without = verdict(Program(program.inputs, program.statements, program.returns), "functionalize")
    assert differences["forward|t1|tangent"] == [[0.0, 2.0, 4.0, 6.0, 8.0, 10.0], None]
    assert (judged.status, judged.unexplained) == ("new", ("forward.tangent",)), judged
    assert without.status == "same", without
    text = reproduction.script(run, "functionalize", "off", judged.differences)
    assert "print(side, 'tangents', tangents)" in text and "make_dual(a, torch.ones_like(a))" in text


@needs_export
def test_a_release_without_strict_or_decompositions_is_refused_with_the_reason():
    """export.strict and export.nonstrict need export's strict=, export.decomposed run_decompositions(): a release
    without them is refused with the reason (the command prints it and exits 2)."""
    def export(mod, args, kwargs=None):
        return None

    with mock.patch.object(torch.export, "export", export):
        assert "has no strict=" in variants.VARIANTS["export.strict"].skip_reason()
        assert variants.VARIANTS["export.decomposed"].skip_reason() is None
    with mock.patch.object(torch.export, "ExportedProgram", object):
        assert "run_decompositions() is missing" in variants.VARIANTS["export.decomposed"].skip_reason()
    assert all(v.skip_reason() is None for v in variants.VARIANTS.values() if v.base.startswith("export"))

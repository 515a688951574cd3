"""The fuzzer's `module` shape (copysuite.fuzz.state): the program as the forward of a module holding a parameter and
buffers, taken by torch.compile and torch.export as users give it. Its fault: the module an execution runs holds
copies of the buffers (a buffer written in forward, as BatchNorm writes its running stats, never reaches the
caller's module), caught under compile and export by a program of the shape and not by the same program over an
input. The tests that compile or export, and the search, are opt-in (COPYSUITE_FUZZ=1)."""
import contextlib
import os
from unittest import mock

import pytest
import torch

from copysuite.fuzz import command, differential, generate, judging, reproduction, signature, variants
from copysuite.fuzz.generate import Input, Program, Statement

opt_in = pytest.mark.skipif(os.environ.get("COPYSUITE_FUZZ") != "1",
                            reason="opt-in (COPYSUITE_FUZZ=1, a step of .ci/run): it compiles or exports programs")
needs_aot = pytest.mark.skipif(variants.executor("compile.aot_eager").skip_reason() is not None,
                               reason=str(variants.executor("compile.aot_eager").skip_reason()))
needs_export = pytest.mark.skipif(variants.executor("export").skip_reason() is not None,
                                  reason=str(variants.executor("export").skip_reason()))
BUFFER_WRITTEN = Program((Input("a"),), (Statement("t1", "add_", ("running",)), Statement("t2", "mul", ("a", "a"))),
                         ("t2",), state=True)
INPUT_WRITTEN = Program((Input("a"), Input("b", shape=(3,))),
                        (Statement("t1", "add_", ("b",)), Statement("t2", "mul", ("a", "a"))), ("t2",))


def verdict(program: Program, execution: str):
    run = differential.run(program, execution)
    differences = signature.differences(run.eager.signature, run.other.signature)
    return run, differences, judging.judge(run, execution, differences)


def copy_buffers(module):
    for name, buffer in list(module.named_buffers(recurse=False)):
        module._buffers[name] = buffer.clone()
    return module


@contextlib.contextmanager
def buffers_copied():
    """torch.compile and ExportedProgram.module() run a module holding copies of its buffers (a fault)."""
    compile_fn, module_fn = torch.compile, torch.export.ExportedProgram.module

    def compiled(model, *args, **kwargs):
        return compile_fn(copy_buffers(model) if isinstance(model, torch.nn.Module) else model, *args, **kwargs)

    def exported(self, *args, **kwargs):
        return copy_buffers(module_fn(self, *args, **kwargs))

    with mock.patch.object(torch, "compile", compiled), \
            mock.patch.object(torch.export.ExportedProgram, "module", exported):
        yield


def test_a_module_program_is_drawn_where_asked_for_only_and_prints_its_module():
    """Off by default; on, it runs as a module's forward: its state built with the inputs and observed as inputs,
    the parameter a leaf, not run under functionalize."""
    assert "module" not in generate.SHAPES
    assert BUFFER_WRITTEN.input_names == ("a", "weight", "running", "count") and BUFFER_WRITTEN.arg_names == ("a",)
    assert BUFFER_WRITTEN.leaves == ("weight",)
    define, call = differential.call_lines(BUFFER_WRITTEN, "compile.aot_eager")
    assert "        weight, running, count = self.weight, self.running, self.count" in define
    assert call == ["program = torch.compile(Program(weight, running, count), backend='aot_eager', fullgraph=False, "
                    "dynamic=False)", "t2 = program(a)"]
    assert differential.call_lines(BUFFER_WRITTEN, "export.strict")[1][0] == (
        "program = torch.export.export(Program(weight, running, count), (a,), strict=True).module()")
    with pytest.raises(differential.InvalidInputs, match="takes no module"):
        differential.run(BUFFER_WRITTEN, "functionalize")


@opt_in
@needs_aot
@needs_export
@pytest.mark.parametrize("execution", ["compile.aot_eager", "export"])
def test_buffers_copied_are_caught_by_module_programs_only(execution):
    """A buffer written in forward: eagerly the caller's buffer moves; under the fault it does not. The same
    program writing an input instead shows nothing under the fault."""
    assert verdict(BUFFER_WRITTEN, execution)[2].status == "same"
    with buffers_copied():
        run, differences, judged = verdict(BUFFER_WRITTEN, execution)
        _, _, without = verdict(INPUT_WRITTEN, execution)
    assert differences["in|running|values"] == [[1.0, 2.0, 3.0], [0.0, 1.0, 2.0]], differences
    assert judged.status == "new" and "in.values" in judged.unexplained, judged
    assert without.status == "same", without
    text = reproduction.script(run, execution, "off", judged.differences)
    assert "class Program(torch.nn.Module):" in text.split("side = 'eager'")[1]


@opt_in
@needs_aot
@pytest.mark.timeout(600)   # a search, on a possibly busy machine
def test_a_fixed_seed_search_catches_copied_buffers():
    with mock.patch.object(generate, "SHAPES", ("module",)), buffers_copied():
        report = command.search("compile.aot_eager", seed=0, programs=60, shrink_attempts=0)
    caught = [f for f in report["findings"] if f["status"] == "new"
              and {"in|running|values", "in|count|values"} & set(f["differences"])]
    assert caught, command.summary(report)

"""The fuzzer's `subclasses` shape (copysuite.fuzz.subclasses): inputs held by the wrapper subclasses of
torch.testing._internal beyond TwoTensor. Its fault: torch.compile handing the program a single-tensor wrapper
rebuilt around a copy of what it holds (a write through it never reaches the caller's tensor), caught by a program
with such an input and not by the same program with the input held by TwoTensor or by no wrapper; then by a
fixed-seed search with the shape on. Under compile.eager: under AOTAutograd and functionalize, a record of inputs
aliased below a subclass (aliasing_below_subclass, functionalize_aliased_inputs) explains whatever such a program
shows. The tests that compile are opt-in (COPYSUITE_FUZZ=1)."""
import os
from unittest import mock

import pytest
import torch
from hypothesis import HealthCheck, Phase, given, seed, settings

from copysuite.fuzz import command, differential, generate, judging, signature, subclasses, variants
from copysuite.fuzz.generate import Input, Program, Statement

opt_in = pytest.mark.skipif(os.environ.get("COPYSUITE_FUZZ") != "1",
                            reason="opt-in (COPYSUITE_FUZZ=1, a step of .ci/run): it compiles programs")
needs_compile = pytest.mark.skipif(variants.executor("compile.eager").skip_reason() is not None,
                                   reason=str(variants.executor("compile.eager").skip_reason()))
HELD = {"WrapperSubclass": "a", "LoggingTensor": "elem", "ConstantExtraMetadataTensor": "elem"}


def written_through(alias: str) -> Program:
    return Program((Input("a"), Input("b", alias=alias)), (Statement("t1", "add_", ("b",)),), ("t1",))


def verdict(program: Program, execution: str):
    run = differential.run(program, execution)
    differences = signature.differences(run.eager.signature, run.other.signature)
    return run, differences, judging.judge(run, execution, differences)


def rebuilt(compile_fn):
    """torch.compile whose function gets each single-tensor wrapper rebuilt around a copy (a fault)."""
    def patched(fn, *args, **kwargs):
        inner = compile_fn(fn, *args, **kwargs)

        def run(*call_args):
            held = [HELD.get(type(a).__name__) for a in call_args]
            return inner(*[type(a)(getattr(a, h).clone()) if h else a for a, h in zip(call_args, held)])
        return run
    return patched


def test_the_wrappers_are_drawn_where_asked_for_only():
    """Off by default; on, each of the shape's wrappers holds an earlier input in some programs, and the program
    imports it (a reproduction runs alone)."""
    def aliases(shapes, count):
        found = set()

        @seed(0)
        @settings(max_examples=count, database=None, phases=[Phase.generate], deadline=None,
                  suppress_health_check=list(HealthCheck))
        @given(generate.programs(shapes=shapes))
        def collect(program):
            found.update(name for i in program.inputs if i.alias for name in HELD if f"{name}(" in i.alias)

        collect()
        return found

    assert "subclasses" not in generate.SHAPES and not aliases(("between", "after"), 40)
    assert aliases(("subclasses",), 100) == set(HELD)
    lines = written_through("LoggingTensor(a)").input_lines()
    assert lines[0] == subclasses.IMPORTS["LoggingTensor"] and written_through("LoggingTensor(a)").wraps_subclass


@opt_in
@needs_compile
@pytest.mark.parametrize("wrapper", sorted(HELD))
def test_a_rebuilt_wrapper_is_caught_by_the_shapes_wrappers_only(wrapper):
    """a written through the wrapper: eagerly a moves, under the fault it does not. Through TwoTensor(a, a), or
    directly, the fault shows nothing."""
    program = written_through(f"{wrapper}(a)")
    assert verdict(program, "compile.eager")[2].status in ("same", "known")
    with mock.patch.object(torch, "compile", rebuilt(torch.compile)):
        _, differences, judged = verdict(program, "compile.eager")
        _, two, _ = verdict(written_through("TwoTensor(a, a)"), "compile.eager")
        _, plain, _ = verdict(written_through("a"), "compile.eager")
    assert differences["in|a|values"] == [[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]]
    assert judged.status == "new" and "in.values" in judged.unexplained, judged
    assert verdict(written_through("TwoTensor(a, a)"), "compile.eager")[1] == two, "the fault reached TwoTensor"
    assert verdict(written_through("a"), "compile.eager")[1] == plain, "the fault reached a plain input"


@opt_in
@needs_compile
@pytest.mark.timeout(600)   # a search, on a possibly busy machine
def test_a_fixed_seed_search_catches_rebuilt_wrappers():
    with mock.patch.object(generate, "SHAPES", ("subclasses",)), \
            mock.patch.object(torch, "compile", rebuilt(torch.compile)):
        report = command.search("compile.eager", seed=0, programs=100, shrink_attempts=0)
    caught = [f for f in report["findings"] if f["status"] == "new" and any(
        f"{name}(" in f["original"] for name in HELD)]
    assert caught, command.summary(report)

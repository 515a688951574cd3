"""Compiled, functionalized and exported executions (copysuite/run/executions.py): what runs is what is printed, a graph
break fails unless the entry declares it, why an execution cannot run is said, the transforms apply only where an
entry names them (a known divergence's judging: test_known_judging.py)."""
import contextlib
import dataclasses
import importlib
import textwrap
from unittest import mock

import pytest
import torch

from packaging.version import Version

from copysuite.plan import bind
from copysuite.run import executions as executors
from copysuite.judge.checks import REGISTRY
from copysuite.plan.cells import SelectionError, plan_cells
from copysuite.spec.programs import parse_program
from copysuite.judge.judge import judge
from copysuite.run.execute import execute
from copysuite.run.reproduction import reproduction
from copysuite.spec.load import load_specs
from copysuite.strategies.cases import Case

ENTRIES = load_specs(checks=REGISTRY).entries
COMPILED = "compile.eager"   # dynamo alone: the cheapest execution that compiles
needs_compile = pytest.mark.skipif(executors.EXECUTORS[COMPILED].skip_reason() is not None,
                                   reason=str(executors.EXECUTORS[COMPILED].skip_reason()))


def case(execution=COMPILED, kind="plain", mode="enabled"):
    return Case(dtype="float32", shape=(2, 3), placement="contiguous", kind=kind, mode=mode, device="cpu",
                base_numel=6, stride=(3, 1), offset=0, values=(1.0, 2.0, 3.0, 4.0, 5.0, 6.0), execution=execution)


@needs_compile
def test_the_printed_reproduction_is_the_code_that_ran():
    """The reproduction of a compiled cell, run on its own, defines and calls the same compiled function and gets
    the same answer as the harness (here: the input itself comes back)."""
    cell = next(c for c in plan_cells(ENTRIES, REGISTRY, entry_ids=["compiled.returns_input"],
                                      check_names=["same_object"], devices=["cpu"], executions=[COMPILED]))
    text = textwrap.dedent(reproduction(cell, case()))
    assert "torch.compile(program, backend='eager', fullgraph=True, dynamic=False)" in text
    ns = {}
    exec(text, ns)  # noqa: S102 - the suite's own printed reproduction
    assert ns["result"] is ns["source"]
    assert execute(cell.entry.program, case(), entry=cell.entry).result is not None


@needs_compile
def test_each_compiled_function_is_compiled_as_itself():
    """Up to 2.12 torch.compile wraps a function whose source it cannot find in one frame shared by all such functions
    (issue 124269), so every entry's graphs would gather in one dynamo cache and one entry's compiles would shape
    another's recompiles. The harness makes each program's source known: its own code object holds its graphs."""
    import inspect

    from torch._dynamo import eval_frame
    cache_entries = getattr(eval_frame, "_debug_get_cache_entry_list", None)
    if cache_entries is None:
        pytest.skip(f"torch {torch.__version__} has no torch._dynamo.eval_frame._debug_get_cache_entry_list: no way "
                    "to read a code object's dynamo cache")
    # a program with an op: a frame that only returns its input may leave no graph to cache
    cell = next(c for c in plan_cells(ENTRIES, REGISTRY, entry_ids=["compiled.view_of_intermediate"],
                                      check_names=["shares_storage"], devices=["cpu"], executions=[COMPILED]))
    execute(cell.entry.program, case(), entry=cell.entry)
    executor = executors.EXECUTORS[COMPILED]
    compiled = executor.defined(*executor.key(cell.entry.program, case())[1:])["program"]
    function = inspect.unwrap(compiled)
    assert function.__name__ == "program" and cache_entries(function.__code__), (
        f"torch {torch.__version__}: the compiled program's own code has no dynamo cache entry (a shared frame ran it)")


@needs_compile
def test_a_failure_names_the_inputs_that_compiled_its_function_first(monkeypatch):
    """A compiled failure can depend on the graphs its function compiled for earlier inputs (the CUDA run's
    `compiled.overlapping_views`), which the printed reproduction, compiling afresh, does not have: the failure names
    them, and not the calls that compiled nothing."""
    from copysuite.judge.judge import failure
    real = torch.compile
    # torch.compile is part of a compiled function's key: a stand-in gets a function of its own, with no history
    monkeypatch.setattr(torch, "compile", lambda *args, **kwargs: real(*args, **kwargs))
    cell = next(c for c in plan_cells(ENTRIES, REGISTRY, entry_ids=["compiled.view_of_intermediate"],
                                      check_names=["shares_storage"], devices=["cpu"],
                                      executions=["compile.aot_eager"]))
    first = dataclasses.replace(case("compile.aot_eager"), shape=(3, 2), stride=(2, 1))
    again = dataclasses.replace(first, values=(6.0, 5.0, 4.0, 3.0, 2.0, 1.0))
    last = case("compile.aot_eager", mode="no_grad")
    for c in (first, again, last):   # the second call hits the first's graph: it compiles nothing
        execute(cell.entry.program, c, entry=cell.entry)
    found = failure(cell, last, "mismatch", True, False, None)
    assert found.compiled_before == [first.describe()], found.compiled_before
    assert "first compiled for 1 other inputs" in found.message() and first.describe() in found.message()


def test_an_eager_failure_is_reported_on_a_release_without_torch_compile(monkeypatch):
    """A failure asks for its function's compile history by the executor's key, eager ones too; torch.compile, part
    of the key, is new in 2.0, and on 1.13.1 an eager cell's failure must still be reported as itself, not as an
    AttributeError. Here torch.compile is taken away from the installed torch, as 1.13.1 lacks it."""
    from copysuite.judge.judge import failure
    monkeypatch.delattr(torch, "compile", raising=False)   # 1.13.1 has none
    cell = next(c for c in plan_cells(ENTRIES, REGISTRY, entry_ids=["compiled.returns_input"],
                                      check_names=["same_object"], devices=["cpu"], executions=["eager"]))
    found = failure(cell, case("eager"), "mismatch", True, False, None)
    assert found.kind == "mismatch" and found.compiled_before == []


@needs_compile
def test_the_printed_reproduction_turns_the_compile_caches_off_as_the_harness_does():
    """The harness compiles with inductor's and AOTAutograd's caches off (a cached graph served other inputs); a
    printed reproduction that left them on could fail or hold by what an earlier process compiled. Where the
    installed release has these caches, the reproduction switches each off, and running it does.

    The caches are switched on with each config module's own `patch`: pytest's monkeypatch deletes a torch config
    entry when it undoes a setattr, which breaks every later compile in the worker ("... does not exist")."""
    from copysuite.run.executions import COMPILE_CACHES
    cell = next(c for c in plan_cells(ENTRIES, REGISTRY, entry_ids=["compiled.returns_input"],
                                      check_names=["same_object"], devices=["cpu"], executions=[COMPILED]))
    present = [(m, n) for m, n in COMPILE_CACHES if hasattr(importlib.import_module(m), n)]
    if not present:
        pytest.skip(f"torch {torch.__version__} has none of the compile caches {COMPILE_CACHES}")
    with contextlib.ExitStack() as stack:
        for module, name in present:
            stack.enter_context(importlib.import_module(module).patch(**{name: True}))
        text = textwrap.dedent(reproduction(cell, case()))
        assert all(f"{m}.{n} = False" in text for m, n in present), text
        exec(text, {})  # noqa: S102 - the suite's own printed reproduction
        assert not any(getattr(importlib.import_module(m), n) for m, n in present)
    assert all(hasattr(importlib.import_module(m), n) for m, n in present), "a compile cache config was lost"


@pytest.mark.parametrize("execution, defines", [
    ("functionalize", "program = torch.func.functionalize(program)"),
    ("export", "program = torch.export.export(Program(), (source, a, b)).module()"),
])
def test_the_printed_transform_is_the_code_that_ran(execution, defines):
    """A program that writes through one input and returns the other, functionalized or exported: the printed
    reproduction, run on its own, writes into the caller's tensor as the harness's run did."""
    executor = executors.EXECUTORS[execution]
    if executor.skip_reason():
        pytest.skip(executor.skip_reason())
    if execution == "export" and Version(torch.__version__).release < (2, 6):
        pytest.skip(f"torch {torch.__version__}: export refuses one tensor passed twice and mutated before 2.6 "
                    "(docs/upstream-reports/export_duplicated_mutated_inputs.py)")
    cell = next(c for c in plan_cells(ENTRIES, REGISTRY, entry_ids=["compiled.same_tensor_twice"],
                                      check_names=["source_untouched[b]"], devices=["cpu"], executions=[execution]))
    text = textwrap.dedent(reproduction(cell, case(execution)))
    assert defines in text, text
    ns = {}
    exec(text, ns)  # noqa: S102 - the suite's own printed reproduction
    ran = execute(cell.entry.program, case(execution), entry=cell.entry)
    assert ran.error is None and torch.equal(ns["source"], ran.namespace["source"]), (text, ran.error)
    assert not torch.equal(ns["source"], torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))   # it did write


def test_the_transforms_apply_only_where_an_entry_names_them():
    """An entry that names no executions (clone) has no functionalize or export cells; compiled.yaml's do."""
    with pytest.raises(SelectionError, match="matches no cell"):
        plan_cells(ENTRIES, REGISTRY, entry_ids=["clone"], executions=["functionalize", "export"])
    named = plan_cells(ENTRIES, REGISTRY, entry_ids=["compiled.returns_input"], devices=["cpu"],
                       executions=["functionalize", "export"])
    assert {c.execution for c in named} == {"functionalize", "export"}


@needs_compile
def test_a_graph_break_fails_unless_the_entry_declares_it():
    program = parse_program(call="source.tolist()")   # dynamo refuses tolist() on a float tensor
    strict = dataclasses.replace(ENTRIES[0], id="selftest.tolist", graph_breaks=None)
    ex = execute(program, case(), entry=strict)
    assert ex.error is not None and ex.error[0] == "Unsupported", ex.error
    declared = dataclasses.replace(ENTRIES[0], id="selftest.tolist_declared",
                                   graph_breaks={"why": "tolist", "evidence": "..."})
    ex = execute(program, case(), entry=declared)
    assert ex.error is None and ex.result == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    assert executors.STATS[("selftest.tolist_declared", COMPILED)]["graph_breaks"] >= 1


def test_why_an_execution_cannot_run_is_said(monkeypatch):
    inductor = executors.EXECUTORS["compile.inductor"]
    if hasattr(torch, "compile") and executors._dynamo_unsupported() is None:
        with mock.patch.object(executors, "_cxx", lambda: None):
            assert "no C++ compiler found" in inductor.skip_reason()
    monkeypatch.delattr(torch, "compile", raising=False)   # a torch before 2.0
    assert "torch.compile needs torch>=2.0" in executors.EXECUTORS[COMPILED].skip_reason()
    assert executors.EXECUTORS["eager"].skip_reason() is None
    monkeypatch.setattr(torch, "func", None, raising=False)     # before 2.0 (1.13.1 has no torch.func)
    monkeypatch.setattr(torch, "export", None, raising=False)   # before 2.1
    assert "torch.func.functionalize needs torch>=2.0" in executors.EXECUTORS["functionalize"].skip_reason()
    assert "torch.export.export needs torch>=2.1" in executors.EXECUTORS["export"].skip_reason()


@pytest.mark.parametrize("installed, skipped", [("2.2.2", True), ("2.6.0", True), ("2.8.0", False), ("2.14.1", False)])
def test_inductor_on_meta_is_skipped_with_its_evidence_before_the_release_that_compiles_it(monkeypatch, installed,
                                                                                           skipped):
    monkeypatch.setattr(bind, "TORCH_VERSION", Version(installed))
    meta_cell = next(c for c in plan_cells(ENTRIES, REGISTRY, entry_ids=["clone"], devices=["meta"],
                                           executions=["compile.inductor.dynamic"]))
    with mock.patch.object(executors, "_dynamo_unsupported", lambda: None), \
            mock.patch.object(executors, "_cxx", lambda: "g++"), mock.patch.object(torch, "compile", print):
        reason = meta_cell.skip_reason()
        assert (reason is not None) == skipped, reason
        assert not skipped or ("issue 144607" in reason and f"installed: {installed}" in reason)
        assert executors.EXECUTORS["compile.inductor"].skip_reason("cpu") is None
        assert executors.EXECUTORS["compile.aot_eager"].skip_reason("meta") is None


@needs_compile
def test_a_compiled_function_returns_the_variables_its_checks_judge():
    """A check that names a variable of the program is planned compiled too: the compiled function returns the
    variables its entry judges beside `result` (printed as it runs), and the check judges the returned one as the
    program left it. A variable no check names stays inside the function."""
    cell = next(c for c in plan_cells(ENTRIES, REGISTRY, entry_ids=["compiled.tensor_and_detach"],
                                      check_names=["shares_storage[detached]"], devices=["cpu"], executions=[COMPILED]))
    assert cell.subject == "detached" and cell.entry.program.returns == ("detached",)
    text = textwrap.dedent(reproduction(cell, case()))
    assert "    return result, detached\n" in text and "\nresult, detached = program(source)\n" in text, text
    ns = {}
    exec(text, ns)  # noqa: S102 - the suite's own printed reproduction
    assert ns["detached"] is not ns["result"] and ns["detached"].data_ptr() == ns["result"].data_ptr()
    ran = execute(cell.entry.program, case(), cell.subject, cell.entry)
    assert ran.error is None and ran.subject is ran.namespace["detached"] and torch.equal(ran.subject, ns["detached"])
    judge(cell, case(), ran)   # holds: the detached output lives in the result's memory
    unjudged = next(e for e in ENTRIES if e.id == "compiled.detach_of_intermediate_view").program
    assert unjudged.variables == ("v", "y") and unjudged.returns == ()
    assert executors.EXECUTORS[COMPILED].define_lines(unjudged)[-2] == "    return result"


@needs_compile
def test_a_first_call_runs_the_same_compiled_function_on_other_inputs_first():
    """An entry's `first_call` calls its compiled function on other inputs before the call that is judged; the
    reproduction prints both calls in that order, and eager runs the program once, as written."""
    cell = next(c for c in plan_cells(ENTRIES, REGISTRY, entry_ids=["compiled.aliased_after_unaliased_inputs"],
                                      check_names=["source_untouched"], devices=["cpu"], executions=[COMPILED]))
    text = textwrap.dedent(reproduction(cell, case()))
    first = "program(source, source.detach().clone(), source.detach().clone())\n"
    assert first in text and text.index(first) < text.index("result = program(source, a, b)"), text
    ns = {}
    exec(text, ns)  # noqa: S102 - the suite's own printed reproduction
    assert torch.equal(ns["result"], torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))   # -(-source): eager's answer
    assert first not in reproduction(cell, case("eager"))


@needs_compile
def test_without_the_guard_latency_probe_guards_still_decide_recompiles():
    """The harness replaces dynamo's guard-latency telemetry (executors._skip_guard_latency_probe): the same inputs
    again reuse the graph, a failed guard (float64 where float32 was traced) compiles a new one."""
    program = parse_program(call="source * 2")
    entry = dataclasses.replace(ENTRIES[0], id="selftest.guards", graph_breaks=None)
    float64 = dataclasses.replace(case(), dtype="float64")
    for compiled_before, inputs in [(0, case()), (1, case()), (1, float64)]:
        assert executors.STATS.get(("selftest.guards", COMPILED), {}).get("compiles", 0) == compiled_before
        assert execute(program, inputs, entry=entry).error is None
    assert executors.STATS[("selftest.guards", COMPILED)]["compiles"] == 2
    guards = importlib.import_module("torch._dynamo.guards")
    assert getattr(guards, "profile_guard_manager", executors.no_guard_latency) is executors.no_guard_latency


def test_the_guide_says_what_every_execution_is():
    """docs/using.md's table of executions is where a reader learns what each name runs: it names them all."""
    from pathlib import Path

    from copysuite.strategies.space import EXECUTIONS

    text = (Path(__file__).resolve().parents[2] / "docs" / "using.md").read_text()
    table = text.split("| execution | what runs |", 1)[1].split("\n\n", 1)[0]
    assert [e for e in EXECUTIONS if f"`{e}`" not in table] == []

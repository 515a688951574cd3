"""The fuzzer (copysuite/fuzz/, `python -m copysuite fuzz`): the same programs for the same seed, its by-design
rules and the records' conditions, a short fixed-seed functionalize run (nothing to compile) and functionalize
without its copy-back caught; and, opt-in (COPYSUITE_FUZZ=1: each compiles many programs, which the README test
command's minute cannot afford; .ci/run runs them, the fixed-seed runs on both CI releases), a short fixed-seed
compiled run whose findings are all known, what a program prints is what runs, each torch.compile fault of the
catalog caught by the fuzzer alone, and the caches mode."""
import os
import subprocess
import sys
from unittest import mock

import pytest
import torch
from packaging.version import Version
from hypothesis import HealthCheck, Phase, given, seed, settings

from copysuite.run.executions import EXECUTORS
from tests.faults.topics import compiled as compile_faults
from tests.faults.fault import CATALOG
from copysuite.fuzz import (
    command,
    differential,
    generate,
    model,
    reproduction,
    signature,
)
from copysuite.fuzz.generate import Input, Program, Statement
from tests.selftest.triaged import covers, known_by

TORCH = Version(Version(torch.__version__).base_version)
CI_EXECUTION, CI_PROGRAMS = "compile.aot_eager", 40
FUNCTIONALIZE_PROGRAMS = 200   # no compiling: about 100 programs a second on an idle core
FAULT_EXECUTION, FAULT_PROGRAMS = "compile.eager", 400
needs_compile = pytest.mark.skipif(EXECUTORS[CI_EXECUTION].skip_reason() is not None,
                                   reason=str(EXECUTORS[CI_EXECUTION].skip_reason()))
needs_functionalize = pytest.mark.skipif(EXECUTORS["functionalize"].skip_reason() is not None,
                                         reason=str(EXECUTORS["functionalize"].skip_reason()))
opt_in = pytest.mark.skipif(os.environ.get("COPYSUITE_FUZZ") != "1",
                            reason="opt-in (COPYSUITE_FUZZ=1, a step of .ci/run): it compiles many programs")


def drawn(count: int, at: int = 0) -> list[str]:
    texts = []

    @seed(at)
    @settings(max_examples=count, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(generate.programs())
    def collect(program):
        texts.append(program.text())

    collect()
    return texts


def test_a_seed_draws_the_same_programs():
    assert drawn(30) == drawn(30)
    assert drawn(30) != drawn(30, at=1)


@opt_in
@needs_compile
def test_a_short_fixed_seed_run_finds_only_known_divergences():
    """What CI runs: every finding of the fixed seed is explained by a record (a new one prints its program)."""
    report = command.search(CI_EXECUTION, seed=0, programs=CI_PROGRAMS)
    new = [f for f in report["findings"] if f["status"] == "new"]
    assert report["counts"]["programs"] == CI_PROGRAMS
    assert not new, command.summary(report)


@needs_functionalize
def test_a_fixed_seed_functionalize_run_finds_only_known_divergences():
    """torch.func.functionalize compiles nothing, so its fixed-seed run is part of every test run: every finding is
    explained by a record or a rule (a new one prints its program)."""
    report = command.search("functionalize", seed=0, programs=FUNCTIONALIZE_PROGRAMS, shrink_attempts=0)
    new = [f for f in report["findings"] if f["status"] == "new"]
    assert report["counts"]["programs"] == FUNCTIONALIZE_PROGRAMS
    assert report["counts"]["same"] < FUNCTIONALIZE_PROGRAMS, "nothing differed: the run compared nothing"
    assert not new, command.summary(report)


@needs_functionalize
def test_functionalize_without_its_copy_back_is_caught():
    """functionalize with its copy-back of input mutations removed (a fault injected into torch): the same seed finds
    differences no record explains."""
    import torch._functorch.eager_transforms as transforms
    with mock.patch.object(transforms, "_propagate_functional_input_mutation", lambda unwrapped, wrapped: None):
        report = command.search("functionalize", seed=0, programs=FUNCTIONALIZE_PROGRAMS, shrink_attempts=0)
    assert any(f["status"] == "new" for f in report["findings"]), command.summary(report)


@opt_in
@pytest.mark.skipif(EXECUTORS["export"].skip_reason() is not None, reason=str(EXECUTORS["export"].skip_reason()))
def test_a_short_fixed_seed_export_run_finds_only_known_divergences():
    """The same for torch.export: every finding of the fixed seed is a rule or a record."""
    report = command.search("export", seed=0, programs=CI_PROGRAMS)
    new = [f for f in report["findings"] if f["status"] == "new"]
    assert report["counts"]["programs"] == CI_PROGRAMS
    assert not new, command.summary(report)


@opt_in
@needs_compile
def test_the_reproduction_is_the_text_that_ran(tmp_path):
    """A program whose compiled output loses its identity under an injected fault: the reproduction, run alone,
    prints that the eager output is the input and the compiled one is not."""
    program = Program((Input("a"),), (Statement("t1", "add_", ("a",)),), ("t1",))
    fault = next(f for f in CATALOG if f.name == "compile_returns_new_object_for_input")
    with fault.applied():
        run = differential.run(program, FAULT_EXECUTION)
    differences = signature.differences(run.eager.signature, run.other.signature)
    assert differences["pair|in:a~out:t1|same_object"] == [True, False]
    path = tmp_path / "repro.py"
    path.write_text(reproduction.script(run, FAULT_EXECUTION, "off", differences))
    out = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120, check=True).stdout
    assert "eager t1 is a" in out
    assert f"{FAULT_EXECUTION} t1 is a" in out   # unfaulted in its own process: the compiled side holds


def test_by_design_rules_and_pruning():
    """A call that raises on one side is only that difference; both raising is by design when the execution's
    exception is an instance of eager's class, and a finding when it is not."""
    both = {"call||raises": ["RuntimeError", "TorchRuntimeError"]}
    program = Program((Input("a"),), (), ("a",))
    wrapped = differential.Side({}, "TorchRuntimeError: x", ("TorchRuntimeError", "RuntimeError", "Exception"))
    run = differential.Run(program, differential.Side({}, None), wrapped, {}, CI_EXECUTION)
    assert model.judge(run, CI_EXECUTION, both).status == "by_design"
    other = differential.Side({}, "BackendCompilerFailed: x", ("BackendCompilerFailed", "Exception"))
    run = differential.Run(program, differential.Side({}, None), other, {}, CI_EXECUTION)
    assert model.judge(run, CI_EXECUTION, {"call||raises": ["RuntimeError", "BackendCompilerFailed"]}).status == "new"
    one = {"call||raises": [None, "BackendCompilerFailed"], "out|t1|values": [[1.0], "absent"]}
    judged = model.judge(run, CI_EXECUTION, one)
    assert judged.status == "new" and judged.unexplained == ("call.raises",)


def test_storage_offset_and_detached_alias_rules():
    """An output's storage offset is by design only where it shares memory with nothing on either side; an output
    that is not an autograd view is by design only where it aliases an input that requires grad and does not
    require grad itself (the alias AOTAutograd regenerates detached)."""
    program = Program((Input("a"),), (Statement("t1", "select_scatter", ("a",)),), ("t1",))
    offset = {"out|t1|offset": [4, 0]}

    def judged(eager: dict, other: dict, differences: dict):
        run = differential.Run(program, differential.Side(eager, None), differential.Side(other, None), {},
                               "compile.inductor")
        return model.judge(run, "compile.inductor", differences)

    fresh = {"pair|in:a~out:t1|shares_storage": False}
    assert judged(fresh, fresh, offset).status == "by_design"
    shared = {"pair|in:a~out:t1|shares_storage": True}
    assert judged(shared, fresh, offset).status == "new"
    not_a_view = {"out|t1|is_view": [True, False]}
    detached = {"out|t1|is_view": False, "out|t1|requires_grad": False, "in|a|requires_grad": True,
                "pair|in:a~out:t1|shares_storage": True}
    assert judged({}, detached, not_a_view).status == "by_design"
    assert judged({}, {**detached, "in|a|requires_grad": False}, not_a_view).status == "new"


def test_functionalize_records_need_their_conditions():
    """A functionalize record that names an output aliasing a written input explains that output only; one that
    names eager's error explains a call only when eager raised that error; the functorch requires_grad_ rule only
    for its own message."""
    program = Program((Input("a"),), (Statement("t1", "view_flat", ("a",)),), ("t1",))

    def judged(eager: dict, other: dict, differences: dict, eager_error=None, other_error=None):
        run = differential.Run(program, differential.Side(eager, eager_error), differential.Side(other, other_error),
                               {}, "functionalize")
        return model.judge(run, "functionalize", differences)

    not_a_view = {"out|t1|is_view": [True, False]}
    written = {"in|a|version_moved": True, "pair|in:a~out:t1|shares_storage": True}
    assert judged(written, {}, not_a_view).records == known_by("functionalize_identity")[1]
    assert judged({**written, "in|a|version_moved": False}, {}, not_a_view).status == "new"
    program = Program((Input("a"),), (Statement("t1", "mul_", ("a",)),), ("t1",))
    raised = {"call||raises": ["RuntimeError", None]}
    cast = "RuntimeError: result type Long can't be cast to the desired output type Bool"
    cast_lost = "functionalize_cast_check_lost"
    assert (cast_lost in judged({}, {}, raised, eager_error=cast).records) == covers(cast_lost)
    assert judged({}, {}, raised, eager_error="RuntimeError: something else").status == "new"
    refused = {"call||raises": [None, "RuntimeError"]}
    message = ("RuntimeError: You are attempting to call Tensor.requires_grad_() inside of a function being "
               "transformed by a functorch transform.")
    assert judged({}, {}, refused, other_error=message).status == "by_design"
    assert judged({}, {}, refused, other_error="RuntimeError: other").status == "new"


def test_export_requires_grad_rule():
    """requires_grad_() inside an exported program is not replayed (no ATen op): what follows from requires_grad
    differing is by design under export where the program calls it, and a finding where it does not, under another
    execution, or for a field requires_grad does not decide."""
    flags = {"in|a|requires_grad": [True, False], "write|a|raises": ["RuntimeError", None]}

    def judged(statements: tuple, execution: str, differences: dict):
        program = Program((Input("a"),), statements, ("a",))
        run = differential.Run(program, differential.Side({}, None), differential.Side({}, None), {}, execution)
        return model.judge(run, execution, differences)

    switched = (Statement("t1", "requires_grad_", ("a",)),)
    assert judged(switched, "export", flags).status == "by_design"
    assert judged((Statement("t1", "requires_grad_false", ("a",)),), "export", flags).status == "by_design"
    assert judged((Statement("t1", "add_", ("a",)),), "export", flags).status == "new"
    assert judged(switched, "compile.aot_eager", {"in|a|requires_grad": [True, False]}).status == "new"
    assert judged(switched, "export", {"in|a|values": [[1.0], [0.0]]}).status == "new"
    refused = differential.Side({}, "RuntimeError: cannot resize variables that require grad", ("RuntimeError",))
    for error, status in ((refused, "by_design"), (differential.Side({}, "RuntimeError: other", ()), "new")):
        run = differential.Run(Program((Input("a"),), switched, ("a",)), differential.Side({}, None), error, {},
                               "export")
        assert model.judge(run, "export", {"call||raises": [None, "RuntimeError"]}).status == status


def test_export_record_needs_eager_to_raise():
    """A record limited to programs whose eager call raised (export's tracing skipping eager's check, so a later op
    fails first) explains export's other exception there, and not where eager ran."""
    program = Program((Input("a"),), (Statement("t1", "clamp_", ("a",)),), ("t1",))
    other = differential.Side({}, "IndexError: Dimension out of range", ("IndexError", "Exception"))

    def judged(eager_error, differences):
        run = differential.Run(program, differential.Side({}, eager_error), other, {}, "export")
        return model.judge(run, "export", differences)

    raised = judged("NotImplementedError: clamp", {"call||raises": ["NotImplementedError", "IndexError"]})
    assert (raised.status, raised.records) == known_by("export_trace_skips_eager_check")
    assert judged(None, {"call||raises": [None, "IndexError"]}).status == "new"


def compile_faults_of_catalog():
    return [f for f in CATALOG if f.patch.__module__ == compile_faults.__name__]


@opt_in
@pytest.mark.timeout(900)
def test_each_compile_fault_is_caught_by_the_fuzzer_alone():
    """Each torch.compile fault of the catalog, applied, makes the same seed find a divergence the unfaulted run
    does not have."""
    assert len(compile_faults_of_catalog()) == 7
    baseline = command.search(FAULT_EXECUTION, seed=0, programs=FAULT_PROGRAMS, shrink_attempts=0)
    known = {tuple(f["key"]) for f in baseline["findings"]}
    missed = []
    for fault in compile_faults_of_catalog():
        with fault.applied():
            report = command.search(FAULT_EXECUTION, seed=0, programs=FAULT_PROGRAMS, shrink_attempts=0)
        caught = [f for f in report["findings"] if tuple(f["key"]) not in known]
        if not caught:
            missed.append(fault.name)
    assert not missed, f"not caught in {FAULT_PROGRAMS} programs: {missed}"


@pytest.mark.skipif(EXECUTORS["compile.inductor"].skip_reason() is not None,
                    reason=str(EXECUTORS["compile.inductor"].skip_reason()))
@pytest.mark.skipif(TORCH < Version("2.13"), reason="the caches' aliasing bug was checked on 2.13.0 and 2.14.1 only")
@opt_in
def test_the_caches_mode_tells_a_served_graph_apart(tmp_path, monkeypatch):
    """Aliased inputs (a, a[1:]) written through a, then the same program on separate tensors in a new function:
    with the caches on, the graph compiled for the aliases is served (docs/upstream-reports/
    cache_serves_aliased_graph.py) and the fuzzer names the caches' record; compiled with the caches off, the same
    twin holds, so nothing else is blamed on them."""
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(tmp_path))
    program = Program((Input("a", shape=(4,)), Input("b", alias="a[1:]")),
                      (Statement("t1", "add_", ("a",)), Statement("t2", "times_two", ("b",))), ("t2",))
    verdicts = {}
    try:
        for caches in ("off", "on"):
            differential.configure(caches)
            run = differential.run(program, "compile.inductor", caches)
            differences = signature.differences(run.eager.signature, run.other.signature)
            verdicts[caches] = model.judge(run, "compile.inductor", differences)
    finally:
        differential.configure("off")
    assert verdicts["off"].status == "same", verdicts["off"]
    assert (verdicts["on"].status, verdicts["on"].records) == ("known", ("cache_serves_aliased_graph",)), verdicts["on"]

"""The operator surface (copysuite/surface): the classes read from the installed torch's schemas, the report's
format, and the contract checks failing under each surface fault of the catalog (and holding without it).
"""
from __future__ import annotations

import subprocess
import sys
import textwrap

import jsonschema
import pytest
import torch

from copysuite.judge.failures import ConformanceFailure
from copysuite.run.executions import EXECUTORS
from copysuite.run.storage import untyped_storage
from tests.faults.fault import CATALOG
from copysuite.surface import classify
from copysuite.surface.cells import classified, plan
from copysuite.surface.checks import Judge
from copysuite.surface import execute
from copysuite.surface.inputs import SPEC_CODE, Call
from copysuite.surface.report import markdown, surface

SURFACE_FAULTS = [f for f in CATALOG if f.name.startswith("surface_")]
CLASS_RECORD = {"type": "object", "required": ["total", "checked", "unchecked"], "additionalProperties": False,
                "properties": {"total": {"type": "integer"}, "checked": {"type": "array", "items": {"type": "string"}},
                               "unchecked": {"type": "object", "additionalProperties": {"type": "string"}}}}
REPORT = {"type": "object", "required": ["torch", "classes"], "additionalProperties": False,
          "properties": {"torch": {"type": "string"},
                         "classes": {"type": "object", "required": list(classify.CLASSES),
                                     "additionalProperties": False,
                                     "properties": {c: CLASS_RECORD for c in classify.CLASSES}}}}


@pytest.mark.parametrize("name, cls", [("transpose", "alias"), ("view", "alias"), ("add_", "inplace"),
                                       ("add", "functional"), ("add", "out"), ("_fused_adam", "other_mutation"),
                                       ("detach", "alias"), ("clone", "functional"), ("mm", "out")])
def test_known_ops_are_classified(name, cls):
    assert cls in classified()[name].classes, classified()[name].schemas


def test_overload_classes_from_the_annotations():
    ops = classified()
    assert ops["add"].overloads["Tensor"] == "functional" and ops["add"].overloads["out"] == "out"
    assert ops["transpose_"].inplace_view and not ops["add_"].inplace_view
    # transpose: not composite on 2.13, but its Dimname overload (gone since) is on 2.0
    assert ops["reshape"].composite_alias and not ops["view"].composite_alias
    assert all(op.classes for op in ops.values())


def test_classification_without_the_dispatcher_listing(monkeypatch):
    """Releases without torch._C._dispatch_get_all_op_names (1.13): the JIT's schema list, less the JIT's own
    builtins the dispatcher does not know, gives the same overloads."""
    listed = classify.overload_names()
    monkeypatch.delattr(torch._C, "_dispatch_get_all_op_names", raising=False)
    fallback = classify.overload_names()
    assert ("__getitem__", "Dict_Tensor") not in fallback and ("keys", "str") not in fallback
    for name in ("transpose", "add_", "mm", "_fused_adam"):
        assert name in dict(fallback)
    if hasattr(torch._C, "_dispatch_get_all_op_names"):
        assert fallback == listed


def test_composite_query_degrades_per_overload():
    """An overload the dispatcher does not know (a JIT builtin) is no composite; the query does not raise."""
    assert classify.is_composite("reshape", "") and not classify.is_composite("transpose", "int")
    assert not classify.is_composite("__getitem__", "Dict_Tensor")


def test_report_format_and_totals():
    report = surface("sample", run=False)
    jsonschema.validate(report, REPORT)
    for cls, names in classify.by_class(classified()).items():
        rec = report["classes"][cls]
        assert rec["total"] == len(names) and sorted(rec["checked"] + list(rec["unchecked"])) == names
    assert "transpose" in report["classes"]["alias"]["checked"]
    assert f"| alias | {report['classes']['alias']['total']} |" in markdown(report)


def test_default_plan_does_not_import_op_db():
    code = ("import sys; from copysuite.surface.cells import plan; cells = plan('sample'); "
            "print(len(cells), 'torch.testing._internal.common_methods_invocations' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert int(out[0]) > 80 and out[1] == "False"


@pytest.mark.parametrize("fault", SURFACE_FAULTS, ids=[f.name for f in SURFACE_FAULTS])
def test_surface_fault_is_caught(fault):
    (entry, _), = fault.expected
    cell, = [c for c in plan("sample") if c.id.entry == entry]
    assert cell.judge() >= 1   # holds without the fault
    with fault.applied(), pytest.raises(ConformanceFailure) as caught:
        cell.judge()
    failure = caught.value
    assert failure.kind == "mismatch" and failure.cell == str(cell.id)
    assert "import torch" in failure.reproduction and cell.calls[0].call in failure.reproduction


def test_reproduction_runs_alone():
    """A failure's reproduction is Python that rebuilds the input and runs the call by itself."""
    fault = next(f for f in SURFACE_FAULTS if f.name == "surface_view_copies")
    cell, = [c for c in plan("sample") if c.id.entry == "surface.alias:transpose"]
    with fault.applied(), pytest.raises(ConformanceFailure) as caught:
        cell.judge()
    ns = {}
    with fault.applied():
        exec(textwrap.dedent(caught.value.reproduction), ns)  # noqa: S102 - the call's own printed Python
    assert untyped_storage(ns["result"]).data_ptr() != untyped_storage(ns["x"]).data_ptr()


@pytest.mark.parametrize("cls, setup, call, expect, clause", [
    ("alias", "x = torch.randn(3, 4)", "x.clone()", "view", "shares_storage"),
    ("alias", "x = torch.randn(3, 4)", "x.detach()", "view", "is_view"),
    ("alias", "x = torch.randn(3, 4)", "x.clone()", "self", "is_self"),
    ("alias", "x = torch.randn(3, 4)", "x.view(12)", "copy", "no_shared_memory"),
    ("inplace", "x = torch.randn(3, 4)", "x.add(1)", "x.add(1)", "returns_self"),
    ("inplace", "x = torch.randn(3, 4)", "x.mul_(2)", "x.mul(3)", "writes"),
    ("functional", "x = torch.randn(3, 4)", "x.view(12)", "", "no_shared_memory"),
    ("functional", "x = torch.randn(3, 4)", "x.add_(1).clone()", "", "inputs_untouched"),
    ("out", "x = torch.randn(3, 4)", "torch.add(x.add_(1), 1)", "", "inputs_untouched"),
])
def test_each_clause_can_fail(cls, setup, call, expect, clause):
    """Each clause, given a call that breaks it (a copy where a view is due, ...), fails on that clause."""
    with pytest.raises(ConformanceFailure) as caught:
        Judge(Call("probe", cls, "hand", setup, call, expect), f"surface.{cls}:probe-contract-cpu-eager").judge()
    assert caught.value.check == clause


def test_backward_that_raises_fails_its_clause(monkeypatch):
    """A backward that raises (issue 93935's RecursionError) is the grad_to_source clause's observation, which a
    record can name, not an error of the harness; the reproduction runs the backward to the same error."""
    def refused(*args, **kwargs):
        raise RecursionError("maximum recursion depth exceeded")
    monkeypatch.setattr(torch.autograd, "backward", refused)
    call = Call("probe", "alias", "hand", "x = torch.randn(3, 4, requires_grad=True)", "x.chunk(2, 1)", "view")
    with pytest.raises(ConformanceFailure) as caught:
        Judge(call, "surface.alias:probe-contract-cpu-eager").judge()
    failure = caught.value
    assert failure.check == "grad_to_source" and failure.observed.startswith("backward raised RecursionError")
    with pytest.raises(RecursionError):
        exec(textwrap.dedent(failure.reproduction), {})  # noqa: S102 - the call's own printed Python


@pytest.mark.skipif(EXECUTORS["compile.aot_eager"].skip_reason() is not None,
                    reason=str(EXECUTORS["compile.aot_eager"].skip_reason()))
def test_compiled_call_that_raises_inside_a_dual_level(monkeypatch):
    """The reproduction of a compiled call that raised names the program's arguments from the namespace the judge
    holds open: building a second one would enter a nested forward-AD level and raise instead of the failure."""
    cell, = plan("sample", ("compile.aot_eager",), ("surface.alias:_make_dual",))

    def refused(*args, **kwargs):
        raise RuntimeError("injected: the compiled call raised")
    monkeypatch.setattr(execute, "run", refused)
    with pytest.raises(ConformanceFailure) as caught:
        cell.judge()
    assert caught.value.check == "call" and "injected" in caught.value.observed
    assert "result = program(fwAD, level, x)" in caught.value.reproduction


@pytest.mark.parametrize("call, holds", [("x.expand(3, 4)", True),
                                         ("torch.empty(0).set_(x.detach()).expand(3, 4)", False)])
def test_version_counter_without_increment_version(monkeypatch, call, holds):
    """Releases without torch.autograd.graph.increment_version (2.0 and older) bump the result's version through a
    view of no element: an expanded view holds, a tensor that only shares x's storage fails."""
    monkeypatch.delattr(torch.autograd.graph, "increment_version", raising=False)
    judge = Judge(Call("probe", "alias", "hand", "x = torch.randn(3, 1)", call, "detached"),
                  "surface.alias:probe-contract-cpu-eager")
    if holds:
        return judge.judge()
    with pytest.raises(ConformanceFailure) as caught:
        judge.judge()
    assert caught.value.check == "version_counter" and ".as_strided((0,), (1,)).add_(0)" in caught.value.reproduction


def _known(cells, clause, executions, torch_range, input=""):
    """A surface item of a registry record, as copysuite.surface.known reads it."""
    from copysuite.known import registry
    from copysuite.surface.known import Known
    item = registry.SurfaceItem(tuple(cells), clause, torch_range, tuple(executions), input)
    record = registry.Record("probe", "specs/known/probe.yaml", "docs/upstream-reports/probe.py", torch_range,
                             tuple(executions), "a note", surface=(item,))
    return Known(record, item)


def test_records_match_their_entry_release_and_execution():
    k = _known(["surface.out:_foreach_*", "surface.out:linear"], "refuses_grad_out", ["eager"], ">=2.13,<2.14")
    assert k.applies("surface.out:_foreach_add", "eager", "2.13.0+cpu")
    assert k.applies("surface.out:linear", "eager", "2.13.0")
    assert not k.applies("surface.out:_foreach_add", "compile.aot_eager", "2.13.0")
    assert not k.applies("surface.out:_foreach_add", "eager", "2.14.1")
    assert not k.applies("surface.out:add", "eager", "2.13.0")
    assert k.evidence == "docs/upstream-reports/probe.py: a note" and k.observed == "clause refuses_grad_out"


def test_record_of_one_input_applies_where_the_cell_judges_it(monkeypatch):
    """A record naming one input (an OpInfo sample) applies to the sweep's cell that has its call, not to the default
    sample's cell of the same op (which would otherwise fail it as no longer reproducing)."""
    from copysuite.surface import known
    k = _known(["surface.alias:probe"], "is_view", ["eager"], ">=1.13", input="OpInfo probe sample 1 ")
    monkeypatch.setattr(known, "known", lambda: (k,))
    lookup = known.records
    assert lookup("surface.alias:probe", "eager", "2.13.0", {"hand", "OpInfo probe sample 1 (torch.float32)"})
    assert not lookup("surface.alias:probe", "eager", "2.13.0", {"hand"})
    assert lookup("surface.alias:probe", "eager", "2.13.0")


@pytest.mark.skipif(EXECUTORS["compile.aot_eager"].skip_reason() is not None,
                    reason=str(EXECUTORS["compile.aot_eager"].skip_reason()))
def test_each_compiled_program_is_its_own_dynamo_frame():
    """torch.compile compiles each surface program itself, not a wrapper shared by all (whose one dynamo cache would
    reach its recompile limit and run the later programs eagerly, unnoticed)."""
    fns = [execute.program(text, ("x",), "compile.aot_eager", "add_") for text in ("x.add_(1)", "x.add_(2)")]
    codes = [getattr(fn, "_torchdynamo_orig_callable", fn).__code__ for fn in fns]
    assert codes[0] is not codes[1]
    assert all(c.co_name == "program" and c.co_filename.startswith(SPEC_CODE) for c in codes), codes

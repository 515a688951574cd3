"""The public Python bindings (copysuite/surface/bindings.py, binding_calls.py, binding_cells.py): the list derived
from torch.overrides and matched to the schema classes, calls rewritten through the binding, every element of a
multi-output result judged, the dunders' rules, each binding fault of the catalog caught (and the cells holding
without it), a failure's reproduction running alone, and the report's counts.
"""
from __future__ import annotations

import functools
import textwrap

import pytest
import torch

from copysuite.judge.failures import ConformanceFailure
from copysuite.known.registry import Record, SurfaceItem
from copysuite.run.storage import untyped_storage
from copysuite.surface import binding_calls, binding_cells, bindings, known
from copysuite.surface.binding_report import PYTHON, markdown, report
from copysuite.surface.inputs import Call
from tests.faults.fault import CATALOG

BINDING_FAULTS = [f for f in CATALOG if f.name.startswith("binding_")]


def by_name(name):
    return next(b for b in bindings.derived() if b.name == name)


@pytest.mark.parametrize("name, aten, cls, python", [
    ("torch.split", "split", "alias", True), ("Tensor.split", "split", "alias", True),
    ("Tensor.unbind", "unbind", "alias", False), ("Tensor.unflatten", "unflatten", "alias", True),
    ("Tensor.T", "numpy_T", "alias", False), ("torch.linalg.diagonal", "linalg_diagonal", "alias", False),
    ("Tensor.add_", "add_", "inplace", False), ("Tensor.__iadd__", "add_", "inplace", False),
    ("Tensor.__ior__", "__ior__", "inplace", False), ("torch.add", "add", "out", False),
    ("torch.nn.functional.relu", "relu_", "inplace_flag", True), ("Tensor.__iter__", "", "dunder", True),
    ("Tensor.__getitem__", "", "dunder", False), ("Tensor.__deepcopy__", "", "dunder", True),
])
def test_bindings_are_matched_to_their_schema_class(name, aten, cls, python):
    b = by_name(name)
    assert cls in b.classes and b.aten == aten and b.python == python, b


def test_functional_names_are_not_matched_to_aten_views():
    """torch.nn.functional's names are its own: F.unfold is im2col, not aten::unfold (a view)."""
    assert by_name("torch.nn.functional.unfold").classes == ()
    assert "out" not in by_name("Tensor.add").classes   # a method takes no out=


def test_every_binding_is_what_its_name_reaches():
    for b in bindings.in_scope():
        owner, _, attr = b.name.rpartition(".")
        space = torch.Tensor if owner == "Tensor" else functools.reduce(getattr, owner.split(".")[1:], torch)
        assert getattr(space, attr) is b.obj or b.is_property, b.name


@pytest.mark.parametrize("name, source, expected", [
    ("torch.split", "torch.ops.aten.split(x, 2, 2)", "torch.split(x, 2, 2)"),
    ("Tensor.split", "torch.split(x, 2, 2)", "x.split(2, 2)"),
    ("Tensor.__iadd__", "x.add_(torch.ones(3, 4))", "x.__iadd__(torch.ones(3, 4))"),
    ("Tensor.T", "x.T", "x.T"),
    ("Tensor.unbind", "torch.unbind(x)", "x.unbind()"),
    ("torch.linalg.diagonal", "torch.linalg.diagonal(x)", "torch.linalg.diagonal(x)"),
    ("Tensor.T", "x.t(0)", None),
    ("torch.narrow", "x[:, 1:3]", None),
])
def test_calls_are_rewritten_through_the_binding(name, source, expected):
    assert binding_calls.text(by_name(name), source) == expected


def test_the_sample_checks_every_multi_output_alias_binding():
    planned = {b.name for b, _ in binding_cells.planned("sample")}
    for name in ("Tensor.split", "torch.split", "torch.chunk", "Tensor.unbind", "torch.unbind", "Tensor.tensor_split",
                 "Tensor.__iter__", "Tensor.unflatten", "Tensor.__array__", "torch.nn.functional.relu"):
        assert name in planned, name
    assert binding_cells.multi_output("split") and not binding_cells.multi_output("transpose")


def cell(entry, device="cpu"):
    found, = [c for c in binding_cells.plan("sample") if c.id.entry == entry and c.id.device == device]
    return found


@pytest.mark.parametrize("fault", BINDING_FAULTS, ids=[f.name for f in BINDING_FAULTS])
@pytest.mark.parametrize("device", ["cpu", "meta"])
def test_binding_fault_is_caught(fault, device):
    for entry, _ in fault.expected:
        c = cell(entry, device)
        assert c.judge() >= 1   # holds without the fault
        with fault.applied(), pytest.raises(ConformanceFailure) as caught:
            c.judge()
        assert caught.value.kind == "mismatch" and caught.value.cell == str(c.id)
        assert f"the binding {entry.partition(':')[2]}" in caught.value.spec


def test_meta_cells_judge_only_the_view_calls():
    """On the meta device (no data) only a view's identity is meaningful: the memory and copy rules stay on the CPU."""
    meta = {c.id.entry: c for c in binding_cells.plan("sample") if c.id.device == "meta"}
    assert "surface.binding:Tensor.split" in meta and "surface.binding:Tensor.__iter__" in meta
    assert "surface.binding:Tensor.__array__" not in meta and "surface.binding:Tensor.__deepcopy__" not in meta
    getitem = [binding_cells.on_meta(c) for c in meta["surface.binding:Tensor.__getitem__"].calls]
    assert [c.call for c in getitem if c] == ["x[1]", "x[:, 1:3]", "x[0, ::2, 1:]", "x[..., None]"]
    assert all(c.setup.endswith(binding_cells.META) for c in getitem if c)


@pytest.mark.parametrize("setup, call", [
    ("x = torch.randn(3, 4, requires_grad=True)", "x.rename('a', 'b')"),
    ("x = torch.randn(3, 4, requires_grad=True)", "x.refine_names('a', 'b')"),
    ("x = torch.randn(3, 4, requires_grad=True).rename('a', 'b')", "x.align_to('b', 'a')"),
    ("x = torch.randn(3, 4, names=('a', 'b'))", "x.t()"),
])
def test_a_view_of_named_tensors_stays_on_the_cpu(setup, call):
    """Named tensors are CPU and CUDA only (aten: "NYI: named tensors only support CPU and CUDA tensors"): 2.2.2
    refuses to move a named tensor to meta, 2.0.1 moves it and then fails its sum(); neither is the view's contract.
    The same view call without names still runs on meta."""
    assert binding_cells.on_meta(Call("probe", "alias", "hand", setup, call, "view")) is None
    plain = Call("probe", "alias", "hand", "x = torch.randn(3, 4, requires_grad=True)", "x.t()", "view")
    assert binding_cells.on_meta(plain) is not None


def test_a_multi_output_reproduction_runs_alone_on_the_failing_element():
    fault = next(f for f in BINDING_FAULTS if f.name == "binding_split_last_chunk_copied")
    with fault.applied(), pytest.raises(ConformanceFailure) as caught:
        cell("surface.binding:Tensor.split").judge()
    text = textwrap.dedent(caught.value.reproduction)
    assert "result = x.split(" in text and "print(result[1]." in text
    ns = {}
    with fault.applied():
        exec(text, ns)  # noqa: S102 - the failure's own printed Python
    assert untyped_storage(ns["result"][1]).data_ptr() != untyped_storage(ns["x"]).data_ptr()


@pytest.mark.parametrize("cls, setup, call, expect, clause", [
    ("dunder", "import numpy\nx = torch.randn(3, 4)", "numpy.array(x)", "memory", "shares_memory"),
    ("dunder", "x = torch.randn(3, 4)", "x.tolist()", "memory", "shares_memory"),
    ("alias", "x = torch.randn(3, 4)", "tuple(t.clone() for t in x)", "view", "shares_storage"),
    ("alias", "x = torch.randn(3, 4)", "x[0:2]", "copy", "no_shared_memory"),
    ("inplace", "x = torch.randn(3, 4)", "x.__setitem__(0, 5.0)", "", "returns_self"),
])
def test_each_binding_clause_can_fail(cls, setup, call, expect, clause):
    b = by_name("Tensor.__array__")
    judge = binding_cells.BindingJudge(Call("probe", cls, "hand", setup, call, expect),
                                       "surface.binding:probe-contract-cpu-eager", "eager", False, b)
    with pytest.raises(ConformanceFailure) as caught:
        judge.judge()
    assert caught.value.check == clause and "the binding Tensor.__array__" in caught.value.spec


def test_registry_records_explain_binding_cells_only(monkeypatch):
    """The surface's one lookup (copysuite.surface.known.records) gives a binding cell its registry items."""
    item = SurfaceItem(("surface.binding:Tensor.probe",), "is_view", ">=2.0", ("eager",))
    record = Record("probe", "specs/known/bindings.yaml", "docs/upstream-reports/probe.py", ">=2.0", ("eager",),
                    "a note", surface=(item,))
    monkeypatch.setattr(known.registry, "load", lambda: {"probe": record})
    known.known.cache_clear()
    try:
        found, = known.records("surface.binding:Tensor.probe", "eager", "2.13.0")
        assert found.evidence.startswith(record.evidence) and found.observed == "clause is_view"
        assert found.matches(type("F", (), {"check": "is_view"})) and not found.matches(type("F", (), {"check": "x"}))
        assert not known.records("surface.binding:Tensor.probe", "compile.inductor", "2.13.0")
        assert not known.records("surface.alias:probe", "eager", "2.13.0")
    finally:
        known.known.cache_clear()


def test_report_counts_every_binding_in_scope():
    rep = report("sample", run=False)
    scoped = bindings.in_scope()
    for cls, rec in rep["classes"].items():
        members = {b.name for b in scoped if (b.python if cls == PYTHON else cls in b.classes)}
        assert rec["total"] == len(members) and set(rec["checked"]) | set(rec["unchecked"]) == members, cls
    assert rep["in_scope"] == len(scoped) and len(rep["out_of_scope"]) + len(scoped) == rep["listed"]
    assert "Tensor.split" in rep["classes"]["alias"]["checked"]
    assert f"| dunder | {rep['classes']['dunder']['total']} |" in markdown(rep)


@pytest.mark.parametrize("entry", ["surface.binding:Tensor.__array__", "surface.binding:Tensor.__dlpack__"])
def test_the_dunders_memory_clause_runs_without_tensor_untyped_storage(entry, monkeypatch):
    """Tensor.untyped_storage is new in 2.0: on 1.13.1 the dunders' memory clause must reach x's storage another way
    (copysuite.run.storage.untyped_storage), not stop the cell with an AttributeError. Here the method is hidden from
    the installed torch's tensors (it is the C base class's: a property that raises hides it), as 1.13.1 lacks it;
    Tensor.storage() of today calls it too, so the one helper is the only way in that stays open."""
    def absent(self):
        raise AttributeError("'Tensor' object has no attribute 'untyped_storage'")
    monkeypatch.setattr(torch.Tensor, "untyped_storage", property(absent), raising=False)   # 1.13.1 has none
    assert not hasattr(torch.ones(1), "untyped_storage")
    assert cell(entry).judge() >= 1

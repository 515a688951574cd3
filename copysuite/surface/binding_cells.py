"""The binding cells of a conformance run: one per public binding that returns an alias or writes in place
(copysuite.surface.bindings), `surface.binding:NAME-contract-cpu-EXECUTION`, judging every call planned for it
(copysuite.surface.binding_calls) with the contract of its classes (copysuite.surface.checks): every element of a
tuple or list result is judged. A binding with hand-written view calls has a second cell on the meta device,
`surface.binding:NAME-contract-meta-eager`, judging those calls there.

    sample   the bindings a dispatcher check cannot see and those returning several tensors: the Python-defined
             ones, the dunders, the multi-output alias ops, the in-place dunders and torch.nn.functional's inplace=
             flags; on the hand-written calls only
    all      every binding in scope, on every call the operator surface plans for its aten op (OpInfo samples and
             schema-generated calls included)
A known bug of a binding cell is a record of the registry (specs/known/*.yaml) with a `surface` item naming it.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace


from copysuite.judge.failures import ConformanceFailure
from copysuite.run.storage import untyped_storage
from copysuite.surface import binding_calls, bindings
from copysuite.surface.cells import PREFIX, SurfaceCell
from copysuite.surface.checks import Judge, NotApplicable
from copysuite.surface.classify import classified
from copysuite.surface.observe import storage_ptr

CLASS = "binding"
ENTRY = f"{PREFIX}{CLASS}:"


class BindingJudge(Judge):
    """The surface's judge, naming the binding in a failure, with the dunders' memory-sharing clause."""

    def __init__(self, call, cell, execution, inplace_view, binding):
        super().__init__(call, cell, execution, inplace_view)
        self.binding = binding

    def fail(self, clause, expected, observed, detail=None, text=None, extra=""):
        try:
            super().fail(clause, expected, observed, detail, text, extra)
        except ConformanceFailure as exc:
            b, call = self.binding, self.call
            matched = f"matched to aten::{b.aten}" if b.aten and call.cls != "dunder" else "its documented rule"
            rule = bindings.DUNDERS.get(b.short, "")
            spec = (f"the binding {b.name} ({', '.join(b.classes)}; {matched}"
                    + (f": {rule}" if rule else "") + "; copysuite/surface/bindings.py)")
            raise replace(exc, spec=spec, evidence=exc.evidence if call.cls != "dunder" else [],
                          reproduction=element(exc.reproduction, detail)) from None

    def dunder(self, ns):
        """The result (a NumPy array) lies in x's memory."""
        x = ns["x"]
        result = self.run(self.call.call, ns)
        interface = getattr(result, "__array_interface__", None)
        if interface is None:
            self.fail("shares_memory", "an array over x's memory", type(result).__name__)
        start, size = storage_ptr(x), untyped_storage(x).nbytes()
        if not start <= interface["data"][0] < start + max(size, 1):
            self.fail("shares_memory", "an array over x's memory (no copy)", "an array elsewhere (a copy)",
                      extra="import numpy\nprint(numpy.shares_memory(result, x.numpy()))")


def element(reproduction: str, detail) -> str:
    """The reproduction's closing prints look at the failing element of a multi-output result (`result[2]`)."""
    found = re.match(r"result (\d+)\b", str(detail or ""))
    if not found:
        return reproduction
    lines = reproduction.splitlines()
    for i, line in enumerate(lines):
        if line.strip().startswith("print("):
            lines[i] = re.sub(r"\bresult\b", f"result[{found[1]}]", line)
    return "\n".join(lines)


# where the meta device is meaningful: a view's identity (autograd view, base, version counter, gradient) does not
# depend on data, and the fake tensors of torch.compile run these same kernels; storage and values do (a meta tensor
# has no data: every one "shares" address 0), so only the hand-written view calls run there
META = "\nx = x.detach().to('meta').requires_grad_(x.requires_grad)   # the same input on the meta device"
# named tensors exist on the CPU and CUDA only (aten's TensorFactories.cpp: "NYI: named tensors only support CPU and
# CUDA tensors", in every release): 2.2 refuses names on a meta tensor, 2.0.1 lets them on and fails the next op
NAMED = re.compile(r"\.(rename|refine_names|align_to|align_as)\(|\bnames=")


def on_meta(call):
    """The call on the meta device, or None where that is not meaningful."""
    if call.cls != "alias" or call.expect != "view" or call.source != "hand" or "import " in call.setup:
        return None
    if NAMED.search(f"{call.setup}\n{call.call}"):
        return None
    return replace(call, setup=call.setup + META)


@dataclass(frozen=True)
class BindingCell(SurfaceCell):
    binding: object = None
    device: str = "cpu"

    @property
    def id(self):
        cpu = super().id
        return replace(cpu, device=self.device)

    def judge(self) -> int:
        applied = 0
        calls = self.calls if self.device == "cpu" else [c for c in map(on_meta, self.calls) if c is not None]
        for call in calls:
            try:
                BindingJudge(call, str(self.id), self.execution, self.inplace_view_of(call), self.binding).judge()
            except NotApplicable:
                continue
            applied += 1
        return applied

    @staticmethod
    def inplace_view_of(call) -> bool:
        op = classified().get(call.op)
        return bool(op and op.inplace_view and call.cls == "inplace")


def multi_output(aten: str) -> bool:
    """Some alias overload of the op returns several tensors (a list or a tuple)."""
    op = classified().get(aten)
    return bool(op) and any(cls == "alias" and ("[]" in op.schemas[o].partition("->")[2]
                                                or op.schemas[o].partition("->")[2].strip().startswith("("))
                            for o, cls in op.overloads.items())


def in_sample(b) -> bool:
    """What the default run checks: what no dispatcher check sees, and every element of a multi-output result."""
    return (b.python and not b.name.startswith("torch.") or "dunder" in b.classes
            or b.short.startswith("__i") or "alias" in b.classes and multi_output(b.aten)
            or "inplace_flag" in b.classes and b.name.startswith("torch.nn.functional."))


@functools.cache
def planned(scope: str) -> tuple:
    """(binding, its calls) of every binding of the scope that has a call."""
    if scope == "none":
        return ()
    calls = binding_calls.surface_calls(scope)
    chosen = [b for b in bindings.in_scope() if scope == "all" or in_sample(b)]
    return tuple((b, tuple(found)) for b in chosen if (found := binding_calls.for_binding(b, calls)))


def plan(scope: str, executions=("eager",), entries=()) -> list:
    """The binding cells of `scope` under each execution; `entries` (surface.binding:NAME ids) narrows them."""
    wanted = [e for e in entries if e.startswith(PREFIX)]
    if entries and not any(e.startswith(ENTRY) for e in wanted):
        return []
    cells = [BindingCell(b.name, CLASS, ex, calls, binding=b) for b, calls in planned(scope) for ex in executions]
    cells += [BindingCell(b.name, CLASS, "eager", calls, binding=b, device="meta") for b, calls in planned(scope)
              if "eager" in executions and any(on_meta(c) for c in calls)]
    return [c for c in cells if not wanted or c.id.entry in wanted]


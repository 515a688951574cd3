"""Every aten op name of the installed torch, classified from torch's own schemas (imports torch, runs no op).

An overload's class:
    out             every argument it writes (`Tensor(a!)`) is keyword-only: `add.out(..., *, Tensor(a!) out)`
    inplace         the name ends in `_` and its first argument is written: `add_.Tensor(Tensor(a!) self, ...)`
    other_mutation  it writes some other argument (`_fused_adam`, `retain_grad`, ...)
    alias           it writes nothing and a return shares an alias set with an argument: `Tensor(a) self ->
                    Tensor(a)`
    functional      no annotation at all: a new tensor
An op name (the overload packet, `add`) belongs to the class of every one of its overloads. An overload tagged
`inplace_view` changes self's metadata in place; an alias overload registered as CompositeImplicitAutograd "may
alias" (copysuite.surface.contract holds its documented rule).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import torch

CLASSES = ("alias", "inplace", "out", "other_mutation", "functional")
COMPOSITE = "CompositeImplicitAutograd"


@dataclass
class OpName:
    name: str                                       # the overload packet, without `aten::`
    overloads: dict = field(default_factory=dict)   # overload name ("" for the default) -> its class
    schemas: dict = field(default_factory=dict)     # overload name -> the schema as text
    inplace_view: bool = False                      # some overload carries the inplace_view tag
    composite_alias: bool = False                   # some alias overload is CompositeImplicitAutograd

    @property
    def classes(self) -> tuple:
        return tuple(c for c in CLASSES if c in self.overloads.values())


def overload_names() -> list:
    """("name", "overload") of every aten overload the installed torch registers."""
    if hasattr(torch._C, "_dispatch_get_all_op_names"):
        full = [n[len("aten::"):] for n in torch._C._dispatch_get_all_op_names() if n.startswith("aten::")]
        return sorted(tuple(n.partition(".")[::2]) for n in full)
    # older releases: every schema of the JIT the dispatcher registers (the JIT's own builtins on lists, dicts and
    # strings, `__getitem__.Dict_Tensor`, `keys.str`, share the aten namespace but are no dispatcher operator)
    jit = {(s.name[len("aten::"):], s.overload_name) for s in torch._C._jit_get_all_schemas()
           if s.name.startswith("aten::")}
    return sorted(n for n in jit if torch._C._dispatch_dump(qualified(*n)))


def qualified(name: str, overload: str) -> str:
    return f"aten::{name}" + (f".{overload}" if overload else "")


def schema(name: str, overload: str):
    return torch._C._get_schema(f"aten::{name}", overload)


def written(arg) -> bool:
    return arg.alias_info is not None and arg.alias_info.is_write


def overload_class(name: str, s) -> str:
    writes = [a for a in s.arguments if written(a)]
    if writes:
        if all(a.kwarg_only for a in writes):
            return "out"
        if name.endswith("_") and s.arguments and written(s.arguments[0]):
            return "inplace"
        return "other_mutation"
    if any(r.alias_info is not None for r in s.returns):
        return "alias"
    return "functional"


def tags(name: str, overload: str) -> tuple:
    packet = getattr(torch.ops.aten, name, None)
    try:
        return tuple(getattr(getattr(packet, overload or "default"), "tags", ()))
    except (AttributeError, RuntimeError):
        return ()


def is_composite(name: str, overload: str) -> bool:
    ask = getattr(torch._C, "_dispatch_has_kernel_for_dispatch_key", None)
    try:
        return bool(ask and ask(qualified(name, overload), COMPOSITE))
    except RuntimeError:   # the dispatcher does not know this overload (a JIT builtin): it has no kernel at all
        return False


def classify() -> dict:
    """{op name: OpName} for every aten op name of the installed torch."""
    ops = {}
    for name, overload in overload_names():
        try:
            s = schema(name, overload)
        except RuntimeError:   # a name the dispatcher lists with no schema (an impl-only registration)
            continue
        op = ops.setdefault(name, OpName(name))
        op.overloads[overload] = cls = overload_class(name, s)
        op.schemas[overload] = str(s)
        op.inplace_view |= torch.Tag.inplace_view in tags(name, overload) if hasattr(torch, "Tag") else False
        op.composite_alias |= cls == "alias" and is_composite(name, overload)
    return ops


def by_class(ops: dict) -> dict:
    """{class: sorted op names}."""
    return {c: sorted(n for n, op in ops.items() if c in op.classes) for c in CLASSES}

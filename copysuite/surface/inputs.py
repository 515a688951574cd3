"""The calls a surface cell judges: the hand-written ones (copysuite.surface.builders) and, for the whole sweep, the
sample inputs of the installed release's own OpInfo database (torch.testing._internal.common_methods_invocations
.op_db, as each release ships it; importing it needs the expecttest package and takes seconds, so it is imported
only when an OpInfo call is asked for).

A call carries its Python text (setup and call), which is what a failure prints to reproduce it.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import torch
from torch.utils._pytree import tree_map

from copysuite.surface import builders
from copysuite.surface.contract import rule

SPEC_CODE = "<spec surface: "   # the fault audit treats code compiled under "<spec ..." as the program under test
PRIVATE = ("torch", "fwAD", "level", "info", "sample", "__builtins__")   # namespace names that are not inputs


@dataclass(frozen=True)
class Call:
    op: str             # the aten op name whose contract it checks
    cls: str            # alias, inplace, out or functional
    source: str         # "hand" or the OpInfo and sample it comes from
    setup: str          # Python binding `x` (the argument the contract names) and whatever the call uses
    call: str           # one expression
    expect: str = ""    # alias: the rule for this input; inplace: the out-of-place expression of the same value
    teardown: str = ""
    fresh: object = None   # () -> namespace, where rebuilding is cheaper than running `setup`
    exact: bool = True     # its values are reproducible (an OpInfo with nondeterministic output is not)

    def namespace(self) -> dict:
        if self.fresh is not None:
            return self.fresh()
        ns = {"torch": torch}
        torch.manual_seed(0)   # the same values each time: a check compares the call with its reference
        exec(compiled(self.setup, f"{SPEC_CODE}{self.op}>", "exec"), ns)
        return ns

    def evaluate(self, text: str, ns: dict):
        return eval(compiled(text, f"{SPEC_CODE}{self.op}>", "eval"), ns)

    def close(self, ns: dict) -> None:
        if self.teardown:
            exec(compiled(self.teardown, f"{SPEC_CODE}{self.op}>", "exec"), ns)

    def inputs(self, ns: dict) -> list:
        """Every tensor the call is given (the namespace's, lists included)."""
        found = []
        tree_map(lambda v: found.append(v) if isinstance(v, torch.Tensor) else None,
                 [v for k, v in ns.items() if k not in PRIVATE and not callable(v)])
        return found


@functools.lru_cache(maxsize=None)
def compiled(text: str, filename: str, mode: str):
    return compile(text, filename, mode)


def hand_calls() -> list:
    calls = [Call(op, "alias", "hand", setup, call, expect, builders.TEARDOWN.get(op, ""))
             for op, setup, call, expect in builders.ALIAS]
    calls += [Call(op, "inplace", "hand", setup, call, ref) for op, setup, call, ref in builders.INPLACE]
    calls += [Call(op, cls, "hand", setup, call) for op, cls, setup, call in builders.FORMS]
    return calls


# ---- OpInfo samples ------------------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def op_db() -> tuple:
    from torch.testing._internal.common_methods_invocations import op_db as db
    return tuple(db)


def dtype_of(info):
    supported = info.supported_dtypes("cpu")
    if torch.float32 in supported:
        return torch.float32
    return sorted(supported, key=str)[0] if supported else None


@functools.lru_cache(maxsize=None)
def samples(info, dtype) -> tuple:
    torch.manual_seed(0)
    return tuple(info.sample_inputs("cpu", dtype, requires_grad=False))


def function_text(info) -> str | None:
    """`torch.NAME` where the OpInfo's name is a public function of the torch namespace (looked up at each call, so
    that a patched function is the one called)."""
    owner = torch
    for part in info.name.split("."):
        owner = getattr(owner, part, None)
    return f"torch.{info.name}" if callable(owner) and not isinstance(owner, type) else None


def fresh_sample(sample):
    def copy(v):
        if not isinstance(v, torch.Tensor):
            return v
        c = v.detach().clone()
        return c.requires_grad_(v.requires_grad) if c.is_floating_point() or c.is_complex() else c
    return {"torch": torch, "x": tree_map(copy, sample.input), "args": tree_map(copy, tuple(sample.args)),
            "kwargs": tree_map(copy, dict(sample.kwargs))}


def opinfo_calls(info, classes: dict, limit: int) -> list:
    """The calls of one OpInfo's first `limit` samples, for each class of its aten op its variants reach."""
    aten = info.aten_name or info.name.replace(".", "_")
    fn, dtype = function_text(info), dtype_of(info)
    if dtype is None:
        return []
    forms = []
    if fn and aten in classes["alias"] and rule(aten) == "view":
        forms.append((aten, "alias", f"{fn}(x, *args, **kwargs)", "view"))
    if fn and aten in classes["functional"]:
        forms.append((aten, "functional", f"{fn}(x, *args, **kwargs)", ""))
    if fn and info.supports_out and aten in classes["out"]:
        forms.append((aten, "out", f"{fn}(x, *args, **kwargs)", ""))
    if info.inplace_variant is not None and f"{aten}_" in classes["inplace"] and hasattr(torch.Tensor, f"{aten}_"):
        forms.append((f"{aten}_", "inplace", f"x.{aten}_(*args, **kwargs)", f"{fn or 'x.' + aten}(x, *args, **kwargs)"
                      if fn else f"x.{aten}(*args, **kwargs)"))
    if not forms:
        return []
    try:
        chosen = samples(info, dtype)[:limit]
    except Exception:   # a sample function that fails on this release: the op stays unchecked
        return []
    name = info.name + (f".{info.variant_test_name}" if info.variant_test_name else "")
    calls = []
    for i, sample in enumerate(chosen):
        if not isinstance(sample.input, torch.Tensor):
            continue
        setup = ("from torch.testing._internal.common_methods_invocations import op_db\n"
                 f"info = next(o for o in op_db if (o.name, o.variant_test_name) == ({info.name!r}, "
                 f"{info.variant_test_name!r}))\ntorch.manual_seed(0)\n"
                 f"sample = list(info.sample_inputs('cpu', {dtype}, requires_grad=False))[{i}]\n"
                 "x, args, kwargs = sample.input, sample.args, sample.kwargs")
        for op, cls, call, expect in forms:
            calls.append(Call(op, cls, f"OpInfo {name} sample {i} ({dtype})", setup, call, expect,
                              fresh=functools.partial(fresh_sample, sample),
                              exact=not getattr(info, "has_nondeterministic_output", False)))
    return calls


def all_calls(classes: dict, limit: int = 2) -> list:
    """The hand-written calls and the OpInfo calls (`limit` samples per OpInfo)."""
    calls = hand_calls()
    for info in op_db():
        calls += opinfo_calls(info, classes, limit)
    return calls

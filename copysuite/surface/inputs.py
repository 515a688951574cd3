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


class NotApplicable(Exception):
    """The op refuses this input (an OpInfo sample meant for another variant), or there is no such sample."""


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
        exec(compiled(self.setup, f"{SPEC_CODE}{self.op}>", "exec"), ns)  # noqa: S102 - the call's own printed Python
        return ns

    def evaluate(self, text: str, ns: dict):
        return eval(compiled(text, f"{SPEC_CODE}{self.op}>", "eval"), ns)

    def close(self, ns: dict) -> None:
        if self.teardown:
            exec(compiled(self.teardown, f"{SPEC_CODE}{self.op}>", "exec"), ns)  # noqa: S102 - its printed Python

    def inputs(self, ns: dict) -> list:
        """Every tensor the call is given (the namespace's, lists included)."""
        found = []
        tree_map(lambda v: found.append(v) if isinstance(v, torch.Tensor) else None,
                 [v for k, v in ns.items() if k not in PRIVATE and not callable(v)])
        return found


@functools.cache
def compiled(text: str, filename: str, mode: str):
    return compile(text, filename, mode)


def hand_calls() -> list:
    calls = [Call(op, "alias", "hand", setup, call, expect, builders.TEARDOWN.get(op, ""))
             for op, setup, call, expect in builders.ALIAS]
    calls += [Call(op, "inplace", "hand", setup, call, ref, exact=bool(ref))
              for op, setup, call, ref in builders.INPLACE]
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
    return min(supported, key=str) if supported else None


SAMPLES: dict = {}   # (OpInfo name, variant, dtype) -> its samples (an OpInfo is a dataclass: unhashable)


def samples(info, dtype) -> tuple:
    key = (info.name, info.variant_test_name, dtype)
    if key not in SAMPLES:
        torch.manual_seed(0)
        SAMPLES[key] = tuple(info.sample_inputs("cpu", dtype, requires_grad=False))
    return SAMPLES[key]


def function_text(name: str) -> str | None:
    """`torch.NAME` where NAME is a public function of the torch namespace (looked up at each call, so that a patched
    function is the one called)."""
    owner = torch
    for part in name.split("."):
        owner = getattr(owner, part, None)
    return f"torch.{name}" if callable(owner) and not isinstance(owner, type) else None


def inplace_text(aten: str) -> str | None:
    """The in-place form of an aten name: the Tensor method `x.NAME_`, else the function `torch.NAME_` (relu_, ...)."""
    if hasattr(torch.Tensor, f"{aten}_"):
        return f"x.{aten}_(*args, **kwargs)"
    return f"torch.{aten}_(x, *args, **kwargs)" if callable(getattr(torch, f"{aten}_", None)) else None


def forms_name(info) -> str:
    return info.aten_name or info.name.replace(".", "_")


def fresh_sample(info, dtype, index):
    """A copy of the OpInfo's sample `index` (the samples are built once, at the first call: planning needs none)."""
    try:
        built = samples(info, dtype)
    except Exception as exc:   # a sample function that fails on this release: the op stays unchecked
        raise NotApplicable(f"the OpInfo's samples fail: {type(exc).__name__}: {exc}") from exc
    if index >= len(built) or not isinstance(built[index].input, torch.Tensor):
        raise NotApplicable(f"no tensor sample {index}")
    sample = built[index]

    def copy(v):
        if not isinstance(v, torch.Tensor):
            return v
        c = v.detach().clone()
        return c.requires_grad_(v.requires_grad) if c.is_floating_point() or c.is_complex() else c
    return {"torch": torch, "x": tree_map(copy, sample.input), "args": tree_map(copy, tuple(sample.args)),
            "kwargs": tree_map(copy, dict(sample.kwargs))}


def opinfo_calls(info, classes: dict, limit: int) -> list:
    """The calls of one OpInfo's first `limit` samples, for each class its name and its aliases' names reach (the
    in-place form of any name whose `NAME_` is an in-place op, whether or not the OpInfo lists it)."""
    dtype = dtype_of(info)
    if dtype is None:
        return []
    names = [(info.aten_name or info.name.replace(".", "_"), info.name)]
    names += [(a.name.replace(".", "_"), a.name) for a in getattr(info, "aliases", ())]
    forms = []
    for aten, public in names:
        fn = function_text(public)
        call = f"{fn}(x, *args, **kwargs)" if fn else None
        if call and aten in classes["alias"] and rule(aten) == "view":
            forms.append((aten, "alias", call, "view"))
        if call and aten in classes["functional"]:
            forms.append((aten, "functional", call, ""))
        if call and info.supports_out and aten in classes["out"]:
            forms.append((aten, "out", call, ""))
        inplace = inplace_text(aten)
        if inplace and f"{aten}_" in classes["inplace"]:
            # the out-of-place value the write must equal, where the OpInfo itself pairs the two variants
            reference = call if info.inplace_variant is not None and aten == forms_name(info) else ""
            forms.append((f"{aten}_", "inplace", inplace, reference or ""))
    name = info.name + (f".{info.variant_test_name}" if info.variant_test_name else "")
    calls = []
    for i in range(limit if forms else 0):
        setup = ("from torch.testing._internal.common_methods_invocations import op_db\n"
                 f"info = next(o for o in op_db if (o.name, o.variant_test_name) == ({info.name!r}, "
                 f"{info.variant_test_name!r}))\ntorch.manual_seed(0)\n"
                 f"sample = list(info.sample_inputs('cpu', {dtype}, requires_grad=False))[{i}]\n"
                 "x, args, kwargs = sample.input, sample.args, sample.kwargs")
        for op, cls, call, expect in forms:
            calls.append(Call(op, cls, f"OpInfo {name} sample {i} ({dtype})", setup, call, expect,
                              fresh=functools.partial(fresh_sample, info, dtype, i),
                              exact=bool(expect or cls != "inplace")
                              and not getattr(info, "has_nondeterministic_output", False)))
    return calls


def all_calls(classes: dict, limit: int = 2) -> list:
    """The hand-written calls and the OpInfo calls (`limit` samples per OpInfo)."""
    calls = hand_calls()
    classes = {c: set(names) for c, names in classes.items()}
    for info in op_db():
        calls += opinfo_calls(info, classes, limit)
    return calls

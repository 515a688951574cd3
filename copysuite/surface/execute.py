"""Run one expression of a surface call over its namespace: eagerly, or compiled by torch.compile with an execution's
backend (copysuite.strategies.space.EXECUTIONS); and the Python that does the same, for a failure's reproduction.
"""
from __future__ import annotations

import functools

import torch

from copysuite.run import process_state
from copysuite.run.executions import EXECUTORS, define
from copysuite.surface.inputs import SPEC_CODE


def names(ns: dict) -> tuple:
    """The program's arguments: every name the setup bound."""
    return tuple(k for k in ns if k not in ("torch", "__builtins__"))


@functools.cache
def program(text: str, arguments: tuple, execution: str, op: str):
    """`def program(ARGS): return TEXT`, compiled by the execution's backend (one code object, so one dynamo cache,
    per text)."""
    source = f"def program({', '.join(arguments)}):\n    return {text}\n"
    filename = f"{SPEC_CODE}{op}> ({execution}: {text})"
    ns = {"torch": torch}
    define(source, filename, ns)   # each program compiled as itself, never in a frame shared by all (issue 124269)
    fn = ns["program"]
    executor = EXECUTORS[execution]
    if executor.transform is None:
        return fn
    return torch.compile(fn, backend=executor.backend, dynamic=executor.dynamic or None)


def run(call, text: str, ns: dict, execution: str):
    """The value of `text` over `ns` (the call's namespace), run the execution's way."""
    if execution == "eager":
        return call.evaluate(text, ns)
    arguments = names(ns)
    fn = program(text, arguments, execution, call.op)
    process_state.fresh_fake_tensor_cache()   # traced as in a fresh process, whatever compiled before
    return fn(*(ns[k] for k in arguments))


def skip_reason(execution: str) -> str | None:
    executor = EXECUTORS[execution]
    if executor.transform not in (None, "compile"):
        return f"surface cells run eagerly or under torch.compile, not under {execution}"
    return executor.skip_reason("cpu")


def reproduction(call, text: str, execution: str, extra: str, arguments: tuple) -> str:
    """The call's Python; `extra`'s lines that define names the call uses (`out = ...`) come before it, the rest
    after it. `arguments`: the compiled program's, from the namespace the judge holds open (a second one could not
    be built beside it: a forward-AD dual level is entered by one namespace at a time)."""
    before = [line for line in extra.splitlines() if line.startswith("out = ")]
    extra = "\n".join(line for line in extra.splitlines() if line not in before)
    lines = ["import torch", "torch.manual_seed(0)", *call.setup.splitlines(), *before]
    if execution == "eager":
        lines.append(f"result = {text}")
    else:
        executor = EXECUTORS[execution]
        arguments = ", ".join(arguments)
        dynamic = ", dynamic=True" if executor.dynamic else ""
        lines += [f"program = torch.compile(lambda {arguments}: {text}, backend={executor.backend!r}{dynamic})",
                  f"result = program({arguments})"]
    lines += extra.splitlines()
    return "\n".join("    " + line for line in lines)

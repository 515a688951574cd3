"""`copysuite.compare`: a caller's function or module, eagerly and under each execution, on fresh copies of the
caller's own inputs; every difference of what a caller can observe judged by the fuzzer's model and records, each
execution with a difference given a standalone reproduction (docs/using.md, "Your own code")."""
from __future__ import annotations

import warnings

import torch

from copysuite.fuzz import signature
from copysuite.fuzz.differential import Run, Side
from copysuite.run.executions import EXECUTORS
from copysuite.usercode import inputs, reproduction, sides, verdicts
from copysuite.usercode.result import Comparison, Difference

# AOTAutograd, where aliasing and mutation are handled, and inductor, what users compile with
DEFAULT_EXECUTIONS = ("compile.aot_eager", "compile.inductor")


def compare(fn, *args, executions=DEFAULT_EXECUTIONS, **kwargs) -> Comparison:
    """Run `fn(*args, **kwargs)` (a function or a torch.nn.Module) eagerly and under each of `executions` (names of
    copysuite.run.executions: compile.eager, compile.aot_eager, compile.inductor, their .dynamic forms,
    functionalize, export), each side on fresh copies of the inputs, in the caller's grad mode; return the
    differences with their verdicts. `.check()` on the result raises where one is new."""
    if isinstance(executions, str):
        raise TypeError("executions is a list of names, e.g. ['compile.aot_eager']")
    unknown = [e for e in executions if e not in EXECUTORS or e == "eager"]
    if unknown:
        raise ValueError(f"unknown execution {unknown}: one of {', '.join(e for e in EXECUTORS if e != 'eager')}")
    target = sides.Target(fn)
    captured = inputs.capture(args, kwargs)
    grad_enabled = torch.is_grad_enabled()
    skipped = {e: EXECUTORS[e].skip_reason() for e in executions if EXECUTORS[e].skip_reason()}
    ran = tuple(e for e in executions if e not in skipped)
    differences, scripts, limits = [], {}, []
    with warnings.catch_warnings(), sides.caches_off(), sides.quiet():
        warnings.simplefilter("ignore")
        eager = sides.observe(sides.Caller(target, captured, "eager", grad_enabled))
        for execution in ran:
            other = sides.observe(sides.Caller(target, captured, execution, grad_enabled))
            found = judged(target, captured, execution, eager, other)
            differences += found
            if any(d.verdict != "by design" for d in found):
                scripts[execution], limits = reproduction.build(target, captured, execution, found, grad_enabled)
    return Comparison(_name(fn), ran, differences, scripts, skipped, tuple(limits))


def judged(target, captured, execution: str, eager: Side, other: Side) -> list:
    """The differences of the two sides, consequences pruned, each with its verdict (copysuite.usercode.verdicts)."""
    state = [inputs.Rebuilt(n) for n in sorted({f.split("|")[1] for f in {**eager.signature, **other.signature}
                                                if f.split("|")[1].startswith("self.")})]
    called = sides.Called(tuple(captured.tensors) + tuple(state))
    run = Run(called, eager, other, {"define": target.define(execution), "call": [], "warm": []}, execution)
    found = []
    for field, (a, b) in verdicts.pruned(signature.differences(eager.signature, other.signature)).items():
        why = verdicts.explain(field, a, b, run, execution)
        found.append(Difference(execution, field, a, b, why.verdict, why.names, why.evidence, why.candidates))
    return found


def _name(fn) -> str:
    obj = type(fn) if isinstance(fn, torch.nn.Module) else fn
    return f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', repr(obj))}"

"""Run one generated program eagerly and under one execution (copysuite.run.executions: the same lines the specs run),
and observe each (copysuite.fuzz.signature).

Each side runs the program on fresh inputs several times: once for the call's own signature, once per output for an
in-place write to it, once for backward and the gradients between outputs. A transform is defined once per side
and called each time (the way a user calls a compiled function); what is defined and called is exactly the text of
`Run.texts`, which the reproduction prints.

Compile caches: `off` (as the specs run: every compile is a real one) or `on` (inductor's FX graph cache and
AOTAutograd's cache, as users run them, in a cache directory of this process). With the caches on, a program whose
inputs alias is first compiled and called as written, in a function of its own; the program judged is its twin on
inputs that do not alias (each a fresh tensor with the alias's geometry), compiled anew: what a cache serves a
second function, or a second process, that was compiled for other inputs. The twin is compiled once more with the
caches off, so that what differs only with them on is told apart (`Run.uncached`).
"""
from __future__ import annotations

import contextlib
import dataclasses
import importlib
import warnings

import torch

from copysuite.fuzz import signature, state, variants
from copysuite.fuzz.generate import Input, Program
from copysuite.run import process_state

RECOMPILE_LIMIT = 1_000_000
LOGGERS = ("torch._dynamo", "torch._guards", "torch._subclasses.fake_tensor", "torch._inductor", "torch._functorch",
           "torch.export")
CACHES = ("off", "on")


# a tensor set_() (or `.data =`) onto a wrapper subclass (TwoTensor) takes its storage, which has no memory: the next
# op reading it segfaults eagerly, which no in-process comparison survives, so such programs are not run
CRASH = "docs/upstream-reports/set_onto_wrapper_subclass_crash.py"


class InvalidInputs(Exception):
    """The program's inputs cannot be built (an alias that does not apply to what it aliases)."""


@dataclasses.dataclass
class Side:
    signature: dict
    error: str | None            # the call's exception, "Type: message" (records match it)
    error_classes: tuple = ()    # the names of its class and base classes
    forward_error: str | None = None  # the forward-mode call's exception (Program.forward), "Type: message"


@dataclasses.dataclass
class Run:
    program: Program             # the program judged (with the caches on: the unaliased twin, when it differs)
    eager: Side
    other: Side
    texts: dict                  # {"define": [...], "call": [...], "warm": [...]}: what ran under the execution
    execution: str = ""
    uncached: dict | None = None  # with the caches on, the judged program's signature compiled with them off
    variant: str = ""            # the variant run (copysuite.fuzz.variants) where `execution` is its base


def configure(caches: str) -> None:
    """Raise dynamo's recompile limits out of reach (thousands of functions) and set the compile caches."""
    import torch._dynamo.config as dynamo_config
    for name in ("recompile_limit", "cache_size_limit", "accumulated_recompile_limit", "accumulated_cache_size_limit"):
        if hasattr(dynamo_config, name):
            setattr(dynamo_config, name, RECOMPILE_LIMIT)
    for config, name, value in cache_settings(caches, remote=True):
        setattr(importlib.import_module(config), name, value)


def cache_settings(caches: str, remote: bool = False) -> list[tuple]:
    """[(config module, name, value)] of the compile caches as asked (inductor's FX graph cache, AOTAutograd's
    cache; the remote one always off), those this torch has: a release before them has none to set (setting an
    unknown name of a config module raises)."""
    on = caches == "on"
    wanted = [("torch._inductor.config", "fx_graph_cache", on),
              ("torch._functorch.config", "enable_autograd_cache", on)]
    wanted += [("torch._inductor.config", "fx_graph_remote_cache", False)] if remote else []
    found = []
    for config, name, value in wanted:
        with contextlib.suppress(ImportError):
            if hasattr(importlib.import_module(config), name):
                found.append((config, name, value))
    return found


def cache_lines(caches: str) -> list[str]:
    """The lines a reproduction starts with so that it runs with the caches as the fuzzer did."""
    settings = cache_settings(caches)
    return [*(f"import {m}" for m in sorted({c for c, _, _ in settings})), *(f"{c}.{n} = {v}" for c, n, v in settings)]


def call_lines(program: Program, execution: str) -> tuple[list[str], list[str]]:
    """(define lines, call lines) of `program` under `execution`, the call in the program's grad mode; with a write
    between two calls (`program.between`), the call, the write, and the call again of what was defined (export's
    module exported once)."""
    executor = variants.executor(execution)
    define = executor.define_lines(program, fullgraph=False)
    call = executor.call_lines(program) or ["pass"]   # eager: a program of no statements, returning inputs
    if program.state:
        define, call = state.define_lines(program), state.call_lines(program, execution)
    if program.between:
        # the first call binds nothing: `a = program(a)` would put an output in the place of input a, and the write
        # between the calls would reach that output instead of the caller's tensor
        bound = f"{program.outputs} = program({', '.join(program.arg_names)})"
        first = [line.replace(bound, bound.split(" = ", 1)[1]) if line.strip() == bound else line for line in call]
        again = [line for line in call if not line.startswith("program = ")]
        call = [*first, *program.between_lines(), *again]
    if program.mode != "enabled":
        call = [f"with torch.{program.mode}():"] + [f"    {line}" for line in call]
    return define, call


def _exec(lines: list[str], namespace: dict) -> None:
    exec(compile("\n".join(lines), "<copysuite fuzz>", "exec"), namespace)  # noqa: S102 - the printed text


class _Caller:
    """One side: the transform defined once, then called on fresh inputs as often as asked."""

    def __init__(self, program: Program, execution: str):
        self.program = program
        self.define, self.call = call_lines(program, execution)
        self.defined = {"torch": torch}
        if self.define:
            _exec(self.define, self.defined)   # torch.compile looked up now: a fault patched into it applies
        self.call_code = compile("\n".join(self.call), "<copysuite fuzz call>", "exec")
        self.forward_code = compile("\n".join(program.forward_lines(self.call)), "<copysuite fuzz forward>", "exec")

    def __call__(self, then: list[str] = ()):
        """(inputs, outputs, leaves, prior, error): [(name, object)] lists and the exception, if any. `then`: lines
        run after a call that did not raise (the program's `after`); their exception is `self.then_error`."""
        self.then_error = None
        ns = dict(self.defined)
        try:
            _exec(self.program.input_lines(), ns)
        except Exception as exc:  # noqa: BLE001 - e.g. view(-1) of a strided input: no program to compare
            raise InvalidInputs(f"{type(exc).__name__}: {exc}") from None
        given = [(n, ns[n]) for n in self.program.input_names]
        leaves = [(n, ns[n]) for n in self.program.leaves]
        prior = signature.before(given)
        try:
            with process_state.kept():   # a failed compile may leave process-global state switched
                exec(self.call_code, ns)  # noqa: S102 - the printed text
        except Exception as exc:  # noqa: BLE001 - an exception is part of what is compared
            return given, [], leaves, prior, exc
        if then:
            try:
                _exec(list(then), ns)
            except Exception as exc:  # noqa: BLE001 - a write refused is part of what is compared
                self.then_error = exc
        return given, [(n, ns[n]) for n in self.program.returns], leaves, prior, None

    def forward(self) -> tuple:
        """(outputs' names, their tangents, error): the call within a forward-mode AD level (Program.forward)."""
        ns = dict(self.defined)
        _exec(self.program.input_lines(), ns)
        try:
            with process_state.kept():   # a failed compile inside the dual level leaves it entered
                exec(self.forward_code, ns)  # noqa: S102 - the printed text
        except Exception as exc:  # noqa: BLE001 - an exception is part of what is compared
            return self.program.returns, [], exc
        return self.program.returns, ns["tangents"], None


def _observe(caller: _Caller) -> Side:
    given, outputs, leaves, prior, error = caller()
    fields = signature.observe_call(given, outputs, prior, error)
    text = None if error is None else error_text(error)
    if error is not None:
        return Side(fields, text, tuple(c.__name__ for c in type(error).__mro__))
    for index in range(len(outputs)):
        given, outputs, _, _, error = caller()
        if error is None:
            fields.update(signature.observe_write(index, given, outputs))
    given, outputs, leaves, _, error = caller()
    if error is None:
        fields.update(signature.observe_backward(outputs, leaves))
    given, outputs, _, _, error = caller()
    if error is None:
        fields.update(signature.observe_grads(outputs))
    if caller.program.after:
        given, outputs, leaves, _, error = caller(caller.program.after_lines())
        if error is None:
            fields.update(signature.observe_after(caller.then_error, outputs, leaves))
    forward_error = None
    if caller.program.forward:
        names, tangents, error = caller.forward()
        fields.update(signature.observe_forward(names, tangents, error))
        forward_error = None if error is None else error_text(error)
    return Side(fields, None, forward_error=forward_error)


def error_text(error: BaseException) -> str:
    """An exception as a record's `message` matches it."""
    return f"{type(error).__name__}: {str(error).strip()[:2000]}"


def untangled(program: Program) -> Program:
    """The program on inputs that do not alias: each alias replaced by a fresh tensor of its dtype, shape, strides
    and offset, that requires grad where the alias did (built once eagerly to learn them)."""
    ns = {"torch": torch}
    _exec(program.input_lines(), ns)
    fresh = []
    for i in program.inputs:
        if i.alias is None:
            fresh.append(i)
            continue
        t = ns[i.name]
        extent = t.storage_offset() + 1 + sum((s - 1) * st for s, st in zip(t.shape, t.stride()))
        fresh.append(Input(i.name, dtype=str(t.dtype).replace("torch.", ""), shape=tuple(t.shape),
                           placement="as_strided", kind="nonleaf" if t.requires_grad else "plain",
                           strided=(extent, tuple(t.stride()), t.storage_offset())))
    return dataclasses.replace(program, inputs=tuple(fresh))


def run(program: Program, execution: str, caches: str = "off") -> Run:
    """The program eagerly and under `execution`, each observed in full."""
    if state.not_run(program, execution):
        raise InvalidInputs(state.not_run(program, execution))
    if {"set_", "data_assign"} & set(program.ops) and program.wraps_subclass:
        raise InvalidInputs(f"set_() or `.data =` onto a wrapper subclass's storage crashes the process eagerly: "
                            f"{CRASH}")
    with warnings.catch_warnings(), quiet():
        warnings.simplefilter("ignore")
        warm = []
        judged = program
        compiled = variants.executor(execution).compiled
        process_state.fresh_fake_tensor_cache()   # the program traces as in a fresh process, whatever ran before
        if caches == "on" and compiled and any(i.alias for i in program.inputs):
            _Caller(program, execution)()           # compiled for the aliased inputs first, in its own function
            judged = untangled(program)
            define, call = call_lines(program, execution)
            warm = [*program.input_lines(), *define, *call]
        other = _Caller(judged, execution)
        eager = _observe(_Caller(judged, "eager"))
        observed = _observe(other)
        uncached = None
        if warm:   # the twin compiled again with the caches off: what differs only with them on is theirs
            configure("off")
            try:
                uncached = _observe(_Caller(judged, execution)).signature
            finally:
                configure("on")
        torch._dynamo.reset() if compiled else None
    return Run(judged, eager, observed, {"define": other.define, "call": other.call, "warm": warm}, execution,
               uncached)


@contextlib.contextmanager
def quiet(extra=()):
    """No stack traces in torch's own logs: graph breaks (`fullgraph=False`, a user's default) and failed fake
    tensor calls are logged as errors, and the fuzzer's own report says what failed."""
    import logging
    loggers = [logging.getLogger(name) for name in (*LOGGERS, *extra)]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)

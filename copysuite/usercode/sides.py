"""One side of a comparison: the caller's function or module run eagerly or under one execution on fresh inputs, and
observed the way the fuzzer observes a generated program (copysuite.fuzz.signature), plus the module's state.

Each observation is a call of its own on fresh inputs (copysuite.usercode.inputs) and a fresh deep copy of the
module: the call itself, then one call per output for an in-place write to it, one for backward and one for
torch.autograd.grad between outputs (as copysuite.fuzz.differential does). What runs is `define` (the execution
applied to `fn` or `model`: `Target.define`) and `run(*args, **kwargs)`, the lines the reproduction prints.

A module's parameters and buffers are inputs of the call named `self.NAME`: the signature compares their values,
geometry, requires_grad and whether their version counter moved after the call, whether an output is or shares
memory with one, whether a write to an output reaches one, and each parameter's gradient after backward; and
`state|self.NAME|replaced` says whether the name holds another object after the call. Under `export` the state read
is that of the exported module, the module the caller calls.
"""
from __future__ import annotations

import contextlib
import copy
import dataclasses

import torch
import torch.utils._pytree as pytree

from copysuite.fuzz import signature
from copysuite.fuzz import differential
from copysuite.fuzz.differential import Side, error_text
from copysuite.run import process_state
from copysuite.run.executions import EXECUTORS
from copysuite.usercode.inputs import Captured


@dataclasses.dataclass(frozen=True)
class Called:
    """What the fuzzer's model and records read of a program (copysuite.fuzz.generate.Program), for a caller's
    function: which ops it runs is not known (`ops` is empty), so a record that names ops never explains it."""
    inputs: tuple          # copysuite.usercode.inputs.Rebuilt, then the module's state (no alias)
    ops: tuple = ()
    wraps_subclass: bool = False
    between: tuple = ()    # each side calls the caller's function once: nothing is written between two calls

    @property
    def input_names(self) -> tuple:
        return tuple(i.name for i in self.inputs)


@dataclasses.dataclass(frozen=True)
class Target:
    """The caller's function (`fn`) or module (`model`, deep-copied for every call)."""
    callable: object

    @property
    def is_module(self) -> bool:
        return isinstance(self.callable, torch.nn.Module)

    @property
    def name(self) -> str:
        return "model" if self.is_module else "fn"

    def define(self, execution: str) -> list[str]:
        """The lines that bind `run`, what the call calls, after the inputs (`args`, `kwargs`) are bound."""
        executor = EXECUTORS[execution]
        if executor.transform is None:
            return [f"run = {self.name}"]
        if executor.compiled:
            return [f"run = torch.compile({self.name}, backend={executor.backend!r}, fullgraph=False, "
                    f"dynamic={executor.dynamic})"]
        if executor.transform == "functionalize":
            return [f"run = torch.func.functionalize({self.name})"]
        module = self.name
        lines = []
        if not self.is_module:   # export takes a module: one whose forward calls the function
            lines = ["class Program(torch.nn.Module):", "    def forward(self, *args, **kwargs):",
                     "        return fn(*args, **kwargs)"]
            module = "Program()"
        return lines + [f"run = torch.export.export({module}, tuple(args), dict(kwargs)).module()"]


def state(holder) -> dict:
    """{`self.NAME`: tensor} of a module's parameters and buffers (none for a function)."""
    if not isinstance(holder, torch.nn.Module):
        return {}
    named = [*holder.named_parameters(remove_duplicate=False), *holder.named_buffers(remove_duplicate=False)]
    return {f"self.{n}": t for n, t in named}


@dataclasses.dataclass
class Call:
    given: list      # [(name, tensor)]: the inputs, then the module's state after the call
    outputs: list    # [(name, object)]: the result's leaves
    leaves: list     # [(name, tensor)]: what backward gives a gradient
    prior: dict      # signature.before() of the inputs and the state before the call
    error: BaseException | None
    fields: dict     # what the call adds of its own: the result's structure, state replaced


class Caller:
    """One side: `target` under `execution`, on fresh inputs each time it is called."""

    def __init__(self, target: Target, captured: Captured, execution: str, grad_enabled: bool):
        self.target, self.captured, self.grad_enabled = target, captured, grad_enabled
        self.define = compile("\n".join(target.define(execution)), f"<copysuite compare {execution}>", "exec")
        if EXECUTORS[execution].compiled:   # dynamo's code cache is shared by every module (Module._call_impl):
            torch._dynamo.reset()   # past its recompile limit, compiled calls run eagerly and silently
            process_state.fresh_fake_tensor_cache()   # which reset() keeps: traced as in a fresh process

    def __call__(self) -> Call:
        args, kwargs, ns = self.captured.build()
        ns[self.target.name] = copy.deepcopy(self.target.callable) if self.target.is_module else self.target.callable
        try:   # torch.export.export itself may refuse the module: that is the side's call raising
            exec(self.define, ns)  # noqa: S102 - the printed definition
        except Exception as exc:  # noqa: BLE001 - an exception is part of what is compared
            return Call([], [], [], {}, exc, {})
        holder = ns["run"] if isinstance(ns["run"], torch.fx.GraphModule) else ns[self.target.name]
        before_state = state(holder)
        given = [(t.name, ns[t.name]) for t in self.captured.tensors if isinstance(ns[t.name], torch.Tensor)]
        prior = signature.before(given + list(before_state.items()))
        leaves = [(n, ns[n]) for n in self.captured.leaves]
        try:   # every side's call from one RNG state: a lazy module's initialization, dropout draw the same
            with process_state.kept(), torch.set_grad_enabled(self.grad_enabled), torch.random.fork_rng(devices=[]):
                torch.manual_seed(0)
                result = ns["run"](*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - an exception is part of what is compared
            return Call(given, [], leaves, prior, exc, {})
        after = state(holder)
        flat, spec = pytree.tree_flatten(result)
        names = ["out"] if isinstance(result, torch.Tensor) else [f"out{i}" for i in range(len(flat))]
        fields = {"call||structure": str(spec)}
        for name, t in before_state.items():
            fields[f"state|{name}|replaced"] = after.get(name) is not t
        leaves += [(n, t) for n, t in after.items() if isinstance(t, torch.nn.Parameter) or t.requires_grad]
        return Call(given + list(after.items()), list(zip(names, flat)), leaves, prior, None, fields)


def observe(caller: Caller) -> Side:
    """The side's signature: the call, a write to each output, backward, autograd.grad (each on a fresh call)."""
    call = caller()
    fields = {**signature.observe_call(call.given, call.outputs, call.prior, call.error), **call.fields}
    if call.error is not None:
        return Side(fields, error_text(call.error), tuple(c.__name__ for c in type(call.error).__mro__))
    for index in range(len(call.outputs)):
        again = caller()
        if again.error is None:
            fields.update(signature.observe_write(index, again.given, again.outputs))
    again = caller()
    if again.error is None:
        with torch.enable_grad():
            fields.update(signature.observe_backward(again.outputs, again.leaves))
    again = caller()
    if again.error is None:
        with torch.enable_grad():
            fields.update(signature.observe_grads(again.outputs))
    return Side(fields, None)


def quiet():
    """No stack traces or structured traces from torch's own logs while comparing (the fuzzer's loggers, and
    torch.__trace, which a test runner's log capture would otherwise print in full): the comparison's result says
    what failed."""
    return differential.quiet(extra=("torch.__trace",))


@contextlib.contextmanager
def caches_off():
    """inductor's FX graph cache and AOTAutograd's cache off, as the fuzzer and the specs run (their keys do not
    tell an input's storage offset apart: copysuite.run.executions), restored afterwards."""
    import torch._functorch.config as functorch_config
    import torch._inductor.config as inductor_config
    with contextlib.ExitStack() as stack:
        for config, name in ((inductor_config, "fx_graph_cache"), (inductor_config, "fx_graph_remote_cache"),
                             (functorch_config, "enable_autograd_cache")):
            if hasattr(config, name):
                stack.enter_context(config.patch(name, False))
        yield

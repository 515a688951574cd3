"""The process-global state a program may switch and, failing midway, leave switched. The cells of an xdist worker
run one after another in one process, so a switch one program left on would change how every later program runs:
a cell's outcome would depend on which cells ran before it. `kept()` runs a block (a program, a surface call) and
restores, however the block ends, what it changed; it lists what it found changed, for the failure to say.

Emptied before each compiled call (`fresh_fake_tensor_cache()`): the fake-tensor dispatch cache, which one compile
fills and a later one reads.

Restored: forward-mode AD's dual level, grad mode, the default dtype, torch.__future__'s switches, the saved-tensor
hooks' stack. Only told (no public way to undo them from outside the block): inference mode, the torch function
and dispatch modes' stacks (the default device is one of the former), the torch.func transforms' stack.

How a failed compile leaves a dual level entered (docs/upstream-reports/failed_compile_leaves_dual_level.py):
dynamo traces `with dual_level()` into calls of torch._C._enter_dual_level and _exit_dual_level in its graph; the
backend's trace of that graph runs them for real, and when an op between them raises (forward_ad_dynamic_shapes)
the exit never runs.
forward_ad's own `_current_level` is not updated by those calls: the level is found by trying to enter one. dynamo
itself restores grad mode, inference mode and the default dtype after a failed compile
(torch/_dynamo/convert_frame.py, preserve_global_state), not the dual level.
"""
from __future__ import annotations

import contextlib
import sys

import torch
import torch.autograd.forward_ad as forward_ad

# torch.__future__'s global switches (how nn.Module converts and loads its parameters): a program may set one, and
# must reset it at its end, but a program that fails midway never reaches that line
FUTURE_SWITCHES = tuple(name[4:] for name in dir(torch.__future__) if name.startswith("get_"))

_HOOKS = getattr(torch._C._autograd, "_top_saved_tensors_default_hooks", None)   # not on every release
HOOKS_READABLE = _HOOKS is not None
_INTERPRETER = getattr(getattr(torch._C, "_functorch", None), "peek_interpreter_stack", None)   # 2.0 and newer


def dual_levels() -> int:
    """How many forward-AD levels are entered (0 or 1: nesting is refused), as torch's C++ side counts them."""
    try:
        level = torch._C._enter_dual_level()
    except RuntimeError:   # "Nested forward mode AD is not supported at the moment": one is entered
        return 1
    torch._C._exit_dual_level(level=level)
    return level


def _saved_tensors_hooks():
    if _HOOKS is None:
        return None
    try:
        return _HOOKS(True)   # ignore_is_tracing: the stack as it is, also inside a trace
    except TypeError:   # releases whose getter takes no argument
        return _HOOKS()


def snapshot() -> dict:
    """The state `kept()` watches, name -> value."""
    state = {
        "forward AD level": (dual_levels(), forward_ad._current_level),   # (C++'s count, Python's level)
        "grad mode": torch.is_grad_enabled(),
        "default dtype": torch.get_default_dtype(),
        "saved-tensor hooks": _saved_tensors_hooks(),
        "inference mode": torch.is_inference_mode_enabled(),
        "torch function modes": torch._C._len_torch_function_stack(),
        "torch dispatch modes": torch._C._len_torch_dispatch_stack(),
        "torch.func transforms": _INTERPRETER() is not None if _INTERPRETER else False,
    }
    state.update({f"torch.__future__.{name}": getattr(torch.__future__, "get_" + name)() for name in FUTURE_SWITCHES})
    return state


def _restore(name: str, before, after) -> None:
    """Set `name` back to `before` where torch has a way to; the others are only told."""
    if name == "forward AD level":
        for level in reversed(range(before[0], after[0])):
            torch._C._exit_dual_level(level=level)
        forward_ad._current_level = before[1]
    elif name == "grad mode":
        torch._C._set_grad_enabled(before)
    elif name == "default dtype":
        torch.set_default_dtype(before)
    elif name == "saved-tensor hooks":
        while _saved_tensors_hooks() is not None and _saved_tensors_hooks() != before:
            torch._C._autograd._pop_saved_tensors_default_hooks()
    elif name.startswith("torch.__future__."):
        getattr(torch.__future__, "set_" + name.split(".")[-1])(before)


@contextlib.contextmanager
def kept():
    """Run the block; once it ends, however it ends, the state it changed is set back (where torch allows). Yields a
    list that then holds, for each change found, "NAME BEFORE -> AFTER" (empty when the block changed nothing)."""
    before = snapshot()
    changes: list[str] = []
    try:
        yield changes
    finally:
        after = snapshot()
        for name, value in before.items():
            if after[name] != value:
                changes.append(f"{name} {value!r} -> {after[name]!r}")
                _restore(name, value, after[name])


def fresh_fake_tensor_cache() -> None:
    """Empty the fake-tensor dispatch cache, which every FakeTensorMode of the process shares (2.3 and newer) and which
    torch._dynamo.reset() keeps: what one compile traced there, a later compile of another program finds. On 2.8.0 a
    failed compile of `x.detach()` on an empty negative-bit leaf left an entry with which `x.data` on the same kind of
    input compiled, where alone it fails (mathbits_empty_alias_assert): the cell held or failed depending on what its
    worker had compiled before. Emptied before each compiled call, a call traces as in a fresh process; caching within
    one compile, as users get it, stays."""
    module = sys.modules.get("torch._subclasses.fake_tensor")   # looked up per call: nothing cached before it loads
    mode = getattr(module, "FakeTensorMode", None)
    if hasattr(mode, "cache_clear"):
        mode.cache_clear()

"""A finding's standalone reproduction: a script that builds the inputs, runs the program eagerly and under the
execution with the text the fuzzer ran (copysuite.fuzz.differential.Run.texts; with the program's write between two
calls, both calls), and prints what a caller sees of each side, then the caller's next step that differs (an
in-place write to an output, backward, the program's write to an input and then backward, autograd.grad; the call
with dual inputs and its tangents)."""
from __future__ import annotations

import inspect
import platform

import torch

from copysuite.fuzz import signature
from copysuite.fuzz.differential import cache_lines, call_lines

SHOW = '''
def values(t):
    """The first values, or why they cannot be read (a subclass refuses tolist(); memory resized away)."""
    try:
        return t.detach().reshape(-1)[:8].tolist()
    except Exception as exc:
        return f"unreadable: {type(exc).__name__}"


def show(side, outputs, inputs):
    """What a caller sees: each output's geometry, view and autograd state, values; the inputs after; sharing."""
    for name, t in outputs:
        print(side, name, "" if type(t) is torch.Tensor else type(t).__name__, tuple(t.shape), t.stride(),
              t.storage_offset(), "view" if t._is_view() else "not a view",
              "requires_grad" if t.requires_grad else "", "leaf" if t.is_leaf else "non-leaf", values(t))
    for name, t in inputs:
        print(side, "input", name, "version", t._version, values(t))
    named = outputs + inputs
    for i, (n1, t1) in enumerate(named):
        for n2, t2 in named[i + 1:]:
            if t1 is t2 or (storage(t1) is not None and storage(t1) == storage(t2)):
                print(side, n1, "is" if t1 is t2 else "shares storage with", n2)


def storage(t):
    """Where its memory starts, or None where it has none a caller can see (a wrapper subclass)."""
    try:
        return t.untyped_storage().data_ptr()
    except Exception:
        return None
'''


def _next_step(differences: dict, program) -> list[str]:
    """The caller's next step whose outcome differs, as lines over the returned names, or none."""
    for field in differences:
        section, subject, _ = field.split("|")
        if section in ("after_write", "after"):   # the program's write after the call, then backward
            leaves = ", ".join(f"({n!r}, {n}.grad)" for n in program.leaves)
            return ["try:", *[f"    {x}" for x in program.after_lines()], "except Exception as exc:",
                    "    print(side, 'write after the call raised', repr(exc))", "else:", "    try:",
                    "        loss(outputs).backward()",
                    f"        print(side, 'grads', [{leaves}])", "    except Exception as exc:",
                    "        print(side, 'backward raised', repr(exc))"]
        if section == "write":
            op = f"{subject}.logical_not_() if {subject}.dtype == torch.bool else {subject}.add_(1)"
            return ["try:", f"    {op}", "except Exception as exc:", "    print(side, 'write raised', repr(exc))",
                    "show(side, outputs, inputs)"]
        if section == "backward":
            leaves = ", ".join(f"({n!r}, {n}.grad)" for n in program.leaves)
            return ["try:", "    loss(outputs).backward()",
                    f"    print(side, 'grads', [{leaves}])", "except Exception as exc:",
                    "    print(side, 'backward raised', repr(exc))"]
        if section == "grad":
            of, wrt = subject.split("~")
            return ["try:", f"    print(side, torch.autograd.grad({of}.sum(), {wrt}, allow_unused=True))",
                    "except Exception as exc:", "    print(side, 'autograd.grad raised', repr(exc))"]
    return []


def script(finding_run, execution: str, caches: str, differences: dict) -> str:
    """The reproduction of one run (copysuite.fuzz.differential.Run) whose `differences` were judged a finding."""
    program = finding_run.program
    outputs = "[" + ", ".join(f"({n!r}, {n})" for n in program.returns) + "]"
    inputs = "[" + ", ".join(f"({n!r}, {n})" for n in program.input_names) + "]"
    lines = [(f'"""copysuite fuzz finding under {execution} (compile caches {caches}); found with torch '
              f'{torch.__version__}, python {platform.python_version()}.'), "Differs (eager, then the execution):"]
    lines += [f"  {field}: {pair[0]!r} -> {pair[1]!r}" for field, pair in list(differences.items())[:12]]
    lines += ['"""', "import torch", *cache_lines(caches), SHOW, inspect.getsource(signature.loss)]
    eager_call = call_lines(program, "eager")[1]
    step = _next_step(differences, program)
    saved = "inputs = " + inputs
    eager_define = call_lines(program, "eager")[0]   # none, but a module's class (copysuite.fuzz.state)
    for side, define, call in (("eager", eager_define, eager_call),
                               (execution, finding_run.texts["define"], finding_run.texts["call"])):
        lines.append(f"side = {side!r}")
        if side != "eager" and finding_run.texts["warm"]:
            lines += ["# first compiled for the aliased inputs, in a function of its own:",
                      *finding_run.texts["warm"]]
        lines += [*define, *program.input_lines(), saved, "try:", *[f"    {x}" for x in call],
                  "except Exception as exc:", "    print(side, 'raised', repr(exc))", "else:",
                  f"    outputs = {outputs}", "    show(side, outputs, inputs)",
                  *[f"    {x}" for x in step], ""]
        if any(f.startswith("forward|") for f in differences):   # the call again, its floating inputs dual
            lines += [*program.input_lines(), "try:", *[f"    {x}" for x in program.forward_lines(call)],
                      "    print(side, 'tangents', tangents)", "except Exception as exc:",
                      "    print(side, 'with dual inputs raised', repr(exc))", ""]
    return "\n".join(lines)

"""A comparison's standalone reproduction: a script that needs torch and the caller's code alone. It rebuilds the
inputs from their values (the lines copysuite.usercode.inputs wrote, which both sides ran), gets the function by
importing it from its module (or, for one defined in `__main__` or inside another function without closing over
anything, from its source, pasted in), a module from its pickled bytes (its class imported, or pasted in from
`__main__`), runs it eagerly and under the execution as the comparison did, prints what a caller sees of each side
(copysuite.usercode.script) and ends in its verdict: the lines where the two sides differ, or none.

What it cannot rebuild it says, at the top and in the comparison's `limits`: a lambda, a closure, a bound method; a
module that does not pickle; an argument that does not print as Python.
"""
from __future__ import annotations

import base64
import importlib
import inspect
import io
import platform
import textwrap

import torch

from copysuite.fuzz.differential import cache_lines
from copysuite.usercode import script
from copysuite.usercode.sides import Target


def target_lines(target: Target) -> tuple[list[str], list[str]]:
    """(lines that bind `fn`, or `make_model()` that returns a fresh module; what they cannot do)."""
    if not target.is_module:
        lines, limit = _code(target.callable, "fn")
        return lines, [limit] if limit else []
    lines, limit = _code(type(target.callable), None)
    buffer = io.BytesIO()
    try:
        torch.save(target.callable, buffer)
    except Exception as exc:  # noqa: BLE001 - a module that does not pickle: said in the script
        why = f"the module does not pickle ({type(exc).__name__}: {exc}): build it in make_model()"
        return lines + ["def make_model():", f"    raise NotImplementedError({why!r})"], [why]
    data = base64.b64encode(buffer.getvalue()).decode()
    return lines + ["import base64", "import io", f"MODEL = {data!r}", "",
                    "def make_model():", "    # the module as it was passed (torch.save, then base64)",
                    "    return torch.load(io.BytesIO(base64.b64decode(MODEL)), weights_only=False)"], \
        [limit] if limit else []


def _code(obj, name: str | None) -> tuple[list[str], str]:
    """Lines that make `obj` (a function or a class) available, bound to `name` where given; and a limit, if any."""
    module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", "")
    bind = [f"{name} = {qualname.split('.')[-1]}"] if name and qualname.split(".")[-1] != name else []
    if module and module != "__main__" and "<" not in qualname:
        try:
            found = importlib.import_module(module)
            for part in qualname.split("."):
                found = getattr(found, part)
        except (ImportError, AttributeError):
            found = None
        if found is obj:
            head = qualname.split(".")[0]
            return [f"from {module} import {head}", *([f"{name} = {qualname}"] if name and qualname != name
                                                      else [])], ""
    if inspect.ismethod(obj) or "<lambda>" in qualname or getattr(getattr(obj, "__code__", None), "co_freevars", ()):
        what = "a bound method" if inspect.ismethod(obj) else "a lambda" if "<lambda>" in qualname else "a closure"
        why = f"{qualname} is {what}: neither imported nor pasted; define `{name or qualname}` here"
        return [f"# {why}"], why
    try:
        source = textwrap.dedent(inspect.getsource(obj))
    except (OSError, TypeError):
        why = f"{qualname} cannot be imported ({module}) and its source is not found: define it here"
        return [f"# {why}"], why
    note = f"# {qualname}, pasted from its source (module {module}): what it reads of its module is not here"
    return [note, *source.rstrip().splitlines(), *bind], ""


def build(target: Target, captured, execution: str, differences: list, grad_enabled: bool) -> tuple[str, list]:
    """(the script, its limits) for `execution`'s `differences` (copysuite.usercode.result.Difference)."""
    made, limits = target_lines(target)
    limits += [f"argument {name} ({type(value).__name__}) does not print as Python: build it in inputs()"
               for name, value in captured.opaque.items()]
    head = [f'"""copysuite compare: {_name(target)} eagerly and under {execution}; found with torch '
            f"{torch.__version__}, python {platform.python_version()}.", "Differs (eager, then the execution):"]
    head += [f"  {d.line()}" for d in differences[:20]] + [f"  (and {len(differences) - 20} more)"] * (
        len(differences) > 20)
    head += [f"Cannot rebuild: {limit}" for limit in limits] + ['"""']
    holder = "model = make_model()\n    " if target.is_module else ""
    define = "\n".join(f"        {line}" for line in target.define(execution))
    eager = "\n".join(f"        {line}" for line in target.define("eager"))
    state = ("    holder = run if isinstance(run, torch.fx.GraphModule) else model\n"
             "    named.update({f'self.{n}': t for n, t in [*holder.named_parameters(), *holder.named_buffers()]})\n"
             if target.is_module else "")
    leaves = "[(n, named[n]) for n in LEAVES] + [(n, t) for n, t in named.items() if n.startswith('self.')" \
             " and t.requires_grad]"
    opaque = [f"    {name} = None  # a {type(value).__name__}: build it here"
              for name, value in captured.opaque.items()]
    names = [t.name for t in captured.tensors]
    body = f'''
def inputs():
    """The inputs as they were passed, rebuilt from their values: fresh for each side."""
{chr(10).join(opaque + [f"    {line}" for line in captured.lines])}
    named = {{{", ".join(f"{n!r}: {n}" for n in names)}}}
    named.update({{{", ".join(f"{n!r}: {n}" for n in captured.leaves if n not in names)}}})
    return args, kwargs, named


SIDES = ("eager", {execution!r})
LEAVES = {tuple(captured.leaves)!r}
seen = {{}}
for side in SIDES:
    args, kwargs, named = inputs()
    {holder}if side == "eager":
{eager}
    else:
{define}
{state}    leaves = {leaves}
    named = {{n: t for n, t in named.items() if n not in LEAVES or n in {tuple(names)!r}}}
    before = {{n: t._version for n, t in named.items()}}
    try:
        torch.manual_seed(0)   # each side from one RNG state, as the comparison ran
        with torch.set_grad_enabled({grad_enabled}):
            result = run(*args, **kwargs)
    except Exception as exc:
        lines = ["raised " + type(exc).__name__]
        print(side, "raised", repr(exc))
    else:
        flat = torch.utils._pytree.tree_flatten(result)[0]   # torch 2.0 has no tree_leaves
        outputs = [(f"out{{i}}", t) for i, t in enumerate(flat)]
        outputs = [("out", result)] if isinstance(result, torch.Tensor) else outputs
        lines = observe(outputs, named, before)
{textwrap.indent(chr(10).join(script.next_step(differences)), " " * 8)}
    for line in lines:
        print(side, line)
    seen[side] = lines
'''
    text = "\n".join([*head, "import torch", *cache_lines("off"), "", *made, script.OBSERVE, body, script.VERDICT])
    return text, limits


def _name(target: Target) -> str:
    obj = type(target.callable) if target.is_module else target.callable
    return f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', repr(obj))}"

"""The calls a binding cell judges, each through the binding itself (never torch.ops.aten): the operator surface's
own calls of the matched aten op (hand-written, OpInfo samples, schema-generated: copysuite.surface.cells) rewritten
to call the binding, the dunders' calls (their syntax: `x[...]`, iteration, numpy.asarray, numpy.from_dlpack,
copy.deepcopy, item assignment), the bitwise augmented assignments' calls and the inplace= flag's calls.

    torch.ops.aten.split(x, 2, 2) / torch.split(x, 2, 2) / x.split(2, 2)
        -> torch.split(x, 2, 2) for torch.split, x.split(2, 2) for Tensor.split, x.__iadd__(y) for Tensor.__iadd__
"""
from __future__ import annotations

import re
from dataclasses import replace

from copysuite.surface import bindings, builders
from copysuite.surface.cells import planned_calls
from copysuite.surface.inputs import Call

# a surface call's text: a function of torch (any namespace, torch.ops.aten included) whose first argument is x (or a
# list of x: torch.cat([x, x])), or a method or property of x
CALL = re.compile(r"^(?:torch(?:\.\w+)*\.(?P<fn>\w+)\((?P<first>x|\[x(?:, x)*\])(?:, (?P<fargs>.*))?\)"
                  r"|x\.(?P<method>\w+)(?:\((?P<margs>.*)\))?)$")

G = "x = torch.randn(2, 3, 4, requires_grad=True)"
M = builders.M
M0 = builders.M0
# (aten op the syntax dispatches, class, setup, call, expect): each dunder called as users reach it
DUNDER_CALLS = {
    "__getitem__": [("select", "alias", G, "x[1]", "view"), ("slice", "alias", G, "x[:, 1:3]", "view"),
                    ("slice", "alias", G, "x[0, ::2, 1:]", "view"), ("unsqueeze", "alias", G, "x[..., None]", "view"),
                    ("index", "alias", G, "x[torch.tensor([0, 1])]", "copy")],
    "__iter__": [("unbind", "alias", G, "tuple(x)", "view"), ("unbind", "alias", M, "list(x)", "view")],
    "__array__": [("", "dunder", "import numpy\n" + M0, "numpy.asarray(x)", "memory")],
    "__dlpack__": [("", "dunder", "import numpy\n" + M0, "numpy.from_dlpack(x)", "memory")],
    "__deepcopy__": [("clone", "alias", "import copy\n" + M, "copy.deepcopy(x)", "copy"),
                     ("clone", "alias", "import copy\nx = torch.randn(3, 4)[1:]", "copy.deepcopy(x)", "copy")],
    "__setitem__": [("copy_", "inplace", M0, "x.__setitem__((0, slice(1, 3)), 5.0) or x",
                     "x.index_put((torch.tensor([0, 0]), torch.tensor([1, 2])), torch.tensor(5.0))")],
}
# the augmented assignments whose aten op (`__iand__`, ...) has no call of the operator surface: on integers
INT = "x = torch.randint(0, 8, (3, 4))"
AUGMENTED_CALLS = {f"__i{op}__": [(f"__i{op}__", "inplace", INT, f"x.__i{op}__(torch.full((3, 4), 2))",
                                   f"x.__{op}__(torch.full((3, 4), 2))")]
                   for op in ("and", "or", "xor", "lshift", "rshift")}
# the inputs an inplace= flag is tried on: dropoutNd wants a batch, a channel and N spatial dimensions
FLAG_SHAPES = ((3, 4), (2, 3, 4))
ND_SHAPES = {"1d": ((2, 3, 4),), "2d": ((2, 3, 4, 5),), "3d": ((2, 3, 4, 5, 6),)}


def text(binding, call_text: str) -> str | None:
    """`call_text` (a call of the binding's aten op) written as a call of the binding, or None where its shape is
    not one this can rewrite (`x[:, 1:3]` for slice)."""
    m = CALL.match(call_text)
    if m is None:
        return None
    args = m["fargs"] if m["fn"] else m["margs"]
    first = m["first"] or "x"
    if first != "x" and binding.is_method:
        return None
    if binding.is_property:
        return f"x.{binding.short}" if not args else None
    if binding.is_method:
        return f"x.{binding.short}({args or ''})"
    return f"{binding.name}({first}{', ' + args if args else ''})"


def rewritten(binding, calls) -> list:
    """The surface's calls of the binding's aten op in the binding's classes, through the binding."""
    out = []
    for call in calls:
        if call.op != binding.aten or call.cls not in binding.classes:
            continue
        if call.cls == "out" and binding.is_method:
            continue
        new = text(binding, call.call)
        if new is not None:
            out.append(replace(call, call=new))
    return out


def flag_calls(binding) -> list:
    """inplace=True against the same call without it (random ones are seeded alike before each call), in training
    where the signature has the flag (alpha_dropout's default, training=False, is the identity: nothing written);
    the other arguments without a default are given 0.5 (threshold's threshold and value), or True (a `train` flag)."""
    params = bindings.parameters(binding.obj)
    needed = [name for name, default in params[1:] if default is bindings.REQUIRED and name != "inplace"]
    args = "".join(", True" if name == "train" else ", 0.5" for name in needed)
    args += ", training=True" if "training" in dict(params) else ""
    calls = []
    for shape in ND_SHAPES.get(binding.short[-2:], FLAG_SHAPES):
        setup = f"x = torch.randn{shape}"
        source = f"generated: float32 {shape}, inplace=True against inplace=False"
        calls.append(Call(binding.aten or binding.short, "inplace", source, setup,
                          f"{binding.name}(x{args}, inplace=True)", f"{binding.name}(x{args})"))
    return calls


def dunder_calls(binding) -> list:
    table = DUNDER_CALLS if "dunder" in binding.classes else AUGMENTED_CALLS
    rows = table.get(binding.short, ())
    return [Call(op or binding.short, cls, "hand", setup, call, expect, exact=cls != "inplace" or bool(expect))
            for op, cls, setup, call, expect in rows]


def dunder_texts(binding) -> set:
    return {call for _, _, _, call, _ in DUNDER_CALLS.get(binding.short, ())}


def for_binding(binding, calls) -> list:
    """Every call of `binding`: of its classes, from `calls` (the surface's planned calls of the scope)."""
    found = rewritten(binding, calls)
    if "inplace_flag" in binding.classes:
        found += flag_calls(binding)
    if "dunder" in binding.classes or binding.short in AUGMENTED_CALLS:
        found += dunder_calls(binding)
    return found


def surface_calls(scope: str) -> list:
    """The operator surface's calls of the scope (hand-written; with `all`, OpInfo and schema-generated too)."""
    return planned_calls(scope)

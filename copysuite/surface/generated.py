"""Calls generated from the schemas themselves, for the public op names no OpInfo and no hand-written call reaches:
each overload whose required arguments are all tensors (and numbers) is called through `torch.ops.aten` with float32
tensors of shape (3, 4) (numbers: 2), once with normal values and once with values in [0, 1). An op that refuses
these inputs is not applicable, and stays unchecked.

Private names (`_...`) are left out, but for the foreach ops (`_foreach_add_`, lists of two such tensors): their
preconditions are internal, and some crash the process on such inputs.
"""
from __future__ import annotations

from copysuite.surface.classify import schema
from copysuite.surface.inputs import Call

SETUP = ("x = torch.randn(3, 4)", "y = torch.randn(3, 4)", "z = torch.randn(3, 4)")
LISTS = ("x = [torch.randn(3, 4), torch.randn(2, 2)]", "y = [torch.randn(3, 4), torch.randn(2, 2)]",
         "z = [torch.randn(3, 4), torch.randn(2, 2)]")
VALUES = {"Tensor": None, "List[Tensor]": None, "Scalar": "2", "number": "2"}
# in-place ops whose out-of-place namesake means something else (normal(mean) is not x.normal_()), and ops whose
# values are uninitialized memory: their writes are checked by the version counter alone
RANDOM = {"bernoulli_", "cauchy_", "exponential_", "geometric_", "log_normal_", "normal_", "random_", "uniform_"}
UNINITIALIZED = ("empty",)


def arguments(s) -> list | None:
    """The Python text of the required positional arguments, or None when one is not a tensor or a number."""
    texts, tensors, lists = [], 0, False
    for a in s.arguments:
        if a.kwarg_only or a.default_value is not None or (hasattr(a, "has_default_value") and a.has_default_value()):
            continue
        kind = str(a.type)
        if kind not in VALUES:
            return None
        if VALUES[kind] is None:
            if tensors == len(SETUP) or (tensors and lists != (kind == "List[Tensor]")):
                return None   # tensors and lists mixed: not generated
            lists = kind == "List[Tensor]"
            texts.append("xyz"[tensors])
            tensors += 1
        else:
            texts.append(VALUES[kind])
    return (texts, lists) if texts and texts[0] == "x" else None


def schema_calls(ops: dict, covered: set) -> list:
    """Calls for the (class, name) pairs of `ops` not in `covered`."""
    calls = []
    for name, op in sorted(ops.items()):
        if name.startswith("_") and not name.startswith("_foreach_"):
            continue
        for overload, cls in sorted(op.overloads.items()):
            if cls not in ("functional", "out", "inplace") or (cls, name) in covered:
                continue
            found = arguments(schema(name, overload))
            if found is None:
                continue
            args, lists = found
            lines = (LISTS if lists else SETUP)[:sum(a in "xyz" for a in args)]
            text = f"torch.ops.aten.{name}({', '.join(args)})"
            reference = ""
            pair = ops.get(name[:-1])
            if cls == "inplace" and name not in RANDOM and pair is not None and "functional" in pair.classes:
                reference = f"torch.ops.aten.{name[:-1]}({', '.join(args)})"
            exact = (bool(reference) or cls != "inplace") and not any(u in name for u in UNINITIALIZED)
            shapes = "lists of (3, 4) and (2, 2) tensors" if lists else "(3, 4) tensors"
            # normal values, and values in [0, 1) for the ops that want probabilities (binary_cross_entropy, ...)
            for draw, words in (("randn", "normal"), ("rand", "uniform [0, 1)")):
                setup = "\n".join(line.replace("randn", draw) for line in lines)
                source = f"schema aten::{name}.{overload or 'default'} on float32 {shapes}, {words} values"
                calls.append(Call(name, cls, source, setup, text, reference, exact=exact))
            covered.add((cls, name))
    return calls

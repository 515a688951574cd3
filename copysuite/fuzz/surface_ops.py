"""A surface call (copysuite.surface.inputs.Call) as the expression of a fuzz op: the same op, called the same way
(the hand-written call's text, the OpInfo sample's public function with the sample's own arguments, the schema call
through `torch.ops.aten`), on the program's variables instead of the call's `x`.

The expression holds slots, `\\0P0\\0` for the call's input and `\\0P1\\0`, `\\0P2\\0` for each further tensor that has
the input's shape (a hand-written call or a schema call names them `y`, `z`; an OpInfo sample's tensor argument of
the input's shape): those become the program's operands. Any other tensor argument is written out as a constructor
(`torch.tensor([...])` where it is small, else `torch.ones(...)` of its shape and dtype), and every other argument as
its Python literal, so that the op prints as standalone Python in a finding's reproduction. A call whose arguments
have no literal (a callable, a generator) is not an expression (`Unrenderable`, with the reason).
"""
from __future__ import annotations

import math
import re

import torch

SLOT = "\0P{}\0"
MAX_LITERAL = 16   # elements of a tensor argument written out value by value
ONE_LINE_SETUP = re.compile(r"x = torch\.randn\([^()]*\)(\.t\(\))?(\.requires_grad_\(\))?")
WORD_X = re.compile(r"\bx\b")
SCHEMA_NAMES = re.compile(r"\b([xyz])\b")


class Unrenderable(Exception):
    """The call has no expression over the program's variables (its reason)."""


def literal(value) -> str:
    """A Python expression that builds `value` (a tensor argument not of the input's shape included)."""
    if value is None or isinstance(value, (bool, int, str)):
        return repr(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else f"float({str(value)!r})"
    if isinstance(value, complex):
        return f"complex({literal(value.real)}, {literal(value.imag)})"
    if isinstance(value, (torch.dtype, torch.layout, torch.memory_format)):
        return str(value)
    if isinstance(value, torch.device):
        return f"torch.device({str(value)!r})"
    if isinstance(value, torch.Size):
        return repr(tuple(value))
    if isinstance(value, (tuple, list)):
        inner = ", ".join(literal(v) for v in value)
        return f"({inner},)" if isinstance(value, tuple) and len(value) == 1 else \
            (f"({inner})" if isinstance(value, tuple) else f"[{inner}]")
    if isinstance(value, torch.Tensor):
        if value.layout != torch.strided or value.device.type != "cpu":
            raise Unrenderable(f"a {value.layout} tensor argument on {value.device}")
        if value.numel() <= MAX_LITERAL:
            return f"torch.tensor({literal(value.detach().tolist())}, dtype={value.dtype})"
        return f"torch.ones({tuple(value.shape)!r}, dtype={value.dtype})"
    raise Unrenderable(f"an argument of type {type(value).__name__} has no literal")


class Slots:
    """The tensors of the input's shape, in the order met, each a slot (the input itself is slot 0)."""

    def __init__(self, x):
        self.x, self.count = x, 1

    def text(self, value) -> str:
        if isinstance(value, torch.Tensor) and value is not self.x and value.shape == self.x.shape \
                and value.layout == torch.strided and self.count < 3:
            self.count += 1
            return SLOT.format(self.count - 1)
        if isinstance(value, (tuple, list)) and any(isinstance(v, torch.Tensor) for v in value):
            inner = [self.text(v) for v in value]
            return f"({', '.join(inner)},)" if isinstance(value, tuple) else f"[{', '.join(inner)}]"
        return literal(value)


def opinfo_expression(call) -> tuple[str, int]:
    """An OpInfo call (`torch.NAME(x, *args, **kwargs)`, `x.NAME_(*args, **kwargs)`) with its sample's arguments."""
    ns = call.fresh()
    x = ns["x"]
    slots = Slots(x)
    parts = [slots.text(a) for a in ns["args"]] + [f"{k}={slots.text(v)}" for k, v in ns["kwargs"].items()]
    text = call.call.replace("*args, **kwargs", ", ".join(parts))
    text = text.replace("(x, )", "(x)").replace(", )", ")")
    return WORD_X.sub(SLOT.format(0), text), slots.count


def hand_expression(call) -> tuple[str, int]:
    """A hand-written call whose setup is one dense random tensor `x` (its other tensors are constructors)."""
    if not ONE_LINE_SETUP.fullmatch(call.setup):
        raise Unrenderable("its input is no dense tensor a program holds (sparse, nested, dual, named)")
    return WORD_X.sub(SLOT.format(0), call.call), 1


def schema_expression(call) -> tuple[str, int]:
    """A schema call `torch.ops.aten.NAME(x, 2, y)`; list arguments (the foreach ops) a list of one variable each."""
    lists = call.setup.startswith("x = [")
    names = sorted(set(SCHEMA_NAMES.findall(call.call)))

    def slot(m):
        text = SLOT.format("xyz".index(m.group(1)))
        return f"[{text}]" if lists else text
    return SCHEMA_NAMES.sub(slot, call.call), len(names)


def expression(call) -> tuple[str, int]:
    """(the call's expression with its slots, how many slots); raises Unrenderable."""
    if call.source == "hand":
        return hand_expression(call)
    if call.source.startswith("schema "):
        return schema_expression(call)
    try:
        return opinfo_expression(call)
    except Unrenderable:
        raise
    except Exception as exc:   # the OpInfo's samples fail on this release (copysuite.surface.inputs.NotApplicable)
        raise Unrenderable(f"no sample: {type(exc).__name__}: {str(exc)[:100]}") from exc


def as_out_form(text: str, slots: int) -> tuple[str, int]:
    """The functional expression given `out=` the program's first operand: its own slots move up by one."""
    for k in reversed(range(slots)):
        text = text.replace(SLOT.format(k), SLOT.format(k + 1))
    if not text.endswith(")"):
        raise Unrenderable("no call to add out= to")
    opening = text.rstrip(")")[-1:] == "("
    return text[:-1] + ("" if opening else ", ") + f"out={SLOT.format(0)})", slots + 1


def template(text: str, slots: int, result: str) -> str:
    """The op's template (copysuite.fuzz.vocabulary.Op) for an expression whose probe returned `result`: tensor,
    sequence (its first element is bound) or none (an in-place op returning nothing: its first operand is bound)."""
    text = text.replace("{", "{{").replace("}", "}}")
    for k in range(slots):
        text = text.replace(SLOT.format(k), "{" + "xyzw"[k] + "}")
    if result == "tensor":
        return "{out} = " + text
    if result == "sequence":
        return "{out} = " + text + "[0]"
    return text + "\n{out} = {x}"

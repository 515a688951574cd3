"""The statements a generated program is made of: one op each, written as a Python template over its operands
(`{x}`, `{y}`) that binds a new variable (`{out}`).

Each op belongs to one operator class of the specs (view, dtype view, in-place, in-place view, out=, copy, no-op
arithmetic, scatter, autograd state, storage) or is a consumer that saves what it reads for backward; an op that
does not apply to its operands (a dim that is not there, a dtype that cannot be viewed) raises eagerly, and the
compiled side must raise too: that is part of what is compared, not something to avoid.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Op:
    name: str
    kind: str          # the operator class
    template: str      # Python lines; `{out}` is bound by the last one
    arity: int = 1     # operands: {x}, then {y}, {z} and {w}

    def render(self, out: str, args: tuple) -> list[str]:
        names = dict(zip("xyzw", args))
        return self.template.format(out=out, **names).splitlines()


def _ops(kind: str, arity: int, table: dict) -> list[Op]:
    return [Op(name, kind, template if "{out}" in template else "{out} = " + template, arity)
            for name, template in table.items()]


VIEWS = _ops("view", 1, {
    "view_flat": "{x}.view(-1)",
    "reshape": "{x}.reshape(-1)",
    "transpose": "{x}.transpose(0, -1)",
    "unsqueeze": "{x}.unsqueeze(0)",
    "squeeze": "{x}.squeeze()",
    "slice": "{x}[1:]",
    "slice_step": "{x}[::2]",
    "select": "{x}[0]",
    "narrow": "{x}.narrow(-1, 0, 1)",
    "diagonal": "{x}.diagonal()",
    "expand": "{x}.expand(2, *{x}.shape)",
    "unbind": "{x}.unbind(0)[-1]",
    "split": "{x}.split(1)[0]",
    "view_as": "{x}.view_as({x})",
    "ellipsis": "{x}[...]",
    "as_strided": "{x}.as_strided((1,), (1,))",
    "as_strided_storage_start": "{x}.as_strided((1,), (1,), 0)",
    "flatten": "{x}.flatten()",
})
DTYPE_VIEWS = _ops("dtype_view", 1, {
    "view_uint8": "{x}.view(torch.uint8)",
    "view_int32": "{x}.view(torch.int32)",
    "view_float32": "{x}.view(torch.float32)",
})
INPLACE = _ops("inplace", 1, {
    "add_": "{x}.add_(1)",
    "mul_": "{x}.mul_(2)",
    "zero_": "{x}.zero_()",
    "fill_": "{x}.fill_(3)",
    "neg_": "{x}.neg_()",
    "clamp_": "{x}.clamp_(max=2)",
    "setitem": "{x}[0] = 5\n{out} = {x}",
    "setitem_all": "{x}[...] = 7\n{out} = {x}",
    "index_put_": "{out} = {x}.index_put_((torch.tensor([0]),), torch.tensor(9).to({x}.dtype))",
    "scatter_": "{out} = {x}.scatter_(0, torch.zeros_like({x}[:1], dtype=torch.long), 4)",
})
INPLACE_VIEWS = _ops("inplace_view", 1, {
    "transpose_": "{x}.transpose_(0, -1)",
    "unsqueeze_": "{x}.unsqueeze_(0)",
    "squeeze_": "{x}.squeeze_()",
    "as_strided_": "{x}.as_strided_((1,), (1,))",
    "resize_": "{x}.resize_(1)",
})
AUTOGRAD = _ops("autograd", 1, {
    "detach": "{x}.detach()",
    "detach_": "{x}.detach_()",
    "data": "{x}.data",
    "requires_grad_": "{x}.requires_grad_()",
    "requires_grad_false": "{x}.requires_grad_(False)",
})
COPIES = _ops("copy", 1, {
    "clone": "{x}.clone()",
    "contiguous": "{x}.contiguous()",
    "to_same": "{x}.to({x}.dtype)",
    "to_float64": "{x}.to(torch.float64)",
    "detach_clone": "{x}.detach().clone()",
    "clone_contiguous_format": "{x}.clone(memory_format=torch.contiguous_format)",
})
NOOP_ARITHMETIC = _ops("noop", 1, {
    "plus_zero": "{x} + 0",
    "times_one": "{x} * 1",
    "minus_zero": "{x} - 0",
    "pow_one": "{x} ** 1",
    "times_two": "{x} * 2",
})
# consumers that are not neutral arithmetic: each saves what it reads (or its result) for backward, so a write after
# them, in the program or after the call, is one autograd must refuse at backward; each exact on the small integers
# the inputs hold (no transcendental function, whose last bits differ between eager's kernels and a compiler's)
CONSUMERS = _ops("consumer", 1, {
    "abs": "{x}.abs()",
    "relu": "{x}.relu()",
    "square": "{x} * {x}",
})
SCATTERS = _ops("scatter", 1, {
    "slice_scatter": "torch.slice_scatter({x}, {x}[:1] * 0, 0, 0, 1)",
    "select_scatter": "torch.select_scatter({x}, {x}[0] + 1, 0, 0)",
    "index_put": "{x}.index_put((torch.tensor([0]),), {x}[0] * 0)",
    "scatter": "{x}.scatter(0, torch.zeros_like({x}[:1], dtype=torch.long), 5)",
    "diagonal_scatter": "torch.diagonal_scatter({x}, {x}.diagonal() * 0)",
})
BINARY = _ops("binary", 2, {
    "copy_": "{x}.copy_({y})",
    "setitem_from": "{x}[...] = {y}\n{out} = {x}",
    "add_from": "{x}.add_({y})",
    "add": "{x} + {y}",
    "mul": "{x} * {y}",
    "out_add": "torch.add({y}, 1, out={x})",
    "out_mul": "torch.mul({y}, 2, out={x})",
    "out_neg": "torch.neg({y}, out={x})",
    "set_": "{x}.set_({y})",
    "data_assign": "{x}.data = {y}\n{out} = {x}",
    "slice_scatter_from": "torch.slice_scatter({x}, {y}, 0, 0)",
})

# the binary ops that write {x}'s values (set_ and `.data =` change what it is instead)
OUT_FORMS = tuple(op.name for op in BINARY if "out={x}" in op.template)
WRITES_FROM = ("copy_", "setitem_from", "add_from", *OUT_FORMS)

OPS = (*VIEWS, *DTYPE_VIEWS, *INPLACE, *INPLACE_VIEWS, *AUTOGRAD, *COPIES, *NOOP_ARITHMETIC, *CONSUMERS, *SCATTERS,
       *BINARY)
BY_NAME = {op.name: op for op in OPS}
assert len(BY_NAME) == len(OPS)
KINDS = tuple(dict.fromkeys(op.kind for op in OPS))


def register(ops) -> None:
    """Make ops of another vocabulary (copysuite.fuzz.surface_vocabulary) known to the statements that name them."""
    for op in ops:
        if BY_NAME.setdefault(op.name, op) != op:
            raise ValueError(f"two fuzz ops named {op.name}")

# What a caller does to an input after the call, before backward (a program's `after`): a write under no_grad (as
# an optimizer step writes a leaf) to the input, to a view of it, or through a detached alias, which shares its
# version counter. Autograd must refuse the backward where the program saved that input.
AFTER_WRITES = {
    "zero_": "{a}.zero_()",
    "view_fill_": "{a}[0].fill_(2)",
    "detached_zero_": "{a}.detach().zero_()",
}
# What a caller does to an input between two calls of one function (a program's `between`): its values written (a
# graph must not have kept them), its strides changed, its requires_grad turned off or on (each a guard's business).
BETWEEN_WRITES = {
    "zero_": "with torch.no_grad():\n    {a}.zero_()",
    "transpose_": "{a}.transpose_(0, -1)",
    "requires_grad_off": "{a}.requires_grad_(False)",
    "requires_grad_on": "{a}.requires_grad_({a}.is_floating_point())",
}

"""The `foreach` shape: statements that call torch's foreach ops (the multi-tensor kernels optimizers use) on lists
whose members alias: one tensor twice, a view beside its base, or two operands that alias when the program's inputs
do. Eagerly each member is updated in turn, so a tensor listed twice is updated twice and a view sees its base's
update; an execution must do the same.
"""
from __future__ import annotations

from copysuite.fuzz.vocabulary import Op

OPS = (
    Op("foreach_add_twice", "foreach", "torch._foreach_add_([{x}, {x}], 1)\n{out} = {x}"),
    Op("foreach_add_view_base", "foreach", "torch._foreach_add_([{x}, {x}[:1]], 1)\n{out} = {x}"),
    Op("foreach_mul_pair", "foreach", "torch._foreach_mul_([{x}, {y}], 2)\n{out} = {x}", arity=2),
    Op("foreach_add_lists", "foreach", "torch._foreach_add_([{x}], [{y}])\n{out} = {x}", arity=2),
    Op("foreach_copy_", "foreach", "torch._foreach_copy_([{x}], [{y}])\n{out} = {x}", arity=2),
    Op("foreach_add_functional", "foreach", "{out} = torch._foreach_add([{x}, {x}[:1]], 1)[1]"),
)
NAMES = frozenset(op.name for op in OPS)

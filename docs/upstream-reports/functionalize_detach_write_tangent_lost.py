"""A write with a dual operand into a detach() of a tensor (`t = a.detach(); t.add_(a)`, a dual tensor of forward-mode
AD) gives t a tangent eagerly (the in-place op sets the written tensor's forward grad: a's tangent), and none under
torch.func.functionalize, where detach() is an alias of a (a view to functionalization) and the written alias comes
back without a tangent; `torch.ops.aten.alias(a.detach())` and `a.detach().view(-1)` the same. A detach().clone()
written the same way keeps its tangent functionalized (a fresh tensor, no alias). Found by `python -m copysuite fuzz --execution functionalize --vocabulary surface` (the 2.13.0 top-up, seed
6620: `t2 = a.relu().detach()` written by `_foreach_minimum_([t2], [a])`); seen on torch 2.13.0 and 2.14.1. No
upstream report found (closest: issue 192629, unpack_dual inside functionalize)."""
import sys

import torch
import torch.autograd.forward_ad as fwAD


def detach_written(a):
    t = a.detach()
    t.add_(a)
    return t


def clone_written(a):   # the control: no view of a
    t = a.detach().clone()
    t.add_(a)
    return t


def tangent(f, x):
    with fwAD.dual_level():
        return fwAD.unpack_dual(f(fwAD.make_dual(x, torch.ones_like(x)))).tangent


differs = []
for name, f in (("detach().add_(a)", detach_written), ("detach().clone().add_(a)", clone_written)):
    eager = tangent(f, torch.tensor([0.5]))
    func = tangent(torch.func.functionalize(f), torch.tensor([0.5]))
    print(f"torch {torch.__version__} {name:26} tangent eager {eager}, functionalized {func}")
    if (eager is None) != (func is None) or (eager is not None and not torch.equal(eager, func)):
        differs.append(name)
print("differs:", differs)
# the bug: the written detach() loses its tangent functionalized (the clone, no view, keeps it)
reproduces = "detach().add_(a)" in differs
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""An in-place comparison (`t.le_(a)`, t an intermediate of a dual tensor a of forward-mode AD) leaves t a zero tangent
eagerly (its forward formula zeroes self's tangent: a comparison has no derivative) and no tangent (None) under
torch.func.functionalize, where t takes the state of its new value, the functional comparison's result. zero_(),
which also zeroes the tangent, keeps a zero tangent functionalized. A missing tangent counts as zero in forward-mode
AD, but unpack_dual tells them apart (None against a zero tensor). Found by `python -m copysuite fuzz --execution
functionalize --vocabulary surface` (the 2.13.0 top-up, seed 6622: `t5.le_(t3)`); seen on torch 2.13.0 and 2.14.1
(le_, lt_, ge_, gt_, eq_, ne_). No upstream report found (closest: issue 69714, the non-differentiable logical ops
written in place)."""
import sys

import torch
import torch.autograd.forward_ad as fwAD


def tangent(f, x):
    with fwAD.dual_level():
        return fwAD.unpack_dual(f(fwAD.make_dual(x, torch.ones_like(x)))).tangent


dropped = []
for name in ("le_", "lt_", "ge_", "gt_", "eq_", "ne_", "zero_"):
    def f(a, name=name):
        t = a * 1
        getattr(t, name)(*(() if name == "zero_" else (a,)))
        return t
    eager = tangent(f, torch.tensor([0.5]))
    func = tangent(torch.func.functionalize(f), torch.tensor([0.5]))
    print(f"torch {torch.__version__} t.{name:6} tangent eager {eager}, functionalized {func}")
    if eager is not None and func is None:
        dropped.append(name)
print("tangent dropped functionalized:", dropped)
# the bug: the comparison's zero tangent is gone functionalized (zero_, the control, keeps it)
reproduces = "le_" in dropped
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

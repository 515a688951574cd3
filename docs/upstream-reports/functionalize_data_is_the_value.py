"""torch.func.functionalize and `.data`: `x.data` of a functional tensor shares x's functional value, and
functionalize returns each output as its unwrapped value, so an output that is `a.data` of an input nothing wrote
is the input object itself (eagerly a new tensor object sharing a's memory), and a later metadata change of `a`
(squeeze_) shows on that output too. Forward-mode AD sees the same sharing: `x.data` of a dual x keeps x's tangent
functionalized (eagerly `.data` has none), and `y.set_(x)` of a dual x, which forward AD refuses eagerly ("Trying to
use forward AD with set_ that does not support it"), runs with x's tangent. Found by `python -m copysuite fuzz
--execution functionalize` (seeds 3 and 24; the forward-mode part with `--vocabulary surface`); seen on torch 2.13.0
and 2.14.1. Closest upstream: PR 172836 (listed output identity for mutated inputs, dropped);
none found for `.data`."""
import sys

import torch
import torch.autograd.forward_ad as fwAD
from torch.func import functionalize


def program(a):
    d = a.data
    a.squeeze_()
    return d


seen = {}
for side, fn in (("eager", program), ("functionalize", functionalize(program))):
    a = torch.arange(1.0)
    d = fn(a)
    print(f"torch {torch.__version__} {side:13s}: output is the input: {d is a}; output shape {tuple(d.shape)}")
    seen["a.data", side] = (d is a, tuple(d.shape))
def data_of_dual(c):
    return c[1:].data


def set_to_dual(c):
    return torch.zeros(3).set_(c)


for name, program in (("x.data of a dual x", data_of_dual), ("set_ to a dual x", set_to_dual)):
    for side, fn in (("eager", program), ("functionalize", functionalize(program))):
        with fwAD.dual_level():
            try:
                tangent = fwAD.unpack_dual(fn(fwAD.make_dual(torch.arange(3.0), torch.ones(3)))).tangent
                seen[name, side] = "no tangent" if tangent is None else "a tangent"
            except NotImplementedError as exc:
                seen[name, side] = f"refused: {str(exc).splitlines()[0][:70]}"
        print(f"torch {torch.__version__} {name} {side:13s}: {seen[name, side]}")
# the bug: functionalize's output is the input object itself (and takes its squeeze_), eager's a new tensor; and
# forward-mode AD sees a tangent through .data and set_ functionalized where eager has none or refuses
reproduces = any(seen[part, "functionalize"] != seen[part, "eager"] for part, _ in seen)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

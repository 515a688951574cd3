"""torch.func.functionalize and `.data`: `x.data` of a functional tensor shares x's functional value, and
functionalize returns each output as its unwrapped value, so an output that is `a.data` of an input nothing wrote
is the input object itself (eagerly a new tensor object sharing a's memory), and a later metadata change of `a`
(squeeze_) shows on that output too. Found by `python -m copysuite fuzz --execution functionalize` (seeds 3 and 24);
seen on torch 2.13.0 and 2.14.1. Closest upstream: PR 172836 (listed output identity for mutated inputs, dropped);
none found for `.data`."""
import sys
import torch
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
    seen[side] = (d is a, tuple(d.shape))
# the bug: functionalize's output is the input object itself (and takes its squeeze_), eager's a new tensor
reproduces = seen["functionalize"] != seen["eager"]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

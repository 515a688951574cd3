"""torch.func.functionalize and a view of a tensor that an out= op then resizes: functionalize regenerates the view
from the base's new (resized) value, so it takes the new size; eagerly a view keeps its own size over the old
memory. The documented limit of functionalize (its docstring's failure mode 3) is resize_() of a view, not of a
base that has views. Found by `python -m copysuite fuzz --execution functionalize` (seed 3); seen on torch 2.13.0
and 2.14.1. No upstream issue found (searched: functionalize resize view regenerate)."""
import sys
import warnings

import torch
from torch.func import functionalize


def program(a, b):
    v = b.view(torch.int32).detach()
    torch.add(a, 1, out=b)   # resizes b from (2,) to (1,), with torch's warning
    return v


warnings.simplefilter("ignore")
shapes = {}
for side, fn in (("eager", program), ("functionalize", functionalize(program))):
    v = fn(torch.arange(1.0), torch.arange(2.0))
    print(f"torch {torch.__version__} {side:13s}: the view made before the resize has shape {tuple(v.shape)}")
    shapes[side] = tuple(v.shape)
# the bug: under functionalize the view takes the resized base's size
reproduces = shapes["functionalize"] != shapes["eager"]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

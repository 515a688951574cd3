"""torch.func.functionalize and zero_() of a complex tensor that requires grad: the write is functionalized into
aten.zero, whose derivative formula refuses complex outputs ("zero does not support automatic differentiation for
outputs with complex dtype"); eager's zero_ runs. Found by `python -m copysuite fuzz --execution functionalize`
(seed 16); seen on torch 2.13.0 and 2.14.1. No upstream issue found (searched: zero complex automatic
differentiation functionalize)."""
import sys
import torch
from torch.func import functionalize


def program(a):
    t = a * 1
    t.zero_()
    return t


raised = {}
for side, fn in (("eager", program), ("functionalize", functionalize(program))):
    a = torch.ones(2, dtype=torch.complex64, requires_grad=True)
    try:
        print(f"torch {torch.__version__} {side:13s}: {fn(a).tolist()}")
        raised[side] = False
    except RuntimeError as exc:
        print(f"torch {torch.__version__} {side:13s}: raises {exc}")
        raised[side] = True
# the bug: functionalize refuses what eager runs
reproduces = raised["functionalize"] and not raised["eager"]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

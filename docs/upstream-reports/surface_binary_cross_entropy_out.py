"""binary_cross_entropy's out= form ignores the reduction on the CPU: with reduction mean (the default) or sum, out
holds the first element's loss instead of the mean or the sum, silently (reduction none is right). Seen on 2.13.0 by
the operator surface's out= cells (copysuite/surface), through torch.ops.aten (torch.nn.functional.binary_cross_entropy
has no out= argument; torch._C._nn.binary_cross_entropy does).
"""
import sys
import torch

torch.manual_seed(0)
x, y = torch.rand(3), torch.rand(3)
wrong = []
for reduction, name in enumerate(("none", "mean", "sum")):
    expected = torch.ops.aten.binary_cross_entropy(x, y, None, reduction)
    out = torch.empty_like(expected)
    torch.ops.aten.binary_cross_entropy(x, y, None, reduction, out=out)
    print(f"{name}: functional {expected.tolist()}, out= {out.tolist()}")
    wrong.append(not torch.allclose(out, expected))
# the bug: the out= form does not hold the functional form's result for some reduction
reproduces = any(wrong)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""`torch.ops.aten._add_relu_(c, other)` where other broadcasts c to a larger shape: eagerly refused ("output with
shape [1] doesn't match the broadcast shape [3, 4]", as add_ is); under torch.func.functionalize it runs, and the
caller's c is resized to the broadcast shape. Functionalization checks an in-place op's shapes by calling it on meta
tensors first (torchgen/gen_functionalization_type.py: "run meta tensors through the original op. This will help us
catch shape errors that apply to inplace ops"), and the meta kernel of _add_relu_ returns self without the broadcast
check (aten._add_relu_ on meta tensors of shapes (1,) and (3, 4) returns a (1,) tensor; add_ raises), so the
functional _add_relu computes the (3, 4) result and it is copied back into c. Found by `python -m copysuite fuzz
--execution functionalize --vocabulary surface`; seen on torch 2.13.0 and 2.14.1. No upstream report found (closest:
PR 140009, which added the meta of the functional _add_relu, asked in review whether it broadcasts)."""
import sys

import torch


def program(c):
    return torch.ops.aten._add_relu_(c, torch.ones(3, 4))


seen = {}
for label, f in (("eager", program), ("functionalize", torch.func.functionalize(program))):
    c = torch.zeros(1)
    try:
        f(c)
        seen[label] = f"ran, c's shape after: {tuple(c.shape)}"
    except RuntimeError as exc:
        seen[label] = f"raised: {exc}"
    print(f"torch {torch.__version__} {label:13} {seen[label]}")
try:
    meta = torch.ops.aten._add_relu_(torch.zeros(1, device="meta"), torch.ones(3, 4, device="meta"))
    print(f"meta kernel: returned shape {tuple(meta.shape)} (no broadcast check)")
except RuntimeError as exc:
    print(f"meta kernel: raised: {exc}")
# the bug: eager refuses the in-place broadcast, functionalize runs it and resizes the caller's c
reproduces = seen["eager"].startswith("raised") and seen["functionalize"].startswith("ran")
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""aten.lift_fresh_copy of a dense non-contiguous tensor (a transpose, strides (1, 2)) returns contiguous strides
(2, 1) eagerly, as every generated *_copy op does, and the input's strides (1, 2) under torch.func.functionalize:
functionalization's kernel for it (lift_fresh_functionalize_copy in aten/src/ATen/FunctionalizeFallbackKernel.cpp,
Note [Exporting and compiling a graph with lift_fresh_copy], for issue 105327) redispatches a functional input to
aten.clone with no memory format, which preserves a dense tensor's strides. The values agree. Found by `python -m
copysuite fuzz --execution functionalize --vocabulary surface` (the 2.14.1 campaign, seed 6403); seen on torch 2.13.0
and 2.14.1. torch.compile with backend "aot_eager", which functionalizes, returns the input's strides too (found by
the 2.13.0 aot_eager campaign, seed 6601; seen on 2.13.0 and 2.14.1), so a dtype view of the result that eager allows
fails to compile. No upstream report found."""
import sys

import torch


def lifted(a):
    return torch.ops.aten.lift_fresh_copy(a)


strides = {}
compiled = torch.compile(lifted, backend="aot_eager")
for label, f in (("eager", lifted), ("functionalize", torch.func.functionalize(lifted)), ("aot_eager", compiled)):
    a = torch.arange(4.0).reshape(2, 2).t()   # strides (1, 2): dense, not contiguous
    out = f(a)
    strides[label] = out.stride()
    print(f"torch {torch.__version__} {label:13} input strides {a.stride()} -> lift_fresh_copy strides {out.stride()},"
          f" values {out.reshape(-1).tolist()}")
# the bug: the functionalized op keeps the input's strides where the op itself returns contiguous ones
differs = [label for label in ("functionalize", "aot_eager") if strides[label] != strides["eager"]]
print("differs from eager:", differs or "none")
reproduces = bool(differs)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

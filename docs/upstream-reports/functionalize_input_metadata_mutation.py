"""torch.func.functionalize and an in-place metadata change of an input (transpose_ of a square input): after the
call, functionalize copies the input's new value back, but applies the new metadata (as_strided_) only when the
sizes changed (torch/csrc/functorch/init.cpp, _propagate_functional_input_mutation). A square transpose keeps its
sizes, so the caller's tensor keeps its old strides and its own transpose is copy_'d into it: with the default
remove="mutations" that value is a transposed view of the same memory, and copy_ either refuses the partial overlap
(a contiguous input) or writes through it and gets wrong values (an input with a gap between its rows, where the
overlap check does not see it). Eagerly the input's strides change and its memory is untouched. Found by
`python -m copysuite fuzz --execution functionalize` (seed 3); seen on torch 2.13.0 and 2.14.1. Closest upstream:
issue 153861 (another copy-back bug of functionalize's input mutations); none found for metadata."""
import sys
import torch
from torch.func import functionalize


def program(a):
    a.transpose_(0, 1)
    return a.clone()


seen = {}
for name, make in (("contiguous (2, 2)", lambda: torch.arange(4.0).reshape(2, 2)),
                   ("rows 4 apart (2, 2)", lambda: torch.arange(6.0).as_strided((2, 2), (4, 1)))):
    for side, fn in (("eager", program), ("functionalize", functionalize(program))):
        a = make()
        try:
            fn(a)
            print(f"torch {torch.__version__} {name} {side:13s}: strides {a.stride()}, values {a.tolist()}")
            seen[name, side] = (a.stride(), a.tolist())
        except RuntimeError as exc:
            print(f"torch {torch.__version__} {name} {side:13s}: raises {str(exc)[:90]}")
            seen[name, side] = "raises"
# the bug: for either input, the caller's tensor after functionalize is not eager's (refused, or wrong values)
reproduces = any(seen[name, "functionalize"] != seen[name, "eager"] for name, _ in seen)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""A function that writes its input in place and then reads it (`a.add_(a); return a / a`), a non-leaf input that
requires grad, and a write to that input after the call (under no_grad, as an optimizer step writes): eagerly
backward refuses ("one of the variables needed for gradient computation has been modified by an inplace
operation"), under torch.func.functionalize backward runs and returns a gradient computed from the values the
function saw. The functionalized program saves its functional values for backward, not the caller's tensor, whose
new value is copied back into it after the call: a later write to the input moves a version counter that no saved
tensor shares. Without the in-place write inside the function (`return a * a`) functionalize refuses as eager does.
Found by `python -m copysuite fuzz --execution functionalize --vocabulary surface` (add_ then _foreach_div, seed
5202, the `after` shape); seen on torch 2.13.0 and 2.14.1. No upstream report found (closest: functorch issue 667,
functionalize and tensors that require grad, open)."""
import sys

import torch


def program(a):
    a.add_(a)
    return a / a


def backward_after_write(fn):
    leaf = torch.full((1,), 2.0, requires_grad=True)
    a = leaf * 1
    out = fn(a)
    with torch.no_grad():
        a.fill_(3)
    try:
        out.sum().backward()
    except RuntimeError as exc:
        return f"raised RuntimeError: {str(exc)[:90]}"
    return f"grad {leaf.grad.tolist()}"


eager = backward_after_write(program)
functionalized = backward_after_write(torch.func.functionalize(program))
print(f"torch {torch.__version__} eager        : {eager}")
print(f"torch {torch.__version__} functionalize: {functionalized}")
# the bug: backward after the input was written is refused eagerly, not functionalized
reproduces = eager.startswith("raised") and functionalized.startswith("grad")
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

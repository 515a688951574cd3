"""torch.func.functionalize, called under torch.no_grad(), of a program that changes an input's metadata in place and
returns it (`b.unsqueeze_(0); return b`, b a non-leaf that requires grad): eagerly the result is b itself, whose
gradient reaches the leaf (backward, or a forward-mode AD tangent). Functionalized, the result is a new view of b,
made under no_grad, and b's metadata is then changed in place to replay the unsqueeze_: autograd refuses the view
from then on ("A view was created in no_grad mode and its base or another view of its base has been modified
inplace with grad mode enabled"), in backward and in forward-mode AD alike. The same replay of an input's metadata
change as functionalize_input_metadata_mutation.py (torch/csrc/functorch/init.cpp,
_propagate_functional_input_mutation). Found by `python -m copysuite fuzz --execution functionalize --vocabulary
surface` (torch 2.14.1, seed 6521); seen on torch 2.13.0 and 2.14.1. No upstream report found (searched:
functionalize no_grad view modified inplace, functionalize unsqueeze_ input metadata)."""
import sys

import torch
import torch.autograd.forward_ad as fwAD


def program(b):
    b.unsqueeze_(0)
    return b


def backward(fn):
    leaf = torch.ones(2, requires_grad=True)
    b = leaf * 1
    with torch.no_grad():
        out = fn(b)
    try:
        out.sum().backward()
    except RuntimeError as exc:
        return f"raised RuntimeError: {str(exc)[:70]}"
    return f"leaf.grad {leaf.grad.tolist()}"


def forward(fn):
    b = torch.ones(2, requires_grad=True) * 1
    with fwAD.dual_level():
        dual = fwAD.make_dual(b, torch.ones(2))
        try:
            with torch.no_grad():
                out = fn(dual)
            return f"tangent {fwAD.unpack_dual(out).tangent.tolist()}"
        except RuntimeError as exc:
            return f"raised RuntimeError: {str(exc)[:70]}"


seen = {}
for side, fn in (("eager", program), ("functionalize", torch.func.functionalize(program))):
    seen[side] = (backward(fn), forward(fn))
    print(f"torch {torch.__version__} {side:13s} backward: {seen[side][0]}")
    print(f"torch {torch.__version__} {side:13s} forward AD: {seen[side][1]}")
# the bug: eager's result carries its gradient, the functionalized one raises
reproduces = not any(s.startswith("raised") for s in seen["eager"]) and any(
    s.startswith("raised") for s in seen["functionalize"])
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

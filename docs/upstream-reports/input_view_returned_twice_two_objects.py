"""A compiled function that returns a view of its input under two names that are one object eagerly (the second
from an op that returns its argument itself: an in-place op, `contiguous()` of a contiguous tensor, `to()` of its own
dtype, `_autocast_to_full_precision`) returns two different objects under AOTAutograd (aot_eager, inductor): each
output that aliases an input is regenerated from the input on its own, so a caller's `out1 is out2` no longer holds
and an attribute set on one (requires_grad_, a Python attribute) does not show on the other. Dynamo alone
(backend="eager") keeps one object, and a view returned twice by the same name stays one object. Found by
`python -m copysuite fuzz --vocabulary surface` (seed 0, compile.aot_eager); seen on torch 2.13.0 and 2.14.1.
Closest: PR 191844 (output identity of no-op views of an intermediate, under no_grad), issue 100348 (detach()
returned the same object, fixed)."""
import sys

import torch

CASES = {
    "v.add_(1)": lambda a: (lambda v: (v, v.add_(1)))(a.view(-1)),
    "v.contiguous()": lambda a: (lambda v: (v, v.contiguous()))(a.view(-1)),
    "v.to(v.dtype)": lambda a: (lambda v: (v, v.to(v.dtype)))(a.view(-1)),
    "v._autocast_to_full_precision(False, False)":
        lambda a: (lambda v: (v, v._autocast_to_full_precision(False, False)))(a.view(-1)),
}

two_objects = False
for name, fn in CASES.items():
    eager = fn(torch.arange(3.0))
    for backend in sys.argv[1:] or ["eager", "aot_eager"]:
        compiled = torch.compile(fn, backend=backend)(torch.arange(3.0))
        print(f"v = a.view(-1); return v, {name:44s} torch {torch.__version__} one object: eager "
              f"{eager[0] is eager[1]}, {backend} {compiled[0] is compiled[1]}")
        two_objects |= eager[0] is eager[1] and compiled[0] is not compiled[1]
# the bug: one object eagerly, two compiled
reproduces = two_objects
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

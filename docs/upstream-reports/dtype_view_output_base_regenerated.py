"""A compiled function that returns a dtype view of its input (`t = a.view(torch.uint8)`, float32 input) and a view of
that view (`t.view(-1)`): eagerly the second output's `_base` is the first output (a dtype view of another element
size is no autograd view of `a`, so `t` is the base of its own views); under AOTAutograd (aot_eager) its `_base` is
another uint8 tensor over the same memory, which the caller never sees: each output that aliases an input is
regenerated from the input on its own. Dynamo alone (backend "eager") keeps eager's base. Found by
`python -m copysuite fuzz --execution compile.aot_eager --vocabulary surface` on 2.14.1 (seed 6501, through
`torch._test_autograd_multiple_dispatch_view`); seen on torch 2.13.0 and 2.14.1, CPU. No upstream report found
(closest: the suite's input_view_returned_twice_two_objects.py, the same regeneration met as output identity)."""
import sys

import torch


def program(a):
    t = a.view(torch.uint8)
    return t, t.view(-1)


rebased = False
for backend in ["eager_call", *(sys.argv[1:] or ["eager", "aot_eager"])]:
    fn = program if backend == "eager_call" else torch.compile(program, backend=backend)
    t, v = fn(torch.zeros(2))
    print(f"{backend:10s} torch {torch.__version__}: t is a view {t._is_view()}; t.view(-1)._base is t {v._base is t}")
    rebased |= backend != "eager_call" and v._base is not t
# the bug: eagerly the view's base is the returned dtype view; compiled it is a tensor of its own
reproduces = rebased
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

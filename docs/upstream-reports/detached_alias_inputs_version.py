"""A tensor and its detach() passed together to a compiled function, one of them written in place: eagerly the two
share one version counter and the write moves it (autograd can tell that a saved tensor was altered); compiled with
an AOTAutograd backend the counter moves for neither. Silent. Other aliases of one input (the same tensor twice,
`a[...]`, `a.view(-1)`, `a[1:]`) keep eager's behaviour; a write through `a.detach()` made inside the function does
too. Found by `python -m copysuite fuzz` (seed 7, compile.aot_eager); seen on torch 2.13.0 and 2.14.1. Closest:
issue 135441 (a write the version counter missed, closed), PR 95980 (writes through detach() hidden from autograd)."""
import sys

import torch


def program(a, b):
    b.mul_(2)
    return a * 1


backend = sys.argv[1] if len(sys.argv) > 1 else "aot_eager"
moved = {}
for name, fn in (("eager", program), (backend, torch.compile(program, backend=backend))):
    a = torch.arange(3.0)
    before = a._version
    fn(a, a.detach())
    print(f"{name:10s} torch {torch.__version__}: a's version counter moved: {a._version != before}; a = {a.tolist()}")
    moved[name] = a._version != before
# the bug: the counter the two share moves eagerly, not compiled
reproduces = moved["eager"] and not moved[backend]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""`requires_grad_(False)` on the tensor an in-place op returned (`a.add_(1)` is `a` itself), inside a compiled
function called under no_grad: eagerly the caller's leaf `a` no longer requires grad; compiled (dynamo alone,
backend="eager", already) the call is lost and `a` still requires grad. Silent. `a.requires_grad_(False)` by the
input's own name keeps eager's behaviour. Found by `python -m copysuite fuzz` (seed 7, compile.eager); seen on torch
2.13.0 and 2.14.1. Closest: issue 176854 (detach_() lost on an intermediate, closed), issue 123713
(requires_grad_(True) inside a compiled function, closed)."""
import sys

import torch


def program(a):
    t = a.add_(1)
    t.requires_grad_(False)
    return a * 1


after = {}
for backend in ("eager (no compile)", *(sys.argv[1:] or ["eager", "aot_eager"])):
    fn = program if backend.startswith("eager (") else torch.compile(program, backend=backend)
    a = torch.arange(3.0).requires_grad_()
    with torch.no_grad():
        fn(a)
    print(f"{backend:18s} torch {torch.__version__}: a.requires_grad after the call: {a.requires_grad}")
    after[backend] = a.requires_grad
# the bug: compiled, the caller's tensor still requires grad (eagerly it no longer does)
reproduces = any(v != after["eager (no compile)"] for v in after.values())
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""`a.data` read twice inside a compiled function: eagerly each read is a new tensor object (two aliases of a's
memory); compiled (dynamo alone, backend="eager", already) both names hold one object, so setting an attribute on
one (requires_grad_, a Python attribute) shows on the other. `a.detach()` read twice keeps eager's behaviour. Found
by `python -m copysuite fuzz` (seed 7, compile.eager); seen on torch 2.13.0 and 2.14.1. Closest: issue 100348
(`detach()` returned the same object, closed: fixed for detach, not for `.data`)."""
import sys

import torch


def program(a):
    return a.data, a.data


one_object = {}
for backend in ("eager (no compile)", *(sys.argv[1:] or ["eager", "aot_eager"])):
    fn = program if backend.startswith("eager (") else torch.compile(program, backend=backend)
    first, second = fn(torch.arange(3.0))
    print(f"{backend:18s} torch {torch.__version__}: the two reads are one object: {first is second}")
    one_object[backend] = first is second
# the bug: compiled, the two reads are one object (eagerly two)
reproduces = any(same for backend, same in one_object.items() if not backend.startswith("eager ("))
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

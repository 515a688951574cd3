"""`t1 = x.data; t2 = t1.neg_(); t1.requires_grad_(); return t2`: eagerly t2 is t1 (an in-place op returns its
tensor), so the output requires grad; compiled (backend="eager" already: dynamo) it does not, silently. The in-place
op's result and `.data` are two names of one tensor, and requires_grad_() through one of them does not reach the
other. With `x.detach()` or a view in place of `.data` dynamo keeps eager's result; with `x.clone()` dynamo does and
AOTAutograd (backend="aot_eager") does not. Found by `python -m copysuite fuzz --execution compile.aot_eager` (seed 1,
COPYSUITE_FUZZ_SHAPES=consumers); seen on torch 2.13.0 and 2.14.1. No upstream report found; closest: issue 123713
(requires_grad_() of an intermediate inside a compiled function, closed), issue 176854 (detach_() lost, closed), and
docs/upstream-reports/requires_grad_off_through_alias.py (requires_grad_(False) through another name of an input)."""
import sys

import torch


def data_alias(x):
    t1 = x.data
    t2 = t1.neg_()
    t1.requires_grad_()
    return t2


def clone_alias(x):
    t1 = x.clone()
    t2 = t1.neg_()
    t1.requires_grad_()
    return t2


differs = []
for program in (data_alias, clone_alias):
    seen = {}
    for backend in ("eager (no compile)", "eager", "aot_eager"):
        fn = program if backend.startswith("eager (") else torch.compile(program, backend=backend)
        out = fn(torch.arange(3.0))
        seen[backend] = out.requires_grad
        print(f"torch {torch.__version__} {program.__name__} {backend:18s}: output requires grad {out.requires_grad}")
        torch._dynamo.reset()
    differs += [f"{program.__name__} under {b}" for b, v in seen.items() if v != seen["eager (no compile)"]]
print("differs:", ", ".join(differs) or "nothing")
# the bug: compiled, the output (the tensor requires_grad_() was called on, by another name) does not require grad
reproduces = bool(differs)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

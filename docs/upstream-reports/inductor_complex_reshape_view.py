"""inductor and `a.reshape(-1)` of a transposed complex tensor: eagerly the reshape copies (the result is not a
view); under inductor the result comes back as a view of a hidden intermediate (`_is_view()` True, sharing memory
with no input). When the input requires grad, an in-place write to the result, which eager allows, then fails
("Output 0 of CompiledFunction is a view and is being modified inplace"). aot_eager and float32 hold. Cause: eager's
reshape is clone + _unsafe_view (AOTAutograd calls the output a non-alias); inductor's decomposition turns
_unsafe_view into view, its view_to_reshape pass into reshape, and complex ops fall back to eager kernels, where
that reshape of the contiguous intermediate is a real view. Found by `python -m copysuite fuzz --execution
compile.inductor` (seed 7); seen on torch 2.13.0 and 2.14.1. Closest upstream: PR 103919 (issue 103153: moved
_unsafe_view to the runtime epilogue so that inductor cannot turn it into a view, for outputs AOTAutograd itself
marks as aliases of intermediates) and issue 90507 (the same symptom from in-place view ops)."""
import sys
import torch


def program(a):
    return a.reshape(-1)


seen = {}
for backend in ("eager (no compile)", "aot_eager", "inductor"):
    torch._dynamo.reset()
    a = torch.arange(6.0).to(torch.complex64).reshape(2, 3).t().detach().requires_grad_()
    out = program(a) if backend.startswith("eager (") else torch.compile(program, backend=backend)(a)
    try:
        out.mul_(2)
        write = "allowed"
    except RuntimeError as exc:
        write = f"refused ({str(exc)[:60]}...)"
    print(f"torch {torch.__version__} {backend:18s}: output is a view: {out._is_view()}; a write to it: {write}")
    seen[backend] = (out._is_view(), write == "allowed")
# the bug: inductor's output is a view that refuses the write eager allows
reproduces = seen["inductor"] != seen["eager (no compile)"]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

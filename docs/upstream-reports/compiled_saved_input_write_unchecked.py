"""An input written after a compiled call and before backward (`out = f(b); b.zero_(); out.sum().backward()`, the
write under no_grad), where f is `torch.fmin(b, other)`: eagerly backward refuses ("one of the variables needed for
gradient computation has been modified by an inplace operation": fmin's derivative saved b), compiled with
backend="aot_eager" or "inductor" backward runs and returns the gradient of the values at the call (the partitioner
stashed the comparison's mask, not b, so no saved tensor's version counter moved). Found by `python -m copysuite
fuzz --execution compile.aot_eager --vocabulary surface` (seed 5201, COPYSUITE_FUZZ_SHAPES with `after`); seen on
torch 2.13.0 and 2.14.1. No upstream report found (closest: PR 197039, open, the partitioner recomputing reads of
mutated inputs; functionalize's form of this is the draft functionalize_saved_input_write_unchecked.py)."""
import sys

import torch
import torch._functorch.config
import torch._inductor.config

torch._inductor.config.fx_graph_cache = False
torch._functorch.config.enable_autograd_cache = False


def program(b):
    return torch.fmin(b, torch.tensor(3.6))


seen = {}
for backend in ("eager", "aot_eager"):
    torch._dynamo.reset()
    f = program if backend == "eager" else torch.compile(program, backend=backend)
    leaf = torch.tensor([5.0, 1.0], requires_grad=True)
    b = leaf * 1
    out = f(b)
    with torch.no_grad():
        b.zero_()
    try:
        out.sum().backward()
        seen[backend] = f"backward ran, grad {leaf.grad.tolist()}"
    except RuntimeError as exc:
        seen[backend] = f"backward refused: {str(exc)[:70]}"
    print(f"torch {torch.__version__} {backend:9}: {seen[backend]}")
# the bug: eager's saved-tensor check refuses the backward after the write, the compiled backward runs
reproduces = seen["eager"].startswith("backward refused") and seen["aot_eager"].startswith("backward ran")
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

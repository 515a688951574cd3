"""Under torch.no_grad(), a view of an input that requires grad (a parameter) is returned, and the input is then
written in place by a foreach op (`t = a[1]; torch._foreach_add_([a], 1); return t`, an optimizer's update):
eagerly the view's autograd state is refused from then on (t.grad_fn raises "A view was created in no_grad mode and
its base or another view of its base has been modified inplace ... it is forbidden"); compiled (backend="aot_eager"
or "inductor", static or dynamic shapes; backend="eager", dynamo alone, holds) the view comes back as a usable leaf
(grad_fn None, is_leaf True, requires_grad True): AOTAutograd regenerates an output that aliases an input from the
input after the call's writes were applied, so the view never saw the write. The same program with a plain in-place
write (`a.add_(1)`, `a.zero_()`, `a.copy_(...)`) fails to compile with eager's message instead (its metadata
analysis runs the write with the view alive). Found by `python -m copysuite fuzz --execution compile.aot_eager
--vocabulary surface` (seed 6401, every program shape: `_foreach_log10_` after `unbind`); seen on torch 2.13.0 and
2.14.1. No upstream report found (closest: issue 113793, closed: the same error under compile for views of
parameters an optimizer wrote; issue 158561, open)."""
import sys

import torch
import torch._functorch.config
import torch._inductor.config

torch._inductor.config.fx_graph_cache = False
torch._functorch.config.enable_autograd_cache = False


def program(a):
    t = a[1]
    torch._foreach_add_([a], 1)
    return t


seen = {}
for backend in ("no compile", "eager", "aot_eager", "inductor"):
    torch._dynamo.reset()
    fn = program if backend == "no compile" else torch.compile(program, backend=backend)
    a = torch.nn.Parameter(torch.arange(1.0, 3.0))
    with torch.no_grad():
        t = fn(a)
    try:
        seen[backend] = f"grad_fn {t.grad_fn}, is_leaf {t.is_leaf}, requires_grad {t.requires_grad}"
    except RuntimeError as exc:
        seen[backend] = f"refused: {str(exc)[:60]}"
    print(f"torch {torch.__version__} {backend:10}: the returned view's autograd state: {seen[backend]}")
# the bug: a compiled backend hands back a usable view where eager refuses its autograd state
reproduces = any(seen[b] != seen["no compile"] for b in ("aot_eager", "inductor"))
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""A view of a dtype view of an input, returned beside that dtype view (`t1 = a.view(torch.uint8); t2 =
t1.as_strided((1,), (1,), 0); return t1, t2`): eagerly `t2._base is t1` (a dtype view to another element size is no
autograd view, so t1 is the base of what is viewed from it); compiled (backend="aot_eager" or "inductor";
backend="eager", dynamo alone, holds) t2 is a view of another uint8 tensor, made for it alone: AOTAutograd
regenerates each output that aliases an input from the input on its own, so the relation between the two outputs is
lost (both still share the input's memory and version counter). Found by `python -m copysuite fuzz --execution
compile.inductor --vocabulary surface` (seed 6510; under compile.aot_eager, seed 6501, through
`torch._test_autograd_multiple_dispatch_view`); seen on torch 2.13.0 and 2.14.1. No upstream report found;
closest: docs/upstream-reports/input_view_returned_twice_two_objects.py (the same regeneration: one object
returned twice comes back as two), PR 89532 (AOTAutograd's view replay of outputs that alias inputs)."""
import sys

import torch
import torch._functorch.config
import torch._inductor.config

torch._inductor.config.fx_graph_cache = False
torch._functorch.config.enable_autograd_cache = False


def view_of_dtype_view(a):
    t1 = a.view(torch.uint8)
    t2 = t1.as_strided((1,), (1,), 0)
    return t1, t2


differs = []
for backend in ("eager (no compile)", "eager", "aot_eager", "inductor"):
    torch._dynamo.reset()
    a = torch.zeros(1)
    fn = view_of_dtype_view if backend.startswith("eager (") else torch.compile(view_of_dtype_view, backend=backend)
    t1, t2 = fn(a)
    base_is_t1 = t2._base is t1
    print(f"torch {torch.__version__} {backend:18s}: t2._base is t1: {base_is_t1}, t2._base: dtype "
          f"{t2._base.dtype}, shape {tuple(t2._base.shape)}")
    if not base_is_t1:
        differs.append(backend)
print("differs:", ", ".join(differs) or "nothing")
# the bug: compiled, the view of the returned dtype view is a view of another tensor
reproduces = bool(differs)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""`torch.slice_scatter(a, b, 0, 0)` with `b` of one element where the slice has three: eagerly a RuntimeError
("expected src to have a size equal to the slice of self"), and so under backend="eager" and "aot_eager" (the
kernel runs); inductor on 2.13.0 runs it and returns `b` broadcast over the slice ([1.0, 1.0, 1.0]), silently: its
slice_scatter lowering expands `src` to the slice's size without comparing them. 2.14.1's lowering checks the sizes
("Lower slice_scatter with exact source shape checks") and the compile fails with InductorError, a RuntimeError as
eager's is. Met by hand while triaging `python -m copysuite fuzz` findings (slice_scatter with a mismatched source);
seen on torch 2.13.0 (reproduces) and 2.14.1 (fixed; no PR found that names it). Closest: issue 122291 (inductor's
slice_scatter gave wrong values for a mismatched source, closed by PR 122543, which improved the error message),
issue 144183 (index_copy loses the shape check under inductor)."""
import sys

import torch
import torch._functorch.config
import torch._inductor.config

torch._inductor.config.fx_graph_cache = False
torch._functorch.config.enable_autograd_cache = False


def program(a, b):
    return torch.slice_scatter(a, b, 0, 0)


seen = {}
for backend in ("eager (no compile)", "eager", "aot_eager", "inductor"):
    torch._dynamo.reset()
    fn = program if backend.startswith("eager (") else torch.compile(program, backend=backend)
    try:
        result = fn(torch.zeros(3), torch.ones(1))
    except RuntimeError as exc:   # eager's class; InductorError is one too
        seen[backend] = f"raises {type(exc).__name__}"
    else:
        seen[backend] = f"returns {result.tolist()}"
    print(f"torch {torch.__version__} {backend:18s}: {seen[backend]}")
# the bug: eager refuses the source's size, a compiled call runs
reproduces = any(not v.startswith("raises") for v in seen.values())
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""`torch.linalg.norm(a, out=a)` where `a` is a non-leaf of shape (1,) that requires grad (the result is 0-d, so out
is resized, keeping its one element): eagerly the call runs, the out= resize below autograd raising nothing;
compiled (every backend: dynamo's fake-tensor propagation already) it raises "cannot resize variables that require
grad". Under no_grad both run. Found by `python -m copysuite fuzz --vocabulary surface` (seed 0, compile.aot_eager);
seen on torch 2.13.0 and 2.14.1. No upstream issue found (closest: issue 158561, an in-place op under compile
raising an autograd error eager does not)."""
import sys

import torch


def program(a):
    return torch.linalg.norm(a, keepdim=False, out=a)


raised = {}
for backend in ("eager (no compile)", *(sys.argv[1:] or ["eager", "aot_eager"])):
    fn = program if backend.startswith("eager (") else torch.compile(program, backend=backend)
    a = torch.arange(1.0).requires_grad_() * 1
    try:
        out = fn(a)
        raised[backend] = None
        print(f"{backend:18s} torch {torch.__version__}: runs, out {tuple(out.shape)}")
    except Exception as exc:  # noqa: BLE001 - whether it raises is what is compared
        raised[backend] = exc
        print(f"{backend:18s} torch {torch.__version__}: {type(exc).__name__}: "
              f"{[line for line in str(exc).splitlines() if 'resize' in line][:1] or str(exc)[:100]}")
eager = raised.pop("eager (no compile)")
# the bug: eager runs, a compiled call raises
reproduces = eager is None and any(exc is not None for exc in raised.values())
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""`b.data = a` inside a compiled function, where the input `b` is a transposed view of the input `a`: eager gives
`b` a's memory and geometry (strides (2, 1), values in a's order); under aot_eager `b` keeps its old strides (1, 2)
and reads a's memory transposed. Silent. The same assignment on inputs that do not alias holds under aot_eager.
Seen on torch 2.2.2 ... 2.14.1, aot_eager and inductor (found by `python -m copysuite fuzz` on 2.13.0). Upstream:
issue 94773 (open) is `.data =` while an alias of the tensor is alive (`x[:]` made inside the function); issue 191337
is inductor's stride assertion after `.data =` on a transposed input; neither is this case."""
import sys

import torch


def program(a, b):
    b.data = a
    return b


backend = sys.argv[1] if len(sys.argv) > 1 else "aot_eager"
seen = {}
for name, fn in (("eager", program), (backend, torch.compile(program, backend=backend))):
    a = torch.arange(4.0).reshape(2, 2)
    try:
        out = fn(a, a.t())
        print(f"{name:10s} torch {torch.__version__}: strides {out.stride()}, values {out.tolist()}")
        seen[name] = (out.stride(), out.tolist())
    except Exception as exc:  # noqa: BLE001 - the compiled call's error is what this script reports
        print(f"{name:10s} torch {torch.__version__}: {type(exc).__name__}: {str(exc).splitlines()[0][:160]}")
        seen[name] = type(exc).__name__
# the bug: the compiled b does not take a's geometry and values as eager's does
reproduces = seen[backend] != seen["eager"]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

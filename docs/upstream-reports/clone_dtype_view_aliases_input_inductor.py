"""`a.clone().view(torch.int32) ** 1` compiled by inductor returns a tensor in the input's own memory: the clone is
gone, and a caller writing into the result writes into `a`. Silent. Without the clone, or without the dtype view,
the output is a fresh tensor. Seen on torch 2.8.0, 2.13.0 and 2.14.1 (found by `python -m copysuite fuzz`).
Upstream: issue 197893 (open) is `x + 0` / `x * 1` returning the input under inductor from 2.14 (joint-graph no-op
removal without post_grad.remove_noop_ops's aliasing check); issue 197489 (closed) is remove_noop_ops dropping a
clone with another storage offset; neither is this case, which also shows on releases before 2.14."""
import sys
import torch


def program(a):
    return a.clone().view(torch.int32) ** 1


written = {}
for name, fn in (("eager", program), ("inductor", torch.compile(program, backend="inductor"))):
    a = torch.arange(4.0)
    out = fn(a)
    out.add_(1)   # a caller updating the result in place
    print(f"{name:9s} torch {torch.__version__}: input after writing the result: {a.tolist()}")
    written[name] = a.tolist() != [0.0, 1.0, 2.0, 3.0]
# the bug: a write to inductor's result reaches the input (eager's result is a copy)
reproduces = written["inductor"] and not written["eager"]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

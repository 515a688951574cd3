"""View and in-place metadata ops traced with dynamic shapes on torch 2.0: fake propagation runs their C++ composite
kernels (hsplit, vsplit, dsplit, unflatten, transpose_, t_, swapaxes_, swapdims_), which call the non-symbolic
`sizes()` on the input whose sizes are symbols, and tracing fails with "Cannot call sizes() on tensor with symbolic
sizes/strides" (reported as TorchRuntimeError, or RuntimeError "Failed running call_method ..."). With static shapes
they compile. Seen on torch 2.0.1; 2.2.2 traces them all. No single upstream report found: the ops were made symbolic
one by one during 2023 (the dynamic-shapes work that 2.1 shipped)."""
import sys

import torch
import torch._dynamo

programs = {
    "hsplit": lambda t: t.hsplit(1)[0],
    "vsplit": lambda t: t.vsplit(1)[0],
    "dsplit": lambda t: t.unsqueeze(-1).dsplit(1)[0],
    "unflatten": lambda t: t.unflatten(0, [1, -1]),
    "transpose_": lambda t: t.detach().transpose_(0, -1),
    "t_": lambda t: t.detach().t_(),
    "swapaxes_": lambda t: t.detach().swapaxes_(0, 1),
    "swapdims_": lambda t: t.detach().swapdims_(0, 1),
}
failing = []
for name, program in programs.items():
    torch._dynamo.reset()
    try:
        program(torch.ones(2, 3))
        torch.compile(program, backend="eager", fullgraph=True, dynamic=True)(torch.ones(2, 3))
        print(f"{name:10s} torch {torch.__version__}: ok")
    except Exception as e:                    # noqa: BLE001
        cause = e.__cause__ if e.__cause__ is not None else e
        text = " ".join(str(cause).split())
        print(f"{name:10s} torch {torch.__version__}: {type(e).__name__}: {text[-110:]}")
        if "Cannot call sizes() on tensor with symbolic sizes/strides" in str(cause):
            failing.append(name)
print("differs:", ", ".join(failing) or "none")
reproduces = bool(failing)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""Assigning a tensor attribute inside a function compiled with fullgraph=True on torch 2.0: dynamo 2.0 has no rule for
`setattr` on a tensor (`t.grad = g`, `t.data = u`) and reports "Unsupported: call_function BuiltinVariable(setattr)
[TensorVariable(), ConstantVariable(str), TensorVariable()]", a graph break that fullgraph turns into an error where
eager assigns. Seen on torch 2.0.1; 2.2.2 traces both (PR 113080, "[dynamo] handle setting .data on a tensor", is the
`.data` half)."""
import sys

import torch
import torch._dynamo


def set_grad(t, g):
    t.grad = g
    return t.grad


def set_data(t, u):
    t.data = u
    return t


failing = []
for name, program in [("grad", set_grad), ("data", set_data)]:
    for how, fn in [("eager", program), ("compile", torch.compile(program, backend="eager", fullgraph=True))]:
        torch._dynamo.reset()
        t = torch.ones(2, 3, requires_grad=True)
        try:
            fn(t, torch.zeros(2, 3))
            print(f"{name:5s} {how:8s} torch {torch.__version__}: ok")
        except Exception as e:                    # noqa: BLE001
            print(f"{name:5s} {how:8s} torch {torch.__version__}: {type(e).__name__}: {str(e).splitlines()[0][:110]}")
            if how == "compile" and "setattr" in str(e):
                failing.append(name)
print("differs:", ", ".join(failing) or "none")
reproduces = bool(failing)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

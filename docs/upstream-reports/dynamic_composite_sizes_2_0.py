"""View and in-place metadata ops traced with dynamic shapes on torch 2.0: fake propagation runs their C++ composite
kernels (hsplit, vsplit, dsplit, unflatten, transpose_, t_, swapaxes_, swapdims_), which call the non-symbolic
`sizes()` on the input whose sizes are symbols, and tracing fails with "Cannot call sizes() on tensor with symbolic
sizes/strides" (reported as TorchRuntimeError, or RuntimeError "Failed running call_method ..."). With static shapes
they compile. The same for ops whose fake run reaches another C++ kernel that asks for concrete sizes: `_add_relu` (no
Meta kernel, its CPU kernel calls `strides()`), `to_sparse` (`strides()`), `mm(..., out=)` and `fill_diagonal_`
(`sizes()`), and the TensorIterator kernels of `random_` and `polygamma` ("TensorIterator does not support symbolic
shapes"). Seen on torch 2.0.1. 2.2.2 traces them all but `_add_relu` and
`to_sparse`, which its dynamo refuses (Unsupported, a graph break that fullgraph turns into an error), and
`fill_diagonal_`, which fails there on `storage_offset()` (record fill_diagonal_dynamic_storage_offset); none of the
three messages above. No single upstream report found: the ops were made symbolic one by one during 2023 (the
dynamic-shapes work that 2.1 shipped)."""
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
    "_add_relu": lambda t: torch.ops.aten._add_relu(t, torch.ones(2, 3)),
    "to_sparse": lambda t: t.to_sparse(),
    "mm out=": lambda t: torch.mm(t, torch.ones(3, 2), out=torch.empty(2, 2)),
    "random_": lambda t: t.detach().random_(0, 10),
    "polygamma": lambda t: t.polygamma(1),
    "fill_diagonal_": lambda t: t.detach().fill_diagonal_(5.0),
}
REFUSALS = ("Cannot call sizes() on tensor with symbolic sizes/strides",
            "Cannot call strides() on tensor with symbolic sizes/strides",
            "TensorIterator does not support symbolic shapes")
failing = []
for name, program in programs.items():
    torch._dynamo.reset()
    try:
        program(torch.ones(2, 3))
        torch.compile(program, backend="eager", fullgraph=True, dynamic=True)(torch.ones(2, 3))
        print(f"{name:14s} torch {torch.__version__}: ok")
    except Exception as e:                    # noqa: BLE001
        cause = e.__cause__ if e.__cause__ is not None else e
        text = " ".join(str(cause).split())
        print(f"{name:14s} torch {torch.__version__}: {type(e).__name__}: {text[-110:]}")
        if any(r in str(cause) for r in REFUSALS):
            failing.append(name)
print("differs:", ", ".join(failing) or "none")
reproduces = bool(failing)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

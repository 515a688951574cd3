"""DLPack conversion inside a compiled function on torch 2.0: dynamo 2.0 traces `torch.from_dlpack` and
`torch.utils.dlpack.to_dlpack` instead of leaving them to eager (later releases skip torch.utils.dlpack, a graph break,
issue 169112), and runs them on fake tensors, which have no data: from_dlpack of a tensor asks `is_pinned`, which fake
tensors do not implement ("NYI: aten.is_pinned.default"), and with dynamic shapes to_dlpack asks the non-symbolic
sizes ("Cannot call sizes() on tensor with symbolic sizes/strides"); both arrive as TorchRuntimeError, or RuntimeError
"Failed running call_function ...". Seen on torch 2.0.1; on 2.2.2 from_dlpack(t) runs (graph break) while to_dlpack is
still traced on a fake tensor, and the capsule round trip with dynamic shapes fails on the non-symbolic storage offset
it asks ("Cannot call storage_offset() on tensor with symbolic sizes/strides"); 2.4.1 skips to_dlpack (a graph break).
No upstream report found."""
import sys

import torch
import torch._dynamo
import torch.utils.dlpack

programs = {
    "from_dlpack(t)": (lambda t: torch.from_dlpack(t.detach()), False),
    "from_dlpack(to_dlpack(t)), dynamic": (lambda t: torch.from_dlpack(torch.utils.dlpack.to_dlpack(t.detach())), True),
}
failing = []
for name, (program, dynamic) in programs.items():
    torch._dynamo.reset()
    try:
        program(torch.ones(2, 3))
        torch.compile(program, backend="eager", dynamic=dynamic)(torch.ones(2, 3))
        print(f"{name:36s} torch {torch.__version__}: ok")
    except Exception as e:                    # noqa: BLE001
        cause = e.__cause__ if e.__cause__ is not None else e
        text = " ".join(str(cause).split())
        print(f"{name:36s} torch {torch.__version__}: {type(e).__name__}: {text[-100:]}")
        if "NYI: aten.is_pinned" in text or "Cannot call sizes()" in text or "Cannot call storage_offset()" in text:
            failing.append(name)
print("differs:", ", ".join(failing) or "none")
reproduces = bool(failing)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

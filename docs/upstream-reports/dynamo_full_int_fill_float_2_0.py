"""`torch.full(shape, 2)` (an integer fill value, no dtype) inside a function compiled on torch 2.0: eager infers
int64 from the fill value, but the fake tensor dynamo 2.0 traces it with is float32, so an integer in-place op with
it fails to trace: `x.__iand__(torch.full((3, 4), 2))` with "Attempting to cast from torch.float32 to out tensor with
dtype torch.int64", `x.__lshift__(...)` with '"lshift_cpu" not implemented for 'Float''. The operator surface's
in-place bitwise and shift dunders (`__iand__`, `__ior__`, `__ixor__`, `__ilshift__`, `__irshift__`) fail so under the
compiled executions of 2.0.1 (TorchRuntimeError). Seen on torch 2.0.1 (backend eager); 2.2.2 traces int64. No
upstream issue found that reports it."""
import sys

import torch
import torch._dynamo


def program():
    return torch.full((3, 4), 2)


dtypes = {}
for name, fn in [("eager", program), ("compiled", torch.compile(program, backend="eager", fullgraph=True))]:
    torch._dynamo.reset()
    dtypes[name] = fn().dtype
    print(f"{name:9s} torch {torch.__version__}: torch.full((3, 4), 2).dtype = {dtypes[name]}")
x = torch.randint(0, 8, (3, 4))
torch._dynamo.reset()
try:
    torch.compile(lambda t: t.__iand__(torch.full((3, 4), 2)), backend="eager", fullgraph=True)(x)
    print(f"compiled  torch {torch.__version__}: x.__iand__(torch.full((3, 4), 2)) ok")
except Exception as e:                        # noqa: BLE001
    print(f"compiled  torch {torch.__version__}: x.__iand__(torch.full((3, 4), 2)): {type(e).__name__}")
# the bug: the compiled function's integer fill is traced as float32 where eager makes int64
reproduces = dtypes["compiled"] != dtypes["eager"]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

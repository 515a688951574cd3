"""**Silent**: `torch.asarray(t.numpy().data, dtype=t.dtype)` (the buffer-protocol memoryview of a tensor's ndarray: a
flat, 1-d buffer) compiled with fullgraph=True returns a tensor of t's own shape, (2, 3), where eager returns the
flat (6,): dynamo reads the ndarray's `.data` as the tensor attribute `.data`. Seen on torch 2.4.1, 2.6.0, 2.8.0,
2.10.0, 2.12.1, 2.13.0 and 2.14.1 (CPU, backends eager and aot_eager); on 2.2.2 the compiled call raises instead
(asarray_ndarray_data_dynamo.py). The suite's `torch.asarray:buffer` entry checks storage, values, dtype and device,
not the shape, so its cells do not see it. No upstream report found; closest PR 89257 (dynamo's handling of
`tensor.data`)."""
import sys

import torch


def program(t):
    return torch.asarray(t.numpy().data, dtype=t.dtype)


def shape(fn):
    try:
        return tuple(fn(torch.arange(6.0).view(2, 3)).shape)
    except Exception as e:                    # noqa: BLE001 - a raising call is the other draft's bug
        return f"{type(e).__name__}: {str(e).strip().splitlines()[0][:110]}"


seen = {"eager": shape(program)}
for backend in ("eager", "aot_eager"):
    torch._dynamo.reset()
    seen[f"compile {backend}"] = shape(torch.compile(program, backend=backend, fullgraph=True))
for k, v in seen.items():
    print(f"{k:18s} torch {torch.__version__}: shape {v}")
# the bug: a compiled call returns a tensor of another shape than eager's (a compiled call that raises is not it)
reproduces = any(isinstance(v, tuple) and v != seen["eager"] for k, v in seen.items() if k != "eager")
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

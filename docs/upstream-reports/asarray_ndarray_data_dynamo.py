"""`torch.asarray(t.numpy().data, dtype=t.dtype)` (the buffer-protocol memoryview of a tensor's ndarray: a flat,
1-d buffer) inside a function compiled with fullgraph=True. Eagerly a 1-d tensor over t's memory. Compiled, dynamo
reads the ndarray's `.data` as if it were the tensor attribute `.data`: on torch 2.2.2 it fails with an internal error
(InternalTorchDynamoError: KeyError 'example_value'), under every backend, which is what this draft checks. From 2.4.1
the call compiles instead and returns a tensor of t's own shape, without a word: that silent form is
asarray_ndarray_data_shape_compiled.py. No upstream report of this case found; closest issue 97079 ("[compile]
KeyError: example_value", open, another program) and PR 89257 (dynamo's handling of `tensor.data`)."""
import sys

import torch


def program(t):
    return torch.asarray(t.numpy().data, dtype=t.dtype)


def outcome(fn, t):
    try:
        r = fn(t)
    except Exception as e:                    # noqa: BLE001 - the class raised is what is compared
        return f"{type(e).__name__}: {str(e).strip().splitlines()[0][:110]}"
    return f"ok, shape {tuple(r.shape)}, shares t's memory: {r.data_ptr() == t.data_ptr()}"


seen = {"eager": outcome(program, torch.arange(6.0).view(2, 3))}
for backend in ("eager", "aot_eager"):
    torch._dynamo.reset()
    seen[f"compile {backend}"] = outcome(torch.compile(program, backend=backend, fullgraph=True),
                                         torch.arange(6.0).view(2, 3))
for k, v in seen.items():
    print(f"{k:18s} torch {torch.__version__}: {v}")
# the bug: a compiled call fails where eager returns
reproduces = seen["eager"].startswith("ok") and any(not v.startswith("ok") for k, v in seen.items() if k != "eager")
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

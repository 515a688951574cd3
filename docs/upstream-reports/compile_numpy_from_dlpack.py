"""numpy.from_dlpack(t) of a torch tensor inside a compiled function raises TorchRuntimeError ("RuntimeError when
making fake tensor call" / "Dynamo failed to run FX node with fake tensors"), where eagerly it returns an ndarray over
t's memory (the DLPack protocol: no copy). Dynamo traces NumPy calls through torch._numpy and runs them on fake
tensors; a fake tensor has no memory to export, so the call fails at trace time instead of breaking the graph and
running eagerly, as dynamo does for the `Tensor.numpy()` case (issue 124247, fixed by PR 137227). Seen on torch 2.13.0
and 2.14.1 (CPU, NumPy 2.4), with torch.compile's defaults (fullgraph=False), backends eager and aot_eager. No upstream
report found (issues searched for numpy.from_dlpack with torch.compile / dynamo)."""
import sys

import numpy
import torch


def program(x):
    return numpy.from_dlpack(x)


def outcome(fn, x):
    try:
        result = fn(x)
    except Exception as e:                    # noqa: BLE001 - the class raised is what is compared
        return f"{type(e).__name__}: {str(e).splitlines()[0][:120]}"
    return f"ok, {type(result).__name__}, shares x's memory: {numpy.shares_memory(result, x.numpy())}"


x = torch.randn(3, 4)
seen = {}
for name, fn in [("eager", program), ("compile backend=eager", torch.compile(program, backend="eager")),
                 ("compile backend=aot_eager", torch.compile(program, backend="aot_eager"))]:
    torch._dynamo.reset()
    seen[name] = outcome(fn, x)
    print(f"{name:26s} torch {torch.__version__}, numpy {numpy.__version__}: {seen[name]}")
reproduces = any(not v.startswith("ok") for k, v in seen.items() if k != "eager") and seen["eager"].startswith("ok")
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""`t.tolist()` of an integer meta tensor (no data) inside a function compiled with torch.compile's defaults: eagerly
NotImplementedError "Cannot copy out of meta tensor; no data!". Dynamo traces tolist() on integer tensors (PR 105976)
and runs it on the fake meta tensor, which fails otherwise: on torch 2.2.2 with backend="eager" a NotImplementedError
with another message ("aten::_local_scalar_dense: attempted to run this operator with Meta tensors, but there was no
abstract impl or Meta kernel registered"); on 2.4.1, 2.6.0 and 2.8.0 a RuntimeError ("Tensor.item() cannot be called
on meta tensors"), another class, which `except NotImplementedError` misses (2.4.1 with aot_eager too, on a tensor
made under torch.inference_mode(): TorchRuntimeError). 2.10.0, 2.12.1, 2.13.0 and 2.14.1 raise eager's error. No
upstream report found."""
import sys

import torch


def program(t):
    return t.tolist()


def outcome(fn, t):
    try:
        fn(t)
    except Exception as e:                    # noqa: BLE001 - the class and message raised are what is compared
        return f"{type(e).__name__}: {str(e).strip().splitlines()[0][:100]}"
    return "ok"


differs = []
for kind in ("plain", "inference"):
    if kind == "inference":
        with torch.inference_mode():
            t = torch.tensor(3, device="meta")
    else:
        t = torch.tensor(3, device="meta")
    seen = {"eager": outcome(program, t)}
    for backend in ("eager", "aot_eager"):
        torch._dynamo.reset()
        seen[f"compile {backend}"] = outcome(torch.compile(program, backend=backend), t)
    for k, v in seen.items():
        print(f"{kind:10s} {k:18s} torch {torch.__version__}: {v}")
    differs += [(kind, k) for k, v in seen.items() if v != seen["eager"]]
for kind, k in differs:
    print(f"differs: {kind}, {k}")
reproduces = bool(differs)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

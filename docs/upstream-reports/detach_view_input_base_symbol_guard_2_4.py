"""An in-place metadata change (transpose_) of the detached alias of an input that is itself a view, compiled with
dynamic shapes on torch 2.4: converting the view input to a fake tensor also makes its base fake, with symbols of its
own, and the function's guards come to name the base's size, which dynamo does not track as an input, so guard
creation fails: AssertionError "s0 (could be from ["L['source']._base.size()[0]"]) not in {s1: ["L['source'].size()[0]",
...]}. If this assert is failing, it could be due to the issue described in https://github.com/pytorch/pytorch/pull/90665".
Every backend fails so (eager, aot_eager, inductor); an input that is no view compiles. Issue 93419 (open, "torchdynamo
is not properly setting up input tracking (e.g., for symbolic shape guards) for view bases") is this class of failure;
PR 139554 ("Add `tensor._base` as a tracked fake for `ShapeEnv` guards", 2024-11) tracks the base. Seen on torch 2.4.1;
2.2.2 and 2.6.0 compile it."""
import sys

import torch
import torch._dynamo


def program(source):
    source.detach().transpose_(0, -1)
    return source


failed = {}
for placement in ("view", "no view"):
    for name, backend in [("eager", None), ("aot_eager", "aot_eager")]:
        torch._dynamo.reset()
        source = torch.arange(10.0).as_strided((2, 3), (5, 2), 0) if placement == "view" else torch.zeros(2, 3)
        fn = program if backend is None else torch.compile(program, backend=backend, fullgraph=True, dynamic=True)
        try:
            with torch.no_grad():
                result = fn(source)
            print(f"{placement:8s} {name:9s} torch {torch.__version__}: ok, shape {tuple(result.shape)}")
        except Exception as e:                    # noqa: BLE001
            failed[(placement, name)] = str(e)
            print(f"{placement:8s} {name:9s} torch {torch.__version__}: {type(e).__name__}: {str(e)[:140]}")
# the bug: the compiled call on the view input fails on a guard that names its base
reproduces = "_base.size()" in failed.get(("view", "aot_eager"), "") and not any(n == "eager" for _, n in failed)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

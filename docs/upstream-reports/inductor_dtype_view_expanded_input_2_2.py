"""A same-size dtype view of an expanded input (`x.view(torch.int32)` of a float32 x with a 0 stride), compiled by
inductor on torch 2.2, fails at runtime: the output aliases the input and is regenerated from it with contiguous
strides, which overrun the input's storage ("setStorage: sizes [2, 3], strides [3, 1], storage offset 0, and itemsize
4 requiring a storage size of 24 are out of bounds for storage of size 8"). Eager and aot_eager return the view with
the input's strides (1, 0). Static and dynamic shapes, in grad mode and under no_grad. Seen on torch 2.2.2; 2.4.1
holds (the fixing change was not identified). No upstream issue found."""
import sys

import torch
import torch._dynamo


def program(source):
    return source.view(torch.int32)


failed = {}
for name, backend in [("eager", None), ("aot_eager", "aot_eager"), ("inductor", "inductor")]:
    torch._dynamo.reset()
    x = torch.ones(2).as_strided((2, 3), (1, 0))
    fn = program if backend is None else torch.compile(program, backend=backend, fullgraph=True)
    try:
        result = fn(x)
        print(f"{name:9s} torch {torch.__version__}: ok, strides {result.stride()}")
    except Exception as e:                    # noqa: BLE001
        failed[name] = str(e)
        print(f"{name:9s} torch {torch.__version__}: {type(e).__name__}: {str(e)[:150]}")
# the bug: inductor's regenerated view overruns the expanded input's storage where eager returns the view
reproduces = "setStorage" in failed.get("inductor", "") and not {"eager", "aot_eager"} & set(failed)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

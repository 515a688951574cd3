"""A same-size dtype view of a non-contiguous input (`x.view(torch.int32)` of a float32 x), compiled by inductor on
torch 2.2, comes back with contiguous strides: the output aliases the input and is regenerated from it with the
strides of a contiguous tensor. Part 1, an expanded x (a 0 stride): those strides overrun the input's storage and the
call fails ("setStorage: sizes [2, 3], strides [3, 1], storage offset 0, and itemsize 4 requiring a storage size of
24 are out of bounds for storage of size 8"). Part 2, a strided x (strides (5, 2)): **silent**, the result has strides
(3, 1) and so holds other elements of the storage than x's. Eager and aot_eager return the view with x's strides; a
transposed x holds under inductor too. In grad mode and under no_grad. Seen on torch 2.2.2; 2.4.1 holds (the fixing
change was not identified). No upstream issue found."""
import sys

import torch
import torch._dynamo


def program(source):
    return source.view(torch.int32)


parts = [("1: expanded (1, 0)", lambda: torch.ones(2).as_strided((2, 3), (1, 0))),
         ("2: strided (5, 2)", lambda: torch.arange(10.0).as_strided((2, 3), (5, 2)))]
differs = []
for part, make in parts:
    seen = {}
    for name, backend in [("eager", None), ("aot_eager", "aot_eager"), ("inductor", "inductor")]:
        torch._dynamo.reset()
        x = make()
        fn = program if backend is None else torch.compile(program, backend=backend, fullgraph=True)
        try:
            result = fn(x)
            seen[name] = (result.stride(), result.tolist())
            print(f"part {part}: {name:9s} torch {torch.__version__}: strides {result.stride()}, {result.tolist()}")
        except Exception as e:                    # noqa: BLE001
            seen[name] = type(e).__name__
            print(f"part {part}: {name:9s} torch {torch.__version__}: {type(e).__name__}: {str(e)[:150]}")
    if seen["inductor"] != seen["eager"] and seen["aot_eager"] == seen["eager"]:
        differs.append(part)
# the bug: inductor's regenerated view has other strides than eager's (or overruns the storage)
print("differs:", differs or "none")
reproduces = bool(differs)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""A copy of an input, compiled by inductor on torch 2.0 with no input requiring grad: `x.to(copy=True)` (the same
dtype and device) returns the input tensor itself, not a new one, so writing the "copy" writes the caller's tensor.
Inductor 2.0 lowers aten._to_copy to the same dtype and device as the input unchanged, and a graph whose output is
its input returns that input; eager and aot_eager return a new tensor. The 2.0.1 matrix saw the same for
`new_tensor`, `torch.tensor`, `to(..., copy=True)` and `empty_like(x).copy_(x)`. Seen on torch 2.0.1; 2.2.2 returns a
new tensor. No upstream issue found that reports it."""
import sys

import torch
import torch._dynamo


def program(s):
    return s.to(copy=True)


same = {}
for name, backend in [("eager", None), ("aot_eager", "aot_eager"), ("inductor", "inductor")]:
    torch._dynamo.reset()
    fn = program if backend is None else torch.compile(program, backend=backend)
    x = torch.arange(6.0).reshape(2, 3)
    with torch.no_grad():
        r = fn(x)
    same[name] = r is x or r.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    print(f"{name:9s} torch {torch.__version__}: result is the input: {r is x}, shares its storage: {same[name]}")
# the bug: inductor's copy is the input itself where eager and aot_eager copy
reproduces = same["inductor"] and not same["eager"] and not same["aot_eager"]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

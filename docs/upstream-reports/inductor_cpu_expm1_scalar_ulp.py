"""`torch.expm1` of a float32 tensor of fewer elements than a vector register holds, compiled by inductor on CPU,
differs from eager in the last place: expm1(4.) is 53.598148345947266 eagerly (the nearest float to 53.59815003...)
and 53.59815216064453 compiled (one unit in the last place above; the in-place `expm1_` alike). Eager's kernel
computes every element with Sleef's vectorized expm1; inductor's scalar loop (a tensor shorter than a vector, and the
tail of a longer one) calls the C library's expm1. PR 190533 (for issue 189803, closed: inductor's vectorized expm1
was `exp(x) - 1`, about one unit in the last place from eager) made the vectorized loop call Sleef's expm1, bitwise
eager's from 2.14, and left the scalar loop: on 2.13.0 a tensor of 16 elements differs too, on 2.14.1 only the
short one. Found by `python -m copysuite fuzz --execution compile.inductor --vocabulary surface` (seed 6510,
`a.expm1_()` on a strided view of 3 elements); seen on torch 2.13.0 and 2.14.1. No upstream report found of the
scalar loop; closest: issue 189803 and PR 190533, issue 161944 (open: inductor's exp on CUDA is not eager's)."""
import sys

import torch
import torch._functorch.config
import torch._inductor.config

torch._inductor.config.fx_graph_cache = False
torch._functorch.config.enable_autograd_cache = False


def expm1(x):
    return torch.expm1(x)


x = torch.arange(2.0, 5.0)   # three elements: inductor's scalar loop
torch._dynamo.reset()
eager = expm1(x)
compiled = torch.compile(expm1, backend="inductor")(x)
exact = torch.expm1(x.double())
print(f"torch {torch.__version__} expm1 of {x.tolist()}")
print(f"  eager    {eager.tolist()}, error {(eager.double() - exact).tolist()}")
print(f"  inductor {compiled.tolist()}, error {(compiled.double() - exact).tolist()}")
# the bug: the compiled values are not eager's, bit for bit
reproduces = not torch.equal(eager, compiled)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

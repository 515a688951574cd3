"""`b.addcmul_(t1, t2, value=3.14)` on integer tensors, compiled (any backend: eager, aot_eager, inductor), adds
`t1 * t2 * 3.14` computed in floating point and truncates the sum (b = [0, 4]: 4 + 16 * 3.14 = 54.24, so [0, 54]),
where eager casts value to b's integer dtype first (3) and adds `t1 * t2 * 3` ([0, 52]). Dynamo decomposes the in-place
method when a value is given (`config.enable_dynamo_decompositions`, TensorVariable.method_addcmul_) into
`b.copy_(inductor_prims.fma(t1 * t2, value, b))`, and fma promotes the integer operands to the Python float's dtype;
with `enable_dynamo_decompositions = False`, or the out-of-place `b.addcmul(t1, t2, value=3.14)`, the compiled result
is eager's. Found by `python -m copysuite fuzz --execution compile.inductor --vocabulary surface` (seed 6610,
`b.addcmul_(b, b, value=3.14)` on an int64 input, called twice); seen on torch 2.12.1, 2.13.0 and 2.14.1 (CPU); on
2.10.0 the compiled call is refused instead ("Promotion of int.add/sub_(float) in in-place ops are not possible", a
TorchRuntimeError where eager runs). No upstream report found; closest: PR 176866, PR 176871 and PR 183904 (the fma decomposition, for floating numerics) and
PR 186510 (its low-precision opmath)."""
import sys

import torch
import torch._functorch.config
import torch._inductor.config

torch._inductor.config.fx_graph_cache = False
torch._functorch.config.enable_autograd_cache = False


def addcmul_(b, t):
    return b.addcmul_(t, t, value=3.14)


eager = addcmul_(torch.tensor([0, 4]), torch.tensor([0, 4])).tolist()
print(f"torch {torch.__version__}: b.addcmul_(t, t, value=3.14), b and t int64 [0, 4]")
print(f"  not compiled       {eager}")
differs = []
for backend in ("eager", "aot_eager", "inductor"):
    torch._dynamo.reset()
    compiled = torch.compile(addcmul_, backend=backend)(torch.tensor([0, 4]), torch.tensor([0, 4])).tolist()
    print(f"  compiled, {backend:<9}{compiled}")
    if compiled != eager:
        differs.append(backend)
print(f"differs under: {differs}")
# the bug: a compiled call's integer result is not eager's
reproduces = bool(differs)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

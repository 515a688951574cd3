"""`torch.ops.aten._fw_primal(x, 0)` (what forward_ad.unpack_dual's primal is) under
torch.compile(backend="aot_eager"): eagerly the primal of a dual x has no tangent; compiled it keeps x's tangent
(the traced op is an alias of x, regenerated from the dual input). For a non-dual x that requires grad, eagerly the
result is a view a caller may write in place; compiled it is a view returned by the CompiledFunction, and the write
is refused ("Output 0 of CompiledFunction is a view and is being modified inplace. This view was created inside a
custom Function"), where `torch.ops.aten.alias(x)` comes back as an AliasBackward0 view that accepts it; so is
backward through it after a write to x itself (under no_grad, after the call: "Output 0 of CompiledFunction is a view
and its base or another view of its base has been modified inplace"), which eager's view runs. And where the
function first writes x in place (`torch.ops.aten._fw_primal(x.abs_(), 0)`, x at offset 2 of its memory, requiring
grad), the compiled result shares no memory with x (offset 0 of a new tensor), where eager's is a view of x
(`torch.ops.aten.alias` in its place, or x not requiring grad: a view of x compiled too; the 2.13.0 aot_eager
campaign, seed 6601, seen on 2.13.0 and 2.14.1). Found by
`python -m copysuite fuzz --execution compile.aot_eager --vocabulary surface` (seed 5201; the write to x after the
call by seed 6401, every program shape); seen on torch 2.13.0 and 2.14.1. No upstream report found."""
import sys

import torch
import torch._functorch.config
import torch._inductor.config
import torch.autograd.forward_ad as fwAD

torch._inductor.config.fx_graph_cache = False
torch._functorch.config.enable_autograd_cache = False


def program(x):
    return torch.ops.aten._fw_primal(x, 0)


def written_first(x):
    return torch.ops.aten._fw_primal(x.abs_(), 0)


seen = {}
for label in ("eager", "aot_eager"):
    torch._dynamo.reset()
    f = program if label == "eager" else torch.compile(program, backend="aot_eager")
    x = torch.zeros(1, requires_grad=True) * 1
    try:
        f(x).add_(1)
        write = "accepted"
    except RuntimeError as exc:
        write = f"refused: {str(exc)[:70]}"
    torch._dynamo.reset()
    h = program if label == "eager" else torch.compile(program, backend="aot_eager")
    w = torch.nn.Parameter(torch.zeros(1))
    out = h(w)
    with torch.no_grad():
        w.fill_(2)                     # x written after the call, before backward
    try:
        out.sum().backward()
        after = f"backward ran, grad {w.grad.tolist()}"
    except RuntimeError as exc:
        after = f"backward refused: {str(exc)[:70]}"
    torch._dynamo.reset()
    g = program if label == "eager" else torch.compile(program, backend="aot_eager")
    g(torch.zeros(1))                  # compiled on a plain tensor, then called with a dual one
    with fwAD.dual_level():
        tangent = fwAD.unpack_dual(g(fwAD.make_dual(torch.zeros(1), torch.ones(1)))).tangent
    torch._dynamo.reset()
    k = written_first if label == "eager" else torch.compile(written_first, backend="aot_eager")
    x = (torch.arange(3.0, requires_grad=True) * 1).as_strided((1,), (1,), 2)
    y = k(x)
    shares = y.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    print(f"torch {torch.__version__} {label:9}: _fw_primal of x.abs_() at offset {y.storage_offset()}, "
          f"{'shares' if shares else 'does not share'} x's memory")
    seen[label] = (tangent is None, write, after.startswith("backward ran"), shares)
    print(f"torch {torch.__version__} {label:9}: tangent of the primal {tangent}; a write to it {write}; "
          f"x written after the call: {after}")
# the bug: the compiled primal keeps the tangent, or refuses the write (or the backward after one) eager accepts, or
# (after a write to x) is no view of x
reproduces = seen["aot_eager"] != seen["eager"]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""An input written in place and then changed by an in-place view op (`t = a.add_(1); t.as_strided_((1,), (1,))`),
under torch.compile(backend="aot_eager"): two ways the caller's input differs from eager's. Under torch.no_grad()
the metadata change is lost: a keeps its shape (2,) where eagerly it is (1,) (in grad mode it is kept; unsqueeze_ in
its place fails to compile under no_grad, "expand: the requested shape has too few dimensions!"). In grad mode the
write is replayed after the metadata change: only the elements the new shape covers get the written values, so an
alias of the whole input (`whole = a.view(2)`, made before the call) sees its second element unwritten. Found by
`python -m copysuite fuzz --execution compile.aot_eager --vocabulary surface` (seed 5201: `a.copy_(a)` or
`a.sub_(a)`, then `as_strided_`); seen on torch 2.13.0 and 2.14.1. No upstream report found; closest: issue 185888
(closed: as_strided_ of an intermediate not reflected on it), issue 90844 (closed: input mutations under no_grad).
transpose_ in its place (a of shape (2, 1)) fails to compile under no_grad too ("expand: attempting to expand a
dimension of length 2 -> 1!"), where eager transposes a (the 2.13.0 aot_eager campaign, seed 6602; seen on 2.13.0
and 2.14.1)."""
import sys

import torch
import torch._functorch.config
import torch._inductor.config

torch._inductor.config.fx_graph_cache = False
torch._functorch.config.enable_autograd_cache = False


def program(a):
    t = a.sub_(a)                  # every element written: 0
    t.as_strided_((1,), (1,))
    return t


seen = {}
for mode, grad in (("no_grad", False), ("grad mode", True)):
    for label in ("eager", "aot_eager"):
        torch._dynamo.reset()
        f = program if label == "eager" else torch.compile(program, backend="aot_eager")
        a = torch.arange(1.0, 3.0)
        whole = a.view(2)
        with torch.set_grad_enabled(grad):
            f(a)
        seen[mode, label] = (tuple(a.shape), whole.tolist())
        print(f"torch {torch.__version__} {mode:9} {label:9}: a's shape after {tuple(a.shape)}, the whole input "
              f"{whole.tolist()}")


def transposed(a):
    t = a.add_(1)
    t.transpose_(0, -1)
    return a * 2


for label in ("eager", "aot_eager"):
    torch._dynamo.reset()
    f = transposed if label == "eager" else torch.compile(transposed, backend="aot_eager")
    a = torch.arange(2.0).reshape(2, 1)
    try:
        with torch.no_grad():
            f(a)
        seen["transpose_", label] = tuple(a.shape)
    except Exception as exc:  # noqa: BLE001 - the compile's failure is what is shown
        seen["transpose_", label] = type(exc).__name__
        print(f"torch {torch.__version__} transpose_ {label:9}: raised {str(exc).splitlines()[1][:90]}")
    print(f"torch {torch.__version__} transpose_ {label:9}: a's shape or error {seen['transpose_', label]}")
# the bug: under either grad mode the compiled call leaves the caller's input otherwise than eager (or, with
# transpose_, fails to compile)
reproduces = any(seen[mode, "aot_eager"] != seen[mode, "eager"] for mode in ("no_grad", "grad mode", "transpose_"))
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

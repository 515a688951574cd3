"""One output of a multi-output view (`torch.unbind(a, 1)[0]`, `torch.split(a, 1)[0]`) of an input that requires grad,
kept across a graph break whose untraced code writes the input in place (through `a.detach()`): eagerly the call
returns the output (only reading its grad_fn afterwards raises "Output 0 of Unbind is a view and its base or another
view of its base has been modified inplace ... returns multiple views"); under torch.compile the call itself raises
InternalTorchDynamoError wrapping that RuntimeError (backend "eager": dynamo reads the output's autograd state to
carry it into the resume frame; aot_eager: the same check, now naming "Output 0 of CompiledFunction ... created
inside a custom Function"). A plain view (`a[0]`) runs. Found by `python -m copysuite fuzz --execution
compile.aot_eager` (the graph break there is an out= resize of `a.detach()`: `torch.logical_and(t, s, out=b)`);
seen on torch 2.13.0 and 2.14.1. No upstream report found (closest: issue 103153, a view's creation meta met by
dynamo after a graph break; PR 194037 on the multi-output view's creation meta)."""
import sys
import warnings

import torch
import torch._dynamo

warnings.filterwarnings("ignore")


@torch._dynamo.disable
def write(b):
    b.add_(1)


def unbind(a, b):
    t = torch.unbind(a, 1)[0]
    write(b)    # a graph break whose code writes a through its detached alias
    return t


def plain(a, b):
    t = a[0]
    write(b)
    return t


def call(fn, backend):
    torch._dynamo.reset()
    a = torch.arange(12.0).reshape(3, 4).requires_grad_()
    try:
        (fn if backend is None else torch.compile(fn, backend=backend))(a, a.detach())
    except Exception as exc:  # noqa: BLE001 - an error where eager returns is the report
        text = str(exc).splitlines()[0][:150]
        print(f"torch {torch.__version__} {fn.__name__} {backend or 'no compile'}: raised {type(exc).__name__}: {text}")
        return "raised"
    print(f"torch {torch.__version__} {fn.__name__} {backend or 'no compile'}: returned")
    return "returned"


results = {(fn.__name__, backend): call(fn, backend)
           for fn in (unbind, plain) for backend in (None, "eager", "aot_eager")}
# the bug: the compiled call raises where the eager call returns the multi-output view
reproduces = results[("unbind", None)] == "returned" and "raised" in (results[("unbind", "eager")],
                                                                       results[("unbind", "aot_eager")])
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

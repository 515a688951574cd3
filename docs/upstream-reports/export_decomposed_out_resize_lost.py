"""An out= call that resizes its out, an input of the program (`torch.amax(x, out=a)`, `a` of shape (2, 2), the
result 0-d): eagerly `a` is resized to the result's shape (with the deprecation warning for an out that had
elements), and so it is in the module of torch.export.export; after `run_decompositions()` the functional graph
returns the 0-d result as the mutation of `a`, and the module copies it into `a` with its old shape kept: `a` reads
[[3, 3], [3, 3]] where eagerly it is the 0-d 3 (silently; the same for `any`, `amin`, `all` with `keepdim`). An empty
out (the resize that is not deprecated), or one the result does not broadcast into, makes the decomposed module raise
at the call ("The size of tensor a (0) must match the size of tensor b (2)"; "output with shape [1] doesn't match the
broadcast shape [2]"), and so does an expanded out, which eager's resize makes a 0-d tensor of its own ("more than one
element of the written-to tensor refers to a single memory location"). Found by `python -m copysuite fuzz
--vocabulary surface --execution export.decomposed` (seeds 5103, 5203, where the out was the op's own input); seen on
torch 2.13.0 and 2.14.1. No upstream report found (closest: issue 195993, run_decompositions returning a mutated
input's new value; the ban of input metadata mutations in aot_export, torch/_functorch/aot_autograd.py, which this
resize does not reach)."""
import sys
import warnings
import torch

warnings.simplefilter("ignore")   # the deprecation of resizing an out with elements: eager's own behaviour


class Program(torch.nn.Module):
    def forward(self, x, a):
        torch.amax(x, dim=0 if a.numel() != 4 else None, out=a)
        return a


def run(how, out):
    x, a = torch.arange(4.0).reshape(2, 2), out()
    try:
        if how == "eager":
            Program()(x, a)
        else:
            ep = torch.export.export(Program(), (torch.arange(4.0).reshape(2, 2), out()))
            (ep.run_decompositions() if how == "decomposed" else ep).module()(x, a)
    except Exception as exc:  # noqa: BLE001 - an error where eager resizes is the report
        print(f"torch {torch.__version__} {how}: raised {type(exc).__name__}: {str(exc).splitlines()[0][:90]}")
        return "raised"
    print(f"torch {torch.__version__} {how}: a has shape {tuple(a.shape)}, values {a.tolist()}")
    return (tuple(a.shape), a.tolist())


differs = []
for name, out in (("out with elements", lambda: torch.zeros(2, 2)), ("empty out", lambda: torch.zeros(0)),
                  ("out too small", lambda: torch.zeros(1)), ("expanded out", lambda: torch.zeros(1).expand(2, 2))):
    eager = run("eager", out)
    for how in ("exported", "decomposed"):
        if run(how, out) != eager:
            differs.append(f"{name} {how}")
print("differs:", ", ".join(differs) or "none")
# the bug: after run_decompositions() the input keeps its shape (or the call raises)
reproduces = any(d.endswith("decomposed") for d in differs)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

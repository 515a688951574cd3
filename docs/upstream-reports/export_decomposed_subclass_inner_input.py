"""An input that is the inner tensor of another input, a tensor subclass (`b = ConstantExtraMetadataTensor(a)`, whose
`elem` is `a`; `TwoTensor(a, a)`): torch.export records `a` in the graph as `export.access_subclass_inner_tensor(b,
'elem')` and the exported module hands back `a` itself; after `run_decompositions()` the access is gone and the
module hands back the wrapper `b` where the program returned `a` (and a write to `a` bumps `b`'s version counter
instead of `a`'s), or, for a TwoTensor (two inner tensors), raises IndexError ("list index out of range") at the call.
Eagerly and in the module of torch.export.export alone each name is its own tensor. Found by
`python -m copysuite fuzz --vocabulary surface --execution export.decomposed` (seeds 5103, 5203); seen on torch
2.13.0 and 2.14.1. No upstream report found (closest: PR 163770, "Fix various bugs in subclass input in export";
issue 114401, duplicate subclass inputs under torch.compile)."""
import sys
import torch
from torch.testing._internal.custom_tensor import ConstantExtraMetadataTensor
from torch.testing._internal.two_tensor import TwoTensor


class Program(torch.nn.Module):
    def forward(self, a, b):
        return a, b


def run(name, wrap, how):
    a = torch.arange(3.0)
    b = wrap(a)
    try:
        if how == "eager":
            out = Program()(a, b)
        else:
            ep = torch.export.export(Program(), (a, b))
            out = (ep.run_decompositions() if how == "decomposed" else ep).module()(a, b)
    except Exception as exc:  # noqa: BLE001 - an error where eager returns is the report
        print(f"torch {torch.__version__} {name} {how}: raised {type(exc).__name__}: {exc}")
        return "raised"
    print(f"torch {torch.__version__} {name} {how}: first output is a: {out[0] is a} "
          f"({type(out[0]).__name__}), second is b: {out[1] is b}")
    return (out[0] is a, out[1] is b)


differs = []
for name, wrap in (("ConstantExtraMetadataTensor(a)", ConstantExtraMetadataTensor),
                   ("TwoTensor(a, a)", lambda a: TwoTensor(a, a))):
    eager = run(name, wrap, "eager")
    for how in ("exported", "decomposed"):
        if run(name, wrap, how) != eager:
            differs.append(f"{name} {how}")
print("differs:", ", ".join(differs) or "none")
# the bug: after run_decompositions() the module returns the wrapper for its inner tensor (or raises)
reproduces = any(d.endswith("decomposed") for d in differs)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

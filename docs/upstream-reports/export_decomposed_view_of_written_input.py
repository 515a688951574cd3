"""A view of an input that the program writes in place (`a.add_(1); return a.view(-1)`; also `a[...]`,
`torch._neg_view(a)`, or a write through a view of `a` and a view returned): eagerly, and in the module of
torch.export.export, the output is a view of `a`, so a later write to it lands in `a`. After
`run_decompositions()` the functional graph computes the view from the written value, and the module returns a view
of that new tensor: the output shares no memory with `a` (the write itself is copied back into `a`), a write to the
output no longer reaches `a`, and a view of a non-contiguous input comes back with other strides. Silent: the values
agree. Found by `python -m copysuite fuzz --vocabulary surface --execution export.decomposed` (seeds 5103, 5203);
seen on torch 2.13.0 and 2.14.1. No upstream report found (closest: issue 195993, run_decompositions returning a
mutated input's new value twice; torch.compile regenerates such an output from its input instead,
torch/_functorch/_aot_autograd/functional_utils.py, gen_alias_from_base)."""
import sys
import torch


class Program(torch.nn.Module):
    def forward(self, a):
        a.add_(1)
        return a.view(-1)


def make():
    return torch.arange(3.0)


def run(how):
    a = make()
    if how == "eager":
        out = Program()(a)
    else:
        ep = torch.export.export(Program(), (make(),))
        out = (ep.run_decompositions() if how == "decomposed" else ep).module()(a)
    shares = out.untyped_storage().data_ptr() == a.untyped_storage().data_ptr()
    out.mul_(10)   # a caller's write to the output
    print(f"torch {torch.__version__} {how}: output shares a's memory: {shares}, a after a write to the output: "
          f"{a.tolist()}")
    return (shares, a.tolist())


eager = run("eager")
differs = [how for how in ("exported", "decomposed") if run(how) != eager]
print("differs:", ", ".join(differs) or "none")
# the bug: after run_decompositions() the output is no view of the written input
reproduces = "decomposed" in differs
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

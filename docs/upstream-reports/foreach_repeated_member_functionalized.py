"""An in-place foreach op whose list holds one tensor twice, or a view beside its base: eagerly each member is
updated in turn, so `torch._foreach_add_([x, x], 1)` adds 2 to x and `torch._foreach_add_([x, x[:1]], 1)` adds 2 to
x[0]. Functionalized (torch.compile with AOTAutograd, and torch.func.functionalize), each member's new value is
computed from the list as it was before the call and written back one after the other, so x gets 1 added once: the
second update is lost. torch.export gets it right. Found by `python -m copysuite fuzz` (the `foreach` program shape,
compile.aot_eager and functionalize); seen on torch 2.13.0 and 2.14.1. Closest: issue 198033 (inductor reading x
while writing it in `_foreach_add_([x], [x.flip(0)])`, a different bug), PR 119508 (inductor's aliased foreach
members, fixed)."""
import sys

import torch


def twice(x):
    torch._foreach_add_([x, x], 1)
    return x


def view_and_base(x):
    torch._foreach_add_([x, x[:1]], 1)
    return x


class Exported(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn(x)


def executions(fn):
    yield "eager", fn
    yield "torch.func.functionalize", torch.func.functionalize(fn)
    for backend in (sys.argv[1:] or ["aot_eager", "inductor"]):
        yield f"torch.compile({backend})", torch.compile(fn, backend=backend)
    yield "torch.export", torch.export.export(Exported(fn), (torch.arange(4.0),)).module()


wrong = []
for fn in (twice, view_and_base):
    for name, run in executions(fn):
        x = torch.arange(4.0)
        run(x)
        print(f"{fn.__name__:14s} {name:26s} torch {torch.__version__}: x after the call {x.tolist()}")
        if name == "eager":
            expected = x.tolist()
        elif x.tolist() != expected:
            wrong.append((fn.__name__, name))
# the bug: an execution updates a repeated member (or a view's base) once where eager updates it twice
print("differs from eager:", wrong)
reproduces = bool(wrong)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

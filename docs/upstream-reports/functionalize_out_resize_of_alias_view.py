"""An out= op whose out is an alias of an input that is no shape view (`b.detach()`, `torch.ops.aten.alias(b)`, a
dtype view `b.view(torch.int32)`, even `b.view(torch.float32)` of a float32 b) and of another shape than the result,
so that the op resizes it: eagerly only the alias is resized (b keeps its shape and its other elements); under
torch.func.functionalize the caller's b itself is resized to the out's new shape, silently dropping the rest of b.
The same resize done by resize_() on a dtype view is replayed correctly, and resize_() of a shape view (`b.view(4)`)
is refused (functionalize's docstring: resize_() of a view is unsupported), but an out= op resizing a shape view
(`b.unsqueeze(1)`) is not refused and shrinks b the same way (found by the 2.14.1 campaign, seed 6403:
`torch.diagonal_copy(t1, out=t1)` with `t1 = torch.unsqueeze(a, 1)`), and so does one resizing a `_neg_view` (the
2.13.0 top-up, seed 6621: `torch.add(t1, torch.ones(3, 4), out=t2)`, t2 a neg view of a neg view of b). Found by `python -m copysuite fuzz --execution
functionalize --vocabulary surface` (`torch.narrow_copy(t2, 1, 2, 2, out=t2)` with `t2 = b.view(torch.uint8)`;
`soft_margin_loss(..., out=t7)` with `t7 = torch.detach(b)`); seen on torch 2.13.0 and 2.14.1. No upstream report
found (closest: PR 77714, resize_ in functionalization)."""
import sys
import warnings

import torch

warnings.filterwarnings("ignore", message="An output with one or more elements was resized")


def by_out(b):
    torch.abs(torch.ones(6, dtype=torch.int32), out=b.view(torch.int32))   # out resized from (12,) to (6,)
    return b


def by_out_into_detach(b):
    torch.abs(torch.ones(()), out=b.detach())   # out resized from (12,) to ()
    return b


def by_out_into_unsqueeze(b):
    torch.abs(torch.ones(1, 1), out=b.unsqueeze(1))   # out resized from (12, 1) to (1, 1)
    return b


def by_out_into_neg_view(b):
    torch.abs(torch.ones(3, 4), out=torch._neg_view(b))   # out resized from (12,) to (3, 4)
    return b


def by_resize(b):
    b.view(torch.int32).resize_(6).fill_(1)
    return b


seen = {}
for name, fn in (("out=", by_out), ("detach", by_out_into_detach), ("unsqueeze", by_out_into_unsqueeze),
                 ("_neg_view", by_out_into_neg_view), ("resize_", by_resize)):
    for label, f in (("eager", fn), ("functionalize", torch.func.functionalize(fn))):
        b = torch.arange(12.)
        f(b)
        seen[name, label] = tuple(b.shape)
        print(f"torch {torch.__version__} {name:9} {label:13} b's shape after: {tuple(b.shape)}")
# the bug: an out= call leaves the caller's b of 12 elements eagerly, and shrinks it functionalized
reproduces = any(seen[name, "eager"] == (12,) and seen[name, "functionalize"] != (12,)
                 for name in ("out=", "detach", "unsqueeze", "_neg_view"))
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""out= forms that write into outs requiring grad, where the input requires grad too, without the error other out=
forms raise ("functions with out=... arguments don't support automatic differentiation, but one of the arguments
requires grad"): split_with_sizes_copy, split_copy and the generated out= overloads of the foreach ops
(`_foreach_add.List_out`, ...), all CompositeExplicitAutograd; unbind_copy, also CompositeExplicitAutograd, refuses
from 2.8.0 on (the error is raised inside at::native::unbind_copy_int_out) and writes them too on 2.6.0. Seen on
2.6.0, 2.8.0, 2.10.0, 2.12.1, 2.13.0 and 2.14.1 by the operator surface's cells (copysuite/surface). On 1.13.1 to
2.4.1 unbind_copy writes such outs too (closest upstream: pytorch/pytorch PR 134319, "Fix unbind_copy and add its
decomposition", closed; not confirmed to be the change).
"""
import sys

import torch


def outs():
    return [torch.empty(2, requires_grad=True), torch.empty(2, requires_grad=True)]


x = torch.randn(4, requires_grad=True)
refused = {}
for name, call in [("mul", lambda: torch.mul(x, 2, out=torch.empty(4, requires_grad=True))),
                   ("unbind_copy", lambda: torch.unbind_copy(x.view(2, 2), out=outs())),
                   ("split_with_sizes_copy", lambda: torch.split_with_sizes_copy(x, [2, 2], out=outs())),
                   ("split_copy", lambda: torch.split_copy(x, 2, out=outs())),
                   ("_foreach_add.List_out", lambda: torch.ops.aten._foreach_add.List_out(
                       [x[:2], x[2:]], [x[:2], x[2:]], out=outs()))]:
    try:
        call()
        refused[name] = False
        print(f"{name}: no error")
    except RuntimeError as exc:
        refused[name] = True
        print(f"{name}: {str(exc)[:100]}")
# the bug: an out= form writes outs that require grad where mul's out= (the rule) refuses
reproduces = refused["mul"] and not all(refused[n] for n in ("split_with_sizes_copy", "split_copy",
                                                             "_foreach_add.List_out"))
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

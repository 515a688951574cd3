"""torch.func.functionalize and a write through the result of atleast_1d, atleast_2d or atleast_3d: their documentation
says an input with enough dimensions "is returned as-is" (eagerly `torch.atleast_2d(a) is a`), so a write through
the result (`torch.atleast_2d(a).add_(1)`, or an out= into it: `torch.linalg.pinv(a, out=torch.atleast_2d(a))`)
writes the caller's `a`. Functionalized, the write is not replayed into `a`: its value and version counter stay as
they were, while `a.add_(1)` itself is replayed. The schema (`aten::atleast_2d(Tensor self) -> Tensor`) promises a
new tensor, which functionalize trusts, as with the ops of surface_schema_functional_aliases.py; here the alias is
documented, so the functionalized program no longer does what the documented eager program does. Found by
`python -m copysuite fuzz --execution functionalize --vocabulary surface` (torch 2.14.1, seed 6520:
`t1 = torch.atleast_2d(a); torch.linalg.pinv(a, rtol=None, out=t1)`); seen on torch 2.13.0 and 2.14.1. No upstream
report found (searched: functionalize atleast_2d alias, functionalize returns input alias mutation)."""
import sys

import torch


def through(op):
    def program(a):
        op(a).add_(1)
        return a
    return program


def direct(a):
    a.add_(1)
    return a


reproduces = False
for op in (torch.atleast_1d, torch.atleast_2d, torch.atleast_3d):
    seen = {}
    for side, fn in (("eager", through(op)), ("functionalize", torch.func.functionalize(through(op))),
                     ("functionalize, a.add_(1) itself", torch.func.functionalize(direct))):
        a = torch.zeros(1, 1, 2)
        version = a._version
        fn(a)
        seen[side] = a.reshape(-1).tolist()
        print(f"torch {torch.__version__} {op.__name__}(a).add_(1), {side}: a is {seen[side]}, version counter "
              f"{'moved' if a._version != version else 'unmoved'}")
    # the bug: the documented alias is written eagerly, not functionalized (where a direct write is replayed)
    reproduces |= seen["eager"] != seen["functionalize"] and seen["functionalize, a.add_(1) itself"] == seen["eager"]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

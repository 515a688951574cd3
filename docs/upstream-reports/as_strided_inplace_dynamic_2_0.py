"""`x.as_strided_((2, 2), (1, 2))` of a graph input, compiled with dynamic shapes (any backend), fails on 2.0 in dynamo's
fake run of the call: a guard on the input's symbolic size is made while the in-place call rewrites the input's
metadata, and guard creation finds no source for the symbol (AssertionError "s0 (could be from ['x.size()[0]']) not
in defaultdict(<class 'list'>, {})"). Static shapes compile and return x itself as eager does. Seen on 2.0.1 (the
surface cell surface.inplace:as_strided_ under both dynamic executions of the matrix regenerated at a5f7ea3); 2.2.2,
2.13.0 and 2.14.1 compile it. No upstream report of this message found; the class (an input's metadata changed in
place under dynamic shapes breaking guard creation) is issue 108022's."""
import sys

import torch
import torch._dynamo


def program(x):
    return x.as_strided_((2, 2), (1, 2))


failed = {}
for dynamic in (False, True):
    torch._dynamo.reset()
    x = torch.randn(3, 4)
    try:
        r = torch.compile(program, backend="eager", dynamic=dynamic)(x)
        failed[dynamic] = False
        print(f"dynamic={dynamic!s:5s} torch {torch.__version__}: ok, returned x itself: {r is x}, "
              f"x now {tuple(x.shape)} strides {x.stride()}")
    except Exception as e:                    # noqa: BLE001
        failed[dynamic] = True
        print(f"dynamic={dynamic!s:5s} torch {torch.__version__}: {type(e).__name__}: {str(e).splitlines()[0][:160]}")
# the bug: static shapes compile, dynamic shapes fail
reproduces = failed[True] and not failed[False]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

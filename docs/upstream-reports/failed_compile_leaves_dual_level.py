"""A function that enters forward-mode AD's dual level, compiled by inductor with dynamic shapes, fails to compile
(its make_dual of a strided non-leaf asks the non-symbolic storage_offset(), forward_ad_dynamic_shapes.py) and leaves
the C++ dual level entered: forward_ad's Python level says none is open, and every later dual_level() in the process
raises "Nested forward mode AD is not supported at the moment". The backend's trace runs the graph's
torch._C._enter_dual_level for real and raises before the matching exit; dynamo exits only its own trace-time level.
Eager, or a compile that succeeds, leaves nothing. Seen on 2.4.1, 2.6.0 and 2.8.0 (the matrix regenerated at a5f7ea3:
later forward-AD cells of the same worker failed so); 2.13.0 and 2.14.1 compile the call, so nothing is left there
(FIXED in that sense: the leak itself was not seen fixed). No upstream report found; closest PR 119926 (dynamo's
support of dual_level)."""
import sys

import torch
import torch._dynamo
import torch.autograd.forward_ad as fwAD


def program(source):
    with fwAD.dual_level():
        dual = fwAD.make_dual(source, torch.ones_like(source))
        tangent = fwAD.unpack_dual(dual.detach()).tangent
    return tangent


source = (torch.arange(6.0).requires_grad_() * 1).as_strided((2, 3), (1, 2), 0)
try:
    torch.compile(program, backend="inductor", fullgraph=True, dynamic=True)(source)
    print(f"torch {torch.__version__}: the compiled call ran")
except Exception as e:                    # noqa: BLE001
    print(f"torch {torch.__version__}: the compiled call raised {type(e).__name__}: "
          f"{str(e).splitlines()[0][:120]}")
print(f"forward_ad's Python level after it: {fwAD._current_level}")
try:
    with fwAD.dual_level():
        pass
    left = False
    print("a new dual_level() enters and exits")
except RuntimeError as e:
    left = True
    print(f"a new dual_level() raises: {e}")
reproduces = left
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

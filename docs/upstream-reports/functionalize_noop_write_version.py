"""conj_physical of a real tensor written into itself (`torch.conj_physical(b, out=b)`, `b.conj_physical_()`):
eagerly a write (b's version counter moves, as for any in-place or out= op), under torch.func.functionalize no write
reaches b (its version stays). For a tensor that is not complex, the functional conj_physical returns its input
itself, so the functionalized program's new value of b is b's old functional value, no mutation is seen, and nothing
is copied back. The values agree; what differs is what autograd's saved-tensor check and a caller see of the write
(torch.compile with backend="aot_eager" moves the version as eager does). Found by `python -m copysuite fuzz
--execution functionalize --vocabulary surface` (seed 5202); seen on torch 2.13.0 and 2.14.1. No upstream report
found."""
import sys

import torch


def program(b):
    return torch.conj_physical(b, out=b)


eager = torch.zeros(2)
program(eager)
functionalized = torch.zeros(2)
torch.func.functionalize(program)(functionalized)
print(f"torch {torch.__version__} b._version after conj_physical(b, out=b): eager {eager._version}, functionalize "
      f"{functionalized._version}")
# the bug: eager's write moves the version counter, the functionalized one does not
reproduces = eager._version > 0 and functionalized._version == 0
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

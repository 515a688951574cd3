"""`x.set_(w)` where `w` is a wrapper tensor subclass (TwoTensor from torch.testing._internal, built with
`_make_wrapper_subclass`): eagerly, set_ gives x the wrapper's storage, which has a size but no memory (data_ptr 0),
and the next op that reads x (`x * 1`) crashes the process (SIGSEGV) instead of raising; `x.data = w` does the
same (seed 13 met it with x the tensor that w wraps: the wrapper's next op crashes). Seen on torch 2.6.0,
2.13.0 and 2.14.1 (CPU). Found by `python -m copysuite fuzz --execution functionalize --seed 13` (the eager side of
a generated program). Closest upstream: issue 61669 (python bindings to the null storage of wrapper subclasses are
unsafe; PR 107417 made storage data access raise instead) and PR 174772 (LocalTensor's wrapper storage raises on
data_ptr access via throw_on_mutable_data_ptr): neither covers set_(), which copies the null storage into a plain
tensor whose kernels then read it. Run it in a subprocess: it prints the return code, -11 for the crash."""
import subprocess
import sys

import torch

CHILD = """
import torch
from torch.testing._internal.two_tensor import TwoTensor
x = torch.arange(3.0)
w = TwoTensor(torch.arange(3.0), torch.arange(3.0))
x.set_(w)
print("after set_: data_ptr", x.data_ptr(), "nbytes", x.untyped_storage().nbytes(), flush=True)
print(x * 1)
"""

done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True)
print(f"torch {torch.__version__}: {done.stdout.strip()}")
print(f"x * 1 after x.set_(TwoTensor(...)): return code {done.returncode} (-11: segmentation fault; an error "
      f"would be 1 with a RuntimeError)")
# the bug: the process is killed by a signal (the crash) instead of raising or running
reproduces = done.returncode < 0
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

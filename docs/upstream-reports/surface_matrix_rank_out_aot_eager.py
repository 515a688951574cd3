"""`torch.linalg.matrix_rank(x, out=out)` under torch.compile with an AOTAutograd backend (aot_eager): the call
returns out but leaves its values as they were (silent); eagerly, and under dynamo alone (backend="eager"), out holds
the rank. Found by the operator surface's whole sweep under compile.aot_eager (2.13.0); seen on 2.13.0 and 2.14.1. No
upstream issue found (searched: matrix_rank out compile; issue 190283 is another matrix_rank failure under inductor).
"""
import sys
import warnings

import torch

warnings.simplefilter("ignore")
x = torch.eye(5)
right = {}
for backend in ("eager (no compile)", "eager", "aot_eager"):
    torch._dynamo.reset()
    out = torch.full((), -1, dtype=torch.long)

    def program(x):
        return torch.linalg.matrix_rank(x, out=out)

    call = program if backend.startswith("eager (") else torch.compile(program, backend=backend)
    returned = call(x)
    print(f"torch {torch.__version__} {backend:18s}: returns out: {returned is out}; out holds {out.item()} "
          f"(the rank of eye(5) is 5)")
    right[backend] = returned is out and out.item() == 5
# the bug: under aot_eager out is returned unwritten
reproduces = not right["aot_eager"]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

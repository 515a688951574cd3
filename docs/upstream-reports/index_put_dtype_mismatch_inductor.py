"""`index_put` (and `index_put_`) with values of another dtype than the destination: eager refuses it ("Index put
requires the source and destination dtypes match"), aot_eager too (it runs the eager kernel); inductor's lowering
converts the values and returns a result. Found by `python -m copysuite fuzz` (seed 7, compile.inductor: a bool
tensor and `a[0] * 0`, which is int64); seen on torch 2.13.0 and 2.14.1. Closest: issue 150993 (compiled code that
runs where eager refuses it; a maintainer: compile should raise the error eager raises), issue 63935 (eager's own
inconsistency between indexing forms)."""
import sys

import torch


def program(a):
    return a.index_put((torch.tensor([0]),), torch.tensor(0))


backend = sys.argv[1] if len(sys.argv) > 1 else "inductor"
refused = {}
for name, fn in (("eager", program), (backend, torch.compile(program, backend=backend))):
    try:
        out = fn(torch.tensor([True, True]))
        print(f"{name:10s} torch {torch.__version__}: returned {out.dtype} {out.tolist()}")
        refused[name] = False
    except RuntimeError as exc:
        print(f"{name:10s} torch {torch.__version__}: raised {str(exc).strip().splitlines()[-1][:120]}")
        refused[name] = True
# the bug: inductor runs what eager refuses
reproduces = refused["eager"] and not refused[backend]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

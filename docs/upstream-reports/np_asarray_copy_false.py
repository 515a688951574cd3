"""np.asarray(t, copy=False) inside a compiled function, eager NumPy 2 raising its ValueError ("Unable to avoid copy
while creating an array as requested"), which a caller's `except ValueError` catches. Checked on torch 2.13.0 and
2.14.1 (NumPy 2.4): with torch.compile's default (fullgraph=False) dynamo's NumPy tracing, which has no `copy`
keyword, graph-breaks on the call, runs it eagerly, and the caller gets NumPy's ValueError, as eagerly. Only under
fullgraph=True does the call fail with dynamo's own error (Unsupported: "TypeError when making fake tensor call"),
and fullgraph=True turning a graph break into an error is its documented purpose, not a bug. So the draft's claim is
the default compile: REPRODUCES only if it raises something other than eager's ValueError (not seen on 2.13.0 or
2.14.1); the fullgraph=True line is printed for the record. (This draft once reported the fullgraph error as the
bug; an earlier version of its text said "every torch release with dynamo (2.2.2 ... 2.14.1)", for fullgraph=True.)"""
import sys

import numpy as np
import torch


def program(t):
    return np.asarray(t, copy=False)


def outcome(fn):
    try:
        return f"ok, {type(fn(torch.arange(4.0))).__name__}"
    except Exception as e:                    # noqa: BLE001 - the class raised is what is compared
        return f"{type(e).__name__}: {str(e).splitlines()[0][:120]}"


seen = {}
for name, fn in [("eager", program), ("compile", torch.compile(program, backend="eager")),
                 ("compile fullgraph", torch.compile(program, backend="eager", fullgraph=True))]:
    torch._dynamo.reset()
    seen[name] = outcome(fn)
    print(f"{name:17s} torch {torch.__version__}, numpy {np.__version__}: {seen[name]}")
print("fullgraph=True refuses the graph break by design; the verdict compares the default compile with eager")
reproduces = seen["compile"].split(":")[0] != seen["eager"].split(":")[0]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

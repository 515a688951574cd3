"""A NumPy call that dynamo traces and whose arguments the traced version refuses with a TypeError (here
`np.asarray(t, copy=False)` under NumPy 1, whose asarray has no `copy` keyword, and an unknown keyword under any
NumPy), inside a function compiled with torch.compile's defaults (fullgraph=False). Eagerly the call raises a
TypeError, which `except TypeError` catches. From 2.4 dynamo turns a TypeError about the arguments of a fake-tensor
call into a graph break (torch/_dynamo/utils.py get_fake_value: `isinstance(cause, TypeError) and "argument" in
str(cause)`), the call runs eagerly and the caller gets eager's TypeError. On torch 2.2.2 get_fake_value has no such
branch: the TypeError arrives as dynamo's TorchRuntimeError ("Failed running call_function <Wrapped function
<original asarray>> ... got an unexpected keyword argument"), a RuntimeError that `except TypeError` misses. Seen on
2.2.2 (NumPy 1.26); 2.4.1 ... 2.14.1 raise eager's TypeError. The PR that added the branch was not identified (2.3
not run)."""
import sys

import numpy as np
import torch


def unknown_keyword(t):
    return np.asarray(t, not_a_keyword=False)


def outcome(fn, t):
    try:
        fn(t)
    except Exception as e:                    # noqa: BLE001 - the class raised is what is compared
        return type(e).__name__, str(e).strip().splitlines()[0][:110]
    return "ok", ""


differs = False
for backend in ("eager", "aot_eager"):
    t = torch.arange(6.0).view(2, 3)
    expected = outcome(unknown_keyword, t)
    torch._dynamo.reset()
    got = outcome(torch.compile(unknown_keyword, backend=backend), t)
    print(f"torch {torch.__version__}, numpy {np.__version__}: eager {expected[0]}: {expected[1]}")
    print(f"  compile {backend}: {got[0]}: {got[1]}")
    differs |= got[0] != expected[0]
reproduces = differs
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

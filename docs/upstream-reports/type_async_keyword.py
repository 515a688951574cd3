"""`t.type(torch.float64, **{'async': False})` (the old spelling of non_blocking, still accepted by Tensor.type)
inside a compiled function: FX's code generator writes each keyword argument as `name = value` without checking for
Python keywords, so the generated forward reads `async = False` and compiling fails with a SyntaxError
(InternalTorchDynamoError). Seen on torch 2.0.1 (where the InternalTorchDynamoError's own message is empty and the
SyntaxError is its cause), 2.2.2, 2.4.1, 2.6.0, 2.8.0, 2.10.0, 2.13.0 and 2.14.1 (every release tried). Closest: PR
169328, which fixed the keyword `from` in FX node normalization only."""
import sys
import warnings

import torch

warnings.simplefilter("ignore")   # the deprecation of `async`, not the failure


def program(t):
    return t.type(torch.float64, **{'async': False})


failed = {}
for name, fn in [("eager", program), ("compile", torch.compile(program, backend="eager", fullgraph=True))]:
    try:
        r = fn(torch.ones(2))
        print(f"{name:8s} torch {torch.__version__}: ok, {r.dtype}")
    except Exception as e:                    # noqa: BLE001
        failed[name] = True
        text = str(e).splitlines() or [f"(no message; cause {e.__cause__!r})"]   # 2.0 leaves the message empty
        print(f"{name:8s} torch {torch.__version__}: {type(e).__name__}: {text[0][:120]}")
# the bug: the compiled call fails where eager runs
reproduces = failed.get("compile", False) and not failed.get("eager", False)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

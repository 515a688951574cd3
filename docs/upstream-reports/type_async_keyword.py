"""`t.type(torch.float64, **{'async': False})` (the old spelling of non_blocking, still accepted by Tensor.type)
inside a compiled function: FX's code generator writes each keyword argument as `name = value` without checking for
Python keywords, so the generated forward reads `async = False` and compiling fails with a SyntaxError
(InternalTorchDynamoError). Closest: PR 169328, which fixed the keyword `from` in FX node normalization only."""
import warnings

import torch

warnings.simplefilter("ignore")   # the deprecation of `async`, not the failure


def program(t):
    return t.type(torch.float64, **{'async': False})


for name, fn in [("eager", program), ("compile", torch.compile(program, backend="eager", fullgraph=True))]:
    try:
        r = fn(torch.ones(2))
        print(f"{name:8s} torch {torch.__version__}: ok, {r.dtype}")
    except Exception as e:                    # noqa: BLE001
        print(f"{name:8s} torch {torch.__version__}: {type(e).__name__}: {str(e).splitlines()[0][:120]}")

"""np.asarray(t, copy=False) inside a compiled function: dynamo's NumPy tracing has no `copy` keyword, so the call
fails with dynamo's own error (Unsupported / TypeError), where eager NumPy 2 raises its ValueError ("Unable to avoid
copy"), which a caller's `except ValueError` catches. Every torch release with dynamo (2.2.2 ... 2.14.1); NumPy >= 2."""
import numpy as np
import torch


def program(t):
    return np.asarray(t, copy=False)


for name, fn in [("eager", program), ("compile", torch.compile(program, backend="eager", fullgraph=True))]:
    t = torch.arange(4.0)
    try:
        r = fn(t)
        print(f"{name:8s} torch {torch.__version__}, numpy {np.__version__}: ok, {type(r).__name__}")
    except Exception as e:                    # noqa: BLE001
        print(f"{name:8s} torch {torch.__version__}, numpy {np.__version__}: {type(e).__name__}: "
              f"{str(e).splitlines()[0][:160]}")

"""An input with a lazy conjugate or negative bit, passed to a compiled function on torch 2.0: dynamo's fake-tensor
conversion (torch/_subclasses/meta_utils.py, MetaConverter.__call__) refuses any tensor with `is_neg()` or
`is_conj()` ("these are supported in meta conversion but the fallbacks don't work"), so fake propagation fails with
"Unsupported: meta converter nyi with fake tensor propagation" for any program, backend and device (fullgraph turns
the fallback to eager into that error). Seen on torch 2.0.1; 2.2.2 compiles it (the old matrix runs of 2.2.2 hold
the same cells). No upstream issue found that reports it; the refusal dates from the fake tensor's first releases."""
import sys

import torch
import torch._dynamo


def program(t):
    return t.clone()


failed = {}
inputs = {"conj": torch.tensor([1 + 2j, 3 - 1j]).conj(), "neg": torch._neg_view(torch.tensor([1.0, 2.0]))}
for bit, t in inputs.items():
    for name, fn in [("eager", program), ("compile", torch.compile(program, backend="eager", fullgraph=True))]:
        torch._dynamo.reset()
        try:
            r = fn(t)
            print(f"{bit:5s} {name:8s} torch {torch.__version__}: ok, {r.tolist()}")
        except Exception as e:                    # noqa: BLE001
            failed[(bit, name)] = True
            print(f"{bit:5s} {name:8s} torch {torch.__version__}: {type(e).__name__}: {str(e).splitlines()[0][:120]}")
# the bug: the compiled call fails where eager runs, for either bit
reproduces = any(failed.get((bit, "compile")) and not failed.get((bit, "eager")) for bit in inputs)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

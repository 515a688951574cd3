"""Jagged nested tensors inside a compiled function (aot_eager): (1) `torch.nested.narrow(t, 1, starts, lengths,
layout=torch.jagged).values()` with `starts`/`lengths` made inside the function; (2) `nt.unbind()[0]` of a jagged
nested tensor passed in whose one component has ragged length 1. Checked on torch 2.13.0 and 2.14.1: with
torch.compile's default (fullgraph=False) both graph-break on the data-dependent step and return eager's result.
Only under fullgraph=True do they fail: (1) "Could not guard on data-dependent expression Eq(u0, 1)" (a UserError;
from 2.10, where data-dependent ops are traced; before, a graph break on `_local_scalar_dense`), (2)
InternalTorchDynamoError: PendingUnbackedSymbolNotFound. fullgraph=True turning a graph break into an error is its
documented purpose, so the draft's claim is the default compile: REPRODUCES only if it differs from eager (not seen
on 2.13.0 or 2.14.1). What remains is a rough edge, not a wrong result: (2) under fullgraph is an internal error
rather than dynamo's graph-break error. The suite's `torch.nested.narrow:jagged` and
`torch.nested.nested_tensor:jagged.unbind` cells fail under fullgraph for this reason. Closest: PRs 136444 and 142063
(narrow on the batch dim), PR 148497 (the same exception for nt.select)."""
import sys

import torch


def narrow(t):
    starts = torch.zeros(t.shape[0], dtype=torch.int64)
    lengths = torch.full((t.shape[0],), t.shape[1], dtype=torch.int64)
    return torch.nested.narrow(t, 1, starts, lengths, layout=torch.jagged).values()


def unbind(nt):
    return nt.unbind()[0]


cases = [(narrow, torch.ones(2, 3)), (unbind, torch.nested.nested_tensor([torch.ones(1)], layout=torch.jagged))]
differs = []
for program, arg in cases:
    seen = {}
    for name, fn in [("eager", program), ("compile", torch.compile(program, backend="aot_eager")),
                     ("compile fullgraph", torch.compile(program, backend="aot_eager", fullgraph=True))]:
        torch._dynamo.reset()
        try:
            r = fn(arg)
            seen[name] = f"ok, {tuple(r.shape)} {r.tolist()}"
        except Exception as e:                # noqa: BLE001
            seen[name] = f"{type(e).__name__}: {str(e).splitlines()[0][:120]}"
        print(f"{program.__name__:6s} {name:17s} torch {torch.__version__}: {seen[name]}")
    differs.append(seen["compile"] != seen["eager"])
print("fullgraph=True refuses the graph break by design; the verdict compares the default compile with eager")
reproduces = any(differs)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

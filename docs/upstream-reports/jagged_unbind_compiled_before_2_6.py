"""`nt.unbind()[0]` of a jagged nested tensor passed to a function compiled with torch.compile's defaults
(fullgraph=False): from 2.6 dynamo graph-breaks on the data-dependent ragged lengths and returns eager's first
component (docs/upstream-reports/jagged_narrow_and_unbind.py covers 2.13.0 and 2.14.1). Before, the compiled call
fails: on torch 2.2.2 with aot_eager ("'torch._C._SymNode' object has no attribute 'shape_env'"; backend eager: "Split
sizes add up to i0 but got the tensor's size of 1" for components of length 1), on 2.4.1 for components of length 1
(InternalTorchDynamoError: "eq(): incompatible function arguments ... Invoked with: jN, zf0", a nested int compared
with a specialized size). Seen on 2.2.2 and 2.4.1 (CPU). Closest upstream: issue 132618 (closed; unbind of a jagged
tensor under torch.compile failing on 2.4), PR 111531 (compile support for NT unbind, 2.2)."""
import sys

import torch


def program(nt):
    return nt.unbind()[0]


def outcome(fn, rows):
    nt = torch.nested.nested_tensor(rows, layout=torch.jagged)
    try:
        r = fn(nt)
    except Exception as e:                    # noqa: BLE001 - the class raised is what is compared
        return f"{type(e).__name__}: {str(e).strip().splitlines()[0][:110]}"
    return f"ok, {r.tolist()}"


differs = []
for name, rows in [("lengths 3, 2", [torch.arange(3.0), torch.arange(2.0)]), ("one row of length 1", [torch.ones(1)])]:
    seen = {"eager": outcome(program, rows)}
    for backend in ("eager", "aot_eager"):
        torch._dynamo.reset()
        seen[f"compile {backend}"] = outcome(torch.compile(program, backend=backend), rows)
    for k, v in seen.items():
        print(f"{name:20s} {k:18s} torch {torch.__version__}: {v}")
    differs += [(name, k) for k, v in seen.items() if v != seen["eager"]]
for name, k in differs:
    print(f"differs: {name}, {k}")
reproduces = bool(differs)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

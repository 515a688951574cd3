"""A jagged nested tensor of a single component of length 1, passed to a function compiled with torch.compile: on
torch 2.4.1 dynamo fails to trace even `nt.values()` or `torch.nested.as_nested_tensor(nt, layout=torch.jagged)`
(InternalTorchDynamoError "eq(): incompatible function arguments ... Invoked with: jN, zf0": the nested int of the
ragged dimension compared with a size specialized to 1), under every backend, where eager returns the values and the
same nested tensor. Two components of length 1, or other lengths, compile. Seen on 2.4.1 (CPU); 2.2.2 (values()
only: its as_nested_tensor takes lists only) and 2.6.0 compile it (no upstream change found that names it;
jagged_unbind_compiled_before_2_6.py shows the same message for unbind on 2.4.1). No upstream report found; closest
issue 132618 (unbind of a jagged tensor under torch.compile on 2.4)."""
import sys

import torch


def values(nt):
    return nt.values()


def as_nested(nt):
    return torch.nested.as_nested_tensor(nt, layout=torch.jagged)


def outcome(fn, rows):
    nt = torch.nested.nested_tensor(rows, layout=torch.jagged)
    try:
        r = fn(nt)
    except Exception as e:                    # noqa: BLE001 - the class raised is what is compared
        return f"{type(e).__name__}: {str(e).strip().splitlines()[0][:90]}"
    return f"ok, same object {r is nt}" if r.is_nested else f"ok, {r.tolist()}"


differs = []
for name, rows in [("one row of length 1", [torch.ones(1)]), ("rows of length 1", [torch.ones(1), torch.zeros(1)]),
                   ("lengths 3, 2", [torch.arange(3.0), torch.arange(2.0)])]:
    for fn in (values, as_nested):
        seen = {"eager": outcome(fn, rows)}
        for backend in ("eager", "aot_eager"):
            torch._dynamo.reset()
            seen[f"compile {backend}"] = outcome(torch.compile(fn, backend=backend), rows)
        for k, v in seen.items():
            print(f"{name:20s} {fn.__name__:9s} {k:17s} torch {torch.__version__}: {v}")
        # a call eager refuses (as_nested_tensor of a nested tensor before 2.3) is not this bug
        differs += [(name, fn.__name__, k) for k, v in seen.items() if v != seen["eager"] and seen["eager"][:2] == "ok"]
for name, fn, k in differs:
    print(f"differs: {name}, {fn}, {k}")
reproduces = bool(differs)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

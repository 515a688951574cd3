"""Sparse COO tensors in a function compiled with torch.compile's defaults (fullgraph=False): from 2.6 dynamo refuses
to wrap a sparse tensor ("torch.compile does not support sparse Tensors", issue 169119) and the frame runs eagerly, as
eager does. Before that the compiled call fails instead of breaking the graph:
(1) a sparse input detached and written in place (`d = sp.detach(); d.add_(d)`): on 2.2.2 dynamo itself fails
("InternalTorchDynamoError: `example_value` needs to be a `FakeTensor`wrapped by this instance of Dynamo", under every
backend); on 2.4.1 dynamo wraps it and AOTAutograd fails on the fake sparse tensor ("could not find kernel for
aten.set_.source_Storage_storage_offset at dispatch key DispatchKey.SparseMeta", backends aot_eager and inductor;
backend eager holds);
(2) `x.to_sparse().numpy()`, which eager refuses with a TypeError: on 2.2.2 the refusal arrives as dynamo's
InternalTorchDynamoError, which `except TypeError` misses;
(3) a write into a sparse input's values (`sp.values().zero_()`, then `sp.to_dense()`): on 2.2.2 and 2.4.1 (and in
the 2.0.1 matrix regeneration) AOTAutograd's functionalization refuses the view ("Attempted to call values() during
the functionalization pass. For now, sparse tensors aren't supported during functionalization", an internal assert;
backend eager holds).
Seen on torch 2.2.2 and 2.4.1 (CPU); 2.6.0 ... 2.14.1 behave as eager. No upstream report of these found (issue
130687: sparse inputs and fullgraph; issue 169119: the refusal of later releases); the change that made 2.6 refuse
sparse inputs is the builder's sparse check in torch/_dynamo/variables/builder.py, its PR not identified."""
import sys

import torch
import torch._dynamo


def write_detached(sp):
    d = sp.detach()
    d.add_(d)
    return d


def sparse_numpy(x):
    return x.detach().to_sparse().numpy()


def write_values(sp):
    sp.values().zero_()
    return sp.to_dense()


def outcome(fn, make):
    try:
        result = fn(make())
    except Exception as e:                    # noqa: BLE001 - the class raised is what is compared
        return f"{type(e).__name__}: {str(e).strip().splitlines()[0][:110]}"
    return f"ok, {result.layout}" if isinstance(result, torch.Tensor) else f"ok, {type(result).__name__}"


differs = []
for name, program, make in [("detached sparse input written", write_detached, lambda: torch.eye(3).to_sparse()),
                            ("to_sparse().numpy()", sparse_numpy, lambda: torch.eye(3)),
                            ("sparse input's values written", write_values, lambda: torch.eye(3).to_sparse())]:
    seen = {"eager": outcome(program, make)}
    for backend in ("eager", "aot_eager"):
        torch._dynamo.reset()
        seen[f"compile {backend}"] = outcome(torch.compile(program, backend=backend), make)
    for k, v in seen.items():
        print(f"{name:30s} {k:18s} torch {torch.__version__}: {v}")
    # eager's own refusal (a TypeError) must reach the caller unchanged; a success must stay a success
    differs += [(name, k) for k, v in seen.items() if k != "eager" and v.split(":")[0] != seen["eager"].split(":")[0]
                and not (v.startswith("ok") and seen["eager"].startswith("ok"))]
for name, k in differs:
    print(f"differs: {name}, {k}")
reproduces = bool(differs)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""torch 2.2.2: a sparse COO tensor passed to a function compiled with aot_eager fails inside AOTAutograd
("Cannot access storage of SparseTensorImpl", BackendCompilerFailed) instead of graph-breaking as later releases do
(dynamo does not wrap sparse tensors: issue 169119); with fullgraph=False the function should still run eagerly.
Seen on 2.2.2; later releases graph-break (FIXED on 2.13.0 and 2.14.1), no fixing PR identified."""
import sys
import torch


def program(t):
    return t.coalesce().values()


failed = {}
for name, fn in [("eager", program), ("aot_eager", torch.compile(program, backend="aot_eager"))]:
    t = torch.eye(3).to_sparse()
    try:
        r = fn(t)
        print(f"{name:10s} torch {torch.__version__}: ok, {tuple(r.shape)}")
        failed[name] = False
    except Exception as e:                    # noqa: BLE001
        failed[name] = True
        print(f"{name:10s} torch {torch.__version__}: {type(e).__name__}: {str(e).strip().splitlines()[-1][:160]}")
# the bug: the compiled call fails where it should graph-break and run as eagerly
reproduces = failed["aot_eager"] and not failed["eager"]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

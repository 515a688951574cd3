"""torch 2.2.2: a sparse COO tensor passed to a function compiled with aot_eager fails inside AOTAutograd
("Cannot access storage of SparseTensorImpl", BackendCompilerFailed) instead of graph-breaking as later releases do
(dynamo does not wrap sparse tensors: issue 169119); with fullgraph=False the function should still run eagerly."""
import torch


def program(t):
    return t.coalesce().values()


for name, fn in [("eager", program), ("aot_eager", torch.compile(program, backend="aot_eager"))]:
    t = torch.eye(3).to_sparse()
    try:
        r = fn(t)
        print(f"{name:10s} torch {torch.__version__}: ok, {tuple(r.shape)}")
    except Exception as e:                    # noqa: BLE001
        print(f"{name:10s} torch {torch.__version__}: {type(e).__name__}: {str(e).strip().splitlines()[-1][:160]}")

"""An in-place view op that changes the rank of an input (`x.unsqueeze_(0)`, `x.squeeze_()` of a size-1 dim) inside a
module exported by torch.export (non-strict, the default): eagerly the caller's x changes shape; export fails
producing its shape guards ("IndexError: list index out of range" in ShapeEnv.produce_guards_verbose: the guards are
built from the input's new rank against its old sizes). `transpose_` (the same rank) exports and runs as eagerly.
Found by `python -m copysuite fuzz --execution export` (seed 7); seen on torch 2.13.0 and 2.14.1. No upstream report
of export's path found; the same IndexError under torch.compile is issue 129673 (closed, fixed in dynamo for the
input itself) and issue 198100 (open, through a no-op alias of the input)."""
import sys
import torch


class Program(torch.nn.Module):
    def forward(self, x):
        x.unsqueeze_(0)
        return x + 1


x = torch.arange(3.0)
print(f"torch {torch.__version__} eager: {tuple(Program()(x).shape)}, x now {tuple(x.shape)}")
try:
    exported = torch.export.export(Program(), (torch.arange(3.0),)).module()
    x = torch.arange(3.0)
    print(f"torch {torch.__version__} exported: {tuple(exported(x).shape)}, x now {tuple(x.shape)}")
    reproduces = tuple(x.shape) != (1, 3)
except Exception as exc:  # noqa: BLE001 - what export raises is the report
    print(f"torch {torch.__version__} export raised {type(exc).__name__}: {str(exc).splitlines()[0][:160]}")
    # the bug: eager changes x's rank, export fails producing its shape guards
    reproduces = True
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""An in-place view op that changes the rank of an input (`x.unsqueeze_(0)`, `x.squeeze_()` of a size-1 dim) inside a
module exported by torch.export (non-strict, the default): eagerly the caller's x changes shape; export fails
producing its shape guards ("IndexError: list index out of range" in ShapeEnv.produce_guards_verbose: the guards are
built from the input's new rank against its old sizes). An out= call that resizes its out, an input, to another rank
(`torch.kron(y, torch.ones(10, 20), out=x)`, x 1-d) fails so too. `transpose_` (the same rank) exports and runs as
eagerly. Found by `python -m copysuite fuzz --execution export` (seed 7; the out= form by `--execution
export.decomposed --vocabulary surface`, seed 6404, where export alone raises the same); seen on torch 2.13.0 and
2.14.1. No upstream report of export's path found; the same IndexError under torch.compile is issue 129673 (closed,
fixed in dynamo for the input itself) and issue 198100 (open, through a no-op alias of the input)."""
import sys
import torch


class Program(torch.nn.Module):
    def forward(self, x):
        x.unsqueeze_(0)
        return x + 1


class OutResize(torch.nn.Module):
    def forward(self, y, x):
        torch.kron(y, torch.ones((10, 20)), out=x)
        return x + 1


def differs(name, program, make):
    x = make()[-1]
    program()(*make()[:-1], x)
    print(f"torch {torch.__version__} {name} eager: x now {tuple(x.shape)}")
    eager = tuple(x.shape)
    try:
        exported = torch.export.export(program(), make()).module()
        args = make()
        exported(*args)
        print(f"torch {torch.__version__} {name} exported: x now {tuple(args[-1].shape)}")
        return tuple(args[-1].shape) != eager
    except Exception as exc:  # noqa: BLE001 - what export raises is the report
        print(f"torch {torch.__version__} {name} export raised {type(exc).__name__}: {str(exc).splitlines()[0][:160]}")
        # the bug: eager changes x's rank, export fails producing its shape guards
        return True


found = [differs("unsqueeze_", Program, lambda: (torch.arange(3.0),)),
         differs("kron out=", OutResize, lambda: (torch.ones(1), torch.zeros(1)))]
reproduces = any(found)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

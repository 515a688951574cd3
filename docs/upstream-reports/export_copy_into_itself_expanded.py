"""`x.copy_(x)` (or `x[...] = x`, or through `y = x.to(x.dtype)`, which is x itself) where x is expanded (a stride
0): eagerly a copy of a tensor into itself returns at once (copy_'s same-tensor shortcut), so it runs; in a module
exported by torch.export the copy is checked for internal overlap first and export fails ("more than one element of
the written-to tensor refers to a single memory location"). Found by `python -m copysuite fuzz --execution export`
(seed 7); seen on torch 2.13.0 and 2.14.1. No upstream report found (closest: issue 165409, the same refusal under
torch.compile for a write into an overlapping intermediate)."""
import sys
import torch


class Program(torch.nn.Module):
    def forward(self, x):
        x.copy_(x)
        return x + 1


def inputs():
    return (torch.arange(3.0).expand(2, 3),)


print(f"torch {torch.__version__} eager: {Program()(*inputs()).tolist()}")
try:
    exported = torch.export.export(Program(), inputs()).module()
    print(f"torch {torch.__version__} exported: {exported(*inputs()).tolist()}")
    reproduces = False
except Exception as exc:  # noqa: BLE001 - what export raises is the report
    print(f"torch {torch.__version__} export raised {type(exc).__name__}: {str(exc).splitlines()[0][:160]}")
    # the bug: eager runs the program, export refuses it
    reproduces = True
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

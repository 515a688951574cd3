"""`x.data = y` inside a module exported by torch.export (non-strict, the default) is not replayed by the exported
module: eagerly the caller's x holds y's memory afterwards (and a write to x after it reaches y); the exported
module leaves x as it was, and the write lands in x's old memory. Silent: nothing is raised or warned. Found by
`python -m copysuite fuzz --execution export`; seen on torch 2.13.0 and 2.14.1. No upstream report found (closest:
issue 94773, `.data =` with a live alias under torch.compile; under torch.compile dynamo lowers `.data =` to set_(),
issue 139152)."""
import sys
import torch


class Program(torch.nn.Module):
    def forward(self, x, y):
        x.data = y
        x.add_(1)
        return x


def inputs():
    return torch.zeros(3), torch.arange(3.0)


x, y = inputs()
Program()(x, y)
print(f"torch {torch.__version__} eager:    x {x.tolist()}, y {y.tolist()}, x shares y's memory: "
      f"{x.data_ptr() == y.data_ptr()}")
eager = (x.tolist(), y.tolist(), x.data_ptr() == y.data_ptr())
exported = torch.export.export(Program(), inputs()).module()
x, y = inputs()
exported(x, y)
print(f"torch {torch.__version__} exported: x {x.tolist()}, y {y.tolist()}, x shares y's memory: "
      f"{x.data_ptr() == y.data_ptr()}")
# the bug: the exported module leaves the caller's x and y in another state than eager does
reproduces = (x.tolist(), y.tolist(), x.data_ptr() == y.data_ptr()) != eager
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

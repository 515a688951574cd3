"""`x.view(-1)` of a tensor whose strides allow no such view: eagerly a RuntimeError ("view size is not compatible
with input tensor's size and stride"); in a module exported by torch.export a ValueError ("Cannot view a tensor with
shape ... and strides ... as a tensor with shape ..."), raised by the Python reference that fake tensors run
(torch/_refs, _reshape_view_helper), so a caller's `except RuntimeError` no longer catches it. Found by
`python -m copysuite fuzz --execution export` (seed 7); seen on torch 2.13.0 and 2.14.1. No upstream report of the
class found (closest: issue 153303, open, on keeping _reshape_view_helper's decisions those of eager; PR 162809,
closed, names the ValueError where eager's view_copy runs)."""
import sys
import torch


class Program(torch.nn.Module):
    def forward(self, x):
        return x.view(-1)


def inputs():
    return (torch.arange(6.0).reshape(2, 3).t(),)


raised = {}
for name, run in (("eager", lambda: Program()(*inputs())),
                  ("exported", lambda: torch.export.export(Program(), inputs()).module()(*inputs()))):
    try:
        run()
        raised[name] = None
        print(f"torch {torch.__version__} {name}: ran")
    except Exception as exc:  # noqa: BLE001 - the class raised is the report
        raised[name] = type(exc).__name__
        print(f"torch {torch.__version__} {name} raised {type(exc).__name__}: {str(exc).splitlines()[0][:100]}")
# the bug: the exported module raises another class than eager's RuntimeError
reproduces = raised["exported"] != raised["eager"]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""Ops whose eager check torch.export's tracing (fake tensors) does not run: `x.clamp_(max=2)` on a complex tensor
(eagerly NotImplementedError "clamp is not supported for complex types") exports, and the exported module raises
eager's error only when called; and on 2.14.1 `w - 0` on a bool TwoTensor (torch.testing._internal; eagerly
NotImplementedError, the class 2.14 gave bool subtraction) traces too (the fuzzer's program, before a `set_` to
another dtype; not in this script). So a program with a later op that fails in
tracing (`diagonal()` of a 1-d tensor: IndexError; `set_` to another dtype: RuntimeError) fails export with that
error instead of eager's, and a caller's `except NotImplementedError` no longer catches it. Found by
`python -m copysuite fuzz --execution export` (seed 7); seen on torch 2.13.0 and 2.14.1. No upstream report found."""
import sys
import torch


class CheckedLate(torch.nn.Module):
    def forward(self, x):
        x.clamp_(max=2)
        return x + 1


class LaterOpFails(torch.nn.Module):
    def forward(self, x):
        x.clamp_(max=2)
        return x.diagonal()


def inputs():
    return (torch.arange(3.0).to(torch.complex64),)


raised = {}
for program in (CheckedLate(), LaterOpFails()):
    for side, run in (("eager", lambda: program(*inputs())),
                      ("exported", lambda: torch.export.export(program, inputs()).module()(*inputs()))):
        try:
            run()
            raised[type(program).__name__, side] = None
            print(f"torch {torch.__version__} {type(program).__name__} {side}: ran")
        except Exception as exc:  # noqa: BLE001 - the class raised is the report
            raised[type(program).__name__, side] = type(exc).__name__
            print(f"torch {torch.__version__} {type(program).__name__} {side} raised {type(exc).__name__}: "
                  f"{str(exc).splitlines()[0][:80]}")
# the bug: a program eager refuses with NotImplementedError fails export with another class (or is not refused)
reproduces = raised["LaterOpFails", "exported"] != raised["LaterOpFails", "eager"]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""`relu()` of a complex tensor that requires grad: eagerly NotImplementedError ("clamp is not supported for complex
types", the CPU kernel's check); under torch.compile (backend="eager" already, dynamo's fake-tensor call) and
torch.export a RuntimeError ("relu does not support automatic differentiation for outputs with complex dtype",
autograd's check), so a caller's `except NotImplementedError` no longer catches it. relu's meta kernel (the Python
reference, torch._refs.nn.functional.relu, `torch.where(a <= 0, 0, a)`) accepts a complex input, so under fake
tensors the autograd kernel's complex check runs first; without grad the compiled call raises eager's error (at run
time). Found by `python -m copysuite fuzz --execution compile.aot_eager` (seed 1, COPYSUITE_FUZZ_SHAPES=module);
seen on torch 2.13.0 and 2.14.1. No upstream report found; closest: issue 184340 (torch.compile wraps IndexError in
other classes; fixed by PR 184856, so upstream keeps eager's class), issue 198192, issue 150993 (bdhirsh: "If eager is
raising an error, we should probably make sure that compile raises that same error")."""
import sys

import torch


def program(a):
    return a.relu()


class Program(torch.nn.Module):
    def forward(self, a):
        return a.relu()


def inputs():
    return (torch.arange(3.0).to(torch.complex64).requires_grad_(),)


with torch._subclasses.fake_tensor.FakeTensorMode():
    fake = torch.zeros(3, dtype=torch.complex64)
    print(f"torch {torch.__version__}: relu of a complex fake tensor (no grad): {fake.relu().dtype}")

raised = {}
sides = (("eager", lambda: program(*inputs())),
         ("compile backend=eager", lambda: torch.compile(program, backend="eager")(*inputs())),
         ("compile backend=aot_eager", lambda: torch.compile(program, backend="aot_eager")(*inputs())),
         ("export", lambda: torch.export.export(Program(), inputs()).module()(*inputs())))
for side, run in sides:
    try:
        run()
        raised[side] = None
        print(f"torch {torch.__version__} {side}: ran")
    except Exception as exc:  # noqa: BLE001 - the class raised is the report
        raised[side] = exc
        print(f"torch {torch.__version__} {side} raised {type(exc).__name__} (a NotImplementedError: "
              f"{isinstance(exc, NotImplementedError)}): {str(exc).splitlines()[0][:100]}")
# the bug: eager refuses with NotImplementedError, a compiled or exported call with an exception of no such class
eager = type(raised["eager"])
reproduces = any(not isinstance(exc, eager) for side, exc in raised.items() if side != "eager")
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""`torch.slice_scatter(b, src, 0, 0)` with a src of the wrong size, which eager refuses ("expected src to have a
size equal to the slice of self"): on a plain tensor export traces it (the fake kernel does not check src's size)
and the exported module raises eager's RuntimeError when called; on a wrapper subclass (TwoTensor of
torch.testing._internal, holding an input at a storage offset) export fails first, with the subclass's own
AssertionError ("Expected a.storage_offset() == b.storage_offset()"), because the fake results of its two inner
tensors come out at different offsets. A caller's `except RuntimeError` no longer catches it. Found by
`python -m copysuite fuzz --execution export` (seed 7; the same assertion under compile.eager in docs/fuzz.md); seen
on torch 2.13.0 and 2.14.1. No upstream report found."""
import torch
from torch.testing._internal.two_tensor import TwoTensor


class Program(torch.nn.Module):
    def forward(self, b):
        return torch.slice_scatter(b, b.view(torch.uint8), 0, 0)


def plain():
    return torch.arange(3.0).as_strided((1,), (1,), 2)


def wrapped():
    a = plain()
    return TwoTensor(a, a)


for name, make in (("plain", plain), ("TwoTensor", wrapped)):
    for side, run in (("eager", lambda: Program()(make())),
                      ("exported", lambda: torch.export.export(Program(), (make(),)).module()(make()))):
        try:
            run()
            print(f"torch {torch.__version__} {name} {side}: ran")
        except Exception as exc:  # noqa: BLE001 - the class raised is the report
            print(f"torch {torch.__version__} {name} {side} raised {type(exc).__name__}: "
                  f"{str(exc).splitlines()[0][:90]}")

"""An intermediate changed by an in-place view op (transpose_, squeeze_, unsqueeze_, as_strided_) and returned: in
eager it is not a view (the op only changes its own metadata; issue 47704 discusses why), so the caller may write
into it; compiled by an AOTAutograd backend it comes back as a view of another intermediate, and with grad on a
write into it raises. Seen on torch 2.13.0 (found by `python -m copysuite fuzz`); no upstream issue found."""
import sys

import torch


def program(a):
    t = a * 2
    return t.transpose_(0, 1)


backend = sys.argv[1] if len(sys.argv) > 1 else "aot_eager"
for name, fn in (("eager", program), (backend, torch.compile(program, backend=backend))):
    out = fn(torch.ones(2, 3, requires_grad=True))
    try:
        out.add_(1)
        wrote = "write ok"
    except RuntimeError as exc:
        wrote = f"write raised: {str(exc).splitlines()[0][:120]}"
    print(f"{name:10s} torch {torch.__version__}: is a view: {out._is_view()}; {wrote}")

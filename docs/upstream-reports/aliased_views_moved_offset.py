"""One compiled function, called on a tensor and a view of it (aliased inputs, one written) at the start of their
storage, then on the same pair of views at another storage offset: the same shapes, strides and aliasing, so dynamo
reuses the graph, and AOTAutograd rebuilds the inputs from their synthetic base at the offsets it traced. The write
lands on the first elements of the storage, not on the tensor passed in, and the result is read from there (aot_eager:
silent; inductor: an `assert_size_stride` on the base fails). A new function at offset 3 alone is right: the second
call is the bug. Seen on torch 2.13.0 (and the releases in specs/compiled.yaml's record on
`compiled.overlapping_views_moved`). Upstream: issue 139789 (open) is the aliasing-guard issue this is a case of; PR
184481 ("Guard synthetic-base input alias layouts", closed unmerged) added the guard on the storage offsets and a
test of exactly this; no issue reports the storage-offset case itself."""
import sys

import torch


def program(source, b):
    source.neg_()
    return -b


backend = sys.argv[1] if len(sys.argv) > 1 else "aot_eager"
compiled = torch.compile(program, backend=backend, fullgraph=True, dynamic=False)
storage = torch.arange(1.0, 11.0)
w = storage[:6].clone().view(2, 3)
compiled(w, w[:])                                           # first call: views at storage offset 0
wrong = False
for name, fn in [("eager", program), (backend, compiled)]:
    storage = torch.arange(1.0, 11.0)
    source = storage.as_strided((2, 3), (3, 1), 3)          # the same views, at storage offset 3
    before = source.clone()
    try:
        result = fn(source, source[:])
        if name != "eager":
            wrong = not torch.equal(result, before) or storage[:3].tolist() != [1.0, 2.0, 3.0]
        print(f"{name:10s} torch {torch.__version__}: result == source before: {torch.equal(result, before)}; "
              f"storage after: {storage.tolist()}")
    except Exception as exc:  # noqa: BLE001 - the compiled call's error is what this script reports
        wrong = wrong or name != "eager"
        print(f"{name:10s} torch {torch.__version__}: {type(exc).__name__}: {str(exc).splitlines()[0]}")
# the bug: the second call writes and reads the first elements of the storage (or fails), not the tensor passed in
reproduces = wrong
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

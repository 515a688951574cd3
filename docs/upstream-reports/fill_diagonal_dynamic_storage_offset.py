"""`x.fill_diagonal_(5.0)` in a function compiled with dynamic=True fails while dynamo runs it on fake tensors
("Cannot call storage_offset() on tensor with symbolic sizes/strides": the kernel reads the non-symbolic
storage_offset()); static shapes and eager fill the diagonal. Seen failing on torch 2.2.2, 2.4.1, 2.6.0 and 2.8.0;
2.10.0 compiles it (2.9 not run; no upstream issue or fixing PR found)."""
import sys

import torch


def program(x):
    return x.fill_diagonal_(5.0)


failed = {}
for dynamic in (False, True):
    torch._dynamo.reset()
    x = torch.zeros(3, 4)
    try:
        r = torch.compile(program, backend="aot_eager", dynamic=dynamic)(x)
        failed[dynamic] = False
        print(f"dynamic={dynamic!s:5s} torch {torch.__version__}: ok, diagonal {r.diagonal().tolist()}")
    except Exception as e:                    # noqa: BLE001
        failed[dynamic] = True
        print(f"dynamic={dynamic!s:5s} torch {torch.__version__}: {type(e).__name__}: "
              f"{' '.join(str(e).split())[:200]}")
# the bug: static shapes compile, dynamic shapes fail
reproduces = failed[True] and not failed[False]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

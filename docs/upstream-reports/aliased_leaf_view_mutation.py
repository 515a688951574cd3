"""A leaf that requires grad and a view of it, passed to one compiled function that writes through the view where
autograd allows it (under no_grad, or through an integer dtype view): eager writes, every AOTAutograd backend fails
to compile with an internal assertion ("any_leaf=True != all_leaf=False": leaf-ness of aliased inputs must be all
or nothing, torch/_functorch/_aot_autograd/input_output_analysis.py, create_synthetic_base_metadata), although a
view of a leaf is never a leaf. Seen on torch 2.13.0 (found by `python -m copysuite fuzz`); no upstream issue found
(searched the issues corpus for the message and for aliased leaf inputs)."""
import sys

import torch


def under_no_grad(a, b):
    with torch.no_grad():
        b.add_(1)
    return a


def int_view(a, b):
    b.view(torch.int32).zero_()
    return a


backend = sys.argv[1] if len(sys.argv) > 1 else "aot_eager"
compile_failed = []
for fn in (under_no_grad, int_view):
    for name, run in (("eager", fn), (backend, torch.compile(fn, backend=backend))):
        leaf = torch.arange(4.0).requires_grad_()
        try:
            print(f"{fn.__name__:14s} {name:10s} torch {torch.__version__}: {run(leaf, leaf[:2]).tolist()}")
        except Exception as exc:  # noqa: BLE001 - the compiled call's error is what this script reports
            compile_failed.append(name != "eager" and "any_leaf" in str(exc))
            print(f"{fn.__name__:14s} {name:10s} torch {torch.__version__}: {type(exc).__name__}: "
                  f"{(str(exc).strip().splitlines()[1:] or [''])[0][:160]}")
# the bug: eager writes through the view, the compiled function fails AOTAutograd's all-or-no-leaves assertion
reproduces = any(compile_failed)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

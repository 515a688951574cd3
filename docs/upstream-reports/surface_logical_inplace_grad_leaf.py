"""logical_and_, logical_or_, logical_xor_ and logical_not_ write into a leaf that requires grad without the error
every other in-place op raises ("a leaf Variable that requires grad is being used in an in-place operation"; eq_,
add_, ... raise it). Seen on 2.13.0, eagerly and under torch.compile(backend="aot_eager"), by the operator surface's
cells (copysuite/surface, docs/surface.md).
"""
import sys
import torch

refused = {}
for name in ("eq_", "logical_and_", "logical_or_", "logical_xor_"):
    x = torch.randn(3, requires_grad=True)
    try:
        getattr(x, name)(torch.ones(3))
        refused[name] = False
        print(f"{name}: no error; the leaf now holds {x.detach().tolist()}, version {x._version}")
    except RuntimeError as exc:
        refused[name] = True
        print(f"{name}: {exc}")
x = torch.randn(3, requires_grad=True)
try:
    x.logical_not_()
    refused["logical_not_"] = False
    print(f"logical_not_: no error; the leaf now holds {x.detach().tolist()}")
except RuntimeError as exc:
    refused["logical_not_"] = True
    print(f"logical_not_: {exc}")
# the bug: a logical_*_ op overwrites a leaf that requires grad where eq_ (the rule) refuses
reproduces = refused["eq_"] and not all(v for n, v in refused.items() if n != "eq_")
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

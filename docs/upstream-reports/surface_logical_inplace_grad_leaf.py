"""logical_and_, logical_or_, logical_xor_ and logical_not_ write into a leaf that requires grad without the error
every other in-place op raises ("a leaf Variable that requires grad is being used in an in-place operation"; eq_,
add_, ... raise it). Seen on 2.13.0, eagerly and under torch.compile(backend="aot_eager"), by the operator surface's
cells (copysuite/surface, docs/surface.md).
"""
import torch

for name in ("eq_", "logical_and_", "logical_or_", "logical_xor_"):
    x = torch.randn(3, requires_grad=True)
    try:
        getattr(x, name)(torch.ones(3))
        print(f"{name}: no error; the leaf now holds {x.detach().tolist()}, version {x._version}")
    except RuntimeError as exc:
        print(f"{name}: {exc}")
x = torch.randn(3, requires_grad=True)
x.logical_not_()
print(f"logical_not_: no error; the leaf now holds {x.detach().tolist()}")

"""addbmm_ resizes self to the broadcast shape of the product instead of refusing, although in-place operations "do
not allow the in-place tensor to change shape as a result of the broadcast"
(https://pytorch.org/docs/stable/notes/broadcasting.html; add_ refuses the same). On a view, the storage both share
is resized under the base, which keeps its shape (1,). Seen on 2.13.0 with the OpInfo sample `addbmm` #1 (self of
shape (1,)).
"""
import sys
import torch

b1, b2 = torch.randn(5, 5, 5), torch.randn(5, 5, 10)
x = torch.randn(1)
try:
    resized = tuple(x.addbmm_(b1, b2).shape) != (1,)
    print("addbmm_:", tuple(x.shape), "(self was (1,))")
except RuntimeError as exc:
    resized = False
    print("addbmm_ refuses:", exc)
try:
    torch.randn(1).add_(torch.randn(5, 10))
except RuntimeError as exc:
    print("add_:", exc)
base = torch.randn(1)
view = base.view(1)
try:
    view.addbmm_(b1, b2)
except RuntimeError as exc:
    print("addbmm_ on a view refuses:", exc)
print("view:", tuple(view.shape), "base:", tuple(base.shape), "shares storage:",
      view.untyped_storage().data_ptr() == base.untyped_storage().data_ptr())
# the bug: addbmm_ resizes self where add_ (every other in-place op) refuses to change its shape
reproduces = resized
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

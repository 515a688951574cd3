"""addbmm_ resizes self to the broadcast shape of the product instead of refusing, although in-place operations "do
not allow the in-place tensor to change shape as a result of the broadcast"
(https://pytorch.org/docs/stable/notes/broadcasting.html; add_ refuses the same). On a view, the storage both share
is resized under the base, which keeps its shape (1,). Seen on 2.13.0 with the OpInfo sample `addbmm` #1 (self of
shape (1,)).
"""
import torch

b1, b2 = torch.randn(5, 5, 5), torch.randn(5, 5, 10)
x = torch.randn(1)
print("addbmm_:", tuple(x.addbmm_(b1, b2).shape), "(self was (1,))")
try:
    torch.randn(1).add_(torch.randn(5, 10))
except RuntimeError as exc:
    print("add_:", exc)
base = torch.randn(1)
view = base.view(1)
view.addbmm_(b1, b2)
print("view:", tuple(view.shape), "base:", tuple(base.shape), "shares storage:",
      view.untyped_storage().data_ptr() == base.untyped_storage().data_ptr())

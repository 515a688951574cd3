"""torch.nested.as_nested_tensor(t) with the default strided layout, eager: its page promises the input's storage
is used directly when the input is contiguous and copied otherwise, so each constituent (unbind()) holds that
row's values. Two inputs break it:
- a contiguous tensor at a storage offset is read from the start of its storage: 2.8.0 ... 2.14.1 (2.4.1 and 2.6.0
  fail an internal assert instead, "buffer_storage_size == num_elements_nested_size");
- from 2.13 a tensor whose one dim of size > 1 has a stride other than 1 (expanded, or stepped) is flattened with
  reshape(-1) into a view that the nested tensor reads as contiguous: wrong values (2.12 had contiguous().view(-1)).
Found by specs/sparse_nested.yaml's `torch.nested.as_nested_tensor:tensor` (those placements are left out of it)."""
import sys
import torch

base = torch.arange(8.0)
cases = {
    "offset": base[2:].view(2, 3),                       # rows [2, 3, 4], [5, 6, 7]
    "expanded": torch.tensor([[0.0]]).expand(1, 2),      # one row [0, 0]: shape (1, 2), strides (1, 0)
    "stepped": base[::2][:2].view(1, 2),                 # one row [0, 2]: shape (1, 2), strides (2, 2)
}
wrong = []
for name, t in cases.items():
    try:
        rows = [r.tolist() for r in torch.nested.as_nested_tensor(t).unbind()]
    except RuntimeError as exc:
        rows = f"RuntimeError: {str(exc).splitlines()[0]}"
    print(f"torch {torch.__version__} {name:8s}: expected {t.tolist()}, got {rows}")
    wrong.append(rows != t.tolist())
# the bug: any of the three inputs read wrong (or refused), where each constituent should hold its row
reproduces = any(wrong)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

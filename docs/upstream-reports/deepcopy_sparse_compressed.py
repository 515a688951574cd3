"""copy.deepcopy of a sparse CSR, CSC, BSR or BSC tensor raises NotImplementedError ("Cannot access storage of
SparseCsrTensorImpl"), where a COO tensor's deepcopy and every layout's clone() work. Tensor.__deepcopy__
(torch/_tensor.py) clones only `self.is_sparse` tensors (COO); the compressed layouts have no storage (PR 70072 made
storage access throw for them) yet go down the path that deep-copies the storage. So copy.deepcopy of a module or a
container holding one fails. Seen on torch 2.2.2, 2.13.0 and 2.14.1 (CPU), and by the suite's sparse history probe on
1.13.1, 2.0.1, 2.2.2, 2.4.1, 2.6.0, 2.7.1, 2.8.0, 2.13.0 and 2.14.1. No upstream report found (issues searched for deepcopy with CSR/compressed
layouts)."""
import copy
import sys

import torch

dense = torch.tensor([[1.0, 0.0], [0.0, 2.0]])
layouts = {"coo": lambda: dense.to_sparse(), "csr": dense.to_sparse_csr, "csc": dense.to_sparse_csc,
           "bsr": lambda: dense.to_sparse_bsr((1, 1)), "bsc": lambda: dense.to_sparse_bsc((1, 1))}
refused = []
for name, make in layouts.items():
    t = make()
    clone_ok = torch.equal(t.clone().to_dense(), dense)
    try:
        copied = copy.deepcopy(t)
        seen = f"a {copied.layout} copy, values equal: {torch.equal(copied.to_dense(), dense)}"
    except Exception as e:                    # noqa: BLE001 - the class raised is what is reported
        seen = f"{type(e).__name__}: {str(e).splitlines()[0][:80]}"
        refused.append(name)
    print(f"torch {torch.__version__} {name}: clone() works: {clone_ok}; copy.deepcopy: {seen}")
reproduces = bool(set(refused) & {"csr", "csc", "bsr", "bsc"})
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

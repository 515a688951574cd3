"""`torch._softmax_backward_data(grad, output, dim, input_dtype)` with `input_dtype` other than the tensors' dtype
(float64 tensors, input_dtype float32): the CPU kernel returns float64, the meta kernel (what torch.export records)
says float64, and the module of torch.export.export returns float64; after `run_decompositions()` the Python
decomposition (torch/_decomp/decompositions.py, _softmax_backward_data) casts its result to input_dtype and the
module returns float32. The decomposition says so itself: "CPU kernel doesn't respect input_dtype, but following
check doesn't work for meta tensor" (the cast came with PR 85497, for half inputs under autocast). Found by
`python -m copysuite fuzz --vocabulary surface --execution export.decomposed` (seed 5203); seen on torch 2.13.0 and
2.14.1. No upstream report of the CPU difference found (closest: issue 63057, open, on the CPU kernel allowing grad and
input of different dtypes)."""
import sys
import torch


class Program(torch.nn.Module):
    def forward(self, grad):
        return torch._softmax_backward_data(grad, grad, 0, torch.float32)


def make():
    return torch.arange(8.0, dtype=torch.float64).reshape(2, 2, 2)


dtypes = {"eager": Program()(make()).dtype}
ep = torch.export.export(Program(), (make(),))
dtypes["exported"] = ep.module()(make()).dtype
dtypes["decomposed"] = ep.run_decompositions().module()(make()).dtype
for how, dtype in dtypes.items():
    print(f"torch {torch.__version__} {how}: {dtype}")
# the bug: the decomposed module returns another dtype than the kernel it stands for
reproduces = dtypes["decomposed"] != dtypes["eager"]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""An out= tensor of another shape, resized by the call (`torch.abs(c, out=b)`, b of shape (1,), c of shape (2, 2)
with strides (1, 2)): eagerly b is resized to the result's layout, which follows c's (strides (1, 2)); under
torch.func.functionalize b is resized to contiguous strides (2, 1). functionalize copies an input's metadata change
back with resize_() to the new sizes and then copy_() of the new value (torch/csrc/functorch/init.cpp,
_propagate_functional_input_mutation), and resize_() makes contiguous strides. The values read through b's indices
agree; its strides, and so what a view of it or a dtype view of it reads, do not. Found by `python -m copysuite fuzz
--execution functionalize --vocabulary surface` (seed 5202); seen on torch 2.13.0 and 2.14.1. No upstream report
found (the out= contract, https://docs.pytorch.org/docs/stable/notes/out.html: an out tensor of another shape "is
resized to the same shape, stride, and memory format of the output computation")."""
import sys

import torch


def program(b, c):
    return torch.abs(c, out=b)


def strides(fn):
    b = torch.zeros(1)
    c = torch.arange(4.0).as_strided((2, 2), (1, 2))
    fn(b, c)
    return tuple(b.shape), b.stride()


eager = strides(program)
functionalized = strides(torch.func.functionalize(program))
print(f"torch {torch.__version__} b's shape and strides after the call: eager {eager}, functionalize "
      f"{functionalized}")
# the bug: the resized out= input's strides differ from eager's
reproduces = eager != functionalized
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""`torch._native_batch_norm_legit(x, None, None, running_mean, running_var, True, 0.5, 0.6)` in training mode on an
input with one value per channel (`x` of shape (1, 2)): eagerly the op runs (the output is zeros, the running variance
becomes NaN: the unbiased correction n / (n - 1) with n = 1), compiled with aot_eager (or backend "eager") the call
fails while dynamo runs the op on fake tensors: the Python decomposition computes that correction in Python floats
and raises ZeroDivisionError ("float division by zero"), wrapped as TorchRuntimeError. F.batch_norm refuses such an
input eagerly ("Expected more than 1 value per channel when training"), the ATen op does not, so eager and compiled
disagree on whether the call is valid. Found by `python -m copysuite fuzz --execution compile.aot_eager --vocabulary
surface` on 2.14.1 (seed 6501); seen on torch 2.13.0 and 2.14.1, CPU. Upstream: PR 120882 ("torch check the division
by zero in batch_norm_update_stats", closed) is the same division in another op; no report of this one found."""
import sys

import torch


def program(x, running_mean, running_var):
    return torch._native_batch_norm_legit(x, None, None, running_mean, running_var, True, 0.5, 0.6)[0]


backend = sys.argv[1] if len(sys.argv) > 1 else "aot_eager"
seen = {}
for name, fn in (("eager", program), (backend, torch.compile(program, backend=backend))):
    x, running_mean, running_var = torch.arange(2.0).reshape(1, 2), torch.zeros(2), torch.ones(2)
    try:
        out = fn(x, running_mean, running_var)
        seen[name] = None
        print(f"{name:10s} torch {torch.__version__}: ran, out {out.tolist()}, running_var {running_var.tolist()}")
    except Exception as exc:  # noqa: BLE001 - the compiled call's error is what this script reports
        seen[name] = type(exc).__name__
        said = " ".join(str(exc).split())
        said = said[said.find("got "):][:100] if "got " in said else said[:200]   # fake tensors' inner error
        print(f"{name:10s} torch {torch.__version__}: {type(exc).__name__}: ... {said}")
# the bug: the compiled call fails on the decomposition's Python division where eager's op runs
reproduces = seen["eager"] is None and seen[backend] is not None
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

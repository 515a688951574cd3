"""torch.compile (inductor) drops eager's dtype check of fractional_max_pool3d's `_random_samples`.

Eagerly, F.fractional_max_pool3d refuses `_random_samples` of another dtype than the input ("Expect _random_samples
to have the same dtype as input", the check PR 89992 added in aten/src/ATen/native/FractionalMaxPooling.h). Under
torch.compile with inductor, float64 samples with a float32 input are accepted and a result is returned. aot_eager
runs the eager kernel and raises as eager does. Found by the module sweep (python -m copysuite modules): module_db's
own FractionalMaxPool3d sample builds its samples in float64 and fails eagerly at float32.

Seen on torch 2.13.0 and 2.14.1 (CPU). Run: python fractional_max_pool3d_samples_dtype.py. Exit 1 while inductor accepts what eager refuses.
"""
import sys

import torch
import torch.nn.functional as F


def pool(x, samples):
    return F.fractional_max_pool3d(x, 2, output_ratio=0.5, _random_samples=samples)


torch.manual_seed(0)
x = torch.randn(2, 4, 5, 5, 5)
samples = torch.rand(2, 4, 3, dtype=torch.float64)
outcome = {}
for name, run in (("eager", pool), ("aot_eager", torch.compile(pool, backend="aot_eager")),
                  ("inductor", torch.compile(pool, backend="inductor"))):
    try:
        out = run(x, samples)
        outcome[name] = "returned"
        print(f"{name:9s} torch {torch.__version__}: returned {out.dtype} {tuple(out.shape)}")
    except Exception as exc:  # noqa: BLE001 - each side's error is what this script reports
        outcome[name] = "raised"
        print(f"{name:9s} torch {torch.__version__}: {type(exc).__name__}: {str(exc).strip().splitlines()[0][:120]}")
# the bug: inductor accepts samples of another dtype, which eager refuses
reproduces = outcome["eager"] == "raised" and outcome["inductor"] == "returned"
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""torch.nn.functional.linear with a 1-D input and out= warns that it resized a non-empty out ("An output with one or
more elements was resized since it had shape [4], which does not match the required output shape [1, 4]") although
out already has the result's shape [4], and ends with that shape. Seen on 2.13.0 with the OpInfo sample
`nn.functional.linear` #0, by the operator surface's out= cells (copysuite/surface).
"""
import sys
import warnings

import torch

x, w, b = torch.randn(3), torch.randn(4, 3), torch.randn(4)
expected = torch.nn.functional.linear(x, w, b)
out = torch.empty_like(expected)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.nn.functional.linear(x, w, b, out=out)
print("functional shape:", tuple(expected.shape), "out shape after:", tuple(out.shape))
print("warnings:", [str(w.message)[:120] for w in caught])
# the bug: a warning that an out of the right shape was resized
reproduces = any("resized" in str(w.message) for w in caught)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

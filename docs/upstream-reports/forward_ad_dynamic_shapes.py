"""Forward-mode AD inside a function compiled with dynamic shapes: make_dual of an input with a storage offset (or
non-contiguous strides) fails ("Cannot call storage_offset() on tensor with symbolic sizes/strides"; 2.14 reports it
as dynamo's "Observed exception"): `_make_dual` -> `_new_zeros_with_same_feature_meta` calls the non-symbolic
storage_offset(). Static shapes, or a contiguous input at offset 0, compile. Closest: PR 119926 (dynamo support of
dual_level), issue 187284 (tangents of dual inputs dropped)."""
import sys
import logging

import torch
import torch.autograd.forward_ad as fwAD

logging.getLogger("torch._subclasses.fake_tensor").setLevel(logging.CRITICAL)   # its C++ stack, not the error


def program(t):
    with fwAD.dual_level():
        dual = fwAD.make_dual(t, torch.ones_like(t))
        tangent = fwAD.unpack_dual(dual.detach()).tangent
    return tangent


failed = {}
for dynamic in (False, True):
    torch._dynamo.reset()
    t = torch.arange(8.0)[2:].view(2, 3)
    try:
        r = torch.compile(program, backend="aot_eager", fullgraph=True, dynamic=dynamic)(t)
        failed[dynamic] = False
        print(f"dynamic={dynamic!s:5s} torch {torch.__version__}: ok, tangent of the detached dual: {r}")
    except Exception as e:                    # noqa: BLE001
        failed[dynamic] = True
        print(f"dynamic={dynamic!s:5s} torch {torch.__version__}: {type(e).__name__}: "
              f"{str(e).splitlines()[0][:140]}")
# the bug: static shapes compile, dynamic shapes fail
reproduces = failed[True] and not failed[False]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

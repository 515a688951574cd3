"""Forward-mode AD's make_dual called inside a function compiled with dynamic shapes (a plain contiguous input, the
forward-AD level entered outside) fails to trace on 2.0 and 2.2, where static shapes compile and eager runs: 2.0.1
raises "Cannot call sizes() on tensor with symbolic sizes/strides", 2.2.2 "Expected !size_bytes_is_heap_allocated_
to be true" (fake tensor propagation of `_make_dual`). 2.4.1 compiles it (2.4 traces forward AD with symbolic shapes:
PR 119926 added dynamo's support of dual_level), as do 2.13.0 and 2.14.1; where a storage offset is involved the later
releases fail another way (forward_ad_dynamic_shapes.py). A second part: `aten._fw_primal(x, 0)` of the same input
fails so on 2.0.1 only (2.2.2 compiles it). Seen on 2.0.1 and 2.2.2 (the surface cells
surface.alias:_make_dual and _unpack_dual under both dynamic executions of the matrix regenerated at a5f7ea3)."""
import sys
import logging

import torch
import torch._dynamo
import torch.autograd.forward_ad as fwAD

logging.getLogger("torch._subclasses.fake_tensor").setLevel(logging.CRITICAL)   # its C++ stack, not the error


def make_dual(x, level):
    return torch._make_dual(x, torch.ones(3, 4), level)


def fw_primal(x, level):
    return torch.ops.aten._fw_primal(x, 0)


failed = {}
for program in (make_dual, fw_primal):
    for dynamic in (False, True):
        torch._dynamo.reset()
        x = torch.randn(3, 4, requires_grad=True)
        level = fwAD.enter_dual_level()
        where = f"{program.__name__:9s} dynamic={dynamic!s:5s} torch {torch.__version__}"
        try:
            r = torch.compile(program, backend="aot_eager", dynamic=dynamic)(x, level)
            failed[program, dynamic] = False
            print(f"{where}: ok, a {type(r).__name__} of shape {tuple(r.shape)}")
        except Exception as e:                    # noqa: BLE001
            failed[program, dynamic] = True
            said = f"{e}\n{e.__cause__}"         # 2.0 says the cause only in the chained exception
            print(f"{where}: {type(e).__name__}: "
                  f"{next((ln for ln in said.splitlines() if 'Cannot' in ln or 'Expected' in ln), said)[:160]}")
        finally:
            fwAD.exit_dual_level()
# the bug: static shapes compile, dynamic shapes fail (either part)
differs = [p.__name__ for p in (make_dual, fw_primal) if failed[p, True] and not failed[p, False]]
print(f"dynamic shapes fail: {differs}")
reproduces = bool(differs)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

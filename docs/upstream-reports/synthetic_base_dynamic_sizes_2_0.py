"""Two overlapping views of one tensor passed to a function compiled with an AOTAutograd backend and dynamic shapes
on torch 2.0, which writes through the first and returns the second: AOTAutograd merges the two inputs into a
synthetic base and, while tracing, regenerates each view from it (gen_alias_from_base, called by
unpack_synthetic_bases in torch/_functorch/aot_autograd.py), which asks the base for its non-symbolic sizes:
compiling fails with BackendCompilerFailed, "RuntimeError: Cannot call sizes() on tensor with symbolic
sizes/strides". Eager returns the second view, written through the first. Static shapes compile. Seen on torch
2.0.1 (aot_eager and inductor with dynamic=True: the matrix regeneration of issue 39, compiled.overlapping_views).
2.2.2 fails the same program with another error of the same path (merge_view_inputs hashes the SymInt sizes:
"unhashable type: non-singleton SymInt", issue 139111, fixed by PR 139553 in 2.6), 2.13.0 and 2.14.1 compile it. No
upstream issue found that reports the 2.0 message for this program."""
import sys

import torch
import torch._dynamo


def program(a, b):
    a.add_(1)
    return b


failed = {}
for name, fn in [("eager", program), ("aot_eager", torch.compile(program, backend="aot_eager", dynamic=True))]:
    torch._dynamo.reset()
    base = torch.zeros(4, 3)
    try:
        with torch.no_grad():
            r = fn(base, base[1:])
        print(f"{name:9s} torch {torch.__version__}: ok, result {r.flatten().tolist()}")
    except Exception as e:                    # noqa: BLE001
        failed[name] = f"{type(e).__name__}: {e}"
        print(f"{name:9s} torch {torch.__version__}: {failed[name].splitlines()[0][:200]}")
# the bug: the synthetic base's sizes() refused under dynamic shapes where eager runs the program
reproduces = "Cannot call sizes() on tensor with symbolic sizes/strides" in failed.get("aot_eager", "") \
    and "eager" not in failed
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

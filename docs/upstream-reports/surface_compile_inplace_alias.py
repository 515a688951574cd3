"""Under torch.compile(backend="aot_eager") on 2.13.0: x.polygamma_(1) fails to compile (functionalization calls
aten::polygamma_ "a custom (non-ATen) operator whose output has alias annotations"; its out-of-place form takes n
first: polygamma(n, self)); and aten.slice_inverse, which eagerly returns a view, fails in fake-tensor propagation.
Seen by the operator surface's cells (copysuite/surface). (aten.lift_fresh, also a new tensor compiled, is left out:
native_functions.yaml obliges a tracer to turn it into lift_fresh_copy, PR 81192.)
"""
import sys
import torch

seen = {}
for name, fn, make in [
        ("polygamma_", lambda x: x.polygamma_(1), lambda: torch.randn(3, 4)),
        ("slice_inverse", lambda x: torch.ops.aten.slice_inverse(x, torch.empty(3, 4), 1, 0, 2, 1),
         lambda: torch.randn(3, 4)[:, 0:2])]:
    for label, f in [("eager", fn), ("aot_eager", torch.compile(fn, backend="aot_eager"))]:
        x = make()
        try:
            result = f(x)
            seen[name, label] = (result is x, result.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())
            print(f"{name} {label}: result is x: {seen[name, label][0]}, shares storage: {seen[name, label][1]}")
        except Exception as exc:  # noqa: BLE001 - the reproduction prints whatever it raises
            seen[name, label] = type(exc).__name__
            print(f"{name} {label}: {type(exc).__name__}: {str(exc).splitlines()[0][:120]}")
# the bug: either of the two gives another result compiled than eagerly (a failure, or a new tensor for an alias)
reproduces = any(seen[name, "aot_eager"] != seen[name, "eager"] for name, _ in seen)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

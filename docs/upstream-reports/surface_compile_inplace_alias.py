"""Under torch.compile(backend="aot_eager") on 2.13.0: x.polygamma_(1) fails to compile (functionalization calls
aten::polygamma_ "a custom (non-ATen) operator whose output has alias annotations"; its out-of-place form takes n
first: polygamma(n, self)); aten.lift_fresh, which eagerly returns its argument itself, returns a new tensor; and
aten.slice_inverse, which eagerly returns a view, fails in fake-tensor propagation. Seen by the operator surface's
cells (copysuite/surface).
"""
import torch

for name, fn, make in [
        ("polygamma_", lambda x: x.polygamma_(1), lambda: torch.randn(3, 4)),
        ("lift_fresh", lambda x: torch.ops.aten.lift_fresh(x), lambda: torch.randn(3, 4)),
        ("slice_inverse", lambda x: torch.ops.aten.slice_inverse(x, torch.empty(3, 4), 1, 0, 2, 1),
         lambda: torch.randn(3, 4)[:, 0:2])]:
    for label, f in [("eager", fn), ("aot_eager", torch.compile(fn, backend="aot_eager"))]:
        x = make()
        try:
            result = f(x)
            print(f"{name} {label}: result is x: {result is x}, shares storage: "
                  f"{result.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()}")
        except Exception as exc:  # noqa: BLE001 - the reproduction prints whatever it raises
            print(f"{name} {label}: {type(exc).__name__}: {str(exc).splitlines()[0][:120]}")

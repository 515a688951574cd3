"""Two overlapping views of one tensor passed to a function compiled with dynamic=True that writes the first: when
the tensor has a size-1 dim whose stride is the product of the other sizes (shape (4, 4, 1), strides (1, 4, 16)),
AOTAutograd's synthetic base fails to compile: "RuntimeError: s97**2 (...) is not tracked with proxy for
<PythonKeyTracer ...>" (BackendCompilerFailed), under aot_eager and inductor, for a plain tensor and a view of a leaf
that requires grad alike, under no_grad, inference_mode or (plain) grad mode. Static shapes, and the same views with
the size-1 dim's stride 1, compile and write through as eager does. Seen on torch 2.8.0 and 2.13.0 (the
suite's compiled.overlapping_views cells under both dynamic executions, 2.8.0's regenerated matrix; issue 39); FIXED
on 2.14.1 (no fixing PR found). No upstream report found; closest issue 159709 (closed: the same message from
DTensor under dynamic shapes)."""
import sys

import torch


def program(a, b):
    a.add_(1)
    return b


def attempt(stride, dynamic):
    torch._dynamo.reset()
    base = torch.zeros(16)
    t = base.as_strided((4, 4, 1), stride, 0)
    a, b = t, t[1:]
    try:
        r = torch.compile(program, backend="aot_eager", fullgraph=True, dynamic=dynamic)(a, b)
        ok = bool((r == 1).all()) and r.data_ptr() == b.data_ptr()
        print(f"strides {stride} dynamic={dynamic!s:5s} torch {torch.__version__}: ok, b written: {ok}")
        return False
    except Exception as e:                    # noqa: BLE001
        lines = [line for line in str(e).splitlines() if line.strip() and "raised:" not in line]
        print(f"strides {stride} dynamic={dynamic!s:5s} torch {torch.__version__}: {type(e).__name__}: "
              f"{(lines or [''])[0][:150]}")
        return True


failed = {(s, d): attempt(s, d) for s in ((1, 4, 16), (1, 4, 1)) for d in (False, True)}
# the bug: only the size-1 dim with the large stride, only under dynamic shapes
reproduces = failed[((1, 4, 16), True)] and not failed[((1, 4, 16), False)] and not failed[((1, 4, 1), True)]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

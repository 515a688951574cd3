"""Any compiled function of a meta tensor that requires grad fails under inductor on 2.12.1 and 2.13.0: "AOT
Autograd failed to partition the joint forward-backward graph" (`empty_strided_default`: cannot recompute, cannot
save). Inductor's joint-graph pass replaces meta outputs with `empty_strided` nodes without metadata; the
partitioner's CSE merges the forward's and the backward's into one node, which the tangents-closure rule of PR 172885
wants from the forward, where it can be neither saved nor recomputed. 2.10.0 and 2.14.1 compile it (2.14's CSE keys
nodes by partition); aot_eager, CPU inputs and inputs that do not require grad hold; `torch._functorch.config.cse =
False` works around it. No upstream report or fix PR found (2026-11-25); FIXED on 2.14.1 without a PR that names it."""
import sys
import torch


def program(x):
    return x * 2


x = torch.empty(2, 3, device="meta", requires_grad=True)
failed = {}
for how, fn in [("eager", program), ("inductor", torch.compile(program, backend="inductor", fullgraph=True))]:
    try:
        r = fn(x)
        print(f"torch {torch.__version__} {how:8s}: ok {r.device} {tuple(r.shape)} requires_grad {r.requires_grad}")
        failed[how] = False
    except Exception as e:                    # noqa: BLE001
        failed[how] = True
        print(f"torch {torch.__version__} {how:8s}: {type(e).__name__}: {str(e).splitlines()[1 if len(str(e).splitlines()) > 1 else 0][:120]}")
# the bug: inductor fails to partition where eager runs
reproduces = failed["inductor"] and not failed["eager"]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

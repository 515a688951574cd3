"""A function of a meta tensor that requires grad, compiled by inductor with dynamic shapes, fails on 2.13.0 and
2.14.1 when an output's symbolic size (or stride) has three or more factors or terms, here 2*s0*s1: "Node mul_N
didn't have `val` metadata; we should always have `val` metadata on the nodes" (the partitioner's `_size_of`).
Inductor's joint-graph pass replaces meta outputs with `empty_strided`, whose sizes `Graph.materialize_symints` builds
(2.13 on) by folding the expression pairwise; only the last of the nodes it adds gets `val`. 2.8.0 - 2.12.1 pass the
SymInts as they are and compile it; CPU inputs, inputs that do not require grad, dynamic=False and aot_eager hold.
Found by the suite (`item:many_elements` on meta under compile.inductor.dynamic). No upstream report or fix found
(2026-11-25); PRs 183664/186272/186665 (Graph.materialize_symints) are the likely cause."""
import sys
import torch


def program(x):
    return torch.cat([x.reshape(-1), x.reshape(-1)])


x = torch.empty(2, 3, device="meta", requires_grad=True)
compiled = torch.compile(program, backend="inductor", fullgraph=True, dynamic=True)
failed = {}
for how, fn in [("eager", program), ("inductor dynamic", compiled)]:
    try:
        r = fn(x)
        print(f"torch {torch.__version__} {how:16s}: ok {r.device} {tuple(r.shape)}")
        failed[how] = False
    except Exception as e:                    # noqa: BLE001
        failed[how] = True
        lines = [line for line in str(e).splitlines() if "Error" in line or "metadata" in line]
        print(f"torch {torch.__version__} {how:16s}: {type(e).__name__}: {(lines or [''])[-1][:140]}")
# the bug: inductor with dynamic shapes fails where eager runs
reproduces = failed["inductor dynamic"] and not failed["eager"]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

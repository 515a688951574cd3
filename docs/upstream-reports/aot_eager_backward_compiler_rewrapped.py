"""The "aot_eager" backend is one object for the whole process, and every graph it compiles wraps the backward compiler
it keeps once more (`_wrapped_bw_compiler` in torch/_dynamo/backends/common.py, two `disable` layers each time). A
backward compiled after enough other graphs (compiled lazily, at its first backward) calls down through every layer
and raises RecursionError ("maximum recursion depth exceeded"). So in a long-running process that recompiles often
(here: dynamo reset and the same small function compiled again, forward only), a plain backward fails although
nothing about it changed. Issue 93935 (closed, "[pt20][aot_eager] Exceed Python recursion limit with huge model or
frequent recompilation"). Releases that mark the wrapper (`_is_wrapped_bw_compiler`) do not wrap it again. Seen on
2.0.1 (a backward after 450 such compiles holds, after 600 it raises); FIXED on 2.6.0, 2.8.0, 2.10.0, 2.12.1, 2.13.0
and 2.14.1.

The conformance matrix meets it as order-dependent cells: which backward cells of a worker fail depends on how many
programs it compiled before (the known-bug record issue_93935 is order-dependent; this draft is its strict check)."""
import sys
import time

import torch
import torch._dynamo

COMPILES = 800   # 2.0.1: a backward after 600 such compiles raises, after 450 it holds (at the top of the stack)


def program(x):
    return (x * 2).sum()


start = time.perf_counter()
source = torch.ones(3, requires_grad=True)
for _ in range(COMPILES):
    torch._dynamo.reset()
    out = torch.compile(program, backend="aot_eager")(source)
print(f"torch {torch.__version__}: the same function compiled {COMPILES} times with backend='aot_eager' (dynamo reset "
      f"between), forward only, in {time.perf_counter() - start:.1f} s")
try:
    out.backward()
    raised = None
    print(f"the last compiled call's backward runs: source.grad = {source.grad.tolist()} (expected [2.0, 2.0, 2.0])")
except RecursionError as e:
    raised = e
    print(f"the last compiled call's backward raises RecursionError: {str(e)[:80]}")
reproduces = raised is not None
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

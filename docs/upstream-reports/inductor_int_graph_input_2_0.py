"""Backward of a compiled function under inductor with dynamic shapes on torch 2.0, where the backward graph takes a
size as an input: `x.flatten()` of a non-contiguous input that requires grad (a strided or expanded non-leaf), then
`.sum().backward()`. The backward graph gets a `sym_size` placeholder whose example value is a plain int, and 2.0's
inductor lowers every placeholder as a tensor (GraphLowering.placeholder in torch/_inductor/graph.py reads
`example._has_symbolic_sizes_strides`): AttributeError "'int' object has no attribute '_has_symbolic_sizes_strides'",
raised by the backward call. Eager and aot_eager compute the gradient; a contiguous input compiles. Seen on torch
2.0.1 (the matrix regeneration of issue 39: flatten, reshape and getitem's grad_to_source, retain_grad). 2.2.2's
placeholder turns int, float and bool inputs into sympy constants (the branch PR 95461's review added), and 2.2.2,
2.13.0 and 2.14.1 compute the gradient. No upstream issue found that reports it."""
import sys

import torch
import torch._dynamo

results = {}
for name in ("eager", "aot_eager", "inductor"):
    torch._dynamo.reset()
    base = torch.arange(40.0, requires_grad=True)
    x = (base * 1).as_strided((2, 3), (5, 2))
    fn = (lambda s: s.flatten()) if name == "eager" else torch.compile(lambda s: s.flatten(), backend=name, dynamic=True)
    try:
        fn(x).sum().backward()
        results[name] = f"grad sum {base.grad.sum().item()}"
    except Exception as e:                    # noqa: BLE001
        results[name] = f"{type(e).__name__}: {str(e).splitlines()[0][:120]}"
    print(f"{name:9s} torch {torch.__version__}: {results[name]}")
# the bug: the backward fails under inductor where eager computes the gradient
reproduces = "_has_symbolic_sizes_strides" in results["inductor"] and results["eager"].startswith("grad")
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""detach() of a tensor with a lazy conjugate or negative bit fails to compile under AOTAutograd on torch 2.2 and 2.4:
RecursionError, prims.clone and the reference clone calling each other through the math-bits fallback, because the
Conjugate/Negative dispatch keys fell through for aten.clone but not for prims.clone. Fixed by PR 132699 ("properly
register conjugate/neg fallthroughs to prim ops", 2024-08, in 2.5); 2.6.0 holds. Seen on 2.2.2 and 2.4.1, under
aot_eager and inductor, static and dynamic shapes; record `lazy_bit_prims_clone_recursion` in specs/conversions.yaml
(detach, .data, torch.tensor, torch.asarray, numpy(force=True), and the backward of clones and casts). The script then
registers what PR 132699 adds for prims.clone (a fallthrough on both keys) and compiles again: on 2.2.2 and 2.4.1 that
alone makes both inputs compile. Fixed upstream: nothing to file, kept as the evidence of the 2.2 and 2.4 cells."""
import sys
import torch


def program(x):
    return x.detach()


def compile_each(tag):
    """Compiles detach() of a conj, a neg and a plain input under each backend; True when any fails to compile."""
    failed = False
    z = torch.tensor([1 + 1j, 2 - 1j], dtype=torch.complex64)
    for label, x in [("conj", z.conj()), ("neg", torch.tensor([1.0, 2.0])._neg_view()), ("none", z)]:
        for backend in ["eager", "aot_eager", "inductor"]:
            torch._dynamo.reset()
            try:
                r = torch.compile(program, backend=backend, fullgraph=True)(x)
                shown = f"ok, is_conj {r.is_conj()}, is_neg {r.is_neg()}"
            except Exception as e:            # noqa: BLE001 - the compile error is what is shown
                last = [line for line in str(e).splitlines() if "Error" in line][:1]
                shown = f"{type(e).__name__}: {' '.join(last)[:90]}"
                failed = True
            print(f"torch {torch.__version__} {tag} {backend:9s} {label:4s} bit: {shown}")
    return failed


as_installed = compile_each("as installed")
fallthroughs = torch.library.Library("prims", "IMPL")
for key in ("Conjugate", "Negative"):
    fallthroughs.impl("clone", torch.library.fallthrough_kernel, key)
compile_each("with PR 132699's prims.clone fallthroughs")
# the bug: as installed, a lazy-bit input fails to compile (the second pass only shows PR 132699's fix working)
reproduces = as_installed
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

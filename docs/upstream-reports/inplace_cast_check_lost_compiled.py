"""An in-place op whose result type cannot be cast to the tensor it writes: `b.mul_(2)` on a bool tensor (the
result of bool * int is int64). Eagerly it raises "result type Long can't be cast to the desired output type Bool";
compiled with AOTAutograd (aot_eager, inductor) it runs and writes True, because functionalization turns it into
`mul` and a `copy_` that casts. torch.compile's eager backend (dynamo alone) raises as eager does. Found by
`python -m copysuite fuzz` (compile.aot_eager, seed 0); seen on torch 2.13.0 and 2.14.1. Closest: issue 137213
(the out= form under functionalization, open), recorded here as functionalize_cast_check_lost; PR 77125 added a meta
check for in-place ops that this call does not reach. The out= form the same (second part): `torch.any(c, 0,
keepdim=True, out=c)` with a float c raises eagerly ("any only supports bool tensor for result, got: Float") and runs
compiled (found with `--vocabulary surface`, seed 5201)."""
import sys

import torch


def program(b):
    return b.mul_(2)


def program_out(c):
    return torch.any(c, 0, keepdim=True, out=c)


outcome = {}
for part, fn, make in (("mul_", program, lambda: torch.ones(3, dtype=torch.bool)),
                       ("any out=", program_out, lambda: torch.zeros(1))):
    for backend in ("eager (no compile)", "eager", *(sys.argv[1:] or ["aot_eager", "inductor"])):
        b = make()
        torch._dynamo.reset()
        run = fn if backend.startswith("eager (") else torch.compile(fn, backend=backend)
        try:
            run(b)
            outcome[part, backend] = f"ran, b = {b.tolist()}"
        except Exception as exc:  # noqa: BLE001 - the refusal is what eager does
            outcome[part, backend] = f"raised {type(exc).__name__}: {str(exc).splitlines()[0][:80]}"
        print(f"{part:8s} {backend:18s} torch {torch.__version__}: {outcome[part, backend]}")
# the bug: eagerly the call raises; a compiled backend runs it
reproduces = any(outcome[part, "eager (no compile)"].startswith("raised") and any(
    text.startswith("ran") for (p, backend), text in outcome.items() if p == part and not backend.startswith("eager"))
    for part in ("mul_", "any out="))
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

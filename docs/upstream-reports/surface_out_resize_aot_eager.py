"""out= into empty tensors under torch.compile (aot_eager), where eager resizes them to the result (the Developer
FAQ's rule; no warning for an out with no element): with the outs given as the op returns them (a torch.return_types
structseq, e.g. reusing an earlier result), sort fails to compile ("expand: attempting to expand a dimension of
length 8000 -> 0"), aminmax leaves its outs unresized (silent), and binomial's single out (aten.binomial.out) fails to compile ("expand:
the requested shape has too few dimensions"). A plain tuple of outs works for sort and aminmax. Found by the operator
surface's whole sweep under compile.aot_eager (`python -m copysuite run --surface all --execution compile.aot_eager`:
31 multi-output out= ops and binomial, 2.13.0). Upstream: the aminmax part is PR 192863 (open), which reports and
fixes it: dynamo's out= resize check runs only for an argument spelled `out`, so schema-named outs such as aminmax's
min/max are resized on the fake tensor and never on the real one (PR 130074, 2.5, added the check for `out`). No
upstream report found for the sort and binomial failures. The last lines give a verdict per part."""
import sys
import warnings

import torch

warnings.simplefilter("ignore")
x = torch.randn(8000)


def sort(outs):
    return torch.sort(x, out=outs)


def aminmax(outs):
    return torch.aminmax(x, out=outs)


def binomial(out):
    return torch.ops.aten.binomial.out(torch.full((4,), 5.0), torch.full((4,), 0.5), out=out)


cases = (("sort, structseq outs", sort, lambda: torch.return_types.sort((torch.empty(0), torch.empty(0, dtype=torch.long)))),
         ("sort, tuple outs", sort, lambda: (torch.empty(0), torch.empty(0, dtype=torch.long))),
         ("aminmax, structseq outs", aminmax, lambda: torch.return_types.aminmax((torch.empty(0), torch.empty(0)))),
         ("binomial", binomial, lambda: torch.empty(0)))
seen = {}
for name, fn, make in cases:
    for backend in ("eager (no compile)", "aot_eager"):
        torch._dynamo.reset()
        outs = make()
        call = fn if backend.startswith("eager (") else torch.compile(fn, backend=backend)
        try:
            call(outs)
            shapes = [tuple(t.shape) for t in (outs if isinstance(outs, tuple) else (outs,))]
            seen[name, backend] = shapes
            print(f"torch {torch.__version__} {name:24s} {backend:18s}: out shapes {shapes}")
        except Exception as exc:  # noqa: BLE001 - the compile error is what this part reports
            seen[name, backend] = type(exc).__name__
            lines = str(exc).splitlines()
            print(f"torch {torch.__version__} {name:24s} {backend:18s}: {type(exc).__name__}: {(lines[1:] or lines)[0][:80]}")
parts = {"aminmax (PR 192863)": ["aminmax, structseq outs"], "sort": ["sort, structseq outs"], "binomial": ["binomial"]}
differs = {part: any(seen[n, "aot_eager"] != seen[n, "eager (no compile)"] for n in names)
           for part, names in parts.items()}
print("differs from eager:", ", ".join(f"{part} {d}" for part, d in differs.items()))
reproduces = any(differs.values())
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

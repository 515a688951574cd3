"""`x.data` inside a module exported by torch.export (non-strict, the default), where x is written in place in the
same forward (before or after the read, by an in-place op or by out=): eagerly the program runs; export fails. On an
input: "RuntimeError: 4*s52 ... is not tracked with proxy for <..._ModuleStackTracer ...>"; on an intermediate:
"We found a fake tensor in the exported program constant's list ... lifted_tensor_0. Please file an issue". Reading
`x.detach()` instead exports and runs. Found by `python -m copysuite fuzz --execution export` (seeds 3 and 7); seen
on torch 2.13.0 and 2.14.1. Upstream: issue 170673 (open) reports it (found after this draft was written, so there
is nothing left to file); PR 161589 added the fake-constant error for "an operation we didn't proxy"."""
import sys
import torch


class OnInput(torch.nn.Module):
    def forward(self, x):
        x.add_(1)
        return x.data


class OnIntermediate(torch.nn.Module):
    def forward(self, x):
        y = x * 2
        torch.add(x, 1, out=y)
        return y.data


refused = []
for program in (OnInput(), OnIntermediate()):
    eager = program(torch.arange(6.0).reshape(2, 3))
    try:
        exported = torch.export.export(program, (torch.arange(6.0).reshape(2, 3),)).module()
        observed = exported(torch.arange(6.0).reshape(2, 3))
        print(f"torch {torch.__version__} {type(program).__name__}: eager {eager.tolist()}, exported {observed.tolist()}")
        refused.append(not torch.equal(observed, eager))
    except Exception as exc:  # noqa: BLE001 - what export raises is the report
        print(f"torch {torch.__version__} {type(program).__name__}: eager {eager.tolist()}, export raised "
              f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}")
        refused.append(True)
# the bug: eager runs both programs, export fails (or gives another result)
reproduces = any(refused)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

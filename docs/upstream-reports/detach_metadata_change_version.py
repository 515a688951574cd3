"""An in-place metadata change (transpose_, t_, unsqueeze_, as_strided_) on `t.detach()` inside a compiled function:
eagerly the detached alias shares `t`'s version counter, so the change bumps `t._version` (autograd can tell that a
saved `t` was altered); compiled with an AOTAutograd backend the counter does not move. Silent. Dynamo alone
(backend="eager") keeps eager's behaviour. The direct `t.transpose_()` on a graph input is a graph break by design
(issue 149907); on an alias made inside the function there is none. The same holds for other aliases made
inside (`t[::2].transpose_(0, -1)`, `t.view(torch.int32).unsqueeze_(0)`: found by `python -m copysuite fuzz`).
Seen on torch 2.2.2, 2.4.1, 2.6.0, 2.8.0, 2.10.0, 2.13.0 and 2.14.1 (every release tried). Closest: PR 100787 (that
graph break), issue 135441 (a data write through a view, not a metadata change)."""
import sys
import torch


def program(t):
    t.detach().transpose_(0, 1)
    return t


moved = {}
for backend in ("eager (no compile)", "eager", "aot_eager"):
    fn = program if backend.startswith("eager (") else torch.compile(program, backend=backend, fullgraph=True)
    t = torch.zeros(2, 3)
    before = t._version
    fn(t)
    print(f"{backend:18s} torch {torch.__version__}: t._version moved by {t._version - before}")
    moved[backend] = t._version != before
# the bug: under AOTAutograd the shared version counter does not move, eagerly it does
reproduces = moved["eager (no compile)"] and not moved["aot_eager"]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""`return x.data` from a compiled function, then a write into the result outside it: eagerly `.data` has a version
counter of its own, so x's version does not move and a backward that saved x still runs (the 0.4.0 release notes,
"What about .data?"). Compiled with an AOTAutograd backend (aot_eager, inductor) on torch 2.6.0, the returned tensor
shares x's version counter: the write moves x._version. Dynamo traces `.data` as torch._C._autograd._get_data_attr
there, and backend="eager" keeps eager's behaviour, so it is AOTAutograd's regeneration of an output that aliases an
input. Seen on 2.6.0 (aot_eager and inductor); 2.8.0 ... 2.14.1 behave as eager (no fixing PR identified). On 2.2.2
and 2.4.1 dynamo itself traced `.data` as detach() (PR 131403 names it), so there even backend="eager" shares the
counter. No upstream report found; closest issue 139152 (the `.data =` assignment's version counter under dynamo)."""
import sys

import torch


def program(x):
    return x.data


moved = {}
for backend in ("not compiled", "eager", "aot_eager"):
    x = torch.randn(2, 3)
    torch._dynamo.reset()
    fn = program if backend == "not compiled" else torch.compile(program, backend=backend, fullgraph=True)
    with torch.no_grad():
        y = fn(x)
    before = x._version
    y.fill_(0)
    moved[backend] = x._version != before
    print(f"{backend:12s} torch {torch.__version__}: a write into the returned .data moves x._version: {moved[backend]}")
reproduces = any(moved[b] != moved["not compiled"] for b in ("eager", "aot_eager"))
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

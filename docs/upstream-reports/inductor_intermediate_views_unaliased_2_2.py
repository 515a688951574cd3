"""Two views and a detach of one intermediate, returned together from a function compiled by inductor on torch 2.2:
eagerly `y.unsqueeze(0)`, `y.unsqueeze(-1)` and `y.detach()` share y's memory; compiled by inductor each comes back in
memory of its own, so a write through one is not seen through the others. aot_eager keeps them in one storage
(AOTAutograd returns the intermediate and regenerates its views), in grad mode and under no_grad, static and dynamic
shapes. Seen on torch 2.2.2; 2.4.1 returns them in one storage (the fixing change was not identified). No upstream
issue found."""
import sys

import torch
import torch._dynamo


def program(source):
    y = source + 1
    return y.unsqueeze(0), y.detach(), y.unsqueeze(-1)


def storage(t):
    return t.untyped_storage().data_ptr()


shared = {}
for name, backend in [("eager", None), ("aot_eager", "aot_eager"), ("inductor", "inductor")]:
    torch._dynamo.reset()
    x = torch.arange(6.0).reshape(2, 3)
    fn = program if backend is None else torch.compile(program, backend=backend, fullgraph=True)
    with torch.no_grad():
        result, detached, second = fn(x)
    shared[name] = storage(detached) == storage(result) and storage(second) == storage(result)
    print(f"{name:9s} torch {torch.__version__}: the three outputs share one storage: {shared[name]}")
# the bug: inductor returns the aliases of one intermediate in separate memory
reproduces = shared["eager"] and not shared["inductor"]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""Two inputs written in place, one of them requiring grad (`a`, a non-leaf) and the other not (`r`), with `r` returned
as it is: compiled (backend="aot_eager" or "inductor"; backend="eager", dynamo alone, holds) the call leaves `a`
holding r's new values (broadcast to a's shape) instead of its own: `a.neg_(); r.mul_(2); return r` on a = [[1, 2, 3],
[4, 5, 6]] and r = [1, 2, 3] leaves a = [[2, 4, 6], [2, 4, 6]], eagerly [[-1, -2, -3], [-4, -5, -6]]. The program
returning `r.clone()` holds, and so does one whose `a` does not require grad. The mutation of an input that
requires grad is replayed outside the graph, and here it is replayed from the graph output that is r's updated
value. Found by `python -m copysuite fuzz --execution compile.inductor --vocabulary surface` (seed 6510, a module
whose forward writes its input in place and its buffer `running` with arccos_, returning the buffer); seen on torch
2.8.0, 2.13.0 and 2.14.1. No upstream report found; closest: issue 93363 (open, an in-place update of an input that is a
view, requiring grad), PR 113584 (input mutations of tensors that require grad kept out of the graph), PR 194534
(closed, replaying an input mutation the way it happened)."""
import sys

import torch
import torch._functorch.config
import torch._inductor.config

torch._inductor.config.fx_graph_cache = False
torch._functorch.config.enable_autograd_cache = False


def returns_written_input(a, r):
    a.neg_()
    r.mul_(2)
    return r


def returns_a_clone(a, r):   # the control: the same writes, a clone of r returned
    a.neg_()
    r.mul_(2)
    return r.clone()


differs = []
for program in (returns_written_input, returns_a_clone):
    seen = {}
    for backend in ("eager (no compile)", "eager", "aot_eager", "inductor"):
        torch._dynamo.reset()
        a = torch.arange(1.0, 7.0).reshape(2, 3).requires_grad_() * 1
        r = torch.arange(1.0, 4.0)
        fn = program if backend.startswith("eager (") else torch.compile(program, backend=backend)
        fn(a, r)
        seen[backend] = (a.tolist(), r.tolist())
        print(f"torch {torch.__version__} {program.__name__} {backend:18s}: a {a.tolist()}, r {r.tolist()}")
    differs += [f"{program.__name__} under {b}" for b, v in seen.items() if v != seen["eager (no compile)"]]
print("differs:", ", ".join(differs) or "nothing")
# the bug: compiled, the input that requires grad ends with the other input's new values
reproduces = bool(differs)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""`torch.asarray(x, requires_grad=False)` gives back a leaf that requires grad itself (its flag switched off in place)
and a non-leaf that requires grad as a new tensor (a detached alias). Compiled with an AOTAutograd backend on torch 2.0,
the graph AOTAutograd built at the first call serves a later input of the other kind: dynamo's guards do not tell a
leaf from a non-leaf when both require grad, and the compiled function was specialized on the first. So after a leaf,
a non-leaf comes back as itself; after a non-leaf, a leaf comes back as a new tensor. The draft compares each with the
same call compiled afresh (which gives what eager gives on 2.0.1) and with the eager backend (whose graph calls asarray
again). Seen in the 2.0.1
matrix regeneration (issue 39: torch.asarray:requires_grad_false same_object under aot_eager and aot_eager.dynamic,
after the group's earlier inputs had compiled the function); the 2.2.2 matrix holds (from 2.2 dynamo graph-breaks on
a change of requires_grad, PR 110053, so the call runs eagerly). No upstream report found; related: PR 113163
("AOTAutograd is not requires_grad mutation aware")."""
import sys

import torch
import torch._dynamo


def program(source):
    return torch.asarray(source, requires_grad=False)


def leaf():
    return torch.zeros(()).requires_grad_()


def nonleaf():
    return torch.zeros(()).requires_grad_() * 1


def is_input(backend, compiled_first, kind):
    """Whether the compiled program gives back its `kind` input itself, called first on `compiled_first` (or not)."""
    torch._dynamo.reset()
    compiled = torch.compile(program, backend=backend)
    if compiled_first is not None:
        compiled(compiled_first())
    x = kind()
    return compiled(x) is x


wrong = []
for backend in ("eager", "aot_eager"):
    for first, second, name in ((leaf, nonleaf, "a non-leaf after a leaf"), (nonleaf, leaf, "a leaf after a non-leaf")):
        y = second()
        eager, fresh, after = program(y) is y, is_input(backend, None, second), is_input(backend, first, second)
        print(f"torch {torch.__version__} backend={backend:9s} {name}: result is the input: {after} (the same program "
              f"compiled afresh: {fresh}; eager: {eager}){'' if after == fresh else '  <- differs'}")
        if after != fresh:
            wrong.append((backend, name))
reproduces = any(backend == "aot_eager" for backend, _ in wrong)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

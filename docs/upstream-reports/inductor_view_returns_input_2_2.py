"""A view of an input with the input's own metadata, returned by a function compiled by inductor on torch 2.2, is the
input object itself: `x.split(1)[0]` of a one-element x is eagerly a new tensor (a view of x), compiled by inductor
`result is x`. Inductor lowers the view to the input buffer unchanged and the graph's output is then its input, which
the caller gets back as is (as inductor 2.0 did for copies, inductor_copy_returns_input_2_0.py); aot_eager returns a new
view. Static and dynamic shapes, bool and float inputs. Seen on torch 2.2.2; 2.4.1 returns a new view (the fixing
change was not identified). No upstream issue found."""
import sys

import torch
import torch._dynamo


def program(source):
    return source.split(1)[0]


same = {}
for name, backend in [("eager", None), ("aot_eager", "aot_eager"), ("inductor", "inductor")]:
    torch._dynamo.reset()
    x = torch.ones(1)
    fn = program if backend is None else torch.compile(program, backend=backend, fullgraph=True)
    result = fn(x)
    same[name] = result is x
    print(f"{name:9s} torch {torch.__version__}: result is the input object: {result is x}")
# the bug: inductor hands back the input object where eager returns a new view
reproduces = same["inductor"] and not same["eager"]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

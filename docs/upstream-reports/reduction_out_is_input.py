"""A reduction whose out= is its own input (`torch.sum(x, 0, keepdim=True, out=x)`, x of shape (1, 1), the result's
shape already): eagerly the result is the reduction's identity (sum and mean 0, prod 1, amin inf, amax -inf, nansum
0; any of a bool [False, True] False and all of [True, False] True, the out= resizing x to one element before the
kernel reads it), not the reduction of x. The reduction kernel fills its output with the identity before it reads the
input, and nothing checks that the output overlaps the input. The out= contract
(https://docs.pytorch.org/docs/stable/notes/out.html) says that an out= of the correct shape is "numerically
equivalent to performing the operation and 'safe copying' its results" to it, which is what torch.func.functionalize
and torch.compile (backend="aot_eager") return: the reduction of x. max(dim) and min(dim), logsumexp, norm, std and
var are not affected. Found by `python -m copysuite fuzz --execution compile.aot_eager --vocabulary surface` (amin,
seed 5201) and `--execution functionalize` (amax, seed 5202; any, seed 15130737723252347835) on 2.14.1; seen on torch
2.13.0 and 2.14.1. No upstream report found for the current kernels; issue 1930 (2017, closed as a duplicate:
`x.sum(dim=0, out=x)` zeros on CPU) and issue 5260 (closed: a maintainer, "we generally don't support having tensors
as outputs and inputs when it's not the inplace overload", and "raising an error is worth it") are the same
behaviour; issue 195338 (open) is aminmax's two outs aliasing each other. narrow_copy into its input
(`torch.narrow_copy(a, -1, 2, 2, out=a)`, a of (4, 4)) the same way: the out= resizes a to (4, 2) before the kernel
reads it, and eager returns a's first eight values, not its last two columns (found by the functionalize campaign of
2.14.1, seed 6403; seen on 2.13.0 and 2.14.1). linalg.vector_norm into its input the same way (ord 4 of [[0.], [1.]]
with out= itself: eager 0, not 1; found by the functionalize campaign of 2.14.1, seed 6520; seen on 2.13.0 and
2.14.1). Two more kernels that write their out before reading the input it is (found by the 2.13.0 functionalize
top-ups, seeds 6620 and 6622; seen on 2.13.0 and 2.14.1): `torch.ops.aten.soft_margin_loss(a, a, out=a)`, a
[[0.], [1.]], returns 1.0032 where the mean loss is 0.5032, and `F.linear(a, w, bias, out=a)` returns the bias alone."""
import sys

import torch

OPS = ("sum", "mean", "prod", "amin", "amax", "nansum", "any", "all")
# a bool x of two elements whose reduction is not the op's identity (the out= resizes x, its input, to one element
# before the kernel reads it); [[3.]] for the others
VALUE = {"any": [False, True], "all": [True, False]}


def call(name, x):
    return getattr(torch, name)(x, 0, keepdim=True, out=x)


wrong = []
for name in OPS:
    value = VALUE.get(name, [[3.0]])
    expected = getattr(torch, name)(torch.tensor(value), 0, keepdim=True).item()
    x = torch.tensor(value)
    call(name, x)
    y = torch.tensor(value)
    torch.func.functionalize(lambda t, name=name: call(name, t))(y)
    z = torch.tensor(value)
    if name not in VALUE:   # an out= that must resize is a graph break for dynamo, refused under fullgraph
        torch.compile(lambda t, name=name: call(name, t), backend="aot_eager", fullgraph=True)(z)
    compiled = "not run" if name in VALUE else z.item()
    print(f"torch {torch.__version__} {name:7s} of {value} with out= itself: eager {x.reshape(-1)[0].item()}, "
          f"functionalize {y.reshape(-1)[0].item()}, compiled (aot_eager) {compiled}; out of place {expected}")
    if x.reshape(-1)[0].item() != expected:
        wrong.append(name)
a = torch.arange(16.0).reshape(4, 4)
expected = a.narrow(-1, 2, 2).reshape(-1).tolist()
torch.narrow_copy(a, -1, 2, 2, out=a)
b = torch.arange(16.0).reshape(4, 4)
functionalized = torch.func.functionalize(lambda t: torch.narrow_copy(t, -1, 2, 2, out=t))(b)
print(f"torch {torch.__version__} narrow_copy with out= itself: eager {a.reshape(-1).tolist()}, functionalize "
      f"{functionalized.reshape(-1).tolist()}; out of place {expected}")
if a.reshape(-1).tolist() != expected:
    wrong.append("narrow_copy")
v = torch.tensor([[0.0], [1.0]])
expected = torch.linalg.vector_norm(v, ord=4, dim=0, keepdim=True).item()
torch.linalg.vector_norm(v, ord=4, dim=0, keepdim=True, out=v)
print(f"torch {torch.__version__} linalg.vector_norm of [[0.], [1.]] with out= itself: eager {v.item()}; out of place "
      f"{expected}")
if v.item() != expected:
    wrong.append("linalg.vector_norm")
m = torch.tensor([[0.0], [1.0]])
expected = torch.ops.aten.soft_margin_loss(m.clone(), m.clone()).item()
torch.ops.aten.soft_margin_loss(m, m, out=m)
print(f"torch {torch.__version__} soft_margin_loss of [[0.], [1.]] with itself, out= itself: eager {m.item():.4f}; "
      f"out of place {expected:.4f}")
if abs(m.item() - expected) > 1e-4:
    wrong.append("soft_margin_loss")
w, bias = torch.arange(12.0).reshape(4, 3) / 10, torch.tensor([1.0, 2.0, 3.0, 4.0])
x = torch.arange(3.0)
expected = torch.nn.functional.linear(x, w, bias).tolist()
torch.nn.functional.linear(x, w, bias, out=x)
print(f"torch {torch.__version__} linear with out= its input: eager {x.tolist()}; out of place {expected}")
if not torch.allclose(x, torch.tensor(expected)):
    wrong.append("linear")
print("eager's out= result is not the reduction (or the narrowed copy) for:", ", ".join(wrong) or "none")
reproduces = bool(wrong)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""In-place metadata ops on a graph input, compiled with inductor on torch 2.0: the caller's tensor does not end as
eager leaves it. `x.t_()`, `x.transpose_(0, 1)`, `x.swapaxes_(0, 1)` and `x.swapdims_(0, 1)` of a (3, 4) input and
`x.set_(torch.ones(2, 2))` leave x (3, 4) with strides (4, 1); `x.squeeze_(1)` of a (3, 1, 4) input leaves it 3-d;
`x.unsqueeze_(0)` adds two dimensions, (1, 1, 3, 4), where eager adds one. The function returns x itself, so the
caller sees the wrong shape (silent). Backend aot_eager applies each change once, as eager does (but resize_as_,
which it fails to compile: record resize_traced_on_input_2_0). Seen on torch 2.0.1, also with dynamic shapes for
squeeze_ and set_ (the matrix regeneration of issue 39, the operator surface's `writes` clause); 2.2.2, 2.13.0 and
2.14.1 hold. No upstream issue found that reports it for these ops (issue 93259, closed, is an earlier failure of
unsqueeze_ on an input under inductor)."""
import sys

import torch
import torch._dynamo

programs = {
    "t_": (lambda x: x.t_(), (3, 4)),
    "transpose_": (lambda x: x.transpose_(0, 1), (3, 4)),
    "swapaxes_": (lambda x: x.swapaxes_(0, 1), (3, 4)),
    "swapdims_": (lambda x: x.swapdims_(0, 1), (3, 4)),
    "squeeze_": (lambda x: x.squeeze_(1), (3, 1, 4)),
    "unsqueeze_": (lambda x: x.unsqueeze_(0), (3, 4)),
    "set_": (lambda x: x.set_(torch.ones(2, 2)), (3, 4)),
}
differs = []
for name, (fn, shape) in programs.items():
    want = fn(torch.zeros(shape))
    seen = {}
    for backend in ("aot_eager", "inductor"):
        torch._dynamo.reset()
        x = torch.zeros(shape)
        try:
            torch.compile(fn, backend=backend)(x)
            seen[backend] = (tuple(x.shape), x.stride())
        except Exception as e:                # noqa: BLE001
            seen[backend] = type(e).__name__
    print(f"{name:10s} torch {torch.__version__}: eager x {tuple(want.shape)} {want.stride()}, "
          f"aot_eager x {seen['aot_eager']}, inductor x {seen['inductor']}")
    if seen["inductor"] != (tuple(want.shape), want.stride()):
        differs.append(name)
print("inductor differs from eager:", ", ".join(differs) or "none")
reproduces = bool(differs)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""torch.asarray(t, requires_grad=False) of a leaf that requires grad, inside a compiled function: eagerly it returns
`t` itself and switches off `t.requires_grad` in place (the flag is applied to the tensor returned, which needs no
copy; PR 170897 kept this for an explicit False when it made the default follow the input, issue 170819); compiled
with an AOTAutograd backend it returns a new tensor (a detached alias of `t`) and leaves `t` requiring grad. Silent:
no error, the caller's tensor is in another state. A non-leaf gets a detached alias either way. Seen on torch
2.2.2, 2.4.1, 2.6.0, 2.8.0, 2.10.0, 2.13.0 and 2.14.1 (every release tried); no upstream report found."""
import sys
import torch


def program(t):
    return torch.asarray(t, requires_grad=False)


states = {}
for name, fn in [("eager", program), ("aot_eager", torch.compile(program, backend="aot_eager", fullgraph=True))]:
    t = torch.ones(3, requires_grad=True)
    r = fn(t)
    print(f"{name:9s} torch {torch.__version__}: result is t: {r is t}, result.requires_grad: {r.requires_grad}, "
          f"t.requires_grad after the call: {t.requires_grad}, shares memory: {r.data_ptr() == t.data_ptr()}")
    states[name] = (r is t, t.requires_grad)
# the bug: the caller's tensor ends in another state compiled than eagerly
reproduces = states["aot_eager"] != states["eager"]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

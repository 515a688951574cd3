"""torch.asarray(t, requires_grad=False) of a leaf that requires grad, inside a compiled function: eagerly it returns
`t` itself and switches off `t.requires_grad` in place (the flag is applied to the tensor returned, which needs no
copy; PR 170897 kept this for an explicit False when it made the default follow the input, issue 170819); compiled
with an AOTAutograd backend it returns a new tensor (a detached alias of `t`) and leaves `t` requiring grad. Silent:
no error, the caller's tensor is in another state. A non-leaf gets a detached alias either way."""
import torch


def program(t):
    return torch.asarray(t, requires_grad=False)


for name, fn in [("eager", program), ("aot_eager", torch.compile(program, backend="aot_eager", fullgraph=True))]:
    t = torch.ones(3, requires_grad=True)
    r = fn(t)
    print(f"{name:9s} torch {torch.__version__}: result is t: {r is t}, result.requires_grad: {r.requires_grad}, "
          f"t.requires_grad after the call: {t.requires_grad}, shares memory: {r.data_ptr() == t.data_ptr()}")

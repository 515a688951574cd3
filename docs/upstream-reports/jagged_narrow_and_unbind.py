"""Jagged nested tensors inside a compiled function: (1) `torch.nested.narrow(t, 1, starts, lengths,
layout=torch.jagged).values()` with `starts`/`lengths` made inside the function fails ("Could not guard on
data-dependent expression Eq(u0, 1)"; before 2.10 it graph-breaks instead); (2) a jagged nested tensor passed in whose
one component has ragged length 1, `nt.unbind()[0]`, fails with PendingUnbackedSymbolNotFound (other shapes
compile). Closest: PRs 136444 and 142063 (narrow on the batch dim), PR 148497 (the same exception for nt.select)."""
import torch


def narrow(t):
    starts = torch.zeros(t.shape[0], dtype=torch.int64)
    lengths = torch.full((t.shape[0],), t.shape[1], dtype=torch.int64)
    return torch.nested.narrow(t, 1, starts, lengths, layout=torch.jagged).values()


def unbind(nt):
    return nt.unbind()[0]


cases = [(narrow, torch.ones(2, 3)), (unbind, torch.nested.nested_tensor([torch.ones(1)], layout=torch.jagged))]
for program, arg in cases:
    for name, fn in [("eager", program), ("compile", torch.compile(program, backend="aot_eager", fullgraph=True))]:
        torch._dynamo.reset()
        try:
            r = fn(arg)
            print(f"{program.__name__:6s} {name:8s} torch {torch.__version__}: ok, {tuple(r.shape)}")
        except Exception as e:                # noqa: BLE001
            print(f"{program.__name__:6s} {name:8s} torch {torch.__version__}: {type(e).__name__}: "
                  f"{str(e).splitlines()[0][:120]}")

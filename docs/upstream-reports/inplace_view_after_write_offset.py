"""An input at a storage offset, written in place, then changed by an in-place view op called on the in-place op's
result (`t = a.add_(1); t.squeeze_()`, or `t.t_()`): eagerly the input keeps its storage offset 2 and the write lands
there; compiled (backend="aot_eager" or "inductor"; backend="eager", dynamo alone, holds) the input comes back at
offset 0 and the write lands at the start of its storage, silently overwriting memory the input never covered. With
the view op called on the input's own name (`a.squeeze_()`) the compiled call holds. AOTAutograd replays the input's
metadata mutation from the in-place op's functional result, a fresh tensor whose offset is 0. Found by `python -m
copysuite fuzz --execution compile.aot_eager` (seed 1, COPYSUITE_FUZZ_SHAPES=between,after,custom_op: `scatter_` then
`squeeze_`); seen on torch 2.13.0 and 2.14.1. No upstream report found; closest: PR 198097 (open: an output alias of a
synthetic-base input rebuilt without its storage offset), issue 185888 (as_strided_ metadata mutation not reflected
on the input, closed), issue 133512 (functionalization loses a mutated tensor's strides)."""
import sys

import torch
import torch._functorch.config
import torch._inductor.config

torch._inductor.config.fx_graph_cache = False
torch._functorch.config.enable_autograd_cache = False


def squeeze_through_result(a):
    t = a.add_(1)
    t.squeeze_()
    return t


def transpose_through_result(a):
    t = a.add_(1)
    t.t_()
    return t


def squeeze_through_input(a):   # the control: the view op on the input's own name
    a.add_(1)
    a.squeeze_()
    return a


CASES = ((squeeze_through_result, (1,), (1,)), (transpose_through_result, (2, 2), (2, 1)),
         (squeeze_through_input, (1,), (1,)))

differs = []
for program, size, stride in CASES:
    seen = {}
    for backend in ("eager (no compile)", "eager", "aot_eager", "inductor"):
        torch._dynamo.reset()
        base = torch.arange(8.0)
        a = base.as_strided(size, stride, 2)
        fn = program if backend.startswith("eager (") else torch.compile(program, backend=backend)
        fn(a)
        seen[backend] = (a.storage_offset(), base.tolist())
        print(f"torch {torch.__version__} {program.__name__} {backend:18s}: input offset {a.storage_offset()}, "
              f"its storage {base.tolist()}")
    differs += [f"{program.__name__} under {b}" for b, v in seen.items() if v != seen["eager (no compile)"]]
print("differs:", ", ".join(differs) or "nothing")
# the bug: compiled, the input's storage offset becomes 0 and the write lands outside the input
reproduces = bool(differs)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

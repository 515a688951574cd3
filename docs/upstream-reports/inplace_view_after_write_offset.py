"""An input at a storage offset, written in place, then changed by an in-place view op called on the in-place op's
result (`t = a.add_(1); t.squeeze_()`, or `t.t_()`): eagerly the input keeps its storage offset 2 and the write lands
there; compiled (backend="aot_eager" or "inductor"; backend="eager", dynamo alone, holds) the input comes back at
offset 0 and the write lands at the start of its storage, silently overwriting memory the input never covered. With
the view op called on the input's own name (`a.squeeze_()`) the compiled call holds. The input's strides are lost the
same way: an input of stride 2 (every other element of its storage) comes back with stride 1, and the write lands
on the element between (`t = a.add_(1); t.squeeze_()` on `torch.arange(8.0).as_strided((2,), (2,), 0)`: its
storage starts [1, 1, 3] eagerly, [1, 3, 2] compiled). AOTAutograd replays the input's metadata mutation from the
in-place op's functional result, a fresh contiguous tensor whose offset is 0. Found by `python -m copysuite fuzz
--execution compile.aot_eager` (seed 1, COPYSUITE_FUZZ_SHAPES=between,after,custom_op: `scatter_` then `squeeze_`;
the strides by seed 6401, every program shape: `gt_` then `squeeze_`); seen on torch 2.13.0 and 2.14.1. No upstream
report found; closest: PR 198097 (open: an output alias of a synthetic-base input rebuilt without its storage
offset), issue 185888 (as_strided_ metadata mutation not reflected on the input, closed), issue 133512
(functionalization loses a mutated tensor's strides)."""
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


# (program, size, stride, offset of the input in a storage of 8)
CASES = ((squeeze_through_result, (1,), (1,), 2), (transpose_through_result, (2, 2), (2, 1), 2),
         (squeeze_through_input, (1,), (1,), 2), (squeeze_through_result, (2,), (2,), 0))

differs = []
for program, size, stride, offset in CASES:
    seen = {}
    for backend in ("eager (no compile)", "eager", "aot_eager", "inductor"):
        torch._dynamo.reset()
        base = torch.arange(8.0)
        a = base.as_strided(size, stride, offset)
        fn = program if backend.startswith("eager (") else torch.compile(program, backend=backend)
        fn(a)
        seen[backend] = (a.storage_offset(), a.stride(), a.tolist(), base.tolist())
        print(f"torch {torch.__version__} {program.__name__} of stride {stride} at {offset} {backend:18s}: input "
              f"offset {a.storage_offset()}, stride {a.stride()}, values {a.tolist()}, its storage {base.tolist()}")
    differs += [f"{program.__name__} of stride {stride} under {b}" for b, v in seen.items()
                if v != seen["eager (no compile)"]]
print("differs:", ", ".join(differs) or "nothing")
# the bug: compiled, the input's storage offset becomes 0 (its stride 1) and it reads or writes outside the input
reproduces = bool(differs)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""A function that reads its input's storage_offset(), compiled by inductor with dynamic shapes on torch 2.0: dynamo
puts the symbolic offset in the graph as a call of the overload packet `torch.ops.aten.sym_storage_offset`, which
inductor 2.0 has no lowering for, and its fallback path asks the packet for an attribute that only an overload has:
BackendCompilerFailed "AttributeError: The underlying op of 'aten.sym_storage_offset' has no overload name 'name'".
`as_strided(shape, stride(), storage_offset())` (and `diagonal`, whose decomposition reads the offset) fail so; the
same program compiles with backend aot_eager, and with inductor and static shapes. Seen on torch 2.0.1; 2.2.2 compiles
it. No upstream issue found that reports it."""
import sys

import torch
import torch._dynamo


def program(s):
    return s.as_strided(s.shape, s.stride(), s.storage_offset())


base = torch.arange(10, dtype=torch.float32)
x = base.as_strided((2, 3), (5, 2), 0)
failed = {}
for name, backend in [("eager", None), ("aot_eager", "aot_eager"), ("inductor", "inductor")]:
    torch._dynamo.reset()
    fn = program if backend is None else torch.compile(program, backend=backend, dynamic=True)
    try:
        r = fn(x)
        print(f"{name:9s} torch {torch.__version__}: ok, {r.tolist()}")
    except Exception as e:                    # noqa: BLE001
        failed[name] = str(e)
        print(f"{name:9s} torch {torch.__version__}: {type(e).__name__}: {str(e).splitlines()[0][:140]}")
# the bug: inductor with dynamic shapes fails on the packet where eager and aot_eager run
reproduces = "sym_storage_offset" in failed.get("inductor", "") and not {"eager", "aot_eager"} & set(failed)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

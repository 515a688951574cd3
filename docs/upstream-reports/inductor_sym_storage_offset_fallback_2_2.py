"""A function that passes its input's storage_offset() to as_strided, compiled by inductor with dynamic shapes on
torch 2.2, called on an input at a nonzero offset: the offset is a symbol, the graph reads it with
`aten.sym_storage_offset`, which inductor has no lowering for (issue 198068, open, is the missing lowering); 2.2's
implicit fallback turns it into a tensor, and the as_strided lowering fails converting that tensor to a number:
BackendCompilerFailed "LoweringException: TypeError: float() argument must be a string or a real number, not
'TensorBox'". An input at offset 0 (a static offset, no sym_storage_offset in the graph) compiles, and so does the same
program with backend aot_eager. Seen on torch 2.2.2; 2.0.1 fails earlier on the overload packet (the draft
inductor_sym_storage_offset_packet_2_0.py), 2.4.1 fails in dynamo's trace (issue 132642), 2.6.0 and later compile it
(and add the offset twice: issue 139628). No upstream issue found that reports this message."""
import sys

import torch
import torch._dynamo


def program(s):
    return s.as_strided(s.shape, s.stride(), s.storage_offset())


base = torch.arange(8, dtype=torch.float32)
x = base.as_strided((2, 3), (3, 1), 2)
failed = {}
for name, backend in [("eager", None), ("aot_eager", "aot_eager"), ("inductor", "inductor")]:
    torch._dynamo.reset()
    fn = program if backend is None else torch.compile(program, backend=backend, dynamic=True)
    try:
        r = fn(x)
        print(f"{name:9s} torch {torch.__version__}: ok, {r.tolist()}")
    except Exception as e:                    # noqa: BLE001
        failed[name] = str(e)
        print(f"{name:9s} torch {torch.__version__}: {type(e).__name__}: {str(e).splitlines()[:2]}")
# the bug: inductor with dynamic shapes fails converting the fallback's tensor where eager and aot_eager run
reproduces = "not 'TensorBox'" in failed.get("inductor", "") and not {"eager", "aot_eager"} & set(failed)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

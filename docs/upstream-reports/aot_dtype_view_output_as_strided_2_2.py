"""A dtype view of an input to a smaller element size, returned by a function compiled with AOTAutograd on torch 2.2:
the output aliases the input, and AOTAutograd regenerates it at runtime. Its view replay (`_view_func` on the input)
does not apply, so 2.2 falls back to `input.as_strided(out.size(), out.stride(), out.storage_offset())` and only then
views the result as the output's dtype (PR 113416, the fix of issue 109053, added that last step): the int16 output's
sizes and offset, counted in int16 elements, are applied to the float32 input first and overrun its storage,
"setStorage: sizes [2, 6], strides [6, 1], storage offset 0, and itemsize 4 requiring a storage size of 48 are out of
bounds for storage of size 32" (so for every input, contiguous or at an offset). The same happens to
`halves.view(torch.float32)` returned beside it. Backend eager holds. Seen on torch 2.2.2 (aot_eager, static and
dynamic shapes); 2.4.1 replays the view from the ViewMeta sequence functionalization recorded (PR 121007,
"[AOTAutograd] Replay views on output using FunctionalTensor metas", config view_replay_for_aliased_outputs) and
holds."""
import sys

import torch
import torch._dynamo


def program(source):
    halves = source.view(torch.int16)
    return halves.view(torch.float32), halves


failed = {}
for placement, offset in [("contiguous", 0), ("offset", 2)]:
    source = torch.arange(8, dtype=torch.float32).as_strided((2, 3), (3, 1), offset)
    for name, backend in [("eager", None), ("aot_eager", "aot_eager")]:
        torch._dynamo.reset()
        fn = program if backend is None else torch.compile(program, backend=backend, fullgraph=True)
        try:
            result, halves = fn(source)
            print(f"{placement:10s} {name:9s} torch {torch.__version__}: ok, halves {tuple(halves.shape)} "
                  f"{halves.dtype}, result equal to the source: {torch.equal(result, source)}")
        except Exception as e:                    # noqa: BLE001
            failed[(placement, name)] = str(e)
            print(f"{placement:10s} {name:9s} torch {torch.__version__}: {type(e).__name__}: {str(e)[:150]}")
# the bug: aot_eager fails on the regenerated dtype view where eager returns it
reproduces = (any(name == "aot_eager" and "setStorage" in message for (_, name), message in failed.items())
              and not any(name == "eager" for _, name in failed))
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

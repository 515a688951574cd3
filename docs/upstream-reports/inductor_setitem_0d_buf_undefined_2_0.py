"""A 0-dim tensor written whole by basic indexing (`x[...] = 0`) in a function compiled by inductor on torch 2.0:
the generated wrapper returns `buf0`, which it never allocates, and the call fails with NameError: name 'buf0' is
not defined. The graph copies a constant that reads nothing of the input into the input; inductor makes the
constant's buffer a MutationLayout of the input (no buffer of its own) while the wrapper still returns it. PR 108126
("[inductor] realize_into should not alias src and dst", fixing issue 107995, the same NameError for a size-zero
input) describes this mechanism. Seen on torch 2.0.1 (bool and float 0-dim tensors, grad mode on); 2.2.2 runs it."""
import sys

import torch
import torch._dynamo


def program(s):
    s[...] = 0
    return s


failed = {}
for name, backend in [("eager", None), ("aot_eager", "aot_eager"), ("inductor", "inductor")]:
    torch._dynamo.reset()
    fn = program if backend is None else torch.compile(program, backend=backend)
    try:
        r = fn(torch.tensor(True))
        print(f"{name:9s} torch {torch.__version__}: ok, {r.item()}")
    except Exception as e:                    # noqa: BLE001
        failed[name] = f"{type(e).__name__}: {e}"
        print(f"{name:9s} torch {torch.__version__}: {failed[name].splitlines()[0][:140]}")
# the bug: inductor's wrapper names a buffer it never made, where eager and aot_eager run
reproduces = "is not defined" in failed.get("inductor", "") and not {"eager", "aot_eager"} & set(failed)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

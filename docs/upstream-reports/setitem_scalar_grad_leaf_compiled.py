"""`x[0, 1:3] = 5.0` on a leaf that requires grad, in a function compiled with an AOTAutograd backend (aot_eager,
inductor): eager refuses it ("a view of a leaf Variable that requires grad is being used in an in-place operation"),
compiled it runs and overwrites the leaf. Dynamo proxies the setitem into the graph without running it on the fake
input (TensorVariable.method___setitem__ ran no fake propagation until PR 161036, then only for a tensor value), so
nothing refuses it while tracing, and AOTAutograd applies the input mutation afterwards. Backend "eager"
runs the graph on the real leaf and raises. This draft reproduces on 2.0.1, 2.2.2 and 2.10.0 (aot_eager and inductor);
the operator surface's Tensor.__setitem__ cell fails the same way on 2.4.1, 2.6.0 and 2.8.0. 2.12.1, 2.13.0 and 2.14.1
refuse it while tracing: dynamo there runs every setitem on the fake input (the change of PR 167583, "[dynamo] Fix
Tensor Metadata Propagation for In-Place Ops"; we did not confirm which release it landed in). 2.11 not run. No
upstream report found."""
import sys

import torch
import torch._dynamo


def program(x):
    x[0, 1:3] = 5.0
    return x


refused = {}
for name, backend in [("eager", None), ("aot_eager", "aot_eager"), ("inductor", "inductor")]:
    torch._dynamo.reset()
    fn = program if backend is None else torch.compile(program, backend=backend)
    x = torch.zeros(3, 4).requires_grad_(True)
    try:
        fn(x)
        refused[name] = False
        print(f"{name:10s} torch {torch.__version__}: no error; x[0] = {x.detach()[0].tolist()}")
    except Exception as e:                    # noqa: BLE001
        refused[name] = "leaf Variable that requires grad" in str(e)
        print(f"{name:10s} torch {torch.__version__}: {type(e).__name__}: {str(e).splitlines()[0][:100]}")
reproduces = refused["eager"] and not (refused["aot_eager"] and refused["inductor"])
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

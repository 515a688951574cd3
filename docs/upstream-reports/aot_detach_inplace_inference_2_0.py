"""`t.detach_()` of an inference tensor (made under torch.inference_mode(), called outside it) in a function compiled
with an AOTAutograd backend on torch 2.0: dynamo 2.0 traces the in-place view op into the graph, and AOTAutograd
replays the input's metadata mutation on the real input after the graph ran, an in-place update of an inference tensor
outside inference mode ("RuntimeError: Inplace update to inference tensor outside InferenceMode is not allowed"),
where eager detaches it. Seen on torch 2.0.1 (backend "eager" holds); 2.2.2 graph-breaks on detach_ of an input
(issue 149907 describes that graph break), so the call runs eagerly. No upstream report found."""
import sys

import torch
import torch._dynamo

with torch.inference_mode():
    made = torch.ones(2, 3)


def program(t):
    return t.detach_()


failed = {}
for name, fn in [("eager", program), ("aot_eager", torch.compile(program, backend="aot_eager"))]:
    torch._dynamo.reset()
    try:
        with torch.no_grad():
            fn(made)
        print(f"{name:10s} torch {torch.__version__}: ok")
    except Exception as e:                    # noqa: BLE001
        failed[name] = str(e)
        print(f"{name:10s} torch {torch.__version__}: {type(e).__name__}: {str(e).splitlines()[0][:110]}")
reproduces = "Inplace update to inference tensor" in failed.get("aot_eager", "") and "eager" not in failed
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

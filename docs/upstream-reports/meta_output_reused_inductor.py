"""Inductor on meta tensors: a function that returns an intermediate and also uses it for another output
(`halves = t.view(torch.int16); return halves.view(torch.float32), halves`; or `y = t + 1; return y, y * 2`) fails
to compile: the pass `joint_graph.remove_no_ops` replaces each meta-device graph output by an `empty_strided` node
placed just before `output`, and the node that used the original output now uses a value defined after it
("Argument 'empty_strided_default_1' of Node ... was used before it has been defined"). CPU inputs, aot_eager, or
returning only the last value compile. Seen on torch 2.4.1, 2.6.0, 2.8.0, 2.10.0, 2.13.0 and 2.14.1 (2.2.2 fails
earlier). Closest: issue 144607 (meta tensors under inductor, fixed by PR 150137)."""
import sys
import torch


def views(t):
    halves = t.view(torch.int16)
    return halves.view(torch.float32), halves


def add(t):
    y = t + 1
    return y, y * 2


failed = {}
for program in (views, add):
    for device in ("cpu", "meta"):
        torch._dynamo.reset()
        try:
            torch.compile(program, backend="inductor", fullgraph=True)(torch.ones(2, 4, device=device))
            print(f"{program.__name__:5s} {device:4s} torch {torch.__version__}: ok")
            failed[program.__name__, device] = False
        except Exception as e:                # noqa: BLE001
            failed[program.__name__, device] = True
            line = next((x for x in str(e).splitlines() if "before it has been defined" in x), str(e).splitlines()[0])
            print(f"{program.__name__:5s} {device:4s} torch {torch.__version__}: {type(e).__name__}: {line[:140]}")
# the bug: on meta the compile fails where the same program on the CPU compiles
reproduces = any(failed[name, "meta"] and not failed[name, "cpu"] for name in ("views", "add"))
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

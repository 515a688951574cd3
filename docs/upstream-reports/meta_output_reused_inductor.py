"""Inductor on meta tensors: a function that returns an intermediate and also uses it for another output
(`halves = t.view(torch.int16); return halves.view(torch.float32), halves`; or `y = t + 1; return y, y * 2`) fails
to compile: the pass `joint_graph.remove_no_ops` replaces each meta-device graph output by an `empty_strided` node
placed just before `output`, and the node that used the original output now uses a value defined after it
("Argument 'empty_strided_default_1' of Node ... was used before it has been defined"). CPU inputs, aot_eager, or
returning only the last value compile. Closest: issue 144607 (meta tensors under inductor, fixed by PR 150137)."""
import torch


def views(t):
    halves = t.view(torch.int16)
    return halves.view(torch.float32), halves


def add(t):
    y = t + 1
    return y, y * 2


for program in (views, add):
    for device in ("cpu", "meta"):
        torch._dynamo.reset()
        try:
            torch.compile(program, backend="inductor", fullgraph=True)(torch.ones(2, 4, device=device))
            print(f"{program.__name__:5s} {device:4s} torch {torch.__version__}: ok")
        except Exception as e:                # noqa: BLE001
            line = next((x for x in str(e).splitlines() if "before it has been defined" in x), str(e).splitlines()[0])
            print(f"{program.__name__:5s} {device:4s} torch {torch.__version__}: {type(e).__name__}: {line[:140]}")

"""A function that constructs a torch.nn.Module, compiled on torch 2.0 with fullgraph=True: dynamo 2.0 refuses the
constructor call of any torch.nn module class but Softmax and CrossEntropyLoss (TorchVariable.call_function in
torch/_dynamo/variables/torch.py: `unimplemented(f"construct nn.Module: {self.value.__name__}")`), so the compile
fails with Unsupported: construct nn.Module: Module, where eager builds the module and returns its state_dict. Seen
on torch 2.0.1 (any backend). 2.2.2 no longer refuses the construction (its fullgraph compile stops later, at
register_parameter's `__dict__` lookup, another graph break), and 2.13.0 and 2.14.1 compile the program. No upstream
issue found that reports it."""
import sys

import torch
import torch._dynamo


def program(w):
    m = torch.nn.Module()
    m.register_parameter("w", w)
    return m.state_dict(destination={})


failed = {}
for name, fn in [("eager", program), ("compiled", torch.compile(program, backend="eager", fullgraph=True))]:
    torch._dynamo.reset()
    try:
        with torch.no_grad():
            r = fn(torch.nn.Parameter(torch.ones(2)))
        print(f"{name:9s} torch {torch.__version__}: ok, keys {list(r)}")
    except Exception as e:                    # noqa: BLE001
        failed[name] = f"{type(e).__name__}: {e}"
        print(f"{name:9s} torch {torch.__version__}: {failed[name].splitlines()[0][:140]}")
# the bug: the compile refuses the module's construction where eager runs it
reproduces = "construct nn.Module" in failed.get("compiled", "") and "eager" not in failed
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

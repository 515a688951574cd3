"""Building a nested tensor inside a compiled function on torch 2.0: dynamo 2.0 traces `torch.nested.nested_tensor`
and `torch.nested.as_nested_tensor` on fake tensors, which do not implement the op
("NYI: aten._nested_tensor_from_tensor_list.default"), reported as TorchRuntimeError (the cause only in its
`__cause__`) or RuntimeError "Failed running call_function ...", where eager builds it. Seen on torch 2.0.1; 2.2.2
runs both (a graph break). No upstream report found."""
import sys

import torch
import torch._dynamo

programs = {
    "nested_tensor": lambda t: torch.nested.nested_tensor(list(t)).unbind()[0],
    "as_nested_tensor": lambda t: torch.nested.as_nested_tensor(list(t)).unbind()[0],
}
failing = []
for name, program in programs.items():
    torch._dynamo.reset()
    try:
        program(torch.ones(2, 3))
        torch.compile(program, backend="eager")(torch.ones(2, 3))
        print(f"{name:18s} torch {torch.__version__}: ok")
    except Exception as e:                    # noqa: BLE001
        cause = e.__cause__ if e.__cause__ is not None else e
        text = " ".join(str(cause).split())
        print(f"{name:18s} torch {torch.__version__}: {type(e).__name__}: {text[-100:]}")
        if "NYI: aten._nested_tensor_from_tensor_list" in text:
            failing.append(name)
print("differs:", ", ".join(failing) or "none")
reproduces = bool(failing)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

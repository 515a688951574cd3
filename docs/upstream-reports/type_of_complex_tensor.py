"""Tensor.type(str) on a complex tensor inside a compiled function: dynamo raises InternalTorchDynamoError
(StopIteration): its `method_type` looks the dtype up in a table without complex types. Eager returns the tensor.
Every torch release with dynamo (2.2.2 ... 2.14.1), any backend, CPU and CUDA (2.11.0+cu130 on an H100); `t.type()`
alone fails the same way for complex32, float8 and uint16/32/64. Recorded in specs/conversions.yaml
(`type:same_string`, evidence PR 138078, whose diff shows the lookup); no upstream issue yet."""
import sys
import torch


def program(t):
    return t.type(t.type())


failed = {}
for name, fn in [("eager", program), ("compile", torch.compile(program, backend="eager", fullgraph=True))]:
    t = torch.ones(2, dtype=torch.complex64)
    try:
        r = fn(t)
        print(f"{name:8s} torch {torch.__version__}: ok, {r.dtype}, same object {r is t}")
    except Exception as e:                    # noqa: BLE001
        failed[name] = True
        print(f"{name:8s} torch {torch.__version__}: {type(e).__name__}: {str(e).splitlines()[0][:160]}")
# the bug: the compiled call fails where eager runs
reproduces = failed.get("compile", False) and not failed.get("eager", False)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

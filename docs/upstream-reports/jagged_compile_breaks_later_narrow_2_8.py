"""Once any compiled function has built a jagged nested tensor (here `torch.nested.as_nested_tensor(x,
layout=torch.jagged).values()`, which compiles and runs fine), compiling another function that builds one with
`torch.nested.narrow(x, 1, starts, lengths, layout=torch.jagged)` fails for the rest of the process with
InternalTorchDynamoError "AttributeError: 'SymNode' object has no attribute 'nested_int_coeff'", under every backend
(eager included). Alone, in a fresh process (the draft runs itself once more for that), the narrow function compiles
and gives what eager gives. The state that carries it is process-wide, and `torch._dynamo.reset()` clears it: with a
reset between the two compiles the narrow function compiles. Seen on 2.8.0: the
matrix regenerations (issue 39) failed torch.nested.narrow:jagged under aot_eager, aot_eager.dynamic and inductor in
the worker that had run torch.nested.as_nested_tensor:jagged.tensor before it; 2.10.0 and 2.13.0 compile both. No
upstream report found (closest: issue 138496, nested ints created in the middle of a graph)."""
import os
import subprocess
import sys

import torch
import torch._dynamo


def as_nested(source):
    return torch.nested.as_nested_tensor(source, layout=torch.jagged).values()


def narrow(source):
    starts = torch.zeros(source.shape[0], dtype=torch.int64)
    lengths = torch.full((source.shape[0],), source.shape[1], dtype=torch.int64)
    return torch.nested.narrow(source, 1, starts, lengths, layout=torch.jagged).values()


def compiled_narrow(backend):
    """The narrow function compiled (no dynamo reset: it would clear what carries the bug) and called: None when it
    gives what eager gives, else what it raised."""
    source = torch.arange(6.0).reshape(2, 3)
    try:
        result = torch.compile(narrow, backend=backend)(source)
    except Exception as e:                    # noqa: BLE001 - what it raised is the finding
        return f"{type(e).__name__}: {str(e).splitlines()[0][:100]}"
    return None if torch.equal(result, narrow(source)) else f"values {result.tolist()}"


if sys.argv[1:] == ["alone"]:   # the child: the narrow function alone, in a fresh process
    print(compiled_narrow("aot_eager") or "as eager")
    sys.exit(0)
child = subprocess.run([sys.executable, os.path.abspath(__file__), "alone"], capture_output=True, text=True)
alone = child.stdout.strip().splitlines()[-1] if child.stdout.strip() else f"no output: {child.stderr[-300:]}"
torch.compile(as_nested, backend="aot_eager")(torch.arange(6.0).reshape(2, 3))
after = {b: compiled_narrow(b) for b in ("eager", "aot_eager")}
print(f"torch {torch.__version__}: narrow compiled (aot_eager) alone in a fresh process: {alone}")
for backend, seen in after.items():
    print(f"torch {torch.__version__} backend={backend}: after a compiled as_nested_tensor: {seen or 'as eager'}")
reproduces = alone == "as eager" and any(after.values())
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

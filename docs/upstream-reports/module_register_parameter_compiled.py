"""A torch.nn.Module made inside a function compiled with fullgraph=True and given a parameter and buffers
(register_parameter, register_buffer), then its state_dict(destination=d): eagerly d gets the one key 'w'. On torch
2.2.2 and 2.4.1 dynamo cannot trace register_parameter on the module it holds as an UnspecializedNNModuleVariable
(2.2.2: "call_method GetAttrVariable(UnspecializedNNModuleVariable(Module), __dict__) __contains__"; 2.4.1: "...
_parameters) __setitem__"), a graph break that fullgraph=True refuses (Unsupported); with fullgraph=False the frame
runs eagerly. 2.6.0 ... 2.14.1 trace the whole function and return eager's result. On 2.4.1 turning dynamo's
inline_inbuilt_nn_modules on (TORCHDYNAMO_INLINE_INBUILT_NN_MODULES=1; on by default from 2.5, PR 131059) does not
help. No upstream report of this program found; closest issue 128556 (a module made in the compiled function
graph-breaks)."""
import sys

import torch


def program(source):
    m = torch.nn.Module()
    m.register_parameter("w", source)
    m.register_parameter("none_param", None)
    m.register_buffer("none_buffer", None)
    m.register_buffer("temporary", source.detach(), persistent=False)
    d = {}
    return m.state_dict(destination=d), d


def outcome(fn):
    try:
        result, d = fn(torch.nn.Parameter(torch.ones(2, 3)))
    except Exception as e:                    # noqa: BLE001 - the class raised is what is compared
        return f"{type(e).__name__}: {str(e).strip().splitlines()[0][:110]}"
    return f"ok, keys {list(result)}, the given dict returned: {result is d}"


seen = {"eager": outcome(program)}
for backend in ("eager", "aot_eager"):
    torch._dynamo.reset()
    seen[f"compile {backend}"] = outcome(torch.compile(program, backend=backend, fullgraph=True))
for k, v in seen.items():
    print(f"{k:18s} torch {torch.__version__}: {v}")
reproduces = any(v != seen["eager"] for v in seen.values())
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""A function whose first op raises at run time (trunc_ of a complex tensor: NotImplementedError, "trunc is not
supported for complex inputs") and whose later op has arguments it refuses by shape (an in-place add of a (3, 4)
tensor into a smaller one): eagerly the first op's error is raised; compiled (every backend, dynamo alone too) the
later op's shape error is raised while tracing (TorchRuntimeError, or BackendCompilerFailed where the op reaches
AOTAutograd: RuntimeErrors, not NotImplementedErrors), because fake-tensor tracing checks the later op's shapes but
not trunc's dtype. A caller that handles eager's error class no longer catches it. Found by
`python -m copysuite fuzz --vocabulary surface` (seed 0, compile.aot_eager); seen on torch 2.13.0 and 2.14.1. No
upstream issue found (closest: issue 150993, compile accepting what eager refuses, fixed in 2.12)."""
import sys

import torch


def program(a):
    a.trunc_()
    a.add_(torch.ones(3, 4))
    return a


classes = {}
for backend in ("eager (no compile)", *(sys.argv[1:] or ["eager", "aot_eager"])):
    fn = program if backend.startswith("eager (") else torch.compile(program, backend=backend)
    try:
        fn(torch.arange(3).to(torch.complex64))
        classes[backend] = None
    except Exception as exc:  # noqa: BLE001 - the class raised is what is compared
        classes[backend] = type(exc)
        print(f"{backend:18s} torch {torch.__version__}: {type(exc).__name__}: {str(exc).splitlines()[0][:100]}")
eager = classes.pop("eager (no compile)")
# the bug: a compiled call raises an error that is not an instance of eager's class
reproduces = any(c is None or not issubclass(c, eager) for c in classes.values())
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""Slicing a 0-d tensor (`x[:1]`): eagerly an IndexError ("slice() cannot be applied to a 0-dim tensor.", ATen's
TORCH_CHECK_INDEX); under torch.compile (backend="eager" already: dynamo's fake-tensor call) a TorchRuntimeError,
which is no IndexError, so a caller's `except IndexError` misses it. Under FakeTensorMode the op runs the Python
decomposition `slice_forward` (torch/_decomp/decompositions.py), which raises RuntimeError for the same check, so
dynamo's fix for IndexError raised while tracing (PR 184856, issue 184340: softmax(dim=10) compiled now raises
IndexError) does not apply. Found by `python -m copysuite fuzz --execution compile.aot_eager` (seed 1,
COPYSUITE_FUZZ_SHAPES=between,after,module: a module's 0-d buffer `count.fill_(3)` then `scatter_` with an index
built from `count[:1]`); seen on torch 2.13.0 and 2.14.1. No upstream report found; closest: issue 184340 (closed),
issue 158088 (torch.compile does not raise eager's fake-tensor exception, open)."""
import sys

import torch
from torch._subclasses.fake_tensor import FakeTensorMode


def program(x):
    return x[:1]


def raised(fn):
    try:
        fn()
    except Exception as exc:   # noqa: BLE001 - what each side raises is the finding
        return exc
    return None


eager = raised(lambda: program(torch.tensor(0.0)))
compiled = raised(lambda: torch.compile(program, backend="eager")(torch.tensor(0.0)))


def fake():
    with FakeTensorMode():
        program(torch.zeros(()))


under_fake = raised(fake)
for side, exc in (("eager", eager), ("compiled (backend=eager)", compiled), ("under FakeTensorMode", under_fake)):
    print(f"torch {torch.__version__} {side:26s}: {type(exc).__name__}, an IndexError: {isinstance(exc, IndexError)}")
# the bug: eager raises an IndexError, the compiled call an exception that is none
reproduces = isinstance(eager, IndexError) and not isinstance(compiled, IndexError)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

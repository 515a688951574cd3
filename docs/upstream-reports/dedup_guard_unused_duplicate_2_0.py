"""One tensor passed as three arguments of a function compiled with an AOTAutograd backend on torch 2.0, where one
of the three is not used by the graph: compiling fails with an InternalTorchDynamoError whose message is empty and
whose cause is `IndexError: list index out of range`, raised by dynamo's guard builder
(torch/_dynamo/guards.py, CheckFunctionManager.compile_check_fn) while it turns AOTAutograd's DuplicateInputs guard
into `a is b`: it looks the duplicated argument positions up in `output_graph.pos_to_arg` and indexes `graphargs`
with the result, which no longer lines up once the unused argument is left out. Eager returns the doubled tensor.
Two arguments, or three that the graph all uses, compile; the "eager" backend (no AOTAutograd, no such guard)
compiles too. Seen on torch 2.0.1 (aot_eager and inductor, static and dynamic shapes: the matrix regeneration of
issue 39, compiled.same_tensor_twice). 2.2.2, 2.13.0 and 2.14.1 compile it: PR 98775 ("[Dynamo] De-dup graph
inputs", April 2023) makes dynamo pass one graph input per distinct tensor, so AOTAutograd sees no duplicate. No
upstream issue found that reports this program."""
import sys

import torch
import torch._dynamo


def program(source, a, b):
    a.mul_(2)
    return b


def causes(exc):
    seen = []
    while exc is not None:
        seen.append(f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
        exc = exc.__cause__ or exc.__context__
    return seen


failed = {}
for name, fn in [("eager", program), ("aot_eager", torch.compile(program, backend="aot_eager"))]:
    torch._dynamo.reset()
    x = torch.ones(2, 3)
    try:
        with torch.no_grad():
            r = fn(x, x, x)
        print(f"{name:9s} torch {torch.__version__}: ok, result {r.flatten().tolist()}")
    except Exception as e:                    # noqa: BLE001
        failed[name] = " <- ".join(causes(e))
        print(f"{name:9s} torch {torch.__version__}: {failed[name][:200]}")
# the bug: the guard builder's IndexError where eager returns the tensor
reproduces = "IndexError: list index out of range" in failed.get("aot_eager", "") and "eager" not in failed
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

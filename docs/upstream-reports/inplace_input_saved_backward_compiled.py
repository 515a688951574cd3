"""An in-place op whose derivative needs its input, on an input that requires grad and is no leaf (`b = leaf * 1`,
then `b.sin_()` inside the compiled function): eagerly backward runs (autograd saves the original value for sin_'s
derivative) and gives cos(0.5); under torch.compile (backend="aot_eager") backward raises
"one of the variables needed for gradient computation has been modified by an inplace operation: ... which is output
0 of torch::autograd::CopyBackwards, is at version 1; expected version 0". The compiled function writes its new value
back into the input with copy_ after the compiled forward, and what the compiled backward saved is moved by that
write. sin_, abs_ and square_ fail; exp_, sigmoid_, neg_ and relu_ (whose derivative reads the result or nothing) do
not. Found by `python -m copysuite fuzz --execution compile.aot_eager --vocabulary surface` (abs_, seed 5201); seen
on torch 2.13.0 and 2.14.1. No upstream report found with this case; closest: issue 185497 (open, "variable modified
by inplace operation during backward in compiled mode (succeeds in eager)")."""
import sys

import torch


def program(b):
    return b.sin_()


def backward(fn):
    leaf = torch.full((1,), 0.5, requires_grad=True)
    try:
        fn(leaf * 1).sum().backward()
    except RuntimeError as exc:
        return f"raised RuntimeError: {str(exc)[:100]}"
    return f"grad {leaf.grad.tolist()}"


eager = backward(program)
compiled = backward(torch.compile(program, backend="aot_eager", fullgraph=True))
print(f"torch {torch.__version__} eager    : {eager}")
print(f"torch {torch.__version__} aot_eager: {compiled}")
# the bug: backward through the compiled in-place op raises where eager's runs
reproduces = eager.startswith("grad") and compiled.startswith("raised")
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

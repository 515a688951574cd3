"""A custom operator tagged `torch.Tag.inplace` returns the tensor it mutates, and one tagged `torch.Tag.out` returns
its out= tensor (torch.library.custom_op's docstring: `assert result is x`, `assert result is out`; the tagged forms
are new in 2.13). Compiled, the result is a fresh tensor instead: not the caller's tensor, sharing no memory with
it, so a later write to the result no longer reaches it (the values are right). AOTAutograd does it for both
(aot_eager, also dynamic); inductor for the out= form. aten's own out= (`torch.mul(x, 2, out=out)`) keeps the
identity under every backend. Found by `python -m copysuite fuzz` (the `custom_op` program shape,
compile.aot_eager and compile.inductor); seen on torch 2.13.0 and 2.14.1. Closest: PR 180852 (out-tagged custom
operators through auto_functionalize in torch.compile), PR 184202 (custom_op understands torch.Tag.out)."""
import sys

import torch


@torch.library.custom_op("draft::add_one_", mutates_args={"x"}, tags=torch.Tag.inplace)
def add_one_(x: torch.Tensor) -> torch.Tensor:
    return x.add_(1)


@torch.library.custom_op("draft::doubled_out", mutates_args={"out"}, tags=torch.Tag.out)
def doubled_out(x: torch.Tensor, *, out: torch.Tensor) -> torch.Tensor:
    return out.copy_(x * 2)


def inplace(x):
    return add_one_(x)


def out_form(x, out):
    return doubled_out(x, out=out)


def aten_out(x, out):
    return torch.mul(x, 2, out=out)


wrong = []
for name, fn, count in (("tagged in-place", inplace, 1), ("tagged out=", out_form, 2), ("aten out=", aten_out, 2)):
    for backend in ("eager (no compile)", *(sys.argv[1:] or ["aot_eager", "inductor"])):
        args = [torch.arange(3.0) for _ in range(count)]
        run = fn if backend.startswith("eager (") else torch.compile(fn, backend=backend)
        result = run(*args)
        written = args[-1]
        same = result is written
        shares = result.untyped_storage().data_ptr() == written.untyped_storage().data_ptr()
        print(f"{name:16s} {backend:18s} torch {torch.__version__}: result is the written tensor {same}, shares "
              f"its memory {shares}, values {result.tolist()}")
        if not backend.startswith("eager (") and not same:
            wrong.append((name, backend))
print("the result is not the written tensor:", wrong)
# the bug: compiled, a tagged custom operator's result is not the tensor it writes (aten's out= is the control)
reproduces = any(name != "aten out=" for name, _ in wrong)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

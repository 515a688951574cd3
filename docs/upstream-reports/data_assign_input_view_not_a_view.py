"""`a.data = a` (or `a.data = a.detach().clone()`) inside a compiled function, then a view of the input `a` returned
(`torch.diagonal(a, 0)`), where `a` requires grad (a Parameter, or a non-leaf): eager returns a view of `a` (`_base`
is `a`, grad_fn DiagonalBackward0); under aot_eager the output is no view (`_is_view()` False, grad_fn
CompiledFunctionBackward), so an in-place write to it that eager refuses (a view of a leaf that requires grad) runs,
and autograd sees no view relation. Under torch.no_grad() the same happens to `a.as_strided((1,), (1,), 0)`: eager's
view does not require grad, the compiled output does (a grad_fn under no_grad). An input that does not require grad,
or a view without the assignment, holds. Found by `python -m copysuite fuzz --execution compile.aot_eager --vocabulary
surface` on 2.14.1 (seeds 6500 and 6501); seen on torch 2.13.0 (dynamo lowers `.data =` to set_ under no_grad) and
2.14.1 (to aten.shallow_copy_data_), CPU. Upstream: issue 94773 (open) is `.data =` while an alias of the tensor is
alive; issue 90507 (open) is an output's autograd view metadata after an in-place view op; neither is this case."""
import sys

import torch


def diagonal_after_assignment(a):
    a.data = a
    return torch.diagonal(a, 0)


def as_strided_after_assignment(a):
    a.data = a
    return torch.as_strided(a, (1,), (1,), 0)


backend = sys.argv[1] if len(sys.argv) > 1 else "aot_eager"
differs = []
for program, make, grad_mode in (
        (diagonal_after_assignment, lambda: torch.nn.Parameter(torch.zeros(1, 1)), torch.enable_grad),
        (as_strided_after_assignment, lambda: torch.arange(3.0)[2:].requires_grad_(), torch.no_grad)):
    seen = {}
    for name, fn in (("eager", program), (backend, torch.compile(program, backend=backend))):
        a = make()
        with grad_mode():
            out = fn(a)
        seen[name] = (out._is_view(), out._base is a, out.requires_grad, type(out.grad_fn).__name__)
        print(f"{program.__name__} under {grad_mode.__name__}, {name:10s} torch {torch.__version__}: view "
              f"{seen[name][0]}, its base is a {seen[name][1]}, requires_grad {seen[name][2]}, grad_fn {seen[name][3]}")
    if seen[backend] != seen["eager"]:
        differs.append(program.__name__)
print("differs:", differs)
# the bug: the compiled output is no view of the input (nor autograd's idea of one) where eager's is
reproduces = bool(differs)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

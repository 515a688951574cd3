"""An out= call on a dual tensor of forward-mode AD: eagerly refused ("Trying to use forward AD with log1p_out that
does not support it because it is an out= function", NotImplementedError, autograd's generated kernel of every out=
op), under torch.func.functionalize it runs and returns the functional op's tangent: functionalize replaces an out=
op by its functional op and a copy_ into the out tensor (torch.func.functionalize's docstring), and the refusal
does not reach the caller; torch.compile(backend="aot_eager") the same (compiled on a plain tensor, then called with
the dual one). An in-place op that eager's forward AD has no formula for (acosh_, asinh_, atanh_: "Trying to use
forward AD with acosh_ that does not support it because it has not been implemented yet") runs the same way, as its
functional op and a copy_. The out= form of a view-copy op (`torch.unsqueeze_copy(a, 0, out=o)`, alias_copy) is
refused eagerly with another message ("Trying to use forward AD with aten::unsqueeze_copy that does not support it.":
the functional op has a formula) and runs functionalized the same way (found by the functionalize campaign of 2.14.1,
seed 6520; seen on 2.13.0 and 2.14.1). Found by `python -m copysuite fuzz --execution functionalize --vocabulary
surface` (seed 5202, the program also called with its floating inputs dual; the compiled form with compile.aot_eager, seed 5201;
acosh_ (arccosh_) under compile.aot_eager, seed 6401); seen on torch 2.13.0 and 2.14.1. No upstream report found
(closest: issue 137213, functionalization of an out= op skipping its dtype check, open)."""
import sys

import torch


def program(a):
    return torch.log1p(a, out=a)


def inplace(a):
    return a.acosh_()


def view_copy(a):
    return torch.unsqueeze_copy(a, 0, out=torch.empty(1, 4))


def tangent(fn):
    with torch.autograd.forward_ad.dual_level():
        x = torch.autograd.forward_ad.make_dual(torch.arange(1.0, 5.0), torch.ones(4))
        try:
            out = fn(x)
        except Exception as exc:   # noqa: BLE001 - what each side raises is the finding
            return f"raised {type(exc).__name__}: {str(exc)[:80]}"
        return f"tangent {torch.autograd.forward_ad.unpack_dual(out).tangent.tolist()}"


def compiled(fn):
    """torch.compile(backend="aot_eager"), compiled on a plain tensor first (dynamo refuses a dual first input on
    2.14), then called with the dual one: AOTAutograd functionalizes the out= op the same way."""
    f = torch.compile(fn, backend="aot_eager")
    f(torch.arange(1.0, 5.0))
    return f


reproduces = False
for fn in (program, inplace, view_copy):
    torch._dynamo.reset()
    eager = tangent(fn)
    functionalized = tangent(torch.func.functionalize(fn))
    aot_eager = tangent(compiled(fn))
    print(f"torch {torch.__version__} {fn.__name__} eager         : {eager}")
    print(f"torch {torch.__version__} {fn.__name__} functionalize : {functionalized}")
    print(f"torch {torch.__version__} {fn.__name__} aot_eager     : {aot_eager}")
    # the bug: eager refuses the call on a dual tensor, functionalize (or aot_eager) runs it
    reproduces |= eager.startswith("raised NotImplementedError") and not (functionalized.startswith("raised")
                                                                          and aot_eager.startswith("raised"))
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

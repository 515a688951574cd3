"""Forward-mode AD of an in-place op whose other operand is the tensor it writes (`a.addcmul_(a, a)`, `a.mul_(a)`,
`a.pow_(a)`, `a.atan2_(a)` and their foreach forms, `torch._foreach_mul_([a], [a])`), a dual a: the tangent is
computed from the updated a, not the a the op read. For a = [0.5, 2] with tangent [1, 1], a * a has the tangent
2a = [1, 4]; eager's `a.mul_(a)` gives [0.75, 6] (1 * a + 1 * a * a: the self operand's value before the write, the
other operand's after it), silently; the out-of-place op is right, and so are torch.func.functionalize and
torch.compile(backend="aot_eager") (compiled on a plain tensor, then called with the dual one), which run the
out-of-place op. At a = [0, 1] (a * a == a) mul_ happens to be right, which hid it from an earlier form of this
draft. Found by `python -m copysuite fuzz --execution functionalize --vocabulary surface` (the foreach addcmul form)
and under compile.aot_eager (seed 6401, `_foreach_mul_`), `a.fmod_(a)` by the 2.13.0 functionalize top-up (seed 6621);
seen on torch 2.13.0 and 2.14.1. No upstream report found
(closest: PR 100695, forward AD of in-place foreach ops)."""
import sys

import torch
import torch.autograd.forward_ad as fwAD

CASES = (
    ("a.mul_(a)", lambda a: a.mul_(a), lambda a: a * a),
    ("a.addcmul_(a, a)", lambda a: a.addcmul_(a, a), lambda a: a.addcmul(a, a)),
    ("a.pow_(a)", lambda a: a.pow_(a), lambda a: a.pow(a)),
    ("a.atan2_(a)", lambda a: a.atan2_(a), lambda a: a.atan2(a)),
    ("_foreach_mul_", lambda a: torch._foreach_mul_([a], [a]), lambda a: a * a),
    ("_foreach_addcmul_", lambda a: torch._foreach_addcmul_([a], [a], [a]), lambda a: a.addcmul(a, a)),
    ("a.fmod_(a)", lambda a: a.fmod_(a), lambda a: a.fmod(a)),
)


def tangent(fn):
    with fwAD.dual_level():
        a = fwAD.make_dual(torch.tensor([0.5, 2.0]), torch.ones(2))
        out = fn(a)
        result = a if out is None or isinstance(out, (list, tuple)) else out
        return [round(v, 4) for v in fwAD.unpack_dual(result).tangent.tolist()]


def compiled(fn):
    torch._dynamo.reset()
    f = torch.compile(fn, backend="aot_eager")
    f(torch.tensor([0.5, 2.0]))     # compiled on a plain tensor first (dynamo refuses a dual first input on 2.14)
    return f


wrong = []
for name, inplace, functional in CASES:
    expected = tangent(functional)
    seen = {"eager": tangent(inplace), "functionalize": tangent(torch.func.functionalize(inplace)),
            "aot_eager": tangent(compiled(inplace))}
    print(f"torch {torch.__version__} {name:18}: out-of-place {expected}, "
          + ", ".join(f"{k} {v}" for k, v in seen.items()))
    wrong += [f"{name} {k}" for k, v in seen.items() if v != expected]
print("differs from the out-of-place tangent:", ", ".join(wrong) or "nothing")
# the bug: an in-place form's tangent differs from the out-of-place op's
reproduces = bool(wrong)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

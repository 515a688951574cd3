"""Forward-mode AD of `a.addcmul_(a, a)` (and `torch._foreach_addcmul_([a], [a], [a])`), a dual a whose other
operands are a itself: the tangent is computed from the updated a, not the a the op read. For a = [0, 1] with tangent
[1, 1] the result is a + a * a = [0, 2] and its tangent 1 + 2a = [1, 3]; eager gives [1, 5] (1 + 2 * 2, the new a),
silently. `a.mul_(a)` is right ([0, 2]); torch.func.functionalize, which runs the out-of-place addcmul, gives [1, 3].
Found by `python -m copysuite fuzz --execution functionalize --vocabulary surface` (the foreach form); seen on torch
2.13.0 and 2.14.1. No upstream report found (closest: PR 100695, forward AD of in-place foreach ops)."""
import sys

import torch
import torch.autograd.forward_ad as fwAD

seen = {}
for name, fn in (("a.addcmul_(a, a)", lambda a: a.addcmul_(a, a)),
                 ("_foreach_addcmul_", lambda a: torch._foreach_addcmul_([a], [a], [a])),
                 ("a.addcmul(a, a)", lambda a: a.addcmul(a, a))):
    with fwAD.dual_level():
        a = fwAD.make_dual(torch.arange(2.0), torch.ones(2))
        out = fn(a)
        result = a if out is None or isinstance(out, (list, tuple)) else out
        seen[name] = fwAD.unpack_dual(result).tangent.tolist()
    print(f"torch {torch.__version__} {name:18}: tangent {seen[name]} (expected [1.0, 3.0])")
# the bug: an in-place form's tangent differs from 1 + 2a of the a it read
reproduces = any(seen[name] != [1.0, 3.0] for name in seen)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""A function compiled with backend="aot_eager" that calls an overload packet of the special polynomials
(`torch.ops.aten.special_laguerre_polynomial_l(x, 2)`) kills the process (SIGSEGV) when it is first called inside
`torch.autograd.forward_ad.dual_level()`, even with no dual tensor anywhere. Outside the dual level the same compiled
call returns, as does the uncompiled call inside it, and so does naming the overload (`.n_scalar`) or calling
`torch.special.laguerre_polynomial_l`. faulthandler puts the dying thread in `torch/_tensor_str.py`, printing a
FunctionalTensor (`FunctionalTensor.__repr__`) under `torch/_ops.py` OpOverloadPacket `__call__` during AOTAutograd's
metadata collection: the packet's overload resolution formats a tensor, and formatting a functional tensor inside the
dual level crashes. The hermite and chebyshev packets do the same, with out= or without, and so does
`torch.ops.aten._foreach_clamp_max_([t], [t])` after `t = torch.cumsum(x, 1)` (2.13.0 and 2.14.1), and so does
backend="inductor" (`torch.ops.aten.special_shifted_chebyshev_polynomial_w(t, 2, out=t)`, a worker of the inductor
fuzz campaign's seed 6610 killed by SIGSEGV; by hand on 2.13.0 and 2.14.1). Found by `python
-m copysuite fuzz --execution compile.aot_eager --vocabulary surface` (seed 5201, a worker that died by SIGSEGV; the
fuzzed program had a wrapper subclass input and a dual input, neither needed); seen on torch 2.13.0 and 2.14.1 (CPU).
Closest upstream: issue 197086 (jvp over ldexp compiled with aot_eager kills the process; open), which needs a
dual tensor. Each call runs in a child process, so that the crash is observed rather than suffered."""
import signal
import subprocess
import sys

import torch

PROGRAM = """
import torch
import torch.autograd.forward_ad as fwAD


def program(x):
    return torch.ops.aten.special_laguerre_polynomial_l(x, 2)


fn = torch.compile(program, backend="aot_eager") if COMPILED else program
x = torch.zeros(2, dtype=torch.float64)
if IN_DUAL_LEVEL:
    with fwAD.dual_level():
        out = fn(x)
else:
    out = fn(x)
print(f"returned {out.tolist()}")
"""

killed = {}
for side, compiled, in_dual_level in (("eager, in dual_level", False, True), ("aot_eager, outside", True, False),
                                      ("aot_eager, in dual_level", True, True)):
    done = subprocess.run([sys.executable, "-c", f"COMPILED = {compiled}\nIN_DUAL_LEVEL = {in_dual_level}\n{PROGRAM}"],
                          capture_output=True, text=True, timeout=300)
    said = (done.stdout.strip().splitlines() or done.stderr.strip().splitlines() or ["nothing printed"])[-1]
    how = f"killed by {signal.Signals(-done.returncode).name}" if done.returncode < 0 else \
        f"exit status {done.returncode}"
    print(f"torch {torch.__version__} {side:25s}: {how}; {said}")
    killed[side] = done.returncode < 0
# the bug: the compiled call inside the dual level kills the process where the other two return
reproduces = killed["aot_eager, in dual_level"] and not killed["eager, in dual_level"] \
    and not killed["aot_eager, outside"]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

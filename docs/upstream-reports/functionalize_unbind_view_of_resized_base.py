"""torch.func.functionalize kills the process (SIGSEGV) when a view made by unbind() is regenerated from a base that
an out= op has resized to fewer rows: eagerly the view keeps its own element over the old memory and the program
returns it. select() in unbind()'s place raises an IndexError under functionalize instead of crashing, and resize_()
in the out= op's place returns the view: the crash is unbind's regeneration, whose output index (here 3) is not
checked against the resized base's rows (here 1). The same family as functionalize_views_of_resized_base.py (a view
regenerated from its resized base), where it costs a wrong shape; here the process. Found by
`python -m copysuite fuzz --execution functionalize --vocabulary surface` (seed 5202, the programs of a campaign
whose worker died by SIGSEGV; the fuzzed program called unbind, atan(out=) and neg(out=)); seen on torch 2.13.0 and
2.14.1. No upstream issue found (searched: functionalize unbind segfault, functionalize resize view regenerate).
The functionalized call runs in a child process, so that the crash is observed rather than suffered."""
import signal
import subprocess
import sys

import torch

PROGRAM = """
import warnings
import torch
warnings.simplefilter("ignore")   # out= resizing a tensor with elements warns


def program(b):
    last = b.unbind(0)[-1]              # a view of b's element 3
    torch.neg(torch.zeros(1), out=b)    # out= resizes b from (4,) to (1,)
    return last


fn = torch.func.functionalize(program) if FUNCTIONALIZE else program
out = fn(torch.zeros(4))
print(f"returned a tensor of shape {tuple(out.shape)}")
"""

crashed = {}
for side, functionalize in (("eager", False), ("functionalize", True)):
    done = subprocess.run([sys.executable, "-c", f"FUNCTIONALIZE = {functionalize}\n{PROGRAM}"], capture_output=True,
                          text=True, timeout=300)
    said = (done.stdout.strip().splitlines() or done.stderr.strip().splitlines() or ["nothing printed"])[-1]
    how = f"killed by {signal.Signals(-done.returncode).name}" if done.returncode < 0 else \
        f"exit status {done.returncode}"
    print(f"torch {torch.__version__} {side:13s}: {how}; {said}")
    crashed[side] = done.returncode < 0
# the bug: functionalize kills the process where eager returns the view
reproduces = crashed["functionalize"] and not crashed["eager"]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

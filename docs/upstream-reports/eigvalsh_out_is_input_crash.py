"""torch.linalg.eigvalsh with out= its own input (`torch.linalg.eigvalsh(x, out=x)`, x a batch of one symmetric 4x4
matrix) corrupts the heap eagerly: the process dies by SIGABRT ("free(): invalid next size (fast)", "corrupted size
vs. prev_size") or SIGSEGV, sometimes only later, sometimes not at all (one run of five returned on 2.13.0). The out=
is resized to the eigenvalues' shape (1, 4) while LAPACK still works in the input's memory; nothing checks the
overlap, where most out= ops raise "unsupported operation: some elements of the input tensor and the written-to tensor
refer to a single memory location". The out= contract (docs/stable/notes/out.html) asks for the result "safe
copied". Found as a worker death by `python -m copysuite fuzz --execution functionalize --vocabulary surface`
(torch 2.14.1, seed 6520: `t2 = t1._autocast_to_full_precision(False, False)`, t1 itself, then
`torch.linalg.eigvalsh(t1, UPLO='U', out=t2)`, eagerly); seen on torch 2.8.0, 2.12.1, 2.13.0 and 2.14.1. No upstream
report found (searched: eigvalsh out aliases input crash, linalg out= overlapping input heap corruption). Each call
runs in a child process, so that the crash is observed rather than suffered; the call is tried up to five times,
since heap corruption does not always kill."""
import signal
import subprocess
import sys

import torch

PROGRAM = """
import torch
x = torch.arange(16.0).reshape(1, 4, 4)
x = x + x.mT
out = torch.linalg.eigvalsh(x, out=x if OUT_IS_INPUT else torch.empty(0))
print(f"returned eigenvalues of shape {tuple(out.shape)}")
"""


def run(out_is_input):
    done = subprocess.run([sys.executable, "-c", f"OUT_IS_INPUT = {out_is_input}\n{PROGRAM}"], capture_output=True,
                          text=True, timeout=300)
    said = (done.stdout.strip().splitlines() or done.stderr.strip().splitlines() or ["nothing printed"])[-1]
    how = f"killed by {signal.Signals(-done.returncode).name}" if done.returncode < 0 else \
        f"exit status {done.returncode}"
    return done.returncode < 0, f"{how}; {said}"


fresh_crashed, fresh = run(False)
print(f"torch {torch.__version__} eigvalsh(x, out=fresh): {fresh}")
itself_crashed = False
for attempt in range(5):
    itself_crashed, itself = run(True)
    print(f"torch {torch.__version__} eigvalsh(x, out=x), run {attempt + 1}: {itself}")
    if itself_crashed:
        break
# the bug: an out= that is the input kills the process where a fresh out= does not
reproduces = itself_crashed and not fresh_crashed
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""With the compile caches on (inductor's FX graph cache and AOTAutograd's cache, the defaults), a graph compiled for
aliased inputs is served to a new function called on inputs that do not alias, in the same process or in another
one that shares the cache directory: the write through the first input is read back through the second, which is a
separate tensor. Silent. A fresh cache directory, or the caches off, gives eager's answer. Seen on torch 2.13.0 and
2.14.1 CPU (found by `python -m copysuite fuzz --caches on`). Upstream: PR 184694 ("Fix AOTAutograd input overlap
guards", closed unmerged) added the inputs' aliasing to the AOTAutograd cache key; issue 139789 (open) is the missing
guard within one function (dynamo's cache), not the caches' key; no issue reports the cache case.

This draft needs the compile caches ON, and switches them on itself: it sets TORCHINDUCTOR_FX_GRAPH_CACHE=1 and
TORCHINDUCTOR_AUTOGRAD_CACHE=1 before torch is imported (those variables override torch's config, so a caller's
"0" would hide the bug), and uses a fresh cache directory unless TORCHINDUCTOR_CACHE_DIR is set.
`COMPILE_CACHES = "on"` below tells `python -m copysuite drafts` not to switch them off.

    python cache_serves_aliased_graph.py            # in one process, then a second process on the same cache
"""
import os
import subprocess
import sys
import tempfile

COMPILE_CACHES = "on"
os.environ.update(TORCHINDUCTOR_FX_GRAPH_CACHE="1", TORCHINDUCTOR_AUTOGRAD_CACHE="1")
if not os.environ.get("TORCHINDUCTOR_CACHE_DIR"):
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="aliased-graph-cache-")
import torch  # noqa: E402 - after the cache settings, which torch reads when imported

SERVED = 10                                       # the second process's exit status when it was served the graph
SOURCE = '''
def program(a, b):
    a.add_(1)
    return b * 1
'''


def fresh():
    """A new function (its own code object, nothing in dynamo's cache), compiled with inductor."""
    namespace = {}
    exec(compile(SOURCE, "<program>", "exec"), namespace)  # noqa: S102 - the program above
    return torch.compile(namespace["program"])


def separate_inputs() -> bool:
    """Calls a new compiled function on two separate tensors; True when the result is not eager's."""
    torch._dynamo.reset()
    a, b = torch.zeros(4), torch.zeros(3)
    result = fresh()(a, b)
    print(f"torch {torch.__version__}, pid {os.getpid()}, separate inputs: {result.tolist()}; "
          f"eager: {(b * 1).tolist()}")
    return result.tolist() != (b * 1).tolist()


if sys.argv[1:] == ["second"]:                    # the other process: the cache the first one filled
    sys.exit(SERVED if separate_inputs() else 0)
x = torch.zeros(4)
print(f"torch {torch.__version__}, aliased inputs (x, x[1:]): {fresh()(x, x[1:]).tolist()}")
same_process = separate_inputs()
child = subprocess.run([sys.executable, __file__, "second"], capture_output=True, text=True)
print("another process on the same cache directory:", child.stdout.strip() or child.stderr.strip()[-300:])
if child.returncode not in (0, SERVED):
    sys.exit(f"the second process failed (exit status {child.returncode}): {child.stderr.strip()[-500:]}")
other_process = child.returncode == SERVED
print(f"served the aliased graph: in the same process {same_process}, in another process {other_process}")
reproduces = same_process or other_process
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

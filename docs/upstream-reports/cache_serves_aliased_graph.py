"""With the compile caches on (inductor's FX graph cache and AOTAutograd's cache, the defaults), a graph compiled for
aliased inputs is served to a new function called on inputs that do not alias, in the same process or in another
one that shares the cache directory: the write through the first input is read back through the second, which is a
separate tensor. Silent. A fresh cache directory, or the caches off, gives eager's answer. Seen on torch 2.13.0 CPU
(found by `python -m copysuite fuzz --caches on`). Upstream: PR 184694 ("Fix AOTAutograd input overlap guards",
closed unmerged) added the inputs' aliasing to the AOTAutograd cache key; issue 139789 (open) is the missing guard
within one function (dynamo's cache), not the caches' key; no issue reports the cache case.

    python cache_serves_aliased_graph.py            # both calls in one process
    python cache_serves_aliased_graph.py first      # then, in another process:
    python cache_serves_aliased_graph.py second
"""
import os
import sys
import tempfile

os.environ.setdefault("TORCHINDUCTOR_CACHE_DIR", os.path.join(tempfile.gettempdir(), "aliased-graph-cache-demo"))
import torch

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


step = sys.argv[1] if len(sys.argv) > 1 else "both"
if step in ("both", "first"):
    x = torch.zeros(4)
    print("aliased inputs (x, x[1:]):", fresh()(x, x[1:]).tolist())
if step in ("both", "second"):
    torch._dynamo.reset()
    a, b = torch.zeros(4), torch.zeros(3)
    print(f"torch {torch.__version__}, separate inputs: {fresh()(a, b).tolist()}; eager: {(b * 1).tolist()}")

"""torch.asarray of a 0-d NumPy array copies it, where the page promises that a NumPy array is shared ("If obj is a
tensor, NumPy array, or DLPack capsule the returned tensor will, by default, ... share memory with it"). 1.13.1
shares a 0-d array like any other; from 2.0 (PR 90914, which added NumPy scalars to asarray as a 0-d copy) a 0-d
array takes the scalar path and is copied, while an array of one or more dimensions is still shared and
torch.as_tensor still shares the 0-d one. Seen on 2.0.1, 2.6.0, 2.13.0 and 2.14.1 (copies) and 1.13.1 (shares);
`torch.asarray:ndarray.zero_dim` in specs/forms.yaml. Compiled, dynamo hands asarray the tensor behind the traced
array, which it shares: eager and compiled disagree too. No upstream report of the 0-d array case found (torch.tensor's
like confusion of scalars and 0-d arrays was issue 97021). Either the page should say that a 0-d array is copied, or
asarray should share it as as_tensor does."""
import sys
import numpy as np
import torch


def shares(make, a):
    t = make(a)
    before = a.copy()
    t.fill_(7)                                # a write through the result reaches the array only if they share memory
    return not np.array_equal(a, before)


shared = {}
for label, a in [("0-d array", np.array(1.5, dtype=np.float32)), ("1-d array", np.array([1.5], dtype=np.float32))]:
    print(f"torch {torch.__version__}, numpy {np.__version__}, {label}: "
          f"asarray shares: {shares(torch.asarray, a.copy())}, as_tensor shares: {shares(torch.as_tensor, a.copy())}")
    shared[label] = shares(torch.asarray, a.copy())

def program(t):
    return torch.asarray(t.numpy())


# the same program compiled: dynamo passes asarray the tensor behind the traced array
for name in ["eager", "aot_eager"]:
    t = torch.tensor(1.5)
    try:
        fn = program if name == "eager" else torch.compile(program, backend=name, fullgraph=True)
        r = fn(t)
        print(f"{name:9s} torch {torch.__version__}: asarray(t.numpy()) of a 0-d tensor shares its memory: "
              f"{r.data_ptr() == t.data_ptr()}")
    except Exception as e:                    # noqa: BLE001 - no torch.compile on 1.13, nor on 2.0 under Python 3.11
        print(f"{name:9s} torch {torch.__version__}: {type(e).__name__}: {str(e).splitlines()[0][:120]}")
# the bug (eager, the draft's claim): asarray copies a 0-d NumPy array where the page promises it is shared
reproduces = not shared["0-d array"]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

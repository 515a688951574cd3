"""`t.new_tensor(t)` on a tensor with a lazy conjugate or negative bit raises "DispatchKey Conjugate (Negative)
doesn't correspond to a device", while `t.clone().detach()`, which the new_tensor page calls its equivalent, copies
the tensor and resolves the bit (so does `torch.tensor(t)`). The error comes from `self`, not from the data: the
options of the new tensor are derived from self's dispatch keys, and the Conjugate and Negative keys name no device
(c10/core/TensorOptions.h, dispatchKeyToDeviceType). Seen on 1.13.1, 2.0.1, 2.6.0, 2.9.1, 2.13.0 and 2.14.1 (CPU; meta on 2.13.0); no upstream issue
found (searched the issues corpus for the message and for new_tensor with conj/neg views). The suite states it in
specs/conversions.yaml (`new_tensor`, `new_tensor:requires_grad`)."""
import sys
import warnings

import torch

warnings.simplefilter("ignore")   # torch.tensor(t) and new_tensor(t) warn that clone().detach() is recommended

z = torch.tensor([1 + 2j, 3 - 4j])
CALLS = [("t.new_tensor(t)", lambda t: t.new_tensor(t)), ("t.clone().detach()", lambda t: t.clone().detach()),
         ("torch.tensor(t)", lambda t: torch.tensor(t))]
refused = []
for name, source in [("conj", z.conj()), ("neg", z.conj().imag)]:   # conj().imag carries the negative bit
    for label, fn in CALLS:
        try:
            r = fn(source)
            print(f"torch {torch.__version__} {name:4s} {label:20s} ok: {r.tolist()} (is_conj {r.is_conj()}, "
                  f"is_neg {r.is_neg()})")
        except RuntimeError as e:
            print(f"torch {torch.__version__} {name:4s} {label:20s} RuntimeError: {e}")
            refused.append(label == "t.new_tensor(t)")
# the bug: new_tensor refuses a lazy-bit tensor that clone().detach(), its documented equivalent, copies
reproduces = any(refused)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""`torch.unsafe_split(w, 5, 1)[0]` of a parameter `w` of shape (2, 3) (one chunk: the whole tensor), compiled by
inductor and called under torch.no_grad(), returns the parameter object itself. Eager returns a tensor of its own
that shares w's memory and does not require grad. The compiled result requires grad (it is w), so a caller's
backward through it accumulates a gradient into w, and a caller's write into it is refused ("a leaf Variable that
requires grad is being used in an in-place operation"). unsafe_chunk(w, 1, 0)[0] and unsafe_split_with_sizes(w, [3],
1)[0] do the same, with static and dynamic shapes. aot_eager holds. A chunk smaller than the whole tensor holds too.
Mechanism as read: unsafe_split is no view op, so AOTAutograd's functional trace gives its output a storage of its
own and classifies the output as non_alias (torch/_functorch/_aot_autograd/collect_metadata_analysis.py), while the
graph computes it with aten.split; inductor lowers a split whose one chunk is the whole input to the input buffer
itself, and the non_alias output is handed back as it comes: the input.
Seen on torch 2.13.0 and 2.14.1 (found by `python -m copysuite fuzz`, surface vocabulary, a module's parameter).
No upstream report found; closest: issue 197893 (open: `x + 0` returned as the input itself by inductor from 2.14,
another mechanism: joint-graph no-op removal), PR 186503 (open: multi-output views of inputs classified non_alias)."""
import sys
import torch


def program(w):
    return torch.unsafe_split(w, 5, 1)[0]


seen = {}
for name, fn in (("eager", program), ("inductor", torch.compile(program, backend="inductor"))):
    w = torch.nn.Parameter(torch.arange(6.0).reshape(2, 3))
    with torch.no_grad():
        out = fn(w)
    shares = out.untyped_storage().data_ptr() == w.untyped_storage().data_ptr()
    print(f"{name:9s} torch {torch.__version__}: result is w: {out is w}, shares w's memory: {shares}, "
          f"requires_grad: {out.requires_grad}")
    seen[name] = (out is w, out.requires_grad)
# the bug: inductor's result is the parameter itself, requiring grad; eager's is a tensor of its own that does not
reproduces = seen["inductor"] == (True, True) and seen["eager"] == (False, False)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""`torch.squeeze_copy(torch.unsqueeze_copy(x, 0), 0)` (and `torch.unsqueeze_copy(torch.unbind_copy(x, 0)[0], 0)` of
an x of shape (1,)) compiled by inductor and called under torch.no_grad() returns x itself. Eager returns a tensor
of its own, as every `*_copy` op's documentation promises ("all output tensors are freshly created instead of
aliasing the input", torch.unsqueeze_copy.__doc__): a caller that writes into the compiled result writes into x.
With grad enabled and x requiring grad, the compiled result is another object on x's memory. aot_eager holds, and so
do one `*_copy` op alone (alias_copy, view_copy, expand_copy, permute_copy, detach_copy, slice_copy of the whole
tensor) and select_copy then unsqueeze_copy. Seen on torch 2.6.0 (squeeze of unsqueeze), 2.8.0, 2.12.1, 2.13.0 and
2.14.1 (both chains); 2.4.1 holds, and 2.2.2. Found by `python -m copysuite fuzz` (compile.inductor, surface
vocabulary, seed 6710). Mechanism not read. No upstream report found; closest: issue 197893 (open: `x + 0` returned
as the input itself by inductor from 2.14, joint-graph no-op removal) and this suite's
unsafe_split_whole_returns_input_inductor.py (a split whose one chunk is the whole input)."""
import sys
import torch


def program(x):
    return torch.squeeze_copy(torch.unsqueeze_copy(x, 0), 0)


seen = {}
for name, fn in (("eager", program), ("inductor", torch.compile(program, backend="inductor"))):
    x = torch.zeros(3)
    with torch.no_grad():
        out = fn(x)
    out.add_(1)
    print(f"{name:9s} torch {torch.__version__}: result is x: {out is x}, "
          f"x after a write into the result: {x.tolist()}")
    seen[name] = (out is x, x.tolist())
# the bug: inductor's result is x itself, so the write reaches x; eager's result is a tensor of its own
reproduces = seen["inductor"] == (True, [1.0, 1.0, 1.0]) and seen["eager"] == (False, [0.0, 0.0, 0.0])
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""An alias of a graph input changed in its metadata or its storage inside a compiled function, where the input
itself is not written: eagerly the alias shares the input's version counter, so the change bumps the input's
`_version` (autograd can tell that a saved input was altered); compiled with an AOTAutograd backend the counter does
not move. Silent. Two programs, one cause (docs/compile.md): only the alias changes, the input's own data, metadata
and storage do not, so AOTAutograd's mutation analysis flags no input mutation and neither applies one back nor bumps
a counter (`_apply_input_mutations`, `_codegen_increment_mutation_versions` in runtime_wrappers.py act on flagged
inputs only).
1. An in-place metadata change (transpose_, t_, unsqueeze_, as_strided_) on `t.detach()`. Dynamo alone
   (backend="eager") keeps eager's behaviour. The direct `t.transpose_()` on a graph input is a graph break by design
   (issue 149907); on an alias made inside the function there is none. The same holds for other aliases made inside
   (`t[::2].transpose_(0, -1)`, `t.view(torch.int32).unsqueeze_(0)`: found by `python -m copysuite fuzz`).
2. set_() on a view of the input (merged here from set_on_view_of_input.py): the input's counter does not move and
   the returned view no longer shares it (eagerly the view stays an autograd view of the input, with its counter,
   which set_ moves). Closest for this one: issue 94773 (set_ and .data sever aliasing under dynamo).
Seen on torch 2.2.2, 2.4.1, 2.6.0, 2.8.0, 2.10.0, 2.13.0 and 2.14.1 (every release tried), aot_eager and inductor.
Closest: PR 100787 (that graph break), issue 135441 (a data write through a view, not a metadata change); no report
or fix found (PR 111554 handled `set_` on an input itself)."""
import sys

import torch


def metadata_change(t):
    t.detach().transpose_(0, 1)
    return t


def set_on_view(source, b):
    v = source.unsqueeze(0)
    v.set_(b)
    return v


moved = {}
for backend in ("eager (no compile)", "eager", "aot_eager"):
    fn = metadata_change if backend.startswith("eager (") else torch.compile(metadata_change, backend=backend,
                                                                              fullgraph=True)
    t = torch.zeros(2, 3)
    before = t._version
    fn(t)
    moved["metadata", backend] = t._version != before
    print(f"1. transpose_ of t.detach(), {backend:18s} torch {torch.__version__}: t._version moved by "
          f"{t._version - before}")

for backend in ("eager (no compile)", "aot_eager"):
    fn = set_on_view if backend.startswith("eager (") else torch.compile(set_on_view, backend=backend, fullgraph=True)
    source = torch.arange(6.0).reshape(2, 3)
    b = source.clone()
    before = source._version
    v = fn(source, b)
    version_moved = source._version != before
    v_before = source._version
    v.add_(1)                                  # a write through the returned view
    shares_counter = source._version != v_before
    moved["set_", backend] = (version_moved, shares_counter)
    print(f"2. set_ on a view,            {backend:18s} torch {torch.__version__}: input version moved: "
          f"{version_moved}; view shares the input's version counter: {shares_counter}; view lives in b: "
          f"{v.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()}")
# the bug: under AOTAutograd the input's counter does not move where it does eagerly, in either program
metadata = moved["metadata", "eager (no compile)"] and not moved["metadata", "aot_eager"]
set_ = moved["set_", "aot_eager"] != moved["set_", "eager (no compile)"]
print(f"differs from eager: 1. metadata change {metadata}; 2. set_ on a view {set_}")
reproduces = metadata or set_
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

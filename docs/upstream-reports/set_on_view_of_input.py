"""set_() on a view of a graph input, compiled through AOTAutograd: the input's version counter does not move and the
returned view no longer shares it (eager: the view stays an autograd view of the input, with the input's counter,
which set_ moves). Seen on torch 2.2.2 ... 2.14.1 with aot_eager and inductor; backend="eager" matches eager."""
import sys
import torch


def program(source, b):
    v = source.unsqueeze(0)
    v.set_(b)
    return v


seen = {}
for name, fn in [("eager", program),
                 ("aot_eager", torch.compile(program, backend="aot_eager", fullgraph=True))]:
    source = torch.arange(6.0).reshape(2, 3)
    b = source.clone()
    before = source._version
    v = fn(source, b)
    version_moved = source._version != before
    v_before = source._version
    v.add_(1)                                  # a write through the returned view
    shares_counter = source._version != v_before
    print(f"{name:10s} torch {torch.__version__}: input version moved: {version_moved}; "
          f"view shares the input's version counter: {shares_counter}; view lives in b: "
          f"{v.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()}")
    seen[name] = (version_moved, shares_counter)
# the bug: under AOTAutograd the input's counter does not move and the view no longer shares it
reproduces = seen["aot_eager"] != seen["eager"]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""copy_ into a view of a graph input that requires grad, returned, under torch.inference_mode, compiled through
AOTAutograd: the compiled call does not do what eager does on any release tried, in one of two ways.
- 2.2.2 ... 2.6.0 (every backend), silently: the returned view is not an autograd view of the input (its `_base` is
  not the input's base); with inductor on 2.2.2 and 2.4.1 the write does not move the input's version counter either.
  This is the draft's own finding (no upstream report found); 2.8.0 agreed with eager when the draft was written.
- 2.13.0 and 2.14.1 (the releases between 2.8.0 and them not rerun): the compile fails with "A view was created in
  no_grad mode and its base or another view of its base has been modified inplace with grad mode enabled", issue
  158561 (open), which the suite records already (specs/compiled.yaml `compiled.copy_into_view_of_input`). On these
  releases this draft is a duplicate of that record, and says so in its output: an input that requires grad always
  meets that error first, so whether the silent part stays fixed cannot be seen (a frozen input, which does not
  require grad, holds on 2.13.0).
Eager: a view of the input, counter moved, input written. The verdict is REPRODUCES when a compiled call differs from
eager in either way; the last lines name which.
"""
import sys

import torch

NO_GRAD_VIEW_ERROR = "A view was created in no_grad mode"   # issue 158561's message


def program(source, b):
    return source.unsqueeze(0).copy_(b)


seen = {}
for name, fn in [("eager", program),
                 ("aot_eager", torch.compile(program, backend="aot_eager", fullgraph=True)),
                 ("inductor", torch.compile(program, backend="inductor", fullgraph=True))]:
    leaf = torch.arange(10.0).requires_grad_()
    source = leaf.as_strided((2, 3), (5, 2))  # a non-leaf view of a leaf that requires grad
    b = source.detach() + 1
    before = source._version
    try:
        with torch.inference_mode():
            r = fn(source, b)
        seen[name] = (r._base is source._base, source._version != before, torch.equal(source, b))
        print(f"{name:10s} torch {torch.__version__}: result._base is the input's base: {seen[name][0]}; "
              f"input version moved: {seen[name][1]}; input written: {seen[name][2]}")
    except Exception as exc:  # noqa: BLE001 - the compiled call's error is what this script reports
        message = next((line for line in str(exc).splitlines() if NO_GRAD_VIEW_ERROR in line), "")
        seen[name] = "issue 158561" if message else type(exc).__name__
        print(f"{name:10s} torch {torch.__version__}: {type(exc).__name__}: "
              f"{(message or str(exc).splitlines()[0])[:120]}")
silent = [n for n in ("aot_eager", "inductor") if isinstance(seen[n], tuple) and seen[n] != seen["eager"]]
known = [n for n in ("aot_eager", "inductor") if seen[n] == "issue 158561"]
other = [n for n in ("aot_eager", "inductor") if isinstance(seen[n], str) and seen[n] != "issue 158561"]
print(f"silent difference (this draft's finding, 2.2-2.6): {silent or 'none'}; issue 158561's error (recorded in "
      f"specs/compiled.yaml, compiled.copy_into_view_of_input): {known or 'none'}; another error: {other or 'none'}")
reproduces = bool(silent or known or other)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""Two overlapping slices of one non-leaf base (`a = source`, `b = source[1:]`; the program writes `a` and returns
`b`), passed to one function compiled with dynamic=True that compiled a strided input before: the recompile fails
in dynamo's guard creation with `AssertionError: sources must not be empty for symbol sNN`
(ShapeEnv.produce_guards_verbose) as soon as the backend puts a guard on the synthetic base's sizes.

Why: on that recompile AOTAutograd merges the aliased inputs into a synthetic base and fakifies b's base anew
(frontend_utils.convert, source `L['args'][2]._base`, `L['b']._base` from 2.13) with fresh symbols. Dynamo never
tracked that source, so a guard on those symbols has no source to be written with, and produce_guards asserts. On a
first compile the base's sizes reuse the inputs' symbols (no fresh ones) and it compiles; an earlier compile of a
contiguous input does not bring the fresh symbols either, one of a strided (or transposed) input does.

What the suite saw: `compiled.overlapping_views` under `compile.inductor.dynamic` on CUDA (torch 2.11.0+cu130,
H200) failed this way on the non-leaf (2, 3) contiguous corner cases (no_grad and grad enabled) at compile [0/20],
`symbol s62`, in the whole run, and at compile [0/4] when the entry ran alone (its own strided draws came first;
under `compile.aot_eager.dynamic` it held). Replayed on the CPU (2.12.1), the same calls in the same order (`compiled.same_tensor_twice`'s, then
this entry's) recompile that case as [0/20] too and create s62 = `L['args'][2]._base.size()[1]` there, but inductor's
CPU code puts no guard on it, so it compiles; inductor's CUDA code evidently does (not run on CUDA here). Part 2
below is a backend that adds one such guard, which reproduces the assertion on the CPU.

Ran on CPU (`python sources_empty_symbol_overlapping_views.py`), part 1 (inductor) "ok" on every release (eager and
compiled both [[5.0, 6.0, 7.0]]); part 2, compiled (the symbol named is the first of the base's that it checks):
  2.10.0   AssertionError (no message)
  2.12.1   AssertionError: sources must not be empty for symbol s24
  2.13.0   AssertionError: sources must not be empty for symbol s14
  2.14.1   AssertionError: sources must not be empty for symbol s14
(`python sources_empty_symbol_overlapping_views.py cuda` runs part 1 on CUDA: the suite's failure if it raises.)

Closest upstream: no issue or PR with this message or this mechanism was found (searched: "sources must not be
empty", produce_guards symbol without source, synthetic base fakified again, dynamic shapes of aliased inputs). The
nearest is PR 184481 (closed, not merged): guards on the layouts of synthetic-base inputs, added in AOTAutograd's
compute_overlapping_inputs for the inputs' own sources; it does not touch the base's fresh symbols.
"""
import sys

import torch
import torch._functorch.config
import torch._inductor.config
from torch._dynamo.backends.common import aot_autograd

device = sys.argv[1] if len(sys.argv) > 1 else "cpu"
# no graph from an earlier process: inductor's and AOTAutograd's caches serve graphs compiled for other inputs
torch._inductor.config.fx_graph_cache = False
torch._functorch.config.enable_autograd_cache = False

# defined from text, as the suite defines its programs (up to 2.12 torch.compile then wraps the function, so the
# inputs are L['args'][i], as in the CUDA log)
TEXT = "def program(source, a, b):\n    a.add_(1)\n    result = b\n    return result\n"


def defined():
    namespace = {}
    exec(compile(TEXT, "<compiled.overlapping_views>", "exec"), namespace)  # noqa: S102 - the program above
    return namespace["program"]


def guarding_compiler(gm, example_inputs):
    """A backend that guards on a relation between the sizes of its 2-d inputs (here: the synthetic base)."""
    for x in example_inputs:
        if isinstance(x, torch.Tensor) and x.dim() == 2:
            bool(x.shape[0] < x.shape[1])
    return gm


def run(backend, label):
    program = defined()
    compiled = torch.compile(program, backend=backend, fullgraph=True, dynamic=True)
    strided = torch.arange(1.0, 11.0, device=device).as_strided((2, 3), (5, 2))  # plain, over a strided base
    with torch.no_grad():
        compiled(strided, strided, strided[1:])

    def inputs():
        source = torch.empty((2, 3), device=device)
        source.copy_(torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
        source = source.requires_grad_() * 1  # a non-leaf
        return source, source, source[1:]     # built with grad enabled, as the suite builds them

    eager_args, args = inputs(), inputs()
    with torch.no_grad():
        eager = program(*eager_args)
        try:
            outcome = f"ok, {compiled(*args).tolist()}"
        except Exception as exc:  # noqa: BLE001 - the report prints what the compiled call raised
            lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
            outcome = f"{type(exc).__name__}: {lines[-1] if lines else '(no message)'}"
    print(f"torch {torch.__version__} on {device}, {label}: eager {eager.tolist()}; compiled: {outcome}")
    return outcome.startswith("AssertionError")


if device == "cuda" and not torch.cuda.is_available():
    print(f"torch {torch.__version__}: no CUDA device; part 1 on CUDA (the suite's failure) needs one")
    reproduces = None
elif device == "cuda":
    # on CUDA the claim is the suite's failure: inductor's own guard asserts
    reproduces = run("inductor", "part 1, inductor")
else:
    run("inductor", "part 1, inductor")
    # on the CPU inductor puts no guard on the base (part 1 is "ok"): the claim is part 2's assertion
    reproduces = run(aot_autograd(fw_compiler=guarding_compiler), "part 2, a backend guarding on the synthetic base")
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

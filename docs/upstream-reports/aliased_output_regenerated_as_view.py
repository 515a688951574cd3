"""**Silent** on torch 2.2 (2.3 not tried): a compiled function returning `x.detach()` gives the caller an autograd
view of `x` (`result._base is x`), where eager's detach() has no view metadata. AOTAutograd regenerated every output
that aliases an input as a view of that input; PR 121007 ("Replay views on output using FunctionalTensor metas", 2.4)
replays the output's own view ops instead, detach included, behind `torch._functorch.config.view_replay_for_aliased_outputs`
(on by default). The script compiles detach() with that switch on and off: on 2.4.1 off brings 2.2.2's view back.
Record `aliased_output_regenerated_as_view` in specs/conversions.yaml (`detach`, `data`; aot_eager and inductor). Fixed
upstream: nothing to file, kept as the evidence of the 2.2 cells."""
import sys

import torch
import torch._functorch.config as functorch_config

as_installed = {}
for replay in (True, False):
    if hasattr(functorch_config, "view_replay_for_aliased_outputs"):
        functorch_config.view_replay_for_aliased_outputs = replay
    for backend in ("aot_eager", "inductor"):
        torch._dynamo.reset()
        x = torch.randn(2, 3)
        r = torch.compile(lambda t: t.detach(), backend=backend, fullgraph=True)(x)
        switch = getattr(functorch_config, "view_replay_for_aliased_outputs", "absent")
        print(f"torch {torch.__version__} {backend:9s} view_replay_for_aliased_outputs={switch}: "
              f"detach() result._base is x: {r._base is x}")
        if replay:
            as_installed[backend] = r._base is x
# the bug: with torch's defaults (the switch on, where it exists) the compiled detach() is a view of x
reproduces = any(as_installed.values())
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""torch 2.2.2, torch.compile(backend="inductor"): `torch.cat([x, x], out=out)` with an out of the right shape neither
writes out nor returns it (silent: the result is a new tensor and out keeps its old values); eagerly and under
aot_eager out is written and returned, and 2.4.1's inductor does the same. Seen by the operator surface's cells
(copysuite/surface, surface.out:cat). No upstream issue found (searched: inductor cat out= not written; closest,
pytorch/pytorch issue 120242, "torch.compile with out parameters create extra buffers", is about the copy, not a
lost write). Seen on 2.2.2; FIXED on 2.4.1, 2.13.0 and 2.14.1, no fixing PR identified. On 2.0.1 inductor returns out
but fills it with values that are not the result (unwritten memory: out neither keeps its zeros nor holds the cat), with
static shapes; the matrix's surface.out:cat writes_out (issue 39). Each backend compiles afresh (dynamo reset between):
2.0's dynamo would otherwise serve the inductor call with the graph compiled for aot_eager.
"""
import sys

import torch
import torch._dynamo


def program(x, out):
    return torch.cat([x, x], out=out)


seen = {}
for name, fn in [("eager", program), ("aot_eager", torch.compile(program, backend="aot_eager")),
                 ("inductor", torch.compile(program, backend="inductor"))]:
    torch._dynamo.reset()
    x, out = torch.randn(3, 4), torch.zeros(6, 4)
    result = fn(x, out)
    print(f"{name:9s} torch {torch.__version__}: result is out: {result is out}, "
          f"out written: {torch.equal(out, torch.cat([x, x]))}")
    seen[name] = (result is out, torch.equal(out, torch.cat([x, x])))
# the bug: inductor neither returns out nor writes it
reproduces = seen["inductor"] != seen["eager"]
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

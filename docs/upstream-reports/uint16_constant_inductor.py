"""A small uint16 (or uint32) tensor literal inside a compiled function fails under inductor: `t.new_tensor([1, 0])`
of a uint16 tensor, or `torch.tensor([1, 0], dtype=torch.uint16)`, raises "Promotion for uint16, uint32, uint64
types is not supported, attempted to promote Bool and UInt16". Inductor builds constants of up to 8 elements from
`where` over the index, and promoting bool with uint16 is refused. Eager returns the tensor. Seen on 2.4.1 ... 2.14.1
(torch.uint16 is new in 2.3); uint8 and 9-element literals compile. No upstream report found (2026-11-25)."""
import sys
import torch


def program(t):
    return t.new_tensor([1, 0])


source = torch.tensor(40, dtype=torch.uint16)
failed = {}
for how, fn in [("eager", program), ("inductor", torch.compile(program, backend="inductor", fullgraph=True))]:
    try:
        r = fn(source)
        print(f"torch {torch.__version__} {how:8s}: ok {r.dtype} {r.tolist()}")
    except Exception as e:                    # noqa: BLE001
        failed[how] = True
        print(f"torch {torch.__version__} {how:8s}: {type(e).__name__}: {str(e).splitlines()[0][:160]}")
# the bug: the compiled call fails where eager runs
reproduces = failed.get("inductor", False) and not failed.get("eager", False)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""A complex copy made by a compiled function comes out requiring grad where eager's does not (silent): under inductor,
`cfloat()` of a 0-d tensor under no_grad, `torch.tensor(t)`, `t.to(copy=True)` under no_grad and `t.new_tensor(t)`
of a tensor that requires grad return a leaf that requires grad. The copy is decomposed to
prims.convert_element_type, which inductor cannot generate code for with complex dtypes and calls as a fallback;
that prim's eager implementation allocates its result with the input's requires_grad. Seen on 2.2.2, 2.8.0 ...
2.14.1 (2.6.0: the no_grad cfloat case only; 2.4.1 holds); aot_eager holds; on CUDA too (2.11.0+cu130, H100 and
H200: the suite's `torch.tensor`, `to:copy`, `new_tensor`, `new_tensor:grad_source`, and this script's four programs
with `torch.set_default_device('cuda')`). No upstream report found; the closest is issue 139629 (open: inductor
should run its fallbacks without the Autograd dispatch keys)."""
import sys
import torch

PROGRAMS = {
    "s.cfloat() of a 0-d tensor under no_grad": (lambda s: s.cfloat(), torch.zeros(()), True),
    "torch.tensor(s)": (lambda s: torch.tensor(s), torch.zeros(3, dtype=torch.complex64), False),
    "s.to(copy=True) under no_grad": (lambda s: s.to(copy=True), torch.zeros(3, dtype=torch.complex64), True),
    "s.new_tensor(s)": (lambda s: s.new_tensor(s), torch.zeros(3, dtype=torch.complex128), False),
}

requires = []
for name, (program, source, no_grad) in PROGRAMS.items():
    source.requires_grad_()
    for how, fn in [("eager", program), ("inductor", torch.compile(program, backend="inductor", fullgraph=True))]:
        torch._dynamo.reset()
        with torch.set_grad_enabled(not no_grad):
            r = fn(source)
        print(f"torch {torch.__version__} {how:8s} {name}: requires_grad {r.requires_grad} (eager: False)")
        requires.append(how == "inductor" and r.requires_grad)
# the bug: any of the four copies comes out of inductor requiring grad
reproduces = any(requires)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""An in-place view op on an input (`a.transpose_(0, -1)`, returned): eagerly, and in the module of
torch.export.export, the call returns `a` itself and bumps its version counter. After `run_decompositions()`: where
the op leaves the metadata as it was (a 1-d or 0-d input: transpose_(0, -1) swaps a dim with itself) the module
returns a new view of `a` (`out is a` False) and `a`'s version counter does not move; where it changes the
metadata (a 2-d input) the decomposed module raises at the call (AttributeError: 'NoneType' object has no attribute
'size', in its _guards_fn) instead of applying it. aot_export bans input metadata mutations ("Found an input that
received a metadata mutation ... currently banned in the aot_export workflow", torch/_functorch/aot_autograd.py),
but run_decompositions() raises neither that error at decomposition time nor runs the program. Found by
`python -m copysuite fuzz --vocabulary surface --execution export.decomposed` (seeds 5103, 5203: a module's buffers
`count` and `running`, a LoggingTensor input; `c.resize_(1)` of a (2, 3) input, where run_decompositions() itself
raises AssertionError "len(mutations) (0) != num_mutated_inp_runtime_indices (1)"; seed 6404: `a.set_(a)`, which
the decomposed graph drops, and `a.set_(b)` raises AssertionError at the call); seen on torch 2.13.0 and 2.14.1.
No upstream report found (closest: PR 111554, metadata mutations that cancel out; issue 195993)."""
import sys
import torch


class Program(torch.nn.Module):
    def forward(self, a):
        return a.transpose_(0, -1)


class SetSelf(torch.nn.Module):
    def forward(self, a):
        a.set_(a)
        return a


class SetOther(torch.nn.Module):
    def forward(self, a):
        a.set_(torch.ones(3))
        return a


class Resize(torch.nn.Module):
    def forward(self, a):
        a.resize_(1)
        return a


def run(name, make, how, program=Program):
    a = make()
    version = a._version
    try:
        if how == "eager":
            out = program()(a)
        else:
            ep = torch.export.export(program(), (make(),))
            out = (ep.run_decompositions() if how == "decomposed" else ep).module()(a)
    except Exception as exc:  # noqa: BLE001 - an error where eager returns is the report
        print(f"torch {torch.__version__} {name} {how}: raised {type(exc).__name__}: {str(exc).splitlines()[0][:80]}")
        return "raised"
    moved = a._version != version
    print(f"torch {torch.__version__} {name} {how}: out is a: {out is a}, a's version moved: {moved}, "
          f"a's shape {tuple(a.shape)}")
    return (out is a, moved, tuple(a.shape))


differs = []
for name, make, program in (("1-d input", lambda: torch.arange(3.0), Program),
                            ("0-d input", lambda: torch.tensor(0), Program),
                            ("2-d input", lambda: torch.arange(6.0).reshape(2, 3), Program),
                            ("resize_ of a 2-d input", lambda: torch.arange(6.0).reshape(2, 3), Resize),
                            ("set_ to itself", lambda: torch.arange(3.0), SetSelf),
                            ("set_ to another tensor", lambda: torch.arange(3.0), SetOther)):
    eager = run(name, make, "eager", program)
    for how in ("exported", "decomposed"):
        if run(name, make, how, program) != eager:
            differs.append(f"{name} {how}")
print("differs:", ", ".join(differs) or "none")
# the bug: after run_decompositions() the in-place view op (or set_) of an input is not replayed as eager runs it
reproduces = any(d.endswith("decomposed") for d in differs)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""Inductor's C++ backend emits a `complex64` type that the generated C++ does not declare, and the kernel fails to
compile (CppCompileError: "error: 'complex64' does not name a type") when a complex value is built from a
non-contiguous input: `torch.view_as_complex(torch.view_as_real(x))` of a transposed complex64 tensor (2.2.2, 2.4.1),
`x.cfloat()` of a transposed float32 tensor (2.4.1). Seen in the old matrix runs of 2.2.2 and 2.4.1 under
compile.inductor and compile.inductor.dynamic (`cfloat:cast`, `view_as_real.view_as_complex`, and on 2.4.1 the complex
constants of `new_tensor:list` and `torch.asarray:python_list`); 2.6.0, 2.13.0 and 2.14.1 compile all three programs
(2.5 not run). No upstream issue or fix PR found (issues corpus searched for the compiler message and for inductor
complex C++ codegen). Fixed upstream: nothing to file, kept as the evidence of the 2.2 and 2.4 cells."""
import sys
import torch


def attempt(label, program, x):
    """Compiles program with inductor; True when the C++ kernel fails to compile on the complex type."""
    torch._dynamo.reset()
    try:
        r = torch.compile(program, backend="inductor", fullgraph=True)(x)
        shown, hit = f"ok, {r.dtype}, equal to eager: {torch.equal(r, program(x))}", False
    except Exception as e:            # noqa: BLE001 - the compile error is what is shown
        hit = "does not name a type" in str(e)
        shown = f"{type(e).__name__}: " + ("'complex64' does not name a type" if hit else str(e).strip()[-100:])
    print(f"torch {torch.__version__} inductor {label:48s} {shown}")
    return hit


hits = [
    attempt("view_as_complex(view_as_real(x)), x transposed", lambda s: torch.view_as_complex(torch.view_as_real(s)),
            torch.randn(3, 2, dtype=torch.complex64).t()),
    attempt("x.cfloat(), x a transposed float32 tensor", lambda s: s.cfloat(), torch.randn(3, 2).t()),
]
attempt("x.cfloat(), x a contiguous float32 tensor", lambda s: s.cfloat(), torch.randn(2, 3))
reproduces = any(hits)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

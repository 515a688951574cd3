"""An empty tensor with a lazy negative or conjugate bit fails to compile under AOTAutograd: INTERNAL ASSERT FAILED
"cloned_mutable_input.is_same(returned_output)" at aten/src/ATen/native/MathBitsFallback.h. Tracing takes an alias
of the input (detach, or `_to_copy`'s no-op decomposition `aten.alias`); the fake kernel of `aten.alias` is
`self.view(self.shape)`, and the reference view of a tensor without elements is `prims.as_strided`, whose schema marks
its input as written (`Tensor(a!)`): the math-bits fallback clones such an input to resolve the bit, and then asserts
that the op returned that clone, which a view of it is not. `torch.ops.prims.as_strided` called eagerly on a neg or
conj tensor fails the same assert on every release (2.4.1 ... 2.14.1); what changes is whether tracing reaches it.
Seen on 2.6.0, 2.7.1 and 2.8.0 (the old matrix runs of 2.6.0 and 2.8.0: clone, contiguous, casts, to(), detach,
.data, torch.tensor, torch.as_tensor, numpy(force=True) of empty neg/conj inputs, under every compiled execution; on
2.6.0 mostly the backward of a clone); 2.4.1 fails earlier with the RecursionError of PR 132699 (record
`lazy_bit_prims_clone_recursion`); 2.13.0 and 2.14.1 compile both programs (2.10.0 and 2.12.1 held the same matrix
cells; 2.9 not run). No upstream issue or fix PR found (issues corpus searched for the assert's text, MathBitsFallback,
prims.as_strided with conj/neg; PR 194742, closed unmerged, would let prims.as_strided keep the bits)."""
import sys
import torch


def attempt(label, make, program, **kwargs):
    """Compiles program on the input make() builds; True when it fails with the math-bits assert."""
    torch._dynamo.reset()
    x = make()
    try:
        r = torch.compile(program, backend="aot_eager", fullgraph=True, **kwargs)(x)
        shown, hit = f"ok, shape {tuple(r.shape)}, is_neg {r.is_neg()}, is_conj {r.is_conj()}", False
    except Exception as e:            # noqa: BLE001 - the compile error is what is shown
        hit = "cloned_mutable_input.is_same(returned_output)" in str(e)
        shown = f"{type(e).__name__}: " + ("MathBitsFallback assert" if hit else str(e).strip().splitlines()[-1][:100])
    print(f"torch {torch.__version__} aot_eager {label:42s} {shown}")
    return hit


def neg_leaf(n):
    def make():
        x = torch._neg_view(torch.zeros(n, dtype=torch.float16))
        return x.requires_grad_()
    return make


def neg_inference_strided(n):
    def make():
        with torch.inference_mode():
            base = torch.zeros(n * 12, dtype=torch.complex64)
            x = base.as_strided((3, 4, n), (1, 3, 12), 0)
        return torch._neg_view(x)
    return make


def conj_plain(n):
    return lambda: torch.zeros(1, dtype=torch.complex128).as_strided((n,), (0,), 0).conj()


hits = [
    attempt("clone of an empty neg leaf (requires grad)", neg_leaf(0), lambda s: s.clone()),
    attempt("detach of an empty neg leaf (requires grad)", neg_leaf(0), lambda s: s.detach()),
    attempt("to(itself) of an empty neg inference tensor", neg_inference_strided(0), lambda s: s.to(s)),
    attempt("cdouble() of an empty complex128 conj tensor", conj_plain(0), lambda s: s.cdouble()),
]
# the same programs on inputs with elements: the reference view is not as_strided there, and they compile
attempt("clone of a neg leaf with 4 elements", neg_leaf(4), lambda s: s.clone())
attempt("to(itself) of a neg inference tensor with elements", neg_inference_strided(1), lambda s: s.to(s))
reproduces = any(hits)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

"""The backward of advanced indexing, `x[torch.tensor([0])]` of an x that requires grad, compiled by inductor on torch
2.2, fails to compile in two ways. Part 1: a float16 x (static shapes): the backward's index_put with accumulate is a
C++ kernel calling `atomic_add(half*, float)`, which has no overload (CppCompileError "no matching function for call
to 'atomic_add(half*, float&)'"). Part 2: a strided complex64 x with dynamic shapes: BackendCompilerFailed
"AssertionError: <class 'sympy.core.symbol.Symbol'>". A float32 x, and the complex x with static shapes, compile; eager
and aot_eager send ones to the indexed element. Seen on torch 2.2.2; 2.4.1 compiles both (the fixing changes were not
identified). No upstream issue found."""
import sys

import torch
import torch._dynamo


def program(source):
    return source[torch.tensor([0], device=source.device)]


parts = [("1: float16 (1,), static", lambda: torch.zeros(1, dtype=torch.float16), False),
         ("2: complex64 strided (2, 2), dynamic", lambda: torch.zeros(6, dtype=torch.complex64).as_strided((2, 2), (4, 1)),
          True)]
differs = []
for part, make, dynamic in parts:
    grads = {}
    for name, backend in [("eager", None), ("aot_eager", "aot_eager"), ("inductor", "inductor")]:
        torch._dynamo.reset()
        x = make().requires_grad_()
        fn = program if backend is None else torch.compile(program, backend=backend, fullgraph=True, dynamic=dynamic)
        try:
            result = fn(x)
            result.backward(torch.ones_like(result))
            grads[name] = x.grad.tolist()
            print(f"part {part}: {name:9s} torch {torch.__version__}: grad {grads[name]}")
        except Exception as e:                    # noqa: BLE001
            message = str(e)
            at = message.find("error:")
            print(f"part {part}: {name:9s} torch {torch.__version__}: {type(e).__name__}: "
                  f"{(message[at:at + 90] if at >= 0 else message[:140])!r}")
    if "inductor" not in grads and "eager" in grads and "aot_eager" in grads:
        differs.append(part)
# the bug: inductor fails to compile the backward that eager and aot_eager run
print("differs:", differs or "none")
reproduces = bool(differs)
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

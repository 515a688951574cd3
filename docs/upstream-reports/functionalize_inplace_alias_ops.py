"""The in-place forms of ATen's alias ops (arccosh_ for acosh_, arcsinh_, arctan_, absolute_ for abs_, fix_ for
trunc_, negative_ for neg_, multiply_ for mul_) and polygamma_, each an ATen op of native_functions.yaml: eagerly
they run; under torch.func.functionalize each is refused as "a custom (non-ATen) operator whose output has alias
annotations", the functionalization fallback's error for operators it has no kernel for. The ops they alias
(acosh_, abs_, ...) are functionalized; torch.compile (backend="aot_eager") runs the aliases (polygamma_ aside).
Found by `python -m copysuite fuzz --execution functionalize --vocabulary surface` (arccosh_ of a 0-d std result,
seed 5202); seen on torch 2.13.0 and 2.14.1. No upstream report found (the record compile_inplace_alias is polygamma_
under torch.compile)."""
import sys

import torch

ALIASES = ("arccosh_", "arcsinh_", "arctan_", "absolute_", "fix_", "negative_")
refused = []
for name in (*ALIASES, "acosh_"):
    try:
        torch.func.functionalize(lambda a, name=name: getattr(a, name)())(torch.full((2,), 2.0))
        outcome = "runs"
    except RuntimeError as exc:
        outcome = f"refused: {str(exc)[:70]}"
        refused.append(name)
    print(f"torch {torch.__version__} functionalize {name:10s} {outcome}")
# the bug: an ATen op that eager runs is refused by functionalize as a custom operator
reproduces = bool(set(refused) & set(ALIASES))
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])

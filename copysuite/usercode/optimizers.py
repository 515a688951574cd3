"""torch's own optimizers (`torch.testing._internal.common_optimizers.optim_db`) through `copysuite.compare`: a
function `step` builds the optimizer over the parameters it is given, sets their gradients and steps twice (the
first step makes the state, the second updates it), returning the parameters and every state tensor; compare runs it
eagerly and under `torch.compile` (the step function compiled, as users compile `optimizer.step`). Parameters are
inputs, so compare sees whether each was updated in place (its version counter moved), its values, its identity
against the outputs, and the state tensors' values, geometry and aliasing. Each optimizer runs its default options
with the for-loop, foreach and fused implementations where it has them (fused where it runs on the CPU)."""
from __future__ import annotations

import dataclasses

import torch

from copysuite.usercode import modules


def step(params, grads, optimizer, options):
    """Build `optimizer(params, **options)`, give each parameter its gradient, step twice; return the parameters
    and every state tensor, in order."""
    opt = build(optimizer, params, options)
    for p, g in zip(params, grads):
        p.grad = g
    for _ in range(2):
        if isinstance(opt, torch.optim.LBFGS):
            opt.step(lambda: sum((p * g).sum() for p, g in zip(params, grads)))
        else:
            opt.step()
    state = [t for p in params for _, t in sorted(opt.state[p].items()) if isinstance(t, torch.Tensor)]
    return list(params), state


# torch.compiler is new in 2.1; before it nothing compiles the sweep, so nothing needs disabling
@getattr(getattr(torch, "compiler", None), "disable", lambda f: f)
def build(optimizer, params, options):
    """The optimizer, built eagerly: users compile `step()` on an optimizer built outside, and construction only
    breaks the graph (a setattr on the optimizer's class)."""
    return optimizer(params, **options)


@dataclasses.dataclass
class Case:
    name: str
    mode: str          # the implementation: forloop, foreach or fused
    sample: int
    desc: str
    build: object
    error: str = ""


def optimizer_cases(names=()):
    """For each optimizer of optim_db (those named, or all, but SparseAdam, which takes sparse gradients only), its
    first option set under each implementation it has on the CPU."""
    from torch.testing._internal.common_optimizers import optim_db
    for info in optim_db:
        if (names and info.name not in names) or info.only_supports_sparse_grads:
            continue
        impls = {"forloop": {"foreach": False} if "foreach" in info.supported_impls else {}}
        if "foreach" in info.supported_impls:
            impls["foreach"] = {"foreach": True}
        if "fused" in info.supported_impls and "cpu" in info.supports_fused_on:
            impls["fused"] = {"fused": True}
        inputs = info.optim_inputs_func(device="cpu")
        for mode, flags in impls.items():
            options = {**inputs[0].kwargs, **flags}
            yield Case(info.name, mode, 0, inputs[0].desc, _builder(info.optim_cls, options))


def _builder(optimizer, options):
    def build():
        torch.manual_seed(0)
        params = [torch.nn.Parameter(torch.randn(3, 4)), torch.nn.Parameter(torch.randn(4, 2))]
        grads = [torch.randn(3, 4), torch.randn(4, 2)]
        return step, (params, grads, optimizer, options), {}
    return build


def run_case(case: Case, executions, records: list, timeout: float) -> dict:
    return modules.run_case(case, executions, records, timeout)
